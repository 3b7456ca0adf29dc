import Foundation
import LivePhotoFormats

/// How the agreement rules compare what a still and its movie say of one capture, with the
/// tolerances measured on the real camera pairs of `../shared/samples` (ExifTool readings of
/// apple.HEIC/MOV, train.jpg/mov, IMG_3853.HEIC/MOV, henteko's test.JPG/mov).
enum CaptureAgreement {
    /// Still minus movie, in seconds, that a camera pair may show: the movie starts 0.75–1.8 s
    /// before the still in every camera pair (its Keys date is written in whole seconds); the
    /// window leaves two seconds either side for writers that round or stamp the still's time.
    static let window: ClosedRange<Double> = -2...5
    /// `mvhd` is a weak witness: 4 min 36 s after its still in an unedited camera file
    /// (IMG_3853.MOV), while its Keys date agrees to the second.
    static let headerWindow: ClosedRange<Double> = -600...600
    /// The widest zone offsets in use: ±14 h.
    static let widestZone: Double = 14 * 3_600
    /// GPS of a still and its movie agreed within 3 m in every camera pair (the movie's
    /// ISO 6709 text has four decimals, about 10 m); a hundred metres is another place.
    static let placeTolerance: Double = 100
    /// Displayed aspect ratios (width / height) more than this apart, relatively, differ.
    static let aspectTolerance = 0.03

    enum Time: Equatable {
        /// The instants agree within the window (modulo a zone when one side has none).
        case agree
        /// The same instant written in two zones (both known).
        case otherZone
        /// Still minus movie in seconds, beyond the window (modulo any zone when one is unknown).
        case differ(Double)
    }

    /// Compares two capture times. With both zones known, instants; with neither, the clocks
    /// (one camera's clock); with one, the instants modulo whole quarter hours up to ±14 h (the
    /// zone the other side leaves out), so only what no zone explains differs.
    static func compare(still: CaptureTime, movie: CaptureTime, window: ClosedRange<Double>) -> Time {
        let delta = (still.instant ?? still.clock) - (movie.instant ?? movie.clock)
        switch (still.offset, movie.offset) {
        case let (stillZone?, movieZone?):
            guard window.contains(delta) else { return .differ(delta) }
            return stillZone == movieZone ? .agree : .otherZone
        case (nil, nil):
            return window.contains(delta) ? .agree : .differ(delta)
        default:
            return agreesModuloZone(delta, window: window) ? .agree : .differ(delta)
        }
    }

    /// Whether `delta` is a whole number of quarter hours (at most 14 h) from the window.
    static func agreesModuloZone(_ delta: Double, window: ClosedRange<Double>) -> Bool {
        let middle = (window.lowerBound + window.upperBound) / 2
        let quarters = ((delta - middle) / 900).rounded()
        return abs(quarters * 900) <= widestZone && window.contains(delta - quarters * 900)
    }

    /// A time difference in words: "1 d 0 h", "4 h 30 min", "4 min 36 s", "12.3 s".
    static func span(_ seconds: Double) -> String {
        let value = abs(seconds)
        guard value.isFinite else { return "an unknown time" }
        let whole = Int(min(value, 1e12).rounded(.down))
        if value >= 86_400 { return "\(whole / 86_400) d \(whole % 86_400 / 3_600) h" }
        if value >= 3_600 { return "\(whole / 3_600) h \(whole % 3_600 / 60) min" }
        if value >= 60 { return "\(whole / 60) min \(whole % 60) s" }
        return SecondsText.format(value, decimals: 1) + " s"
    }

    /// "before" or "after": where the movie's time lies against the still's.
    static func movieSide(_ stillMinusMovie: Double) -> String { stillMinusMovie >= 0 ? "before" : "after" }

    /// A zone offset as written in EXIF: `+13:00`.
    static func zone(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        let minutes = magnitude / 60 % 60, hours = magnitude / 3_600
        return (seconds < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }

    /// Great-circle distance in metres (haversine, mean Earth radius).
    static func distance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let radius = 6_371_008.8
        func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
        let dLat = radians(b.0 - a.0), dLon = radians(b.1 - a.1)
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(radians(a.0)) * cos(radians(b.0)) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * radius * asin(min(1, sqrt(h)))
    }

    enum Shape: String { case portrait, landscape, square }

    /// Portrait or landscape as shown; square within 5%.
    static func shape(_ size: PixelSize) -> Shape {
        let width = Double(size.width), height = Double(size.height)
        if height > width * 1.05 { return .portrait }
        if width > height * 1.05 { return .landscape }
        return .square
    }

    static func text(_ size: PixelSize) -> String { "\(size.width)×\(size.height)" }

    /// How a shown size came about: "4284×5712 (5712×4284 as stored, its sides exchanged by irot)".
    static func shown(_ capture: CaptureFacts, by what: String) -> String {
        guard let shown = capture.displayedSize, let stored = capture.size else { return "" }
        let turns = capture.quarterTurns ?? 0
        // A quarter count also stands for a mirrored orientation (Exif 2, 4, 5, 7; a mirrored
        // track matrix): the text says what the count knows, the shape, not the turn.
        return turns == 0 ? text(shown) : "\(text(shown)) (\(text(stored)) as stored, \(turns % 2 == 1 ? "its sides exchanged" : "turned or mirrored") by \(what))"
    }
}
