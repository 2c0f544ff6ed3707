import ChatModel

/// A message being gathered: its header line and any continuation lines.
struct WhatsAppPendingItem {
    var line: Int
    var header: WhatsAppHeader
    var hour: Int
    var date: (year: Int, month: Int, day: Int)
    var firstLine: [Unicode.Scalar]
    var continuation: [String] = []
    var raw: [String]
}

/// Turns gathered lines into ``Item``s with stable ids.
struct WhatsAppItemBuilder {
    let chatKey: String
    let chatSourceId: String
    let zone: FloatingTimeZone
    let ownerKey: String?
    let knownAuthors: Set<String>
    /// The folder of the chat text inside the export, where attached media lie ("" at the root).
    let mediaFolder: String
    /// How many items so far had each (chat, time, author, text) digest.
    private var seen: [String: Int] = [:]

    init(
        chatKey: String, chatSourceId: String, zone: FloatingTimeZone, ownerKey: String?, knownAuthors: Set<String>,
        mediaFolder: String = ""
    ) {
        self.mediaFolder = mediaFolder
        self.chatKey = chatKey
        self.chatSourceId = chatSourceId
        self.zone = zone
        self.ownerKey = ownerKey
        self.knownAuthors = knownAuthors
    }

    mutating func item(from p: WhatsAppPendingItem) -> Item {
        let h = p.header
        let second = h.second ?? 0
        let local =
            Timestamp.days(year: p.date.year, month: p.date.month, day: p.date.day) * 86400
            + Int64(p.hour * 3600 + h.minute * 60 + second)
        let timestamp = Timestamp(seconds: zone.instant(localSeconds: local))
        func pad(_ v: Int, _ n: Int = 2) -> String {
            let s = String(v)
            return s.count >= n ? s : String(repeating: "0", count: n - s.count) + s
        }
        var wallClock = "\(pad(p.date.year, 4))-\(pad(p.date.month))-\(pad(p.date.day))T\(pad(p.hour)):\(pad(h.minute))"
        if let s = h.second { wallClock += ":" + pad(s) }

        let kind = WhatsAppLineKind.classify(h, p.firstLine, knownAuthors: knownAuthors)
        var item: Item
        let authorKey: String
        let written: String
        switch kind {
        case .system(let text):
            authorKey = ""
            written = ([text] + p.continuation).joined(separator: "\n")
            item = Item(
                chatSourceId: chatSourceId, sourceId: "", timestamp: timestamp, direction: .event,
                content: MessageContent(type: .event, text: written), markup: .plain)
        case .message(let author, let text):
            authorKey = author
            written = ([text] + p.continuation).joined(separator: "\n")
            let body = WhatsAppMessageBody(written, ownerKey: ownerKey)
            var file = body.file
            if body.isFileIncluded, let name = file?.name, let path = JSONField.relativePath(name), !path.contains("/")
            {
                file?.path = mediaFolder.isEmpty ? path : mediaFolder + "/" + path
            }
            item = Item(
                chatSourceId: chatSourceId, sourceId: "", timestamp: timestamp,
                direction: author == ownerKey ? .snd : .rcv,
                memberSourceId: author, senderName: author,
                content: MessageContent(type: body.contentType, text: body.text, preview: body.preview),
                markup: .simplex,
                mentions: body.mentions, file: file, isEdited: body.isEdited, isDeleted: body.isDeleted)
        }
        item.raw = p.raw.joined(separator: "\n")
        item.isFloating = true
        item.wallClock = wallClock
        item.sourceId = itemKey(wallClock: wallClock, author: authorKey, text: WhatsAppChars.parseView(written))
        return item
    }

    /// SHA-256 over the chat key, wall clock, author, parse-normalised text and the ordinal
    /// among earlier items sharing those four; the first 32 hex digits.
    private mutating func itemKey(wallClock: String, author: String, text: String) -> String {
        var hasher = SHA256Digest()
        for field in [chatKey, wallClock, author, text] {
            hasher.update(field)
            hasher.update([0])
        }
        var probe = hasher
        let fourFields = SHA256Digest.hexString(probe.finish())
        let ordinal = seen[fourFields, default: 0]
        seen[fourFields] = ordinal + 1
        hasher.update(String(ordinal))
        return String(SHA256Digest.hexString(hasher.finish()).prefix(32))
    }
}
