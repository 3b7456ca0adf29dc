import Foundation
import LivePhotoCheck
import LivePhotoFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension BoundedFactsCheck {
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

        /// Throws when a record file changed since the records were first read.
        public func verifyUnchanged() throws {
            for (index, path) in paths.enumerated() where FileStamp.of(path) != stamps[index] {
                throw Failure(description: "\(path) changed while it was checked")
            }
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
            rules.check(&item)
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
                Parallel.chunks(count, chunks: chunks) { chunk, range in
                    do {
                        for slot in range { try body(chunk, slot, &shared.buffer[slot]) }
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
            Parallel.chunks(groups, chunks: chunks) { chunk, range in
                var outcome = ChunkResult()
                do {
                    for group in range where !isLarge(group) {
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
            order = Self.reportOrder(entries, arena: arena)
            self.totals = totals
            return unattached
        }

        /// Report order: by the first path, as pairing sorts items (String order: bytes for
        /// ASCII paths, Unicode's canonical order for the others); ties in group order.
        static func reportOrder(_ entries: [(group: Int32, slot: Int32, start: Int, length: Int)], arena: [UInt8]) -> [(group: Int32, slot: Int32)] {
            return arena.withUnsafeBufferPointer { bytes -> [(group: Int32, slot: Int32)] in
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
        }

        public func item(at position: Int) throws -> CheckItem {
            let (group, slot) = order[position]
            if let items = pinned[group] { return items.indices.contains(Int(slot)) ? items[Int(slot)] : CheckItem(kind: .unreadable) }
            if let kept = decided[group], kept.indices.contains(Int(slot)) { return try item(kept[Int(slot)]) }
            var items = cache.items(of: group)
            if items == nil {
                items = try check(group).items
                if let items { cache.keep(items, of: group) }
            }
            guard let items, items.indices.contains(Int(slot)) else {
                throw Failure(description: "the records of item \(position + 1) no longer give the items they gave")
            }
            return items[Int(slot)]
        }
    }
}
