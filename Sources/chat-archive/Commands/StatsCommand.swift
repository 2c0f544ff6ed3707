import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine
import Foundation

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Counts, sizes, sources and index health.")

    @OptionGroup var global: GlobalOptions

    var request: StatsRequest { StatsRequest(global: global.values) }

    func run() throws { try request.run() }
}

/// `stats`'s arguments as plain values, from ``StatsCommand`` or the quick path
/// (``QuickCommandLine``), and what the command does with them.
struct StatsRequest: Equatable {
    var global = GlobalValues()

    func validate() throws {}

    func run() throws {
        try reportingErrors(json: global.json) {
            let s = try global.open(.readOnly).blocking.stats()
            if global.json {
                print(ArchiveJSON.stats(s))
                return
            }
            print("archive        \(global.archivePath)")
            print("chats          \(s.chats)")
            print("members        \(s.members)")
            print("items          \(s.items) (\(s.deletedItems) deleted, \(s.unreadItems) unread)")
            print("spans          \(s.spans), mentions \(s.mentions)")
            print("vocabulary     \(s.vocabularyTerms) terms")
            print("text           \(HumanFormat.bytes(s.textBytes))")
            print(
                "file           \(HumanFormat.bytes(s.fileBytes))"
                    + (s.textBytes > 0
                        ? String(format: " (%.1f× the text)", Double(s.fileBytes) / Double(s.textBytes)) : ""))
            print(
                "analyser       v\(s.analyzerVersion ?? 0), index \(s.indexIsStale ? "incomplete (rebuilt on next open)" : "healthy")"
            )
            for (k, v) in s.itemsBySource.sorted(by: { $0.key < $1.key }) {
                print("source \(k.padding(toLength: 8, withPad: " ", startingAt: 0)) \(v) items")
            }
        }
    }
}
