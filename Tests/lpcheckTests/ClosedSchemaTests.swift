import Foundation
import LivePhotoTestSupport
import Testing

/// Every published schema is closed: a stray field in any object of a real document (check,
/// scan, dump, convert, make and export, run on our samples and the shared ones) fails
/// validation, so a renamed or invented field cannot slip through "validates against the
/// schema". The objects left open on purpose (free-form values: XMP, sample descriptions, ilst
/// values, EXIF entries, and whatever they hold) are named in one set, and the test holds that
/// set to what it finds.
@Suite(.serialized, .enabled(if: Locations.lpcheckBinary != nil, "lpcheck is not built"))
struct ClosedSchemaTests {
    /// Objects whose schema lists no properties: their content is whatever the file holds.
    /// Paths with array indices as `*`.
    static let openOnPurpose: Set<String> = [
        "dump:/*/xmp", "dump:/*/tracks/*/references", "dump:/*/tracks/*/sampleDescriptions/*",
        "dump:/*/tracks/*/timedMetadata/*", "dump:/*/segments/*", "dump:/*/items/*", "dump:/*/references/*",
        "dump:/*/exif/*", "dump:/*/makerApple/entries/*/value", "dump:/*/userData/*",
        // A motion photo's embedded movie: the same objects as a movie's, left open alike.
        "dump:/*/embeddedMovie/tracks/*/references", "dump:/*/embeddedMovie/tracks/*/sampleDescriptions/*", "dump:/*/embeddedMovie/userData/*",
    ]

    /// Whether a path lies in an object left open (objects inside it are the file's too).
    static func isOpenOnPurpose(_ name: String) -> Bool {
        openOnPurpose.contains { name == $0 || name.hasPrefix($0 + "/") }
    }

    func lpcheck(_ arguments: [String]) throws -> ProcessResult {
        try ProcessResult.run(try #require(Locations.lpcheckBinary).path, arguments, timeout: 300)
    }

    /// A JSON path: keys, and array positions.
    enum Step: Hashable { case key(String), index(Int) }

    /// Every object in a document with its path, walked without recursion.
    static func objects(in document: Any) -> [[Step]] {
        var found: [[Step]] = [], pending: [(Any, [Step])] = [(document, [])]
        while let (node, path) = pending.popLast() {
            if let object = node as? [String: Any] {
                found.append(path)
                pending += object.sorted { $0.key > $1.key }.map { ($0.value, path + [.key($0.key)]) }
            } else if let array = node as? [Any] {
                pending += array.enumerated().reversed().map { ($0.element, path + [.index($0.offset)]) }
            }
        }
        return found
    }

    /// The document with `"strayField": {"stray": true}` added to the object at `path` (an object
    /// value, so that a map of strings or numbers refuses it too).
    static func adding(to document: Any, at path: [Step]) -> Any {
        guard let step = path.first else {
            var object = document as? [String: Any] ?? [:]
            object["strayField"] = ["stray": true]
            return object
        }
        switch step {
        case .key(let key):
            var object = document as? [String: Any] ?? [:]
            object[key] = adding(to: object[key] as Any, at: Array(path.dropFirst()))
            return object
        case .index(let index):
            var array = document as? [Any] ?? []
            array[index] = adding(to: array[index], at: Array(path.dropFirst()))
            return array
        }
    }

    static func pattern(_ path: [Step]) -> String {
        "/" + path.map { step in
            switch step {
            case .key(let key): key
            case .index: "*"
            }
        }.joined(separator: "/")
    }

    /// For each schema: the documents (dump's a file at a time, scan's a record at a time), each
    /// object path sabotaged once where first met; answers which paths let the stray through.
    func strayAccepted(schema: String, units: [Any]) throws -> (checked: Int, accepted: Set<String>) {
        var seen = Set<String>(), sabotaged: [(String, Data)] = []
        for unit in units {
            for path in Self.objects(in: unit) {
                let name = "\(schema):" + Self.pattern(path)
                guard seen.insert(name).inserted else { continue }
                sabotaged.append((name, try JSONSerialization.data(withJSONObject: Self.adding(to: unit, at: path))))
            }
        }
        let validator = try SchemaValidator(schemaURL: Locations.reports.appendingPathComponent("\(schema).schema.json"))
        let clean = try validator.validate(documents: try units.map { try JSONSerialization.data(withJSONObject: $0) })
        let failing = clean.filter { !$0.isEmpty }
        #expect(failing.isEmpty, "\(schema): the documents as written fail: \(failing.prefix(3))")
        let answers = try validator.validate(documents: sabotaged.map(\.1))
        var accepted = Set<String>()
        for ((name, _), problems) in zip(sabotaged, answers) where problems.isEmpty { accepted.insert(name) }
        return (sabotaged.count, accepted)
    }

    func json(_ result: ProcessResult, _ what: String) throws -> Any {
        try #require(try? JSONSerialization.jsonObject(with: result.stdout), "\(what) wrote no JSON: \(result.stderr)")
    }

    @Test("a stray field in any object of a real check, scan, dump, convert, make or export document fails its schema; only the free-form objects named accept it")
    func strayFieldsFail() throws {
        let samples = Locations.samples
        let media = (try FileManager.default.contentsOfDirectory(at: samples, includingPropertiesForKeys: nil)).filter { !$0.hasDirectoryPath && $0.pathExtension != "py" }
        let shared = SharedSamples.mediaFiles()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-closed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var units: [String: [Any]] = [:]

        units["check"] = [try json(try lpcheck(["check", samples.path, "--format", "json"]), "check")]
        let scan = try lpcheck(["scan"] + ([samples] + shared).map(\.path))
        units["facts"] = try scan.text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
        let dumped = (try json(try lpcheck(["dump", "--format", "json"] + (media + shared).map(\.path)), "dump") as? [Any]) ?? []
        #expect(dumped.count == media.count + shared.count)
        units["dump"] = dumped.map { [$0] }
        let pair = ["camera-pair.jpg", "camera-pair.mov"].map { samples.appendingPathComponent($0).path }
        let made = try lpcheck(["make"] + pair + ["-o", folder.appendingPathComponent("made").path, "--format", "json"])
        units["make"] = [try json(made, "make")]
        let converted = try lpcheck(["convert", samples.path, "--to", "motion-photo", "-o", folder.appendingPathComponent("converted").path, "--format", "json"])
        units["convert"] = [try json(converted, "convert")]
        let exported = try lpcheck(["export", pair[1], "--as", "loop", "-o", folder.appendingPathComponent("exported").path, "--format", "json"])
        units["export"] = [try json(exported, "export")]

        var accepted = Set<String>()
        for (schema, documents) in units.sorted(by: { $0.key < $1.key }) {
            let answer = try strayAccepted(schema: schema, units: documents)
            #expect(answer.checked >= 2, "\(schema): only \(answer.checked) objects met")
            accepted.formUnion(answer.accepted)
        }
        let unexpected = accepted.filter { !Self.isOpenOnPurpose($0) }
        #expect(unexpected.isEmpty, "stray fields accepted in \(unexpected.sorted())")
        // Every name in the set is an object met and left open: a name that no document reaches,
        // or that its schema closes, leaves the set.
        #expect(Self.openOnPurpose.subtracting(accepted).isEmpty, "named open but not met open: \(Self.openOnPurpose.subtracting(accepted).sorted())")
    }
}
