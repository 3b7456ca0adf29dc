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
    /// The most a helper's answer held in memory may hold (a still's).
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

    /// The most the helper may write on standard error besides progress (its messages).
    static let maxMessages = 1 << 20

    /// Runs the helper with `arguments`; its standard output, or a failure saying what is
    /// missing (status 2) or what the helper said (its own status).
    /// `progress` hears the helper's `progress DONE TOTAL` lines (a GIF's frames) as they come.
    public static func run(_ arguments: [String], budget: CodecBudget, progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> [UInt8] {
        var answer: [UInt8] = []
        try run(arguments, budget: budget, progress: progress, cap: Int64(maxOutput)) { chunk in answer += chunk }
        return answer
    }

    /// What the helper is doing, for messages: its command's work on its input.
    static func stage(_ arguments: [String]) -> String {
        switch arguments.first {
        case "still": return "decoding and encoding the still"
        case "gif": return "making the GIF's movie"
        case "frames": return "re-timing and encoding the frames"
        case "movie-gif": return "making the GIF"
        default: return arguments.first ?? "working"
        }
    }

    /// Runs the helper, handing its standard output to `consume` as it comes (a GIF's movie is
    /// written sample by sample, never held); a throw from `consume` stops the helper. The
    /// helper is stopped (and this throws) when it goes `budget.silenceSeconds` without a sign
    /// of progress (a progress line or answer bytes), writes more than `cap` bytes of answer or
    /// `maxMessages` of messages. It dies with lpcheck (`lpcheck-codec`: the parent-death signal).
    /// A failure is one line naming the input, the stage and the reason, never a crash dump.
    /// `budget` goes to the helper (its limits and address space).
    public static func run(_ arguments: [String], budget: CodecBudget, progress: (@Sendable (Int, Int) -> Void)? = nil, cap: Int64 = 8 << 30,
                           consume: ([UInt8]) throws -> Void) throws {
        let helper = location
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: helper, isDirectory: &isFolder), !isFolder.boolValue, FileManager.default.isExecutableFile(atPath: helper) else {
            throw Failure(status: 2, description: "this needs lpcheck's codec helper, \(helper), which is not there or is no program: build it with lpcheck (swift build), and install FFmpeg's libraries (Debian: apt install \(packages))")
        }
        let input = arguments.count > 1 ? arguments[1] : "the input"
        let stage = stage(arguments)
        // A token new each run marks the helper's progress lines: no message can pass for one.
        let token = String(UInt64.random(in: 1...UInt64.max), radix: 36)
        var environment = ProcessInfo.processInfo.environment
        environment["LPCHECK_CODEC_TOKEN"] = token
        environment["LPCHECK_CODEC_PARENT"] = String(getpid())
        // A crash is told by its signal; Swift's backtrace is not the user's to read.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let helperArguments = arguments + (["still", "gif", "frames", "movie-gif"].contains(arguments.first ?? "") ? budget.arguments : [])
        let process: HelperSpawn
        do {
            process = try HelperSpawn(helper, arguments: helperArguments, environment: environment)
        } catch {
            throw Failure(status: 2, description: "the codec helper \(helper) does not start: \(error) (the program, or the interpreter its first line names)")
        }
        let watch = HelperWatch(silence: budget.silenceSeconds)
        // Standard error is drained on another thread, so neither pipe fills while the other is read.
        let reading = DispatchGroup()
        reading.enter()
        let errorHandle = process.errors
        DispatchQueue.global().async {
            var pending = Data()
            func take(_ line: Data) {
                let fields = line.split(separator: 32)
                if fields.count == 4, fields[0].elementsEqual("progress".utf8), fields[1].elementsEqual(token.utf8),
                   let done = Int(String(decoding: fields[2], as: UTF8.self)), let total = Int(String(decoding: fields[3], as: UTF8.self)),
                   done >= 0, total >= 0 {
                    watch.alive()
                    progress?(min(done, total), total)
                } else {
                    watch.said(line)
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
                if watch.messageBytes > maxMessages { watch.stop(process, "wrote more than \(maxMessages >> 20) MiB of messages") }
            }
            if !pending.isEmpty { take(pending) }
            reading.leave()
        }
        // The deadline: the helper's silence, measured from its last sign of progress.
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { if watch.silentFor >= Double(budget.silenceSeconds) { watch.stop(process, "gave no sign of progress for \(budget.silenceSeconds) s (--codec-deadline)") } }
        timer.resume()
        defer { timer.cancel() }
        var received: Int64 = 0
        while let chunk = try? process.output.read(upToCount: 1 << 20), !chunk.isEmpty {
            watch.alive()
            received += Int64(chunk.count)
            do {
                guard received <= cap else { throw Failure(status: 2, description: "\(input): \(stage): the codec helper's answer passed \(cap) bytes") }
                try consume([UInt8](chunk))
            } catch {
                watch.stop(process, nil)
                _ = process.wait()
                reading.wait()
                // The answer's own faults (a box too large) name the input and the stage too.
                if let failure = error as? Failure, !failure.description.hasPrefix(input) {
                    throw Failure(status: failure.status, description: "\(input): \(stage): \(failure.description)")
                }
                throw error
            }
        }
        let ending = process.wait()
        reading.wait()
        if let stopped = watch.stopped {
            throw Failure(status: 2, description: "\(input): \(stage): the codec helper \(stopped): stopped")
        }
        guard ending != .exited(0) else { return }
        let message = watch.message
        // 127: the dynamic loader found no FFmpeg library.
        if ending == .exited(127) || watch.allText.contains("error while loading shared libraries") {
            throw Failure(status: 2, description: "the codec helper cannot load FFmpeg's libraries (Debian: apt install \(packages)): \(message ?? "status 127")")
        }
        if case .signalled(let signal) = ending {
            throw Failure(status: 2, description: "\(input): \(stage): the codec helper crashed (signal \(signal)\(signalName(signal).map { ", " + $0 } ?? ""))\(message.map { ": " + $0 } ?? "")")
        }
        let status: Int32 = if case .exited(let code) = ending { code } else { 1 }
        let reason = message ?? "it ended with status \(status)"
        throw Failure(status: 2, description: reason.contains(input) ? "\(stage): \(reason)" : "\(input): \(stage): \(reason)")
    }

    static func signalName(_ signal: Int32) -> String? {
        [SIGILL: "SIGILL", SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP"][signal]
    }

    /// What the reading threads share about one helper: when it last showed progress, what it
    /// said, and whether lpcheck stopped it and why.
    final class HelperWatch: @unchecked Sendable {
        private let lock = NSLock()
        private var last = DispatchTime.now()
        private var lines: [String] = []
        private var bytes = 0
        private var reason: String?
        let silence: Int

        init(silence: Int) { self.silence = silence }

        func alive() { lock.withLock { last = .now() } }

        var silentFor: Double { lock.withLock { Double(DispatchTime.now().uptimeNanoseconds - last.uptimeNanoseconds) / 1e9 } }

        func said(_ line: Data) {
            lock.withLock {
                bytes += line.count + 1
                guard lines.count < 64 else { return }
                let text = String(decoding: line.prefix(4096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty { lines.append(text) }
            }
        }

        var messageBytes: Int { lock.withLock { bytes } }
        var allText: String { lock.withLock { lines.joined(separator: "\n") } }
        var stopped: String? { lock.withLock { reason } }

        /// The helper's one line: its own message (`lpcheck-codec: …`), else the codec's last
        /// error line with the addresses of its contexts taken out (`[hevc @ 0x55…] text`).
        var message: String? {
            lock.withLock {
                if let own = lines.last(where: { $0.hasPrefix("lpcheck-codec: ") }) { return String(own.dropFirst("lpcheck-codec: ".count)) }
                guard let last = lines.last(where: { !$0.hasPrefix("progress ") }) else { return nil }
                return last.replacingOccurrences(of: #" @ 0x[0-9a-fA-F]+"#, with: "", options: .regularExpression)
            }
        }

        /// Stops the helper (once), saying why (nil: lpcheck's own error).
        func stop(_ process: HelperSpawn, _ why: String?) {
            let first: Bool = lock.withLock {
                guard reason == nil else { return false }
                reason = why ?? "was stopped by lpcheck"
                return true
            }
            if first { process.signalGroup(SIGKILL) }
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
        static let maxBox = 64 << 20
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
    static func gifMovie(_ arguments: [String], budget: CodecBudget, into file: SafeFileWriter.ProducedFile, progress: (@Sendable (Int, Int) -> Void)?) throws -> [UInt8] {
        guard let still = try encodedMovie(arguments, budget: budget, into: file, progress: progress).still else {
            throw Failure(status: 1, description: "the codec helper's answer lacks the still")
        }
        return still
    }

    /// A movie the helper encodes (a GIF's, a re-timed export's), written into `file` as its
    /// samples come: the `ftyp` and `mdat` head, the samples, the `moov` (`VideoMovieWriter`).
    /// Returns the still the helper answers after the samples, if any, and the samples' durations.
    /// `turn`: the track matrix the movie is shown with (a re-timed export keeps its source's);
    /// `container`: QuickTime or MP4.
    static func encodedMovie(_ arguments: [String], budget: CodecBudget, into file: SafeFileWriter.ProducedFile, turn: TrackMatrix = .identity, container: MovieContainer = .mov,
                             progress: (@Sendable (Int, Int) -> Void)?) throws -> (still: [UInt8]?, durations: [UInt32]) {
        var track: VideoMovieWriter.Track? = nil
        var samples: [VideoMovieWriter.Sample] = [], still: [UInt8]? = nil
        var (timescale, colour, fullRange): (UInt32, (UInt16, UInt16, UInt16), Bool) = (600, (1, 1, 1), false)
        var stream = BoxStream()
        try file.append(VideoMovieWriter.head(container))
        var dataBytes: Int64 = 0
        try run(arguments, budget: budget, progress: progress) { chunk in
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
    public static func hevcStill(movie: String, sampleIndex: Int, maxPixels: Int, budget: CodecBudget) throws -> (configuration: [UInt8], colour: [UInt8], picture: [UInt8]) {
        let parts = try boxes(try run(["still", movie, String(sampleIndex + 1), "hevc", "--max-pixels", String(maxPixels)], budget: budget))
        guard let configuration = parts["hvcC"], let colour = parts["colr"], let picture = parts["data"] else {
            throw Failure(status: 1, description: "the codec helper's HEVC answer lacks hvcC, colr or data")
        }
        return (configuration, colour, picture)
    }

    /// The JPEG of the video track's sample `index` (0-based, decoding order), decoded and encoded.
    public static func jpegStill(movie: String, sampleIndex: Int, maxPixels: Int, budget: CodecBudget) throws -> [UInt8] {
        try run(["still", movie, String(sampleIndex + 1), "jpeg", "--max-pixels", String(maxPixels)], budget: budget)
    }
}
