/// Whether text is analysed as a document (indexed) or as a query.
package enum TokenizerMode: Sendable, Hashable {
    /// Document: every findable form is emitted, alternatives co-located.
    case document
    /// Query: one token per position, so that a query matches the document's forms.
    case query
}
