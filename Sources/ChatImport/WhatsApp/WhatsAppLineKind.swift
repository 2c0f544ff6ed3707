/// What a header line is: a system event or an authored message.
enum WhatsAppLineKind {
    case system(text: String)
    case message(authorKey: String, text: String)

    /// Classifies the first line of an item. `knownAuthors` (authors of ordinary lines) decides
    /// Android lines whose "author" holds a system phrase; `nil` during the survey.
    static func classify(_ header: WhatsAppHeader, _ scalars: [Unicode.Scalar], knownAuthors: Set<String>?)
        -> WhatsAppLineKind
    {
        let body = Array(scalars[header.bodyStart...])
        func string(_ s: ArraySlice<Unicode.Scalar>) -> String {
            var v = String.UnicodeScalarView()
            v.append(contentsOf: s)
            return String(v)
        }
        var colon: Int?
        for k in body.indices where body[k] == ":" && (k + 1 == body.count || WhatsAppChars.isSpace(body[k + 1])) {
            colon = k
            break
        }
        guard let colon else { return .system(text: systemText(string(body[...]))) }
        let authorText = string(body[..<colon])
        let key = WhatsAppMessageBody.authorKey(authorText)
        let text = string(body[min(colon + 2, body.count)...])
        if key.isEmpty { return .system(text: systemText(string(body[...]))) }
        switch header.shape.layout {
        case .android, .old:
            if WhatsAppPhrases.isSystemInAuthor(authorText), !(knownAuthors?.contains(key) ?? false) {
                return .system(text: systemText(string(body[...])))
            }
        case .ios:
            if text.unicodeScalars.first == "\u{200E}" {
                let parsed = WhatsAppMessageBody(text, ownerKey: nil)
                if parsed.contentType == .text, !parsed.isDeleted {
                    return .system(text: systemText(text))
                }
            }
        }
        return .message(authorKey: key, text: text)
    }

    private static func systemText(_ text: String) -> String {
        var s = Substring(text)
        while let f = s.unicodeScalars.first, WhatsAppChars.isIgnorable(f) {
            s = Substring(s.unicodeScalars.dropFirst())
        }
        return String(s)
    }
}
