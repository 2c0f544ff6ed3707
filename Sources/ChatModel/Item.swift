/// Who sent an item, as SimpleX's chat direction.
public enum ItemDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// Sent by the user.
    case snd
    /// Received from someone else.
    case rcv
    /// A call, group or connection event.
    case event
}

/// SimpleX's message content types.
public enum ContentType: String, Sendable, Hashable, Codable, CaseIterable {
    case text, link, image, video, voice, file, report, chat, event, unknown
}

/// The delivery status of a sent item.
public enum ItemStatus: String, Sendable, Hashable, Codable {
    case sent, delivered, read, error
}

/// The preview card of a link message.
public struct LinkPreview: Sendable, Hashable, Codable {
    /// The linked address.
    public var uri: String
    /// The page title (`""` when unknown).
    public var title: String
    /// The page description (`""` when unknown).
    public var description: String
    /// Makes a preview; title and description default to empty.
    public init(uri: String, title: String = "", description: String = "") {
        self.uri = uri
        self.title = title
        self.description = description
    }
}

/// An item's content, following SimpleX's `MsgContent`.
public struct MessageContent: Sendable, Hashable {
    /// The content type (SimpleX's `MsgContent` tag).
    public var type: ContentType
    /// The message text as written, with its markup.
    public var text: String
    /// For `link`: the preview card.
    public var preview: LinkPreview?
    /// For `video` and `voice`: the length in seconds.
    public var duration: Int?
    /// For `report`: the reason.
    public var reason: String?

    /// Makes content; the type-specific fields default to `nil`.
    public init(
        type: ContentType, text: String, preview: LinkPreview? = nil, duration: Int? = nil, reason: String? = nil
    ) {
        self.type = type
        self.text = text
        self.preview = preview
        self.duration = duration
        self.reason = reason
    }
}

/// The item an item replies to.
public struct Quote: Sendable, Hashable {
    /// The quoted item's source id, when known.
    public var itemSourceId: String?
    /// The quoted text as shown in the reply.
    public var text: String
    /// The quoted item's sender: its member's source id, when the archive holds the quoted item
    /// and knows its member (exports do not record a quote's sender: it is read from the quoted
    /// item, so `nil` when that item was not imported).
    public var memberSourceId: String? = nil
    /// The quoted item's sender as shown (local alias, else display name; `"me"` for the user's
    /// own items), read from the quoted item like ``memberSourceId``.
    public var sender: String? = nil
    /// Makes a quote of the item with `itemSourceId`, showing `text`.
    public init(itemSourceId: String?, text: String) {
        self.itemSourceId = itemSourceId
        self.text = text
    }
}

/// An attachment: its file name and size, and where the export keeps it.
public struct FileRef: Sendable, Hashable {
    /// The attachment's file name.
    public var name: String
    /// The size in bytes, when the source gives it.
    public var size: Int64?
    /// The file's path relative to the export's root, `/`-separated (Telegram `photos/x.jpg`,
    /// SimpleX `simplex_v1_files/x`, WhatsApp the media beside the chat text), or an `http(s)`
    /// URL where the export only links it (DiscordChatExporter without media). `nil` when the
    /// file was not exported, or its path was unsafe (`..`, absolute) and dropped.
    public var path: String?
    /// Makes a file reference.
    public init(name: String, size: Int64? = nil, path: String? = nil) {
        self.name = name
        self.size = size
        self.path = path
    }
}

/// One reaction emoji and how many reacted with it.
public struct Reaction: Sendable, Hashable, Codable {
    /// The reaction emoji.
    public var emoji: String
    /// How many people reacted with it.
    public var count: Int
    /// The user's own reaction is among them (SimpleX's `userReacted`). Only SimpleX exports,
    /// JSON Lines (`"mine": true`) and live writes record it; elsewhere it is `false`.
    public var isMine: Bool = false
    /// Makes a reaction count.
    public init(emoji: String, count: Int) {
        self.emoji = emoji
        self.count = count
    }
    /// Makes a reaction count that says whether the user's own reaction is among them.
    public init(emoji: String, count: Int, isMine: Bool) {
        self.init(emoji: emoji, count: count)
        self.isMine = isMine
    }

    // `mine` is written only when true, so a reaction list without the user's reaction reads
    // and hashes as before it existed.
    enum CodingKeys: String, CodingKey {
        case emoji, count
        case isMine = "mine"
    }

    /// Decodes `{"emoji", "count", "mine"?}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        emoji = try c.decode(String.self, forKey: .emoji)
        count = try c.decode(Int.self, forKey: .count)
        isMine = try c.decodeIfPresent(Bool.self, forKey: .isMine) ?? false
    }

    /// Encodes `{"emoji", "count"}`, with `"mine": true` when the user's reaction is among them.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(emoji, forKey: .emoji)
        try c.encode(count, forKey: .count)
        if isMine { try c.encode(true, forKey: .isMine) }
    }

    /// Appends `list` as the JSON array ``encode(to:)`` writes: how the archive stores
    /// reactions and how the command line prints them.
    package static func write(_ list: [Reaction], to o: inout JSONBytes) {
        o.array(list) { o, x in
            o.raw("{\"emoji\":")
            o.string(x.emoji)
            o.raw(",\"count\":")
            o.int(x.count)
            if x.isMine { o.raw(",\"mine\":true") }
            o.raw("}")
        }
    }
}

/// The target of a mention, as the item's `mentions` map gives it.
public struct MentionTarget: Sendable, Hashable {
    /// The mentioned member's source id, when the source names one.
    public var memberSourceId: String?
    /// The mention names the archive's owner.
    public var isUserMention: Bool
    /// Makes a mention target.
    public init(memberSourceId: String?, isUserMention: Bool = false) {
        self.memberSourceId = memberSourceId
        self.isUserMention = isUserMention
    }
}

/// How an item's text is marked up, which decides how its display text and spans are made.
public enum Markup: Sendable, Hashable {
    /// SimpleX markdown: the analyser parses ``MessageContent/text``.
    case simplex
    /// No markup: the text is shown as it is.
    case plain
    /// The source already split the text into formatted pieces (SimpleX `formattedText`,
    /// Telegram entities, Slack blocks); display text and spans come from them.
    case formatted([FormattedText])
}

/// A message or event as an importer produces it, before analysis and storage.
public struct Item: Sendable, Hashable {
    /// The source id of the chat the item belongs to.
    public var chatSourceId: String
    /// The item's id in its source, unique within its chat.
    public var sourceId: String
    /// When the item was sent or the event happened.
    public var timestamp: Timestamp
    /// Sent, received, or an event.
    public var direction: ItemDirection
    /// The sender's member id, for group items and where the source names one.
    public var memberSourceId: String?
    /// The sender's display name when the source gives a name rather than a member.
    public var senderName: String?
    /// The content: type, text as written, and type-specific fields.
    public var content: MessageContent
    /// How the text is marked up (decides display text and spans).
    public var markup: Markup
    /// Mentions keyed by the name written in the text (SimpleX's `mentions` map).
    public var mentions: [String: MentionTarget]
    /// The item this one replies to.
    public var quote: Quote?
    /// The attached file.
    public var file: FileRef?
    /// Reaction counts, one per emoji.
    public var reactions: [Reaction]
    /// The item was edited after it was sent.
    public var isEdited: Bool
    /// The item was deleted (kept in the archive, hidden from default searches).
    public var isDeleted: Bool
    /// The user has not read the item.
    public var isUnread: Bool
    /// The item is pinned in its chat.
    public var isPinned: Bool
    /// The delivery status, for sent items whose source records it.
    public var status: ItemStatus?
    /// The source record as it was read (a JSON line, WhatsApp lines, a row as JSON).
    public var raw: String?
    /// The source gave only a zone-less wall-clock time (WhatsApp; Telegram without
    /// `date_unixtime`): ``timestamp`` places it in the zone chosen at import (default UTC).
    public var isFloating: Bool
    /// For floating times, the wall-clock as the source wrote it, normalised to
    /// `YYYY-MM-DDTHH:MM[:SS]` (seconds only when the source has them).
    public var wallClock: String?
    /// The source's time was missing or unreadable: ``timestamp`` is the previous item's.
    public var isTimeUnknown: Bool
    /// Attachments after the first one (``file``), in the source's order.
    public var moreFiles: [FileRef]

    /// Makes an item; everything beyond ids, time, direction and content has a default.
    public init(
        chatSourceId: String, sourceId: String, timestamp: Timestamp, direction: ItemDirection,
        memberSourceId: String? = nil, senderName: String? = nil, content: MessageContent, markup: Markup = .simplex,
        mentions: [String: MentionTarget] = [:], quote: Quote? = nil, file: FileRef? = nil, reactions: [Reaction] = [],
        isEdited: Bool = false, isDeleted: Bool = false, isUnread: Bool = false, isPinned: Bool = false,
        status: ItemStatus? = nil, raw: String? = nil, isFloating: Bool = false, wallClock: String? = nil,
        isTimeUnknown: Bool = false, moreFiles: [FileRef] = []
    ) {
        self.chatSourceId = chatSourceId
        self.sourceId = sourceId
        self.timestamp = timestamp
        self.direction = direction
        self.memberSourceId = memberSourceId
        self.senderName = senderName
        self.content = content
        self.markup = markup
        self.mentions = mentions
        self.quote = quote
        self.file = file
        self.reactions = reactions
        self.isEdited = isEdited
        self.isDeleted = isDeleted
        self.isUnread = isUnread
        self.isPinned = isPinned
        self.status = status
        self.raw = raw
        self.isFloating = isFloating
        self.wallClock = wallClock
        self.isTimeUnknown = isTimeUnknown
        self.moreFiles = moreFiles
    }

    /// Every attachment: ``file`` then ``moreFiles``.
    public var files: [FileRef] { (file.map { [$0] } ?? []) + moreFiles }
}

extension Item: Identifiable {
    /// The item's source id (unique within its chat, which is what a list of one chat needs).
    public var id: String { sourceId }
}
