import Foundation

/// A value shared between threads behind a lock: the one `@unchecked Sendable` a result
/// collector needs (swift-nio's `NIOLockedValueBox` is the model). Every read and change goes
/// through `withLock`, so the value is never touched unlocked.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held; what it returns.
    @inlinable public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try locked(body)
    }

    @usableFromInline func locked<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    public var current: Value { withLock { $0 } }
}
