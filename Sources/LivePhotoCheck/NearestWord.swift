/// The word a user probably meant: the nearest of the known words by Levenshtein's distance,
/// within two edits (one for words of three letters or fewer), ties to the first in order.
public enum NearestWord {
    public static func to(_ typed: String, among words: [String]) -> String? {
        let letters = Array(typed.lowercased())
        guard letters.count <= 64 else { return nil }
        let limit = min(2, max(1, letters.count / 2))
        var best: (word: String, distance: Int)?
        for word in words.sorted() {
            let distance = editDistance(letters, Array(word.lowercased()))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (word, distance) }
        }
        return best?.word
    }

    /// " (did you mean X?)" when one is near, else nothing.
    public static func suggestion(_ typed: String, among words: [String]) -> String {
        to(typed, among: words).map { " (did you mean \($0)?)" } ?? ""
    }

    /// Levenshtein's distance between two short words (at most 64 letters each, else Int.max).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard a.count <= 64, b.count <= 64 else { return Int.max }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: b.count)
            for (j, y) in b.enumerated() { current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)) }
            previous = current
        }
        return previous[b.count]
    }
}
