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
        var configuration = Configuration()
        let loaded: Any?
        do {
            guard text.utf8.count <= Limits.bytes else { throw Problem(description: "over \(Limits.bytes / 1024) KiB; a configuration is a few lines") }
            try checkNesting(text)
            guard let node = try Yams.compose(yaml: text) else { return configuration }
            try checkValues(node)
            loaded = Constructor.default.any(from: node)
        } catch let problem as Problem {
            throw Problem(description: "\(source): \(problem.description)")
        } catch {
            throw Problem(description: "\(source): not valid YAML: \(error)")
        }
        guard let root = loaded as? [String: Any] else {
            if loaded == nil { return configuration }
            throw Problem(description: "\(source): expected a mapping at the top level")
        }
        for key in root.keys where !["rules", "exclude", "settings", "failOn", "expect", "profile"].contains(key) {
            throw Problem(description: "\(source): unknown key '\(key)' (expected rules, exclude, settings, failOn, expect, profile)")
        }
        if let profile = root["profile"] {
            guard let value = Target(rawValue: "\(profile)") else { throw Problem(description: "\(source): profile must be photos, wallpaper or google-photos") }
            configuration.profile = value
        }
        if let expect = root["expect"] {
            guard let value = Expectation(rawValue: "\(expect)") else { throw Problem(description: "\(source): expect must be live-photo or motion-photo") }
            configuration.context.expect = value
        }
        if let rules = root["rules"] {
            guard let map = rules as? [String: Any] else { throw Problem(description: "\(source): 'rules' must map rule identifiers to off/info/warning/error") }
            for (identifier, value) in map {
                guard RuleRegistry.rule(identifier) != nil else { throw Problem(description: "\(source): unknown rule '\(identifier)' (see `lpcheck rules`)") }
                let text = (value as? Bool).map { $0 ? "on" : "off" } ?? "\(value)"
                switch text {
                case "off", "false": configuration.severities[identifier] = .some(nil)
                case "on", "true": configuration.severities[identifier] = RuleRegistry.rule(identifier)?.description.severity
                default:
                    guard let severity = Severity(rawValue: text) else {
                        throw Problem(description: "\(source): rule '\(identifier)': '\(text)' is not off, on, info, warning or error")
                    }
                    configuration.severities[identifier] = severity
                }
            }
        }
        if let exclude = root["exclude"] {
            guard let list = exclude as? [Any] else { throw Problem(description: "\(source): 'exclude' must be a list of patterns") }
            configuration.exclude = list.map { "\($0)" }
        }
        if let settings = root["settings"] {
            guard let map = settings as? [String: Any] else { throw Problem(description: "\(source): 'settings' must be a mapping") }
            for (key, value) in map {
                guard let number = (value as? Double) ?? (value as? Int).map(Double.init), number > 0, number.isFinite else {
                    throw Problem(description: "\(source): setting '\(key)' must be a positive finite number")
                }
                switch key {
                case "maxMovieSeconds": configuration.context.maxMovieSeconds = number
                case "frameDurationRatio": configuration.context.frameDurationRatio = number
                case "wallpaperMaxMovieSeconds": configuration.context.wallpaperMaxMovieSeconds = number
                default: throw Problem(description: "\(source): unknown setting '\(key)' (maxMovieSeconds, frameDurationRatio, wallpaperMaxMovieSeconds)")
                }
            }
        }
        if let failOn = root["failOn"] {
            guard let level = FailLevel(rawValue: "\(failOn)") else { throw Problem(description: "\(source): failOn must be error, warning, info or never") }
            configuration.failOn = level
        }
        if let contradiction = configuration.contradiction { throw Problem(description: "\(source): \(contradiction)") }
        return configuration
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
