import ChatIndex
import ChatModel
import ChatText
import GRDB

/// A member of a group as mention autocomplete lists it.
public struct ChatMember: Sendable, Hashable, Encodable {
    /// The member's source id (`Member/sourceId`; what a mention's target names).
    public var sourceId: String
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
        sourceId: String, displayName: String, fullName: String = "", localAlias: String = "",
        lastActivity: Timestamp? = nil,
        isWordPrefixMatch: Bool = true
    ) {
        self.sourceId = sourceId
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

    /// The member's source id: ``sourceId``, under the name it had before it matched `Member/sourceId`.
    @available(*, deprecated, renamed: "sourceId")
    public var memberId: String {
        get { sourceId }
        set { sourceId = newValue }
    }

    /// Creates a member row: ``init(sourceId:displayName:fullName:localAlias:lastActivity:isWordPrefixMatch:)``
    /// under the label it had before.
    @available(*, deprecated, renamed: "init(sourceId:displayName:fullName:localAlias:lastActivity:isWordPrefixMatch:)")
    public init(
        memberId: String, displayName: String, fullName: String = "", localAlias: String = "",
        lastActivity: Timestamp? = nil,
        isWordPrefixMatch: Bool = true
    ) {
        self.init(
            sourceId: memberId, displayName: displayName, fullName: fullName, localAlias: localAlias,
            lastActivity: lastActivity, isWordPrefixMatch: isWordPrefixMatch)
    }

    // The JSON field keeps its name (`memberId`): JSON output only gains fields.
    enum CodingKeys: String, CodingKey { case memberId, displayName, fullName, localAlias, lastActivity, mentionText }

    /// Encodes the fields and ``mentionText``.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sourceId, forKey: .memberId)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(fullName, forKey: .fullName)
        try c.encode(localAlias, forKey: .localAlias)
        try c.encodeIfPresent(lastActivity?.rfc3339, forKey: .lastActivity)
        try c.encode(mentionText, forKey: .mentionText)
    }
}

extension ChatMember: Identifiable {
    /// The member's source id (``sourceId``).
    public var id: String { sourceId }
}

/// Mention autocomplete: the members of a group whose names match what follows the `@`.
package enum MemberSearch {
    /// Trigram candidates across the archive from which a query in one chat takes those of the
    /// chat instead (FTS5 then intersects two lists: it costs more than reading a few).
    package static let spreadGramMembers = 512
    /// Trigram candidates in the chat from which a query walks the chat's members instead of
    /// reading each candidate: a candidate costs a row of the member table, a walked member an
    /// entry of a covering index, and a walk stops at a page of word starts.
    package static let commonGramMembers = 256

    /// Members of `chat` whose display name, full name or local alias contains `query` after the
    /// analyser's folding (`zo` finds Zoë, `lu` finds Łukasz, `dm` finds Дмитрий through its
    /// transliteration). Matches at the start of a word come before matches inside one; within
    /// each, members who wrote most recently come first. The user and members who left are not
    /// listed. An empty query lists the most recent writers.
    ///
    /// - Complexity: for a query of 3 or more characters, the members whose names hold its
    ///   trigrams (memberNameGram), narrowed to the chat and to real matches: those of the whole
    ///   archive when fewer than `spread`, else (since format 17) those of the chat when fewer
    ///   than `common`. Otherwise, and for a shorter query, a walk over the chat's members in a
    ///   covering index, newest writers first, stopping at `limit` word-start matches.
    ///   (`spread` and `common`: ``spreadGramMembers`` and ``commonGramMembers``; tests choose
    ///   others to take each way.)
    package static func members(
        chat: String, matching query: String, limit: Int = 10, spread: Int = spreadGramMembers,
        common: Int = commonGramMembers, in db: Database
    ) throws -> [ChatMember] {
        guard
            let chatId = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM chat WHERE sourceId = ?"), arguments: [chat])
        else {
            throw ArchiveError.unknownChat(chat)
        }
        let n = max(1, min(limit, 1_000))
        let key = TextNormalizer.normalize(query.trimmingSpaces)
        let columns = "sourceId, displayName, fullName, localAlias, lastTs"
        // The walk follows member_recent (chatId, lastTs DESC, …): word-start matches first,
        // stopping at a page; matches inside words only when the page is not full.
        let recent = "FROM member INDEXED BY member_recent WHERE chatId = ? AND isUser = 0 AND hasLeft = 0"
        let order = "ORDER BY lastTs DESC, id LIMIT ?"
        var out: [ChatMember] = []
        func fetch(_ sql: String, _ args: StatementArguments, prefix: Bool?) throws {
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: args)
            while let r = try rows.next() {
                let ts: Int64? = r[4]
                out.append(
                    ChatMember(
                        sourceId: r[0], displayName: r[1], fullName: r[2], localAlias: r[3],
                        lastActivity: ts.map { Timestamp(milliseconds: $0) }, isWordPrefixMatch: prefix ?? r[5]))
            }
        }
        if let phrase = ChatList.trigramPhrase(key) {
            // Candidates from the trigram index: the fragment's members across the archive
            // when they are few; else, since format 17 (the index holds each member's chat),
            // the chat's when they are few; else the walk below. Each is one pass of FTS5.
            func candidates(_ match: String, fewerThan cap: Int) throws -> [Int64]? {
                let ids = try db.cachedStatement(
                    sql: "SELECT rowid FROM memberNameGram WHERE memberNameGram MATCH \(match) LIMIT ?3"
                ).int64s(arguments: [phrase, chatId, cap])
                return ids.count < cap ? ids : nil
            }
            var ids = try candidates("?1", fewerThan: spread)
            if ids == nil, try Bool.fetchOne(db.cachedStatement(sql: MemberGrams.byChatSQL)) == true {
                ids = try candidates(MemberGrams.inChat(chat: "?2", phrase: "?1"), fewerThan: common)
            }
            if let ids {
                // Kept when they are in the chat and really contain the key; word starts first.
                // (`CROSS JOIN`: the candidates first, each looked up by rowid.)
                try fetch(
                    """
                    SELECT \(columns), instr(m.searchKey, char(10) || ?1) > 0 AS prefix
                    FROM json_each(?2) AS j CROSS JOIN member m ON m.id = j.value
                    WHERE m.chatId = ?3 AND m.isUser = 0 AND m.hasLeft = 0
                        AND (instr(m.searchKey, ?1) > 0 OR instr(m.nameKey, ?1) > 0)
                    ORDER BY prefix DESC, m.lastTs DESC, m.id LIMIT ?4
                    """, [key, "[" + ids.map(String.init).joined(separator: ",") + "]", chatId, n], prefix: nil)
                return out
            }
        }
        if key.isEmpty {
            try fetch("SELECT \(columns) \(recent) \(order)", [chatId, n], prefix: true)
            return out
        }
        try fetch(
            "SELECT \(columns) \(recent) AND instr(searchKey, char(10) || ?) > 0 \(order)", [chatId, key, n],
            prefix: true)
        if out.count < n {
            try fetch(
                """
                SELECT \(columns) \(recent) AND instr(searchKey, char(10) || ?) = 0
                    AND (instr(searchKey, ?) > 0 OR instr(nameKey, ?) > 0) \(order)
                """, [chatId, key, key, key, n - out.count], prefix: false)
        }
        return out
    }
}
