import LivePhotoFormats

/// What a planned file is written from: a whole file, or one part of a motion photo (its still
/// without the movie, or the movie alone).
public struct LedgerInput: Sendable, Equatable {
    public var path: String
    public var part: Inventory.Part?
    /// The bytes of `path` that are the input (a `.livp`'s member), when not the whole file.
    public var window: Range<Int64>?
    public init(path: String, part: Inventory.Part? = nil, window: Range<Int64>? = nil) { (self.path, self.part, self.window) = (path, part, window) }
}

extension FilePlan {
    /// Compares the planned output, read through its patch before anything is written, with
    /// what it is written from. A file that cannot be inventoried leaves the ledger empty and
    /// says why.
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
            let after = try Inventory.read(source: PatchSource(patch, original: try FileSource(path: path)), path: destination)
            ledger = PreservationLedger(input: before, output: after)
        } catch {
            ledgerProblem = "not compared: \(error)"
        }
    }
}
