/// What to change in a movie. Everything else is written back byte for byte.
public struct MovieEdits: Sendable {
    /// Set `com.apple.quicktime.content.identifier` in `moov/meta` (added if absent).
    public var contentIdentifier: String?
    /// Replace every still-image-time track with one placing the still at this moment.
    public var stillImageTime: StillImagePlacement?
    /// Make the major brand QuickTime (`qt  `), keeping `ftyp`'s size.
    public var quickTimeBrand = false
    /// Write this capture date: the `creationdate` key and the movie, track and media header
    /// times (`repair --align-dates`).
    public var captureDate: CaptureDateEdit?
    /// Add the keys iOS 17 cameras write for the lock screen (`live-photo.auto` 1,
    /// `live-photo.vitality-score` 1.0) where the movie has none of its own.
    public var wallpaperKeys = false
    /// Show only this window of the movie (every track's edit list clipped, samples kept); the
    /// still-image-time placement is then in the window's time.
    public var window: PresentationWindow?
    /// The still is the movie's own frame at the moment (make CLIP, keyphoto): the old
    /// still-image-time track's other keys (the still-image transform from the camera's still to
    /// its frame) are not carried to the new track.
    public var stillIsFrame = false

    public init(contentIdentifier: String? = nil, stillImageTime: StillImagePlacement? = nil, quickTimeBrand: Bool = false, captureDate: CaptureDateEdit? = nil) {
        self.contentIdentifier = contentIdentifier
        self.stillImageTime = stillImageTime
        self.quickTimeBrand = quickTimeBrand
        self.captureDate = captureDate
    }

    public var isEmpty: Bool { contentIdentifier == nil && stillImageTime == nil && !quickTimeBrand && captureDate == nil && !wallpaperKeys && window == nil }
}

/// Where the still sits, and the value to store.
public struct StillImagePlacement: Sendable, Equatable {
    /// The moment in movie time, in seconds.
    public var seconds: Double
    /// -1 as cameras write.
    public var value: Int8

    public init(seconds: Double, value: Int8 = -1) {
        self.seconds = seconds
        self.value = value
    }
}

/// Rewrites a movie's metadata without touching media data: a new `moov` (in place when it can
/// keep its size by using its own `free` space, else moved to the end), a small `mdat` for the
/// new timed-metadata sample, chunk offsets of existing tracks unchanged.
public enum MovieRewriter {
    public static func rewrite(_ movie: Movie, source: ByteSource, edits: MovieEdits, shiftLimit: Int64 = MovieRewriter.shiftLimit) throws -> FilePatch {
        guard let moovIndex = movie.boxes.firstIndex(where: { $0.type == "moov" }) else { throw WriteError(.missingStructure, "no moov box") }
        let moov = movie.boxes[moovIndex]
        let payload = try source.payload(of: moov, path: "moov")
        var children = try BoxIterator.all(payload).map { (box: $0.box, bytes: try raw($0.box, payload: $0.payload, header: payload)) }
        var notes: [String] = []
        notes += try defragmenting(&children, movie: movie)

        // A window: every track's edit list clipped to it, the durations what it shows.
        var movieDuration = movie.duration
        if let window = edits.window { movieDuration = try window.apply(to: &children, movie: movie, notes: &notes) }

        // Tracks: drop old still-image-time tracks, add the new one after the last track.
        var newTrack: (build: (UInt64, Bool) -> [UInt8], id: UInt32)?
        var reused: ReusedTrack?
        var losses: [String] = []
        if let placement = edits.stillImageTime {
            let removed = Set(movie.stillImageTimeTracks.map(\.path))
            if let old = movie.stillImageTimeTracks.first, edits.stillIsFrame {
                let others = old.declaredKeys.map(\.key).filter { $0 != LivePhotoKeys.stillImageTime }
                if !others.isEmpty {
                    notes.append("track \(old.id)'s keys \(others.joined(separator: ", ")) are not carried over: they relate the camera's still to its frame, and the new still is the frame")
                }
            } else if let old = movie.stillImageTimeTracks.first {
                let trakBytes = childPaths(children).firstIndex(of: old.path).map { children[$0].bytes }
                switch ReusedTrack.from(old, trakBytes: trakBytes, source: source, value: placement.value) {
                case .success(let track):
                    reused = track
                    if track.keys.count > 1 { notes.append("the new track keeps track \(old.id)'s sample entry and sample: every key (\(track.keys.joined(separator: ", "))) and value, the still-image-time value set to \(placement.value)") }
                case .failure(let why):
                    let others = old.declaredKeys.map(\.key).filter { $0 != LivePhotoKeys.stillImageTime }
                    if !others.isEmpty {
                        losses.append("track \(old.id)'s keys \(others.joined(separator: ", ")) and their values are not carried over (\(why))")
                    }
                }
            }
            if !removed.isEmpty {
                let paths = childPaths(children)
                children = children.indices.filter { !removed.contains(paths[$0]) }.map { children[$0] }
                notes.append("remove the old still-image-time \(Plural.noun(movie.stillImageTimeTracks.count, "track")): \(movie.stillImageTimeTracks.map { "track \($0.id)" }.joined(separator: ", "))")
            }
            guard let video = movie.primaryVideoTrack else { throw WriteError(.missingStructure, "the movie has no video track to place the still on") }
            guard movie.timescale > 0 else { throw WriteError(.missingStructure, "the movie header has no timescale") }
            let highest = movie.tracks.map(\.id).max() ?? 0
            guard highest < UInt32.max - 1 else { throw WriteError(.fieldOverflow, "track ID \(highest) leaves no room for a new track") }
            let trackID = highest + 1
            let moment = UInt64(max(0, (placement.seconds * Double(movie.timescale)).rounded()))
            let spec = StillImageTimeTrackBuilder(
                trackID: trackID, videoTrackID: video.id, timescale: movie.timescale, movieDuration: movieDuration,
                momentTicks: moment, value: placement.value, sampleEntry: reused?.entry, sample: reused?.sample)
            newTrack = ({ offset, wide in spec.build(sampleOffset: offset, co64: wide) }, trackID)
            notes.append("add still-image-time track \(trackID): value \(placement.value), one tick at \(SecondsText.format(Double(moment) / Double(movie.timescale))) s after an empty edit, cdsc → track \(video.id)")
            // mvhd's next_track_ID must pass the new track.
            if let index = children.firstIndex(where: { $0.box.type == "mvhd" }) {
                var bytes = children[index].bytes
                let field = bytes.count - 4
                let next = bytes[field...].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                if next <= trackID { bytes.replaceSubrange(field..<bytes.count, with: BoxWriter.u32(trackID + 1)) }
                children[index].bytes = bytes
            }
        }

        if let identifier = edits.contentIdentifier {
            try setKey(LivePhotoKeys.contentIdentifier, to: identifier, in: &children)
            notes.append("set \(LivePhotoKeys.contentIdentifier) = \(identifier) in moov/meta")
        }
        if edits.wallpaperKeys { notes += try addWallpaperKeys(movie, to: &children) }
        if let date = edits.captureDate {
            try setKey(LivePhotoKeys.creationDate, to: date.keyText, in: &children)
            let headers = try settingHeaderTimes(&children, seconds: date.quickTimeSeconds)
            notes.append("set \(LivePhotoKeys.creationDate) = \(date.keyText) in moov/meta, and the creation and modification times of \(headers) (\(date.quickTimeSeconds) s since 1904 UTC)")
        }

        // Size the new moov; the new track's sample goes into an mdat placed by the layout.
        let sample = edits.stillImageTime.map { reused?.sample ?? BoxWriter.u32(9) + BoxWriter.u32(1) + [UInt8(bitPattern: $0.value)] }
        var layout = MoovLayout(movie: movie, source: source, moovIndex: moovIndex, children: children, newTrack: newTrack, sample: sample)
        let placement = layout.placement(shiftLimit: shiftLimit)
        var patch: FilePatch
        switch placement {
        case .inPlace: patch = layout.inPlace()
        case .atItsPlace: patch = layout.atItsPlace()
        case .grownInPlace: patch = try layout.grownInPlace()
        case .freedAndAppended: patch = try layout.freedAndAppended()
        }
        notes += patch.notes
        patch = freeingFragments(patch, movie: movie)
        patch = try branded(patch, movie: movie, source: source, edits: edits, notes: &notes)
        patch.notes = notes
        patch.losses = losses
        return patch
    }

    /// Where the new `moov` goes. Each case is one function of `MoovLayout` returning the patch.
    public enum MoovPlacement: String, Sendable {
        /// The new moov fits the old one's size (its own free/skip space absorbs the change).
        case inPlace = "in-place"
        /// moov is the last box (but free space): cut off, sample and moov appended where it was.
        case atItsPlace = "at-its-place"
        /// moov precedes a small mdat: it grows where it is and the chunk offsets after it shift.
        case grownInPlace = "grown-in-place"
        /// moov precedes a large mdat: it becomes free space and a new one is appended, so no
        /// chunk offset moves and no media byte is rewritten.
        case freedAndAppended = "freed-and-appended"
    }

    /// The edited children of `moov`, the new track and its sample, and the four ways to lay them out.
    struct MoovLayout {
        let movie: Movie
        let source: ByteSource
        let moov: Box
        let moovIndex: Int
        var children: [(box: Box, bytes: [UInt8])]
        let newTrack: (build: (UInt64, Bool) -> [UInt8], id: UInt32)?
        let sample: [UInt8]?
        /// Free-space adjusted children when the new moov fits the old size.
        var fitted: [(box: Box, bytes: [UInt8])]?
        var adjustedFree = false

        init(movie: Movie, source: ByteSource, moovIndex: Int, children: [(box: Box, bytes: [UInt8])],
             newTrack: (build: (UInt64, Bool) -> [UInt8], id: UInt32)?, sample: [UInt8]?) {
            self.movie = movie
            self.source = source
            self.moovIndex = moovIndex
            moov = movie.boxes[moovIndex]
            self.children = children
            self.newTrack = newTrack
            self.sample = sample
        }

        var oldSize: Int { Int(moov.size) }
        var wide: Bool { source.size + 64 > Int64(UInt32.max) }

        /// The moov body with the new track after the last track, its sample at `sampleOffset`.
        func assemble(_ children: [(box: Box, bytes: [UInt8])], sampleOffset: UInt64) -> [UInt8] {
            var parts = children.map(\.bytes)
            if let newTrack {
                let lastTrack = children.lastIndex { $0.box.type == "trak" } ?? (children.firstIndex { $0.box.type == "mvhd" } ?? -1)
                parts.insert(newTrack.build(sampleOffset, wide), at: lastTrack + 1)
            }
            return parts.flatMap { $0 }
        }

        mutating func placement(shiftLimit: Int64) -> MoovPlacement {
            let target = oldSize - moov.headerSize
            let sampleAtEnd = UInt64(source.size) + 8
            let size = assemble(children, sampleOffset: sampleAtEnd).count
            if let adjusted = MovieRewriter.fitted(bodySize: size, children: children, target: target),
               assemble(adjusted, sampleOffset: sampleAtEnd).count == target {
                fitted = adjusted
                adjustedFree = size != target
                return .inPlace
            }
            if movie.boxes[(moovIndex + 1)...].allSatisfy({ ["free", "skip"].contains($0.type) }) { return .atItsPlace }
            if source.size - moov.end <= shiftLimit, moov.headerSize == 8 { return .grownInPlace }
            return .freedAndAppended
        }

        func inPlace() -> FilePatch {
            var patch = FilePatch()
            patch.copy(0..<moov.offset)
            patch.append(MovieRewriter.moovHeader(size: oldSize, headerSize: moov.headerSize) + assemble(fitted ?? children, sampleOffset: UInt64(source.size) + 8))
            patch.copy(moov.end..<source.size)
            if let sample { patch.append(BoxWriter.box("mdat", sample)) }
            let how = adjustedFree ? "its own free space absorbs the change" : "same size"
            patch.notes = ["moov rewritten in place (\(oldSize) bytes, \(how))" + (sample.map { "; the \($0.count)-byte sample goes into a new mdat at the end" } ?? "")]
            return patch
        }

        func atItsPlace() -> FilePatch {
            var patch = FilePatch()
            patch.copy(0..<moov.offset)
            if let sample { patch.append(BoxWriter.box("mdat", sample)) }
            let body = assemble(children, sampleOffset: UInt64(moov.offset) + 8)
            patch.append(MovieRewriter.moovHeader(size: body.count + 8, headerSize: 8) + body)
            patch.notes = ["moov follows mdat: rewritten at its place (\(oldSize) → \(body.count + 8) bytes)"]
            return patch
        }

        func grownInPlace() throws -> FilePatch {
            // Every chunk offset past moov moves by the growth; stco entries that no longer fit
            // become co64, which changes the growth: iterate until it settles.
            var delta = Int64(assemble(children, sampleOffset: 0).count + 8 - oldSize)
            var body: [UInt8] = []
            for _ in 0..<4 {
                let shifted = try children.map { child in
                    child.box.type == "trak" ? (child.box, try MovieRewriter.shiftingChunkOffsets(child.bytes, by: delta, from: UInt64(moov.end))) : child
                }
                body = assemble(shifted, sampleOffset: UInt64(source.size + delta) + 8)
                let measured = Int64(body.count + 8 - oldSize)
                if measured == delta { break }
                delta = measured
            }
            guard Int64(body.count + 8 - oldSize) == delta else { throw WriteError(.inconsistentInput, "chunk offsets did not settle while shifting") }
            var patch = FilePatch()
            patch.copy(0..<moov.offset)
            patch.append(MovieRewriter.moovHeader(size: body.count + 8, headerSize: 8) + body)
            patch.copy(moov.end..<source.size)
            if let sample { patch.append(BoxWriter.box("mdat", sample)) }
            patch.notes = ["moov precedes mdat: moov grows in place (\(oldSize) → \(body.count + 8) bytes) and every chunk offset after it shifts by \(delta) (the \(source.size - moov.end) bytes of media after it are small enough to move)"]
            return patch
        }

        func freedAndAppended() throws -> FilePatch {
            guard moov.headerSize == 8 else { throw WriteError(.unsupportedLayout, "a 64-bit moov before mdat is not supported") }
            var patch = FilePatch()
            patch.copy(0..<moov.offset)
            patch.append(BoxWriter.u32(UInt32(clamping: moov.size)) + FourCC("free").bytes)
            patch.copy((moov.offset + 8)..<source.size)
            if let sample { patch.append(BoxWriter.box("mdat", sample)) }
            let body = assemble(children, sampleOffset: UInt64(source.size) + 8)
            patch.append(MovieRewriter.moovHeader(size: body.count + 8, headerSize: 8) + body)
            patch.notes = ["moov precedes mdat: the old moov (\(oldSize) bytes) becomes free space and the new one (\(body.count + 8) bytes) is appended; no chunk offset moves (cheaper than moving \(source.size - moov.end) bytes of media)"]
            return patch
        }
    }

    /// Media after a leading moov up to this size is moved (offsets shifted, file stays compact
    /// and streamable); above it the old moov is freed and a new one appended.
    public static let shiftLimit: Int64 = 8 << 20

    static func moovHeader(size: Int, headerSize: Int) -> [UInt8] {
        headerSize == 16 ? BoxWriter.u32(1) + FourCC("moov").bytes + BoxWriter.u64(UInt64(size)) : BoxWriter.u32(UInt32(size)) + FourCC("moov").bytes
    }

    /// The whole box bytes of a child.
    static func raw(_ box: Box, payload: ByteReader, header parent: ByteReader) throws -> [UInt8] {
        let start = Int(box.offset - parent.base)
        return Array(parent.bytes[start..<(start + Int(box.size))])
    }

    /// Resizes moov's own free/skip children so that the assembled body becomes exactly
    /// `target` bytes (removing or shrinking them to absorb growth, adding one to pad). Returns the
    /// adjusted children, or nil when no adjustment can reach the target.
    static func fitted(bodySize: Int, children: [(box: Box, bytes: [UInt8])], target: Int) -> [(box: Box, bytes: [UInt8])]? {
        var difference = target - bodySize
        if difference == 0 { return children }
        let isFree: ((box: Box, bytes: [UInt8])) -> Bool = { ["free", "skip"].contains($0.box.type) }
        var adjusted = children
        if difference < 0 {
            var need = -difference
            for index in adjusted.indices.reversed() where need > 0 && isFree(adjusted[index]) {
                let size = adjusted[index].bytes.count
                if size - need >= 8 {
                    adjusted[index].bytes = BoxWriter.free(size: size - need)
                    need = 0
                } else {
                    need -= size
                    adjusted[index].bytes = []
                }
            }
            guard need <= 0 else { return nil }
            difference = -need
        }
        if difference != 0 {
            guard difference >= 8 else { return nil }
            adjusted.append((Box(type: "free", offset: 0, size: Int64(difference), headerSize: 8), BoxWriter.free(size: difference)))
        }
        return adjusted.filter { !$0.bytes.isEmpty }
    }

    /// Sets the major brand to QuickTime without changing ftyp's size.
    static func branded(_ patch: FilePatch, movie: Movie, source: ByteSource, edits: MovieEdits, notes: inout [String]) throws -> FilePatch {
        guard edits.quickTimeBrand, movie.majorBrand != nil, movie.majorBrand != "qt  ",
              let ftyp = movie.boxes.first(where: { $0.type == "ftyp" }), ftyp.offset == 0, ftyp.headerSize == 8 else { return patch }
        let count = Int(ftyp.payloadSize)
        guard count >= 8 else { return patch }
        var payload = FourCC("qt  ").bytes + BoxWriter.u32(0x2005_0300)
        let compatible = (count - 8) / 4
        for _ in 0..<compatible { payload += FourCC("qt  ").bytes }
        payload += [UInt8](repeating: 0, count: count - payload.count)
        notes.append("major brand '\(movie.majorBrand?.description ?? "")' → 'qt  ' (ftyp keeps its \(ftyp.size) bytes)")
        var result = FilePatch()
        var remaining = patch.pieces
        // The ftyp payload is within the first copied piece.
        if case .copy(let first)? = remaining.first, first.lowerBound == 0, first.upperBound >= ftyp.end {
            remaining.removeFirst()
            result.copy(0..<ftyp.payloadOffset)
            result.append(payload)
            result.copy(ftyp.end..<first.upperBound)
            result.append(FilePatch(pieces: remaining))
            return result
        }
        return patch
    }

}
