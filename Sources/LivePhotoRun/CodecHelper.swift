import Foundation
import LivePhotoFormats
import LivePhotoReports

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
        var answer: [UInt8] = []
        let handle = output.fileHandleForReading
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            guard answer.count + chunk.count <= maxOutput else {
                process.terminate()
                throw Failure(status: 1, description: "the codec helper's answer passed \(maxOutput) bytes")
            }
            answer += chunk
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
        return answer
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

    /// A GIF's movie from the helper's answer (`trak`, `smpl`…, `stil`): the movie's bytes and the still's answer.
    static func gifMovie(_ answer: [UInt8]) throws -> (movie: [UInt8], still: [UInt8]) {
        var track: VideoMovieWriter.Track? = nil
        var samples: [VideoMovieWriter.Sample] = [], data: [UInt8] = [], still: [UInt8]? = nil
        var boxes = BoxIterator(ByteReader(answer, path: "codec helper"))
        while let (header, payload) = try boxes.next() {
            var reader = payload
            switch header.type {
            case "trak":
                let format = try reader.fourCC(), type = try reader.fourCC()
                let width = Int(try reader.u32()), height = Int(try reader.u32())
                track = VideoMovieWriter.Track(format: format, configurationType: type, configuration: Array(reader.restSlice()), width: width, height: height,
                                               primaries: 1, transfer: 1, matrix: 1, timescale: 600)
            case "smpl":
                let duration = try reader.u32(), key = try reader.u8() != 0
                let bytes = reader.restSlice()
                samples.append(VideoMovieWriter.Sample(size: bytes.count, duration: duration, key: key))
                data += bytes
            case "stil":
                still = Array(reader.restSlice())
            default:
                break
            }
        }
        guard let track, let still else { throw Failure(status: 1, description: "the codec helper's answer lacks the track or the still") }
        return (try VideoMovieWriter.movie(track, samples: samples, data: data), still)
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
