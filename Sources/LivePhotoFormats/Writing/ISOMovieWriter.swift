

/// A QuickTime movie rewritten as a self-contained ISO MP4 for a motion photo: ISO brands, the new
/// `moov` first, Apple-only timed metadata and audio the spec does not allow dropped, every other
/// top-level box and every sample copied with chunk offsets moved to match.
public enum ISOMovieWriter {
    /// Audio sample formats that are uncompressed PCM (Motion Photo 1.0 movies carry AAC audio).
    static let pcmFormats: Set<FourCC> = ["lpcm", "sowt", "twos", "in24", "in32", "fl32", "fl64", "raw "]

    public static func mp4(_ movie: Movie, source: ByteSource) throws -> FilePatch {
        guard let moov = movie.boxes.first(where: { $0.type == "moov" }) else { throw WriteError(.missingStructure, "no moov box") }
        let payload = try source.payload(of: moov, path: "moov")
        var children = try BoxIterator.all(payload).map { (box: $0.box, bytes: try MovieRewriter.raw($0.box, payload: $0.payload, header: payload)) }
        var notes: [String] = []
        var dropped: Set<String> = []
        for track in movie.tracks {
            if track.isTimedMetadata {
                dropped.insert(track.path)
                notes.append("drop track \(track.id): Apple timed metadata (mebx: \(track.declaredKeys.map(\.key).joined(separator: ", ")))")
            } else if track.handler == "soun", let format = track.sampleDescriptions.first?.format, pcmFormats.contains(format) {
                dropped.insert(track.path)
                notes.append("drop track \(track.id): '\(format)' PCM audio, which a Motion Photo 1.0 movie does not carry")
            }
        }
        let paths = MovieRewriter.childPaths(children)
        children = children.indices.filter { !dropped.contains(paths[$0]) }.map { children[$0] }
        guard children.contains(where: { $0.box.type == "trak" }) else { throw WriteError(.missingStructure, "no track is left for the MP4") }
        let ftyp = BoxWriter.box("ftyp", FourCC("mp42").bytes + BoxWriter.u32(0) + FourCC("isom").bytes + FourCC("mp42").bytes)
        let data = movie.boxes.filter { $0.type != "ftyp" && $0.type != "moov" }
        for box in data where box.end > source.size {
            throw WriteError(.inconsistentInput, "box '\(box.type)' at \(box.offset) runs past the end of the movie")
        }
        // The new moov's size fixes where the data lands; a chunk offset that needs 64 bits grows
        // it, so settle the size first.
        var moovSize = 8 + children.reduce(0) { $0 + $1.bytes.count }
        var rebuilt: [[UInt8]] = []
        for _ in 0..<4 {
            var position = Int64(ftyp.count + moovSize)
            var moved: [(old: Range<Int64>, new: Int64)] = []
            for box in data {
                moved.append((box.offset..<box.end, position))
                position += box.size
            }
            rebuilt = try children.map { child in
                guard child.box.type == "trak" else { return child.bytes }
                return try MovieRewriter.mappingChunkOffsets(child.bytes) { value in
                    guard let signed = Int64(exactly: value), let hit = moved.first(where: { $0.old.contains(signed) }) else {
                        throw WriteError(.inconsistentInput, "chunk offset \(value) points at no media box")
                    }
                    return UInt64(signed - hit.old.lowerBound + hit.new)
                }
            }
            let size = 8 + rebuilt.reduce(0) { $0 + $1.count }
            if size == moovSize { break }
            moovSize = size
        }
        guard moovSize <= Int(UInt32.max) else { throw WriteError(.fieldOverflow, "the moov box would not fit 32 bits") }
        var patch = FilePatch()
        patch.append(ftyp + MovieRewriter.moovHeader(size: moovSize, headerSize: 8) + rebuilt.flatMap { $0 })
        for box in data { patch.copy(box.offset..<box.end) }
        notes.insert("ftyp '\(movie.majorBrand?.description ?? "none")' → 'mp42' (isom, mp42); moov (\(moovSize) bytes) first, \(data.count) box(es) of media copied after it with chunk offsets moved", at: 0)
        patch.notes = notes
        return patch
    }
}
