import Foundation
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// Trusted tools as oracles: ExifTool for what a reader must find, ffprobe for the edit-list moment.
@Suite(.enabled(if: Locations.hasSharedSamples, "../shared/samples is absent"))
struct OracleTests {
    /// ExifTool's JSON for the files, with group-1 names (`Apple:…`, `Keys:…`, `TrackN:…`).
    static func exiftool(_ arguments: [String], _ files: [URL]) throws -> [[String: Any]] {
        let tool = try #require(Locations.tool("exiftool"), "exiftool is not installed (Scripts/bootstrap.sh installs it)")
        let result = try ProcessResult.run(tool, ["-j", "-G1", "-a", "-n"] + arguments + files.map(\.path))
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
    }

    @Test("content identifier and still-image-time equal what ExifTool reads, file by file")
    func identifiersMatchExifTool() throws {
        let files = SharedSamples.mediaFiles()
        try #require(!files.isEmpty)
        let records = try Self.exiftool(["-ee", "-Apple:ContentIdentifier", "-Apple:MediaGroupUUID", "-Keys:ContentIdentifier", "-StillImageTime"], files)
        #expect(records.count == files.count)
        var compared = 0
        for record in records {
            let path = try #require(record["SourceFile"] as? String)
            let file = MediaFile.inspect(path: path)
            let stillID = (record["Apple:ContentIdentifier"] ?? record["Apple:MediaGroupUUID"]) as? String
            let movieID = record["Keys:ContentIdentifier"] as? String
            let expected = stillID ?? movieID
            #expect(file.contentIdentifier == expected, "\(path)")
            let stillImageTime = record.first { $0.key.hasSuffix(":StillImageTime") }
            if let stillImageTime {
                #expect(file.movie?.stillImageTime?.value == (stillImageTime.value as? NSNumber)?.int64Value, "\(path)")
                let track = Int(stillImageTime.key.dropFirst("Track".count).prefix { $0 != ":" })
                let index = file.movie?.tracks.firstIndex { $0.id == file.movie?.stillImageTime?.trackID }
                #expect(index.map { $0 + 1 } == track, "\(path)")
            } else {
                #expect(file.movie?.stillImageTime == nil, "\(path)")
            }
            compared += 1
        }
        #expect(compared == files.count)
    }

    @Test("every MakerApple tag ExifTool names is decoded with the same value")
    func makerAppleMatchesExifTool() throws {
        // The files chosen by ExifTool (any Apple: tag), and lpcheck's set of MakerApple stills
        // held equal to them: a file whose note lpcheck stopped reading fails here, it does not
        // leave the set.
        let all = SharedSamples.mediaFiles()
        let records = try Self.exiftool(["-Apple:all"], all).filter { record in record.keys.contains { $0.hasPrefix("Apple:") } }
        let files = Set(records.compactMap { $0["SourceFile"] as? String })
        let lpcheck = Set(all.filter { MediaFile.inspect(path: $0.path).still?.makerNote != nil }.map(\.path))
        #expect(files.count >= 20, "ExifTool finds \(files.count) MakerApple notes")
        #expect(lpcheck == files, "lpcheck only: \(lpcheck.subtracting(files).sorted()); ExifTool only: \(files.subtracting(lpcheck).sorted())")
        var checkedValues = 0
        for record in records {
            let path = try #require(record["SourceFile"] as? String)
            let note = try #require(MediaFile.inspect(path: path).still?.makerNote)
            for (key, expected) in record where key.hasPrefix("Apple:") {
                var name = String(key.dropFirst("Apple:".count))
                if name == "MediaGroupUUID" { name = "ContentIdentifier" }
                if name == "ImageCaptureReqestID" { name = "ImageCaptureRequestID" }
                // ExifTool expands the RunTime plist into RunTime* tags; our RunTime entry holds the plist.
                if name.hasPrefix("RunTime") {
                    guard case .plist(.dictionary(let pairs))? = note.entries.first(where: { $0.tag == 0x0003 })?.value else {
                        Issue.record("\(path): RunTime is not a decoded plist")
                        continue
                    }
                    let field = name.dropFirst("RunTime".count).lowercased()
                    let mapped = field == "scale" ? "timescale" : field
                    let ours = pairs.first { $0.0 == mapped }?.1
                    // ExifTool prints a value past 2^53 (IMG_3853's RunTimeValue) as a string.
                    let theirs = (expected as? NSNumber)?.int64Value ?? (expected as? String).flatMap { Int64($0) }
                    guard case .integer(let value)? = ours, let theirs else {
                        Issue.record("\(path) \(name): ExifTool reads \(expected), lpcheck \(ours.map { "\($0)" } ?? "nothing"): not compared")
                        continue
                    }
                    #expect(value == theirs, "\(path) \(name)")
                    checkedValues += 1
                    continue
                }
                guard let entry = note.entries.first(where: { $0.name == name }) else {
                    Issue.record("\(path): ExifTool has Apple:\(name), lpcheck does not")
                    continue
                }
                switch (entry.value, expected) {
                case (.string(let ours), let theirs as String):
                    #expect(ours == theirs, "\(path) \(name)")
                    checkedValues += 1
                case (.integers(let ours), let theirs as NSNumber) where ours.count == 1:
                    #expect(ours[0] == theirs.int64Value, "\(path) \(name)")
                    checkedValues += 1
                case (.rationals(let ours), let theirs as NSNumber) where ours.count == 1:
                    #expect(abs(ours[0] - theirs.doubleValue) <= max(1e-6, abs(theirs.doubleValue) * 1e-6), "\(path) \(name)")
                    checkedValues += 1
                case (.rationals(let ours), let theirs as String):
                    let numbers = theirs.split(separator: " ").compactMap { Double($0) }
                    #expect(numbers.count == ours.count, "\(path) \(name)")
                    for (a, b) in zip(ours, numbers) { #expect(abs(a - b) <= max(1e-6, abs(b) * 1e-6), "\(path) \(name)") }
                    checkedValues += 1
                case (.plist(.bool(let ours)), let theirs as NSNumber):
                    // ExifTool 12.57 (PLIST.pm) swaps binary-plist booleans: it reads marker 0x08 as True.
                    // The binary plist format (Apple's CFBinaryPList) defines 0x08 = false, 0x09 = true.
                    #expect(ours == (theirs.intValue == 0), "\(path) \(name)")
                    checkedValues += 1
                case (.plist(let ours), let theirs as String):
                    // A plist dictionary (SemanticStyle) as ExifTool prints it: {key=value,...}.
                    #expect(Self.exiftoolText(ours) == theirs, "\(path) \(name): lpcheck \(ours)")
                    checkedValues += 1
                default:
                    // Every value is compared: a pair of kinds no case above compares fails
                    // rather than passing unseen.
                    Issue.record("\(path) \(name): ExifTool reads \(expected), lpcheck decodes \(entry.value.displayText): no comparison for these kinds")
                }
            }
        }
        #expect(checkedValues > 50)
    }

    /// A plist value as ExifTool 12.57 prints one in its JSON: a dictionary as `{key=value,...}`
    /// in the file's order, numbers as they are, strings bare.
    static func exiftoolText(_ value: PlistValue) -> String {
        switch value {
        case .dictionary(let pairs): return "{" + pairs.map { "\($0.0)=\(exiftoolText($0.1))" }.joined(separator: ",") + "}"
        case .array(let values): return "[" + values.map(exiftoolText).joined(separator: ",") + "]"
        case .integer(let value): return String(value)
        case .real(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let text): return text
        case .bool(let value): return value ? "1" : "0"
        default: return "\(value)"
        }
    }

    @Test("the still-image moment equals ffprobe's packet time (ffmpeg applies edit lists)")
    func stillMomentMatchesFFprobe() throws {
        let tool = try #require(Locations.tool("ffprobe"), "ffprobe is not installed (Scripts/bootstrap.sh installs ffmpeg)")
        let movies = SharedSamples.mediaFiles().compactMap { url -> (URL, StillImageTime)? in
            guard let time = MediaFile.inspect(path: url.path).movie?.stillImageTime else { return nil }
            return (url, time)
        }
        #expect(movies.count == 4)
        for (url, time) in movies {
            let result = try ProcessResult.run(tool, ["-v", "error", "-show_entries", "stream=index,id:packet=stream_index,pts_time", "-of", "json", url.path])
            let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            let streams = try #require(json["streams"] as? [[String: Any]])
            let stream = try #require(streams.first { ($0["id"] as? String).flatMap { UInt32($0.dropFirst(2), radix: 16) } == time.trackID })
            let index = try #require(stream["index"] as? Int)
            let packets = try #require(json["packets"] as? [[String: Any]]).filter { $0["stream_index"] as? Int == index }
            let pts = try #require(packets.first.flatMap { ($0["pts_time"] as? String).flatMap(Double.init) })
            let seconds = try #require(time.seconds)
            #expect(abs(seconds - pts) < 1e-5, "\(url.lastPathComponent): lpcheck \(seconds) s, ffprobe \(pts) s")
        }
    }
}
