import GRDB

/// A position in the chat list: the sort key of a row, `(loose, lastTs DESC, id DESC)`, which
/// the next page starts after. Callers see it as an opaque string (``text``).
package struct ChatListCursor: Sendable, Hashable {
    /// The row was found through transliteration only (loose matches come after direct ones).
    package var isLoose: Bool
    /// The row's last activity (milliseconds), `nil` for a chat without items (listed last).
    package var lastTs: Int64?
    /// The row's chat id in the archive (the tie-break).
    package var id: Int64

    /// A position.
    package init(isLoose: Bool, lastTs: Int64?, id: Int64) {
        self.isLoose = isLoose
        self.lastTs = lastTs
        self.id = id
    }

    /// The cursor as callers pass it: `c0.1714557600000.42` (`n` for a chat without activity),
    /// URL-safe, without spaces.
    package var text: String {
        "c\(isLoose ? 1 : 0).\(lastTs.map(String.init) ?? "n").\(id)"
    }

    /// Parses ``text``; `nil` for anything that no page returned.
    package init?(_ text: String) {
        guard text.utf8.count <= 64, text.hasPrefix("c") else { return nil }
        let parts = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "0" || parts[0] == "1", let id = Int64(parts[2]) else { return nil }
        let lastTs: Int64?
        if parts[1] == "n" {
            lastTs = nil
        } else {
            guard let ts = Int64(parts[1]) else { return nil }
            lastTs = ts
        }
        self.init(isLoose: parts[0] == "1", lastTs: lastTs, id: id)
        // Only the form a page wrote (no `+1`, no leading zeros).
        guard self.text == text else { return nil }
    }

    /// The condition over `lastTs` and `id` for rows that are all direct matches (`isLoose`
    /// false) or all loose ones: every row, none, or those after the cursor's `(lastTs, id)`.
    static func condition(after cursor: ChatListCursor?, isLoose: Bool) -> (String, [DatabaseValueConvertible]) {
        guard let cursor else { return ("1", []) }
        if cursor.isLoose != isLoose { return (cursor.isLoose ? "0" : "1", []) }
        // Newest first, chats without activity (NULL) last.
        guard let ts = cursor.lastTs else { return ("(lastTs IS NULL AND id < ?)", [cursor.id]) }
        return ("(lastTs < ? OR (lastTs = ? AND id < ?) OR lastTs IS NULL)", [ts, ts, cursor.id])
    }
}
