/// Minimal glob matching for exclusion patterns: `*` matches within a path component, `**`
/// across components (`**/` also no folder at all), `?` one character. A pattern without `/`
/// matches any component's name. A pattern comes from a configuration a pull request may
/// bring: runs of stars count as one, and a match walks the name once, carrying every pattern
/// position it may be at as bits (64 positions a machine word; no recursion, no backtracking),
/// so its cost is the name's length times the pattern's in words, whatever the pattern.
public enum Glob {
    public static func matches(_ pattern: String, _ path: String) -> Bool { Set([pattern]).matches(path) }

    /// Patterns compiled once, each distinct one once.
    struct Set: Sendable {
        /// Patterns with a `/`: matched against the whole path (and with `**/` before them).
        var whole: [Pattern] = []
        /// Patterns without: matched against each component's name.
        var names: [Pattern] = []

        init(_ patterns: [String]) {
            var seen = Swift.Set<String>()
            for pattern in patterns where seen.insert(pattern).inserted {
                if pattern.contains("/") {
                    whole.append(Pattern(pattern))
                    whole.append(Pattern("**/" + pattern))
                } else {
                    names.append(Pattern(pattern))
                }
            }
        }

        func matches(_ path: String) -> Bool {
            if !names.isEmpty {
                for component in path.split(separator: "/") {
                    let text = Array(component.unicodeScalars)
                    if names.contains(where: { $0.matches(text) }) { return true }
                }
            }
            guard !whole.isEmpty else { return false }
            let trimmed = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
            let text = Array(trimmed.unicodeScalars)
            return whole.contains { $0.matches(text) }
        }
    }

    /// A pattern as an automaton of positions 0...n (n: all tokens matched), run bit-parallel.
    struct Pattern: Sendable {
        enum Token: Equatable {
            case character(Unicode.Scalar)
            case one
            case star
            case anything
            /// Before a `**/`: reached, it may skip the three (no folder at all); it takes no
            /// character, so it is only ever active where `**` has matched nothing yet.
            case folders
        }
        let count: Int
        let words: Int
        /// Positions a character moves on from: by literal character, `?` (any but `/`).
        var literal: [Unicode.Scalar: [UInt64]] = [:]
        var one: [UInt64]
        /// Positions that stay on a character: `*` (any but `/`), `**` (any).
        var star: [UInt64], anything: [UInt64]
        /// Positions reached with no character: past a star or into `**/` (1 on), past a whole
        /// `**/` from its entry (3 on).
        var skipOne: [UInt64], skipThree: [UInt64]

        init(_ text: String) {
            var tokens: [Token] = []
            let scalars = Array(text.unicodeScalars)
            var at = 0
            while at < scalars.count {
                if scalars[at] == "*" {
                    var run = 0
                    while at < scalars.count && scalars[at] == "*" { run += 1; at += 1 }
                    if run >= 2, at < scalars.count, scalars[at] == "/" { tokens.append(.folders) }
                    tokens.append(run >= 2 ? .anything : .star)
                    continue
                }
                tokens.append(scalars[at] == "?" ? .one : .character(scalars[at]))
                at += 1
            }
            count = tokens.count
            words = (count + 1 + 63) / 64
            let empty = [UInt64](repeating: 0, count: words)
            (one, star, anything, skipOne, skipThree) = (empty, empty, empty, empty, empty)
            for (index, token) in tokens.enumerated() {
                let (word, bit) = (index / 64, UInt64(1) << UInt64(index % 64))
                switch token {
                case .character(let scalar): literal[scalar, default: empty][word] |= bit
                case .one: one[word] |= bit
                case .star:
                    star[word] |= bit
                    skipOne[word] |= bit
                case .anything:
                    anything[word] |= bit
                    skipOne[word] |= bit
                case .folders:
                    skipOne[word] |= bit
                    skipThree[word] |= bit
                }
            }
        }

        func matches(_ text: [Unicode.Scalar]) -> Bool {
            // Four rows of `words` each, allocated once a match: the states, the positions that
            // move on, those that stay, and the closure's step.
            let buffer = UnsafeMutablePointer<UInt64>.allocate(capacity: 4 * words)
            defer { buffer.deallocate() }
            buffer.initialize(repeating: 0, count: 4 * words)
            let (states, moving, staying, step) = (buffer, buffer + words, buffer + 2 * words, buffer + 3 * words)
            let none = [UInt64](repeating: 0, count: words)
            states[0] = 1
            close(states, step)
            for character in text {
                let slash = character == "/"
                let moves = literal[character] ?? none
                var any: UInt64 = 0
                for index in 0..<words {
                    moving[index] = (moves[index] | (slash ? 0 : one[index])) & states[index]
                    staying[index] = (anything[index] | (slash ? 0 : star[index])) & states[index]
                }
                // Moved positions go one on; with those that stayed they are the new states.
                var carry: UInt64 = 0
                for index in 0..<words {
                    let word = moving[index]
                    states[index] = word << 1 | carry | staying[index]
                    carry = word >> 63
                    any |= states[index]
                }
                guard any != 0 else { return false }
                close(states, step)
            }
            let (word, bit) = (count / 64, UInt64(1) << UInt64(count % 64))
            return states[word] & bit != 0
        }

        /// Adds the positions reached with no character (one on past a star or into `**/`,
        /// three on past a whole `**/`), until nothing more is added.
        func close(_ states: UnsafeMutablePointer<UInt64>, _ step: UnsafeMutablePointer<UInt64>) {
            while true {
                var carryOne: UInt64 = 0, carryThree: UInt64 = 0
                var changed = false
                for index in 0..<words {
                    let one = states[index] & skipOne[index], three = states[index] & skipThree[index]
                    step[index] = one << 1 | carryOne | three << 3 | carryThree
                    carryOne = one >> 63
                    carryThree = three >> 61
                }
                for index in 0..<words where step[index] & ~states[index] != 0 {
                    states[index] |= step[index]
                    changed = true
                }
                if !changed { return }
            }
        }
    }
}
