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
    /// that changes it (never a repeat), until the stream's consumer stops; an error ends it.
    /// Values not taken yet are replaced by newer ones.
    package func observe<T: Sendable & Equatable>(_ fetch: @escaping Access<T>) -> AsyncThrowingStream<T, any Error> {
        let writer = self.writer
        let path = self.path
        return AsyncThrowingStream<T, any Error>(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let cancellable = ValueObservation.tracking { db in try fetch(db) }
                .removeDuplicates()
                .start(
                    in: writer, scheduling: .task,
                    onError: { continuation.finish(throwing: ArchiveError.wrapping($0, path: path)) },
                    onChange: { continuation.yield($0) })
            continuation.onTermination = { _ in cancellable.cancel() }
        }
    }
}
