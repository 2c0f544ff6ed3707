import ChatImport
import ChatIndex
import Foundation

extension ArchiveError {
    /// `error` as the façade throws it: an import that failed as a whole as
    /// ``Code/notAnExport`` or ``Code/unreadableExport`` (with the importer's sentence), the
    /// rest as `ArchiveError.wrapping(_:path:doing:)` words it (SQLite's errors by their code,
    /// `CancellationError` as it is, anything else ``Code/io``).
    static func atBoundary(_ error: any Error, path: String, doing: String) -> any Error {
        guard let e = error as? ImportError else { return wrapping(error, path: path, doing: doing) }
        return ArchiveError(e.isNotAnExport ? .notAnExport : .unreadableExport, e.description, underlying: e)
    }
}

extension Archive {
    /// Runs `body` on a thread of its own, off the cooperative pool, and suspends the caller
    /// until it ends: how work that blocks (an open that rebuilds an index, an ingest, a check,
    /// a repair) leaves the pool's threads to the app's other tasks. `body` is handed a
    /// question it asks at its safe points: whether the awaiting task has been cancelled (yes
    /// from the start when it was cancelled before the call).
    /// Its errors come out as ``ArchiveError/atBoundary(_:path:doing:)`` words them.
    static func offPool<T: Sendable>(
        path: String, doing: String,
        _ body: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) throws -> T
    ) async throws -> T {
        let cancelled = CancelFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { done in
                DispatchQueue.global(qos: .userInitiated).async {
                    done.resume(
                        with: Result {
                            do {
                                return try body { cancelled.isSet }
                            } catch {
                                throw ArchiveError.atBoundary(error, path: path, doing: doing)
                            }
                        })
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }
}

/// A flag set once from another thread.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
