import Foundation
import Dispatch

/// Work on several threads: the one place the modules hand work to threads.
public enum Parallel {
    /// `body(worker)` on `workers` threads at once (each worker takes its own work, as from a
    /// shared queue).
    public static func workers(_ workers: Int, _ body: @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: workers, execute: body)
    }

    /// `body(worker)` for `workers` workers, each on a thread of its own, for work that waits
    /// (network reads): `concurrentPerform` runs as many at once as there are cores, so 32
    /// readers of object storage on two cores kept two requests in flight.
    public static func threads(_ workers: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for worker in 0..<workers {
            group.enter()
            let thread = Thread {
                body(worker)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
    }

    /// `body(chunk, range)` for `chunks` contiguous ranges of `0..<count`, concurrently: chunk
    /// `i` covers `count·i/chunks ..< count·(i+1)/chunks`.
    public static func chunks(_ count: Int, chunks: Int, _ body: @Sendable (Int, Range<Int>) -> Void) {
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            body(chunk, count * chunk / chunks..<count * (chunk + 1) / chunks)
        }
    }

    /// `transform` over `values` on `jobs` threads (4 chunks a thread), in order; one thread
    /// below `minimum` values, where handing work out costs more than it saves.
    public static func map<T: Sendable, U>(_ values: [T], jobs: Int, minimum: Int = 257, _ transform: @Sendable (T) -> U) -> [U] {
        guard values.count >= minimum, jobs > 1 else { return values.map(transform) }
        var results = [U?](repeating: nil, count: values.count)
        results.withUnsafeMutableBufferPointer { buffer in
            let slots = Slots(buffer)
            chunks(values.count, chunks: min(jobs * 4, values.count)) { _, range in
                for index in range { slots.buffer[index] = transform(values[index]) }
            }
        }
        return results.map { $0! }
    }

    /// Slots each chunk writes only its own of.
    struct Slots<U>: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<U?>
        init(_ buffer: UnsafeMutableBufferPointer<U?>) { self.buffer = buffer }
    }
}
