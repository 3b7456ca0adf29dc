import LivePhotoFormats
import Testing

/// The re-timed orders' sequences and what each costs, counted independently of `ShownFrames`.
struct ShownFramesOrderTests {
    @Test("boomerang: first to last, the last frame held until shown at least 0.25 s, back to the second; a one-tick last frame at 90 kHz is held 1000 showings at most, and every held showing is counted in the cost")
    func boomerang() {
        let thirty = ShownFrames(durations: Array(repeating: 20, count: 30), timescale: 600)
        // 0.25 s of 20-tick frames at 600 a second: 7.5, so 8 showings, 7 of them repeats.
        #expect(thirty.sequence(.boomerang) == Array(0..<30) + Array(repeating: 29, count: 7) + Array((1..<29).reversed()))
        #expect(thirty.decodes(.boomerang) == 60 + 7 && thirty.decodes(.bounce) == 60 && thirty.decodes(.reverse) == 30)
        // A hostile last frame of one tick at 90,000 a second would want 22,500 showings.
        let hostile = ShownFrames(durations: [3000, 3000, 1], timescale: 90_000)
        let sequence = hostile.sequence(.boomerang)
        #expect(sequence.count == 3 + 999 + 1 && sequence.filter { $0 == 2 }.count == 1000)
        #expect(hostile.decodes(.boomerang) == 6 + 999)
        // Two frames: no way back, the turn still held.
        #expect(ShownFrames(durations: [300, 300], timescale: 600).sequence(.boomerang) == [0, 1])
    }
}
