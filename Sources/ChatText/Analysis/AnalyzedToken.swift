/// One token produced by the analyser.
package struct AnalyzedToken: Sendable, Hashable {
    /// The normalised token, as stored in the full-text index.
    package var text: String
    /// Where the token comes from, in UTF-16 code units of the analysed string.
    package var utf16Range: Range<Int>
    /// True when the token shares the position of the previous one (an alternative form).
    package var isColocated: Bool

    /// Creates a token.
    package init(text: String, utf16Range: Range<Int>, isColocated: Bool) {
        self.text = text
        self.utf16Range = utf16Range
        self.isColocated = isColocated
    }
}
