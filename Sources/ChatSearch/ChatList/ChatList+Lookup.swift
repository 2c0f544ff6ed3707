import ChatModel
import GRDB

extension ChatList {
    /// The most chat ids one request of the web app's API may look up (a page of search hits
    /// names at most this many chats).
    package static let maxLookupIds = 200

    /// The chat-list rows of the chats with these source ids, in the order given; unknown ids
    /// and repeats are skipped.
    ///
    /// - Complexity: one lookup by the unique index on the source id per id.
    package static func chats(ids: [String], in db: Database) throws -> [ChatRow] {
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return [] }
        // The ids travel as one JSON array argument: any number of them, any characters.
        let list = try JSONStreamEncoder.string(unique)
        let found = try rows(
            page:
                "SELECT chat.id, 0 AS loose, chat.lastTs FROM json_each(?) AS wanted JOIN chat ON chat.sourceId = wanted.value",
            arguments: [list], in: db)
        var byId: [String: ChatRow] = [:]
        for (row, _) in found { byId[row.chatId] = row }
        return unique.compactMap { byId[$0] }
    }

    /// Splits the `ids` parameter of `chats --ids` and `/api/chats?ids=`: source ids separated by
    /// commas, where `\,` is a comma inside an id and `\\` a backslash. Empty ids are dropped.
    package static func lookupIds(_ text: String) -> [String] {
        // By scalars, not characters: a mark after a comma must not hide the comma.
        var ids: [String] = []
        var current = String.UnicodeScalarView()
        var escaped = false
        for c in text.unicodeScalars {
            if escaped {
                current.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "," {
                if !current.isEmpty { ids.append(String(current)) }
                current = String.UnicodeScalarView()
            } else {
                current.append(c)
            }
        }
        if escaped { current.append("\\") }
        if !current.isEmpty { ids.append(String(current)) }
        return ids
    }
}
