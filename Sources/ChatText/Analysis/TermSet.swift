// The files of Analysis/ are the only Swift files that talk to CChatICU: they own every unsafe
// pointer and C callback.
import CChatICU

/// The distinct terms of the documents added to it (whole tokens and co-located parts, no
/// character n-grams), for the archive's infix and prefix vocabulary. It hands out each term
/// once, as long as it remembers it (see ``init(limit:)``). Thread-safe.
package final class TermSet: @unchecked Sendable {
    private let handle: OpaquePointer?

    /// Makes an empty set that remembers up to `limit` terms (by default 524,288, a few MB):
    /// a drain that leaves more forgets them all, so its memory stays bounded whatever the
    /// vocabulary, and a term seen again after that is drained again.
    package init(limit: Int = Int(CCHATICU_VOCAB_SEEN_LIMIT)) {
        handle = cchaticu_vocab_new()
        cchaticu_vocab_set_limit(handle, Int32(clamping: limit))
    }
    deinit { cchaticu_vocab_free(handle) }

    /// Adds the terms of a prepared document.
    package func add(_ doc: TokenizedDocument) {
        cchaticu_vocab_add_doc(handle, doc.handle)
    }

    /// Returns the terms added since the last drain that were never seen before.
    package func drain() -> [String] {
        final class Sink { var terms: [String] = [] }
        let sink = Sink()
        withExtendedLifetime(sink) {
            _ = cchaticu_vocab_drain(handle, Unmanaged.passUnretained(sink).toOpaque()) { ctx, _, token, length, _, _ in
                guard let ctx, let token else { return 0 }
                let sink = Unmanaged<Sink>.fromOpaque(ctx).takeUnretainedValue()
                sink.terms.append(
                    String(decoding: UnsafeBufferPointer(start: token, count: Int(length)), as: UTF8.self))
                return 0
            }
        }
        return sink.terms
    }
}
