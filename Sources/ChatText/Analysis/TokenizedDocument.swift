// The files of Analysis/ are the only Swift files that talk to CChatICU: they own every unsafe
// pointer and C callback.
import CChatICU

/// A text analysed ahead of time, on any thread, so that the FTS5 tokenizer replays its
/// tokens instead of analysing it again on the writer's thread (the ingest pipeline analyses
/// on one core while SQLite writes on the other).
///
/// Arm it on the writing thread around the statement that indexes exactly this text; the tokenizer checks the bytes, so a
/// mismatch only costs a normal analysis, never a wrong index.
package final class TokenizedDocument: @unchecked Sendable {
    /// The C document; internal so that ``TermSet`` can add its terms.
    let handle: OpaquePointer?

    /// Analyses `text` as a document.
    package init(_ text: String) {
        var text = text
        handle = text.withUTF8 { buf in
            cchaticu_doc_tokenize(buf.baseAddress, Int32(buf.count))
        }
    }

    deinit { cchaticu_doc_free(handle) }

    /// The bytes the document holds on the heap: its text and its token records.
    package var byteCount: Int { Int(cchaticu_doc_bytes(handle)) }

    /// Runs `body` with up to two documents armed on the calling thread.
    package static func armed<T>(_ first: TokenizedDocument?, _ second: TokenizedDocument?, _ body: () throws -> T)
        rethrows -> T
    {
        try withExtendedLifetime((first, second)) {
            cchaticu_doc_arm(first?.handle, second?.handle)
            defer { cchaticu_doc_arm(nil, nil) }
            return try body()
        }
    }
}
