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

    final class ChunkResults: Sendable {
        private let slots: Locked<[ChunkResult]>
        init(count: Int) { slots = Locked(Array(repeating: ChunkResult(), count: count)) }
        func set(_ index: Int, _ value: ChunkResult) { slots.withLock { $0[index] = value } }
        /// Changes one slot in place (each slot is changed by one thread at a time, in order).
        func update(_ index: Int, _ change: (inout ChunkResult) -> Void) { slots.withLock { change(&$0[index]) } }
        func take() -> [ChunkResult] { slots.withLock { slots in defer { slots = [] }; return slots } }
    }

    struct SharedBuffer<T>: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<T>
    }

    final class ErrorList: Sendable {
        private let list = Locked<[Error]>([])
        func append(_ error: Error) { list.withLock { $0.append(error) } }
        var values: [Error] { list.current }
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
