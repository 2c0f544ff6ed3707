import ChatIndex
import ChatModel
import ChatText
import GRDB

/// A query compiled for the archive: an FTS5 MATCH expression (only quoted strings and our
/// own operators, so no user text can make it a syntax error), a rowid range, and what
/// highlighting needs.
struct CompiledQuery {
    var match: String
    /// How many terms ``match`` names: each is a posting list FTS5 sets up for every statement.
    var termCount: Int { match.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\"") ? 1 : 0) } / 2 }
    /// `SELECT itemFts.rowid, …` of the matches (ids and what `columns` adds), in rowid range
    /// `[?, ?)`, newest first: bind the match, the upper and the lower bound, then the limit.
    /// With `ascending`, every match in the range oldest first, and no limit to bind.
    func matchesSQL(columns: String = "", ascending: Bool = false) -> String {
        matchesSQL(select: "SELECT f.rowid\(columns)")
            + (ascending ? " ORDER BY f.rowid ASC" : " ORDER BY f.rowid DESC LIMIT ?")
    }
    /// How many items ``matchesSQL(columns:ascending:)`` lists (bind the match, the upper and
    /// the lower rowid).
    var matchCountSQL: String { matchesSQL(select: "SELECT count(*)") }
    private func matchesSQL(select: String) -> String {
        if excludesDeleted || requiresUnread {
            return
                "\(select) FROM itemFts f JOIN item i ON i.id = f.rowid WHERE f.itemFts MATCH ? AND f.rowid < ? AND f.rowid >= ?"
                + itemConditions
        }
        return "\(select) FROM itemFts f WHERE f.itemFts MATCH ? AND f.rowid < ? AND f.rowid >= ?"
    }
    /// The same over the chat-keyed index (see `ChatKeys`): `SELECT i.id…` of the matches whose
    /// key is in `[?, ?)`, newest first (`descending`) or oldest first; bind the match, the
    /// upper and the lower key, then the limit. `columns` may use `i` (the item) and `itemChatFts`.
    func keyedMatchesSQL(columns: String = "", descending: Bool = true) -> String {
        keyedMatchesSQL(select: "SELECT i.id\(columns)") + " ORDER BY f.rowid \(descending ? "DESC" : "ASC") LIMIT ?"
    }
    /// How many items ``keyedMatchesSQL(columns:descending:)`` lists (bind the match, the upper
    /// and the lower key).
    var keyedMatchCountSQL: String { keyedMatchesSQL(select: "SELECT count(*)") }
    private func keyedMatchesSQL(select: String) -> String {
        """
        \(select) FROM itemChatFts f JOIN item i ON i.chatKey = f.rowid
        WHERE f.itemChatFts MATCH ? AND f.rowid < ? AND f.rowid >= ?
        """ + itemConditions
    }
    /// The rowids of the matches in `[?, ?)` from the index alone, newest first or oldest
    /// first, at most `?`: bind the match, the upper and the lower rowid (or key, when `keyed`),
    /// then the limit. No item is read, so deleted items are among them (see ``deletedMatch``)
    /// and an unread search must not use it.
    static func indexRowsSQL(keyed: Bool, descending: Bool = true) -> String {
        let table = keyed ? "itemChatFts" : "itemFts"
        return
            "SELECT rowid FROM \(table) WHERE \(table) MATCH ? AND rowid < ? AND rowid >= ? ORDER BY rowid \(descending ? "DESC" : "ASC") LIMIT ?"
    }
    /// How many of ``indexRowsSQL(keyed:descending:)``'s newest rows there are, and the oldest.
    static func indexWalkSQL(keyed: Bool) -> String {
        "SELECT count(*), min(rowid) FROM (\(indexRowsSQL(keyed: keyed)))"
    }
    /// The archive ids of the matches whose keys are in `[?, ?)`, oldest first, at most `?`, with
    /// deleted items among them: the keys' index gives the ids without reading the items.
    static let keyedIdsSQL = """
        SELECT i.id FROM itemChatFts f JOIN item i ON i.chatKey = f.rowid
        WHERE f.itemChatFts MATCH ? AND f.rowid < ? AND f.rowid >= ? ORDER BY f.rowid LIMIT ?
        """
    /// How many rows of the index match in `[?, ?)`: bind the match, the upper and the lower
    /// rowid (or key, when `keyed`).
    static func indexCountSQL(keyed: Bool) -> String {
        let table = keyed ? "itemChatFts" : "itemFts"
        return "SELECT count(*) FROM \(table) WHERE \(table) MATCH ? AND rowid < ? AND rowid >= ?"
    }
    /// The match expression of the matches whose item is deleted: their tags say so (the writer
    /// keeps an item's tags and flags together), and deleted items are few, so FTS5 answers it
    /// by seeking the word's list at each of them.
    /// A query that matches every item (no clause: an activity, a chat's items) asks for the
    /// deleted tag alone, since every item carries `all`: intersecting with that list seeks it
    /// once per deleted item, across every item of the index.
    var deletedMatch: String {
        match == everythingMatch ? deletedItemsMatch : "(\(match)) AND \(deletedItemsMatch)"
    }
    /// ``deletedItems`` in the searched index.
    var deletedItemsMatch: String {
        withoutPositions ? ChatKeys.quotedKeyed(IndexTerms.deleted) : Self.deletedItems
    }
    /// ``everything`` in the searched index.
    var everythingMatch: String {
        withoutPositions ? "(\(ChatKeys.quotedKeyed(IndexTerms.all)))" : Self.everything
    }
    /// The match expression of every deleted item.
    static let deletedItems = "{tags}: \(IndexTerms.deleted)"
    /// The match of a query with no clause, as the compiler writes it.
    static let everything = "({tags}: \(IndexTerms.all))"
    /// The match is for the chat-keyed index without positions (see `SearchScope`).
    var withoutPositions = false
    /// What the match of an index without positions cannot tell: the phrases each candidate's
    /// text must hold (``TextCheck``), checked in the statement by `chat_text_check`; `nil`
    /// when the match alone is exact.
    var checks: TextCheck? = nil

    /// A statement of `sql` (one of this query's): from the connection's cache, unless it holds
    /// this query's checks, which make each query's SQL its own.
    func statement(_ sql: String, _ db: Database) throws -> Statement {
        checks == nil ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
    }

    /// The conditions on the joined item `i`: not deleted (unless asked for), unread for `is:unread`.
    private var itemConditions: String {
        var sql = ""
        if let checks {
            let literal = "'" + checks.encoded.replacingOccurrences(of: "'", with: "''") + "'"
            sql += " AND \(TextCheckFunction.name)(chat_text(i.text), i.extra, \(literal))"
        }
        if excludesDeleted { sql += " AND \(ItemFlags.sql("i.flags", clear: .deleted))" }
        if requiresUnread {
            sql +=
                " AND \(ItemFlags.sql("i.flags", set: .unread)) AND (i.ts, i.id) > (SELECT readTs, readId FROM chat WHERE chat.id = i.chatId)"
        }
        return sql
    }
    /// Inclusive lower and exclusive upper rowid bounds from `after:` / `before:`.
    var minRowid: Int64 = Int64.min
    var maxRowid: Int64 = Int64.max
    /// Whether no item can match (a `from:` naming nobody, a term with no tokens).
    var isUnsatisfiable = false
    /// Whether deleted items are left out: by the item's flags in a join, which costs FTS5 no
    /// extra posting list to walk per candidate (a `NOT` of the deleted tag did).
    var excludesDeleted = true
    /// `is:unread`: the unread tag is a superset (marking items read moves the chat's read mark,
    /// see `ReadMark`), so the item's flags and its chat's mark decide, in the same join.
    var requiresUnread = false
    var highlighter: Highlighter
}
