import Foundation
import LivePhotoFormats
import Yams

/// `.lpcheck.yml`: which rules run, at which severity, which paths are left out, and the rules'
/// settings. Unknown rule identifiers and unknown keys are errors, so a typo never disables a gate.
///
/// ```yaml
/// rules:
///   movie-too-long: off          # off, info, warning or error
///   identifier-not-canonical: info
/// exclude:
///   - "**/exports/**"
/// settings:
///   maxMovieSeconds: 10
///   frameDurationRatio: 4
/// failOn: warning               # error (default), warning, info or never
/// expect: live-photo            # every item a Live Photo pair (or motion-photo); see unexpected-item
/// profile: wallpaper            # photos (default), wallpaper or google-photos
/// ```
public struct Configuration: Sendable {
    /// Severity per rule; nil disables the rule.
    public var severities: [String: Severity?] = [:]
    public var exclude: [String] = []
    /// `--include` (and quoted globs given as paths): a walk keeps only the files matching one.
    public var include: [String] = []
    public var context = RuleContext()
    public var failOn: FailLevel?
    /// The target the check is for: which rules it reports (`Target.reports`).
    public var profile = Target.photos

    public init() {}

    public enum FailLevel: String, Sendable, CaseIterable {
        case error, warning, info, never

        public var threshold: Severity? {
            switch self {
            case .error: return .error
            case .warning: return .warning
            case .info: return .info
            case .never: return nil
            }
        }
    }

    public struct Problem: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public static let fileName = ".lpcheck.yml"

    /// A configuration's limits, checked before anything is expanded (a CI runner may read one
    /// from any pull request): its size, its nesting on a line and in flow brackets (the YAML
    /// reader nests a call per level), and the values it holds once aliases are followed (a
    /// 400-byte file of anchors and aliases stands for billions).
    public enum Limits {
        public static let bytes = 64 << 10
        public static let nesting = 32
        public static let values = 10_000
        /// The longest exclude pattern, and the most patterns (each is matched against every
        /// path the walk finds).
        public static let patternLength = 1_024
        public static let patterns = 1_000
    }

    public static func load(path: String) throws -> Configuration {
        let handle = PathBytes.open(path, O_RDONLY)
        guard handle >= 0 else { throw Problem(description: "\(path): cannot read: \(String(cString: strerror(errno)))") }
        defer { close(handle) }
        var bytes = [UInt8](repeating: 0, count: Limits.bytes + 1)
        var count = 0
        while count < bytes.count {
            let room = bytes.count - count
            let got = bytes.withUnsafeMutableBytes { read(handle, $0.baseAddress.map { $0 + count }, room) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw Problem(description: "\(path): cannot read: \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            count += got
        }
        guard count <= Limits.bytes else { throw Problem(description: "\(path): over \(Limits.bytes / 1024) KiB; a configuration is a few lines") }
        return try parse(String(decoding: bytes.prefix(count), as: UTF8.self), source: path)
    }

    public static func parse(_ text: String, source: String = fileName) throws -> Configuration {
        do {
            guard text.utf8.count <= Limits.bytes else { throw Problem(description: "over \(Limits.bytes / 1024) KiB; a configuration is a few lines") }
            try checkNesting(text)
            let node: Node?
            do {
                node = try Yams.compose(yaml: text)
            } catch {
                throw Problem(description: "not valid YAML: \(error)")
            }
            guard let node else { return Configuration() }
            try checkValues(node)
            let configuration = try configurationOf(node)
            if let contradiction = configuration.contradiction { throw Problem(description: contradiction) }
            return configuration
        } catch let problem as Problem {
            throw Problem(description: "\(source): \(problem.description)")
        }
    }

    /// The configuration a composed document states, read from its nodes (no conversion to Swift
    /// values by Yams, whose constructor traps on a key that is not a scalar): a mapping of the
    /// known keys, each value of the shape it must have. A key given twice: the later value.
    static func configurationOf(_ node: Node) throws -> Configuration {
        var configuration = Configuration()
        guard case .mapping(let root) = node else { throw Problem(description: "expected a mapping at the top level") }
        // Every problem is said at once, each with the nearest known name where one is near.
        var problems: [String] = []
        for (keyNode, value) in root {
            do {
                try readKey(keyNode, value, into: &configuration, problems: &problems)
            } catch let problem as Problem {
                problems.append(problem.description)
            }
        }
        switch problems.count {
        case 0: return configuration
        case 1: throw Problem(description: problems[0])
        default: throw Problem(description: "\(problems.count) problems:\n" + problems.map { "  - " + $0 }.joined(separator: "\n"))
        }
    }

    static let keys = ["rules", "exclude", "settings", "failOn", "expect", "profile"]
    static let settingNames = ["maxMovieSeconds", "frameDurationRatio", "wallpaperMaxMovieSeconds"]

    /// One top-level key's value read into `configuration`; a rule's problem is added to
    /// `problems` and the others read on.
    static func readKey(_ keyNode: Node, _ value: Node, into configuration: inout Configuration, problems: inout [String]) throws {
        let key = try name(keyNode)
        switch key {
        case "profile":
            guard let value = scalar(value).flatMap(Target.init(rawValue:)) else { throw Problem(description: "profile must be \(Target.sentence)") }
            configuration.profile = value
        case "expect":
            guard let value = scalar(value).flatMap(Expectation.init(rawValue:)) else { throw Problem(description: "expect must be live-photo or motion-photo") }
            configuration.context.expect = value
        case "failOn":
            guard let level = scalar(value).flatMap(FailLevel.init(rawValue:)) else {
                throw Problem(description: "failOn must be error, warning, info or never\(scalar(value).map { NearestWord.suggestion($0, among: FailLevel.allCases.map(\.rawValue)) } ?? "")")
            }
            configuration.failOn = level
        case "rules":
            guard case .mapping(let map) = value else { throw Problem(description: "'rules' must map rule identifiers to off/info/warning/error") }
            for (identifierNode, value) in map {
                do {
                    try readRule(identifierNode, value, into: &configuration)
                } catch let problem as Problem {
                    problems.append(problem.description)
                }
            }
        case "exclude":
            guard case .sequence(let list) = value else { throw Problem(description: "'exclude' must be a list of patterns") }
            guard list.count <= Limits.patterns else { throw Problem(description: "'exclude' lists \(list.count) patterns, more than the \(Limits.patterns) lpcheck matches") }
            configuration.exclude = try list.map { item in
                guard let pattern = scalar(item) else { throw Problem(description: "'exclude' must be a list of patterns") }
                guard pattern.unicodeScalars.count <= Limits.patternLength else {
                    throw Problem(description: "an 'exclude' pattern of \(pattern.unicodeScalars.count) characters, more than the \(Limits.patternLength) lpcheck matches")
                }
                return pattern
            }
        case "settings":
            guard case .mapping(let map) = value else { throw Problem(description: "'settings' must be a mapping") }
            for (settingNode, value) in map {
                let setting = try name(settingNode)
                guard case .scalar(let text) = value, let number = Double.construct(from: text), number > 0, number.isFinite else {
                    throw Problem(description: "setting '\(setting)' must be a positive finite number")
                }
                switch setting {
                case "maxMovieSeconds": configuration.context.maxMovieSeconds = number
                case "frameDurationRatio": configuration.context.frameDurationRatio = number
                case "wallpaperMaxMovieSeconds": configuration.context.wallpaperMaxMovieSeconds = number
                default: throw Problem(description: "unknown setting '\(setting)'\(NearestWord.suggestion(setting, among: settingNames)) (\(settingNames.joined(separator: ", ")))")
                }
            }
        default:
            throw Problem(description: "unknown key '\(key)'\(NearestWord.suggestion(key, among: keys)) (expected \(keys.joined(separator: ", ")))")
        }
    }

    /// One entry of `rules`: a known identifier and off, on or a severity.
    static func readRule(_ identifierNode: Node, _ value: Node, into configuration: inout Configuration) throws {
        let identifier = try name(identifierNode)
        guard let rule = RuleRegistry.rule(identifier) else {
            throw Problem(description: "unknown rule '\(identifier)'\(NearestWord.suggestion(identifier, among: RuleRegistry.descriptions.map(\.identifier))) (see `lpcheck rules`)")
        }
        guard case .scalar(let level) = value else { throw Problem(description: "rule '\(identifier)': give off, on, info, warning or error") }
        let text = Bool.construct(from: level).map { $0 ? "on" : "off" } ?? level.string
        switch text {
        case "off": configuration.severities[identifier] = .some(nil)
        case "on": configuration.severities[identifier] = rule.description.severity
        default:
            guard let severity = Severity(rawValue: text) else {
                throw Problem(description: "rule '\(identifier)': '\(text)' is not off, on, info, warning or error")
            }
            configuration.severities[identifier] = severity
        }
    }

    /// A mapping key: a scalar (a sequence or mapping as a key, YAML's `? [a]: b`, is refused).
    static func name(_ node: Node) throws -> String {
        guard case .scalar(let scalar) = node else { throw Problem(description: "a key that is not a plain name") }
        return scalar.string
    }

    /// A scalar's text; nil for a sequence or a mapping.
    static func scalar(_ node: Node) -> String? {
        guard case .scalar(let scalar) = node else { return nil }
        return scalar.string
    }

    /// Settings that cannot hold together, said as an error rather than taken silently: an
    /// expectation whose rule is turned off would pass every item it is there to refuse.
    public var contradiction: String? {
        if let expect = context.expect, let severity = severities[UnexpectedItem.description.identifier], severity == nil {
            return "expect: \(expect.rawValue) needs the rule \(UnexpectedItem.description.identifier), which is turned off"
        }
        return nil
    }

    /// Refuses text that nests deeper than `Limits.nesting` on one line (`- - -`, `? ? ?`, by
    /// indentation) or in flow brackets, counted over the bytes (quotes and comments included: a
    /// bracket there only counts against the file).
    static func checkNesting(_ text: String) throws {
        var flow = 0
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == UInt8(ascii: " ") }.count
            var indicators = 0
            var previous: UInt8 = UInt8(ascii: " ")
            for byte in line {
                switch byte {
                case UInt8(ascii: "["), UInt8(ascii: "{"): flow += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"): flow = max(0, flow - 1)
                case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"): if previous == UInt8(ascii: " ") { indicators += 1 }
                default: break
                }
                guard flow <= Limits.nesting else { throw Problem(description: "nested deeper than \(Limits.nesting) brackets") }
                previous = byte
            }
            guard indent / 2 + indicators <= Limits.nesting * 2 else { throw Problem(description: "nested deeper than \(Limits.nesting) levels on a line") }
        }
    }

    /// Refuses a document of more than `Limits.values` values once its aliases are followed,
    /// counting without expanding anything (the reader shares an alias's node).
    static func checkValues(_ root: Node) throws {
        var pending = [root]
        var seen = 0
        while let node = pending.popLast() {
            seen += 1
            guard seen <= Limits.values else {
                throw Problem(description: "more than \(Limits.values) values once its aliases are followed (anchors and aliases that multiply are refused)")
            }
            switch node {
            case .mapping(let mapping):
                for (key, value) in mapping { pending.append(key); pending.append(value) }
            case .sequence(let sequence):
                pending.append(contentsOf: sequence)
            case .scalar, .alias:
                break
            }
        }
    }

    /// The severity a rule runs at; nil when disabled: as configured, else its own when the
    /// profile reports it.
    public func severity(of rule: RuleDescription) -> Severity? {
        if let configured = severities[rule.identifier] { return configured }
        return profile.reports(rule) ? rule.severity : nil
    }
}
