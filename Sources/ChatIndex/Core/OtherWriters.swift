import Dispatch
import Foundation
import GRDB

/// Notices commits that other connections make to an archive file (another `Archive` on it,
/// another process), which GRDB's observations do not see: they hear only their own pool's
/// writer. While an observation runs, a connection of its own asks SQLite's `data_version`
/// every ``interval``, and when it changed starts the observations over (each fetches again;
/// an unchanged value is not delivered twice).
final class OtherWriters: @unchecked Sendable {
    /// How often the file is asked: how late another program's write reaches an observer.
    static let interval = DispatchTimeInterval.milliseconds(50)

    /// The observations to start over.
    let changes = ObservationRefresh()
    private let path: String
    private let queue = DispatchQueue(label: "chat-archive.other-writers")
    /// Touched on `queue` only.
    private var timer: DispatchSourceTimer?
    private var connection: DatabaseQueue?
    private var lastVersion: Int?

    init(path: String) { self.path = path }

    deinit { timer?.cancel() }

    /// Registers an observation's start; the watch runs while one is registered.
    func add(_ start: @escaping @Sendable () -> Void) -> Int {
        let key = changes.add(start)
        queue.async { [self] in startWatching() }
        return key
    }

    func remove(_ key: Int) { changes.remove(key) }

    private func startWatching() {
        guard timer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
        timer.setEventHandler { [weak self] in self?.poll() }
        self.timer = timer
        timer.resume()
    }

    private func poll() {
        guard !changes.isEmpty else {
            // No observation left: the watch ends, and the next one starts it again.
            timer?.cancel()
            timer = nil
            connection = nil
            lastVersion = nil
            return
        }
        do {
            if connection == nil {
                connection = try DatabaseQueue(
                    path: ArchiveOpening.uri(path, .walReader),
                    configuration: ArchiveOpening.configuration(readOnly: true))
            }
            let version = try connection?.inDatabase { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
            // The first answer is no baseline for what was committed before it: fetched again.
            if version != lastVersion { changes.fire() }
            lastVersion = version
        } catch {
            // The file cannot be read now (moved, locked in recovery): asked again at the next tick.
            connection = nil
        }
    }
}
