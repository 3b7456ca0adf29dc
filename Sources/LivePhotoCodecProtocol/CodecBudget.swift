/// The picture limits a codec job is held to, defined once for both programs (lpcheck plans
/// with them, lpcheck-codec enforces them when it is given no other).
public enum CodecLimits {
    /// Width × height of a frame: 40 million (an 8K frame is 33 million).
    public static let maxPixels = 40_000_000
    /// Either side: 16,384 (HEVC level 6.2's largest side is 8444 × √8).
    public static let maxSide = 16_384
    /// The most frames a re-timed export or a GIF is decoded and encoded from.
    public static let maxFrames = 10_000
}

/// What one piece of pixel work (a GIF made into a movie, a movie reversed or made a GIF, a
/// still decoded) may cost, decided before any picture is decoded: lpcheck's planners hold the
/// plan's figures to it, and the codec helper holds the same figures to it again as it decodes
/// (a sample entry may claim a smaller size than its pictures have). A tiny input can name
/// hours of work or gigabytes of pictures; past a budget it is refused by name, with the option
/// that raises it. The defaults and the measurements that chose them are in BENCHMARKS.md.
public struct CodecBudget: Sendable, Equatable {
    /// Pixels decoded, composited or encoded, every frame counted: the work's time.
    public var totalPixels: Int64
    /// Bytes of decoded pictures held at once (a group of pictures when frames are reversed):
    /// the work's memory. The helper's address space is limited to this plus `headroom`.
    public var memoryBytes: Int64
    /// The largest output the work may write (a GIF's worst case, before it is encoded).
    public var outputBytes: Int64
    /// Seconds the helper may go without a sign of progress before it is stopped.
    public var silenceSeconds: Int

    public init(totalPixels: Int64 = CodecBudget.standard.totalPixels, memoryBytes: Int64 = CodecBudget.standard.memoryBytes,
                outputBytes: Int64 = CodecBudget.standard.outputBytes, silenceSeconds: Int = CodecBudget.standard.silenceSeconds) {
        (self.totalPixels, self.memoryBytes, self.outputBytes, self.silenceSeconds) = (totalPixels, memoryBytes, outputBytes, silenceSeconds)
    }

    /// 2^33 pixels (a 4K clip of 17 s at 60 frames a second reversed; a 1920×1440 clip of
    /// 50 minutes), 2 GiB of pictures (a 4K 10-bit group of 90 pictures), 1 GiB of output (what
    /// a GIF is read back whole up to), 120 s of silence.
    public static let standard = CodecBudget(totalPixels: 1 << 33, memoryBytes: 2 << 30, outputBytes: 1 << 30, silenceSeconds: 120)

    /// What the helper's address space holds beyond `memoryBytes` for pictures of `pixels`:
    /// 2 GiB for its code, libraries and threads' stacks, and 640 bytes a pixel for the
    /// decoder's and encoder's own frames and lookahead (measured: a 1920×1080 HEVC reverse
    /// peaked at 1.2 GB of address space, a 3840×2160 10-bit bounce at 4.8 GB; BENCHMARKS.md).
    public static func headroom(forPixels pixels: Int) -> Int64 {
        (2 << 30) + product(640, max(0, pixels), 1)
    }

    /// The address space the helper runs in for pictures of `pixels`.
    public func addressSpace(forPixels pixels: Int) -> Int64 {
        memoryBytes.addingReportingOverflow(Self.headroom(forPixels: pixels)).partialValue
    }

    /// Largest value of each option (beyond them the products below could overflow).
    public static let maxValue: Int64 = 1 << 50

    /// A budget passed: what was asked, what it costs, what the budget allows and which option
    /// raises it.
    public struct Exceeded: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// `frames` pictures of `width`×`height` pixels decoded, composited or encoded, against
    /// `totalPixels`; `what` names them ("a GIF of 10000 frames").
    public func pixels(width: Int, height: Int, frames: Int, _ what: String) throws(Exceeded) {
        let cost = Self.product(width, height, frames)
        guard cost <= totalPixels else {
            throw Exceeded(description: "\(what): \(frames) pictures of \(width)×\(height) are \(Self.text(cost)) pixels of work, more than the \(Self.text(totalPixels)) allowed (--max-total-pixels)")
        }
    }

    /// `frames` decoded pictures of `width`×`height` held at once, `bytesPerPixel` tenths of
    /// a byte each pixel (15: 8-bit 4:2:0; 30: 10-bit 4:2:0 or 8-bit 4:4:4), against `memoryBytes`.
    public func memory(width: Int, height: Int, frames: Int, tenthsOfBytePerPixel: Int, _ what: String) throws(Exceeded) {
        let cost = Self.product(Self.product(width, height, frames), Int64(tenthsOfBytePerPixel)) / 10
        guard cost <= memoryBytes else {
            throw Exceeded(description: "\(what): \(frames) decoded pictures of \(width)×\(height) held at once are \(Self.bytes(cost)), more than the \(Self.bytes(memoryBytes)) allowed (--max-memory)")
        }
    }

    /// An output of at most `bytes` (its worst case), against `outputBytes`.
    public func output(_ bytes: Int64, _ what: String) throws(Exceeded) {
        guard bytes <= outputBytes else {
            throw Exceeded(description: "\(what) may take up to \(Self.bytes(bytes)), more than the \(Self.bytes(outputBytes)) allowed (--max-output)")
        }
    }

    /// The most a GIF of `frames` frames of `width`×`height` can take: LZW codes are at most
    /// 12 bits for a pixel, a clear code at most every 4,093 codes, a length byte every 255
    /// data bytes, and each frame's own descriptor, control block and local palette.
    public static func gifWorstCase(width: Int, height: Int, frames: Int) -> Int64 {
        let pixels = product(width, height, 1)
        let data = pixels.multipliedReportingOverflow(by: 3).partialValue / 2 + pixels / 2_000 + 16
        let perFrame = data + data / 255 + 1 + 8 + 10 + 768 + 2
        let (total, overflow) = perFrame.multipliedReportingOverflow(by: Int64(max(0, frames)))
        return overflow ? Int64.max : total + 800
    }

    /// `a × b × c`, saturating at `Int64.max` (every factor is a file's or a user's number).
    public static func product(_ a: Int, _ b: Int, _ c: Int) -> Int64 {
        product(product(Int64(max(0, a)), Int64(max(0, b))), Int64(max(0, c)))
    }

    static func product(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int64.max : value
    }

    static func text(_ value: Int64) -> String {
        value >= 1_000_000_000 ? "\(tenths(value, of: 1e9)) billion" : value >= 1_000_000 ? "\(tenths(value, of: 1e6)) million" : "\(value)"
    }

    static func bytes(_ value: Int64) -> String {
        value >= 1 << 30 ? "\(tenths(value, of: Double(1 << 30))) GiB" : "\(tenths(value, of: Double(1 << 20))) MiB"
    }

    /// `value / unit` with one decimal ("2.5"), or none when it is whole ("2").
    static func tenths(_ value: Int64, of unit: Double) -> String {
        let tenths = Int64(min(9e17, (Double(value) / unit * 10).rounded()))
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// The helper's options for this budget (its only grammar for them: `init(arguments:)`).
    public var arguments: [String] {
        ["--max-total-pixels", String(totalPixels), "--max-memory", String(memoryBytes), "--max-output", String(outputBytes)]
    }

    /// The budget named by `options` (option name → value), the standard one's value where absent;
    /// nil when a value is no number from 1 to `maxValue`.
    public init?(options: [String: String]) {
        self = .standard
        for (name, path) in [("--max-total-pixels", \CodecBudget.totalPixels), ("--max-memory", \CodecBudget.memoryBytes), ("--max-output", \CodecBudget.outputBytes)] {
            guard let text = options[name] else { continue }
            guard let value = Int64(text), value >= 1, value <= Self.maxValue else { return nil }
            self[keyPath: path] = value
        }
    }
}
