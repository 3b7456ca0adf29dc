/// Where a track's sample tables put its media data, checked against the file from the tables'
/// extremes: the highest chunk offset, the total of the sample sizes, the samples `stsc` places
/// in the chunks against those `stsz` counts, and the end of the last chunk. Read from the
/// tables' bytes (kept or skipped by the reader alike), never from the media data.
struct SampleDataExtent {
    /// Where the payloads of `stsc`, `stsz` and `stco`/`co64` are in the bytes the sample table
    /// was read from (positions, not readers: nothing to retain for a table that is never wrong).
    var sampleToChunk: Range<Int>?
    var sizes: Range<Int>?
    var sizeType: FourCC = "stsz"
    var chunks: Range<Int>?
    var chunkType: FourCC = "stco"

    /// One table's entries read in place: big-endian words from its payload, never past its end.
    struct Table {
        let raw: UnsafeRawBufferPointer
        let payload: Range<Int>
        /// Entries start this many bytes into the payload (after version, flags and the fields before them).
        let start: Int
        let count: Int

        /// Entries of `entryBytes` from `start`; the count as declared at `countAt`, cut to what the payload holds.
        init(_ raw: UnsafeRawBufferPointer, _ payload: Range<Int>, countAt: Int, start: Int, entryBytes: Int) {
            (self.raw, self.payload, self.start) = (raw, payload, start)
            let available = payload.count
            let declared = available >= countAt + 4 ? Int(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: payload.lowerBound + countAt, as: UInt32.self))) : 0
            count = available >= start ? min(declared, (available - start) / entryBytes) : 0
        }

        func word(_ at: Int) -> UInt32 { UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: payload.lowerBound + at, as: UInt32.self)) }

        /// Runs `body` over the raw bytes and where the first entry is.
        func withEntries<T>(_ body: (UnsafeRawBufferPointer, Int) -> T) -> T { body(raw, payload.lowerBound + start) }
    }

    /// A chunk of `stsc` that names a sample description the track does not have (0, or past
    /// its `descriptions`): its samples have no decoder. Read in place from `stbl`'s bytes.
    func descriptionIndexProblem(in stbl: ByteReader, descriptions: Int) -> ParseError? {
        guard let runBox = sampleToChunk else { return nil }
        let found: (entry: Int, index: UInt32)? = stbl.bytes.withUnsafeBytes { raw in
            let runs = Table(raw, runBox, countAt: 4, start: 8, entryBytes: 12)
            for entry in 0..<runs.count {
                let index = runs.word(runs.start + 12 * entry + 8)
                if index == 0 || Int(index) > descriptions { return (entry, index) }
            }
            return nil
        }
        guard let found else { return nil }
        return ParseError(.inconsistent, "stsc entry \(found.entry + 1) names sample description \(found.index), and stsd holds \(descriptions)",
                          offset: stbl.base + Int64(runBox.lowerBound), path: stbl.path + "/stsc")
    }

    /// The first contradiction, read from `stbl`'s bytes (the tables' container), as `problem(raw:…)`.
    func problem(in stbl: ByteReader, fileSize: Int64, whole: String) -> ParseError? {
        guard chunks != nil, sizes != nil, sampleToChunk != nil, sizeType == "stsz" else { return nil }
        guard let (message, table, at) = stbl.bytes.withUnsafeBytes({ problem(raw: $0, fileSize: fileSize, whole: whole) }) else { return nil }
        return ParseError(.outsideFile, message, offset: stbl.base + Int64(at), path: stbl.path + "/" + table.description)
    }

    /// The first contradiction between the tables and a file of `fileSize` bytes: the message
    /// (`whole` names the file), the table that shows it and where its payload starts; nil when
    /// the data fits or a table is missing (a track without samples). Counts are cut to what
    /// each table's bytes hold.
    func problem(raw: UnsafeRawBufferPointer, fileSize: Int64, whole: String) -> (message: String, table: FourCC, at: Int)? {
        guard let chunkBox = chunks, let sizeBox = sizes, let runBox = sampleToChunk, sizeType == "stsz" else { return nil }
        let wide = chunkType == "co64"
        let chunkTable = Table(raw, chunkBox, countAt: 4, start: 8, entryBytes: wide ? 8 : 4)
        let sizeTable = Table(raw, sizeBox, countAt: 8, start: 12, entryBytes: 4)
        let runTable = Table(raw, runBox, countAt: 4, start: 8, entryBytes: 12)
        let chunkCount = chunkTable.count
        guard chunkCount > 0, sizeBox.count >= 12 else { return nil }
        // stco/co64: the highest offset (the first of equals), and the last.
        func offset(_ raw: UnsafeRawBufferPointer, _ at: Int, _ entry: Int) -> UInt64 {
            wide ? UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: at + 8 * entry, as: UInt64.self))
                : UInt64(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: at + 4 * entry, as: UInt32.self)))
        }
        let (highest, highestIndex, last) = chunkTable.withEntries { raw, at -> (UInt64, Int, UInt64) in
            var highest: UInt64 = 0, index = 0, value: UInt64 = 0
            for entry in 0..<chunkCount {
                value = offset(raw, at, entry)
                if value > highest || entry == 0 { (highest, index) = (value, entry) }
            }
            return (highest, index, value)
        }
        // stsz: the count and the total.
        let constant = UInt64(sizeTable.word(4))
        let sampleCount = UInt64(sizeTable.word(8))
        let total: UInt64
        if constant != 0 {
            total = constant.multipliedReportingOverflow(by: sampleCount).partialValue
        } else {
            guard UInt64(sizeTable.count) == sampleCount else { return nil }
            total = sizeTable.withEntries { raw, at in
                (0..<sizeTable.count).reduce(UInt64(0)) { $0 &+ UInt64(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: at + 4 * $1, as: UInt32.self))) }
            }
        }
        guard total > 0 else { return nil }
        if highest >= UInt64(fileSize) {
            return ("chunk \(highestIndex + 1) of \(chunkCount) starts at byte \(highest), past the end of \(whole) (\(fileSize) bytes)", chunkType, chunkBox.lowerBound)
        }
        // Chunks that come back to bytes already listed (a loop lists its samples again, stored
        // once) may add up to more than the file: the total counts only when every chunk starts
        // after the one before (read again only here, where the total is over).
        if total > UInt64(fileSize), chunkTable.withEntries({ raw, at in (1..<max(1, chunkCount)).allSatisfy { offset(raw, at, $0) > offset(raw, at, $0 - 1) } }) {
            return ("the \(sampleCount) samples add up to \(total) bytes, more than \(whole) holds (\(fileSize))", sizeType, sizeBox.lowerBound)
        }
        // stsc: how many samples its runs of chunks hold, and how many the last chunk holds.
        guard runTable.count > 0 else { return nil }
        var placed: UInt64 = 0
        var previous: (first: UInt64, perChunk: UInt64)?
        for run in 0..<runTable.count {
            let first = UInt64(runTable.word(8 + 12 * run)), perChunk = UInt64(runTable.word(12 + 12 * run))
            guard first >= 1, first <= UInt64(chunkCount), first > (previous?.first ?? 0) else {
                return ("stsc starts a run at chunk \(first), but \(chunkType) lists \(chunkCount) chunks", "stsc", runBox.lowerBound)
            }
            // Each run's product fits 64 bits (two 32-bit factors); their sum saturates.
            if let previous { placed = Self.saturating(placed, (first - previous.first) * previous.perChunk) }
            previous = (first, perChunk)
        }
        guard let lastRun = previous else { return nil }
        placed = Self.saturating(placed, (UInt64(chunkCount) - lastRun.first + 1) * lastRun.perChunk)
        if placed < sampleCount {
            return ("stsc places \(placed) samples in \(chunkCount) chunks, but stsz counts \(sampleCount): the data of the rest is nowhere", "stsc", runBox.lowerBound)
        }
        // The last chunk holds the last samples; when it is also the highest, its end is the data's end.
        guard highestIndex == chunkCount - 1, placed == sampleCount, lastRun.perChunk <= sampleCount else { return nil }
        var tail = constant * lastRun.perChunk
        if constant == 0 {
            let first = Int(sampleCount - lastRun.perChunk)
            tail = sizeTable.withEntries { raw, at in
                (first..<Int(sampleCount)).reduce(UInt64(0)) { $0 &+ UInt64(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: at + 4 * $1, as: UInt32.self))) }
            }
        }
        let (end, overflow) = last.addingReportingOverflow(tail)
        if overflow || end > UInt64(fileSize) {
            return ("chunk \(chunkCount) of \(chunkCount) (\(lastRun.perChunk) samples, \(tail) bytes at byte \(last)) runs past the end of \(whole) (\(fileSize) bytes)", chunkType, chunkBox.lowerBound)
        }
        return nil
    }

    static func saturating(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
