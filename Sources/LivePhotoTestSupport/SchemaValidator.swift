import Foundation

/// A small JSON Schema validator for the keywords lpcheck's schemas use: type, enum, const,
/// required, properties, items, minimum, $ref (local), oneOf, allOf, if/then.
public struct SchemaValidator {
    let root: Any

    public init(schemaURL: URL) throws {
        root = try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL))
    }

    /// Problems found, each with its JSON pointer; empty when the document is valid.
    public func validate(_ document: Any) -> [String] {
        var problems: [String] = []
        check(document, against: root, at: "", problems: &problems)
        return problems
    }

    public func validate(json data: Data) throws -> [String] {
        validate(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }

    private func resolve(_ reference: String) -> Any? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: Any? = root
        for part in reference.dropFirst(2).split(separator: "/") {
            node = (node as? [String: Any])?[String(part)]
        }
        return node
    }

    private func typeName(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if let number = value as? NSNumber {
            if String(describing: type(of: number)).contains("Boolean") { return "boolean" }
            let code = String(cString: number.objCType)
            return code == "d" || code == "f" ? "number" : "integer"
        }
        if value is String { return "string" }
        if value is [Any] { return "array" }
        if value is [String: Any] { return "object" }
        return "unknown"
    }

    private func matches(_ value: Any, type: String) -> Bool {
        let actual = typeName(value)
        return actual == type || (type == "number" && actual == "integer")
    }

    private func isValid(_ value: Any, _ schema: Any, _ pointer: String) -> Bool {
        var scratch: [String] = []
        check(value, against: schema, at: pointer, problems: &scratch)
        return scratch.isEmpty
    }

    private func check(_ value: Any, against schemaNode: Any, at pointer: String, problems: inout [String]) {
        guard let schema = schemaNode as? [String: Any] else { return }
        if let reference = schema["$ref"] as? String {
            guard let target = resolve(reference) else { problems.append("\(pointer): unresolved \(reference)"); return }
            check(value, against: target, at: pointer, problems: &problems)
        }
        if let type = schema["type"] {
            let allowed = (type as? [String]) ?? [(type as? String) ?? ""]
            if !allowed.contains(where: { matches(value, type: $0) }) {
                problems.append("\(pointer): \(typeName(value)) is not \(allowed.joined(separator: "|"))")
                return
            }
        }
        if let options = schema["enum"] as? [Any] {
            if !options.contains(where: { ($0 as? NSObject)?.isEqual(value) == true }) {
                problems.append("\(pointer): \(value) is not one of \(options)")
            }
        }
        if let constant = schema["const"], (constant as? NSObject)?.isEqual(value) != true {
            problems.append("\(pointer): \(value) is not \(constant)")
        }
        if let minimum = schema["minimum"] as? Double, let number = value as? NSNumber, number.doubleValue < minimum {
            problems.append("\(pointer): \(number) < \(minimum)")
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(pointer): missing required '\(key)'")
            }
            for (key, sub) in schema["properties"] as? [String: Any] ?? [:] {
                if let child = object[key] { check(child, against: sub, at: "\(pointer)/\(key)", problems: &problems) }
            }
        }
        if let array = value as? [Any], let items = schema["items"] {
            for (index, element) in array.enumerated() { check(element, against: items, at: "\(pointer)/\(index)", problems: &problems) }
        }
        if let choices = schema["oneOf"] as? [Any] {
            let passing = choices.filter { isValid(value, $0, pointer) }.count
            if passing != 1 { problems.append("\(pointer): matches \(passing) of oneOf's \(choices.count) schemas") }
        }
        for sub in schema["allOf"] as? [Any] ?? [] { check(value, against: sub, at: pointer, problems: &problems) }
        if let condition = schema["if"], let then = schema["then"], isValid(value, condition, pointer) {
            check(value, against: then, at: pointer, problems: &problems)
        }
    }
}
