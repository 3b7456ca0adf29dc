

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
        var notes = try MovieRewriter.defragmenting(&children, movie: movie)
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
        let data = movie.boxes.filter { $0.type != "ftyp" && $0.type != "moov" && !MovieRewriter.fragmentBoxes.contains($0.type) }
        var patch = try MovieRewriter.placingMedia(after: ftyp, children: children, data: data, source: source)
        let moovSize = patch.pieces.first.map { Int($0.count) - ftyp.count } ?? 0
        notes.insert("ftyp '\(movie.majorBrand?.description ?? "none")' → 'mp42' (isom, mp42); moov (\(moovSize) bytes) first, \(Plural.count(data.count, "box", plural: "boxes")) of media copied after it with chunk offsets moved", at: 0)
        patch.notes = notes
        return patch
    }
}
