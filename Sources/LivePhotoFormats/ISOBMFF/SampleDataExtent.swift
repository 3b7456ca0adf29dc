/// Where a track's sample tables put its media data, checked against the file from the tables'
/// extremes: the highest chunk offset, the total of the sample sizes, the samples `stsc` places
/// in the chunks against those `stsz` counts, and the end of the last chunk. Read from the
/// tables' bytes (kept or skipped by the reader alike), never from the media data.
struct SampleDataExtent {
    /// The payloads of `stsc`, `stsz` and `stco`/`co64`, each at its start, as the reader found them.
    var sampleToChunk: ByteReader?
    var sizes: ByteReader?
    var sizeType: FourCC = "stsz"
    var chunks: ByteReader?
    var chunkType: FourCC = "stco"

    /// The first contradiction between the tables and a file of `fileSize` bytes, as a warning
    /// of code `outsideFile` at the table that shows it (`whole` names the file in the message); nil when the data fits or a table is
    /// missing (a track without samples).
    func problem(fileSize: Int64, whole: String) -> ParseError? {
        guard var chunks, var sizes, var sampleToChunk, sizeType == "stsz" else { return nil }
        let at = chunks
        do {
            // stco/co64: the highest offset, and the last.
            try chunks.skip(4)
            let chunkCount = Int(try chunks.u32())
            let wide = chunkType == "co64"
            var highest: UInt64 = 0
            var highestIndex = 0
            var last: UInt64 = 0
            for index in 0..<chunkCount {
                last = wide ? try chunks.u64() : UInt64(try chunks.u32())
                if last > highest || index == 0 { (highest, highestIndex) = (last, index) }
            }
            // stsz: the count and the total.
            try sizes.skip(4)
            let constant = UInt64(try sizes.u32())
            let sampleCount = UInt64(try sizes.u32())
            let sizesStart = sizes
            var total: UInt64 = 0
            if constant != 0 {
                total = constant.multipliedReportingOverflow(by: sampleCount).partialValue
            } else {
                for _ in 0..<sampleCount { total &+= UInt64(try sizes.u32()) }
            }
            guard total > 0, chunkCount > 0 else { return nil }
            if highest >= UInt64(fileSize) {
                return at.error(.outsideFile, "chunk \(highestIndex + 1) of \(chunkCount) starts at byte \(highest), past the end of \(whole) (\(fileSize) bytes)")
            }
            if total > UInt64(fileSize) {
                return sizesStart.error(.outsideFile, "the \(sampleCount) samples add up to \(total) bytes, more than \(whole) holds (\(fileSize))")
            }
            // stsc: how many samples its runs of chunks hold, and how many the last chunk holds.
            try sampleToChunk.skip(4)
            let runs = Int(try sampleToChunk.u32())
            var placed: UInt64 = 0
            var previous: (first: UInt64, perChunk: UInt64)?
            for _ in 0..<runs {
                let first = UInt64(try sampleToChunk.u32())
                let perChunk = UInt64(try sampleToChunk.u32())
                try sampleToChunk.skip(4)
                guard first >= 1, first <= UInt64(chunkCount), first > (previous?.first ?? 0) else {
                    return sampleToChunk.error(.outsideFile, "stsc starts a run at chunk \(first), but stco lists \(chunkCount) chunks")
                }
                if let previous { placed &+= (first - previous.first) &* previous.perChunk }
                previous = (first, perChunk)
            }
            guard let lastRun = previous else { return nil }
            placed &+= (UInt64(chunkCount) - lastRun.first + 1) &* lastRun.perChunk
            if placed < sampleCount {
                return sampleToChunk.error(.outsideFile, "stsc places \(placed) samples in \(chunkCount) chunks, but stsz counts \(sampleCount): the data of the rest is nowhere")
            }
            // The last chunk holds the last samples; when it is also the highest, its end is the data's end.
            guard highestIndex == chunkCount - 1, placed == sampleCount, lastRun.perChunk <= sampleCount else { return nil }
            var tail = constant &* lastRun.perChunk
            if constant == 0 {
                var rest = sizesStart
                try rest.skip(Int(sampleCount - lastRun.perChunk) * 4)
                tail = 0
                for _ in 0..<lastRun.perChunk { tail &+= UInt64(try rest.u32()) }
            }
            let (end, overflow) = last.addingReportingOverflow(tail)
            if overflow || end > UInt64(fileSize) {
                return at.error(.outsideFile, "chunk \(chunkCount) of \(chunkCount) (\(lastRun.perChunk) samples, \(tail) bytes at byte \(last)) runs past the end of \(whole) (\(fileSize) bytes)")
            }
            return nil
        } catch {
            // The tables were checked as they were read; a shortfall here is theirs, reported there.
            return nil
        }
    }
}
