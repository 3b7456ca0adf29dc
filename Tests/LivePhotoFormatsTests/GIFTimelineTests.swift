import LivePhotoFormats
import Testing

/// `GIFTimeline`: which movie frame each GIF frame shows and for how many centiseconds. The
/// expected delays are worked out by hand from the frames' times (rounded to centiseconds,
/// the differences taken), not read from the code.
struct GIFTimelineTests {
    func timeline(_ durations: [UInt32], timescale: UInt32, opening: Int = 0, rate: Int? = nil, maxFrames: Int = 10_000) throws -> GIFTimeline {
        try GIFTimeline(ShownFrames(durations: durations, timescale: timescale), opening: opening, rate: rate, maxFrames: maxFrames)
    }

    @Test("30 frames a second: starts at 0, 3.33, 6.67, 10 cs… round to 0, 3, 7, 10, so delays run 3, 4, 3 and 42 frames sum to 140 cs (1.4 s)")
    func carriedError() throws {
        let made = try timeline([UInt32](repeating: 20, count: 42), timescale: 600)
        #expect(made.entries.count == 42)
        #expect(Array(made.entries.prefix(6).map(\.delay)) == [3, 4, 3, 3, 4, 3])
        #expect(made.centiseconds == 140 && made.entries.map(\.frame) == Array(0..<42))
    }

    @Test("60 frames a second: raw delays 2, 1, 2, 2, 1, 2 cs; a 1 cs frame runs on over the next, so frames 0, 1, 3, 4 show for 2, 3, 2, 3 cs and the total stays 10 cs")
    func shortFramesRunOn() throws {
        let made = try timeline([UInt32](repeating: 10, count: 6), timescale: 600)
        #expect(made.entries == [.init(frame: 0, delay: 2), .init(frame: 1, delay: 3), .init(frame: 3, delay: 2), .init(frame: 4, delay: 3)])
    }

    @Test("a last frame under 2 cs is folded into the one before it: 50 + 1 ticks of 1/100 s give one frame of 51 cs")
    func shortLastFrame() throws {
        #expect(try timeline([50, 1], timescale: 100).entries == [.init(frame: 0, delay: 51)])
    }

    @Test("--fps 5 over frames of 0.4, 0.8, 0.2 and 0.6 s: ticks at 0, 0.2 … 1.8 s show frames 0 0 1 1 1 1 2 3 3 3, so 40, 80, 20 and 60 cs")
    func sampledAtARate() throws {
        let made = try timeline([40, 80, 20, 60], timescale: 100, rate: 5)
        #expect(made.entries == [.init(frame: 0, delay: 40), .init(frame: 1, delay: 80), .init(frame: 2, delay: 20), .init(frame: 3, delay: 60)])
        // A tick that falls exactly on a frame's start shows that frame (0.4 s is frame 1's).
        let exact = try timeline([40, 40], timescale: 100, rate: 10)
        #expect(exact.entries == [.init(frame: 0, delay: 40), .init(frame: 1, delay: 40)])
    }

    @Test("opening on frame 1 of three (10, 20, 30 cs): frames 1, 2, 0 for 20, 30, 10 cs")
    func opening() throws {
        let made = try timeline([10, 20, 30], timescale: 100, opening: 1)
        #expect(made.entries == [.init(frame: 1, delay: 20), .init(frame: 2, delay: 30), .init(frame: 0, delay: 10)])
    }

    @Test("refused: no frames, an opening past the last frame, rates of 0 and 51, more ticks than 2^40, more GIF frames than allowed")
    func refusals() throws {
        #expect(throws: GIFTimeline.Refusal.self) { try timeline([], timescale: 600) }
        #expect(throws: GIFTimeline.Refusal.self) { try timeline([10], timescale: 600, opening: 1) }
        #expect(throws: GIFTimeline.Refusal.self) { try timeline([10], timescale: 600, rate: 0) }
        #expect(throws: GIFTimeline.Refusal.self) { try timeline([10], timescale: 600, rate: 51) }
        #expect(throws: GIFTimeline.Refusal.self) { try timeline([UInt32](repeating: .max, count: 300), timescale: 1) }
        // 2^31 s of one frame at 50 a second would be 10^11 GIF frames: refused before any is planned.
        #expect(throws: GIFTimeline.Refusal.self) { try timeline([1 << 31], timescale: 1, rate: 50) }
        #expect(throws: GIFTimeline.Refusal.self) { try timeline([UInt32](repeating: 20, count: 11), timescale: 600, maxFrames: 10) }
    }

    @Test("sizes: 1920×1440 turned a quarter turn at 320 wide is 320×427 (1440/1080 × 320 = 426.7, as FFmpeg's scale=320:-1); 1440×1080 at 480 is 480×360; 100×50 is never enlarged")
    func sizes() {
        #expect(GIFTimeline.frameSize(codedWidth: 1920, codedHeight: 1440, clockwise: 90, width: 320) == (320, 427))
        #expect(GIFTimeline.frameSize(codedWidth: 1440, codedHeight: 1080, clockwise: 0, width: 480) == (480, 360))
        #expect(GIFTimeline.frameSize(codedWidth: 100, codedHeight: 50, clockwise: 180, width: 480) == (100, 50))
    }
}
