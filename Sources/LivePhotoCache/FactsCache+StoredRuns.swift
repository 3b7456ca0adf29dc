import CSQLite
import Foundation
import LivePhotoCheck
import LivePhotoFormats

extension FactsCache {
    /// Takes a run's outputs as they are written, in chunks of about a megabyte, into the open
    /// transaction; `finish` stores the figures and commits, `abandon` (or a failed write) rolls
    /// back. Used from one thread.
    public final class RunRecorder {
        private let cache: FactsCache
        private var insert: OpaquePointer?
        private var buffer: [UInt8] = []
        private var output = 0
        private var failed: Error?
        /// The bytes given to each output so far.
        private var sizes: [Int] = []
        /// Whether the transaction is still to be committed or rolled back.
        private var open = true

        init(cache: FactsCache, insert: OpaquePointer?) {
            self.cache = cache
            self.insert = insert
            buffer.reserveCapacity(Self.chunk + 65536)
        }

        deinit { abandon() }

        static let chunk = 1 << 20

        /// Adds `text` to output number `index` (outputs are written one after another).
        public func append(_ text: String, to index: Int) {
            if index != output { flush() }
            output = index
            if sizes.count <= index { sizes += Array(repeating: 0, count: index + 1 - sizes.count) }
            sizes[index] += text.utf8.count
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= Self.chunk { flush() }
        }

        private func flush() {
            defer { buffer.removeAll(keepingCapacity: true) }
            guard failed == nil, !buffer.isEmpty, let insert else { return }
            // Bound where the bytes are (not copied): stepped before the pointer's scope ends.
            let code = buffer.withUnsafeBytes { raw -> Int32 in
                sqlite3_bind_int64(insert, 1, Int64(output))
                sqlite3_bind_blob(insert, 2, raw.baseAddress, Int32(clamping: raw.count), nil)
                defer { sqlite3_reset(insert); sqlite3_clear_bindings(insert) }
                return sqlite3_step(insert)
            }
            if code != SQLITE_DONE { failed = cache.failure("cannot write", code) }
        }

        /// Stores `run` under `inputs` and commits. Returns what to tell the user.
        public func finish(_ run: StoredRun, inputs: [UInt8]) -> [String] {
            flush()
            sqlite3_finalize(insert)
            insert = nil
            do {
                if let failed { throw failed }
                if sizes.count < run.outputs { sizes += Array(repeating: 0, count: run.outputs - sizes.count) }
                let sizes = self.sizes.map(String.init).joined(separator: " ")
                try cache.lock.withLock {
                    try cache.each("INSERT INTO runs (inputs, outputs, files, pairs, status, sizes) VALUES (?, ?, ?, ?, ?, ?)", "cannot write", [run]) { statement, run in
                        sqlite3_bind_text(statement, 6, sizes, -1, lpcheck_sqlite_transient())
                        sqlite3_bind_blob(statement, 1, inputs, Int32(clamping: inputs.count), lpcheck_sqlite_transient())
                        sqlite3_bind_int64(statement, 2, Int64(run.outputs))
                        sqlite3_bind_int64(statement, 3, Int64(run.files))
                        sqlite3_bind_int64(statement, 4, Int64(run.pairs))
                        sqlite3_bind_int64(statement, 5, Int64(run.status))
                    }
                    try cache.execute("COMMIT")
                }
                open = false
                return []
            } catch {
                abandon()
                return ["cache \(cache.path): this run's outputs were not kept (\(error))"]
            }
        }

        /// Rolls the outputs back (nothing of them is kept); later calls do nothing.
        public func abandon() {
            if let insert { sqlite3_finalize(insert) }
            insert = nil
            guard open else { return }
            open = false
            cache.lock.withLock { try? cache.execute("ROLLBACK") }
        }
    }

    /// Replays the stored run whose inputs are exactly `inputs` (byte for byte): when `accept`
    /// takes its figures, hands `write` each chunk of its outputs in order (the output's index,
    /// the bytes, valid during the call) and returns the run. Nil, and nothing written, when
    /// there is no such run, `accept` declines it or its chunks do not fit its figures (the run
    /// then checks as usual). Throws what `write` throws, or a failure to read a chunk.
    public func replay(inputs: [UInt8], accept: (StoredRun) throws -> Bool, write: (Int, UnsafeRawBufferPointer) throws -> Void) throws -> StoredRun? {
        lock.lock()
        defer { lock.unlock() }
        guard database != nil, (try? execute("BEGIN")) != nil else { return nil }
        // One read transaction: another run's new outputs cannot slip in between the checks
        // and the chunks.
        defer { try? execute("COMMIT") }
        // The chunks must make each output as long as the run said it was, in order: one pass
        // over their lengths (a row no lpcheck wrote may hold any number of them).
        guard let (run, sizes) = try? storedRun(inputs: inputs), run.isPlausible, sizes.count == run.outputs,
              let chunks = try? query("SELECT output, length(bytes) FROM run_chunks ORDER BY sequence", { (Int(sqlite3_column_int64($0, 0)), Int(sqlite3_column_int64($0, 1))) }),
              Self.chunksFit(chunks, sizes: sizes), try accept(run) else { return nil }
        let statement = try prepare("SELECT output, bytes FROM run_chunks ORDER BY sequence")
        defer { sqlite3_finalize(statement) }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW {
            let count = Int(sqlite3_column_bytes(statement, 1))
            let bytes = count > 0 ? sqlite3_column_blob(statement, 1) : nil
            try write(Int(sqlite3_column_int64(statement, 0)), UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
            code = sqlite3_step(statement)
        }
        guard code == SQLITE_DONE else { throw failure("cannot read the stored outputs", code) }
        return run
    }

    /// Whether `chunks` (output index, length, in order) make outputs of exactly `sizes` bytes:
    /// indices within range and never going back, totals equal.
    static func chunksFit(_ chunks: [(output: Int, length: Int)], sizes: [Int]) -> Bool {
        var totals = [Int](repeating: 0, count: sizes.count)
        var last = 0
        for (output, length) in chunks {
            guard output >= last, output < sizes.count, length >= 0 else { return false }
            last = output
            let (sum, overflow) = totals[output].addingReportingOverflow(length)
            guard !overflow else { return false }
            totals[output] = sum
        }
        return totals == sizes
    }

    /// The figures of the stored run with these inputs (compared by SQLite, the inputs bound
    /// where they are, not copied).
    private func storedRun(inputs: [UInt8]) throws -> (StoredRun, sizes: [Int])? {
        let statement = try prepare("SELECT outputs, files, pairs, status, sizes FROM runs WHERE inputs = ?")
        defer { sqlite3_finalize(statement) }
        return inputs.withUnsafeBytes { raw -> (StoredRun, sizes: [Int])? in
            guard raw.count < Int32.max, sqlite3_bind_blob(statement, 1, raw.baseAddress, Int32(raw.count), nil) == SQLITE_OK,
                  sqlite3_step(statement) == SQLITE_ROW else { return nil }
            let sizes = Self.text(statement, 4).split(separator: " ").map { Int($0) ?? -1 }
            return (StoredRun(outputs: Int(sqlite3_column_int64(statement, 0)), files: Int(sqlite3_column_int64(statement, 1)),
                              pairs: Int(sqlite3_column_int64(statement, 2)), status: Int(sqlite3_column_int64(statement, 3))), sizes)
        }
    }

    /// Starts keeping a run's outputs in place of the stored run's (one run is kept: the cache
    /// grows by one run's outputs, not one per run), in one transaction that `RunRecorder.finish`
    /// commits. Throws when the cache cannot be written now (locked by another run past the
    /// wait, read-only): the run is then not kept.
    public func recordRun() throws -> RunRecorder {
        lock.lock()
        defer { lock.unlock() }
        guard database != nil else { throw Failure(code: SQLITE_MISUSE, description: "the cache is closed") }
        try execute("BEGIN IMMEDIATE")
        do {
            try execute("DELETE FROM runs")
            try execute("DELETE FROM run_chunks")
            return RunRecorder(cache: self, insert: try prepare("INSERT INTO run_chunks (output, bytes) VALUES (?, ?)"))
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
