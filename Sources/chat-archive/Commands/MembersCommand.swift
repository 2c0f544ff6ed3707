import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine
import Foundation

struct MembersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "Members whose names match, best first: of one chat (@-mention completion), or of all chats.",
        discussion: """
            Names are matched folded (zo finds Zoë, dm finds Дмитрий); matches at the start of a word come
            first, then recent writers. Without --chat, members of every chat with one name are one row,
            with the number of chats they are in (what from: completes to in a search of all chats).
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "What the user typed (empty: the most recent writers).") var query = ""
    @Option(help: "The chat's id (from `chats`); without it, member names across all chats.") var chat: String?
    @Option(help: "The most rows to print.") var limit = RequestParameters.membersLimit

    func validate() throws {
        _ = try usage { try RequestParameters.positive(limit, "limit", spelling: .commandLine) }
    }

    func run() throws {
        try reportingErrors(json: global.json) {
            let archive = try global.open(.readOnly).blocking
            guard let chat else {
                let names = try archive.memberNames(matching: query, limit: limit)
                if global.json {
                    print(ArchiveJSON.memberNames(names))
                    return
                }
                for n in names {
                    print(
                        Terminal.visible(n.name, singleLine: true)
                            + Terminal.dim("  \(n.chats) chat\(n.chats == 1 ? "" : "s")"))
                }
                return
            }
            let people = try archive.members(chat: chat, matching: query, limit: limit)
            if global.json {
                print(ArchiveJSON.members(people))
                return
            }
            for m in people {
                let full = m.fullName.isEmpty || m.fullName == m.displayName ? "" : "  " + m.fullName
                print(Terminal.visible(m.displayName + full, singleLine: true) + Terminal.dim("  \(m.mentionText)"))
            }
        }
    }
}
