import Foundation
import LivePhotoCodecProtocol
import LivePhotoFormats

/// The client of the codec helper (`lpcheck-codec`, beside `lpcheck`): the one program that
/// links FFmpeg's libraries. lpcheck runs it with a `CodecRequest` for pixel work and reads its
/// answer (`CodecAnswer`, `StillAnswer`), so `check`, `scan`, `dump`, `repair` and `convert` never
/// load a codec library, and run where none is installed.
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

    /// Runs the helper for `request`; its standard output, or a failure saying what is
    /// missing (status 2) or what the helper said (its own status).
    /// `progress` hears the helper's `progress DONE TOTAL` lines (a GIF's frames) as they come.
    public static func run(_ request: CodecRequest, progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> [UInt8] {
        var answer: [UInt8] = []
        try run(request, progress: progress, cap: Int64(maxOutput)) { chunk in answer += chunk }
        return answer
    }

    /// Runs the helper, handing its standard output to `consume` as it comes (a GIF's movie is
    /// written sample by sample, never held); a throw from `consume` stops the helper. The
    /// helper is stopped (and this throws) when it goes `budget.silenceSeconds` without a sign
    /// of progress (a progress line or answer bytes), writes more than `cap` bytes of answer or
    /// `maxMessages` of messages. It dies with lpcheck (`lpcheck-codec`: the parent-death signal).
    /// A failure is one line naming the input, the stage and the reason, never a crash dump.
    /// The request's budget goes to the helper (its limits and address space); its silence
    /// deadline is the budget's (the standard one's when the request names none).
    public static func run(_ request: CodecRequest, progress: (@Sendable (Int, Int) -> Void)? = nil, cap: Int64 = 8 << 30,
                           consume: ([UInt8]) throws -> Void) throws {
        let budget = request.budget ?? .standard
        let helper = location
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: helper, isDirectory: &isFolder), !isFolder.boolValue, FileManager.default.isExecutableFile(atPath: helper) else {
            throw Failure(status: 2, description: "this needs lpcheck's codec helper, \(helper), which is not there or is no program: build it with lpcheck (swift build), and install FFmpeg's libraries (Debian: apt install \(packages))")
        }
        let (input, stage) = (request.input, request.stage)
        // A token new each run marks the helper's progress lines: no message can pass for one.
        let token = String(UInt64.random(in: 1...UInt64.max), radix: 36)
        var environment = ProcessInfo.processInfo.environment
        environment["LPCHECK_CODEC_TOKEN"] = token
        environment["LPCHECK_CODEC_PARENT"] = String(getpid())
        // A crash is told by its signal; Swift's backtrace is not the user's to read.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let process: HelperSpawn
        do {
            process = try HelperSpawn(helper, arguments: request.arguments, environment: environment)
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
                if let malformed = error as? CodecAnswer.Malformed { throw Failure(status: 1, description: "\(input): \(stage): \(malformed.description)") }
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
        // The input first, then the stage, then the reason (the helper's own messages name the input first).
        if reason.hasPrefix(input + ": ") { throw Failure(status: 2, description: "\(input): \(stage): \(reason.dropFirst(input.count + 2))") }
        throw Failure(status: 2, description: reason.contains(input) ? "\(stage): \(reason)" : "\(input): \(stage): \(reason)")
    }

    static func signalName(_ signal: Int32) -> String? {
        [SIGILL: "SIGILL", SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP"][signal]
    }

    /// What the reading threads share about one helper: when it last showed progress, what it
    /// said, and whether lpcheck stopped it and why.
    final class HelperWatch: Sendable {
        struct State {
            var last = DispatchTime.now()
            var lines: [String] = []
            var bytes = 0
            var reason: String?
        }
        private let state = Locked(State())
        let silence: Int

        init(silence: Int) { self.silence = silence }

        func alive() { state.withLock { $0.last = .now() } }

        var silentFor: Double { state.withLock { Double(DispatchTime.now().uptimeNanoseconds - $0.last.uptimeNanoseconds) / 1e9 } }

        func said(_ line: Data) {
            state.withLock { state in
                state.bytes += line.count + 1
                guard state.lines.count < 64 else { return }
                let text = String(decoding: line.prefix(4096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty { state.lines.append(text) }
            }
        }

        var messageBytes: Int { state.current.bytes }
        var allText: String { state.current.lines.joined(separator: "\n") }
        var stopped: String? { state.current.reason }

        /// The helper's one line: its own message (`lpcheck-codec: …`), else the codec's last
        /// error line with the addresses of its contexts taken out (`[hevc @ 0x55…] text`).
        var message: String? {
            let lines = state.current.lines
            if let own = lines.last(where: { $0.hasPrefix("lpcheck-codec: ") }) { return String(own.dropFirst("lpcheck-codec: ".count)) }
            guard let last = lines.last(where: { !$0.hasPrefix("progress ") }) else { return nil }
            return last.replacingOccurrences(of: #" @ 0x[0-9a-fA-F]+"#, with: "", options: .regularExpression)
        }

        /// Stops the helper (once), saying why (nil: lpcheck's own error).
        func stop(_ process: HelperSpawn, _ why: String?) {
            let first: Bool = state.withLock {
                guard $0.reason == nil else { return false }
                $0.reason = why ?? "was stopped by lpcheck"
                return true
            }
            if first { process.signalGroup(SIGKILL) }
        }
    }

    /// A movie the helper encodes (a GIF's, a re-timed export's), written into `file` as its
    /// samples come: the `ftyp` and `mdat` head, the samples, the `moov` (`VideoMovieWriter`).
    /// Returns the still the helper answers after the samples, if any, and the samples' durations.
    /// `turn`: the track matrix the movie is shown with (a re-timed export keeps its source's);
    /// `container`: QuickTime or MP4.
    public static func encodedMovie(_ request: CodecRequest, into file: SafeFileWriter.ProducedFile, turn: TrackMatrix = .identity, container: MovieContainer = .mov,
                                    progress: (@Sendable (Int, Int) -> Void)?) throws -> (still: [UInt8]?, durations: [UInt32]) {
        var track: VideoMovieWriter.Track? = nil
        var samples: [VideoMovieWriter.Sample] = [], still: [UInt8]? = nil
        var (timescale, colour): (UInt32, CodecAnswer.Colour) = (600, .unspecified)
        var reader = CodecAnswer.Reader()
        try file.append(VideoMovieWriter.head(container))
        var dataBytes: Int64 = 0
        try run(request, progress: progress) { chunk in
            try reader.feed(chunk) { part in
                switch part {
                case .timescale(let ticks):
                    timescale = ticks
                case .colour(let codes):
                    colour = codes
                case .track(let made):
                    track = VideoMovieWriter.Track(format: made.format, configurationType: made.configurationType, configuration: made.configuration,
                                                   width: made.width, height: made.height, primaries: colour.primaries, transfer: colour.transfer, matrix: colour.matrix,
                                                   timescale: timescale, turn: turn)
                    track?.fullRange = colour.fullRange
                    track?.container = container
                case .sample(let duration, let key, let data):
                    samples.append(VideoMovieWriter.Sample(size: data.count, duration: duration, key: key))
                    try file.append(data)
                    dataBytes += Int64(data.count)
                case .still(let bytes):
                    still = bytes
                case .comparison, .sound:
                    throw Failure(status: 1, description: "\(request.input): \(request.stage): the codec helper answers a comparison or a sound, not a movie")
                }
            }
        }
        guard let track, reader.isEmpty else { throw Failure(status: 1, description: "the codec helper's answer lacks the track, or ends inside a part") }
        try file.write(VideoMovieWriter.mdatSize(dataBytes: dataBytes), at: VideoMovieWriter.mdatSizeOffset(container))
        try file.append(try VideoMovieWriter.moov(track, samples: samples))
        return (still, samples.map(\.duration))
    }

    /// A produced file's bytes: a movie of the answer's samples, or the answer's bytes as they come
    /// (a GIF, held to the budget's output).
    static func produce(_ content: ProducedContent, into file: SafeFileWriter.ProducedFile, progress: (@Sendable (Int, Int) -> Void)?) throws {
        switch content.form {
        case .movie(let turn, let container):
            _ = try encodedMovie(content.request, into: file, turn: turn, container: container, progress: progress)
        case .bytes:
            try run(content.request, progress: progress, cap: (content.request.budget ?? .standard).outputBytes) { try file.append($0) }
        }
    }

    /// The answer to a `compare` request.
    public static func comparison(_ request: CodecRequest) throws -> CodecAnswer.Comparison {
        guard case .compare = request.job else { throw Failure(status: 1, description: "a \(request.name) request answers no comparison") }
        var reader = CodecAnswer.Reader()
        var found: CodecAnswer.Comparison?
        do {
            try reader.feed(try run(request)) { part in
                guard case .comparison(let comparison) = part else { throw Failure(status: 1, description: "\(request.input): \(request.stage): the codec helper answers a part other than the comparison") }
                found = comparison
            }
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(status: 1, description: "\(request.input): \(request.stage): \(error)")
        }
        guard let found, reader.isEmpty else { throw Failure(status: 1, description: "\(request.input): \(request.stage): the codec helper gave no comparison") }
        return found
    }

    /// The still of a `still` request: the video track's sample decoded and encoded.
    public static func still(_ request: CodecRequest) throws -> StillAnswer {
        guard case .still(_, _, let kind) = request.job else { throw Failure(status: 1, description: "a \(request.name) request answers no still") }
        let answer = try run(request)
        do {
            return try StillAnswer(answer, kind: kind)
        } catch {
            throw Failure(status: 1, description: "\(request.input): \(request.stage): \(error)")
        }
    }

    /// A still's picture for a report's card (`thumbnail`): a JPEG of `side` pixels on its longer
    /// side at most, or why there is none (one line naming the still, as every failure here).
    public static func thumbnail(of path: String, side: Int) -> (picture: [UInt8]?, why: String?) {
        let request = CodecRequest(.thumbnail(still: path, side: side), budget: .standard)
        do {
            var answer: [UInt8] = []
            try run(request, cap: 1 << 20) { answer += $0 }
            return answer.starts(with: [0xFF, 0xD8]) ? (answer, nil) : (nil, "\(path): \(request.stage): the codec helper's answer is no JPEG")
        } catch let failure as Failure {
            return (nil, failure.description)
        } catch {
            return (nil, "\(path): \(request.stage): \(error)")
        }
    }

    /// The sound of a `sound` request: the helper's AAC packets with their parameters.
    public static func sound(_ request: CodecRequest) throws -> EncodedSound {
        guard case .sound = request.job else { throw Failure(status: 1, description: "a \(request.name) request answers no sound") }
        var reader = CodecAnswer.Reader()
        var made: EncodedSound?
        do {
            try reader.feed(try run(request)) { part in
                switch part {
                case .sound(let sound) where made == nil:
                    made = EncodedSound(sampleRate: sound.sampleRate, channels: sound.channels, bitRate: sound.bitRate, delay: sound.delay, frames: sound.frames,
                                        configuration: sound.configuration, packets: [])
                case .sample(let duration, _, let data) where made != nil:
                    made?.packets.append((duration, data))
                default:
                    throw Failure(status: 1, description: "\(request.input): \(request.stage): the codec helper answers parts other than one sound and its packets")
                }
            }
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(status: 1, description: "\(request.input): \(request.stage): \(error)")
        }
        guard let made, !made.packets.isEmpty, reader.isEmpty else { throw Failure(status: 1, description: "\(request.input): \(request.stage): the codec helper gave no sound") }
        return made
    }
}
