import LivePhotoCheck
import LivePhotoFormats

/// Reading the cache's binary form back: bounded, a short or inconsistent blob throws.
extension CompactCoder {
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
            facts.capture = try optional(capture)
            facts.archive = try optional(string)
            facts.credentials = try optional {
                var credentials = CredentialsFacts(container: try string())
                credentials.verified = try bool()
                (credentials.activeManifest, credentials.signer) = (try optional(string), try optional(string))
                (credentials.binding, credentials.detail) = (try optional(bool), try optional(string))
                return credentials
            }
            return facts
        }

        func capture() throws -> CaptureFacts {
            let time = try optional { CaptureTime(source: try string(), clock: try double(), offset: try optional(int)) }
            let headerTime = try optional(double)
            let (make, model, software) = (try optional(string), try optional(string), try optional(string))
            let (latitude, longitude) = (try optional(double), try optional(double))
            let size = try optional { PixelSize(width: try int(), height: try int()) }
            return CaptureFacts(time: time, headerTime: headerTime, make: make, model: model, software: software, latitude: latitude, longitude: longitude,
                                size: size, quarterTurns: try optional(int), mirrored: try optional(bool), unusableTime: try optional(string))
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
            movie.wallpaperKeys = try optional { MovieFacts.WallpaperKeys(rawValue: UInt8(truncatingIfNeeded: try varint())) }
            movie.referenceDimensions = try optional { PixelSize(width: try int(), height: try int()) }
            return movie
        }
    }
}
