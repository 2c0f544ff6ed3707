import ChatModel

/// What the analyser makes of an item's text: what people see, its spans, and what is indexed
/// beside it.
package struct AnalyzedText: Sendable, Hashable {
    /// The text shown to people: markdown markers removed, hyperlinks shown by their text.
    package var displayText: String
    /// Formatted ranges of ``displayText`` in UTF-16 code units.
    package var spans: [Span]
    /// Link targets that are indexed but not shown (hyperlink URLs).
    package var linkTargets: [String]
    /// Names of the mentions in the text, in order (`memberName`s).
    package var mentionNames: [String]

    package init(displayText: String, spans: [Span] = [], linkTargets: [String] = [], mentionNames: [String] = []) {
        self.displayText = displayText
        self.spans = spans
        self.linkTargets = linkTargets
        self.mentionNames = mentionNames
    }

    /// Whether any span is a link (<doc:DisplayTextAndSpans>: uri, hyperLink, simplexLink, simplexName).
    package var hasLinkSpan: Bool { spans.contains { $0.format.isLink } }
}

/// Turns an item's text and markup into ``AnalyzedText``.
package enum ItemAnalyzer {
    /// Analyses `text` according to `markup`: SimpleX markdown is parsed, pre-formatted pieces
    /// are rendered, plain text is kept as it is.
    package static func analyze(_ text: String, markup: Markup) -> AnalyzedText {
        switch markup {
        case .plain:
            return AnalyzedText(displayText: text)
        case .simplex:
            guard let pieces = SimplexMarkdown.parseMaybeMarkdownList(text) else {
                return AnalyzedText(displayText: text)
            }
            return analyze(pieces)
        case .formatted(let pieces):
            return analyze(pieces)
        }
    }

    /// Renders formatted pieces (<doc:DisplayTextAndSpans>).
    package static func analyze(_ pieces: [FormattedText]) -> AnalyzedText {
        let r = MarkdownDisplay.render(pieces)
        return AnalyzedText(
            displayText: r.displayText, spans: r.spans, linkTargets: r.linkTargets, mentionNames: r.mentionNames)
    }
}
