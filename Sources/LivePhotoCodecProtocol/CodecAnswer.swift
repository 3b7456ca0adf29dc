import LivePhotoFormats

/// What the codec helper writes on standard output for a movie it encodes, in parts framed as
/// size-and-type boxes of its own (none is an ISO box): the helper writes them with `bytes`
/// (one writer), lpcheck reads them with `Reader` (one reader), as they come.
public enum CodecAnswer {
    /// The colour codes (ISO/IEC 23091-2) the encoded pictures carry.
    public struct Colour: Sendable, Equatable {
        public var primaries: UInt16, transfer: UInt16, matrix: UInt16
        public var fullRange: Bool
        public init(primaries: UInt16, transfer: UInt16, matrix: UInt16, fullRange: Bool) {
            (self.primaries, self.transfer, self.matrix, self.fullRange) = (primaries, transfer, matrix, fullRange)
        }
        /// Unspecified: BT.709 codes in limited range, what a movie without colour codes says.
        public static let unspecified = Colour(primaries: 1, transfer: 1, matrix: 1, fullRange: false)
    }

    /// The encoded video track: its sample entry's format (`avc1`, `hvc1`), its configuration
    /// record's type and bytes, and its pictures' size.
    public struct Track: Sendable, Equatable {
        public var format: FourCC, configurationType: FourCC
        public var width: Int, height: Int
        public var configuration: [UInt8]
        public init(format: FourCC, configurationType: FourCC, width: Int, height: Int, configuration: [UInt8]) {
            (self.format, self.configurationType, self.width, self.height, self.configuration) = (format, configurationType, width, height, configuration)
        }
    }

    /// An encoded sound track: AAC-LC at `sampleRate` with `channels`, its AudioSpecificConfig
    /// (`configuration`), the encoder's priming (`delay` samples, to skip) and the source's length
    /// (`frames`, samples a channel). Its samples follow, each `duration` samples long.
    public struct Sound: Sendable, Equatable {
        public var sampleRate: UInt32, channels: UInt16, bitRate: UInt32
        public var delay: UInt32, frames: UInt64
        public var configuration: [UInt8]
        public init(sampleRate: UInt32, channels: UInt16, bitRate: UInt32, delay: UInt32, frames: UInt64, configuration: [UInt8]) {
            (self.sampleRate, self.channels, self.bitRate, self.delay, self.frames, self.configuration) = (sampleRate, channels, bitRate, delay, frames, configuration)
        }
    }

    public enum Part: Sendable, Equatable {
        /// Ticks a second of the samples' durations (600 unless said).
        case timescale(UInt32)
        case colour(Colour)
        case track(Track)
        /// One encoded sample, in decoding order: its duration in ticks, whether it is a sync sample.
        case sample(duration: UInt32, key: Bool, data: [UInt8])
        /// The still after the samples (a GIF's frame at the moment), as `StillAnswer` lays it out.
        case still([UInt8])
        /// A still compared with the frames shown around its movie's moment (`compare`).
        case comparison(Comparison)
        /// The sound track the samples after it belong to (`sound`).
        case sound(Sound)
    }

    /// A still's luma PSNR (dB; 100 for identical pictures) against the shown frame at its
    /// movie's still-image-time (`marked`, an index of the shown frames) and those beside it.
    public struct Comparison: Sendable, Equatable {
        public var marked: Int
        public var scores: [Score]
        public struct Score: Sendable, Equatable {
            public var frame: Int
            public var decibels: Double
            public init(frame: Int, decibels: Double) { (self.frame, self.decibels) = (frame, decibels) }
        }
        public init(marked: Int, scores: [Score]) { (self.marked, self.scores) = (marked, scores) }

        public var markedDecibels: Double? { scores.first { $0.frame == marked }?.decibels }
        /// The frame that matches best (the marked one on a tie).
        public var best: Score? { scores.max { ($0.decibels, $0.frame == marked ? 1 : 0) < ($1.decibels, $1.frame == marked ? 1 : 0) } }
    }

    /// The parts' types: four letters each, named for what they hold.
    enum Kind: String, CaseIterable {
        case timescale = "tick", colour = "clrc", track = "vtrk", sample = "smpl", still = "stil", comparison = "cmpr", sound = "strk"
        var type: FourCC { FourCC(text: rawValue) }
    }

    /// A part framed: a 32-bit size (header included), the type, the payload.
    public static func bytes(_ part: Part) -> [UInt8] {
        switch part {
        case .timescale(let ticks):
            return frame(.timescale, BoxWriter.u32(ticks))
        case .colour(let colour):
            return frame(.colour, BoxWriter.u16(colour.primaries) + BoxWriter.u16(colour.transfer) + BoxWriter.u16(colour.matrix) + [colour.fullRange ? 1 : 0])
        case .track(let track):
            return frame(.track, track.format.bytes + track.configurationType.bytes + BoxWriter.u32(UInt32(clamping: track.width))
                + BoxWriter.u32(UInt32(clamping: track.height)) + track.configuration)
        case .sample(let duration, let key, let data):
            return frame(.sample, BoxWriter.u32(duration) + [key ? 1 : 0] + data)
        case .still(let still):
            return frame(.still, still)
        case .sound(let sound):
            return frame(.sound, BoxWriter.u32(sound.sampleRate) + BoxWriter.u16(sound.channels) + BoxWriter.u32(sound.bitRate) + BoxWriter.u32(sound.delay)
                + BoxWriter.u64(sound.frames) + sound.configuration)
        case .comparison(let comparison):
            return frame(.comparison, BoxWriter.u32(UInt32(clamping: comparison.marked)) + comparison.scores.flatMap {
                BoxWriter.u32(UInt32(clamping: $0.frame)) + BoxWriter.u64($0.decibels.bitPattern)
            })
        }
    }

    static func frame(_ kind: Kind, _ payload: [UInt8]) -> [UInt8] { BoxWriter.box(kind.type, payload) }

    /// The answer is not what the helper writes.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Parts out of a byte stream, each handed over whole once its bytes are in: at most
    /// `maxPart` bytes a part, every type known and every payload its layout's length.
    public struct Reader {
        public static let maxPart = 64 << 20
        var pending: [UInt8] = []
        public init() {}

        /// Takes the next bytes of the stream; `take` gets each part completed by them.
        public mutating func feed(_ bytes: [UInt8], _ take: (Part) throws -> Void) throws {
            pending += bytes
            var at = 0
            defer { pending.removeFirst(at) }
            while pending.count - at >= 8 {
                let size = pending[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
                guard size >= 8, size <= Self.maxPart else { throw Malformed(description: "the codec helper's answer holds a part of \(size) bytes") }
                guard pending.count - at >= size else { break }
                let type = FourCC(pending[(at + 4)..<(at + 8)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
                let part = try Self.part(type, Array(pending[(at + 8)..<(at + size)]))
                at += size
                try take(part)
            }
        }

        /// Whether the stream ended between parts.
        public var isEmpty: Bool { pending.isEmpty }

        static func part(_ type: FourCC, _ payload: [UInt8]) throws -> Part {
            guard let kind = Kind.allCases.first(where: { $0.type == type }) else { throw Malformed(description: "the codec helper's answer holds a part of unknown type \(type)") }
            var reader = ByteReader(payload, path: "codec helper")
            let part: Part
            switch kind {
            case .timescale:
                let ticks = try reader.u32()
                guard ticks > 0 else { throw Malformed(description: "the codec helper gives a timescale of 0") }
                part = .timescale(ticks)
            case .colour:
                part = .colour(Colour(primaries: try reader.u16(), transfer: try reader.u16(), matrix: try reader.u16(), fullRange: try reader.u8() == 1))
            case .track:
                let format = try reader.fourCC(), configurationType = try reader.fourCC()
                let width = Int(try reader.u32()), height = Int(try reader.u32())
                part = .track(Track(format: format, configurationType: configurationType, width: width, height: height, configuration: Array(reader.restSlice())))
            case .sample:
                let duration = try reader.u32(), key = try reader.u8() != 0
                part = .sample(duration: duration, key: key, data: Array(reader.restSlice()))
            case .still:
                part = .still(Array(reader.restSlice()))
            case .sound:
                let rate = try reader.u32(), channels = try reader.u16(), bitRate = try reader.u32(), delay = try reader.u32(), frames = try reader.u64()
                guard rate > 0, channels > 0 else { throw Malformed(description: "the codec helper gives a sound of \(rate) Hz and \(channels) channels") }
                part = .sound(Sound(sampleRate: rate, channels: channels, bitRate: bitRate, delay: delay, frames: frames, configuration: Array(reader.restSlice())))
            case .comparison:
                let marked = Int(try reader.u32())
                guard reader.remaining % 12 == 0 else { throw Malformed(description: "the codec helper's comparison part holds \(reader.remaining) bytes of scores") }
                var scores: [Comparison.Score] = []
                while reader.remaining > 0 {
                    let frame = Int(try reader.u32()), decibels = Double(bitPattern: try reader.u64())
                    guard decibels.isFinite else { throw Malformed(description: "the codec helper gives a PSNR that is no number") }
                    scores.append(Comparison.Score(frame: frame, decibels: decibels))
                }
                part = .comparison(Comparison(marked: marked, scores: scores))
            }
            guard reader.remaining == 0 else { throw Malformed(description: "the codec helper's \(kind.rawValue) part has \(reader.remaining) bytes more than its layout") }
            return part
        }
    }
}

/// A still as the helper answers it: a JPEG's bytes, or an HEVC picture in three parts, its
/// `hvcC` record, its `colr` box's payload (nclx, as encoded) and its NAL units (4-byte lengths).
public enum StillAnswer: Sendable, Equatable {
    case jpeg([UInt8])
    case hevc(configuration: [UInt8], colour: [UInt8], picture: [UInt8])

    enum Kind: String, CaseIterable {
        case configuration = "hvcC", colour = "colr", picture = "nals"
        var type: FourCC { FourCC(text: rawValue) }
    }

    public var bytes: [UInt8] {
        switch self {
        case .jpeg(let bytes): return bytes
        case .hevc(let configuration, let colour, let picture):
            return BoxWriter.box(Kind.configuration.type, configuration) + BoxWriter.box(Kind.colour.type, colour) + BoxWriter.box(Kind.picture.type, picture)
        }
    }

    /// The answer `bytes` for a still of `kind`.
    public init(_ bytes: [UInt8], kind: StillKind) throws {
        guard kind == .hevc else { self = .jpeg(bytes); return }
        var parts: [FourCC: [UInt8]] = [:]
        var boxes = BoxIterator(ByteReader(bytes, path: "codec helper"))
        while let (header, payload) = try boxes.next() {
            guard Kind.allCases.contains(where: { $0.type == header.type }), parts[header.type] == nil else {
                throw CodecAnswer.Malformed(description: "the codec helper's HEVC still holds a part \(header.type) it should not")
            }
            var whole = payload
            parts[header.type] = Array(whole.restSlice())
        }
        guard let configuration = parts[Kind.configuration.type], let colour = parts[Kind.colour.type], let picture = parts[Kind.picture.type] else {
            throw CodecAnswer.Malformed(description: "the codec helper's HEVC still lacks its configuration, colour or picture")
        }
        self = .hevc(configuration: configuration, colour: colour, picture: picture)
    }
}
