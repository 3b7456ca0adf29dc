import LivePhotoFormats

/// What a planned file is written from: a whole file, or one part of a motion photo (its still
/// without the movie, or the movie alone).
public struct LedgerInput: Sendable, Equatable {
    public var path: String
    public var part: Inventory.Part?
    /// The bytes of `path` that are the input (a `.livp`'s member), when not the whole file.
    public var window: Range<Int64>?
    /// How a plan names it, when `path` is a writer's temporary (a GIF's movie, made first).
    public var shownAs: String?
    public init(path: String, part: Inventory.Part? = nil, window: Range<Int64>? = nil) { (self.path, self.part, self.window) = (path, part, window) }
}

extension FilePlan {
    /// Compares the planned output, read through its patch before anything is written, with
    /// what it is written from. A file that cannot be inventoried leaves the ledger empty and
    /// says why.
    /// Whether an input's Content Credentials stop binding in the planned output: the output's
    /// own store (the same bytes copied, or none) and its binding recomputed over the planned bytes.
    static func credentialsLost(_ inputs: [LedgerInput], output: ByteSource, destination: String) throws -> String? {
        for input in inputs {
            let file = try FileSource(path: input.path)
            let source: ByteSource = input.window.map { WindowSource(file, range: $0) } ?? file
            let read = MediaFile.inspect(source: source, path: input.path, options: .check)
            guard let store = try read.credentialsStore(source), let active = store.active else { continue }
            let written = MediaFile.inspect(source: output, path: destination, options: .check)
            let kept = try written.credentialsStore(output)
            let what = "\(input.path) carries Content Credentials (active manifest \(active.label)\(active.signer.map { ", signed by \($0)" } ?? ""))"
            guard let kept, kept.active?.label == active.label else { return "\(what); \(destination) will not carry them" }
            let binding = try kept.binding(source: output)
            if binding.holds == false { return "\(what); in \(destination) they will no longer bind: \(binding.detail)" }
            if binding.holds == nil { return "\(what); whether they still bind in \(destination) is not known: \(binding.detail)" }
        }
        return nil
    }

    mutating func recordLedger(_ inputs: [LedgerInput]) {
        ledgerInputs = inputs
        guard let patch else {
            ledgerProblem = "not compared: the codec helper makes it"
            return
        }
        do {
            var before = Inventory()
            for input in inputs {
                let file = try FileSource(path: input.path)
                let read = try Inventory.read(source: input.window.map { WindowSource(file, range: $0) } ?? file, path: input.path)
                before = before.merging(input.part.map { read.only($0) } ?? read)
            }
            let output = PatchSource(patch, original: try FileSource(path: path))
            let after = try Inventory.read(source: output, path: destination)
            ledger = PreservationLedger(input: before, output: after)
            do {
                credentialsLost = try Self.credentialsLost(inputs, output: output, destination: destination)
            } catch {
                // A store that cannot be read leaves the ledger as it is and says what is not known.
                credentialsLost = "whether the inputs' Content Credentials still bind in \(destination) is not known: \(error)"
            }
        } catch {
            ledgerProblem = "not compared: \(error)"
        }
    }
}
