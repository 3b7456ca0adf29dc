import Foundation

/// An access key, its secret and an optional session token, found where the AWS tools look:
/// `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`/`AWS_SESSION_TOKEN`, else the profile
/// (`AWS_PROFILE`, default `default`) of the shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`,
/// default `~/.aws/credentials`).
public struct S3Credentials: Sendable, Equatable {
    public var accessKey: String
    public var secretKey: String
    public var sessionToken: String?

    public init(accessKey: String, secretKey: String, sessionToken: String? = nil) {
        (self.accessKey, self.secretKey, self.sessionToken) = (accessKey, secretKey, sessionToken)
    }

    /// The credentials file is read only when it is at most this large.
    static let maxFileSize = 1 << 20

    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> S3Credentials? {
        if let key = environment["AWS_ACCESS_KEY_ID"], !key.isEmpty, let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty {
            return S3Credentials(accessKey: key, secretKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
        }
        let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        guard let file = sharedFile(environment["AWS_SHARED_CREDENTIALS_FILE"], environment: environment, name: "credentials"),
              let section = iniSections(file)[profile],
              let key = section["aws_access_key_id"], let secret = section["aws_secret_access_key"] else { return nil }
        return S3Credentials(accessKey: key, secretKey: secret, sessionToken: section["aws_session_token"])
    }

    /// The region: `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region` in `~/.aws/config`
    /// (`AWS_CONFIG_FILE`), else us-east-1.
    public static func region(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        for name in ["AWS_REGION", "AWS_DEFAULT_REGION"] { if let value = environment[name], !value.isEmpty { return value } }
        let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        if let file = sharedFile(environment["AWS_CONFIG_FILE"], environment: environment, name: "config") {
            let sections = iniSections(file)
            if let region = (sections[profile == "default" ? "default" : "profile \(profile)"] ?? sections[profile])?["region"] { return region }
        }
        return "us-east-1"
    }

    static func sharedFile(_ named: String?, environment: [String: String], name: String) -> String? {
        let path: String
        if let named, !named.isEmpty {
            path = named
        } else {
            guard let home = environment["HOME"], !home.isEmpty else { return nil }
            path = home + "/.aws/" + name
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber, size.intValue <= maxFileSize,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `[section]` headers and `name = value` lines; `#` and `;` start comments.
    static func iniSections(_ text: String) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            sections[current, default: [:]][name] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        return sections
    }
}
