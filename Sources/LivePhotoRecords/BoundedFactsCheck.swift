import Foundation
import LivePhotoCheck
import LivePhotoFormats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `check --facts --bounded-memory`: the report `check --facts` gives, without holding every
/// file's facts. A million files' facts take about 660 MB in memory; here a file costs about 40
/// bytes and an item 12, and facts are read again from the records when they are needed.
///
/// 1. **Index.** The records are read once. Each file keeps where its record is, and its
///    relation keys (`Pairing.relationKeys`, `Sidecars.relationKeys`: identifier, names in its
///    folder) join it to every file sharing one (union-find over the keys' hashes). The groups
///    that come out are closed: pairing, copy detection, name mates and sidecars never relate
///    files of two groups. A hash collision only joins two groups, which is still correct.
/// 2. **Check each group.** Each group's records are read back (`pread`, from the page cache),
///    put in walk order and checked on their own (`Checker.checkedItems`), on all cores. What
///    is kept: the totals the report's head needs, and each item's group, position and first
///    path, from which the report order is sorted.
/// 3. **Items when written.** The report's items (`CheckItems`) are made again, group by group,
///    when a writer reads them. Groups of more than `pinAbove` files (a generator that stamped
///    one identifier on thousands of files) would take quadratic time that way. They are checked
///    one at a time in step 2, paired on the facts pairing reads (`Pairing.pairingFacts`), and
///    what pairing decided about each item is kept (`CheckItem.decisions`) with its files'
///    record numbers: the item is made from those and its one or two records.
///
/// The price is reading and checking each record two or three times instead of once.
public enum BoundedFactsCheck {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Checks record files (not standard input: they are read more than once).
    public static func report(_ paths: [String], stripPrefix: String? = nil, prefix: String = "", checker: Checker,
                              compare: (@Sendable (FileFacts, FileFacts) -> Bool)? = { FileComparison.identical($0.path, $1.path) },
                              pinAbove: Int = 64, cacheSize: Int = 512, openAtOnce: Int = 256) throws -> (report: CheckReport, source: Source) {
        guard !paths.contains("-") else { throw Failure(description: "--bounded-memory reads record files more than once: standard input cannot be one") }
        let stamps = paths.map(FileStamp.of)
        if let pipe = paths.indices.first(where: { stamps[$0] == nil }) {
            throw Failure(description: "\(paths[pipe]): not a regular file; --bounded-memory reads record files more than once (use --no-bounded-memory for a pipe)")
        }

        // 1. Index: where each record is, and the groups its keys join it to.
        var locations: [FactsRecords.Location] = []
        var parent: [Int32] = []
        var owners: [Int: Int32] = [:]
        var leftOut: [LeftOutFile] = []
        func root(_ index: Int32) -> Int32 {
            var index = index
            while parent[Int(index)] != index {
                parent[Int(index)] = parent[Int(parent[Int(index)])]
                index = parent[Int(index)]
            }
            return index
        }
        let (scan, mapping) = try FactsRecords.visit(paths, stripPrefix: stripPrefix, prefix: prefix) { facts, location in
            var facts = facts
            let keys: [String]
            if Checker.keepAsMedia(&facts) {
                keys = Pairing.relationKeys(facts)
            } else if Sidecars.isSidecar(facts) {
                keys = Sidecars.relationKeys(facts)
            } else {
                leftOut.append(LeftOutFile.notMedia(facts))
                return
            }
            guard locations.count < Int(Int32.max) else { throw Failure(description: "more than \(Int32.max) file records") }
            let index = Int32(locations.count)
            locations.append(location)
            parent.append(index)
            for key in keys {
                var hasher = Hasher()
                hasher.combine(key)
                let hash = hasher.finalize()
                if let owner = owners[hash] {
                    let (a, b) = (root(owner), root(index))
                    if a != b { parent[Int(max(a, b))] = min(a, b) }
                } else {
                    owners[hash] = index
                }
            }
        }
        owners = [:]
        leftOut = scan.hidden.map(LeftOutFile.hidden) + leftOut

        // Groups numbered in the order of their first record; members in record order.
        var group = [Int32](repeating: -1, count: locations.count)
        var sizes: [Int32] = []
        for index in locations.indices {
            let top = Int(root(Int32(index)))
            if group[top] < 0 {
                group[top] = Int32(sizes.count)
                sizes.append(0)
            }
            group[index] = group[top]
            sizes[Int(group[index])] += 1
        }
        parent = []
        var starts = [Int](repeating: 0, count: sizes.count + 1)
        for index in sizes.indices { starts[index + 1] = starts[index] + Int(sizes[index]) }
        var members = [Int32](repeating: 0, count: locations.count)
        var filled = Array(starts.dropLast())
        for index in locations.indices {
            let slot = Int(group[index])
            members[filled[slot]] = Int32(index)
            filled[slot] += 1
        }
        group = []
        filled = []

        let source = try Source(paths: paths, stamps: stamps, mapping: mapping, locations: locations, members: members, starts: starts,
                                checker: checker, compare: compare, pinAbove: pinAbove, cacheSize: cacheSize, openAtOnce: openAtOnce)
        source.repeatedRecords = scan.repeatedRecords
        let unattached = try source.prepare(jobs: checker.jobs)
        return (checker.report(roots: scan.roots, items: CheckItems(source: source), problems: scan.problems, leftOut: leftOut + unattached), source)
    }

    /// The items of a bounded check, made again from the records when read.
    public final class Source: ItemSource, @unchecked Sendable {
        let paths: [String]
        let stamps: [FileStamp?]
        let mapping: FactsRecords.Mapping
        let locations: [FactsRecords.Location]
        /// Record indices by group: group g's are `members[starts[g]..<starts[g + 1]]`.
        let members: [Int32]
        let starts: [Int]
        let checker: Checker
        let rules: RuleRun
        let compare: (@Sendable (FileFacts, FileFacts) -> Bool)?
        let pinAbove: Int
        let descriptors: [Int32]
        let cache: RecentGroups

        // Set once by `prepare`, read only afterwards.
        private(set) public var totals = ReportTotals()
        /// Records that repeated an earlier one byte for byte, kept once (`ScanResult.repeatedRecords`).
        public internal(set) var repeatedRecords = 0
        /// Report order: each item's group and position in it.
        private var order: [(group: Int32, slot: Int32)] = []
        /// Large groups: their items whole (when two records share a path, so that records cannot
        /// be told apart by path), else pairing's decisions and the records of each item's files.
        private var pinned: [Int32: [CheckItem]] = [:]
        private var decided: [Int32: [Decided]] = [:]

        struct Decided: Sendable {
            var item: CheckItem
            /// Record numbers of the still and the movie (-1: none).
            var still: Int32
            var movie: Int32

            /// The same, with storage equal to `previous`'s shared (`CheckItem.decisions`).
            func sharing(with previous: Decided?) -> Decided {
                var shared = self
                shared.item = item.decisions(sharingWith: previous?.item)
                return shared
            }
        }

        private let lock = NSLock()
        private var firstFailure: String?

        init(paths: [String], stamps: [FileStamp?], mapping: FactsRecords.Mapping, locations: [FactsRecords.Location], members: [Int32], starts: [Int],
             checker: Checker, compare: (@Sendable (FileFacts, FileFacts) -> Bool)?, pinAbove: Int, cacheSize: Int, openAtOnce: Int) throws {
            (self.paths, self.stamps, self.mapping, self.locations) = (paths, stamps, mapping, locations)
            (self.members, self.starts, self.checker, self.compare, self.pinAbove) = (members, starts, checker, compare, pinAbove)
            rules = checker.ruleRun
            cache = RecentGroups(capacity: cacheSize)
            // Up to `openAtOnce` record files stay open for the run; more shards than that (a
            // process may hold 1,024 descriptors) are opened for each read instead.
            var descriptors: [Int32] = []
            if paths.count <= openAtOnce {
                for path in paths {
                    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                    guard descriptor >= 0 else {
                        for opened in descriptors { close(opened) }
                        throw Failure(description: "\(path): cannot read (\(String(cString: strerror(errno))))")
                    }
                    descriptors.append(descriptor)
                }
            }
            self.descriptors = descriptors
        }

        deinit { for descriptor in descriptors { close(descriptor) } }

        public var count: Int { order.count }

        /// What went wrong reading records again (a record file changed or vanished meanwhile):
        /// nil when every item was made as in the first pass and the record files are unchanged.
        public var failure: String? {
            lock.lock()
            let failure = firstFailure
            lock.unlock()
            if let failure { return failure }
            for (index, path) in paths.enumerated() where FileStamp.of(path) != stamps[index] {
                return "\(path) changed while it was checked"
            }
            return nil
        }

        private func fail(_ message: String) {
            lock.lock()
            if firstFailure == nil { firstFailure = message }
            lock.unlock()
        }

        /// The facts of record `index`, read again.
        func facts(_ index: Int32) throws -> FileFacts {
            let location = locations[Int(index)]
            let length = Int(location.length)
            let file = Int(location.file)
            let descriptor = descriptors.indices.contains(file) ? descriptors[file] : open(paths[file], O_RDONLY | O_CLOEXEC)
            defer { if !descriptors.indices.contains(file) && descriptor >= 0 { close(descriptor) } }
            let bytes = try [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
                var done = 0
                while done < length {
                    let got = pread(descriptor, buffer.baseAddress.map { $0 + done }, length - done, off_t(location.offset) + off_t(done))
                    if got < 0 && errno == EINTR { continue }
                    guard got > 0 else {
                        initialized = done
                        throw Failure(description: "\(paths[Int(location.file)]): the record at byte \(location.offset) can no longer be read")
                    }
                    done += got
                }
                initialized = done
            }
            do {
                return try bytes.withUnsafeBytes { try mapping.facts(line: $0, header: Int(location.header)) }
            } catch {
                throw Failure(description: "\(paths[Int(location.file)]): the record at byte \(location.offset) changed (\(error))")
            }
        }

        /// An item from pairing's decisions and its files' records read again, checked.
        func item(_ decided: Decided) throws -> CheckItem {
            var item = decided.item
            func file(_ record: Int32) throws -> FileFacts? {
                guard record >= 0 else { return nil }
                var facts = try facts(record)
                _ = Checker.keepAsMedia(&facts)
                return facts
            }
            item.still = try file(decided.still)
            item.movie = try file(decided.movie)
            item.findings = rules.findings(item)
            return item
        }

        /// A large group checked on its own without holding its files' facts: paired on what
        /// pairing reads, then each item made from its records, checked, counted and reduced to
        /// pairing's decisions. Records are read and items made on `jobs` threads; the results
        /// come in slot order, one per thread's share. Nil when two of its records share a path
        /// (then it is checked whole).
        func checkLarge(_ group: Int32, jobs: Int) throws -> [ChunkResult]? {
            let indices = Array(members[starts[Int(group)]..<starts[Int(group) + 1]])
            let placeholder = FileFacts(path: "", format: .unknown, kind: .unknown)
            var files = [FileFacts](repeating: placeholder, count: indices.count)
            var failures = Self.inParallel(&files, jobs: jobs) { _, slot, file in
                file = Pairing.pairingFacts(try facts(indices[slot]))
            }
            if let failure = failures.first { throw failure }
            // One string per identifier, not one per file (a large group is mostly one identifier).
            var identifiers: [String: String] = [:]
            for slot in files.indices {
                guard let identifier = files[slot].contentIdentifier else { continue }
                if let first = identifiers[identifier] { files[slot].contentIdentifier = first } else { identifiers[identifier] = identifier }
            }
            identifiers = [:]
            var records: [String: Int32] = [:]
            records.reserveCapacity(files.count)
            for (slot, file) in files.enumerated() where records.updateValue(indices[slot], forKey: file.path) != nil { return nil }
            let recordOf = records
            records = [:]
            let order = Discovery.walkOrdered(files.count) { files[$0].path }
            files = order.map { files[$0] }
            var leftOut: [LeftOutFile] = []
            var items = checker.pairedItems(&files, leftOut: &leftOut, compare: compare)
            files = []
            let count = items.count
            let parts = ChunkResults(count: Self.chunks(count, jobs: jobs))
            failures = Self.inParallel(&items, jobs: jobs) { chunk, slot, paired in
                // Taken out of the list: the pairing facts go as the items are done.
                var taken = CheckItem(kind: .unreadable)
                swap(&taken, &paired)
                let decided = Decided(item: taken.decisions(sharingWith: nil), still: taken.still.flatMap { recordOf[$0.path] } ?? -1,
                                      movie: taken.movie.flatMap { recordOf[$0.path] } ?? -1)
                let item = try item(decided)
                parts.update(chunk) { outcome in
                    outcome.add(item, group: group, slot: slot)
                    outcome.decided[group, default: []].append(decided.sharing(with: outcome.decided[group]?.last))
                }
            }
            if let failure = failures.first { throw failure }
            var results = parts.take()
            if !results.isEmpty { results[0].unattached += leftOut }
            return results
        }

        /// Threads' shares of `count` slots: contiguous ranges, a few per thread.
        static func chunks(_ count: Int, jobs: Int) -> Int { max(1, min(max(1, jobs) * 4, count)) }

        /// `body(chunk, slot, &value)` on every slot of `values`, on `jobs` threads: `chunks`
        /// contiguous ranges of slots, each gone through in order by one thread. Returns the
        /// errors thrown (a chunk stops at its first).
        static func inParallel<T>(_ values: inout [T], jobs: Int, _ body: @Sendable (Int, Int, inout T) throws -> Void) -> [Error] {
            let count = values.count
            let chunks = chunks(count, jobs: jobs)
            let errors = ErrorList()
            values.withUnsafeMutableBufferPointer { buffer in
                let shared = SharedBuffer(buffer: buffer)
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    do {
                        for slot in count * chunk / chunks..<count * (chunk + 1) / chunks { try body(chunk, slot, &shared.buffer[slot]) }
                    } catch {
                        errors.append(error)
                    }
                }
            }
            return errors.values
        }

        /// Group `group` checked on its own: its items in report order, and the sidecars that
        /// describe none of its files.
        func check(_ group: Int32) throws -> (items: [CheckItem], unattached: [LeftOutFile]) {
            let indices = members[starts[Int(group)]..<starts[Int(group) + 1]]
            var files = try indices.map(facts)
            let order = Discovery.walkOrdered(files.count) { files[$0].path }
            files = order.map { files[$0] }
            var leftOut: [LeftOutFile] = []
            let items = checker.checkedItems(&files, leftOut: &leftOut, rules: rules, compare: compare)
            return (items, leftOut)
        }

        /// The second pass: every group checked once, on all cores, for the totals and the
        /// report order; groups above `pinAbove` files kept.
        func prepare(jobs: Int) throws -> [LeftOutFile] {
            let groups = starts.count - 1
            let chunks = max(1, min(max(1, jobs) * 8, groups))
            let results = ChunkResults(count: chunks)
            @Sendable func isLarge(_ group: Int) -> Bool { starts[group + 1] - starts[group] > pinAbove }
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                var outcome = ChunkResult()
                do {
                    for group in groups * chunk / chunks..<groups * (chunk + 1) / chunks where !isLarge(group) {
                        let (items, unattached) = try check(Int32(group))
                        outcome.unattached += unattached
                        for (slot, item) in items.enumerated() { outcome.add(item, group: Int32(group), slot: slot) }
                    }
                } catch {
                    outcome.failure = "\(error)"
                }
                results.set(chunk, outcome)
            }
            // Large groups one at a time (each holds its files' pairing facts while it is
            // paired), each on all cores.
            var large: [ChunkResult] = []
            for group in 0..<groups where isLarge(group) {
                if let parts = try checkLarge(Int32(group), jobs: jobs) {
                    large += parts
                } else {
                    var whole = ChunkResult()
                    let (items, unattached) = try check(Int32(group))
                    whole.unattached += unattached
                    for (slot, item) in items.enumerated() { whole.add(item, group: Int32(group), slot: slot) }
                    whole.pinned[Int32(group)] = items
                    large.append(whole)
                }
            }
            var totals = ReportTotals()
            var unattached: [LeftOutFile] = []
            var entries: [(group: Int32, slot: Int32, start: Int, length: Int)] = []
            var arena: [UInt8] = []
            // Each share is taken out of the list and let go once merged, into lists sized up
            // front: holding the shares and the growing merge at once was the peak of the run.
            var outcomes = results.take() + large
            large = []
            entries.reserveCapacity(outcomes.reduce(0) { $0 + $1.items.count })
            arena.reserveCapacity(outcomes.reduce(0) { $0 + $1.paths.count })
            for index in outcomes.indices {
                var outcome = ChunkResult()
                swap(&outcome, &outcomes[index])
                if let failure = outcome.failure { throw Failure(description: failure) }
                totals.add(outcome.totals)
                unattached += outcome.unattached
                pinned.merge(outcome.pinned) { $1 }
                for (group, list) in outcome.decided { decided[group, default: []].append(contentsOf: list) }
                let base = arena.count
                arena += outcome.paths
                for item in outcome.items { entries.append((item.group, item.slot, base + item.start, item.length)) }
            }
            // Report order: by the first path, as pairing sorts items (String order: bytes for
            // ASCII paths, Unicode's canonical order for the others); ties in group order.
            order = arena.withUnsafeBufferPointer { bytes -> [(group: Int32, slot: Int32)] in
                func isASCII(_ entry: (group: Int32, slot: Int32, start: Int, length: Int)) -> Bool {
                    !bytes[entry.start..<entry.start + entry.length].contains { $0 >= 0x80 }
                }
                func text(_ entry: (group: Int32, slot: Int32, start: Int, length: Int)) -> String {
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[entry.start..<entry.start + entry.length]), as: UTF8.self)
                }
                let ascii = entries.map(isASCII)
                let sorted = entries.indices.sorted { a, b in
                    let left = entries[a], right = entries[b]
                    let comparison: Int
                    if ascii[a] && ascii[b], let base = bytes.baseAddress {
                        let common = min(left.length, right.length)
                        let bytesOrder = common == 0 ? 0 : Int(memcmp(base + left.start, base + right.start, common))
                        comparison = bytesOrder != 0 ? bytesOrder : left.length - right.length
                    } else {
                        let x = text(left), y = text(right)
                        comparison = x == y ? 0 : (x < y ? -1 : 1)
                    }
                    if comparison != 0 { return comparison < 0 }
                    return (left.group, left.slot) < (right.group, right.slot)
                }
                return sorted.map { (entries[$0].group, entries[$0].slot) }
            }
            self.totals = totals
            return unattached
        }

        public func item(at position: Int) -> CheckItem {
            let (group, slot) = order[position]
            if let items = pinned[group] { return items.indices.contains(Int(slot)) ? items[Int(slot)] : CheckItem(kind: .unreadable) }
            if let kept = decided[group], kept.indices.contains(Int(slot)) {
                do {
                    return try item(kept[Int(slot)])
                } catch {
                    fail("\(error)")
                    return CheckItem(kind: .unreadable)
                }
            }
            var items = cache.items(of: group)
            if items == nil {
                do {
                    items = try check(group).items
                } catch {
                    fail("\(error)")
                }
                if let items { cache.keep(items, of: group) }
            }
            guard let items, items.indices.contains(Int(slot)) else {
                fail("the records of item \(position + 1) no longer give the items they gave")
                return CheckItem(kind: .unreadable)
            }
            return items[Int(slot)]
        }
    }

    struct ChunkResult {
        var totals = ReportTotals()
        var unattached: [LeftOutFile] = []
        var items: [(group: Int32, slot: Int32, start: Int, length: Int)] = []
        var paths: [UInt8] = []
        var pinned: [Int32: [CheckItem]] = [:]
        var decided: [Int32: [Source.Decided]] = [:]
        var failure: String?

        /// Counts a checked item and notes where it goes in the report (by its first path).
        mutating func add(_ item: CheckItem, group: Int32, slot: Int) {
            totals.add(item)
            let path = (item.still ?? item.movie)?.path ?? ""
            items.append((group, Int32(slot), paths.count, path.utf8.count))
            paths.append(contentsOf: path.utf8)
        }
    }

    final class ChunkResults: @unchecked Sendable {
        private let lock = NSLock()
        private var slots: [ChunkResult]
        init(count: Int) { slots = Array(repeating: ChunkResult(), count: count) }
        func set(_ index: Int, _ value: ChunkResult) { lock.lock(); slots[index] = value; lock.unlock() }
        /// Changes one slot in place (each slot is changed by one thread at a time, in order).
        func update(_ index: Int, _ change: (inout ChunkResult) -> Void) { lock.lock(); change(&slots[index]); lock.unlock() }
        func take() -> [ChunkResult] { lock.lock(); defer { lock.unlock() }; let values = slots; slots = []; return values }
    }

    struct SharedBuffer<T>: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<T>
    }

    final class ErrorList: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Error] = []
        func append(_ error: Error) { lock.lock(); list.append(error); lock.unlock() }
        var values: [Error] { lock.lock(); defer { lock.unlock() }; return list }
    }

    /// The items of the groups made last, a few hundred at most (a writer reads items in order,
    /// so a group with several items is usually asked for again soon).
    final class RecentGroups: @unchecked Sendable {
        private let lock = NSLock()
        private let capacity: Int
        private var items: [Int32: [CheckItem]] = [:]
        private var arrival: [Int32] = []
        private var oldest = 0

        init(capacity: Int) { self.capacity = max(1, capacity) }

        func items(of group: Int32) -> [CheckItem]? {
            lock.lock()
            defer { lock.unlock() }
            return items[group]
        }

        func keep(_ value: [CheckItem], of group: Int32) {
            lock.lock()
            defer { lock.unlock() }
            guard items[group] == nil else { return }
            if arrival.count < capacity {
                arrival.append(group)
            } else {
                items[arrival[oldest]] = nil
                arrival[oldest] = group
                oldest = (oldest + 1) % capacity
            }
            items[group] = value
        }
    }
}
