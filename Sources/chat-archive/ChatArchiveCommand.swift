import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine

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
            MembersCommand.self, StatsCommand.self, CheckCommand.self, DemoCommand.self, ServeCommand.self,
        ])

    /// Runs the command; usage errors exit with status 2 (ChatArchive's CommandLine article), not sysexits' 64.
    /// The plain forms of the read commands skip ArgumentParser (``QuickCommandLine``).
    static func main() async {
        Archive.prepareProgram()
        if let quick = QuickCommandLine.parse(Array(CommandLine.arguments.dropFirst())) {
            do { try quick.run() } catch { exitReporting(error, root: ChatArchiveCommand.self) }
            return
        }
        await runCommandLine(ChatArchiveCommand.self)
    }
}
