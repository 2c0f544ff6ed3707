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

    static func main() async { await runCommandLine(ServeMain.self) }

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

    static func openInBrowser(_ url: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        #if os(macOS)
            p.arguments = ["open", url]
        #else
            p.arguments = ["xdg-open", url]
        #endif
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch {
            standardError("chat-archive: cannot open a browser (\(error)); open the address yourself")
        }
    }
}
