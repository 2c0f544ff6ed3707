import ArgumentParser
import ChatArchive
import Foundation

@main
struct ChatArchiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat-archive",
        abstract: "Index chat exports and search them: fast, complete, and correct in every script.",
        discussion: """
            Archive: --archive PATH, else $CHAT_ARCHIVE, else $XDG_DATA_HOME/chat-archive/archive.sqlite.
            Every command prints one JSON document on stdout with --json.
            """,
        subcommands: [
            IngestCommand.self, ChatsCommand.self, SearchCommand.self, ItemsCommand.self, MarkdownCommand.self,
            StatsCommand.self, CheckCommand.self, DemoCommand.self, ServeCommand.self,
        ])

    /// Runs the command; usage errors exit with status 2 (CONTRACT.md §2), not sysexits' 64.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "The archive file (default: $CHAT_ARCHIVE or ~/.local/share/chat-archive/archive.sqlite).")
    var archive: String?

    @Flag(name: .long, help: "Print one JSON document on stdout.")
    var json = false

    var archivePath: String { archive ?? Archive.defaultPath }

    /// Opens the archive; `rebuildsStaleIndexes: false` leaves an outdated index as it is
    /// (for `check`, which reports it).
    func open(rebuildsStaleIndexes: Bool = true) throws -> Archive {
        do {
            return try Archive(path: archivePath, rebuildsStaleIndexes: rebuildsStaleIndexes) { done, total in
                if Terminal.stderrIsTerminal { Terminal.progressLine("rebuilding the search index", done: done, total: total) }
            }
        } catch let e as ArchiveError {
            throw CLIError(e.message)
        }
    }
}

/// A failure the message explains (exit status 1).
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

extension AsyncParsableCommand {
    /// Runs `body`, turning library errors into one-line messages on stderr and exit status 1.
    func reportingErrors(json: Bool, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let e as CLIError {
            fail(e.description, json: json)
        } catch let e as SearchError {
            fail(e.message, json: json)
        } catch let e as ArchiveError {
            fail(e.message, json: json)
        } catch let e as ImportError {
            fail(e.description, json: json)
        } catch let e as ValidationError {
            throw e
        } catch let e as ExitCode {
            throw e
        } catch {
            fail("\(error)", json: json)
        }
    }

    func fail(_ message: String, json: Bool) -> Never {
        if json {
            let o = JSONOut()
            o.object { o.field("error", message) }
            print(o.text)
        }
        FileHandle.standardError.write(Data(("chat-archive: " + message + "\n").utf8))
        Foundation.exit(1)
    }
}
