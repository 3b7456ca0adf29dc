extension MovieParser {
    /// Reads `mvex` and every `moof` among `boxes` (the top level) into the tracks' sample
    /// tables. Counts are the file's: runs are held to the bytes that list them, all samples
    /// together to `Limits.maxResolvedSamples`, and a run's data to the file.
    mutating func readFragments(_ mvex: ByteReader, boxes: [Box], into movie: inout Movie) throws {
        var defaults: [UInt32: TrackExtends] = [:]
        var fragmentDuration: UInt64?
        for (box, child) in try BoxIterator.all(mvex) {
            var reader = child
            switch box.type {
            case "trex":
                try reader.skip(4)
                let id = try reader.u32()
                defaults[id] = TrackExtends(descriptionIndex: try reader.u32(), duration: try reader.u32(), size: try reader.u32(), flags: try reader.u32())
            case "mehd":
                let version = try reader.u8()
                try reader.skip(3)
                fragmentDuration = version == 1 ? try reader.u64() : UInt64(try reader.u32())
            default:
                break
            }
        }
        var state = FragmentState(tracks: movie.tracks, defaults: defaults, fileSize: source.size)
        var summary = MovieFragments(count: 0, runs: 0, fragmentDuration: fragmentDuration, headerDuration: movie.duration,
                                     randomAccess: boxes.contains { $0.type == "mfra" })
        for moof in boxes where moof.type == "moof" {
            let path = "moof[\(summary.count + 1)]"
            guard moof.end <= source.size else {
                warnings.append(ParseError(.truncated, "the last movie fragment runs past the end of the file: its samples are not read", offset: moof.offset, path: path))
                break
            }
            let payload = try source.payload(of: moof, path: path)
            summary.count += 1
            var previousEnd: UInt64?
            for (box, traf) in try BoxIterator.all(payload) where box.type == "traf" {
                summary.runs += try state.trackFragment(traf, moof: moof, previousEnd: &previousEnd)
            }
        }
        warnings += state.problems
        for index in movie.tracks.indices {
            let appender = state.appenders[index]
            movie.tracks[index].sampleTable = appender.table
            if movie.tracks[index].mediaDuration == 0 { movie.tracks[index].mediaDuration = appender.decodeEnd }
            let media = UInt64(movie.tracks[index].mediaTimescale)
            if movie.tracks[index].duration == 0, media > 0, movie.timescale > 0 {
                let (product, overflow) = appender.decodeEnd.multipliedReportingOverflow(by: UInt64(movie.timescale))
                if !overflow { movie.tracks[index].duration = product / media }
            }
        }
        if movie.duration == 0 { movie.duration = fragmentDuration ?? movie.tracks.map(\.duration).max() ?? 0 }
        movie.fragments = summary
    }
}

/// What reading the fragments keeps between track fragments.
struct FragmentState {
    var appenders: [FragmentAppender]
    let trackIndex: [UInt32: Int]
    let defaults: [UInt32: TrackExtends]
    let fileSize: Int64
    var samples: UInt64
    var problems: [ParseError] = []
    /// Tracks already warned about (one warning of each kind per track).
    var warned: Set<String> = []

    init(tracks: [Track], defaults: [UInt32: TrackExtends], fileSize: Int64) {
        appenders = tracks.map { FragmentAppender($0.sampleTable) }
        var index: [UInt32: Int] = [:]
        for (position, track) in tracks.enumerated() where index[track.id] == nil { index[track.id] = position }
        trackIndex = index
        self.defaults = defaults
        self.fileSize = fileSize
        samples = tracks.reduce(0) { $0 + UInt64($1.sampleTable.sampleCount) }
    }

    mutating func warn(_ kind: String, track: UInt32, _ problem: @autoclosure () -> ParseError) {
        if warned.insert("\(kind) \(track)").inserted { problems.append(problem()) }
    }

    /// One `traf`: its header, decode time and runs. Returns the runs read.
    mutating func trackFragment(_ traf: ByteReader, moof: Box, previousEnd: inout UInt64?) throws -> Int {
        var header: ByteReader?
        var decodeTime: UInt64?
        var runs: [ByteReader] = []
        for (box, child) in try BoxIterator.all(traf) {
            switch box.type {
            case "tfhd": header = child
            case "trun": runs.append(child)
            case "tfdt":
                var reader = child
                let version = try reader.u8()
                try reader.skip(3)
                decodeTime = version == 1 ? try reader.u64() : UInt64(try reader.u32())
            default: break
            }
        }
        guard var tfhd = header else { throw traf.error(.invalidValue, "a track fragment without its header (tfhd)") }
        let flags = try tfhd.u32() & 0x00FF_FFFF
        let id = try tfhd.u32()
        let explicitBase: UInt64? = flags & 0x01 != 0 ? try tfhd.u64() : nil
        let trex = defaults[id] ?? TrackExtends()
        let descriptionIndex = flags & 0x02 != 0 ? try tfhd.u32() : trex.descriptionIndex
        let duration = flags & 0x08 != 0 ? try tfhd.u32() : trex.duration
        let size = flags & 0x10 != 0 ? try tfhd.u32() : trex.size
        let sampleFlags = flags & 0x20 != 0 ? try tfhd.u32() : trex.flags
        guard let index = trackIndex[id] else {
            warn("unknown", track: id, tfhd.error(.inconsistent, "a fragment lists samples of track \(id), which moov has no track for: they are not read"))
            return 0
        }
        if defaults[id] == nil {
            warn("trex", track: id, tfhd.error(.invalidValue, "mvex has no defaults (trex) for track \(id): where the fragments are silent, zero"))
        }
        if let decodeTime, decodeTime != appenders[index].decodeEnd {
            let end = appenders[index].decodeEnd
            if !appenders[index].stretchLast(to: decodeTime) {
                warn("tfdt", track: id, traf.error(.inconsistent, "track \(id)'s fragment says it starts at decode time \(decodeTime), its samples so far end at \(end): read as following them"))
            }
        }
        // §8.8.7.1: an explicit base; else the moof; else, after the first, where the previous
        // track fragment's data ended.
        let base = explicitBase ?? (flags & 0x02_0000 != 0 ? UInt64(moof.offset) : previousEnd ?? UInt64(moof.offset))
        // A run without a data offset follows the previous run's data.
        var next = base
        for var trun in runs {
            let runFlags = try trun.u32() & 0x00FF_FFFF
            let count = try trun.u32()
            let dataOffset: Int32? = runFlags & 0x01 != 0 ? try trun.i32() : nil
            let firstFlags: UInt32? = runFlags & 0x04 != 0 ? try trun.u32() : nil
            let fields = [0x100, 0x200, 0x400, 0x800].filter { runFlags & UInt32($0) != 0 }.count
            guard fields == 0 || UInt64(count) * UInt64(fields * 4) <= UInt64(trun.remaining) else {
                throw trun.error(.invalidSize, "trun lists \(count) samples in \(trun.remaining) bytes")
            }
            samples += UInt64(count)
            guard samples <= UInt64(Limits.maxResolvedSamples) else {
                throw trun.error(.limitExceeded, "the fragments list more than \(Limits.maxResolvedSamples) samples")
            }
            var start = next
            if let dataOffset {
                let (moved, overflow) = Int64(clamping: base).addingReportingOverflow(Int64(dataOffset))
                guard !overflow, moved >= 0 else { throw trun.error(.outsideFile, "trun's data offset \(dataOffset) points before the file") }
                start = UInt64(moved)
            }
            var bytes: UInt64 = 0
            for sample in 0..<count {
                let thisDuration = runFlags & 0x100 != 0 ? try trun.u32() : duration
                let thisSize = runFlags & 0x200 != 0 ? try trun.u32() : size
                var thisFlags = runFlags & 0x400 != 0 ? try trun.u32() : sampleFlags
                if sample == 0, let firstFlags { thisFlags = firstFlags }
                let offset = runFlags & 0x800 != 0 ? Int32(truncatingIfNeeded: try trun.u32()) : 0
                appenders[index].append(duration: thisDuration, size: thisSize, flags: thisFlags, compositionOffset: offset)
                bytes += UInt64(thisSize)
            }
            if count > 0 { appenders[index].chunk(at: start, samples: count, descriptionIndex: descriptionIndex) }
            let (end, overflow) = start.addingReportingOverflow(bytes)
            if overflow || end > UInt64(fileSize) {
                let fileSize = self.fileSize
                warn("outside", track: id, trun.error(.outsideFile, "track \(id)'s run of \(count) samples (\(bytes) bytes from \(start)) runs past the end of the file (\(fileSize) bytes)"))
            }
            next = overflow ? UInt64.max : end
        }
        previousEnd = next
        return runs.count
    }
}
