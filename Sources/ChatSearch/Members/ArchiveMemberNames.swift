import ChatIndex
import ChatModel
import ChatText
import GRDB

/// A member name across the archive, as `from:` autocomplete in a search of all chats lists it:
/// members of several chats with one name are one row.
public struct MemberName: Sendable, Hashable, Encodable {
    /// The name as the newest writer of that name shows it.
    public var name: String
    /// How many chats hold a member of that name.
    public var chats: Int
    /// The time of the newest message of any member of that name; `nil` when none wrote.
    public var lastActivity: Timestamp?
    /// The query matched the start of a word of the name (else a part inside a word).
    public var isWordPrefixMatch: Bool

    /// Creates a row (for previews and tests of apps that embed the library).
    public init(name: String, chats: Int, lastActivity: Timestamp? = nil, isWordPrefixMatch: Bool = true) {
        self.name = name
        self.chats = chats
        self.lastActivity = lastActivity
        self.isWordPrefixMatch = isWordPrefixMatch
    }

    enum CodingKeys: String, CodingKey { case name, chats, lastActivity }

    /// `{"name", "chats", "lastActivity"?}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(chats, forKey: .chats)
        try c.encodeIfPresent(lastActivity?.rfc3339, forKey: .lastActivity)
    }
}

extension MemberSearch {
    /// Member names across every chat that contain `query` after the analyser's folding, as
    /// ``members(chat:matching:limit:in:)`` matches them in one chat: members with the same
    /// folded display name are one row, with the number of chats they are in. Matches at the
    /// start of a word come first; within each, names whose members wrote most recently. The
    /// user and members who left are not listed; an empty query lists the most recent writers.
    ///
    /// - Complexity: for a query of 3 or more characters, the members whose names hold its
    ///   trigrams (memberNameGram); for a shorter one, every member's row (members, not
    ///   messages: a scan bounded by the people in the archive).
    package static func names(matching query: String, limit: Int = 10, in db: Database) throws -> [MemberName] {
        let n = max(1, min(limit, 1_000))
        let key = TextNormalizer.normalize(query.trimmingSpaces)
        let live = "m.isUser = 0 AND m.hasLeft = 0 AND m.displayName <> ''"
        let matches = "(instr(m.searchKey, ?1) > 0 OR instr(m.nameKey, ?1) > 0)"
        var prefix = "instr(m.searchKey, char(10) || ?1) > 0"
        var source = "member m"
        var condition = live + " AND " + matches
        var arguments: StatementArguments = [key, n]
        if let phrase = ChatList.trigramPhrase(key) {
            source = "memberNameGram g JOIN member m ON m.id = g.rowid"
            condition = "memberNameGram MATCH ?3 AND " + live + " AND " + matches
            arguments = [key, n, phrase]
        } else if key.isEmpty {
            prefix = "?1 = ''"
            condition = live
        }
        // Grouped by the folded display name (nameKey's first line: full names and aliases
        // differ between chats); the bare `displayName` takes the row of max(lastTs): the newest
        // writer's spelling.
        let folded = "substr(m.nameKey, 1, instr(m.nameKey || char(10), char(10)) - 1)"
        let sql =
            "SELECT displayName, count(DISTINCT chatId), max(lastTs), max(prefix) FROM (SELECT m.displayName, m.chatId, m.lastTs, "
            + folded + " AS folded, " + prefix + " AS prefix FROM " + source + " WHERE " + condition
            + ") GROUP BY folded ORDER BY max(prefix) DESC, max(lastTs) IS NULL, max(lastTs) DESC, folded LIMIT ?2"
        var out: [MemberName] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let r = try rows.next() {
            let name: String = r[0]
            let chats: Int = r[1]
            let ts: Int64? = r[2]
            let isPrefix: Bool = r[3]
            out.append(
                MemberName(
                    name: name, chats: chats, lastActivity: ts.map { Timestamp(milliseconds: $0) },
                    isWordPrefixMatch: isPrefix))
        }
        return out
    }
}
