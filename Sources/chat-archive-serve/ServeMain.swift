import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine
import ChatArchiveServer
import Foundation

/// `chat-archive serve`: the web server, a program of its own so that the HTTP stack (Hummingbird,
/// NIO: a large share of the protocol conformances a Swift process scans at each first lookup,
/// and of the binary) stays out of every other `chat-archive` process (see ServingPerformance.md
/// in ChatArchive.docc). `chat-archive serve …`
/// checks its options and replaces itself with this program, with the same arguments.
@main
struct ServeMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat-archive serve", abstract: ServeHelp.abstract, discussion: ServeHelp.discussion)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: ServeOptions

    static func main() async {
        Archive.prepareProgram()
        await runCommandLine(ServeMain.self)
    }

    func run() async throws {
        try await reportingErrors(json: global.json) {
            let archive: Archive
            do { archive = try openArchiveForReading(path: global.archivePath) } catch let e as ArchiveError {
                throw CLIError(e.message)
            }
            let host = options.host
            if !AccessPolicy.isLoopback(host) {
                standardError(
                    "chat-archive: warning: serving on \(host), reachable from other machines; the token is the only protection"
                )
            }
            let server = ArchiveServer(archive: archive, log: { line in standardError(line) })
            let json = global.json
            let open = options.open
            let token = server.policy.token
            try await server.run(host: host, port: options.port) { bound in
                // A wildcard is no address to open: the loopback one reaches it from this machine.
                let reachable = AccessPolicy.isWildcard(host) ? "127.0.0.1" : host
                let shown = reachable.contains(":") ? "[\(reachable)]" : reachable
                if AccessPolicy.isWildcard(host) {
                    standardError(
                        "chat-archive: listening on every address of this machine (port \(bound)); from another machine open http://THIS-MACHINE'S-ADDRESS:\(bound)/?token=\(token)"
                    )
                }
                let url = "http://\(shown):\(bound)/?token=\(token)"
                let line: String
                if json {
                    let o = JSONOut()
                    o.object {
                        o.field("url", url)
                        o.field("port", bound)
                        o.field("token", token)
                    }
                    line = o.text
                } else {
                    line = url
                }
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
                if open { ServeMain.openInBrowser(url) }
            }
        }
    }

    /// Asks the desktop to open `url`, its output discarded. Started with `posix_spawn`, not
    /// Foundation's `Process`, whose `run()` in this toolchain can read past a directory entry
    /// of `/proc/self/fd` and crash a process with many descriptors open, as a server has.
    static func openInBrowser(_ url: String) {
        #if os(macOS)
            let argv = ["/usr/bin/env", "open", url]
        #else
            let argv = ["/usr/bin/env", "xdg-open", url]
        #endif
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, argv[0], &actions, nil, cArgs, environ)
        guard rc == 0 else {
            standardError(
                "chat-archive: cannot open a browser (\(String(cString: strerror(rc)))); open the address yourself")
            return
        }
        // Reaped when it ends, so that it leaves no zombie behind.
        let pid = child
        Thread.detachNewThread { waitpid(pid, nil, 0) }
    }
}
