/// A token that a ``TokenMatcher`` found.
package struct TokenMatch: Sendable, Hashable {
    /// The normalised token.
    package var text: String
    /// Its position among the text's token positions (co-located tokens share one).
    package var position: Int
    /// Where it comes from, in UTF-8 code units of the analysed string.
    package var utf8Range: Range<Int>
    /// Where it comes from, in UTF-16 code units of the analysed string.
    package var utf16Range: Range<Int>

    /// Creates a match.
    package init(text: String, position: Int, utf8Range: Range<Int>, utf16Range: Range<Int>) {
        self.text = text
        self.position = position
        self.utf8Range = utf8Range
        self.utf16Range = utf16Range
    }
}
