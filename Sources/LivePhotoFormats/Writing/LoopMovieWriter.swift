/// A movie shown `count` times over without re-encoding: every kept track's sample tables list
/// its samples `count` times (one sample a chunk, each pointing at the bytes the source stored
/// once), its edit list repeats the source's once a loop, durations grow to match. Apple's
/// timed-metadata tracks (`mebx`) and the Live Photo keys of `moov/meta` are dropped, so that
/// the result is a plain movie, not half of a Live Photo. With `count` 1 it is the movie alone.
///
/// `opening` rotates the loop to open on a video sample (a sync sample): the video track lists
/// that sample to its end, then the whole clip `count - 1` times, then its start up to it; the
/// other tracks are listed `count + 1` times and their edit lists cut at the same time. Every
/// decoded frame is one of the source's, shown for its own duration.
public enum LoopMovieWriter {
    /// What the writer made, for the plan and for reading the file back.
    public struct Made: Sendable {
        public var patch: FilePatch
        /// Per kept track (its ID in the output): the source samples (index) the output lists, in
        /// order; an index past the source's samples is a sample of silence (zero bytes).
        public var order: [UInt32: [Int]]
        /// Per kept track, the duration its last source sample is listed with when the edit
        /// list showed only part of it (the rest never plays).
        public var trimmedLast: [UInt32: UInt32] = [:]
        /// The output movie's duration in movie ticks, and the movie timescale.
        public var duration: UInt64
        public var timescale: UInt32
        public var seconds: Double { Double(duration) / Double(max(1, timescale)) }
    }

    /// The largest loop count, and the most samples a loop may list in all (PCM sound has one
    /// a sample frame: a minute of 44.1 kHz sound is 2.6 million).
    public static let maxCount = 1_000
    public static let maxSamples = 10_000_000
    /// The longest time a loop handles, in any track's ticks, and the largest timescale: their
    /// products (a time in another timescale) fit 64 bits, so no sum or product on them
    /// overflows. 2^40 ticks at 90 kHz is 139 days; the largest timescale is 4,194,304.
    public static let maxTicks: UInt64 = 1 << 40
    public static let maxTimescale: UInt64 = 1 << 22
    /// The most bytes of silence a loop stores (once).
    public static let maxSilenceBytes = 64 << 20

    /// `moov` keys that make a movie half of a Live Photo (a plain movie drops them).
    public static func isLivePhotoKey(_ key: String) -> Bool {
        key == LivePhotoKeys.contentIdentifier || key.hasPrefix("com.apple.quicktime.live-photo")
    }

    /// `dropSound`: sound tracks are left out too (`export --audio drop`). `container`: the
    /// `ftyp` written; a track MP4 does not carry is refused for `.mp4`.
    public static func loop(_ movie: Movie, source: ByteSource, count: Int, opening: Int? = nil, dropSound: Bool = false,
                            container: MovieContainer = .mov) throws -> Made {
        guard (1...maxCount).contains(count) else { throw WriteError(.inconsistentInput, "a loop count of \(count) (1 to \(maxCount))") }
        guard let moov = movie.boxes.first(where: { $0.type == "moov" }) else { throw WriteError(.missingStructure, "no moov box") }
        guard movie.timescale > 0, movie.duration > 0 else { throw WriteError(.missingStructure, "the movie header gives no duration") }
        let payload = try source.payload(of: moov, path: "moov")
        var children = try BoxIterator.all(payload).map { (box: $0.box, bytes: try MovieRewriter.raw($0.box, payload: $0.payload, header: payload)) }
        var notes: [String] = []
        let paths = MovieRewriter.childPaths(children)
        var tracks: [Int: Track] = [:]
        for index in children.indices where children[index].box.type == "trak" {
            guard let track = movie.tracks.first(where: { $0.path == paths[index] }) else { continue }
            if track.isTimedMetadata {
                notes.append("drop track \(track.id): Apple timed metadata (mebx: \(track.declaredKeys.map { $0.key }.joined(separator: ", ")))")
                continue
            }
            if dropSound && track.handler == "soun" {
                notes.append("drop track \(track.id) (sound\(track.sampleDescriptions.first.map { " \($0.format)" } ?? "")): --audio drop")
                continue
            }
            if track.sampleTable.timeToSample.allSatisfy({ $0.delta == 0 || $0.count == 0 }) {
                let format = track.sampleDescriptions.first.map { " \($0.format)" } ?? ""
                notes.append("drop track \(track.id) (\(track.handler)\(format)): its \(Plural.count(track.sampleTable.count, "sample")) last no time, so nothing of it plays or loops")
                continue
            }
            if let refusal = container.refusal(track) { throw WriteError(.inconsistentInput, refusal) }
            tracks[index] = track
        }
        guard let video = movie.tracks.first(where: { $0.isVideo && !$0.isTimedMetadata && $0.sampleTable.count > 0 }) else {
            throw WriteError(.missingStructure, "the movie has no video track with samples")
        }
        // The output counts time in the video's media ticks, so that a loop's edits show
        // exactly the video's samples (in the movie's coarser ticks they could overlap the next
        // loop's first frame by a fraction of a tick). A loop lasts what the video shows.
        let scale = max(1, video.mediaTimescale)
        func rescaled(_ edits: [Edit]?) throws -> [Edit]? {
            try edits.map { list in
                try list.map { edit in
                    let (product, overflow) = edit.segmentDuration.multipliedReportingOverflow(by: UInt64(scale))
                    guard !overflow else { throw WriteError(.fieldOverflow, "an edit of \(edit.segmentDuration) ticks overflows in the video's timescale") }
                    return Edit(segmentDuration: (product + UInt64(movie.timescale) / 2) / UInt64(movie.timescale), mediaTime: edit.mediaTime, rate: edit.rate)
                }
            }
        }
        let videoMedia = try video.sampleTable.timeToSample.reduce(UInt64(0)) { sum, entry in
            let (run, overflow) = UInt64(entry.count).multipliedReportingOverflow(by: UInt64(entry.delta))
            guard !overflow, run <= maxTicks, sum <= maxTicks else { throw WriteError(.fieldOverflow, "the video track lasts more than \(maxTicks) ticks") }
            return sum + run
        }
        let loopTicks = try rescaled(video.editList).map { edits in
            try edits.reduce(UInt64(0)) { sum, edit in
                guard edit.segmentDuration <= maxTicks, sum <= maxTicks else { throw WriteError(.fieldOverflow, "the video track's edit list shows more than \(maxTicks) ticks") }
                return sum + edit.segmentDuration
            }
        } ?? videoMedia
        guard loopTicks > 0, loopTicks <= maxTicks else { throw WriteError(.missingStructure, "the video track shows \(loopTicks) ticks (1 to \(maxTicks) loop)") }
        // Where the loop opens: a presentation time (video ticks) and the video sample there.
        var shiftTicks: UInt64 = 0
        var videoShift: UInt64 = 0
        if let opening, opening > 0 {
            let samples = try video.sampleTable.resolve(path: video.path)
            guard samples.indices.contains(opening), video.sampleTable.syncSamples.map({ $0.contains(UInt32(opening + 1)) }) ?? true else {
                throw WriteError(.inconsistentInput, "video sample \(opening + 1) is not a sync sample a loop can open on")
            }
            let edits = video.editList ?? []
            guard edits.count <= 1, edits.first.map({ !$0.isEmpty && $0.rate == 1 }) ?? true else {
                throw WriteError(.inconsistentInput, "the video track's edit list (\(edits.count) entries) is not one plain edit: the loop cannot open at the moment; use --start first")
            }
            let shown = samples[opening].presentationTime - (edits.first?.mediaTime ?? 0)
            guard shown > 0, UInt64(shown) < loopTicks else { throw WriteError(.inconsistentInput, "video sample \(opening + 1) is shown outside the loop") }
            shiftTicks = UInt64(shown)
            videoShift = samples[opening].decodeTime
        }
        let timeline = TrackLoop.Timeline(scale: scale, loopTicks: loopTicks, shiftTicks: shiftTicks, count: count)
        var order: [UInt32: [Int]] = [:]
        var listed = 0
        var silenceBytes = 0
        var trimmedLast: [UInt32: UInt32] = [:]
        for (index, track) in tracks.sorted(by: { $0.key < $1.key }) {
            let rotated = shiftTicks > 0 && track.path == video.path
            var timed = track
            timed.editList = try rescaled(track.editList)
            let plan = try TrackLoop(timed, timeline: timeline, rotatedAt: rotated ? opening : nil, decodeShift: rotated ? videoShift : 0, silenceOffset: UInt64(source.size))
            if plan.silence > 0 {
                silenceBytes = max(silenceBytes, plan.silence * Int(track.sampleTable.constantSampleSize))
                notes.append("track \(track.id): \(plan.silence) samples of silence (\(track.sampleDescriptions.first?.format.description ?? "PCM"), zero bytes stored once) end each loop, so that its sound lasts as long as the video")
            }
            listed += plan.order.count
            guard listed <= maxSamples else { throw WriteError(.fieldOverflow, "\(count) loops would list more than \(maxSamples) samples") }
            children[index].bytes = try plan.trak(children[index].bytes, headerSize: children[index].box.headerSize, path: track.path, notes: &notes)
            order[track.id] = plan.order
            if let trimmed = plan.trimmed {
                trimmedLast[track.id] = trimmed
                notes.append("track \(track.id): its last sample is listed for the \(trimmed) ticks the edit list shows of it, not its whole duration, so that each loop follows the last with no long frame between")
            }
        }
        let dropped = children.indices.filter { children[$0].box.type == "trak" && tracks[$0] == nil }
        children = children.indices.filter { !dropped.contains($0) }.map { children[$0] }
        // The Live Photo keys go: the movie is no longer half of a pair.
        if let meta = children.firstIndex(where: { $0.box.type == "meta" }) {
            let (bytes, removed) = try QuickTimeMeta.removing(children[meta].bytes, headerSize: children[meta].box.headerSize, where: isLivePhotoKey)
            if !removed.isEmpty {
                children[meta] = (Box(type: "meta", offset: 0, size: Int64(bytes.count), headerSize: 8), bytes)
                notes.append("drop \(removed.joined(separator: ", ")) from moov/meta: the movie is not half of a Live Photo")
            }
        }
        let (duration, overflow) = loopTicks.multipliedReportingOverflow(by: UInt64(count))
        guard !overflow else { throw WriteError(.fieldOverflow, "\(count) loops overflow the movie's duration") }
        for index in children.indices where children[index].box.type == "mvhd" {
            let header = children[index].box.headerSize
            var mvhd = try PresentationWindow.durationSet(children[index].bytes, headerSize: header, value: UInt64(scale), v0Offset: 12, v1Offset: 20, width: 4, path: "moov/mvhd")
            mvhd = try PresentationWindow.durationSet(mvhd, headerSize: header, value: duration, v0Offset: 16, v1Offset: 24, path: "moov/mvhd")
            children[index].bytes = mvhd
        }
        var patch = try relocated(children, movie: movie, source: source, silence: silenceBytes, container: container)
        notes.insert(count == 1 ? "the movie alone, every sample copied" : "the movie shown \(count) times: each sample stored once, listed \(count) times"
                     + (shiftTicks > 0 ? ", opening on video sample \(opening.map { $0 + 1 } ?? 1) (a sync sample) at \(SecondsText.format(Double(shiftTicks) / Double(scale))) s" : ""), at: 0)
        patch.notes = notes
        return Made(patch: patch, order: order, trimmedLast: trimmedLast, duration: duration, timescale: scale)
    }

    /// The container's `ftyp`, the new `moov`, then every media box of the source and the silence.
    static func relocated(_ children: [(box: Box, bytes: [UInt8])], movie: Movie, source: ByteSource, silence: Int, container: MovieContainer) throws -> FilePatch {
        let ftyp = container.ftyp
        let data = movie.boxes.filter { $0.type != "ftyp" && $0.type != "moov" && $0.type != "wide" && $0.type != "free" && $0.type != "skip" }
        return try MovieRewriter.placingMedia(after: ftyp, children: children, data: data, source: source, extra: silence)
    }
}

/// One track's loop: the source samples the output lists, in order, and its edit list.
struct TrackLoop {
    let track: Track
    let samples: [Sample]
    /// Source sample indices, in the output's order.
    let order: [Int]
    let edits: [Edit]
    /// The output's media duration (ticks of the track's timescale).
    let mediaDuration: UInt64

    /// The duration the source's last sample is listed with, when the edit list cut it short.
    let trimmed: UInt32?
    /// Silent samples appended to each loop of a PCM sound track (zero bytes, stored once
    /// past the source's end: `silenceOffset`), so that its loops last the video's.
    let silence: Int

    /// The output's time: its movie timescale, a loop's length and where the loop opens (in
    /// those ticks), and the number of loops.
    struct Timeline {
        var scale: UInt32
        var loopTicks: UInt64
        var shiftTicks: UInt64
        var count: Int
    }

    /// `track` with its edit list in the output's timescale.
    init(_ track: Track, timeline: Timeline, rotatedAt opening: Int?, decodeShift: UInt64, silenceOffset: UInt64) throws {
        let (count, shiftTicks, loopTicks) = (timeline.count, timeline.shiftTicks, timeline.loopTicks)
        self.track = track
        var samples = try track.sampleTable.resolve(path: track.path)
        guard let lastSample = samples.last else { throw WriteError(.missingStructure, "\(track.path) has no samples") }
        let movieScale = UInt64(max(1, timeline.scale)), mediaScale = UInt64(max(1, track.mediaTimescale))
        // Every time and timescale within bounds, so that the arithmetic below cannot overflow.
        let limit = LoopMovieWriter.maxTicks
        guard movieScale <= LoopMovieWriter.maxTimescale, mediaScale <= LoopMovieWriter.maxTimescale, samples.count <= LoopMovieWriter.maxSamples,
              (track.editList ?? []).allSatisfy({ $0.segmentDuration <= limit && $0.mediaTime >= -Int64(limit) && $0.mediaTime <= Int64(limit) }),
              samples.allSatisfy({ $0.decodeTime <= limit && $0.presentationTime >= -Int64(limit) && $0.presentationTime <= Int64(limit) }) else {
            throw WriteError(.fieldOverflow, "\(track.path): a time past \(limit) ticks, or a timescale over \(LoopMovieWriter.maxTimescale), which a loop does not handle")
        }
        // A last sample the edit list cuts short (a camera's long last video frame, shown only up
        // to the movie's end) lasts what is shown of it: a loop's frames then follow one another
        // with no long frame between loops, and the next loop starts where this one ends.
        var trimmed: UInt32?
        if let edits = track.editList, edits.count == 1, !edits[0].isEmpty, edits[0].rate == 1, edits[0].mediaTime >= 0,
           (edits[0].segmentDuration * mediaScale) % movieScale == 0, samples.allSatisfy({ $0.presentationTime == Int64($0.decodeTime) }) {
            let end = edits[0].mediaTime + Int64(edits[0].segmentDuration * mediaScale / movieScale)
            let lastStart = Int64(lastSample.decodeTime)
            if end > lastStart, end < lastStart + Int64(lastSample.duration) {
                trimmed = UInt32(end - lastStart)
                samples[samples.count - 1].duration = UInt32(end - lastStart)
            }
        }
        self.trimmed = trimmed
        let media = samples.reduce(UInt64(0)) { $0 + UInt64($1.duration) }
        guard media > 0, media <= limit else { throw WriteError(.missingStructure, "\(track.path) lasts \(media) ticks (1 to \(limit) loop)") }
        // Without an edit list, the media from its first shown frame: a movie whose frames are
        // reordered (B-frames) and that says nothing shows its first frame a composition offset
        // in, and a loop from media time 0 would cut that much off each loop's end.
        let first = max(0, samples.lazy.map(\.presentationTime).min() ?? 0)
        let source = track.editList ?? [Edit(segmentDuration: media * movieScale / mediaScale, mediaTime: first)]
        let shown = source.reduce(UInt64(0)) { $0 + $1.segmentDuration }
        // PCM sound shown whole from its start, for less than a loop: silence fills each loop.
        let plain = source.count == 1 && source[0].mediaTime == 0 && source[0].rate == 1 && shown * mediaScale / movieScale == media
        var silence = 0
        if opening == nil, track.handler == "soun", plain, shown < loopTicks, track.sampleTable.constantSampleSize > 0,
           let format = track.sampleDescriptions.first?.format, ISOMovieWriter.pcmFormats.contains(format), format != "raw ",
           track.sampleTable.timeToSample.allSatisfy({ $0.delta == 1 }) {
            silence = Int(((loopTicks - shown) * mediaScale + movieScale - 1) / movieScale)
            let size = UInt64(track.sampleTable.constantSampleSize)
            guard UInt64(silence) * size <= UInt64(LoopMovieWriter.maxSilenceBytes) else {
                throw WriteError(.fieldOverflow, "\(track.path): its sound is \(silence) samples shorter than a loop, more silence than the \(LoopMovieWriter.maxSilenceBytes) bytes a loop stores")
            }
            samples += (0..<silence).map { j in
                Sample(index: samples.count + j, offset: silenceOffset + UInt64(j) * size, size: UInt32(size), decodeTime: media + UInt64(j),
                       duration: 1, presentationTime: Int64(media) + Int64(j), descriptionIndex: lastSample.descriptionIndex)
            }
        }
        self.samples = samples
        self.silence = silence
        let perLoop = media + UInt64(silence)
        let all = Array(samples.indices)
        let repeats = shiftTicks > 0 ? count + 1 : count
        if let opening {
            order = Array(all[opening...]) + (0..<(count - 1)).flatMap { _ in all } + Array(all[..<opening])
        } else {
            order = (0..<repeats).flatMap { _ in all }
        }
        mediaDuration = perLoop * UInt64(opening != nil ? count : repeats)
        // Loop j's media lies j clips further on (less where the rotated video starts).
        func shifted(_ edits: [Edit], loop: Int) -> [Edit] {
            edits.map { edit in
                guard !edit.isEmpty else { return edit }
                let offset = Int64(perLoop) * Int64(loop) - Int64(decodeShift)
                return Edit(segmentDuration: edit.segmentDuration, mediaTime: edit.mediaTime + offset, rate: edit.rate)
            }
        }
        // Each loop lasts the movie's duration. A padded track shows its media and silence; any
        // other track shown for less gets an empty edit (which FFmpeg, unlike QuickTime, skips).
        func window(_ range: Range<UInt64>) -> [Edit] {
            guard silence > 0 else { return PresentationWindow.clipped(track, window: range, movieTimescale: timeline.scale, implicitStart: first) }
            return [Edit(segmentDuration: range.upperBound - range.lowerBound, mediaTime: Int64(range.lowerBound * mediaScale / movieScale))]
        }
        var edits: [Edit] = []
        func add(_ part: [Edit], lasting ticks: UInt64) {
            edits += part
            let total = part.reduce(UInt64(0)) { $0 + $1.segmentDuration }
            if total < ticks { edits.append(Edit(segmentDuration: ticks - total, mediaTime: -1)) }
        }
        if shiftTicks > 0 {
            add(shifted(window(shiftTicks..<loopTicks), loop: 0), lasting: loopTicks - shiftTicks)
            for loop in 1..<max(1, count) { add(shifted(window(0..<loopTicks), loop: loop), lasting: loopTicks) }
            add(shifted(window(0..<shiftTicks), loop: count), lasting: shiftTicks)
        } else {
            for loop in 0..<count { add(shifted(window(0..<loopTicks), loop: loop), lasting: loopTicks) }
        }
        while let last = edits.last, last.isEmpty, edits.count > 1 { edits.removeLast() }
        self.edits = Self.merged(edits, mediaScale: mediaScale, movieScale: movieScale)
    }

    /// Consecutive edits that continue one another (plain rate, the next starting in the media
    /// where the last ends) joined into one.
    static func merged(_ edits: [Edit], mediaScale: UInt64, movieScale: UInt64) -> [Edit] {
        var result: [Edit] = []
        for edit in edits {
            // A merged edit grows to all the loops: its product is checked.
            let (media, overflow) = (result.last?.segmentDuration ?? 0).multipliedReportingOverflow(by: mediaScale)
            if let last = result.last, !last.isEmpty, !edit.isEmpty, last.rate == 1, edit.rate == 1, !overflow,
               media % movieScale == 0, media / movieScale <= UInt64(Int64.max),
               last.mediaTime.addingReportingOverflow(Int64(media / movieScale)) == (edit.mediaTime, false) {
                result[result.count - 1].segmentDuration += edit.segmentDuration
            } else if let last = result.last, last.isEmpty, edit.isEmpty {
                result[result.count - 1].segmentDuration += edit.segmentDuration
            } else {
                result.append(edit)
            }
        }
        return result
    }

    /// The track's box with its edit list, durations and sample tables for the loop.
    func trak(_ bytes: [UInt8], headerSize: Int, path: String, notes: inout [String]) throws -> [UInt8] {
        var trak = try PresentationWindow.trak(bytes, headerSize: headerSize, edits: edits, path: path)
        trak = try replacingChild(of: trak, path: path, at: ["mdia"]) { mdia, mdiaPath in
            var mdia = try replacingChild(of: mdia, path: mdiaPath, at: ["mdhd"]) { mdhd, mdhdPath in
                try PresentationWindow.durationSet(mdhd, headerSize: 8, value: mediaDuration, v0Offset: 16, v1Offset: 24, path: mdhdPath)
            }
            mdia = try replacingChild(of: mdia, path: mdiaPath, at: ["minf"]) { minf, minfPath in
                try replacingChild(of: minf, path: minfPath, at: ["stbl"]) { stbl, stblPath in try sampleTable(stbl, path: stblPath, notes: &notes) }
            }
            return mdia
        }
        return trak
    }

    /// `container` (a whole box, 8-byte header) with its first child of a type in `types` replaced.
    func replacingChild(of container: [UInt8], path: String, at types: [FourCC], _ change: ([UInt8], String) throws -> [UInt8]) throws -> [UInt8] {
        guard container.count >= 8 else { throw WriteError(.missingStructure, "\(path) is empty") }
        let type = FourCC(container[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        var body: [UInt8] = []
        var done = false
        for (box, _) in try BoxIterator.all(ByteReader(Array(container[8...]), base: 0, path: path)) {
            guard box.offset >= 0, box.end <= Int64(container.count - 8) else { throw WriteError(.missingStructure, "\(path)/\(box.type) lies outside its parent") }
            let whole = Array(container[(8 + Int(box.offset))..<(8 + Int(box.end))])
            if !done, types.contains(box.type) {
                guard box.headerSize == 8 else { throw WriteError(.inconsistentInput, "\(path)/\(box.type) has a 64-bit size") }
                body += try change(whole, "\(path)/\(box.type)")
                done = true
            } else {
                body += whole
            }
        }
        guard done else { throw WriteError(.missingStructure, "\(path) has no \(types.map { $0.description }.joined(separator: " or "))") }
        return BoxWriter.box(type, body)
    }
}
