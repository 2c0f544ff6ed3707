import ArgumentParser
import ChatArchive
import Foundation

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check the archive and its indexes; --repair rebuilds the indexes.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Rebuild the search indexes from the stored items (items are never touched).")
    var repair = false

    func run() async throws {
        try await reportingErrors(json: global.json) {
            let archive = try global.open()
            var problems = try await archive.check()
            var repaired = false
            if repair && !problems.isEmpty {
                try archive.database.rebuildIndexes()
                try await archive.database.writer.write { db in
                    try db.execute(sql: """
                        UPDATE chat SET itemCount = (SELECT count(*) FROM item WHERE item.chatId = chat.id)
                        """)
                }
                repaired = true
                problems = try await archive.check()
            }
            if global.json {
                let o = JSONOut()
                o.object {
                    o.field("ok", problems.isEmpty)
                    o.field("repaired", repaired)
                    o.field("problems", array: { for p in problems { o.value(p) } })
                }
                print(o.text)
            } else if problems.isEmpty {
                print(repaired ? "repaired: the archive and its indexes are now healthy" : "ok: the archive and its indexes are healthy")
            } else {
                for p in problems { print("problem: \(p)") }
            }
            if !problems.isEmpty { throw ExitCode(1) }
        }
    }
}
