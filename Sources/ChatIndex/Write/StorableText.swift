import ChatModel

/// SQLite text bound from Swift ends at its first U+0000 (GRDB binds strings NUL-terminated),
/// so a NUL from a source (`\u0000` in JSON, a stray byte in a text export) would silently cut
/// the rest of a message, or make two ids one. The writer stores U+FFFD in its place, as for
/// invalid UTF-8: one UTF-16 unit either way, so span offsets and match ranges stay valid.
extension String {
    /// The string with every U+0000 replaced by U+FFFD.
    var storable: String {
        guard utf8.contains(0) else { return self }
        var out = String.UnicodeScalarView()
        for s in unicodeScalars { out.append(s == "\0" ? "\u{FFFD}" : s) }
        return String(out)
    }
}

extension Optional where Wrapped == String {
    var storable: String? { map(\.storable) }
}

extension FileRef {
    var storable: FileRef { FileRef(name: name.storable, size: size, path: path.storable) }
}

extension Item {
    /// The item with U+0000 replaced in every text it stores.
    var storable: Item {
        var i = self
        i.chatSourceId = chatSourceId.storable
        i.sourceId = sourceId.storable
        i.memberSourceId = memberSourceId.storable
        i.senderName = senderName.storable
        i.content.text = content.text.storable
        i.content.reason = content.reason.storable
        if let p = content.preview {
            i.content.preview = LinkPreview(
                uri: p.uri.storable, title: p.title.storable, description: p.description.storable)
        }
        if case .formatted(let pieces) = markup {
            i.markup = .formatted(pieces.map { FormattedText($0.text.storable, $0.format) })
        }
        if !mentions.isEmpty {
            var m: [String: MentionTarget] = [:]
            for (k, v) in mentions {
                m[k.storable] = MentionTarget(memberSourceId: v.memberSourceId.storable, isUserMention: v.isUserMention)
            }
            i.mentions = m
        }
        if let q = quote { i.quote = Quote(itemSourceId: q.itemSourceId.storable, text: q.text.storable) }
        i.file = file?.storable
        i.moreFiles = moreFiles.map(\.storable)
        i.raw = raw.storable
        i.wallClock = wallClock.storable
        return i
    }
}

extension Chat {
    /// The chat with U+0000 replaced in every text it stores.
    var storable: Chat {
        var c = self
        c.sourceId = sourceId.storable
        c.displayName = displayName.storable
        c.fullName = fullName.storable
        c.localAlias = localAlias.storable
        c.tags = tags.map(\.storable)
        c.draft = draft.storable
        return c
    }
}

extension Member {
    /// The member with U+0000 replaced in every text it stores.
    var storable: Member {
        var m = self
        m.chatSourceId = chatSourceId.storable
        m.sourceId = sourceId.storable
        m.displayName = displayName.storable
        m.fullName = fullName.storable
        m.localAlias = localAlias.storable
        return m
    }
}
