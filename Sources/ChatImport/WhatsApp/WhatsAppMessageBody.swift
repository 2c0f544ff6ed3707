import ChatModel

/// What a WhatsApp message's text means: plain text, an attachment, a location, an edit or a
/// deletion, with mentions rewritten to SimpleX syntax.
struct WhatsAppMessageBody: Equatable {
    var contentType: ContentType = .text
    var text: String
    var file: FileRef?
    /// The file was exported with the chat (`FILE (file attached)`, `<attached: FILE>`), beside the text.
    var isFileIncluded = false
    var preview: LinkPreview?
    var isEdited = false
    var isDeleted = false
    var mentions: [String: MentionTarget] = [:]

    /// Interprets the text after `AUTHOR: ` (continuation lines joined with LF).
    ///
    /// Display text keeps what the user wrote, minus the marks WhatsApp adds around its own
    /// structure: a leading U+200E, the edit marker, and U+2068/U+2069 around mentions.
    init(_ written: String, ownerKey: String?) {
        var text = Substring(written)
        while let f = text.unicodeScalars.first, f == "\u{200E}" || f == "\u{200F}" {
            text = Substring(text.unicodeScalars.dropFirst())
        }
        self.text = String(text)
        stripEditMarker()

        let view = WhatsAppChars.parseView(self.text)
        if WhatsAppPhrases.isDeletedText(view) {
            isDeleted = true
            self.text = ""
            return
        }
        let (firstLine, rest) = WhatsAppMessageBody.splitFirstLine(self.text)
        // `firstView` is for matching phrases; names are cut from `firstClean`, which keeps
        // NBSPs (they occur in real file names) and has the same characters otherwise.
        let firstView = WhatsAppChars.trimmingSpaces(WhatsAppChars.parseView(firstLine))
        let firstClean = WhatsAppMessageBody.trimmingSpaceLike(WhatsAppMessageBody.removingIgnorable(firstLine))
        let lowerFirst = firstView.lowercased()

        if WhatsAppPhrases.mediaOmitted.contains(lowerFirst) {
            contentType = .file
            file = FileRef(name: "(media omitted)")
            self.text = rest
        } else if let suffix = WhatsAppPhrases.fileAttachedSuffixes.first(where: { lowerFirst.hasSuffix($0) }) {
            let name = String(firstClean.dropLast(suffix.count))
            contentType = WhatsAppMessageBody.contentType(ofFile: name)
            file = FileRef(name: name)
            isFileIncluded = true
            self.text = rest
        } else if let prefix = WhatsAppPhrases.attachedPrefixes.first(where: { lowerFirst.hasPrefix($0) }),
            let close = firstView.firstIndex(of: ">")
        {
            let closeOffset = firstView.distance(from: firstView.startIndex, to: close)
            let name = String(firstClean.dropFirst(prefix.count).prefix(closeOffset - prefix.count))
            contentType = WhatsAppMessageBody.contentType(ofFile: name)
            file = FileRef(name: name)
            isFileIncluded = true
            let caption = WhatsAppChars.trimmingSpaces(firstView[firstView.index(after: close)...])
            self.text = [caption, rest].filter { !$0.isEmpty }.joined(separator: "\n")
        } else if let (kind, type) = WhatsAppPhrases.omittedKinds.first(where: { lowerFirst.hasSuffix($0.0) }),
            lowerFirst == kind || kind.hasPrefix("document") || kind.hasPrefix("dokument")
        {
            contentType = type
            var name = String(firstView.dropLast(kind.count))
            if let bullet = name.firstIndex(of: "•") { name = String(name[..<bullet]) }
            name = WhatsAppChars.trimmingSpaces(name)
            file = FileRef(name: name.isEmpty ? "(\(kind))" : name)
            self.text = rest
        } else if lowerFirst == WhatsAppPhrases.viewOnce, rest.isEmpty {
            contentType = .file
            file = FileRef(name: "(view once media)")
            self.text = ""
        } else if let prefix = WhatsAppPhrases.locationPrefixes.first(where: { lowerFirst.hasPrefix($0) }) {
            let url = WhatsAppChars.trimmingSpaces(firstView.dropFirst(prefix.count))
            if url.hasPrefix("http://") || url.hasPrefix("https://") {
                contentType = .link
                preview = LinkPreview(uri: url, title: String(firstView.prefix(prefix.count - 2)))
            }
        }
        rewriteMentions(ownerKey: ownerKey)
    }

    private static func removingIgnorable(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        out.append(contentsOf: s.unicodeScalars.filter { !WhatsAppChars.isIgnorable($0) })
        return String(out)
    }

    private static func trimmingSpaceLike(_ s: String) -> String {
        var scalars = Substring(s).unicodeScalars
        while let f = scalars.first, WhatsAppChars.isSpace(f) { scalars.removeFirst() }
        while let l = scalars.last, WhatsAppChars.isSpace(l) { scalars.removeLast() }
        return String(scalars)
    }

    private static func splitFirstLine(_ text: String) -> (String, String) {
        guard let nl = text.firstIndex(of: "\n") else { return (text, "") }
        return (String(text[..<nl]), String(text[text.index(after: nl)...]))
    }

    /// Removes a trailing ` <This message was edited>` (with the LRM iOS puts before `<`).
    private mutating func stripEditMarker() {
        for marker in WhatsAppPhrases.editedMarkers {
            var scalars = Array(text.unicodeScalars)
            let m = Array(marker.unicodeScalars)
            // Trailing spaces after the marker are tolerated; before it, one space and the
            // LRM iOS adds go (never a PDI, which closes a mention).
            var end = scalars.count
            while end > 0, WhatsAppChars.isSpace(scalars[end - 1]) { end -= 1 }
            guard end >= m.count, Array(scalars[(end - m.count)..<end]) == m else { continue }
            var start = end - m.count
            while start > 0, scalars[start - 1] == "\u{200E}" || WhatsAppChars.isSpace(scalars[start - 1]) {
                start -= 1
            }
            scalars.removeSubrange(start..<scalars.count)
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            text = String(view)
            isEdited = true
            return
        }
    }

    /// `@`+U+2068+name+U+2069 becomes `@name` (or `@'name'` when the name has spaces), with a
    /// mentions entry keyed by the name the markdown parser will read.
    private mutating func rewriteMentions(ownerKey: String?) {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains("\u{2068}") else { return }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if scalars[i] == "@", i + 1 < scalars.count, scalars[i + 1] == "\u{2068}",
                let close = scalars[(i + 2)...].firstIndex(of: "\u{2069}"), close > i + 2
            {
                var nameView = String.UnicodeScalarView()
                nameView.append(contentsOf: scalars[(i + 2)..<close])
                let key = WhatsAppMessageBody.authorKey(String(nameView))
                if !key.isEmpty {
                    let needsQuotes = key.unicodeScalars.contains {
                        WhatsAppChars.isSpace($0) || $0 == "#" || $0 == "@"
                    }
                    let written = needsQuotes && !key.contains("'") ? "@'\(key)'" : "@" + key
                    out.append(contentsOf: written.unicodeScalars)
                    mentions[key] = MentionTarget(memberSourceId: key, isUserMention: ownerKey == key)
                    i = close + 1
                    continue
                }
            }
            out.append(scalars[i])
            i += 1
        }
        text = String(out)
    }

    /// The member key of an author or mention name: bidi marks dropped, `~`+U+202F removed,
    /// NBSP/NNBSP as spaces, trimmed.
    static func authorKey(_ name: String) -> String {
        var key = WhatsAppChars.trimmingSpaces(WhatsAppChars.parseView(name))
        if key.hasPrefix("~") {
            key.removeFirst()
            key = WhatsAppChars.trimmingSpaces(key)
        }
        return key
    }

    /// The content type of an attached file, from WhatsApp's name prefixes or the extension.
    static func contentType(ofFile name: String) -> ContentType {
        let upper = name.uppercased()
        if upper.hasPrefix("PTT-") || upper.contains("-AUDIO-") && upper.hasSuffix(".OPUS") { return .voice }
        if upper.hasPrefix("IMG-") || upper.hasPrefix("STK-") || upper.contains("-PHOTO-")
            || upper.contains("-STICKER-")
        {
            return .image
        }
        if upper.hasPrefix("VID-") || upper.contains("-VIDEO-") || upper.contains("-GIF-") { return .video }
        let ext = upper.split(separator: ".").last.map(String.init) ?? ""
        switch ext {
        case "JPG", "JPEG", "PNG", "WEBP", "HEIC", "GIF": return .image
        case "MP4", "MOV", "3GP", "MKV", "WEBM": return .video
        case "OPUS": return .voice
        default: return .file
        }
    }
}
