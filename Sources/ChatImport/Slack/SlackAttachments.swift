import ChatModel
import Foundation

/// What bots and integrations post besides rich text: legacy `attachments[]` and layout
/// blocks (`section`, `header`, `context`), rendered as Slack shows them.
enum SlackAttachments {
    /// Whether an attachment previews a link of the message (an unfurl) rather than holding
    /// content a bot posted.
    static func isUnfurl(_ a: JSONValue) -> Bool {
        a["from_url"]?.stringValue != nil || a["original_url"]?.stringValue != nil
            || a["is_app_unfurl"]?.boolValue == true
    }

    /// The text an attachment shows: its blocks, or pretext, author, title (linked to
    /// `title_link`), text, fields (`title` then `value`) and footer, one per line; its
    /// `fallback` only when it shows none of those.
    static func render(_ a: JSONValue, directory: SlackDirectory) -> SlackRichText {
        if let blocks = SlackBlocks.render(a["blocks"], directory: directory), !blocks.text.isEmpty { return blocks }
        var parts: [SlackRichText] = []
        if let pretext = nonEmpty(a["pretext"]) { parts.append(SlackMrkdwn.parse(pretext, directory: directory)) }
        if let author = nonEmpty(a["author_name"]) { parts.append(plain(author)) }
        if let title = nonEmpty(a["title"]) {
            var t = SlackRichText()
            let shown = SlackMrkdwn.unescape(title)
            if let link = nonEmpty(a["title_link"]) {
                t.append(shown, .hyperLink(showText: shown, linkUri: link))
            } else {
                t.append(shown)
            }
            parts.append(t)
        }
        if let text = nonEmpty(a["text"]) { parts.append(SlackMrkdwn.parse(text, directory: directory)) }
        for field in a["fields"]?.arrayValue ?? [] {
            if let title = nonEmpty(field["title"]) { parts.append(plain(title)) }
            if let value = nonEmpty(field["value"]) { parts.append(SlackMrkdwn.parse(value, directory: directory)) }
        }
        if let footer = nonEmpty(a["footer"]) { parts.append(SlackMrkdwn.parse(footer, directory: directory)) }
        if parts.allSatisfy({ $0.text.isEmpty }), let fallback = nonEmpty(a["fallback"]) {
            parts = [SlackMrkdwn.parse(fallback, directory: directory)]
        }
        return joinedOnce(parts)
    }

    /// The parts one per line, each shown once: a part whose text an earlier part already
    /// showed is left out.
    static func joinedOnce(_ parts: [SlackRichText]) -> SlackRichText {
        var out = SlackRichText()
        var shown: Set<String> = []
        for part in parts {
            let key = comparable(part.text)
            guard !key.isEmpty, shown.insert(key).inserted else { continue }
            if !out.pieces.isEmpty { out.append("\n") }
            out.append(contentsOf: part)
        }
        return out
    }

    /// Text compared for repetition: trimmed, case and spacing kept.
    static func comparable(_ s: String) -> String {
        s.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The fallback texts of the attachments, as they would show (for dropping a message text
    /// that only repeats them).
    static func fallbacks(_ attachments: [JSONValue], directory: SlackDirectory) -> Set<String> {
        Set(
            attachments.compactMap { nonEmpty($0["fallback"]) }.map {
                comparable(SlackMrkdwn.parse($0, directory: directory).text)
            })
    }

    private static func plain(_ s: String) -> SlackRichText {
        var t = SlackRichText()
        t.append(SlackMrkdwn.unescape(s))
        return t
    }

    private static func nonEmpty(_ v: JSONValue?) -> String? {
        guard let s = v?.stringValue, !s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return s
    }
}
