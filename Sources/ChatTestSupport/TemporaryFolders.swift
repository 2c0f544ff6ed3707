import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Temporary folders for tests, all inside one folder per test process that is removed when
/// the process exits, so a test run leaves nothing behind in the system's temporary folder.
///
/// Use ``folder(_:)`` for a folder that lives until the process ends (archives a test keeps
/// open), or ``withTemporaryDirectory(_:_:)`` for one removed as soon as the body returns.
package enum TestTemporary {
    /// This process's folder: `$TMPDIR/chat-archive-tests-<pid>-<random>`, removed at exit.
    package static let root: URL = {
        let name = "chat-archive-tests-\(getpid())-\(UUID().uuidString.prefix(8))"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { TestTemporary.removeRoot() }
        return url
    }()

    /// A fresh, empty folder inside ``root``; returns its path.
    package static func folder(_ prefix: String = "tmp") -> String {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Runs `body` with a fresh folder and removes the folder afterwards, whatever happens.
    package static func withTemporaryDirectory<T>(_ prefix: String = "tmp", _ body: (String) throws -> T) rethrows -> T
    {
        let path = folder(prefix)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// The `async` form of ``withTemporaryDirectory(_:_:)``.
    package static func withTemporaryDirectory<T>(_ prefix: String = "tmp", _ body: (String) async throws -> T)
        async rethrows
        -> T
    {
        let path = folder(prefix)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await body(path)
    }

    /// Removes ``root`` and everything in it (called at process exit).
    static func removeRoot() {
        try? FileManager.default.removeItem(at: root)
    }
}
