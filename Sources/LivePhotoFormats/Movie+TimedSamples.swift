/// The samples `parse` reads: timed metadata, a motion photo's metadata sample.
extension MovieParser {
    /// Reads and decodes the samples of a `mebx` track (at most `maxTimedSamplesPerTrack`).
    func timedSamples(_ track: Track) throws -> [TimedMetadataSample] {
        let samples = try track.sampleTable.resolve(limit: Self.maxTimedSamplesPerTrack, path: track.path)
        var result: [TimedMetadataSample] = []
        for sample in samples {
            let path = "\(track.path)/sample[\(sample.index + 1)]"
            guard sample.size <= Self.maxTimedSampleBytes, let offset = Int64(exactly: sample.offset) else {
                throw ParseError(.limitExceeded, "timed metadata sample of \(sample.size) bytes at \(sample.offset)",
                                 offset: min(Int64(clamping: sample.offset), source.size), path: path)
            }
            let bytes = try readSample(offset: offset, size: Int(sample.size), path: path)
            let descriptionIndex = Int(sample.descriptionIndex) - 1
            let keys = track.sampleDescriptions.indices.contains(descriptionIndex) ? track.sampleDescriptions[descriptionIndex].metadataKeys : []
            var items: [TimedMetadataItem] = []
            var reader = ByteReader(bytes, base: offset, path: path)
            while reader.remaining >= 8 {
                let start = reader.offset
                let size = try reader.u32()
                let localID = try reader.u32()
                guard size >= 8, Int(size) - 8 <= reader.remaining else {
                    throw ParseError(.invalidSize, "metadata item of \(size) bytes in a \(bytes.count)-byte sample", offset: start, path: path)
                }
                let valueBytes = try reader.read(Int(size) - 8)
                let key = keys.first { $0.localID == localID }
                let value = key?.dataType.map { WellKnownType.decode(valueBytes, type: $0) } ?? .data(valueBytes)
                items.append(TimedMetadataItem(
                    localID: localID, namespace: key?.namespace, key: key?.key, dataType: key?.dataType,
                    value: value, byteCount: valueBytes.count))
            }
            result.append(TimedMetadataSample(sample: sample, items: items))
        }
        return result
    }

    func readSample(offset: Int64, size: Int, path: String) throws -> [UInt8] {
        do {
            return try source.read(at: offset, count: size)
        } catch var error as ParseError {
            error.path = path
            error.message = "sample data: " + error.message
            // Past the end of a file whose boxes are whole, the table is wrong, not the file cut.
            if error.code == .truncated, !warnings.contains(where: { $0.code == .truncated }) { error.code = .outsideFile }
            throw error
        }
    }
}
