

/// A QuickTime movie rewritten as a self-contained ISO MP4 for a motion photo: ISO brands, the new
/// `moov` first, Apple-only timed metadata and audio the spec does not allow dropped, every other
/// top-level box and every sample copied with chunk offsets moved to match.
public enum ISOMovieWriter {
    /// Audio sample formats that are uncompressed PCM (Motion Photo 1.0 movies carry AAC audio).
    static var pcmFormats: Set<FourCC> { SoundFields.formats }

    /// `sound`: a PCM track's sound encoded to AAC (the track's ID, the encoding), written in its
    /// place (the same ID), its packets in an `mdat` of their own after the media copied.
    public static func mp4(_ movie: Movie, source: ByteSource, sound: (track: UInt32, encoded: EncodedSound)? = nil) throws -> FilePatch {
        guard let moov = movie.boxes.first(where: { $0.type == "moov" }) else { throw WriteError(.missingStructure, "no moov box") }
        let payload = try source.payload(of: moov, path: "moov")
        var children = try BoxIterator.all(payload).map { (box: $0.box, bytes: try MovieRewriter.raw($0.box, payload: $0.payload, header: payload)) }
        var notes = try MovieRewriter.defragmenting(&children, movie: movie)
        var dropped: Set<String> = []
        var replaced: (path: String, trak: [UInt8])?
        for track in movie.tracks {
            if track.isTimedMetadata {
                dropped.insert(track.path)
                notes.append("drop track \(track.id): Apple timed metadata (mebx: \(track.declaredKeys.map(\.key).joined(separator: ", ")))")
            } else if track.handler == "soun", let format = track.sampleDescriptions.first?.format, pcmFormats.contains(format) {
                if let sound, sound.track == track.id, replaced == nil {
                    // The chunk offset just past the source's end: where `placingMedia` puts the extra mdat's data.
                    guard source.size < Int64(UInt32.max) - Int64(sound.encoded.data.count) else { throw WriteError(.fieldOverflow, "the movie is too large for a 32-bit chunk offset") }
                    let span = try SoundTrackWriter.span(of: track, sound: sound.encoded, movieTimescale: movie.timescale)
                    replaced = (track.path, try SoundTrackWriter.trak(sound.encoded, id: track.id, movieTimescale: movie.timescale, chunkOffset: UInt32(source.size), span: span))
                    notes.append("track \(track.id): '\(format)' PCM sound, which a Motion Photo 1.0 movie does not carry, re-encoded by the codec helper to \(sound.encoded.description) (\(sound.encoded.data.count) bytes)")
                    continue
                }
                dropped.insert(track.path)
                notes.append("drop track \(track.id): '\(format)' PCM audio, which a Motion Photo 1.0 movie does not carry")
            }
        }
        let paths = MovieRewriter.childPaths(children)
        if let replaced, let index = paths.firstIndex(of: replaced.path) { children[index].bytes = replaced.trak }
        children = children.indices.filter { !dropped.contains(paths[$0]) }.map { children[$0] }
        guard children.contains(where: { $0.box.type == "trak" }) else { throw WriteError(.missingStructure, "no track is left for the MP4") }
        let ftyp = BoxWriter.box("ftyp", FourCC("mp42").bytes + BoxWriter.u32(0) + FourCC("isom").bytes + FourCC("mp42").bytes)
        let data = movie.boxes.filter { $0.type != "ftyp" && $0.type != "moov" && !MovieRewriter.fragmentBoxes.contains($0.type) }
        let sound = replaced == nil ? nil : sound
        var patch = try MovieRewriter.placingMedia(after: ftyp, children: children, data: data, source: source, extra: sound?.encoded.data.count ?? 0)
        // The extra mdat is laid out as zeros; the packets go there.
        if let sound, case .bytes(let zeros)? = patch.pieces.last, zeros.count == sound.encoded.data.count + 8 {
            patch.pieces[patch.pieces.count - 1] = .bytes(BoxWriter.box("mdat", sound.encoded.data))
        } else if sound != nil {
            throw WriteError(.inconsistentInput, "the sound's mdat is not where it was placed")
        }
        let moovSize = patch.pieces.first.map { Int($0.count) - ftyp.count } ?? 0
        notes.insert("ftyp '\(movie.majorBrand?.description ?? "none")' → 'mp42' (isom, mp42); moov (\(moovSize) bytes) first, \(Plural.count(data.count, "box", plural: "boxes")) of media copied after it with chunk offsets moved", at: 0)
        patch.notes = notes
        return patch
    }
}
