import ArgumentParser
import ChatArchive
import Foundation

struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Counts, sizes, sources and index health.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await reportingErrors(json: global.json) {
            let s = try await global.open(.readOnly).stats()
            if global.json {
                let o = JSONOut()
                o.object {
                    o.field("chats", s.chats)
                    o.field("members", s.members)
                    o.field("items", s.items)
                    o.field("deletedItems", s.deletedItems)
                    o.field("unreadItems", s.unreadItems)
                    o.field("spans", s.spans)
                    o.field("mentions", s.mentions)
                    o.field("vocabularyTerms", s.vocabularyTerms)
                    o.field("textBytes", s.textBytes)
                    o.field("fileBytes", s.fileBytes)
                    o.field("analyzerVersion", s.analyzerVersion)
                    o.field("indexHealthy", !s.indexIsStale)
                    o.field("itemsBySource", object: {
                        for (k, v) in s.itemsBySource.sorted(by: { $0.key < $1.key }) { o.field(k, v) }
                    })
                    o.field("ingests", array: {
                        for i in s.ingests {
                            o.object {
                                o.field("path", i.path)
                                o.field("format", i.format)
                                o.field("at", Timestamp(milliseconds: i.at).rfc3339)
                            }
                        }
                    })
                }
                print(o.text)
                return
            }
            print("archive        \(global.archivePath)")
            print("chats          \(s.chats)")
            print("members        \(s.members)")
            print("items          \(s.items) (\(s.deletedItems) deleted, \(s.unreadItems) unread)")
            print("spans          \(s.spans), mentions \(s.mentions)")
            print("vocabulary     \(s.vocabularyTerms) terms")
            print("text           \(HumanFormat.bytes(s.textBytes))")
            print("file           \(HumanFormat.bytes(s.fileBytes))" + (s.textBytes > 0 ? String(format: " (%.1f× the text)", Double(s.fileBytes) / Double(s.textBytes)) : ""))
            print("analyser       v\(s.analyzerVersion ?? 0), index \(s.indexIsStale ? "incomplete (rebuilt on next open)" : "healthy")")
            for (k, v) in s.itemsBySource.sorted(by: { $0.key < $1.key }) { print("source \(k.padding(toLength: 8, withPad: " ", startingAt: 0)) \(v) items") }
        }
    }
}
