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
    /// - Complexity: reads member keys (`MemberKeys`: one per distinct set of names, far
    ///   fewer than members), and members only to count the chats of a listed name that only
    ///   some of its keys match. The names that hold the query are found by its trigrams
    ///   (`memberKeyGram`) or, for one or two characters, its piece (`memberNameShort`): every
    ///   key of theirs that holds it when they are few; else, when few names start a word with
    ///   it, those names and then the others newest first; else the keys newest first
    ///   (`memberKey_recent`) until a page of names is certain. An archive without keys
    ///   (format 22 or older, opened read-only) tests every member.
    ///
    /// `common` is the number of names from which a fragment counts as common
    /// (``commonNames``; tests choose smaller ones to take each way).
    package static func names(
        matching query: String, limit: Int = 10, common: Int = commonNames, in db: Database
    ) throws -> [MemberName] {
        let n = max(1, min(limit, 1_000))
        let key = TextNormalizer.normalize(query.trimmingSpaces)
        guard try Bool.fetchOne(db.cachedStatement(sql: MemberKeys.existsSQL)) == true else {
            return try namesByScan(key: key, limit: n, in: db)
        }
        if key.isEmpty { return try walk(key: key, limit: n, in: db) }
        // The names that hold the key anywhere, and those with a word that starts with it, at
        // most `common` of each: from the keys' trigrams (names the keys really hold), or for
        // one or two characters from the names' pieces (`memberNameShort`: names that may).
        let names: (_ wordStart: Bool) throws -> [String]
        if let phrase = ChatList.trigramPhrase(key), let start = ChatList.trigramPhrase("\n" + key) {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT DISTINCT k.folded FROM memberKeyGram g CROSS JOIN memberKey k ON k.id = g.rowid
                    WHERE memberKeyGram MATCH ?2 AND k.members > 0 AND \(holds)
                        AND (?3 = 0 OR instr(k.searchKey, char(10) || ?1) > 0) LIMIT ?4
                    """)
            names = { wordStart in
                try String.fetchAll(
                    statement, arguments: [key, wordStart ? "words : " + start : phrase, wordStart, common])
            }
        } else if key.unicodeScalars.count <= 2, !key.contains("\n"), !key.utf8.contains(0) {
            let statement = try db.cachedStatement(sql: "SELECT folded FROM memberNameShort WHERE gram = ? LIMIT ?")
            names = { wordStart in try String.fetchAll(statement, arguments: [wordStart ? "\n" + key : key, common]) }
        } else {
            return try namesByScan(key: key, limit: n, in: db)
        }
        func ranked(_ names: [String]) throws -> [Ranked] { try rank(keys(of: names, holding: key, in: db)) }
        // Few names hold the key: every key of theirs that holds it.
        let holding = try names(false)
        if holding.count < common { return try named(ranked(holding).prefix(n), key: key, in: db) }
        // Few names start a word with it: those, each with every key of it that holds the key,
        // then names with the key inside a word, newest writers first. (A name the pieces list
        // may no longer start a word with it: it is not one of these.)
        let startNames = try names(true)
        guard startNames.count < common else { return try walk(key: key, limit: n, in: db) }
        let starts = try ranked(startNames).filter(\.prefix)
        guard starts.count < n else { return try named(starts.prefix(n), key: key, in: db) }
        return try named(starts, key: key, in: db)
            + walk(key: key, limit: n - starts.count, after: Set(starts.map(\.folded)), isFilling: true, in: db)
    }

    /// Names beyond which a fragment is common: the walk of the keys newest first then meets
    /// a page of them sooner than reading every key of every name that holds it.
    package static let commonNames = 64

    /// A name as the ranking sees it: its folded form, its newest matching writer's spelling
    /// and time, and whether one of its matching keys starts a word with the query.
    private struct Ranked {
        var folded: String
        var name: String
        var lastTs: Int64?
        var prefix: Bool
    }

    /// The listed keys of folded names `names` that hold `key`, each as a `Ranked` of its own.
    private static func keys(of names: [String], holding key: String, in db: Database) throws -> [Ranked] {
        var json = JSONBytes(capacity: 16 * names.count)
        json.array(names) { o, s in o.string(s) }
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT k.folded, k.displayName, k.lastTs, instr(k.searchKey, char(10) || ?1) > 0
                    FROM memberKey k INDEXED BY memberKey_folded
                    WHERE k.folded IN (SELECT value FROM json_each(?2)) AND k.members > 0 AND \(holds)
                    """), arguments: [key, json.text])
        var out: [Ranked] = []
        while let r = try rows.next() { out.append(Ranked(folded: r[0], name: r[1], lastTs: r[2], prefix: r[3])) }
        return out
    }

    /// A key `k` whose names hold `?1` (any key when `?1` is empty).
    private static let holds = "(?1 = '' OR instr(k.searchKey, ?1) > 0 OR instr(k.nameKey, ?1) > 0)"

    /// Keys grouped by name and ranked: word starts first, then newest writer, then folded name
    /// (compared as SQLite compares text).
    private static func rank(_ keys: [Ranked]) -> [Ranked] {
        var names: [String: Ranked] = [:]
        for k in keys {
            guard var n = names[k.folded] else {
                names[k.folded] = k
                continue
            }
            n.prefix = n.prefix || k.prefix
            if let ts = k.lastTs, ts > n.lastTs ?? .min { (n.lastTs, n.name) = (ts, k.name) }
            names[k.folded] = n
        }
        return names.values.sorted { a, b in
            if a.prefix != b.prefix { return a.prefix }
            if (a.lastTs == nil) != (b.lastTs == nil) { return a.lastTs != nil }
            if a.lastTs != b.lastTs { return a.lastTs! > b.lastTs! }
            return a.folded.utf8.lexicographicallyPrecedes(b.folded.utf8)
        }
    }

    /// The rows of ranked names, each with the number of chats its matching members are in.
    /// A name that holds the key matches in every member (the folded name is the first line of
    /// each one's name key): its chats are the name's (`memberName`). Another is matched by
    /// some members' other names: the members of its matching keys are read (`member_key`).
    private static func named(_ ranked: some Sequence<Ranked>, key: String, in db: Database) throws -> [MemberName] {
        let allChats = try db.cachedStatement(sql: "SELECT chats FROM memberName WHERE folded = ?")
        let someChats = try db.cachedStatement(
            sql: """
                SELECT count(DISTINCT m.chatId) FROM memberKey k INDEXED BY memberKey_folded
                CROSS JOIN member m INDEXED BY member_key ON m.keyId = k.id
                WHERE k.folded = ?2 AND k.members > 0 AND \(holds) AND \(MemberKeys.live("m"))
                """)
        return try ranked.map { r in
            let chats =
                key.isEmpty || r.folded.utf8.firstRange(of: key.utf8) != nil
                ? try Int.fetchOne(allChats, arguments: [r.folded])
                : try Int.fetchOne(someChats, arguments: [key, r.folded])
            return MemberName(
                name: r.name, chats: chats ?? 0, lastActivity: r.lastTs.map { Timestamp(milliseconds: $0) },
                isWordPrefixMatch: r.prefix)
        }
    }

    /// The first `n` names, in the ranking's order, of the keys that hold `key`, walked newest
    /// writer first and then by folded name (`memberKey_recent`): the ranking's order within
    /// word starts and within the rest, so a name's rank is known when it is first met, and
    /// the walk stops at `n` word-start names. `isFilling`: every word-start name is already
    /// listed (`after`); the walk lists the first `n` others.
    private static func walk(
        key: String, limit n: Int, after skipping: Set<String> = [], isFilling: Bool = false, in db: Database
    ) throws -> [MemberName] {
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT k.folded, k.displayName, k.lastTs FROM memberKey k INDEXED BY memberKey_recent
                    WHERE k.members > 0 AND \(holds) ORDER BY k.lastTs DESC, k.folded
                    """), arguments: [key])
        let startsWord = try db.cachedStatement(
            sql: """
                SELECT EXISTS (SELECT 1 FROM memberKey k INDEXED BY memberKey_folded
                    WHERE k.folded = ?2 AND k.members > 0 AND instr(k.searchKey, char(10) || ?1) > 0)
                """)
        var seen = skipping
        var met: [Ranked] = []
        var leading = 0
        while leading < n, let r = try rows.next() {
            let folded: String = r[0]
            guard seen.insert(folded).inserted else { continue }
            var prefix = key.isEmpty
            if !prefix && !isFilling { prefix = try Bool.fetchOne(startsWord, arguments: [key, folded]) ?? false }
            met.append(Ranked(folded: folded, name: r[1], lastTs: r[2], prefix: prefix))
            if prefix || isFilling { leading += 1 }
        }
        return try named((met.filter(\.prefix) + met.filter { !$0.prefix }).prefix(n), key: key, in: db)
    }

    /// Every member tested: the ranking itself, for an archive without member keys (and the
    /// reference its tests compare the faster ways with).
    package static func namesByScan(key: String, limit n: Int, in db: Database) throws -> [MemberName] {
        // Grouped by the folded display name (nameKey's first line: full names and aliases
        // differ between chats); the bare `displayName` takes the row of max(lastTs): the newest
        // writer's spelling.
        let folded = MemberKeys.foldedSQL("m.nameKey")
        let prefix = key.isEmpty ? "1" : "instr(m.searchKey, char(10) || ?1) > 0"
        let sql = """
            SELECT displayName, count(DISTINCT chatId), max(lastTs), max(prefix) FROM (
                SELECT m.displayName, m.chatId, m.lastTs, \(folded) AS folded, \(prefix) AS prefix FROM member m
                WHERE \(MemberKeys.live("m")) AND (instr(m.searchKey, ?1) > 0 OR instr(m.nameKey, ?1) > 0))
            GROUP BY folded ORDER BY max(prefix) DESC, max(lastTs) IS NULL, max(lastTs) DESC, folded LIMIT ?2
            """
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [key, n]).map { r in
            let ts: Int64? = r[2]
            return MemberName(
                name: r[0], chats: r[1], lastActivity: ts.map { Timestamp(milliseconds: $0) }, isWordPrefixMatch: r[3])
        }
    }
}
