import LivePhotoCheck

/// SARIF 2.1.0 for code-scanning UIs: the rules as the driver's rules, findings as results with
/// the file and byte offset.
public enum CheckSARIF: Sendable {
    public static func render(_ report: CheckReport) -> String { document(report).serialized() + "\n" }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    /// A relative URI reference for a path: percent-encodes what URIs do not allow.
    static func uri(_ path: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
        var out = ""
        for byte in path.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80 && allowed.contains(character) {
                out.append(character)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    public static func document(_ report: CheckReport) -> JSONValue {
        let index = Dictionary(uniqueKeysWithValues: report.rules.enumerated().map { ($1.identifier, $0) })
        let rules: [JSONValue] = report.rules.map { rule in
            .object([
                ("id", .string(rule.identifier)),
                ("name", .string(rule.identifier)),
                ("shortDescription", .object([("text", .string(rule.title))])),
                ("fullDescription", .object([("text", .string(rule.rationale))])),
                ("help", .object([("text", .string(rule.fix))])),
                ("defaultConfiguration", .object([("level", .string(level(rule.severity)))])),
                ("properties", .object([("category", .string(rule.category)), ("autofixable", .bool(rule.autofixable))])),
            ])
        }
        let results: [JSONValue] = report.items.flatMap { item in
            item.findings.map { finding in
                var location: [(String, JSONValue)] = [("artifactLocation", .object([("uri", .string(uri(finding.path ?? "")))]))]
                if let offset = finding.offset { location.append(("region", .object([("byteOffset", .int(offset)), ("byteLength", .int(1))]))) }
                var result: [(String, JSONValue)] = [
                    ("ruleId", .string(finding.rule)),
                    ("level", .string(level(finding.severity))),
                    ("message", .object([("text", .string(finding.message))])),
                    ("locations", .array([.object([("physicalLocation", .object(location))])])),
                ]
                if let ruleIndex = index[finding.rule] { result.insert(("ruleIndex", .int(Int64(ruleIndex))), at: 1) }
                if finding.baselined { result.append(("baselineState", .string("unchanged"))) }
                return .object(result)
            }
        }
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([
                ("tool", .object([("driver", .object([
                    ("name", .string(report.tool)), ("version", .string(report.version)),
                    ("rules", .array(rules)),
                ]))])),
                ("results", .array(results)),
            ])])),
        ])
    }
}

