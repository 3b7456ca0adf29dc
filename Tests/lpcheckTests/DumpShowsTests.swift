import Foundation
import LivePhotoTestSupport
import Testing

/// What dump shows first and what it shows at all (issue 52): the Live Photo markers before the
/// box tree, ilst entries by key number, an animated GIF's frames and loop (held to Pillow and
/// ffprobe), a motion photo's embedded movie with its sample tables (held to ffprobe on the
/// movie ExifTool extracts).
extension DumpCommandTests {
    @Test("an iPhone movie's dump says its Live Photo markers in its first lines, before the box tree; ilst's children are named by key number (key 1, key 2…), never as raw type bytes")
    func markersFirst() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let movie = try #require(Locations.sharedSamples).appendingPathComponent("Bai-Mirror__pyheic_struct/apple.MOV").path
        let lines = try lpcheck(["dump", movie]).text.split(separator: "\n").map(String.init)
        let markers = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "Live Photo markers" })
        let boxes = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "boxes" })
        #expect(markers == 1 && markers < boxes, "markers at line \(markers + 1), boxes at \(boxes + 1)")
        #expect(lines[markers + 1].contains("content identifier: F08C4D29-CD6A-47D9-9200-02BD19D9F3F2") && lines[markers + 2].contains("still-image-time: value -1"))
        let ilst = try #require(lines.firstIndex { $0.contains("ilst @") })
        #expect(lines[ilst + 1].trimmingCharacters(in: .whitespaces).hasPrefix("key 1 @"), "\(lines[ilst + 1])")
        #expect(!lines.contains { $0.contains("\\x00") }, "raw type bytes shown")
    }

    @Test("an animated GIF's dump lists its frames with their delays and disposal and its loop count, as Pillow and ffprobe read them (JSON gif, text lines)")
    func gifFrames() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        try Locations.require(Locations.pythonHas("PIL"), "Pillow (PyPI)")
        let gif = try #require(Locations.sharedSamples).appendingPathComponent("gifs/image-rs__image-gif__tests_samples_moon_impact.gif").path
        let pillow = try ProcessResult.run(try #require(Locations.tool("python3")), ["-c", """
        import sys
        from PIL import Image
        image = Image.open(sys.argv[1])
        delays = []
        for index in range(image.n_frames):
            image.seek(index)
            delays.append(str(image.info.get('duration', 0) // 10))
        print(image.info.get('loop', 'none'), ' '.join(delays))
        """, gif]).text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let dump = try lpcheck(["dump", "--json", gif])
        let file = try #require((try JSONSerialization.jsonObject(with: dump.stdout) as? [[String: Any]])?.first)
        let structure = try #require(file["gif"] as? [String: Any], "\(file.keys)")
        let frames = structure["frames"] as? [[String: Any]] ?? []
        #expect(frames.map { "\($0["delay"] ?? "")" } == Array(pillow.dropFirst()) && frames.count == 14, "\(frames.count) frames against Pillow's \(pillow)")
        #expect("\(structure["loopCount"] ?? "")" == pillow.first, "loop \(structure["loopCount"] ?? "") against Pillow's \(pillow.first ?? "")")
        let probed = try ProcessResult.run(try #require(Locations.tool("ffprobe")), ["-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", gif])
        #expect(probed.text.trimmingCharacters(in: .whitespacesAndNewlines) == String(frames.count))
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("dump.schema.json"))
        let violations = try validator.validate(json: dump.stdout)
        #expect(violations.isEmpty, "\(violations)")
        let text = try lpcheck(["dump", "--full", gif]).text
        #expect(text.contains("14 frames, NETSCAPE2.0 loop count 10") && text.contains("frame 14 @") && text.contains("delay 15 cs"), "\(text.prefix(600))")
    }

    @Test("a motion photo's dump shows its embedded movie's tracks with their sample tables: each track's sample count is ffprobe's on the movie ExifTool extracts (Samsung HEIC), in text and JSON embeddedMovie")
    func embeddedTables() throws {
        try Locations.require(Locations.hasSharedSamples, "../shared/samples")
        let photo = try #require(Locations.sharedSamples).appendingPathComponent("ente-io__motion_photos/motionphoto.heic")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-embedded-\(UUID().uuidString).mp4")
        defer { try? FileManager.default.removeItem(at: work) }
        try ProcessResult.run(try #require(Locations.tool("exiftool")), ["-b", "-MotionPhotoVideo", photo.path]).stdout.write(to: work)
        let probed = try ProcessResult.run(try #require(Locations.tool("ffprobe")), ["-v", "error", "-show_entries", "stream=nb_frames", "-of", "default=nw=1:nk=1", work.path])
        let counts = probed.text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        #expect(!counts.isEmpty, "\(probed.text)\(probed.stderr)")
        let dump = try lpcheck(["dump", "--json", photo.path])
        let file = try #require((try JSONSerialization.jsonObject(with: dump.stdout) as? [[String: Any]])?.first)
        let tracks = (file["embeddedMovie"] as? [String: Any])?["tracks"] as? [[String: Any]] ?? []
        let ours = tracks.map { ($0["sampleCount"] as? Int) ?? -1 }
        #expect(ours == counts, "lpcheck \(ours), ffprobe \(counts)")
        let violations = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("dump.schema.json")).validate(json: dump.stdout)
        #expect(violations.isEmpty, "\(violations)")
        let text = try lpcheck(["dump", photo.path]).text
        #expect(text.contains("embedded movie:") && text.contains("      track 1 (moov/trak): handler vide") && text.contains("        stts ("), "\(text)")
    }
}
