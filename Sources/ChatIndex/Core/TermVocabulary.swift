import ChatText
import GRDB

/// The vocabulary of indexed terms, kept for infix search: a `term` table and a trigram
/// index over it (`termGram`), so `eed` finds the terms `seed` and `speed` at index speed.
///
/// Terms are captured by the C tokenizer while documents are indexed (one process-wide set),
/// then drained into the tables in the same transaction.
enum TermVocabulary {
    static func begin() { VocabularyCapture.setEnabled(true) }
    static func end() { VocabularyCapture.setEnabled(false) }

    /// Moves captured terms into `term` and `termGram`.
    static func drain(into db: Database) throws {
        let terms = VocabularyCapture.drain()
        guard !terms.isEmpty else { return }
        let insert = try db.cachedStatement(sql: "INSERT INTO term(term) VALUES (?) ON CONFLICT(term) DO NOTHING")
        let gram = try db.cachedStatement(sql: "INSERT INTO termGram(rowid, term) VALUES (?, ?)")
        for t in terms {
            try insert.execute(arguments: [t])
            if db.changesCount > 0 {
                try gram.execute(arguments: [db.lastInsertedRowID, t])
            }
        }
    }
}
