import ChatModel
import ChatText
import GRDB

/// The vocabulary of indexed terms, kept for infix and prefix search: a `term` table (its
/// unique index answers prefix ranges) and a trigram index over it (`termGram`), so `eed`
/// finds the terms `seed` and `speed` at index speed.
///
/// The writer adds the terms of each batch in the batch's transaction (from a ``TermSet`` fed
/// by the prepared documents); a rebuild reads them back from the full-text index itself.
enum TermVocabulary {
    /// The trigram index of the vocabulary as format 20 creates it: without FTS5's sizes table
    /// (`columnsize=0`), which nothing reads, since the index is only matched, never ranked.
    static let gramSQL = """
        CREATE VIRTUAL TABLE termGram USING fts5(term, content='', tokenize='trigram', columnsize=0)
        """

    /// Inserts terms not yet in the vocabulary: one statement for the terms and one for the
    /// trigram rows of those that were new (a new term takes an id above every older one).
    /// A statement per term cost the writer more than the rows themselves on real text
    /// (<doc:WritePerformance>). Both statements open a statement savepoint, at which FTS5
    /// writes out the rows it holds: a transaction runs them before its items' full-text rows.
    static func insert(_ terms: [String], into db: Database) throws {
        guard !terms.isEmpty else { return }
        let before = try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM term")) ?? 0
        var list = JSONBytes(capacity: 12 * terms.count)
        list.array(terms) { o, t in o.string(t) }
        try db.cachedStatement(
            sql: "INSERT INTO term(term) SELECT value FROM json_each(?) WHERE true ON CONFLICT(term) DO NOTHING"
        ).execute(arguments: [list.text])
        let added = db.changesCount
        guard added > 0 else { return }
        try db.cachedStatement(sql: "INSERT INTO termGram(rowid, term) SELECT id, term FROM term WHERE id > ?")
            .execute(arguments: [before])
        try ArchiveCounters.add(Int64(added), to: ArchiveCounters.terms, db)
    }

    /// Replaces the vocabulary with the terms of the `text` and `extra` columns of the
    /// full-text index, without the character n-grams of scripts written without spaces.
    static func rebuild(_ db: Database) throws {
        // The index is created anew, so a rebuilt archive has the current kind (``gramSQL``).
        try db.execute(sql: "DELETE FROM term; DROP TABLE termGram; \(gramSQL)")
        try db.execute(sql: "UPDATE archiveCounter SET value = 0 WHERE name = ?", arguments: [ArchiveCounters.terms])
        try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.itemFtsVocab USING fts5vocab(main, itemFts, col)")
        defer { try? db.execute(sql: "DROP TABLE IF EXISTS temp.itemFtsVocab") }
        let terms = try String.fetchCursor(
            db, sql: "SELECT DISTINCT term FROM temp.itemFtsVocab WHERE col IN ('text', 'extra')")
        var batch: [String] = []
        while let t = try terms.next() {
            if isNoSpaceNGram(t) { continue }
            batch.append(t)
            if batch.count == 10_000 {
                try insert(batch, into: db)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try insert(batch, into: db)
    }

    /// A one- or two-character token of a script without spaces (how such runs are indexed).
    static func isNoSpaceNGram(_ t: String) -> Bool {
        let scalars = t.unicodeScalars
        guard scalars.count <= 2, let first = scalars.first else { return false }
        switch first.value {
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F, 0xF900...0xFAFF, 0x20000...0x2FFFF:
            return true
        default: return false
        }
    }
}
