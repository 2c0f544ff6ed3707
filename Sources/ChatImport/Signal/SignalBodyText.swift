import ChatModel

/// A Signal message body with its ranges (`bodyRanges[{start, length, style | mentionAci}]`,
/// UTF-16 offsets into the body) as formatted pieces: styles become spans, and each mention
/// range (the body holds U+FFFC there) becomes `@Name`, a mention of the member.
struct SignalBodyText {
    var pieces: [FormattedText] = []
    var mentions: [String: MentionTarget] = [:]

    /// The text a reader sees.
    var text: String { pieces.map(\.shownText).joined() }

    /// Whether any piece is formatted (else the body is plain text).
    var isFormatted: Bool { pieces.contains { $0.format != nil } }

    private struct Range {
        var start: Int
        var end: Int
        var format: Format?
        var mention: (key: String, name: String, isUser: Bool)?
    }

    /// Builds the pieces of `body`; `person` names a mentioned ACI.
    init(body: String, ranges: [JSONValue], person: (String) -> (key: String, name: String, isUser: Bool)) {
        let units = Array(body.utf16)
        var spans: [Range] = []
        for r in ranges {
            let start = Int(JSONField.int(r["start"]) ?? 0)
            let length = Int(JSONField.int(r["length"]) ?? 0)
            guard start >= 0, length > 0, start < units.count else { continue }
            var lo = start
            var hi = min(units.count, start + length)
            // Never cut a surrogate pair.
            if lo > 0, UTF16.isTrailSurrogate(units[lo]), UTF16.isLeadSurrogate(units[lo - 1]) { lo -= 1 }
            if hi < units.count, UTF16.isTrailSurrogate(units[hi]), UTF16.isLeadSurrogate(units[hi - 1]) { hi += 1 }
            if let aci = SignalRecipients.uuid(r["mentionAci"]) {
                spans.append(Range(start: lo, end: hi, format: nil, mention: person(aci)))
            } else if let format = Self.format(r["style"]) {
                spans.append(Range(start: lo, end: hi, format: format))
            }
        }
        guard !spans.isEmpty else {
            pieces = body.isEmpty ? [] : [FormattedText(body)]
            return
        }
        // Mentions replace their range; overlapping mentions after the first are dropped.
        var mentionSpans: [Range] = []
        for m in spans.filter({ $0.mention != nil }).sorted(by: { $0.start < $1.start }) {
            if let last = mentionSpans.last, m.start < last.end { continue }
            mentionSpans.append(m)
        }
        let styles = spans.filter { $0.format != nil }
        var cuts = Set([0, units.count])
        for s in styles + mentionSpans {
            cuts.insert(s.start)
            cuts.insert(s.end)
        }
        let bounds = cuts.sorted()
        var mentionIndex = 0
        for (lo, hi) in zip(bounds, bounds.dropFirst()) where lo < hi {
            while mentionIndex < mentionSpans.count, mentionSpans[mentionIndex].end <= lo { mentionIndex += 1 }
            if mentionIndex < mentionSpans.count, mentionSpans[mentionIndex].start <= lo,
                let m = mentionSpans[mentionIndex].mention
            {
                if mentionSpans[mentionIndex].start == lo {
                    pieces.append(FormattedText("@" + m.name, .mention(memberName: m.name)))
                    mentions[m.name] = MentionTarget(memberSourceId: m.key, isUserMention: m.isUser)
                }
                continue
            }
            let text = String(decoding: units[lo..<hi], as: UTF16.self)
            // One format per piece: the most specific of those covering it.
            let covering = styles.filter { $0.start <= lo && hi <= $0.end }.compactMap(\.format)
            let format = Self.priority.first { f in covering.contains(f) }
            if let last = pieces.last, last.format == format, format == nil {
                pieces[pieces.count - 1].text += text
            } else {
                pieces.append(FormattedText(text, format))
            }
        }
    }

    private static let priority: [Format] = [.snippet, .secret, .bold, .italic, .strikeThrough]

    /// A `style` value (by name, or by number for enums the writer did not know) as a format.
    static func format(_ v: JSONValue?) -> Format? {
        switch v?.stringValue ?? JSONField.int(v).map(String.init) {
        case "BOLD", "1": .bold
        case "ITALIC", "2": .italic
        case "SPOILER", "3": .secret
        case "STRIKETHROUGH", "4": .strikeThrough
        case "MONOSPACE", "5": .snippet
        default: nil
        }
    }
}
