import CChatICU
import GRDB

/// The vocabulary of indexed terms, kept for infix search: a `term` table and a trigram
/// index over it (`termGram`), so `eed` finds the terms `seed` and `speed` at index speed.
///
/// Terms are captured by the C tokenizer while documents are indexed (one process-wide set
/// behind a mutex), then drained into the tables in the same transaction.
enum VocabularyCapture {
    static func begin() { _ = cchaticu_vocab_capture(1) }
    static func end() { _ = cchaticu_vocab_capture(0) }

    /// Moves captured terms into `term` and `termGram`.
    static func drain(into db: Database) throws {
        final class Box { var terms: [String] = [] }
        let box = Box()
        let ctx = Unmanaged.passUnretained(box).toOpaque()
        _ = cchaticu_vocab_drain(ctx) { ctx, _, token, len, _, _ in
            guard let ctx, let token else { return 0 }
            let b = Unmanaged<Box>.fromOpaque(ctx).takeUnretainedValue()
            b.terms.append(String(decoding: UnsafeBufferPointer(start: token, count: Int(len)), as: UTF8.self))
            return 0
        }
        guard !box.terms.isEmpty else { return }
        let insert = try db.cachedStatement(sql: "INSERT INTO term(term) VALUES (?) ON CONFLICT(term) DO NOTHING")
        let gram = try db.cachedStatement(sql: "INSERT INTO termGram(rowid, term) VALUES (?, ?)")
        for t in box.terms {
            try insert.execute(arguments: [t])
            if db.changesCount > 0 {
                try gram.execute(arguments: [db.lastInsertedRowID, t])
            }
        }
    }
}
