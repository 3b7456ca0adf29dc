import LivePhotoFormats
import LivePhotoCheck

/// SARIF 2.1.0 for code-scanning UIs: the rules as the driver's rules, findings as results with
/// the file and byte offset.
public enum CheckSARIF: Sendable {
    public static func render(_ report: CheckReport) -> String {
        var text = ""
        write(report) { text += $0 }
        return text
    }

    /// Streams the document: the results one at a time (a large library has hundreds of
    /// thousands; the whole document never exists in memory). Same bytes as `document`
    /// serialized.
    public static func write(_ report: CheckReport, to sink: (String) -> Void) {
        guard case .object(let top) = document(report, results: false) else { return }
        func key(_ name: String) -> String { JSONValue.string(name).serialized(indent: nil) + ": " }
        sink("{")
        for (position, (name, value)) in top.enumerated() where name != "runs" {
            sink((position == 0 ? "\n  " : ",\n  ") + key(name) + value.serialized(indent: 1))
        }
        sink(",\n  " + key("runs") + "[\n    {\n      " + key("tool") + tool(report).serialized(indent: 3) + ",\n      " + key("results"))
        let index = ruleIndex(report)
        var first = true
        let items = report.items
        // An item's results joined; the separator before them depends on the items before.
        ParallelPieces.stream(count: items.count, { position in
            items[position].findings.map { result($0, index: index).serialized(indent: 4) }.joined(separator: ",\n        ")
        }, to: { piece in
            guard !piece.isEmpty else { return }
            sink((first ? "[\n        " : ",\n        ") + piece)
            first = false
        })
        sink(first ? "[]" : "\n      ]")
        sink("\n    }\n  ]\n}\n")
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    /// A relative URI reference for a path: percent-encodes what URIs do not allow, over the
    /// name's own bytes (a byte that is not UTF-8, `IMG_\xE9.HEIC`, is `IMG_%E9.HEIC`).
    static func uri(_ path: String) -> String {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
        var out = ""
        for byte in PathBytes.bytes(path) {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80 && allowed.contains(character) {
                out.append(character)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }

    public static func document(_ report: CheckReport) -> JSONValue { document(report, results: true) }

    static func ruleIndex(_ report: CheckReport) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: report.rules.enumerated().map { ($1.identifier, $0) })
    }

    static func tool(_ report: CheckReport) -> JSONValue {
        let rules: [JSONValue] = report.rules.map { rule in
            .object([
                ("id", .string(rule.identifier)),
                ("name", .string(rule.identifier)),
                ("shortDescription", .object([("text", .string(rule.title))])),
                ("fullDescription", .object([("text", .string(rule.rationale))])),
                ("help", .object([("text", .string(rule.fix))])),
                ("defaultConfiguration", .object([("level", .string(level(rule.severity)))])),
                ("properties", .object([("category", .string(rule.category.rawValue)), ("autofixable", .bool(rule.autofixable)),
                                        ("confidence", .string(rule.confidence.rawValue)), ("evidence", CheckJSON.evidence(rule.evidence))])),
            ])
        }
        return .object([("driver", .object([
            ("name", .string(report.tool)), ("version", .string(report.version)),
            ("rules", .array(rules)),
        ]))])
    }

    static func result(_ finding: Finding, index: [String: Int]) -> JSONValue {
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

    /// The document; without `results`, the results array is left empty (for streaming).
    static func document(_ report: CheckReport, results withResults: Bool) -> JSONValue {
        let index = ruleIndex(report)
        let results: [JSONValue] = withResults ? report.items.flatMap { item in item.findings.map { result($0, index: index) } } : []
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([
                ("tool", tool(report)),
                ("results", .array(results)),
            ])])),
        ])
    }
}
