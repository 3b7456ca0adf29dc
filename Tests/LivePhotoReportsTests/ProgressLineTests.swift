import LivePhotoReports
import Testing

/// The progress line: it never goes back when counts arrive out of order, and past two seconds
/// it says the rate and what is left, figures a reader can check by hand.
struct ProgressLineTests {
    @Test("counts arriving out of order (1 %, 0 %, 1 %, 2 %) never move the percent back: the late lower counts draw nothing")
    func neverBackwards() {
        var line = ProgressLine()
        var shown: [String] = []
        for (done, at) in [(3, 0.0), (0, 0.1), (2, 0.2), (3, 0.3), (7, 0.4)] {
            if let text = line.text(done: done, total: 300, noun: "files", now: at) { shown.append(text) }
        }
        #expect(shown.count == 2, "\(shown)")
        #expect(shown.first?.contains("1% 3/300 files") == true && shown.last?.contains("2% 7/300 files") == true, "\(shown)")
        // A total too small to be worth a bar draws none.
        var small = ProgressLine()
        #expect(small.text(done: 10, total: 49, noun: "files", now: 0) == nil)
    }

    @Test("past two seconds the line gives the rate and the time left: 200 of 1,000 files in 4 s is 50/s and 16 s left; at 1 s it gives neither")
    func rateAndTimeLeft() {
        var line = ProgressLine()
        _ = line.text(done: 0, total: 1000, noun: "files", now: 100)
        let early = line.text(done: 100, total: 1000, noun: "files", now: 101)
        #expect(early?.contains("/s") == false, "\(early ?? "")")
        let later = line.text(done: 200, total: 1000, noun: "files", now: 104)
        #expect(later?.hasSuffix("20% 200/1000 files, 50/s, about 16 s left") == true, "\(later ?? "")")
    }
}
