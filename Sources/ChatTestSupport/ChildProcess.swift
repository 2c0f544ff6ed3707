import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process for end-to-end tests: started with `posix_spawn`, its output captured in
/// files, stopped with any signal, and reaped with `wait4`. Tests start every child through it,
/// never through Foundation's `Process`, whose `run()` in this toolchain can read past a
/// directory entry of `/proc/self/fd` and crash the test process. Its peak memory is the high-water
/// mark of its own address space (`VmHWM`, sampled while it runs): the `ru_maxrss` that `wait4`
/// reports starts at the test process's own peak, which Linux carries across the child's `exec`.
package final class ChildProcess {
    /// The child's process id.
    package let pid: pid_t
    private let outPath: String
    private let errPath: String
    private var result: Result?
    /// The highest `VmHWM` read while the child ran, in bytes (nil before the first read).
    private var sampledPeak: Int?

    /// How a child ended.
    package struct Result: Sendable {
        /// The exit status, when the child exited.
        package var status: Int32?
        /// The signal that ended it, when one did.
        package var signal: Int32?
        /// Its standard output.
        package var out: String
        /// Its standard error.
        package var err: String
        /// Its peak resident set size, in bytes (its own address space's high-water mark; where
        /// that cannot be read, `wait4`'s `ru_maxrss`).
        package var maxRSSBytes: Int
    }

    /// The `chat-archive` binary of this build (`$CHAT_ARCHIVE_BIN` overrides it).
    package static var chatArchiveBinary: String { binary("chat-archive", override: "CHAT_ARCHIVE_BIN") }

    /// The `chat-archive-bench` binary of this build (`$CHAT_ARCHIVE_BENCH_BIN` overrides it).
    package static var benchBinary: String { binary("chat-archive-bench", override: "CHAT_ARCHIVE_BENCH_BIN") }

    private static func binary(_ name: String, override: String) -> String {
        if let p = ProcessInfo.processInfo.environment[override], !p.isEmpty { return p }
        let build = URL(fileURLWithPath: TestArchive.packagePath).appendingPathComponent(".build")
        for config in ["debug", "release"] {
            let p = build.appendingPathComponent(config).appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return build.appendingPathComponent("debug/" + name).path
    }

    /// Starts `executable` with `arguments`; `environment` entries are added to this process's.
    ///
    /// - Parameter shellPrefix: shell commands run before `exec`ing the executable (e.g. `umask 000`).
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], shellPrefix: String? = nil
    )
        throws
    {
        let dir = TestTemporary.folder("child")
        outPath = dir + "/stdout"
        errPath = dir + "/stderr"
        var argv = [executable] + arguments
        var path = executable
        if let shellPrefix {
            path = "/bin/sh"
            argv = ["/bin/sh", "-c", shellPrefix + "; exec \"$0\" \"$@\"", executable] + arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, nil, cArgs, cEnv)
        guard rc == 0 else { throw TestFailure("cannot start \(path): \(String(cString: strerror(rc)))") }
        pid = child
    }

    /// Runs to completion and returns how it ended.
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], shellPrefix: String? = nil
    )
        throws -> Result
    {
        try ChildProcess(executable, arguments, environment: environment, shellPrefix: shellPrefix).wait()
    }

    /// What the child has written to its standard output so far.
    package var outputSoFar: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }

    /// Whether the child is still running (it is reaped if it has ended).
    package var isRunning: Bool {
        if result != nil { return false }
        var status: Int32 = 0
        var usage = rusage()
        samplePeak()
        let r = wait4(pid, &status, WNOHANG, &usage)
        if r == pid {
            result = finish(status, usage)
            return false
        }
        return r == 0
    }

    /// Sends `signal` to the child (if it is still running).
    package func kill(_ signal: Int32 = SIGKILL) {
        if result == nil { _ = sendSignal(pid, signal) }
    }

    /// Waits for the child to end and returns how it ended.
    @discardableResult
    package func wait() -> Result {
        if let result { return result }
        var status: Int32 = 0
        var usage = rusage()
        // Polled, so that the child's own high-water mark is read while it still has one.
        while true {
            samplePeak()
            let r = wait4(pid, &status, WNOHANG, &usage)
            if r == pid || (r < 0 && errno != EINTR) { break }
            if r == 0 { usleep(2_000) }
        }
        let r = finish(status, usage)
        result = r
        return r
    }

    /// Reads the child's `VmHWM` (a high-water mark: the last read is the largest so far).
    private func samplePeak() {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kB = line.split(separator: " ").compactMap({ Int($0) }).first
        else { return }
        sampledPeak = max(sampledPeak ?? 0, kB * 1024)
    }

    private func finish(_ status: Int32, _ usage: rusage) -> Result {
        let exited = status & 0x7F == 0
        let read = { (p: String) in (try? String(contentsOfFile: p, encoding: .utf8)) ?? "" }
        return Result(
            status: exited ? (status >> 8) & 0xFF : nil, signal: exited ? nil : status & 0x7F, out: read(outPath),
            err: read(errPath), maxRSSBytes: sampledPeak ?? Int(usage.ru_maxrss) * 1024)
    }
}

#if canImport(Glibc)
    private let sendSignal = Glibc.kill
#elseif canImport(Darwin)
    private let sendSignal = Darwin.kill
#endif

/// A test's own failure with a message.
package struct TestFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ d: String) { description = d }
}
