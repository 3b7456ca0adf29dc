extension Pairing {
    /// Standalone movies that are, byte for byte, the movie embedded in a motion photo of the
    /// same folder and name (`PXL_1.MP.jpg` beside `PXL_1.MP.mp4`: Google Takeout exports both)
    /// get `embeddedMovieOf`. Candidates share the motion photo's name key and the embedded
    /// range's size; `sameBytes(movie, range, motionPhoto)` confirms each by its bytes, so no
    /// claim rests on names or sizes alone.
    /// The names a motion photo and a copy of its movie are matched by: the name key, and the
    /// same without Google's `.MP` (`PXL_1.MP.jpg` and `PXL_1.mp4`). `relationKeys` holds these
    /// too, so a bounded check meets the pair in one group.
    static func embeddedMovieKeys(_ file: FileFacts) -> [String] {
        let key = nameKey(file)
        return key.hasSuffix(".mp") ? [key, String(key.dropLast(3))] : [key]
    }

    static func relateEmbeddedMovies(_ items: inout [CheckItem], sameBytes: (FileFacts, Range<Int64>, FileFacts) -> Bool) {
        var motionPhotos: [String: [(still: FileFacts, range: Range<Int64>)]] = [:]
        for item in items where item.kind == .motionPhoto {
            guard let still = item.still, let range = still.motionPhoto?.movieRange, !range.isEmpty, still.motionPhoto?.videoFound == true else { continue }
            for key in embeddedMovieKeys(still) { motionPhotos[key, default: []].append((still, range)) }
        }
        guard !motionPhotos.isEmpty else { return }
        for index in items.indices where items[index].still == nil {
            guard let movie = items[index].movie, movie.error == nil else { continue }
            let candidates = embeddedMovieKeys(movie).flatMap { motionPhotos[$0] ?? [] }
            if let match = candidates.first(where: { Int64($0.range.count) == movie.size && sameBytes(movie, $0.range, $0.still) }) {
                items[index].embeddedMovieOf = match.still.path
            }
        }
    }
}
