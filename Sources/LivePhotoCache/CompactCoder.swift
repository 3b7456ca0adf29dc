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
            optional(facts.capture, capture)
            optional(facts.archive, string)
            optional(facts.credentials) { credentials in
                string(credentials.container)
                bool(credentials.verified)
                optional(credentials.activeManifest, string)
                optional(credentials.signer, string)
                optional(credentials.binding, bool)
                optional(credentials.detail, string)
            }
            // Thumbnails are kept in columns of their own, never with the facts.
        }

        func capture(_ capture: CaptureFacts) {
            optional(capture.time) { time in
                string(time.source)
                double(time.clock)
                optional(time.offset, int)
            }
            optional(capture.headerTime, double)
            optional(capture.make, string)
            optional(capture.model, string)
            optional(capture.software, string)
            optional(capture.latitude, double)
            optional(capture.longitude, double)
            optional(capture.size) { size in
                int(size.width)
                int(size.height)
            }
            optional(capture.quarterTurns, int)
            optional(capture.mirrored, bool)
            optional(capture.unusableTime, string)
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
            optional(movie.wallpaperKeys) { varint(UInt64($0.rawValue)) }
            optional(movie.referenceDimensions) { size in
                int(size.width)
                int(size.height)
            }
        }
    }
}
