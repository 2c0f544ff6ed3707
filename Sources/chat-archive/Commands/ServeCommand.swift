import ArgumentParser
import ChatArchive
import ChatArchiveServer
import Foundation

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "The local web app over the archive: browse chats and search them in a browser.",
        discussion: """
            Opens the archive read-only and prints the address to open, with a fresh token; every
            request must carry it. Binds 127.0.0.1 on a free port unless told otherwise. Stops on
            Ctrl-C (SIGINT) or SIGTERM.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "The port (0: a free one).") var port = 0
    @Option(help: "The address to bind; anything but a loopback address exposes the archive to the network.")
    var host = "127.0.0.1"
    @Flag(help: "Open the address in the default browser.") var open = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
    }

    func run() async throws {
        try await reportingErrors(json: global.json) {
            let archive: Archive
            do { archive = try openArchiveForReading(path: global.archivePath) } catch let e as ArchiveError {
                throw CLIError(e.message)
            }
            if !AccessPolicy.isLoopback(host) {
                standardError(
                    "chat-archive: warning: serving on \(host), reachable from other machines; the token is the only protection"
                )
            }
            let server = ArchiveServer(archive: archive, log: { line in standardError(line) })
            let json = global.json
            let host = self.host
            let open = self.open
            let token = server.policy.token
            try await server.run(host: host, port: port) { bound in
                let shown = host.contains(":") ? "[\(host)]" : host
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
                if open { ServeCommand.openInBrowser(url) }
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

/// Writes a line to stderr (unbuffered).
func standardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
