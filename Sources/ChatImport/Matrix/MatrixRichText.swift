import ChatModel

/// Formatted pieces being assembled from a Matrix message, with the mentions they contain.
struct MatrixRichText: Equatable {
    var pieces: [FormattedText] = []
    var mentions: [String: MentionTarget] = [:]

    /// The text a reader sees.
    var text: String { pieces.map(\.shownText).joined() }

    /// Whether any piece carries a format.
    var isFormatted: Bool { pieces.contains { $0.format != nil } }

    /// Appends text; adjacent pieces of the same simple format (or none) merge.
    mutating func append(_ text: String, _ format: Format?) {
        guard !text.isEmpty else { return }
        if let last = pieces.last, last.format == format, Self.isMergeable(format) {
            pieces[pieces.count - 1].text += text
        } else {
            pieces.append(FormattedText(text, format))
        }
    }

    private static func isMergeable(_ format: Format?) -> Bool {
        switch format {
        case nil, .bold?, .italic?, .strikeThrough?, .snippet?, .underline?, .secret?: return true
        default: return false
        }
    }

    /// Appends a mention shown as `@name`.
    mutating func appendMention(name: String, target: MentionTarget) {
        pieces.append(FormattedText("@" + name, .mention(memberName: name)))
        mentions[name] = target
    }

    /// Whether the text so far ends a line (or is empty).
    var atLineStart: Bool {
        guard let last = pieces.last(where: { !$0.shownText.isEmpty }) else { return true }
        return last.shownText.unicodeScalars.last == "\n"
    }

    /// Whether the text so far ends with a space.
    var endsWithSpace: Bool { pieces.last?.shownText.unicodeScalars.last == " " }

    /// Drops one space at the end of the text (before a line break), unless it ends a link.
    mutating func dropTrailingSpace() {
        guard let last = pieces.last, Self.isPlainOrStyle(last.format), last.text.unicodeScalars.last == " " else {
            return
        }
        var scalars = last.text.unicodeScalars
        scalars.removeLast()
        if scalars.isEmpty { pieces.removeLast() } else { pieces[pieces.count - 1].text = String(scalars) }
    }

    /// Drops the line breaks and spaces that block elements leave at both ends.
    mutating func trimEdges() {
        while let first = pieces.first, Self.isPlainOrStyle(first.format) {
            let trimmed = String(String.UnicodeScalarView(first.text.unicodeScalars.drop { Self.isEdgeSpace($0) }))
            if trimmed.isEmpty {
                pieces.removeFirst()
                continue
            }
            pieces[0].text = trimmed
            break
        }
        while let last = pieces.last, Self.isPlainOrStyle(last.format) {
            var scalars = Array(last.text.unicodeScalars)
            while let s = scalars.last, Self.isEdgeSpace(s) { scalars.removeLast() }
            if scalars.isEmpty {
                pieces.removeLast()
                continue
            }
            pieces[pieces.count - 1].text = String(String.UnicodeScalarView(scalars))
            break
        }
    }

    private static func isPlainOrStyle(_ format: Format?) -> Bool {
        switch format {
        case .mention?, .hyperLink?, .uri?: return false
        default: return true
        }
    }

    private static func isEdgeSpace(_ u: Unicode.Scalar) -> Bool { u == " " || u == "\n" || u == "\t" || u == "\r" }
}
