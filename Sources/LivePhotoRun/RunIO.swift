import Foundation
import LivePhotoCache
import LivePhotoCheck

/// Where a run's text goes: the command gives standard output and standard error. The run
/// layer decides what is said; the command only prints it.
public struct RunIO: Sendable {
    /// Report text for standard output, as it is (no line end added).
    public var output: @Sendable (String) -> Void
    /// One line for standard error (the line end is the sink's).
    public var error: @Sendable (String) -> Void
    /// Sends what `output` holds on now (a plan said before long work, even into a pipe).
    public var flush: @Sendable () -> Void = {}

    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, flush: @escaping @Sendable () -> Void = {}) {
        (self.output, self.error, self.flush) = (output, error, flush)
    }
}

/// A run that ends with an exit status: 1 findings at or above the gate, 2 a bad configuration,
/// an unwritable output, or nothing readable. Its message, if any, has already been said.
public struct RunFailure: Error, Sendable {
    public var status: Int32
    public init(status: Int32) { self.status = status }
}

/// Holds the last report and the cache's loaded rows until the process exits: a large
/// library's report is not taken apart object by object on the way out (BENCHMARKS.md),
/// and the cache's rows are left to the process's end once its database is closed.
public enum KeptAtExit {
    nonisolated(unsafe) public static var report: CheckReport?
    nonisolated(unsafe) public static var store: FactsCache?
}
