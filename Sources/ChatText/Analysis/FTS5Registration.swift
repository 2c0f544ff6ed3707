// The files of Analysis/ are the only Swift files that talk to CChatICU: they own every unsafe
// pointer and C callback.
import CChatICU

/// Registration of the FTS5 tokenizer "chat" on SQLite connections.
package enum FTS5Registration {
    /// Registers the tokenizer "chat" on `db` (an `sqlite3 *`); returns an SQLite result code.
    @discardableResult
    package static func register(on db: OpaquePointer) -> Int32 {
        cchaticu_register_fts5(UnsafeMutableRawPointer(db))
    }
}
