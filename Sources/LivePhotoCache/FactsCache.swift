import CSQLite
import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// The facts of earlier runs in an SQLite file (`--cache FILE`). A file whose path, device,
/// inode, size and change times are those stored is not read again. The facts of the whole
/// table are loaded once (one sequential scan, when the checker first asks: `load()`), hits are
/// decoded on the checker's threads, and this run's new facts are written in one transaction at
/// the end, with the rows of files gone from the walked roots removed. Thumbnails are asked for
/// one by one (the cards of a page).
///
/// Beside the facts, the outputs of the last run that read no file (`StoredRun`), under the
/// exact bytes of everything they depend on (`RunInputs`): a run with the same inputs writes
/// them again without loading a row.
///
/// Never trusted when in doubt: a cache written by another lpcheck build is emptied; a damaged
/// one (not a database, corrupt) is deleted and made anew; a locked one is read if it can be and
/// otherwise bypassed. Each of these says so in `notes`. Two runs on one cache are safe: SQLite's
/// WAL journal lets readers go on while one writer commits, and writers wait for each other.
public final class FactsCache: FactsStore, @unchecked Sendable {
    /// What this build writes; another value in a cache empties it. Its layout part is a hash of
    /// the compact coding of `Example.everyField()` (no field at its default, as
    /// `CompactCoderTests` holds), so a field added to the facts and their coder changes it with
    /// no number to raise; the number is raised by hand only when a field keeps its place and
    /// changes its meaning (9: a mirrored track matrix counts its quarter turns; 10: a
    /// fragmented movie's samples are read from its fragments).
    public static let format = "lpcheck-facts-cache 11 (FileFacts field by field; thumbnails apart; the last unchanged run's outputs) layout "
        + layoutHash(CompactCoder.encode(Example.everyField()))

    /// FNV-1a, 64 bits, in hex: a fingerprint of the coder's layout, not a secret.
    static func layoutHash(_ bytes: [UInt8]) -> String {
        String(FNV1a.of(bytes), radix: 16)
    }

    /// A row as loaded: the stamp and the facts. Thumbnails stay in the database (they are many
    /// times the facts' size) and are asked for one by one, for the cards a page shows.
    struct Entry {
        var path: String
        var stamp: FileStamp
        var blob: [UInt8]
    }

    public let path: String
    /// Said to the user: what happened to the cache and why.
    public private(set) var notes: [String] = []
    /// Files this run took from the cache.
    public var hits: Int { served.reduce(0) { $0 + ($1 ? 1 : 0) } }
    /// Rows removed by the last `save(pruningUnder:)`: files under the run's roots that it did
    /// not find (deleted, moved, no longer regular files).
    public private(set) var pruned = 0
    var database: OpaquePointer?
    /// The loaded rows, and the row of each path. Not changed after loading: read without a lock.
    private var rows: [Entry] = []
    private var rowOfPath: [String: Int] = [:]
    private var loaded = false
    /// Whether this run served each loaded row (for `hits`, and for pruning with the paths this
    /// run stored). Set by the checker's threads without a lock: each file is one row, and a
    /// flag is only ever set to true.
    private var served = UnsafeMutableBufferPointer<Bool>(start: nil, count: 0)
    private var fresh: [(path: String, stamp: FileStamp, blob: [UInt8])] = []
    private var freshThumbnails: [(path: String, stamp: FileStamp, thumbnail: [UInt8]?)] = []
    /// Prepared once, used under `lock` by every thumbnail asked for.
    private var thumbnailQuery: OpaquePointer?
    let lock = NSLock()
    private let build: String

    /// Opens (or creates) the cache; nil with a note when it cannot be used at all.
    public static func open(_ path: String, version: String) -> (cache: FactsCache?, notes: [String]) {
        let cache = FactsCache(path: path, build: "\(format); lpcheck \(version)")
        do {
            try cache.connect()
            return (cache, cache.notes)
        } catch {
            cache.close()
            return (nil, cache.notes + ["cache \(path) not used: \(error)"])
        }
    }

    init(path: String, build: String) {
        self.path = path
        self.build = build
    }

    deinit {
        close()
        served.deallocate()
    }

    /// An SQLite call that failed: its result code, and what was being done.
    public struct Failure: Error, CustomStringConvertible {
        public var code: Int32
        public var description: String
    }

    func failure(_ what: String, _ code: Int32) -> Failure {
        let message = database.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        return Failure(code: code, description: "\(what): \(message)")
    }

    private func connect() throws {
        try remakingIfDamaged(openDatabase)
    }

    /// Runs `step`; when the database proves damaged, it is never trusted: deleted, opened anew
    /// (the facts are read again this once), and `step` runs again on the new one.
    private func remakingIfDamaged(_ step: () throws -> Void) throws {
        do {
            try step()
        } catch let error as Failure where [SQLITE_NOTADB, SQLITE_CORRUPT].contains(error.code & 0xFF) {
            close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            notes.append("cache \(path) was damaged (\(error.description)): made anew")
            rows = []
            rowOfPath = [:]
            try openDatabase()
            try step()
        }
    }

    /// Loads every row (once; later calls do nothing). A cache that proves damaged here is made
    /// anew, a database that cannot be read is left alone: each said in `notes`, every file read.
    public func load() {
        guard !loaded else { return }
        loaded = true
        do {
            try remakingIfDamaged(loadRows)
        } catch {
            notes.append("cache \(path) not read: \(error)")
        }
    }

    private func openDatabase() throws {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &database, flags, nil)
        guard code == SQLITE_OK else { throw failure("cannot open", code) }
        // How long to wait for another run's write (LPCHECK_CACHE_WAIT_MS, for tests).
        let wait = ProcessInfo.processInfo.environment["LPCHECK_CACHE_WAIT_MS"].flatMap { Int32($0) } ?? 10_000
        sqlite3_busy_timeout(database, wait)
        try execute("PRAGMA journal_mode=WAL")
        try execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        let stored = try query("SELECT value FROM meta WHERE key = 'build'") { statement in Self.text(statement, 0) }.first
        if stored != build {
            if let stored {
                notes.append("cache \(path) was written by another build (\(stored)): emptied, this run fills it again")
            }
            // Another build's tables may have other columns: made anew.
            try transaction {
                try execute("DROP TABLE IF EXISTS files")
                try execute("DROP TABLE IF EXISTS runs")
                try execute("DROP TABLE IF EXISTS run_chunks")
                try execute(Self.createFiles)
                try execute(Self.createRuns)
                try execute(Self.createRunChunks)
                try execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('build', ?)", [.text(build)])
            }
            return
        }
        try execute(Self.createFiles)
        try execute(Self.createRuns)
        try execute(Self.createRunChunks)
    }

    private func loadRows() throws {
        guard database != nil else { return }
        // Rows go straight into `rows` (not through a list of optionals copied again).
        var entries: [Entry] = []
        _ = try query("SELECT path, device, inode, size, modified, changed, facts FROM files") { statement in
            // A row out of bounds is left out: its file is read again.
            guard let pathBytes = Self.blob(statement, 0, limit: Self.longestPath), let facts = Self.blob(statement, 6, limit: Self.largestFacts) else { return }
            let stamp = FileStamp(device: UInt64(bitPattern: sqlite3_column_int64(statement, 1)), inode: UInt64(bitPattern: sqlite3_column_int64(statement, 2)),
                                  size: sqlite3_column_int64(statement, 3), modified: sqlite3_column_int64(statement, 4), changed: sqlite3_column_int64(statement, 5))
            entries.append(Entry(path: pathBytes.withUnsafeBytes { PathBytes.string($0) }, stamp: stamp, blob: facts))
        }
        rows = entries
        entries = []
        rowOfPath.reserveCapacity(rows.count)
        for row in rows.indices { rowOfPath[rows[row].path] = row }
        served.deallocate()
        served = .allocate(capacity: rows.count)
        served.initialize(repeating: false)
    }

    /// The files table: the facts, and apart from them the EXIF thumbnail once an HTML run has
    /// read it for a card (`thumbnail_known`; the file may have none: `thumbnail` NULL).
    static let createFiles = "CREATE TABLE IF NOT EXISTS files (path BLOB PRIMARY KEY, device INTEGER, inode INTEGER, size INTEGER, modified INTEGER, changed INTEGER, facts BLOB, thumbnail_known INTEGER, thumbnail BLOB)"

    /// The last stored run: its inputs and figures, and its outputs' bytes in chunks, in order.
    static let createRuns = "CREATE TABLE IF NOT EXISTS runs (inputs BLOB NOT NULL, outputs INTEGER NOT NULL, files INTEGER NOT NULL, pairs INTEGER NOT NULL, status INTEGER NOT NULL, sizes TEXT NOT NULL)"
    static let createRunChunks = "CREATE TABLE IF NOT EXISTS run_chunks (sequence INTEGER PRIMARY KEY, output INTEGER NOT NULL, bytes BLOB NOT NULL)"


    public func facts(for path: String, stamp: FileStamp) -> FileFacts? {
        guard let row = rowOfPath[path], rows[row].stamp == stamp,
              var facts = try? CompactCoder.decode(rows[row].blob), facts.implausibility == nil else { return nil }
        facts.path = path
        served[row] = true
        return facts
    }

    public func remember(_ facts: FileFacts, stamp: FileStamp) {
        let blob = CompactCoder.encode(facts)
        lock.lock()
        fresh.append((facts.path, stamp, blob))
        lock.unlock()
    }

    /// The thumbnail kept for the file at this stamp (a point query: the cards of a page ask).
    public func thumbnail(for path: String, stamp: FileStamp) -> [UInt8]?? {
        lock.lock()
        defer { lock.unlock() }
        if thumbnailQuery == nil, database != nil {
            thumbnailQuery = try? prepare("SELECT thumbnail_known, thumbnail FROM files WHERE path = ? AND device = ? AND inode = ? AND size = ? AND modified = ? AND changed = ?")
        }
        guard let statement = thumbnailQuery else { return nil }
        defer { sqlite3_reset(statement) }
        Self.bind(statement, path: path, stamp: stamp)
        guard sqlite3_step(statement) == SQLITE_ROW, sqlite3_column_int64(statement, 0) != 0 else { return nil }
        if sqlite3_column_type(statement, 1) == SQLITE_NULL { return .some(nil) }
        // Larger than any EXIF thumbnail: not believed, the file is read again.
        guard let thumbnail = Self.blob(statement, 1, limit: Self.largestThumbnail) else { return nil }
        return .some(thumbnail)
    }

    /// Kept by the next `save` for the row of this path and stamp (a row of another stamp is
    /// left alone: the thumbnail would not be that file's).
    public func remember(thumbnail: [UInt8]?, for path: String, stamp: FileStamp) {
        lock.lock()
        freshThumbnails.append((path, stamp, thumbnail))
        lock.unlock()
    }

    /// Binds path and stamp to parameters 1 to 6.
    static func bind(_ statement: OpaquePointer?, path: String, stamp: FileStamp) {
        let bytes = PathBytes.bytes(path)
        sqlite3_bind_blob(statement, 1, bytes, Int32(bytes.count), lpcheck_sqlite_transient())
        sqlite3_bind_int64(statement, 2, Int64(bitPattern: stamp.device))
        sqlite3_bind_int64(statement, 3, Int64(bitPattern: stamp.inode))
        sqlite3_bind_int64(statement, 4, stamp.size)
        sqlite3_bind_int64(statement, 5, stamp.modified)
        sqlite3_bind_int64(statement, 6, stamp.changed)
    }

    /// The loaded rows under one of `roots` (a root itself, or a path below it) that this run
    /// neither served nor stored: files a walk of those roots no longer finds.
    func stale(under roots: [String]) -> [String] {
        let prefixes = roots.map { root -> String in
            var folder = root
            while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
            return folder == "/" ? "/" : folder + "/"
        }
        let stored = Set(fresh.map(\.path))
        return rows.indices.compactMap { row -> String? in
            let path = rows[row].path
            return !served[row] && !stored.contains(path) && prefixes.contains { path.hasPrefix($0) || path + "/" == $0 } ? path : nil
        }.sorted()
    }

    /// Writes this run's new facts in one transaction, and with `roots` (a run that walked them
    /// whole) removes the rows of files below them that it did not find, so a library that
    /// changes every night keeps a cache of its size. A cache another run holds locked past the
    /// wait is left as it is (this run's facts are not kept). Returns what to tell the user.
    @discardableResult
    public func save(pruningUnder roots: [String] = []) -> [String] {
        let before = notes.count
        defer { if notes.count == before { fresh = []; freshThumbnails = [] } }
        let gone = stale(under: roots)
        guard database != nil, !fresh.isEmpty || !gone.isEmpty || !freshThumbnails.isEmpty else { return [] }
        do {
            try transaction {
                try each("DELETE FROM files WHERE path = ?", "cannot remove", gone) { statement, path in
                    let bytes = PathBytes.bytes(path)
                    sqlite3_bind_blob(statement, 1, bytes, Int32(bytes.count), lpcheck_sqlite_transient())
                }
                // New facts replace a row whole: a thumbnail of the file's earlier bytes goes too.
                try each("INSERT OR REPLACE INTO files (path, device, inode, size, modified, changed, facts, thumbnail_known, thumbnail) VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL)",
                         "cannot write", fresh) { statement, entry in
                    Self.bind(statement, path: entry.path, stamp: entry.stamp)
                    sqlite3_bind_blob(statement, 7, entry.blob, Int32(entry.blob.count), lpcheck_sqlite_transient())
                }
                try each("UPDATE files SET thumbnail_known = 1, thumbnail = ?7 WHERE path = ?1 AND device = ?2 AND inode = ?3 AND size = ?4 AND modified = ?5 AND changed = ?6",
                         "cannot write", freshThumbnails) { statement, entry in
                    Self.bind(statement, path: entry.path, stamp: entry.stamp)
                    if let thumbnail = entry.thumbnail {
                        sqlite3_bind_blob(statement, 7, thumbnail, Int32(thumbnail.count), lpcheck_sqlite_transient())
                    } else {
                        sqlite3_bind_null(statement, 7)
                    }
                }
            }
            pruned += gone.count
        } catch let error as Failure where (error.code & 0xFF) == SQLITE_BUSY || (error.code & 0xFF) == SQLITE_LOCKED {
            notes.append("cache \(path) is locked by another run: this run's facts were not kept (\(error))")
        } catch {
            notes.append("cache \(path) could not be written: \(error)")
        }
        return Array(notes[before...])
    }

    /// Closes the database (also done when the cache is freed); the loaded rows stay readable.
    public func close() {
        if let thumbnailQuery { sqlite3_finalize(thumbnailQuery) }
        thumbnailQuery = nil
        if let database { sqlite3_close_v2(database) }
        database = nil
    }

    // MARK: SQLite

    enum Value { case text(String) }

    func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(database, sql, -1, &statement, nil)
        guard code == SQLITE_OK else { throw failure(sql, code) }
        return statement
    }

    func execute(_ sql: String, _ values: [Value] = []) throws {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        for (index, value) in values.enumerated() {
            switch value {
            case .text(let text): sqlite3_bind_text(statement, Int32(index + 1), text, -1, lpcheck_sqlite_transient())
            }
        }
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW { code = sqlite3_step(statement) }
        guard code == SQLITE_DONE else { throw failure(sql, code) }
    }

    /// Runs `sql` once per row, `bind` setting its parameters.
    func each<T>(_ sql: String, _ what: String, _ rows: [T], _ bind: (OpaquePointer?, T) -> Void) throws {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        for row in rows {
            bind(statement, row)
            let code = sqlite3_step(statement)
            guard code == SQLITE_DONE else { throw failure(what, code) }
            sqlite3_reset(statement)
        }
    }

    func query<T>(_ sql: String, _ row: (OpaquePointer?) -> T) throws -> [T] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var rows: [T] = []
        var code = sqlite3_step(statement)
        while code == SQLITE_ROW {
            rows.append(row(statement))
            code = sqlite3_step(statement)
        }
        guard code == SQLITE_DONE else { throw failure(sql, code) }
        return rows
    }

    private func transaction(_ body: () throws -> Void) throws {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// A column's bytes; nil when there are more than `limit` (a row no lpcheck wrote: nothing
    /// that large is copied out of the database).
    static func blob(_ statement: OpaquePointer?, _ column: Int32, limit: Int) -> [UInt8]? {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count <= limit else { return nil }
        guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// What a row may hold: paths, facts (a few hundred bytes, a few kilobytes with many
    /// warnings), and EXIF thumbnails (an APP1 segment holds at most 64 KiB).
    static let longestPath = 64 << 10, largestFacts = 4 << 20, largestThumbnail = 1 << 20

    static func text(_ statement: OpaquePointer?, _ column: Int32) -> String {
        sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
    }
}
