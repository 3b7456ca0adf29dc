import Foundation

/// A bounded hand-over from one producing thread to the thread that consumes: the GIF's frames
/// decoded, composited and enlarged beside the encoder, which leaves part of two cores idle on
/// its own. At most `capacity` items wait; either side may stop the other.
final class FramePipe<Item: Sendable>: @unchecked Sendable {
    // Every stored property is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var items: [Item] = []
    private var ended = false
    private var stopped = false
    private var failure: (any Error)?
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Hands `item` over, waiting while the pipe is full; false when the consumer has stopped.
    func put(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !stopped { condition.wait() }
        guard !stopped else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// No more items: after `failure` when the producer failed.
    func end(failure: (any Error)? = nil) {
        condition.lock()
        (ended, self.failure) = (true, failure)
        condition.broadcast()
        condition.unlock()
    }

    /// The consumer gives up: the producer's next `put` returns false.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next item, waiting for one; nil once the producer has ended and every item was
    /// taken. Throws the producer's failure in its turn.
    func take() throws -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !ended { condition.wait() }
        if !items.isEmpty {
            condition.broadcast()
            return items.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }
}

/// One piece of work run on a thread of its own beside the caller's (the GIF's still encoded
/// while its movie is), its result or failure taken once with `value()`, which waits for it.
final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    // `result` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var result: Result<Value, any Error>?

    init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let outcome = Result { try work() }
            condition.lock()
            result = outcome
            condition.broadcast()
            condition.unlock()
        }
        thread.start()
    }

    func value() throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return try result.map { try $0.get() } ?? { throw CodecError("thread", "no result") }()
    }
}
