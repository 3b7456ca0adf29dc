import LivePhotoFormats

/// A movie's frames re-timed (`ShownFrames.Order`: reverse, bounce) and encoded, written as
/// boxes as they are made: `scal` (the timescale, the source's media ticks), `nclc` (the colour
/// codes), `trak` and one `smpl` per sample, as the GIF movie is. Memory is one group of
/// pictures: the frames a sync sample starts are decoded together when the sequence first needs
/// one of them, and dropped when it moves to another group; a group the sequence comes back to
/// (a bounce's way back) is decoded again.
public enum ReversedMovie {
    /// The input is at fault (limits, structure): exit 2.
    public struct BadInput: Error, CustomStringConvertible {
        public var description: String
    }

    /// The encoders' CRF: 16 for x264; x265 counts CRF differently, 12 keeps IMG_3853 (HEVC) above
    /// 40 dB where 16 gave 38.7 dB at the worst frame.
    public static let quality = 16
    static func quality(_ codec: MovieEncoder.Codec) -> Int { codec == .hevc ? 12 : quality }

    public static func write(path: String, window: Range<Int64>?, order: ShownFrames.Order, codec: MovieEncoder.Codec, maxPixels: Int, maxFrames: Int,
                             progress: (Int, Int) -> Void = { _, _ in }, output: ([UInt8]) -> Void) throws {
        let file = try FileSource(path: path)
        let source: ByteSource = window.map { WindowSource(file, range: $0) } ?? file
        let movie: Movie
        do {
            movie = try Movie.read(from: source, options: .full)
        } catch {
            throw BadInput(description: "\(path): \(error)")
        }
        guard let track = movie.primaryVideoTrack, track.mediaTimescale > 0 else { throw BadInput(description: "\(path): no video track") }
        for entry in track.sampleDescriptions {
            if let width = entry.width, let height = entry.height, Int(width) * Int(height) > maxPixels {
                throw BadInput(description: "\(path): its \(entry.format) sample entry claims \(width)×\(height) frames, more than \(maxPixels) pixels")
            }
        }
        let samples = try track.sampleTable.resolve(path: track.path)
        let shown = ShownFrames(movie, track: track)
        guard !shown.frames.isEmpty else { throw BadInput(description: "\(path): the video track shows no frame") }
        guard shown.frames.count <= maxFrames else { throw BadInput(description: "\(path): \(shown.frames.count) frames, more than the \(maxFrames) an export re-encodes (--max-frames)") }
        for sample in samples where sample.offset.addingReportingOverflow(UInt64(sample.size)).partialValue > UInt64(source.size) || sample.size > FrameReader.maxSampleBytes {
            throw BadInput(description: "\(path): sample \(sample.index + 1) of the video track (\(sample.size) bytes at offset \(sample.offset)) lies outside the movie")
        }
        let sync = track.sampleTable.syncSamples.map { Set($0) }
        func isSync(_ index: Int) -> Bool { sync?.contains(UInt32(clamping: index + 1)) ?? true }
        // Each sample's group: the sync sample at or before it, and the next sync sample.
        var groupStart = [Int](repeating: 0, count: samples.count)
        for index in samples.indices { groupStart[index] = isSync(index) ? index : index > 0 ? groupStart[index - 1] : 0 }
        func groupEnd(_ start: Int) -> Int { (start + 1..<samples.count).first(where: isSync) ?? samples.count }
        for start in Set(groupStart) where groupEnd(start) - start > FrameReader.maxGroupOfPictures {
            throw BadInput(description: "\(path): a group of \(groupEnd(start) - start) pictures from sample \(start + 1), more than the \(FrameReader.maxGroupOfPictures) held at once")
        }
        let sequence = shown.sequence(order)
        var decoded: (start: Int, frames: [Int64: Frame])?
        var encoder: MovieEncoder?
        var durations: [UInt32] = []
        var written = 0
        func emit(_ encoded: [MovieEncoder.Sample]) {
            for sample in encoded {
                output(BoxWriter.box("smpl", BoxWriter.u32(durations[min(written, durations.count - 1)]) + [sample.key ? 1 : 0] + sample.data))
                written += 1
            }
        }
        var time: Int64 = 0
        for (position, index) in sequence.enumerated() {
            let frame = shown.frames[index]
            let start = groupStart[frame.sample]
            if decoded?.start != start {
                decoded = nil
                decoded = (start, try decodeGroup(samples[start..<groupEnd(start)], track: track, source: source, isSync: isSync, path: path))
            }
            guard let picture = decoded?.frames[frame.presentation] else {
                throw CodecError("decoding", "\(path): the decoder gave no picture for sample \(frame.sample + 1) (its group decoded from sample \(start + 1))")
            }
            if encoder == nil {
                guard picture.width * picture.height <= maxPixels else { throw BadInput(description: "\(path): the decoder gives \(picture.width)×\(picture.height) frames, more than \(maxPixels) pixels") }
                let made = try MovieEncoder(codec: codec, width: picture.width, height: picture.height, timescale: Int32(clamping: shown.timescale), quality: quality(codec), like: picture)
                let configuration = try made.configuration()
                let colour = made.colourCodes
                output(BoxWriter.box("scal", BoxWriter.u32(shown.timescale)))
                output(BoxWriter.box("nclc", BoxWriter.u16(colour.primaries) + BoxWriter.u16(colour.transfer) + BoxWriter.u16(colour.matrix)))
                output(BoxWriter.box("trak", configuration.format.bytes + configuration.type.bytes + BoxWriter.u32(UInt32(made.width)) + BoxWriter.u32(UInt32(made.height))
                    + configuration.record))
                encoder = made
            }
            guard let encoder else { break }
            durations.append(frame.duration)
            emit(try encoder.encode(picture: picture, presentationTime: time))
            time += Int64(frame.duration)
            progress(position + 1, sequence.count)
        }
        if let encoder { emit(try encoder.finish()) }
        guard written == sequence.count else { throw CodecError("encoding", "\(sequence.count) frames gave \(written) samples") }
    }

    /// Every picture of one group of pictures, by presentation time.
    static func decodeGroup(_ group: ArraySlice<Sample>, track: Track, source: ByteSource, isSync: (Int) -> Bool, path: String) throws -> [Int64: Frame] {
        guard let first = group.first else { return [:] }
        let description = Int(first.descriptionIndex) - 1
        guard track.sampleDescriptions.indices.contains(description) else { throw CodecError("reading", "\(path): sample \(first.index + 1) names no sample description") }
        let decoder = try VideoDecoder(track.sampleDescriptions[description])
        var pictures: [Int64: Frame] = [:]
        for sample in group {
            let bytes: [UInt8]
            do {
                bytes = try source.read(at: Int64(clamping: sample.offset), count: Int(sample.size))
            } catch {
                throw CodecError("reading", "\(path): sample \(sample.index + 1) (\(sample.size) bytes at offset \(sample.offset)): \(error)")
            }
            try decoder.send(bytes, presentationTime: sample.presentationTime, decodeTime: Int64(clamping: sample.decodeTime), key: isSync(sample.index))
            while let picture = try decoder.receive() { pictures[picture.presentationTime] = picture }
        }
        try decoder.finish()
        while let picture = try decoder.receive() { pictures[picture.presentationTime] = picture }
        return pictures
    }
}
