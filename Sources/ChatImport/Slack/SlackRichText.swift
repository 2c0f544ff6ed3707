import ChatModel

/// Formatted pieces being assembled, with the mentions they contain.
struct SlackRichText: Equatable {
    var pieces: [FormattedText] = []
    var mentions: [String: MentionTarget] = [:]

    /// The text a reader sees.
    var text: String { pieces.map(\.shownText).joined() }

    /// Appends text; adjacent pieces of the same format merge.
    mutating func append(_ text: String, _ format: Format? = nil) {
        guard !text.isEmpty else { return }
        if let last = pieces.last, last.format == format, format == nil || SlackRichText.mergeable(format) {
            pieces[pieces.count - 1].text += text
        } else {
            pieces.append(FormattedText(text, format))
        }
    }

    private static func mergeable(_ format: Format?) -> Bool {
        switch format {
        case .bold?, .italic?, .strikeThrough?, .snippet?: return true
        default: return false
        }
    }

    /// Appends another text's pieces and mentions.
    mutating func append(contentsOf other: SlackRichText) {
        for piece in other.pieces {
            if piece.format == nil || SlackRichText.mergeable(piece.format) {
                append(piece.text, piece.format)
            } else {
                pieces.append(piece)
            }
        }
        mentions.merge(other.mentions) { first, _ in first }
    }

    /// Appends a mention of a user: `@Name`, with a mentions entry keyed by the name.
    mutating func appendMention(userId: String, directory: SlackDirectory, label: String? = nil) {
        let name = directory.userName(userId) ?? label.flatMap { $0.isEmpty ? nil : $0 } ?? userId
        pieces.append(FormattedText("@" + name, .mention(memberName: name)))
        mentions[name] = MentionTarget(memberSourceId: userId, isUserMention: directory.ownerIds.contains(userId))
    }

    /// Whether the text so far ends a line (or is empty).
    var atLineStart: Bool {
        guard let last = pieces.last(where: { !$0.shownText.isEmpty }) else { return true }
        return last.shownText.hasSuffix("\n")
    }
}

/// Slack's `mrkdwn` message text (the SlackFormat article of ChatImport's documentation): `<…>` tokens first, then `&amp; &lt; &gt;`,
