/// Shows only a window of a movie, keeping every sample: each track's edit list is clipped to
/// the window (its empty edits and media edits cut where the window cuts them, shifted to start
/// at 0), `tkhd` and `mvhd` durations set to what is shown. Players decode from the sync sample
/// before the window's first frame, as they do for any edit list; nothing is re-encoded.
public struct PresentationWindow: Sendable, Equatable {
    /// In movie seconds.
    public var start: Double
    public var duration: Double

    public init(start: Double, duration: Double) { (self.start, self.duration) = (start, duration) }

    /// A track's edit list clipped to `window` (movie ticks): the track's own edits, or the
    /// implicit one (its media from `implicitStart`, 0 unless told, for its duration); an empty
    /// edit of the whole window when nothing of the track shows in it.
    static func clipped(_ track: Track, window: Range<UInt64>, movieTimescale: UInt32, implicitStart: Int64 = 0) -> [Edit] {
        let mediaScale = UInt64(max(1, track.mediaTimescale)), movieScale = UInt64(max(1, movieTimescale))
        let edits = track.editList ?? [Edit(segmentDuration: track.mediaDuration.multipliedReportingOverflow(by: movieScale).partialValue / mediaScale, mediaTime: implicitStart)]
        var result: [Edit] = []
        var position: UInt64 = 0
        for edit in edits {
            let (end, overflow) = position.addingReportingOverflow(edit.segmentDuration)
            guard !overflow else { break }
            let low = max(position, window.lowerBound), high = min(end, window.upperBound)
            if low < high {
                if edit.isEmpty {
                    result.append(Edit(segmentDuration: high - low, mediaTime: -1))
                } else {
                    let rate = edit.rate == 0 ? 1 : edit.rate
                    let skipped = Double(low - position) * Double(mediaScale) / Double(movieScale) * rate
                    result.append(Edit(segmentDuration: high - low, mediaTime: edit.mediaTime + Int64(skipped.rounded(.down)), rate: edit.rate))
                }
            }
            position = end
        }
        if result.isEmpty { result = [Edit(segmentDuration: window.upperBound - window.lowerBound, mediaTime: -1)] }
        return result
    }

    /// An `edts` holding `edits` (version 1 `elst` when a value needs 64 bits).
    static func editBox(_ edits: [Edit]) -> [UInt8] {
        let wide = edits.contains { $0.segmentDuration > UInt64(UInt32.max) || $0.mediaTime > Int64(Int32.max) || $0.mediaTime < Int64(Int32.min) }
        var payload = BoxWriter.u32(UInt32(edits.count))
        for edit in edits {
            let rate = Int32((edit.rate * 65_536).rounded())
            payload += wide ? BoxWriter.u64(edit.segmentDuration) + BoxWriter.u64(UInt64(bitPattern: edit.mediaTime))
                            : BoxWriter.u32(UInt32(edit.segmentDuration)) + BoxWriter.i32(Int32(edit.mediaTime))
            payload += BoxWriter.i32(rate)
        }
        return BoxWriter.box("edts", BoxWriter.fullBox("elst", version: wide ? 1 : 0, payload))
    }

    /// A whole `trak`'s bytes with its `edts` replaced by `edits` (placed after `tkhd`) and its
    /// `tkhd` duration set to what they show.
    static func trak(_ bytes: [UInt8], headerSize: Int, edits: [Edit], path: String) throws -> [UInt8] {
        var reader = ByteReader(bytes, base: 0, path: path)
        try reader.skip(headerSize)
        var body: [UInt8] = []
        let shown = edits.reduce(UInt64(0)) { $0 + $1.segmentDuration }
        var placed = false
        for (box, _) in try BoxIterator.all(try reader.rest(path: path)) {
            guard box.offset >= 0, box.end <= Int64(bytes.count) else { throw WriteError(.missingStructure, "\(path)/\(box.type) lies outside its track") }
            let whole = Array(bytes[Int(box.offset)..<Int(box.end)])
            switch box.type {
            case "edts":
                continue
            case "tkhd":
                body += try durationSet(whole, headerSize: box.headerSize, value: shown, v0Offset: 20, v1Offset: 28, path: path + "/tkhd")
                body += editBox(edits)
                placed = true
            default:
                body += whole
            }
        }
        guard placed else { throw WriteError(.missingStructure, "\(path) has no tkhd") }
        return BoxWriter.box("trak", body)
    }

    /// A header box (`tkhd`, `mvhd`) with its duration field set; the field keeps its width.
    static func durationSet(_ box: [UInt8], headerSize: Int, value: UInt64, v0Offset: Int, v1Offset: Int, width: Int? = nil, path: String) throws -> [UInt8] {
        guard box.count > headerSize else { throw WriteError(.missingStructure, "\(path) is empty") }
        if let width {
            // A field of one width in both versions (a timescale).
            let at = headerSize + (box[headerSize] == 1 ? v1Offset : v0Offset)
            guard width == 4, box.count >= at + 4, value <= UInt64(UInt32.max) else { throw WriteError(.fieldOverflow, "\(path) cannot hold \(value) at its field") }
            var result = box
            result.replaceSubrange(at..<(at + 4), with: BoxWriter.u32(UInt32(value)))
            return result
        }
        let wide = box[headerSize] == 1
        let at = headerSize + (wide ? v1Offset : v0Offset)
        guard box.count >= at + (wide ? 8 : 4) else { throw WriteError(.missingStructure, "\(path) is too short for its duration") }
        guard wide || value <= UInt64(UInt32.max) else { throw WriteError(.fieldOverflow, "\(path) (version 0) cannot hold a duration of \(value)") }
        var result = box
        result.replaceSubrange(at..<(at + (wide ? 8 : 4)), with: wide ? BoxWriter.u64(value) : BoxWriter.u32(UInt32(value)))
        return result
    }

    /// `moov`'s children with every track's edit list clipped to the window and `mvhd`'s
    /// duration set; returns the movie's new duration (ticks) and says what it did in `notes`.
    func apply(to children: inout [(box: Box, bytes: [UInt8])], movie: Movie, notes: inout [String]) throws -> UInt64 {
        guard movie.timescale > 0 else { throw WriteError(.missingStructure, "the movie header has no timescale") }
        let scale = Double(movie.timescale)
        let first = UInt64(max(0, (start * scale).rounded())), length = UInt64(max(1, (duration * scale).rounded()))
        let range = min(first, movie.duration)..<min(first.addingReportingOverflow(length).partialValue, movie.duration)
        guard !range.isEmpty else { throw WriteError(.inconsistentInput, "the window \(start) s + \(duration) s shows nothing of a \(movie.duration) tick movie") }
        let paths = MovieRewriter.childPaths(children)
        for index in children.indices where children[index].box.type == "trak" {
            guard let track = movie.tracks.first(where: { $0.path == paths[index] }) else { continue }
            let clipped = Self.clipped(track, window: range, movieTimescale: movie.timescale)
            children[index].bytes = try Self.trak(children[index].bytes, headerSize: children[index].box.headerSize, edits: clipped, path: paths[index])
        }
        let shown = range.upperBound - range.lowerBound
        if let index = children.firstIndex(where: { $0.box.type == "mvhd" }) {
            children[index].bytes = try Self.durationSet(children[index].bytes, headerSize: children[index].box.headerSize, value: shown, v0Offset: 16, v1Offset: 24, path: "moov/mvhd")
        }
        notes.append("show \(SecondsText.format(Double(shown) / scale)) s of the movie from \(SecondsText.format(Double(range.lowerBound) / scale)) s: every track's edit list clipped to that window, its samples kept")
        return shown
    }
}
