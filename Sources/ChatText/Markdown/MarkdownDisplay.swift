import ChatModel

/// A message's display text with its formatted ranges (<doc:DisplayTextAndSpans>).
package struct RenderedText: Sendable, Hashable {
    /// What a reader sees: the pieces' shown texts, markers removed.
    package var displayText: String
    /// One span per formatted piece, `[start, end)` in UTF-16 code units of `displayText`.
    package var spans: [Span]
    /// Link targets in order: hyperlink URLs, bracketed SimpleX link URLs, bare URIs and links.
    package var linkTargets: [String]
    /// The `memberName` of each mention, in order.
    package var mentionNames: [String]

    /// Creates a rendered text.
    package init(displayText: String, spans: [Span], linkTargets: [String], mentionNames: [String]) {
        self.displayText = displayText
        self.spans = spans
        self.linkTargets = linkTargets
        self.mentionNames = mentionNames
    }
}

/// Turns parsed pieces into display text, spans, link targets and mention names.
package enum MarkdownDisplay {
    /// Renders pieces: concatenated shown texts, with spans measured additively in UTF-16.
    package static func render(_ pieces: [FormattedText]) -> RenderedText {
        var display = ""
        var spans: [Span] = []
        var links: [String] = []
        var mentions: [String] = []
        var offset = 0
        for piece in pieces {
            let shown = piece.shownText
            let length = shown.utf16.count
            display += shown
            if let format = piece.format {
                spans.append(Span(start: offset, end: offset + length, format: format))
                switch format {
                case .hyperLink(_, let linkUri):
                    links.append(linkUri)
                case .simplexLink(let showText, _, _, _):
                    links.append(showText == nil ? piece.text : bracketedURL(piece.text))
                case .uri:
                    links.append(piece.text)
                case .mention(let memberName):
                    mentions.append(memberName)
                default:
                    break
                }
            }
            offset += length
        }
        return RenderedText(displayText: display, spans: spans, linkTargets: links, mentionNames: mentions)
    }

    /// Renders a message: parses it, and when nothing is formatted its text is the display text.
    package static func render(message text: String) -> RenderedText {
        guard let pieces = SimplexMarkdown.parseMaybeMarkdownList(text) else {
            return RenderedText(displayText: text, spans: [], linkTargets: [], mentionNames: [])
        }
        return render(pieces)
    }

    /// The `url` of `[text](url)` (the text cannot contain `]`).
    static func bracketedURL(_ source: String) -> String {
        var scalars = Substring(source).unicodeScalars
        guard let close = scalars.firstIndex(of: "]") else { return source }
        scalars = scalars[scalars.index(after: close)...]
        guard scalars.first == "(" else { return source }
        scalars = scalars.dropFirst()
        if scalars.last == ")" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
