import Foundation
import LivePhotoCodecProtocol
import LivePhotoFormats
import LivePhotoTestSupport
import Testing

/// The request is the only grammar between lpcheck and its helper: every job, with and without
/// its options, is written as arguments and read back to itself; arguments that are no request
/// are refused with the job's usage.
struct CodecRequestTests {
    /// Names a file may have that look like options or hold what a command line should not.
    static let paths = ["/tmp/in.mov", "--window", "a b\nc.mov", "-", "ü.gif"]

    static var jobs: [CodecRequest.Job] {
        var jobs: [CodecRequest.Job] = [.probe]
        for path in paths {
            jobs.append(.compare(still: path, movie: path))
            jobs.append(.thumbnail(still: path, side: 160))
            jobs.append(.sound(movie: path, track: 3, window: nil))
            jobs.append(.sound(movie: path, track: UInt32.max, window: 100..<2_000_000))
            jobs.append(.thumbnail(still: path, side: CodecRequest.thumbnailSides.upperBound))
            for kind in StillKind.allCases { jobs.append(.still(movie: path, sample: 0, kind: kind)) }
            jobs.append(.still(movie: path, sample: 41, kind: .hevc))
            for codec in VideoCodec.allCases {
                jobs.append(.gifMovie(gif: path, stillFrame: 3, still: .jpeg, codec: codec, background: 0x00_0A_FF, scale: 2))
                jobs.append(.gifMovie(gif: path, stillFrame: 0, still: .hevc, codec: codec, background: 0xFF_FF_FF, scale: 1))
                for order in ShownFrames.Order.allCases {
                    jobs.append(.frames(movie: path, order: order, codec: codec, window: nil))
                    jobs.append(.frames(movie: path, order: order, codec: codec, window: 12..<9_000_000_000))
                    jobs.append(.frames(movie: path, order: order, codec: codec, window: nil, quality: order == .reverse ? 0 : 51))
                    jobs.append(.frames(movie: path, order: order, codec: codec, window: 0..<1, width: order == .reverse ? 16 : 320))
                }
            }
            for dither in GIFDither.allCases {
                for palette in GIFPaletteScope.allCases {
                    var gif = CodecRequest.GIFRequest(width: 480)
                    (gif.dither, gif.palette, gif.opening, gif.rate) = (dither, palette, 7, dither == .none ? nil : 15)
                    jobs.append(.movieGIF(movie: path, gif: gif, window: palette == .clip ? nil : 0..<1))
                }
            }
        }
        return jobs
    }

    static let budgets: [CodecBudget?] = [nil, .standard, CodecBudget(totalPixels: 1, memoryBytes: CodecBudget.maxValue, outputBytes: 4096, silenceSeconds: 120)]

    @Test("every job, with and without limits and a budget, parses back to itself")
    func roundTrip() throws {
        var count = 0
        for job in Self.jobs {
            for budget in Self.budgets {
                for (maxPixels, maxFrames) in [(nil, nil), (Optional(1_000_000), Optional(10))] as [(Int?, Int?)] {
                    var request = CodecRequest(job, maxPixels: maxPixels, maxFrames: maxFrames, budget: budget)
                    if !request.countsFrames {
                        // A still's or a probe's frame limit means nothing and is not written.
                        #expect(!request.arguments.contains("--max-frames"))
                        request.maxFrames = nil
                    }
                    if !request.countsPixels {
                        // A sound's pixel limit means nothing and is not written.
                        #expect(!request.arguments.contains("--max-pixels"))
                        request.maxPixels = nil
                    }
                    let arguments = request.arguments
                    #expect(arguments.first == request.name)
                    let parsed = try CodecRequest(arguments: arguments)
                    // The silence deadline is lpcheck's own; the helper is not told it.
                    var expected = request
                    expected.budget?.silenceSeconds = CodecBudget.standard.silenceSeconds
                    #expect(parsed == expected, "\(arguments)")
                    count += 1
                }
            }
        }
        #expect(count == Self.jobs.count * 6 && count > 400)
    }

    @Test("the helper's argument layout stays what its process listings and stand-ins read: job, input, then the rest")
    func layout() {
        let frames = CodecRequest(.frames(movie: "/m.mov", order: .reverse, codec: .h264, window: 10..<30), maxFrames: 10_000, budget: .standard)
        #expect(frames.arguments == ["frames", "/m.mov", "reverse", "h264", "--window", "10", "20", "--max-frames", "10000",
                                     "--max-total-pixels", "8589934592", "--max-memory", "2147483648", "--max-output", "1073741824"])
        let still = CodecRequest(.still(movie: "/m.mov", sample: 0, kind: .jpeg), maxPixels: 5)
        #expect(still.arguments == ["still", "/m.mov", "1", "jpeg", "--max-pixels", "5"])
        let gif = CodecRequest(.gifMovie(gif: "/g.gif", stillFrame: 1, still: .hevc, codec: .hevc, background: 0xAB, scale: 3))
        #expect(gif.arguments == ["gif", "/g.gif", "2", "hevc", "hevc", "0000AB", "--scale", "3"])
        #expect(frames.input == "/m.mov" && gif.input == "/g.gif" && CodecRequest(.probe).input == "the input")
    }

    @Test("arguments that are no request are refused, naming what is wrong and the usage", arguments: [
        ([], "usage: lpcheck-codec"),
        (["encode", "x"], "usage: lpcheck-codec"),
        (["still", "/m.mov", "1"], "usage: still MOVIE"),
        (["still", "/m.mov", "0", "jpeg"], "usage: still MOVIE"),
        (["still", "/m.mov", "1", "png"], "usage: still MOVIE"),
        (["still", "/m.mov", "1", "jpeg", "--max-frames", "3"], "unknown option --max-frames"),
        (["still", "/m.mov", "1", "jpeg", "--max-pixels"], "--max-pixels takes a value"),
        (["still", "/m.mov", "1", "jpeg", "--max-pixels", "0"], "--max-pixels takes a number of at least 1"),
        (["still", "/m.mov", "1", "jpeg", "--max-pixels", "5", "--max-pixels", "6"], "--max-pixels is given twice"),
        (["gif", "/g.gif", "1", "jpeg", "h264", "FFFFF"], "usage: gif GIF"),
        (["gif", "/g.gif", "1", "jpeg", "h264", "+FFFFF"], "usage: gif GIF"),
        (["gif", "/g.gif", "1", "jpeg", "vp9", "FFFFFF"], "usage: gif GIF"),
        (["frames", "/m.mov", "sideways", "h264"], "usage: frames MOVIE"),
        (["frames", "/m.mov", "reverse", "h264", "--window", "5"], "--window takes START LENGTH"),
        (["frames", "/m.mov", "reverse", "h264", "--window", "9223372036854775807", "2"], "--window takes START LENGTH"),
        (["frames", "/m.mov", "reverse", "h264", "--window", "-1", "2"], "--window takes START LENGTH"),
        (["frames", "/m.mov", "reverse", "h264", "--quality", "52"], "--quality takes a CRF from 0 to 51"),
        (["frames", "/m.mov", "reverse", "h264", "--quality", "-1"], "--quality takes a CRF from 0 to 51"),
        (["frames", "/m.mov", "forward", "h264", "--width", "321"], "--width takes an even number of pixels from 16 to 16384"),
        (["frames", "/m.mov", "forward", "h264", "--width", "14"], "--width takes an even number of pixels from 16 to 16384"),
        (["frames", "/m.mov", "forward", "h264", "--width", "99999999999999999999"], "--width takes an even number of pixels from 16 to 16384"),
        (["movie-gif", "/m.mov", "480", "--quality", "20"], "unknown option --quality"),
        (["frames", "/m.mov", "reverse", "h264", "--max-memory", "0"], "--max-total-pixels, --max-memory and --max-output take a number"),
        (["movie-gif", "/m.mov", "0"], "usage: movie-gif MOVIE"),
        (["thumbnail", "/s.heic"], "usage: thumbnail STILL SIDE"),
        (["sound", "/m.mov", "0"], "TRACK takes a track ID from 1"),
        (["sound", "/m.mov", "2", "--max-pixels", "4"], "unknown option --max-pixels"),
        (["thumbnail", "/s.heic", "15"], "SIDE takes a number of pixels from 16 to 1024"),
        (["thumbnail", "/s.heic", "1025"], "SIDE takes a number of pixels from 16 to 1024"),
        (["thumbnail", "/s.heic", "160", "--max-frames", "2"], "unknown option --max-frames"),
        (["movie-gif", "/m.mov", "480", "--dither", "ordered"], "--dither takes none, floyd-steinberg, sierra-lite"),
        (["movie-gif", "/m.mov", "480", "--palette", "global"], "--palette takes clip or frame"),
    ] as [([String], String)])
    func refused(_ arguments: [String], _ says: String) {
        #expect(throws: CodecRequest.Invalid.self) { try CodecRequest(arguments: arguments) }
        do {
            _ = try CodecRequest(arguments: arguments)
        } catch {
            #expect(error.description.contains(says), "\(arguments): \(error.description)")
        }
    }

    @Test("the sample entry to codec map: HEVC's two entries, H.264 otherwise")
    func codecOfEntry() {
        #expect(VideoCodec(sampleEntry: "hvc1") == .hevc && VideoCodec(sampleEntry: "hev1") == .hevc)
        #expect(VideoCodec(sampleEntry: "avc1") == .h264 && VideoCodec(sampleEntry: nil) == .h264)
    }
}
