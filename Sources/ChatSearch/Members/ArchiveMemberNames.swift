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
    /// ``members(chat:matching:limit:spread:common:in:)`` matches them in one chat: members with the same
    /// folded display name are one row, with the number of chats they are in. Matches at the
    /// start of a word come first; within each, names whose members wrote most recently (then
    /// by folded name). The user and members who left are not listed; an empty query lists the
    /// most recent writers.
    ///
    /// - Complexity: for a query of 3 or more characters, the members whose names hold its
    ///   trigrams (memberNameGram). For a shorter one, the index of short name fragments
    ///   (`MemberNameGrams`) tells which names hold it: when they are few, only their members
    ///   are read; when they are many, the members are walked newest writer first
    ///   (`member_activity`) until a page of names is certain. An archive without that index
    ///   (format 14 or older, opened read-only) tests every member.
    ///
    /// `common` is the number of names from which a fragment counts as common
    /// (``commonNames``; tests choose smaller ones to take each way on a small archive).
    package static func names(
        matching query: String, limit: Int = 10, common: Int = commonNames, in db: Database
    ) throws -> [MemberName] {
        let n = max(1, min(limit, 1_000))
        let key = TextNormalizer.normalize(query.trimmingSpaces)
        if let phrase = ChatList.trigramPhrase(key) {
            return try aggregate(
                key: key, limit: n, source: "memberNameGram g JOIN member m ON m.id = g.rowid",
                condition: "memberNameGram MATCH ?3", arguments: [phrase], in: db
            ).map(\.name)
        }
        let isShort = key.unicodeScalars.count <= 2 && !key.contains("\n")
        guard isShort, try Bool.fetchOne(db.cachedStatement(sql: MemberNameGrams.existsSQL)) == true else {
            return try namesByScan(key: key, limit: n, in: db)
        }
        if key.isEmpty { return try walk(key: key, limit: n, in: db) }
        // Names with a word that starts with the key, and names that hold it anywhere (a
        // superset: a word's start is also a piece of it); `nil` when they are common.
        guard let anywhere = try fewNames(gram: key, common: common, in: db) else {
            guard try fewNames(gram: "\n" + key, common: common, in: db) != nil else {
                return try walk(key: key, limit: n, in: db)
            }
            // Few names start a word with it, many hold it inside: every word-start name by
            // its members, then names with the key inside a word, newest writers first.
            let starts = try aggregate(
                key: key, limit: n, source: shortSource, condition: "s.gram = ?3", arguments: ["\n" + key],
                having: "max(prefix) = 1", in: db)
            guard starts.count < n else { return starts.map(\.name) }
            return try starts.map(\.name)
                + walk(key: key, limit: n - starts.count, after: Set(starts.map(\.folded)), isFilling: true, in: db)
        }
        guard anywhere > 0 else { return [] }
        return try aggregate(
            key: key, limit: n, source: shortSource, condition: "s.gram = ?3", arguments: [key], in: db
        ).map(\.name)
    }

    /// Names beyond which walking the members is cheaper than reading every member of each:
    /// a name is about as many members as the chats it is in, and a key held by this many
    /// names is met every few dozen members of the walk.
    package static let commonNames = 48

    /// The most word-start names a walk reads from the index to know which names it meets start
    /// a word with the key (a query per name met otherwise).
    static let walkStartNames = 4_096

    /// How many folded names hold `gram` in the short-fragment index, or `nil` when there are
    /// `common` or more.
    private static func fewNames(gram: String, common: Int, in db: Database) throws -> Int? {
        let names =
            try Int.fetchOne(
                db.cachedStatement(
                    sql: "SELECT count(*) FROM (SELECT 1 FROM memberNameShort WHERE gram = ? LIMIT ?)"),
                arguments: [gram, common]) ?? 0
        return names < common ? names : nil
    }

    /// The members of the names a short fragment lists, by the `member_folded` index.
    /// (`CROSS JOIN`: the names first; SQLite would otherwise walk the whole index and look
    /// each member's name up. `|| ''`: a value without the column's text affinity, which
    /// SQLite needs to look it up in an index on an expression.)
    private static let shortSource =
        "memberNameShort s CROSS JOIN member m INDEXED BY member_folded ON \(MemberNameGrams.folded("m")) = (s.folded || '')"

    /// The members autocomplete lists.
    private static let live = MemberNameGrams.liveCondition("m")
    /// A member whose names hold `?1`.
    private static let matches = "(instr(m.searchKey, ?1) > 0 OR instr(m.nameKey, ?1) > 0)"
    /// A member with a word that starts with `?1`.
    private static let wordStart = "instr(m.searchKey, char(10) || ?1) > 0"

    /// The names of the members `source` and `condition` choose that match `key`, grouped and
    /// ranked in SQL (`?1` the key, `?2` the limit, `?3…` `arguments`).
    private static func aggregate(
        key: String, limit n: Int, source: String, condition: String, arguments: [DatabaseValueConvertible],
        prefix: String = wordStart, having: String? = nil, in db: Database
    ) throws -> [Ranked] {
        // Grouped by the folded display name (nameKey's first line: full names and aliases
        // differ between chats); the bare `displayName` takes the row of max(lastTs): the newest
        // writer's spelling.
        let sql =
            "SELECT displayName, count(DISTINCT chatId), max(lastTs), max(prefix), folded FROM (SELECT m.displayName, m.chatId, m.lastTs, "
            + MemberNameGrams.folded("m") + " AS folded, " + prefix + " AS prefix FROM " + source + " WHERE "
            + [condition, live, matches].filter { !$0.isEmpty }.joined(separator: " AND ")
            + ") GROUP BY folded " + (having.map { "HAVING " + $0 + " " } ?? "")
            + "ORDER BY max(prefix) DESC, max(lastTs) IS NULL, max(lastTs) DESC, folded LIMIT ?2"
        var out: [Ranked] = []
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: sql), arguments: StatementArguments([key, n] + arguments))
        while let r = try rows.next() {
            let ts: Int64? = r[2]
            out.append(
                Ranked(
                    name: MemberName(
                        name: r[0], chats: r[1], lastActivity: ts.map { Timestamp(milliseconds: $0) },
                        isWordPrefixMatch: r[3]),
                    folded: r[4]))
        }
        return out
    }

    /// Every member tested: the ranking itself, for an archive without the short-fragment index
    /// (and the reference its tests compare the faster ways with).
    package static func namesByScan(key: String, limit n: Int, in db: Database) throws -> [MemberName] {
        try scan(key: key, limit: n, in: db).map(\.name)
    }

    private static func scan(key: String, limit n: Int, in db: Database) throws -> [Ranked] {
        try aggregate(
            key: key, limit: n, source: "member m", condition: "", arguments: [],
            prefix: key.isEmpty ? "?1 = ''" : wordStart, in: db)
    }

    /// The first `n` names, in the ranking's order, of the members who wrote and match `key`,
    /// walked newest writer first: a name's newest matching member is met first, so each name's
    /// rank is known when it is met, and the walk stops once `n` word-start names are certain.
    /// `isFilling`: every word-start name is already listed (`after`); the walk then lists the
    /// names after them (any it meets) and stops at `n` of those. Falls back to ranking
    /// every member when the writers do not fill the page (the rest never wrote and are
    /// ranked by name).
    private static func walk(
        key: String, limit n: Int, after skipping: Set<String> = [], isFilling: Bool = false, in db: Database
    ) throws -> [MemberName] {
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT m.displayName, \(MemberNameGrams.folded("m")), m.lastTs FROM member m INDEXED BY member_activity
                    WHERE \(live) AND m.lastTs IS NOT NULL AND \(matches) ORDER BY m.lastTs DESC
                    """), arguments: [key])
        // Whether any listed member of a name starts a word with the key (the key empty: all do).
        let startsWord = try db.cachedStatement(
            sql: """
                SELECT EXISTS (SELECT 1 FROM member m INDEXED BY member_folded
                    WHERE \(MemberNameGrams.folded("m")) = ?2 AND \(live) AND \(wordStart))
                """)
        let countLeading = !isFilling
        // The names with a word that starts with the key, when the index holds fewer than
        // ``walkStartNames`` of them (else each name met is tested).
        var startNames: Set<String>? = nil
        if countLeading && !key.isEmpty {
            let names = try String.fetchAll(
                db.cachedStatement(sql: "SELECT folded FROM memberNameShort WHERE gram = ? LIMIT ?"),
                arguments: ["\n" + key, walkStartNames])
            if names.count < walkStartNames { startNames = Set(names) }
        }
        var seen = Set(skipping)
        // The names met, in walk order, and how many of them rank first.
        var met: [(name: String, folded: String, ts: Int64, prefix: Bool)] = []
        var leading = 0
        var boundary: Int64? = nil
        while let r = try rows.next() {
            let ts: Int64 = r[2]
            if let b = boundary, ts < b { break }
            let folded: String = r[1]
            guard seen.insert(folded).inserted else { continue }
            var prefix = key.isEmpty
            // A name the index lists no word start for has none (the index may list more: a
            // renamed member's old rows), so only the listed ones are tested.
            if !prefix && countLeading && startNames.map({ $0.contains(folded) }) != false {
                prefix = try Bool.fetchOne(startsWord, arguments: [key, folded]) ?? false
            }
            met.append((r[0], folded, ts, prefix))
            if prefix || !countLeading { leading += 1 }
            // Names met later with the same time may still rank before the n-th by name.
            if leading == n { boundary = ts }
        }
        guard boundary != nil else {
            // The writers alone do not fill the page: rank every member.
            let all = try scan(key: key, limit: n + skipping.count, in: db)
            return all.filter { !skipping.contains($0.folded) }.prefix(n).map(\.name)
        }
        met.sort { a, b in
            if a.prefix != b.prefix { return a.prefix }
            if a.ts != b.ts { return a.ts > b.ts }
            return a.folded < b.folded
        }
        // A name that holds the key matches in each of its members (the folded name is the
        // first line of their name key): its chats come from the index alone (format 16).
        // Another matched by some members' other names or aliases: those members are read.
        let chats = try db.cachedStatement(
            sql: """
                SELECT count(DISTINCT m.chatId) FROM member m INDEXED BY member_folded
                WHERE \(MemberNameGrams.folded("m")) = ?2 AND \(live) AND \(matches)
                """)
        let allChats = try db.cachedStatement(
            sql: """
                SELECT count(DISTINCT m.chatId) FROM member m INDEXED BY member_folded
                WHERE \(MemberNameGrams.folded("m")) = ?1 AND \(live)
                """)
        return try met.prefix(n).map { m in
            let count =
                key.isEmpty || m.folded.utf8.firstRange(of: key.utf8) != nil
                ? try Int.fetchOne(allChats, arguments: [m.folded])
                : try Int.fetchOne(chats, arguments: [key, m.folded])
            return MemberName(
                name: m.name, chats: count ?? 0, lastActivity: Timestamp(milliseconds: m.ts),
                isWordPrefixMatch: m.prefix)
        }
    }

    /// A name with the folded form it is grouped by.
    private struct Ranked {
        var name: MemberName
        var folded: String
    }
}
