import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C and SIGTERM during an ingest: the first asks the ingest to stop at the next batch
/// boundary (everything committed stays, the summary is printed); a second one stops the
/// process at once, which is still safe because SQLite rolls back the batch in flight.
final class IngestInterrupt: @unchecked Sendable {
    private let lock = NSLock()
    private var received: Int32 = 0
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "chat-archive.ingest-signals")
    private static let signals = [SIGINT, SIGTERM]

    /// The first signal received, if any.
    var caughtSignal: Int32? { lock.withLock { received == 0 ? nil : received } }

    /// Starts catching SIGINT and SIGTERM.
    func install() {
        for sig in Self.signals {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { [weak self] in self?.receive(sig) }
            source.resume()
            sources.append(source)
        }
    }

    /// Restores the default handling of the signals.
    func uninstall() {
        for source in sources { source.cancel() }
        sources = []
        for sig in Self.signals { signal(sig, SIG_DFL) }
    }

    private func receive(_ sig: Int32) {
        let isFirst = lock.withLock {
            guard received == 0 else { return false }
            received = sig
            return true
        }
        if isFirst {
            FileHandle.standardError.write(
                Data("\ninterrupted: stopping after the current batch (interrupt again to stop at once)\n".utf8))
        } else {
            FileHandle.standardError.write(
                Data("interrupted again: stopping now; every committed batch is kept\n".utf8))
            _exit(128 + sig)
        }
    }
}
