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

    /// Runs the command; usage errors exit with status 2 (ChatArchive's CommandLine article), not sysexits' 64.
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
    @Option(
        name: .long, help: "The archive file (default: $CHAT_ARCHIVE or ~/.local/share/chat-archive/archive.sqlite).")
    var archive: String?

    @Flag(name: .long, help: "Print one JSON document on stdout.")
    var json = false

    var archivePath: String { archive ?? Archive.defaultPath }

    /// Opens the archive: commands that only read open it read-only (a missing archive is
    /// "no archive at PATH" and nothing is created); `rebuildsStaleIndexes: false` leaves an
    /// outdated index as it is (for `check`, which reports it). A write that waits for another
    /// program says so on stderr.
    func open(_ mode: Archive.OpenMode, rebuildsStaleIndexes: Bool = true) throws -> Archive {
        let path = archivePath
        // A read command makes one query and exits: one connection, not a pool of two.
        if mode == .readOnly { return try Archive(readingOnceAt: path) }
        return try Archive(
            path: path, mode: mode, rebuildsStaleIndexes: rebuildsStaleIndexes,
            rebuildProgress: { done, total in
                if Terminal.stderrIsTerminal {
                    Terminal.progressLine("rebuilding the search index", done: done, total: total)
                }
            },
            onWait: { Terminal.eprint("waiting for another chat-archive writing to \(path)…") })
    }
}

extension ArchiveError {
    /// The library's sentence with the command-line advice for its code.
    var commandLineMessage: String {
        switch code {
        case .corrupt:
            return message
                + "; run `chat-archive check --repair` to rebuild what can be rebuilt (copy the file first), or restore the archive from a backup"
        case .newerVersion: return message + "; use a newer chat-archive"
        case .notFound where !message.contains("symbolic link"):
            return message + " (`chat-archive ingest` creates one)"
        case .readOnly where message.contains("needs an upgrade"):
            return message + "; run `chat-archive check --repair` once where it can be written"
        case .busy: return message + "; try again when the other chat-archive has finished"
        case .unknownChat: return message + " (see `chat-archive chats`)"
        default: return message
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
            fail(e.commandLineMessage, json: json)
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
        FileHandle.standardError.write(Data(("chat-archive: " + Terminal.visible(message) + "\n").utf8))
        Foundation.exit(1)
    }
}
