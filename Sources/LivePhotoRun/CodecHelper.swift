import Foundation
import LivePhotoFormats
import LivePhotoReports
import LivePhotoRepair

/// The codec helper (`lpcheck-codec`, beside `lpcheck`): the one program that links FFmpeg's
/// libraries. lpcheck runs it for pixel work and reads its standard output, so `check`, `scan`,
/// `dump`, `repair` and `convert` never load a codec library, and run where none is installed.
public enum CodecHelper {
    /// The Debian packages the helper loads (FFmpeg 5.1's libraries).
    public static let packages = "libavcodec59 libavformat59 libavutil57 libswscale6"
    /// The most a helper's answer may hold.
    static let maxOutput = 512 << 20

    public struct Failure: Error, CustomStringConvertible {
        public var status: Int32
        public var description: String
    }

    /// Where the helper is: `LPCHECK_CODEC`, else beside the running lpcheck.
    public static var location: String {
        if let named = ProcessInfo.processInfo.environment["LPCHECK_CODEC"], !named.isEmpty { return named }
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        return ((executable as NSString).deletingLastPathComponent as NSString).appendingPathComponent("lpcheck-codec")
    }

    /// Runs the helper with `arguments`; its standard output, or a failure saying what is
    /// missing (status 2) or what the helper said (its own status).
    /// `progress` hears the helper's `progress DONE TOTAL` lines (a GIF's frames) as they come.
    public static func run(_ arguments: [String], progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> [UInt8] {
        var answer: [UInt8] = []
        try run(arguments, progress: progress) { chunk in
            guard answer.count + chunk.count <= maxOutput else { throw Failure(status: 1, description: "the codec helper's answer passed \(maxOutput) bytes") }
            answer += chunk
        }
        return answer
    }

    /// Runs the helper, handing its standard output to `consume` as it comes (a GIF's movie is
    /// written sample by sample, never held); a throw from `consume` stops the helper.
    public static func run(_ arguments: [String], progress: (@Sendable (Int, Int) -> Void)? = nil, consume: ([UInt8]) throws -> Void) throws {
        let helper = location
        guard FileManager.default.isExecutableFile(atPath: helper) else {
            throw Failure(status: 2, description: "this needs lpcheck's codec helper, \(helper), which is not there: build it with lpcheck (swift build), and install FFmpeg's libraries (Debian: apt install \(packages))")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        (process.standardOutput, process.standardError) = (output, errors)
        do { try process.run() } catch {
            throw Failure(status: 2, description: "the codec helper \(helper) does not start: \(error)")
        }
        // Standard error is drained on another thread, so neither pipe fills while the other is read.
        final class Box: @unchecked Sendable { var data = Data() }
        let said = Box()
        let reading = DispatchGroup()
        reading.enter()
        let errorHandle = errors.fileHandleForReading
        DispatchQueue.global().async {
            var pending = Data()
            func take(_ line: Data) {
                let text = String(decoding: line, as: UTF8.self)
                let fields = text.split(separator: " ")
                if fields.count == 3, fields[0] == "progress", let done = Int(fields[1]), let total = Int(fields[2]) {
                    progress?(done, total)
                } else if said.data.count < 64 << 10 {
                    said.data += line + Data([10])
                }
            }
            while true {
                let chunk = errorHandle.availableData
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: 10) {
                    take(pending[pending.startIndex..<newline])
                    pending = Data(pending[(newline + 1)...])
                }
                if pending.count > 64 << 10 { take(pending); pending = Data() }
            }
            if !pending.isEmpty { take(pending) }
            reading.leave()
        }
        let handle = output.fileHandleForReading
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            do {
                try consume([UInt8](chunk))
            } catch {
                process.terminate()
                process.waitUntilExit()
                throw error
            }
        }
        process.waitUntilExit()
        reading.wait()
        let message = String(decoding: said.data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            // 127: the dynamic loader found no FFmpeg library.
            if process.terminationStatus == 127 || message.contains("error while loading shared libraries") {
                throw Failure(status: 2, description: "the codec helper cannot load FFmpeg's libraries (Debian: apt install \(packages)): \(message)")
            }
            let status = process.terminationReason == .exit ? process.terminationStatus : 1
            throw Failure(status: status == 2 ? 2 : 1, description: message.isEmpty ? "the codec helper ended with status \(process.terminationStatus)" : message)
        }
    }

    /// The boxes of a helper's answer by type (the last of each type).
    static func boxes(_ answer: [UInt8]) throws -> [FourCC: [UInt8]] {
        var parts: [FourCC: [UInt8]] = [:]
        var boxes = BoxIterator(ByteReader(answer, path: "codec helper"))
        while let (header, payload) = try boxes.next() {
            var whole = payload
            parts[header.type] = Array(whole.restSlice())
        }
        return parts
    }

    /// Boxes out of a byte stream, each given whole once its bytes are in (at most `maxBox`).
    struct BoxStream {
        static let maxBox = 256 << 20
        var pending: [UInt8] = []

        mutating func feed(_ bytes: [UInt8], _ take: (FourCC, [UInt8]) throws -> Void) throws {
            pending += bytes
            var at = 0
            while pending.count - at >= 8 {
                let size = pending[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
                guard size >= 8, size <= Self.maxBox else { throw Failure(status: 1, description: "the codec helper's answer holds a box of \(size) bytes") }
                guard pending.count - at >= size else { break }
                try take(FourCC(pending[(at + 4)..<(at + 8)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }), Array(pending[(at + 8)..<(at + size)]))
                at += size
            }
            pending.removeFirst(at)
        }

        var isEmpty: Bool { pending.isEmpty }
    }

    /// A GIF made into a movie by the helper (`gif …`): its answer's samples (`trak`, `smpl`…,
    /// then `stil`) written into `file` as they come, then the `moov`; returns the still's answer.
    static func gifMovie(_ arguments: [String], into file: SafeFileWriter.ProducedFile, progress: (@Sendable (Int, Int) -> Void)?) throws -> [UInt8] {
        guard let still = try encodedMovie(arguments, into: file, progress: progress).still else {
            throw Failure(status: 1, description: "the codec helper's answer lacks the still")
        }
        return still
    }

    /// A movie the helper encodes (a GIF's, a re-timed export's), written into `file` as its
    /// samples come: the `ftyp` and `mdat` head, the samples, the `moov` (`VideoMovieWriter`).
    /// Returns the still the helper answers after the samples, if any, and the samples' durations.
    /// `turn`: the track matrix the movie is shown with (a re-timed export keeps its source's);
    /// `container`: QuickTime or MP4.
    static func encodedMovie(_ arguments: [String], into file: SafeFileWriter.ProducedFile, turn: TrackMatrix = .identity, container: MovieContainer = .mov,
                             progress: (@Sendable (Int, Int) -> Void)?) throws -> (still: [UInt8]?, durations: [UInt32]) {
        var track: VideoMovieWriter.Track? = nil
        var samples: [VideoMovieWriter.Sample] = [], still: [UInt8]? = nil
        var (timescale, colour, fullRange): (UInt32, (UInt16, UInt16, UInt16), Bool) = (600, (1, 1, 1), false)
        var stream = BoxStream()
        try file.append(VideoMovieWriter.head(container))
        var dataBytes: Int64 = 0
        try run(arguments, progress: progress) { chunk in
            try stream.feed(chunk) { type, payload in
                var reader = ByteReader(payload, path: "codec helper")
                switch type {
                case "scal":
                    timescale = try reader.u32()
                    guard timescale > 0 else { throw Failure(status: 1, description: "the codec helper gives a timescale of 0") }
                case "nclc":
                    colour = (try reader.u16(), try reader.u16(), try reader.u16())
                    fullRange = reader.restSlice().first == 1
                case "trak":
                    let format = try reader.fourCC(), configurationType = try reader.fourCC()
                    let width = Int(try reader.u32()), height = Int(try reader.u32())
                    track = VideoMovieWriter.Track(format: format, configurationType: configurationType, configuration: Array(reader.restSlice()),
                                                   width: width, height: height, primaries: colour.0, transfer: colour.1, matrix: colour.2, timescale: timescale, turn: turn)
                    track?.fullRange = fullRange
                    track?.container = container
                case "smpl":
                    let duration = try reader.u32(), key = try reader.u8() != 0
                    let bytes = Array(reader.restSlice())
                    samples.append(VideoMovieWriter.Sample(size: bytes.count, duration: duration, key: key))
                    try file.append(bytes)
                    dataBytes += Int64(bytes.count)
                case "stil":
                    still = Array(reader.restSlice())
                default:
                    break
                }
            }
        }
        guard let track, stream.isEmpty else { throw Failure(status: 1, description: "the codec helper's answer lacks the track, or ends inside a box") }
        try file.write(VideoMovieWriter.mdatSize(dataBytes: dataBytes), at: VideoMovieWriter.mdatSizeOffset(container))
        try file.append(try VideoMovieWriter.moov(track, samples: samples))
        return (still, samples.map(\.duration))
    }

    /// The HEVC still of the video track's sample `index`: its configuration, colour and picture.
    public static func hevcStill(movie: String, sampleIndex: Int, maxPixels: Int) throws -> (configuration: [UInt8], colour: [UInt8], picture: [UInt8]) {
        let parts = try boxes(try run(["still", movie, String(sampleIndex + 1), "hevc", "--max-pixels", String(maxPixels)]))
        guard let configuration = parts["hvcC"], let colour = parts["colr"], let picture = parts["data"] else {
            throw Failure(status: 1, description: "the codec helper's HEVC answer lacks hvcC, colr or data")
        }
        return (configuration, colour, picture)
    }

    /// The JPEG of the video track's sample `index` (0-based, decoding order), decoded and encoded.
    public static func jpegStill(movie: String, sampleIndex: Int, maxPixels: Int) throws -> [UInt8] {
        try run(["still", movie, String(sampleIndex + 1), "jpeg", "--max-pixels", String(maxPixels)])
    }
}
