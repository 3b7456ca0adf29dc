import LivePhotoCheck
import LivePhotoFormats

/// The cache's binary form of a file's facts: every field in a fixed order, varints, a presence
/// byte before each optional, a count before each list, no names. Written out field by field
/// rather than through Codable, which made every cache hit several times as costly
/// (BENCHMARKS.md, issue 12 third pass and issue 27). A cache
/// written by another build is discarded before anything is decoded, so the order needs no
/// version of its own; `CompactCoderTests` holds every field of every type here to the round
/// trip (a field added to the facts and not here fails it). Reading is bounded: a short or
/// inconsistent blob throws, it never traps or allocates what it claims.
enum CompactCoder {
    static func encode(_ facts: FileFacts) -> [UInt8] {
        let out = OutputStream()
        out.facts(facts)
        return out.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> FileFacts {
        let input = InputStream(bytes)
        let facts = try input.facts()
        guard input.position == bytes.count else { throw input.corrupt("\(bytes.count - input.position) bytes left over") }
        return facts
    }

    struct Corrupt: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: Writing

    final class OutputStream {
        var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(512) }

        func varint(_ value: UInt64) {
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        func signed(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
        func int(_ value: Int) { signed(Int64(value)) }
        func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

        func double(_ value: Double) {
            let bits = value.bitPattern
            for index in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))) }
        }

        func string(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                varint(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        func optional<T>(_ value: T?, _ write: (T) -> Void) {
            guard let value else { return bytes.append(0) }
            bytes.append(1)
            write(value)
        }

        func list<T>(_ values: [T], _ write: (T) -> Void) {
            varint(UInt64(values.count))
            for value in values { write(value) }
        }

        func range(_ value: Range<Int64>) {
            signed(value.lowerBound)
            signed(value.upperBound)
        }

        func facts(_ facts: FileFacts) {
            string(facts.path)
            string(facts.format.rawValue)
            string(facts.kind.rawValue)
            signed(facts.size)
            optional(facts.error, error)
            list(facts.warnings, error)
            optional(facts.contentIdentifier, string)
            signed(facts.bytesRead)
            optional(facts.identity) { identity in
                varint(identity.device)
                varint(identity.inode)
                varint(identity.links)
            }
            bool(facts.hasAppleMakerNote)
            optional(facts.make, string)
            optional(facts.model, string)
            optional(facts.motionPhoto, motionPhoto)
            optional(facts.motionMovie, movie)
            optional(facts.movie, movie)
            // Thumbnails are kept in columns of their own, never with the facts.
        }

        func error(_ error: ParseError) {
            string(error.code.rawValue)
            string(error.message)
            signed(error.offset)
            string(error.path)
        }

        func motionPhoto(_ motion: MotionPhoto) {
            string(motion.source.rawValue)
            optional(motion.version, string)
            optional(motion.videoOffset, signed)
            optional(motion.videoLength, signed)
            bool(motion.videoFound)
            optional(motion.presentationTimestampUs, signed)
            optional(motion.movieRange, range)
            optional(motion.foundBy) { string($0.rawValue) }
            list(motion.directory) { item in
                // Sorted: the bytes of equal facts are equal.
                list(item.fields.sorted { $0.key < $1.key }) { pair in
                    string(pair.key)
                    string(pair.value)
                }
            }
            optional(motion.mpvd, range)
            optional(motion.samsungTrailer, range)
            optional(motion.movieCutShort, string)
            optional(motion.xmpItems) { roles in
                list(roles) { role in
                    varint(UInt64(role.item))
                    list(role.describes) { varint(UInt64($0)) }
                    bool(role.declaresMotionPhoto)
                }
            }
            optional(motion.primaryItem) { varint(UInt64($0)) }
            optional(motion.locators) { locators in
                list(locators) { locator in
                    string(locator.name.rawValue)
                    optional(locator.offset, signed)
                    optional(locator.value, signed)
                    bool(locator.found)
                }
            }
            optional(motion.imageEnd, signed)
            optional(motion.cameraMotionPhoto, string)
            optional(motion.containerVersion, string)
        }

        func movie(_ movie: MovieFacts) {
            optional(movie.brand) { varint(UInt64($0.value)) }
            bool(movie.quickTimeCompatible)
            optional(movie.durationSeconds, double)
            optional(movie.metadataHandler) { varint(UInt64($0.value)) }
            bool(movie.hasContentIdentifierKey)
            optional(movie.contentIdentifierLocation) { string($0.rawValue) }
            int(movie.videoTrackCount)
            optional(movie.frameDurations) { durations in
                varint(UInt64(durations.timescale))
                varint(durations.frameCount)
                varint(UInt64(durations.nominal))
                varint(UInt64(durations.minimum))
                varint(UInt64(durations.maximum))
                varint(durations.zeroDurationFrames)
            }
            list(movie.frames) { run in
                double(run.start)
                double(run.duration)
                int(run.count)
            }
            int(movie.timedMetadataTrackCount)
            list(movie.stillImageTimeTracks) { track in
                varint(UInt64(track.trackID))
                string(track.path)
                optional(track.declaredType) { varint(UInt64($0)) }
                int(track.sampleCount)
                bool(track.referencesVideo)
                optional(track.readError, error)
                bool(track.sampleHoldsKey)
            }
            optional(movie.stillImageTime) { time in
                varint(UInt64(time.trackID))
                string(time.trackPath)
                optional(time.value, signed)
                optional(time.dataType) { varint(UInt64($0)) }
                int(time.sampleIndex)
                varint(time.mediaTime)
                varint(UInt64(time.duration))
                varint(UInt64(time.mediaTimescale))
                optional(time.seconds, double)
                bool(time.hasEditList)
            }
            optional(movie.trackKinds) { kinds in
                int(kinds.audio)
                int(kinds.metadata)
                bool(kinds.motionPhotoMetadata)
                optional(kinds.primaryFrameTimestampUs, signed)
                optional(kinds.unsortedScoreIndex, int)
                optional(kinds.metadataError, string)
            }
        }
    }

    // MARK: Reading

    final class InputStream {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func corrupt(_ what: String) -> Corrupt { Corrupt(description: "cache entry: \(what) at byte \(position)") }

        func byte() throws -> UInt8 {
            guard position < bytes.count else { throw corrupt("ends early") }
            position += 1
            return bytes[position - 1]
        }

        func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                guard shift < 64 else { throw corrupt("varint too long") }
                value |= UInt64(next & 0x7F) << shift
                if next < 0x80 { return value }
                shift += 7
            }
        }

        func signed() throws -> Int64 {
            let raw = try varint()
            return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
        }

        func int() throws -> Int {
            let value = try signed()
            guard let exact = Int(exactly: value) else { throw corrupt("\(value) out of range") }
            return exact
        }

        func uint32() throws -> UInt32 {
            let value = try varint()
            guard let exact = UInt32(exactly: value) else { throw corrupt("\(value) out of range") }
            return exact
        }

        func bool() throws -> Bool {
            switch try byte() {
            case 0: return false
            case 1: return true
            case let other: throw corrupt("\(other) is not a flag")
            }
        }

        func double() throws -> Double {
            guard bytes.count - position >= 8 else { throw corrupt("ends early") }
            var bits: UInt64 = 0
            for index in 0..<8 { bits |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
            position += 8
            return Double(bitPattern: bits)
        }

        func string() throws -> String {
            let count = try varint()
            guard count <= UInt64(bytes.count - position) else { throw corrupt("string of \(count) bytes") }
            let end = position + Int(count)
            defer { position = end }
            return String(decoding: bytes[position..<end], as: UTF8.self)
        }

        func optional<T>(_ read: () throws -> T) throws -> T? {
            try bool() ? try read() : nil
        }

        /// A list: its count is checked against the bytes left (every element takes one at
        /// least). Room is reserved for a few elements only: an element in memory is larger than
        /// its bytes, so a count a damaged row claims must not size an allocation.
        func list<T>(_ read: () throws -> T) throws -> [T] {
            let count = try varint()
            guard count <= UInt64(bytes.count - position) else { throw corrupt("list of \(count) items") }
            var values: [T] = []
            values.reserveCapacity(Int(min(count, 16)))
            for _ in 0..<count { values.append(try read()) }
            return values
        }

        func range() throws -> Range<Int64> {
            let lower = try signed(), upper = try signed()
            guard lower <= upper else { throw corrupt("range \(lower)..<\(upper)") }
            return lower..<upper
        }

        func raw<T: RawRepresentable>(_ type: T.Type) throws -> T where T.RawValue == String {
            let text = try string()
            guard let value = T(rawValue: text) else { throw corrupt("unknown \(T.self) \(text)") }
            return value
        }

        func facts() throws -> FileFacts {
            var facts = FileFacts(path: try string(), format: try raw(FileFormat.self), kind: try raw(MediaFile.Kind.self), size: try signed(),
                                  error: try optional(error), warnings: try list(error), contentIdentifier: try optional(string))
            facts.bytesRead = try signed()
            facts.identity = try optional { FileIdentity(device: try varint(), inode: try varint(), links: try varint()) }
            facts.hasAppleMakerNote = try bool()
            facts.make = try optional(string)
            facts.model = try optional(string)
            facts.motionPhoto = try optional(motionPhoto)
            facts.motionMovie = try optional(movie)
            facts.movie = try optional(movie)
            return facts
        }

        /// A HEIF item ID (32 bits).
        func item() throws -> UInt32 {
            let value = try varint()
            guard let id = UInt32(exactly: value) else { throw corrupt("item ID \(value) does not fit 32 bits") }
            return id
        }

        func error() throws -> ParseError {
            ParseError(try raw(ParseError.Code.self), try string(), offset: try signed(), path: try string())
        }

        func motionPhoto() throws -> MotionPhoto {
            var motion = MotionPhoto(source: try raw(MotionPhotoSource.self), version: try optional(string), videoOffset: try optional(signed),
                                     videoLength: try optional(signed), videoFound: try bool(), presentationTimestampUs: try optional(signed))
            motion.movieRange = try optional(range)
            motion.foundBy = try optional { try raw(MovieFoundBy.self) }
            motion.directory = try list {
                var fields: [String: String] = [:]
                for (key, value) in try list({ (try string(), try string()) }) { fields[key] = value }
                return XMPPacket.DirectoryItem(fields: fields)
            }
            motion.mpvd = try optional(range)
            motion.samsungTrailer = try optional(range)
            motion.movieCutShort = try optional(string)
            motion.xmpItems = try optional { try list { XMPItemRole(item: try item(), describes: try list(item), declaresMotionPhoto: try bool()) } }
            motion.primaryItem = try optional(item)
            motion.locators = try optional { try list { MotionPhotoLocator(name: try raw(MotionPhotoLocator.Name.self), offset: try optional(signed), value: try optional(signed), found: try bool()) } }
            motion.imageEnd = try optional(signed)
            motion.cameraMotionPhoto = try optional(string)
            motion.containerVersion = try optional(string)
            return motion
        }

        func movie() throws -> MovieFacts {
            var movie = MovieFacts()
            movie.brand = try optional { FourCC(try uint32()) }
            movie.quickTimeCompatible = try bool()
            movie.durationSeconds = try optional(double)
            movie.metadataHandler = try optional { FourCC(try uint32()) }
            movie.hasContentIdentifierKey = try bool()
            movie.contentIdentifierLocation = try optional { try raw(MetadataLocation.self) }
            movie.videoTrackCount = try int()
            movie.frameDurations = try optional {
                FrameDurations(timescale: try uint32(), frameCount: try varint(), nominal: try uint32(), minimum: try uint32(),
                               maximum: try uint32(), zeroDurationFrames: try varint())
            }
            movie.frames = try list { MovieFacts.FrameRun(start: try double(), duration: try double(), count: try int()) }
            movie.timedMetadataTrackCount = try int()
            movie.stillImageTimeTracks = try list {
                MovieFacts.StillImageTimeTrack(trackID: try uint32(), path: try string(), declaredType: try optional(uint32), sampleCount: try int(),
                                               referencesVideo: try bool(), readError: try optional(error), sampleHoldsKey: try bool())
            }
            movie.stillImageTime = try optional {
                StillImageTime(trackID: try uint32(), trackPath: try string(), value: try optional(signed), dataType: try optional(uint32),
                               sampleIndex: try int(), mediaTime: try varint(), duration: try uint32(), mediaTimescale: try uint32(),
                               seconds: try optional(double), hasEditList: try bool())
            }
            movie.trackKinds = try optional {
                var kinds = MovieFacts.TrackKinds(audio: try int(), metadata: try int(), motionPhotoMetadata: try bool())
                (kinds.primaryFrameTimestampUs, kinds.unsortedScoreIndex, kinds.metadataError) = (try optional(signed), try optional(int), try optional(string))
                return kinds
            }
            return movie
        }
    }
}
