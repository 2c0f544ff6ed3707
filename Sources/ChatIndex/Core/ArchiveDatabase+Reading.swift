import Foundation
import GRDB

extension ArchiveDatabase {
    /// Work done on one of the archive's connections (a query of the layer above).
    package typealias Access<T> = @Sendable (Database) throws -> T

    /// Runs a read on the calling thread, turning SQLite's errors into `ArchiveError`s (a
    /// damaged page is `ArchiveError/Code/corrupt`, never a partial answer).
    package func reading<T>(_ body: (Database) throws -> T) throws -> T {
        if let damage { throw damage }
        return try ArchiveError.mapping(path: path) { try writer.read(body) }
    }

    /// Runs a read on a connection of the pool, as the synchronous `reading(_:)` does
    /// on the calling thread.
    package func reading<T: Sendable>(_ body: @escaping Access<T>) async throws -> T {
        if let damage { throw damage }
        return try await ArchiveError.mapping(path: path) { try await writer.read(body) }
    }

    /// The values of `fetch`: a first one at once, then a new one after every committed write
    /// that changes it (never a repeat), until the stream's consumer stops; an error ends it
    /// (as an `ArchiveError`). Values not taken yet are replaced by newer ones.
    ///
    /// Writes by other connections to the file (another `Archive`, another program) reach it
    /// too, within `OtherWriters.interval`.
    ///
    /// Each time `refresh` fires, the observation starts over: `fetch` runs again at once
    /// (for a fetch whose question changed: a window that grew), and its value follows unless
    /// it repeats the last one.
    package func observe<T: Sendable & Equatable>(_ fetch: @escaping Access<T>, refresh: ObservationRefresh? = nil)
        -> AsyncThrowingStream<T, any Error>
    {
        let writer = self.writer
        let path = self.path
        let otherWriters = self.otherWriters
        return AsyncThrowingStream<T, any Error>(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let running = RunningObservation()
            let start: @Sendable () -> Void = {
                running.replace(
                    with: ValueObservation.tracking { db in try fetch(db) }
                        .removeDuplicates()
                        .start(
                            in: writer, scheduling: .task,
                            onError: { continuation.finish(throwing: ArchiveError.wrapping($0, path: path)) },
                            onChange: { continuation.yield($0) }))
            }
            let key = refresh?.add(start)
            let otherKey = otherWriters?.add(start)
            start()
            continuation.onTermination = { _ in
                if let key { refresh?.remove(key) }
                if let otherKey { otherWriters?.remove(otherKey) }
                running.cancel()
            }
        }
    }
}

/// Makes the observations started with it fetch again at once: how an observer that changed
/// its question (a window that grew) gets the answer without waiting for a write.
package final class ObservationRefresh: @unchecked Sendable {
    private let lock = NSLock()
    private var starts: [Int: @Sendable () -> Void] = [:]
    private var nextKey = 0

    package init() {}

    /// Starts every observation of this refresh over.
    package func fire() {
        let all = lock.withLock { Array(starts.values) }
        for start in all { start() }
    }

    func add(_ start: @escaping @Sendable () -> Void) -> Int {
        lock.withLock {
            nextKey += 1
            starts[nextKey] = start
            return nextKey
        }
    }

    func remove(_ key: Int) { _ = lock.withLock { starts.removeValue(forKey: key) } }

    /// Whether no observation is registered.
    var isEmpty: Bool { lock.withLock { starts.isEmpty } }
}

/// The GRDB observation an ``ArchiveDatabase/observe(_:refresh:)`` stream runs now.
private final class RunningObservation: @unchecked Sendable {
    private let lock = NSLock()
    private var current: AnyDatabaseCancellable?
    private var isCancelled = false

    /// Runs `next` instead of the current one (or cancels it at once when the stream ended).
    func replace(with next: AnyDatabaseCancellable) {
        let (old, ended) = lock.withLock { () -> (AnyDatabaseCancellable?, Bool) in
            defer { if !isCancelled { current = next } }
            return (current, isCancelled)
        }
        old?.cancel()
        if ended { next.cancel() }
    }

    func cancel() {
        let old = lock.withLock {
            isCancelled = true
            defer { current = nil }
            return current
        }
        old?.cancel()
    }
}
