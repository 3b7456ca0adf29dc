import Foundation
import LivePhotoCheck
import LivePhotoCodec
import LivePhotoFormats
import LivePhotoRecords
import LivePhotoReports

/// What each libFuzzer target does with an input (`Fuzz/`, `Scripts/fuzz.sh`), here so that every
/// build compiles it and the tests run the fuzz seeds through it (`FuzzSeedTests`); the fuzz
/// package only hands libFuzzer's inputs to `run`. A target stops the process (`fatalError`) when
/// two readings that must agree do not.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case movie, jpeg, heif, makerapple, exif, xmp, inspect, repair, convert, records, configuration, gif, hevc, zip

    /// Where the records target writes an input (check --facts reads files): a file of its own
    /// each time, so that targets may run on several threads (the tests do).
    static func recordsFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-fuzz-records-\(getpid())-\(UUID().uuidString).ndjson").path
    }

    /// What `check` reads of a file, and an encoder for comparing facts field by field.
    static let checkOptions = Checker(roots: []).inspectOptions
    static let factsEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    public func run(_ bytes: [UInt8]) {
        switch self {
        case .movie:
            if let movie = try? Movie.read(from: MemorySource(bytes)) {
                _ = movie.stillImageTime
                _ = movie.frameDurations
                _ = movie.videoFrames(limit: 10_000)
                for track in movie.tracks { _ = try? track.sampleTable.resolve(limit: 10_000) }
            }
        case .jpeg:
            _ = try? JPEGStructure.read(from: MemorySource(bytes))
        case .heif:
            _ = try? Still.read(from: MemorySource(bytes), format: .heic)
        case .makerapple:
            _ = try? AppleMakerNote.read(bytes, base: 0, path: "MakerApple")
        case .exif:
            if let layout = try? TIFFLayout.read(bytes, base: 0, path: "Exif") {
                _ = ExifReader.tags(tiff: bytes, makerNoteRange: layout.makerNoteRange)
            }
            _ = ExifReader.tags(tiff: bytes, makerNoteRange: nil)
        case .xmp:
            // check leaves a packet unparsed when the byte search says it cannot hold a Google
            // property: a packet that parses with one must never be left so.
            if let packet = try? XMPPacket.parse(bytes, base: 0, path: "XMP"), !XMPPacket.mayHoldMotionPhoto(bytes),
               packet.declaresMotionPhoto || packet.properties.contains(where: { [XMPPacket.cameraNamespace, XMPPacket.containerNamespace, XMPPacket.itemNamespace].contains($0.namespace) }) {
                fatalError("a packet with Google motion-photo properties that the byte search passes over")
            }
            _ = try? MotionPhotoMetadata.decode(bytes, base: 0, path: "mett")
        case .zip:
            // A .livp's central directory, zip64's end records and extended fields, every member
            // held to its local header; each stored member read as the file it is.
            guard let archive = try? ZipArchive(source: MemorySource(bytes), path: "input") else { return }
            for member in archive.members where member.readable {
                guard member.data.lowerBound >= 0, member.data.upperBound <= Int64(bytes.count) else { fatalError("a member outside the archive was accepted") }
                _ = MediaFile.inspect(source: WindowSource(MemorySource(bytes), range: member.data), path: "input:" + member.name).contentIdentifier
            }
        case .inspect:
            let file = MediaFile.inspect(source: MemorySource(bytes), path: "input")
            // A .livp (a zip of a still and a movie): its stored members read in place, as dump reads them.
            if ZipArchive.isZip(bytes), let archive = try? ZipArchive(source: MemorySource(bytes), path: "input") {
                for member in archive.members where member.readable {
                    guard member.data.lowerBound >= 0, member.data.upperBound <= Int64(bytes.count) else { fatalError("a member outside the archive was accepted") }
                    _ = FileFacts(MediaFile.inspect(source: WindowSource(MemorySource(bytes), range: member.data), path: "input:" + member.name))
                }
            }
            let facts = FileFacts(file)
            let item = Pairing.items([facts])
            for rule in RuleRegistry.all { for entry in item { _ = rule.check(entry, context: RuleContext()) } }
            // The check's own reading (chunk tables of unread tracks skipped, HEIF metadata items
            // only) gives the facts a read of every table and item gives: a difference is a finding.
            var options = Self.checkOptions
            let lean = FileFacts(MediaFile.inspect(source: MemorySource(bytes), path: "input", options: options))
            options.chunkTables = true
            options.allItems = true
            let whole = FileFacts(MediaFile.inspect(source: MemorySource(bytes), path: "input", options: options))
            if let leanJSON = try? Self.factsEncoder.encode(lean), let wholeJSON = try? Self.factsEncoder.encode(whole), leanJSON != wholeJSON {
                fatalError("the check's reading gave other facts: \(String(decoding: leanJSON, as: UTF8.self)) against \(String(decoding: wholeJSON, as: UTF8.self))")
            }
        case .repair:
            // A recipe (HostileStructure) grows into structure no small input reaches: deep nesting,
            // many boxes, huge counts and offsets, chunks past the end.
            let bytes = HostileStructure.expand(bytes)
            let source = MemorySource(bytes)
            let file = MediaFile.inspect(source: source, path: "input")
            // The preservation ledger's inventories: of the input, and of each planned output read
            // through its patch.
            _ = try? Inventory.read(source: source, path: "input")
            if let movie = file.movie {
                let edits = MovieEdits(contentIdentifier: "11111111-2222-3333-4444-555555555555", stillImageTime: StillImagePlacement(seconds: 0.5), quickTimeBrand: true)
                if let patch = try? MovieRewriter.rewrite(movie, source: source, edits: edits, shiftLimit: 1 << 20),
                   let output = try? patch.render(from: source) {
                    _ = try? Inventory.read(source: PatchSource(patch, original: source), path: "output")
                    let again = MediaFile.inspect(source: MemorySource(output), path: "output")
                    _ = again.movie?.stillImageTime
                }
            }
            if let still = file.still, let patch = try? StillRewriter.settingContentIdentifier(still, source: source, identifier: "11111111-2222-3333-4444-555555555555"),
               let output = try? patch.render(from: source) {
                _ = MediaFile.inspect(source: MemorySource(output), path: "output").contentIdentifier
                _ = try? Inventory.read(source: PatchSource(patch, original: source), path: "output")
            }
            _ = try? ExifEditor.settingContentIdentifier(bytes, identifier: "11111111-2222-3333-4444-555555555555")
        case .records:
            // A scan's records (check --facts): read in blocks of 1 to 256 bytes (the first byte
            // says), so that lines cross blocks; when they are accepted, paired, checked and
            // reported, in memory and in bounded memory, and the two reports compared. Nothing here
            // opens a media file (no byte comparison).
            let recordsPath = Self.recordsFile()
            guard let first = bytes.first, FileManager.default.createFile(atPath: recordsPath, contents: Data(bytes.dropFirst())) else { return }
            // Removed after each input: a fuzzing run leaves nothing in the temporary folder.
            defer { unlink(recordsPath) }
            if var scanned = try? FactsRecords.read([recordsPath], blockSize: Int(first) + 1) {
                let checker = Checker(roots: scanned.roots)
                let report = checker.report(&scanned, compare: nil)
                let json = CheckJSON.render(report)
                _ = CheckHTML.render(report)
                // The bounded check of the same records must give the same report (groups kept as
                // pairing's decisions, or made again for each item, as the first byte says).
                let pinAbove = [0, 1, 64, Int.max][Int(first) % 4]
                guard let bounded = try? BoundedFactsCheck.report([recordsPath], checker: checker, compare: nil, pinAbove: pinAbove, cacheSize: 1) else {
                    fatalError("records the in-memory check reads were refused by the bounded check")
                }
                if CheckJSON.render(bounded.report) != json { fatalError("the bounded check's report differs (pinAbove \(pinAbove))") }
            }
        case .gif:
            // make GIF's readers: the block structure (at most 200 frames), then every frame
            // composited, each exactly one screen of pixels.
            guard let structure = try? GIFStructure(bytes, path: "input", maxFrames: 200), structure.width * structure.height <= 1 << 20 else { return }
            var decoder = GIFDecoder(bytes: bytes, structure: structure, path: "input", background: (255, 255, 255))
            while let frame = try? decoder.next() {
                if frame.count != structure.width * structure.height * 3 { fatalError("a frame of \(frame.count) bytes for a \(structure.width)×\(structure.height) screen") }
            }
        case .hevc:
            // An hvcC as make CLIP reads it, and the record built again from its parameter sets:
            // the same sequence parameters read back.
            guard let configuration = try? HEVCConfiguration(parsing: bytes), let sequence = configuration.sequence else { return }
            func units(_ type: UInt8) -> [[UInt8]] { configuration.arrays.filter { $0.type == type }.flatMap(\.units) }
            guard let record = try? HEVCConfiguration.record(videoParameterSets: units(32), sequenceParameterSets: units(33), pictureParameterSets: units(34)) else { return }
            guard let again = try? HEVCConfiguration(parsing: record), again.sequence == sequence else {
                fatalError("an hvcC built from the parameter sets reads back otherwise")
            }
            _ = NALUnit.annexB(bytes)
        case .configuration:
            // A `.lpcheck.yml` as a pull request may bring one to a CI runner: read within its
            // limits (size, nesting, values with aliases followed) or refused, never trapped on,
            // never expanded without bound. A configuration it takes must hold together.
            if let configuration = try? Configuration.parse(String(decoding: bytes, as: UTF8.self)), let contradiction = configuration.contradiction {
                fatalError("a configuration was taken with a contradiction: \(contradiction)")
            }
        case .convert:
            // The motion-photo readers and both directions of the conversion writers, outputs read
            // back; recipes grow into hostile structure as for repair.
            let bytes = HostileStructure.expand(bytes)
            let source = MemorySource(bytes)
            _ = SamsungTrailer.read(from: source)
            _ = EmbeddedMovie.search(in: source, range: 0..<source.size)
            _ = try? XMPEditor.removingMotionPhoto(bytes, path: "XMP")
            let fields = XMPEditor.MotionFields(primaryMime: "image/jpeg", primaryPadding: 0, movieLength: 1000, presentationTimestampUs: 500_000)
            _ = try? XMPEditor.settingMotionPhoto(bytes, fields: fields, path: "XMP")
            let file = MediaFile.inspect(source: source, path: "input", options: .check)
            let identifier = "11111111-2222-3333-4444-555555555555"
            if let still = file.still, still.motionPhoto != nil {
                for patch in [try? MotionPhotoWriter.livePhotoStill(still, source: source, identifier: identifier),
                              try? MotionPhotoWriter.livePhotoMovie(still, source: source, identifier: identifier, placement: StillImagePlacement(seconds: 0.1))] {
                    if let output = try? patch?.render(from: source) { _ = MediaFile.inspect(source: MemorySource(output), path: "output", options: .check) }
                }
            }
            if let movie = file.movie, let patch = try? ISOMovieWriter.mp4(movie, source: source), let output = try? patch.render(from: source) {
                _ = MediaFile.inspect(source: MemorySource(output), path: "output.mp4", options: .check).movie?.videoFrames(limit: 1000)
            }
        }
    }
}
