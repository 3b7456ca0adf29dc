/// A loop's sample tables: the source's, listed in the output's order.
extension TrackLoop {
    /// The `stbl` for the loop: `stsd` and `sgpd` kept, timing, sizes, sync samples, `sdtp` and
    /// `sbgp` listed in the output's order, one chunk a sample at the source's offset (the
    /// writer moves it), other tables dropped and named.
    func sampleTable(_ stbl: [UInt8], path: String, notes: inout [String]) throws -> [UInt8] {
        var kept: [UInt8] = []
        var dependencies: [UInt8]?
        var groups: [[UInt8]] = []
        var dropped: [String] = []
        for (box, child) in try BoxIterator.all(ByteReader(Array(stbl[8...]), base: 0, path: path)) {
            let whole = Array(stbl[(8 + Int(box.offset))..<(8 + Int(box.end))])
            switch box.type {
            case "stsd", "sgpd": kept += whole
            case "stts", "ctts", "stss", "stsc", "stsz", "stz2", "stco", "co64": continue
            case "sdtp":
                var reader = child
                try reader.skip(4)
                let flags = try reader.restBytes()
                guard flags.count >= samples.count else { throw WriteError(.inconsistentInput, "\(path)/sdtp lists \(flags.count) of \(samples.count) samples") }
                dependencies = order.map { flags[$0] }
            case "sbgp": groups.append(try sampleGroup(child, path: "\(path)/sbgp"))
            default: dropped.append(box.type.description)
            }
        }
        if !dropped.isEmpty { notes.append("\(path): drop \(dropped.joined(separator: ", ")) (tables of the source's sample order)") }
        var runs: [(count: UInt32, value: UInt32)] = []
        var offsets: [(count: UInt32, value: Int64)] = []
        let hasOffsets = samples.contains { $0.presentationTime != Int64($0.decodeTime) }
        for index in order {
            let sample = samples[index]
            if let last = runs.last, last.value == sample.duration { runs[runs.count - 1].count += 1 } else { runs.append((1, sample.duration)) }
            let offset = sample.presentationTime - Int64(sample.decodeTime)
            if let last = offsets.last, last.value == offset { offsets[offsets.count - 1].count += 1 } else { offsets.append((1, offset)) }
        }
        var table = kept
        table += BoxWriter.fullBox("stts", BoxWriter.u32(UInt32(runs.count)) + runs.flatMap { BoxWriter.u32($0.count) + BoxWriter.u32($0.value) })
        if hasOffsets {
            let negative = offsets.contains { $0.value < 0 }
            guard offsets.allSatisfy({ $0.value >= Int64(Int32.min) && $0.value <= Int64(UInt32.max) }) else { throw WriteError(.fieldOverflow, "\(path): a composition offset does not fit 32 bits") }
            table += BoxWriter.fullBox("ctts", version: negative ? 1 : 0, BoxWriter.u32(UInt32(offsets.count))
                + offsets.flatMap { BoxWriter.u32($0.count) + (negative ? BoxWriter.i32(Int32($0.value)) : BoxWriter.u32(UInt32($0.value))) })
        }
        if let sync = track.sampleTable.syncSamples {
            let syncSet = Set(sync)
            let listed = order.indices.filter { syncSet.contains(UInt32(order[$0] + 1)) }.map { UInt32($0 + 1) }
            table += BoxWriter.fullBox("stss", BoxWriter.u32(UInt32(listed.count)) + listed.flatMap { BoxWriter.u32($0) })
        }
        if let dependencies { table += BoxWriter.fullBox("sdtp", dependencies) }
        for group in groups { table += group }
        // Chunks as the source has them: a chunk runs while the listed samples follow one
        // another in the source's bytes with one description (so PCM audio, a sample per
        // audio frame, keeps its few large chunks); the writer moves their offsets.
        var chunks: [(offset: UInt64, samples: UInt32, description: UInt32)] = []
        var previous: Int?
        for index in order {
            let sample = samples[index]
            if let previous, index == previous + 1, samples[previous].offset + UInt64(samples[previous].size) == sample.offset,
               samples[previous].descriptionIndex == sample.descriptionIndex, let last = chunks.last, last.samples < UInt32.max {
                chunks[chunks.count - 1].samples += 1
            } else {
                chunks.append((sample.offset, 1, sample.descriptionIndex))
            }
            previous = index
        }
        var entries: [(first: UInt32, samples: UInt32, description: UInt32)] = []
        for (position, chunk) in chunks.enumerated() where entries.last.map({ $0.samples != chunk.samples || $0.description != chunk.description }) ?? true {
            entries.append((UInt32(position + 1), chunk.samples, chunk.description))
        }
        table += BoxWriter.fullBox("stsc", BoxWriter.u32(UInt32(entries.count)) + entries.flatMap { BoxWriter.u32($0.first) + BoxWriter.u32($0.samples) + BoxWriter.u32($0.description) })
        if track.sampleTable.constantSampleSize > 0 {
            table += BoxWriter.fullBox("stsz", BoxWriter.u32(track.sampleTable.constantSampleSize) + BoxWriter.u32(UInt32(order.count)))
        } else {
            table += BoxWriter.fullBox("stsz", BoxWriter.u32(0) + BoxWriter.u32(UInt32(order.count)) + order.flatMap { BoxWriter.u32(samples[$0].size) })
        }
        table += BoxWriter.fullBox("co64", BoxWriter.u32(UInt32(chunks.count)) + chunks.flatMap { BoxWriter.u64($0.offset) })
        return BoxWriter.box("stbl", table)
    }

    /// An `sbgp` listed in the output's order: the source's runs expanded to samples, then
    /// run-length coded again.
    func sampleGroup(_ reader: ByteReader, path: String) throws -> [UInt8] {
        var reader = reader
        let version = try reader.u8()
        let flags = try reader.read(3)
        let grouping = try reader.read(4)
        let parameter = version == 1 ? try reader.read(4) : []
        let count = try reader.entryCount(UInt32.self, entrySize: 8, what: "sbgp")
        var perSample: [UInt32] = []
        perSample.reserveCapacity(samples.count)
        for _ in 0..<count {
            let run = Int(try reader.u32()), group = try reader.u32()
            guard run <= samples.count - perSample.count else { throw WriteError(.inconsistentInput, "\(path) lists more samples than the track has") }
            perSample += [UInt32](repeating: group, count: run)
        }
        perSample += [UInt32](repeating: 0, count: samples.count - perSample.count)
        var runs: [(count: UInt32, group: UInt32)] = []
        for index in order {
            if let last = runs.last, last.group == perSample[index] { runs[runs.count - 1].count += 1 } else { runs.append((1, perSample[index])) }
        }
        return BoxWriter.box("sbgp", [version] + flags + grouping + parameter + BoxWriter.u32(UInt32(runs.count)) + runs.flatMap { BoxWriter.u32($0.count) + BoxWriter.u32($0.group) })
    }
}
