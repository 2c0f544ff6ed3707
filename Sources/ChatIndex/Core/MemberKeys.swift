import ChatModel
import GRDB

/// The member keys behind `from:` autocomplete across chats (format 23): one row of `memberKey`
/// for each distinct pair of a member's name key and search key, with what the listed members
/// of that pair add up to (how many, the newest message, the newest writer's spelling).
///
/// Whether a member matches a query depends only on those two keys, and the same people are
/// members of many chats under the same names, so keys are far fewer than members
/// (<doc:ArchiveLayout>). A query therefore matches keys (by `memberKeyGram`, trigrams of each
/// key, or by the names that `memberNameShort` says may hold one or two characters), ranks
/// their folded names from the keys' own columns, and reads the number of chats of each name
/// it lists from `memberName` (when every key of the name matches) or from its matching keys'
/// members (`member_key`, by key and chat). Before this table it read every matching member
/// (ChatArchive's ServingPerformance).
///
/// Each member names its key (`member.keyId`). The writer keeps the keys and names
/// (`BatchStore`): a new member's key is found or added when the member is written, a new
/// listed member adds a chat to its name when no other listed member of that chat has it, the
/// counts and newest messages are added at the end of each transaction, and a member that
/// changes names, leaves, or goes with its chat has its keys and their names counted again
/// from the members. A key no listed member has any more stays, with no members, and is never
/// matched; a repair drops it.
package enum MemberKeys {
    /// The members autocomplete lists, as `member_key` and `member_folded` hold them (`m` an SQL
    /// alias, or `""`).
    package static func live(_ m: String) -> String {
        let p = m.isEmpty ? "" : m + "."
        return "\(p)isUser = 0 AND \(p)hasLeft = 0 AND \(p)displayName <> ''"
    }

    /// The folded display name of a name key: its first line, by which names are grouped.
    package static func folded(nameKey: String) -> String {
        String(String.UnicodeScalarView(nameKey.unicodeScalars.prefix { $0 != "\n" }))
    }

    /// The same as SQL, of the name key expression `c`: the expression of the `member_folded`
    /// index when `c` is `nameKey` or `m.nameKey`, so that SQLite uses the index.
    package static func foldedSQL(_ c: String) -> String { "substr(\(c), 1, instr(\(c) || char(10), char(10)) - 1)" }

    /// Each key's listed members, newest message and newest writer's spelling (the bare
    /// `displayName` is that of the row of `max(lastTs)`), for the keys `keys` (an SQL
    /// condition on `keyId`), from the member table.
    private static func countsSQL(_ keys: String) -> String {
        """
        SELECT keyId, count(*) AS members, max(lastTs) AS lastTs, displayName FROM member
        WHERE \(live("")) AND \(keys) GROUP BY keyId
        """
    }

    /// Sets the counts of keys `keys` (as in ``countsSQL(_:)``) from their members; keys it
    /// finds no listed member of are left as they are.
    private static func setCountsSQL(_ keys: String) -> String {
        """
        UPDATE memberKey SET members = c.members, lastTs = c.lastTs, displayName = c.displayName
            FROM (\(countsSQL(keys))) AS c WHERE memberKey.id = c.keyId
        """
    }

    /// The number of chats in which a listed member has the folded name `f` (an SQL
    /// expression), counted in order from `member_folded`.
    static func nameChatsSQL(_ f: String) -> String {
        """
        (SELECT count(*) FROM (SELECT DISTINCT m.chatId FROM member m INDEXED BY member_folded
            WHERE \(foldedSQL("m.nameKey")) = \(f) AND \(live("m"))))
        """
    }

    /// Every folded name of a listed member with its number of chats, from the member table.
    static let namesSQL = """
        SELECT folded, count(DISTINCT chatId) FROM (SELECT \(foldedSQL("nameKey")) AS folded, chatId FROM member
            WHERE \(live(""))) GROUP BY folded
        """

    /// The keys of every member, their search indexes and counts, from the member table.
    private static let fillSQL = """
        INSERT OR IGNORE INTO memberKey(nameKey, searchKey, folded)
            SELECT nameKey, searchKey, \(foldedSQL("nameKey")) FROM member ORDER BY id;
        UPDATE member SET keyId = (SELECT k.id FROM memberKey k WHERE k.nameKey = member.nameKey AND k.searchKey = member.searchKey);
        \(setCountsSQL("keyId IS NOT NULL"));
        INSERT INTO memberKeyGram(rowid, words, name) SELECT id, searchKey, nameKey FROM memberKey;
        INSERT INTO memberName(folded, chats) \(namesSQL);
        """

    /// Creates the keys from the members and drops the index of the members newest writer
    /// first that autocomplete across chats walked before: format 23. The writer counts a
    /// name's chats from `member_folded` (listed members by folded name, then chat). The
    /// indexes of the keys hold only what orders them and what a walk tests first: a key moves
    /// in `memberKey_recent` whenever its newest message does, and wider entries would make
    /// each move dirty more pages of the log (ChatIndex's WritePerformance).
    static let createSQL = """
        DROP INDEX IF EXISTS member_activity;
        CREATE TABLE memberKey (
            id INTEGER PRIMARY KEY,
            nameKey TEXT NOT NULL,
            searchKey TEXT NOT NULL,
            folded TEXT NOT NULL,
            members INTEGER NOT NULL DEFAULT 0,
            lastTs INTEGER,
            displayName TEXT NOT NULL DEFAULT '',
            UNIQUE (nameKey, searchKey));
        ALTER TABLE member ADD COLUMN keyId INTEGER;
        CREATE VIRTUAL TABLE memberKeyGram USING fts5(words, name, tokenize='trigram case_sensitive 1', columnsize=0);
        CREATE TABLE memberName (folded TEXT PRIMARY KEY NOT NULL, chats INTEGER NOT NULL) WITHOUT ROWID;
        CREATE INDEX member_key ON member(keyId, chatId) WHERE \(live(""));
        \(fillSQL)
        CREATE INDEX memberKey_folded ON memberKey(folded, searchKey) WHERE members > 0;
        CREATE INDEX memberKey_recent ON memberKey(lastTs DESC, folded) WHERE members > 0;
        """

    /// Rebuilds the keys from the members (a repair): keys no member has are dropped.
    package static let rebuildSQL = """
        DELETE FROM memberKey;
        DELETE FROM memberKeyGram;
        DELETE FROM memberName;
        \(fillSQL)
        """

    /// Whether `db`'s archive has the keys (format 23; an older archive opened read-only has not).
    package static let existsSQL = "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'memberKey')"

    /// Members without their key, keys whose counts differ from their members', trigram rows
    /// missing for a key, and names whose number of chats differs from their members': the
    /// number of each, summed (0 when all agree). The spelling is not compared: writers who
    /// wrote at the same time may each be the newest.
    package static let mismatchSQL = """
        SELECT (SELECT count(*) FROM member m LEFT JOIN memberKey k ON k.id = m.keyId
                WHERE k.id IS NULL OR k.nameKey IS NOT m.nameKey OR k.searchKey IS NOT m.searchKey)
            + (SELECT count(*) FROM (SELECT id, members, lastTs FROM memberKey WHERE members > 0
                EXCEPT SELECT keyId, members, lastTs FROM (\(countsSQL("keyId IS NOT NULL")))))
            + (SELECT count(*) FROM (SELECT keyId, members, lastTs FROM (\(countsSQL("keyId IS NOT NULL")))
                EXCEPT SELECT id, members, lastTs FROM memberKey))
            + (SELECT count(*) FROM memberKey k LEFT JOIN memberKeyGram g ON g.rowid = k.id
                WHERE g.rowid IS NULL OR g.words IS NOT k.searchKey OR g.name IS NOT k.nameKey)
            + (SELECT count(*) FROM (SELECT folded, chats FROM memberName WHERE chats > 0 EXCEPT \(namesSQL)))
            + (SELECT count(*) FROM (\(namesSQL) EXCEPT SELECT folded, chats FROM memberName))
        """

    /// The key of names `nameKey` and `searchKey`: looked up, else added (its search rows are
    /// the caller's to add at the end of its transaction). Returns the id and whether it is new.
    static func key(nameKey: String, searchKey: String, _ db: Database) throws -> (id: Int64, isNew: Bool) {
        if let id = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM memberKey WHERE nameKey = ? AND searchKey = ?"),
            arguments: [nameKey, searchKey])
        {
            return (id, false)
        }
        // A plain single-row insert: it opens no savepoint (BatchStore.writeNewNameRows).
        try db.cachedStatement(sql: "INSERT INTO memberKey(nameKey, searchKey, folded) VALUES (?, ?, ?)")
            .execute(arguments: [nameKey, searchKey, folded(nameKey: nameKey)])
        return (db.lastInsertedRowID, true)
    }

    /// Adds new listed members to their keys: `added` the number per key and the spelling of
    /// its first (a key without members takes it).
    static func add(_ added: [Int64: (count: Int, name: String)], _ db: Database) throws {
        guard !added.isEmpty else { return }
        var rows = JSONBytes(capacity: 32 * added.count)
        rows.rows(added.sorted { $0.key < $1.key }) {
            [.int($0.key), .int(Int64($0.value.count)), .string($0.value.name)]
        }
        try db.cachedStatement(
            sql: """
                UPDATE memberKey SET
                    displayName = iif(members = 0, json_extract(d.value, '$[2]'), displayName),
                    members = members + json_extract(d.value, '$[1]')
                FROM json_each(?) AS d
                WHERE memberKey.id = json_extract(d.value, '$[0]')
                """
        ).execute(arguments: [rows.text])
    }

    /// Moves the newest message of the keys of listed members whose newest message the
    /// transaction moved: `json` the members' `[[id, ts], …]`, as ``BatchStore`` wrote them
    /// to the member table.
    static let activitySQL = """
        UPDATE memberKey SET lastTs = d.ts, displayName = d.name
        FROM (SELECT m.keyId AS key, max(j.ts) AS ts, m.displayName AS name
              FROM (SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS ts FROM json_each(?)) AS j
              JOIN member m ON m.id = j.id
              WHERE \(live("m")) AND m.keyId IS NOT NULL GROUP BY m.keyId) AS d
        WHERE memberKey.id = d.key AND d.ts > coalesce(memberKey.lastTs, -9223372036854775808)
        """

    /// Counts `keys` and their names again from their members (after members changed names,
    /// left or went).
    static func recount(_ keys: Set<Int64>, _ db: Database) throws {
        guard !keys.isEmpty else { return }
        var json = JSONBytes(capacity: 12 * keys.count)
        json.array(keys.sorted()) { o, key in o.int(key) }
        let ids = json.text
        // Cleared first: a key left without listed members has no row of counts.
        try db.execute(
            sql:
                "UPDATE memberKey SET members = 0, lastTs = NULL, displayName = '' WHERE id IN (SELECT value FROM json_each(?))",
            arguments: [ids])
        try db.execute(sql: setCountsSQL("keyId IN (SELECT value FROM json_each(?))"), arguments: [ids])
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO memberName(folded, chats)
                SELECT folded, \(nameChatsSQL("k.folded")) FROM memberKey k WHERE k.id IN (SELECT value FROM json_each(?))
                """, arguments: [ids])
    }

    /// Whether a listed member other than `?3` has folded name `?1` in chat `?2`: a new listed
    /// member adds a chat to its name when none has.
    static let nameInChatSQL = """
        SELECT EXISTS (SELECT 1 FROM member m INDEXED BY member_folded
            WHERE \(foldedSQL("m.nameKey")) = ?1 AND m.chatId = ?2 AND \(live("m")) AND m.id <> ?3)
        """

    /// Adds chats to names: `added` the number per folded name.
    static func addChats(_ added: [String: Int], _ db: Database) throws {
        guard !added.isEmpty else { return }
        var rows = JSONBytes(capacity: 24 * added.count)
        rows.rows(added.sorted { $0.key < $1.key }) { [.string($0.key), .int(Int64($0.value))] }
        try db.cachedStatement(
            sql: """
                INSERT INTO memberName(folded, chats)
                SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?) WHERE true
                ON CONFLICT(folded) DO UPDATE SET chats = chats + excluded.chats
                """
        ).execute(arguments: [rows.text])
    }

    /// Adds new keys' trigram rows: one plain insert each (see ``key(nameKey:searchKey:_:)``).
    static func writeSearchRows(_ keys: [(id: Int64, nameKey: String, searchKey: String)], _ db: Database) throws {
        guard !keys.isEmpty else { return }
        let gram = try db.cachedStatement(sql: "INSERT INTO memberKeyGram(rowid, words, name) VALUES (?, ?, ?)")
        for k in keys.sorted(by: { $0.id < $1.id }) { try gram.execute(arguments: [k.id, k.searchKey, k.nameKey]) }
    }
}
