import ChatIndex
import ChatModel
import ChatText
import GRDB

/// A member of a group as mention autocomplete lists it.
public struct ChatMember: Sendable, Hashable, Encodable {
    /// The member's source id (what a mention's target names).
    public var memberId: String
    /// The member's name as the group shows it.
    public var displayName: String
    /// The member's longer name (`""` when none).
    public var fullName: String
    /// The user's local name for the member (`""` when none).
    public var localAlias: String
    /// The time of the member's newest message in the archive; `nil` when they wrote none.
    public var lastActivity: Timestamp?
    /// The query matched the start of a word of one of the names (else a part inside a word).
    public var isWordPrefixMatch: Bool

    /// Creates a member row (for previews and tests of apps that embed the library).
    public init(
        memberId: String, displayName: String, fullName: String = "", localAlias: String = "",
        lastActivity: Timestamp? = nil,
        isWordPrefixMatch: Bool = true
    ) {
        self.memberId = memberId
        self.displayName = displayName
        self.fullName = fullName
        self.localAlias = localAlias
        self.lastActivity = lastActivity
        self.isWordPrefixMatch = isWordPrefixMatch
    }

    /// What the compose bar inserts for this member, as SimpleX writes mentions: `@name`, or
    /// `@'name'` when the name holds a space or punctuation.
    public var mentionText: String {
        let plain =
            !displayName.isEmpty
            && displayName.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_" || $0 == "-"
                    || $0.properties.generalCategory == .nonspacingMark || $0.properties.generalCategory == .spacingMark
            }
        return plain ? "@" + displayName : "@'" + displayName + "'"
    }

    enum CodingKeys: String, CodingKey { case memberId, displayName, fullName, localAlias, lastActivity, mentionText }

    /// Encodes the fields and ``mentionText``.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(memberId, forKey: .memberId)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(fullName, forKey: .fullName)
        try c.encode(localAlias, forKey: .localAlias)
        try c.encodeIfPresent(lastActivity?.rfc3339, forKey: .lastActivity)
        try c.encode(mentionText, forKey: .mentionText)
    }
}

/// Mention autocomplete: the members of a group whose names match what follows the `@`.
package enum MemberSearch {
    /// Members of `chat` whose display name, full name or local alias contains `query` after the
    /// analyser's folding (`zo` finds Zoë, `lu` finds Łukasz, `dm` finds Дмитрий through its
    /// transliteration). Matches at the start of a word come before matches inside one; within
    /// each, members who wrote most recently come first. The user and members who left are not
    /// listed. An empty query lists the most recent writers.
    ///
    /// - Complexity: word starts, then matches inside words, each first among the chat's 2,000
    ///   newest writers (a walk of a covering index), which is all it takes when they hold a
    ///   page of matches; else every match: from the trigram index of names (memberNameGram)
    ///   when the query has 3 characters, or 2 for word starts (a line break and the query make
    ///   the trigram), by a walk of every member of the chat when it is shorter.
    package static func members(
        chat: String, matching query: String, limit: Int = 10, recentWindow: Int = recentWindowSize, in db: Database
    ) throws -> [ChatMember] {
        guard
            let chatId = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM chat WHERE sourceId = ?"), arguments: [chat])
        else {
            throw SearchError(message: "no chat with id \"\(chat)\" in the archive")
        }
        let n = max(1, min(limit, 1_000))
        let key = TextNormalizer.normalize(query.trimmingSpaces)
        let columns = "sourceId, displayName, fullName, localAlias, lastTs"
        // The walk follows member_recent (chatId, lastTs DESC, …), newest writers first.
        let recent = "FROM member INDEXED BY member_recent WHERE chatId = ?1 AND isUser = 0 AND hasLeft = 0"
        let order = "ORDER BY lastTs DESC, id"
        var out: [ChatMember] = []
        func fetch(_ sql: String, _ args: StatementArguments, prefix: Bool) throws -> Int {
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: args)
            var count = 0
            while let r = try rows.next() {
                let ts: Int64? = r[4]
                out.append(
                    ChatMember(
                        memberId: r[0], displayName: r[1], fullName: r[2], localAlias: r[3],
                        lastActivity: ts.map { Timestamp(milliseconds: $0) }, isWordPrefixMatch: prefix))
                count += 1
            }
            return count
        }
        if key.isEmpty {
            _ = try fetch("SELECT \(columns) \(recent) \(order) LIMIT ?2", [chatId, n], prefix: true)
            return out
        }
        let isPrefix = "instr(searchKey, char(10) || ?2) > 0"
        let isInside = "instr(searchKey, char(10) || ?2) = 0 AND (instr(searchKey, ?2) > 0 OR instr(nameKey, ?2) > 0)"
        // The newest writers of a big group first: when they hold a page of matches, nobody
        // older can come before them. Else every match, from the trigram index of names when
        // the query (or a word start and it) has 3 characters, by a walk of every member when not.
        let window = try recentWindowCondition(chatId, size: recentWindow, db)
        for (condition, prefix) in [(isPrefix, true), (isInside, false)] {
            let room = n - out.count
            guard room > 0 else { break }
            if let window {
                let bounded = "SELECT \(columns) \(recent) AND \(window.sql) AND \(condition) \(order) LIMIT ?3"
                if try fetch(bounded, [chatId, key, room, window.lastTs], prefix: prefix) == room { continue }
                out.removeLast(out.count - (n - room))
            }
            let needle = prefix ? "\n" + key : key
            if let phrase = ChatList.trigramPhrase(needle) {
                _ = try fetch(
                    """
                    SELECT \(columns) FROM member WHERE id IN (SELECT rowid FROM memberNameGram WHERE memberNameGram MATCH ?4)
                        AND chatId = ?1 AND isUser = 0 AND hasLeft = 0 AND \(condition) \(order) LIMIT ?3
                    """, [chatId, key, room, phrase], prefix: prefix)
            } else {
                _ = try fetch("SELECT \(columns) \(recent) AND \(condition) \(order) LIMIT ?3", [chatId, key, room], prefix: prefix)
            }
        }
        return out
    }

    /// Members of a chat walked before the indexes are asked: the newest writers.
    static let recentWindowSize = 2_000

    /// The condition "among the chat's `size` newest writers, whole `lastTs`
    /// groups only" (its `?4` is the returned `lastTs`), or `nil` when the chat is not bigger.
    private static func recentWindowCondition(_ chatId: Int64, size: Int, _ db: Database) throws -> (
        sql: String, lastTs: Int64?
    )? {
        guard
            let edge = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT lastTs FROM member INDEXED BY member_recent WHERE chatId = ? AND isUser = 0 AND hasLeft = 0
                        ORDER BY lastTs DESC LIMIT 1 OFFSET ?
                        """), arguments: [chatId, size])
        else { return nil }
        // Members whose lastTs ties with the edge may lie on either side of it: left out.
        guard let ts = edge[0] as Int64? else { return ("lastTs IS NOT NULL AND ?4 IS NULL", nil) }
        return ("lastTs > ?4", ts)
    }
}
