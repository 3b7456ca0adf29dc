internal import CFFmpeg
import LivePhotoCodecProtocol
import LivePhotoFormats

/// A movie's PCM sound track encoded to AAC-LC by FFmpeg's encoder (`sound` job): what a Motion
/// Photo 1.0 movie carries where an iPhone's carries 16-bit PCM. The samples are read through
/// lpcheck's own sample tables (a .livp member within its window), held to `maxBytes` before
/// any is read, made planar floats, encoded a frame (1024 samples) at a time and written as the
/// answer's parts: the sound first (rate, channels, AudioSpecificConfig, the encoder's priming),
/// then each packet.
public enum SoundEncoder {
    /// The most PCM bytes read: 64 MiB, six minutes of 48 kHz stereo 16-bit.
    public static let maxBytes = 64 << 20
    /// The rates an MP4 sound entry holds (16.16 fixed point) and AAC-LC codes.
    static let rates = 8_000...65_535

    public static func write(path: String, track id: UInt32, window: Range<Int64>?, output: ([UInt8]) -> Void) throws {
        func bad(_ why: String) -> ShownFrameDecoder.BadInput { ShownFrameDecoder.BadInput(description: "\(path): \(why)") }
        let file = try FileSource(path: path)
        let source: ByteSource = window.map { WindowSource(file, range: $0) } ?? file
        let movie: Movie
        do { movie = try Movie.read(from: source, options: .full) } catch { throw bad("\(error)") }
        guard let track = movie.tracks.first(where: { $0.id == id }), track.handler == "soun" else { throw bad("no sound track \(id)") }
        guard let format = track.sampleDescriptions.first, let sound = format.sound else { throw bad("track \(id) is '\(track.sampleDescriptions.first?.format.description ?? "none")', no PCM") }
        // The rate is held to AAC's before it becomes an integer; a frame's stored size to its values'.
        let rate = sound.sampleRate.rounded() == sound.sampleRate && Double(rates.lowerBound)...Double(rates.upperBound) ~= sound.sampleRate ? Int(sound.sampleRate) : 0
        guard rates.contains(rate), (1...8).contains(sound.channels),
              sound.isFloat ? [32, 64].contains(sound.bitsPerChannel) : [8, 16, 24, 32].contains(sound.bitsPerChannel),
              sound.bytesPerPacket.map({ $0 == sound.bytesPerFrame }) ?? true else {
            throw bad("track \(id)'s PCM (\(sound.channels) channels, \(sound.sampleRate) Hz, \(sound.bitsPerChannel)-bit in \(sound.bytesPerPacket.map { "\($0)-byte" } ?? "packed") frames) is not one encoded to AAC here")
        }
        // A sample is at least a frame's bytes: more samples than `maxBytes` holds are refused
        // before the tables are resolved.
        let most = maxBytes / sound.bytesPerFrame
        guard track.sampleTable.count <= most else { throw bad("track \(id) lists \(track.sampleTable.count) samples, more than the \(most) frames of \(maxBytes) bytes encoded here") }
        let samples: [Sample]
        do { samples = try track.sampleTable.resolve(limit: most, path: track.path) } catch { throw bad("\(error)") }
        // A QuickTime sound sample is a frame; version 0 entries say size 1 for a frame of more bytes.
        let frameBytes = sound.bytesPerFrame
        var ranges: [Range<Int64>] = []
        var total = 0
        for sample in samples {
            let size = track.sampleTable.constantSampleSize == 1 ? frameBytes : Int(sample.size)
            guard size % frameBytes == 0, let start = Int64(exactly: sample.offset), start <= source.size - Int64(size) else {
                throw bad("track \(id)'s sample \(sample.index + 1) (\(size) bytes at \(sample.offset)) is no whole frame inside the file")
            }
            total += size
            guard total <= maxBytes else { throw bad("track \(id) holds more than \(maxBytes) bytes of PCM") }
            if let last = ranges.last, last.upperBound == start { ranges[ranges.count - 1] = last.lowerBound..<(start + Int64(size)) } else { ranges.append(start..<(start + Int64(size))) }
        }
        var pcm: [UInt8] = []
        pcm.reserveCapacity(total)
        for range in ranges { pcm += try source.read(at: range.lowerBound, count: Int(range.count)) }
        let frames = pcm.count / frameBytes
        guard frames > 0 else { throw bad("track \(id) holds no sound") }
        try encode(planar(pcm, sound, frames: frames), rate: rate, frames: frames, output: output)
    }

    /// The values as floats in −1…1, one array a channel.
    static func planar(_ pcm: [UInt8], _ sound: SoundFields, frames: Int) -> [[Float]] {
        let bytes = sound.bitsPerChannel / 8
        var channels = [[Float]](repeating: [Float](repeating: 0, count: frames), count: sound.channels)
        for frame in 0..<frames {
            for channel in 0..<sound.channels {
                let at = (frame * sound.channels + channel) * bytes
                var raw: UInt64 = 0
                for index in 0..<bytes { raw |= UInt64(pcm[at + (sound.isBigEndian ? bytes - 1 - index : index)]) << (8 * index) }
                let value: Float
                if sound.isFloat {
                    value = bytes == 4 ? Float(bitPattern: UInt32(truncatingIfNeeded: raw)) : Float(Double(bitPattern: raw))
                } else if sound.isSigned {
                    let shift = 64 - 8 * bytes
                    value = Float(Int64(bitPattern: raw << UInt64(shift)) >> Int64(shift)) / Float(1 << (8 * bytes - 1))
                } else {
                    value = (Float(raw) - Float(1 << (8 * bytes - 1))) / Float(1 << (8 * bytes - 1))
                }
                channels[channel][frame] = value.isFinite ? max(-1, min(1, value)) : 0
            }
        }
        return channels
    }

    static func encode(_ channels: [[Float]], rate: Int, frames: Int, output: ([UInt8]) -> Void) throws {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC) else { throw CodecError("avcodec_find_encoder", "FFmpeg has no AAC encoder") }
        let context = try CodecContext(codec)
        let c = context.pointer
        av_channel_layout_default(&c.pointee.ch_layout, Int32(channels.count))
        (c.pointee.sample_rate, c.pointee.sample_fmt) = (Int32(rate), AV_SAMPLE_FMT_FLTP)
        c.pointee.bit_rate = Int64(max(96_000, min(256_000, 64_000 * channels.count)))
        c.pointee.time_base = AVRational(num: 1, den: Int32(rate))
        c.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        try CodecError.check(avcodec_open2(c, codec, nil), "avcodec_open2(aac)")
        let size = Int(c.pointee.frame_size > 0 ? c.pointee.frame_size : 1024)
        output(CodecAnswer.bytes(.sound(CodecAnswer.Sound(sampleRate: UInt32(rate), channels: UInt16(channels.count), bitRate: UInt32(c.pointee.bit_rate),
                                                           delay: UInt32(clamping: c.pointee.initial_padding), frames: UInt64(frames), configuration: context.extradata))))
        func drain() throws {
            while true {
                let packet = try Packet()
                let result = avcodec_receive_packet(c, packet.pointer)
                if result == lp_averror_eagain() || result == lp_averror_eof() { return }
                try CodecError.check(result, "encoding AAC")
                output(CodecAnswer.bytes(.sample(duration: UInt32(clamping: packet.pointer.pointee.duration > 0 ? packet.pointer.pointee.duration : Int64(size)), key: true, data: packet.bytes)))
            }
        }
        var start = 0
        while start < frames {
            let count = min(size, frames - start)
            let frame = try Frame()
            let f = frame.pointer
            (f.pointee.nb_samples, f.pointee.format, f.pointee.sample_rate, f.pointee.pts) = (Int32(count), AV_SAMPLE_FMT_FLTP.rawValue, Int32(rate), Int64(start))
            try CodecError.check(av_channel_layout_copy(&f.pointee.ch_layout, &c.pointee.ch_layout), "av_channel_layout_copy")
            try CodecError.check(av_frame_get_buffer(f, 0), "av_frame_get_buffer(sound)")
            for (index, values) in channels.enumerated() {
                guard let plane = f.pointee.extended_data?[index] else { throw CodecError("av_frame_get_buffer", "no plane for channel \(index + 1)") }
                values[start..<(start + count)].withUnsafeBufferPointer { source in
                    guard let base = source.baseAddress else { return }
                    UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self).update(from: base, count: count)
                }
            }
            try CodecError.check(avcodec_send_frame(c, f), "encoding AAC")
            try drain()
            start += count
        }
        try CodecError.check(avcodec_send_frame(c, nil), "encoding AAC (flush)")
        try drain()
    }
}
