import Foundation
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

    public static func load(path: String) throws -> Configuration {
        guard let data = FileManager.default.contents(atPath: path) else { throw Problem(description: "\(path): cannot read") }
        return try parse(String(decoding: data, as: UTF8.self), source: path)
    }

    public static func parse(_ text: String, source: String = fileName) throws -> Configuration {
        var configuration = Configuration()
        let loaded: Any?
        do {
            loaded = try Yams.load(yaml: text)
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
                guard let number = (value as? Double) ?? (value as? Int).map(Double.init), number > 0 else {
                    throw Problem(description: "\(source): setting '\(key)' must be a positive number")
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
        return configuration
    }

    /// The severity a rule runs at; nil when disabled: as configured, else its own when the
    /// profile reports it.
    public func severity(of rule: RuleDescription) -> Severity? {
        if let configured = severities[rule.identifier] { return configured }
        return profile.reports(rule) ? rule.severity : nil
    }
}
