/// The kind of conversation a ``Chat`` is, as SimpleX names them.
public enum ChatType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A one-to-one conversation with a contact.
    case direct
    /// A group (also a business chat when ``Chat/business`` is set).
    case group
    /// The user's own notes ("local" chat).
    case local
    /// An incoming contact request not yet accepted.
    case contactRequest
    /// A pending connection (an invitation sent or received, not yet connected).
    case contactConnection
}

/// The role of the user in a business chat.
public enum BusinessRole: String, Sendable, Hashable, Codable {
    /// The user is the customer of the business the chat is with.
    case business
    /// The user is the business; the other side is a customer.
    case customer
}

/// How a chat notifies; `none` is a muted chat.
public enum NotificationMode: String, Sendable, Hashable, Codable {
    case all, mentions, none
}

/// A conversation as an exporter describes it, before it has an archive id.
public struct Chat: Sendable, Hashable {
    /// The chat's id in its source, unique within the archive (importers prefix it when needed).
    public var sourceId: String
    /// The kind of conversation.
    public var type: ChatType
    /// The chat's name as its source shows it.
    public var displayName: String
    /// The longer name, when the source has one (`""` otherwise).
    public var fullName: String
    /// The name the user gave the chat locally (`""` when none).
    public var localAlias: String
    /// The user marked the chat as a favourite.
    public var isFavorite: Bool
    /// How the chat notifies; `.none` means muted.
    public var notifications: NotificationMode
    /// The user marked the chat unread (SimpleX's `unreadChat`).
    public var isMarkedUnread: Bool
    /// The user's role when this is a business chat; `nil` otherwise.
    public var business: BusinessRole?
    /// The user's tags on the chat (the `tag:NAME` chat-list filter).
    public var tags: [String]
    /// An unsent draft, when the source has one.
    public var draft: String?
    /// The format the chat came from (`jsonl`, `telegram`, …).
    public var source: String

    /// Makes a chat; every field but the id, type and name has a default.
    public init(
        sourceId: String, type: ChatType, displayName: String, fullName: String = "", localAlias: String = "",
        isFavorite: Bool = false, notifications: NotificationMode = .all, isMarkedUnread: Bool = false,
        business: BusinessRole? = nil, tags: [String] = [], draft: String? = nil, source: String = "jsonl"
    ) {
        self.sourceId = sourceId
        self.type = type
        self.displayName = displayName
        self.fullName = fullName
        self.localAlias = localAlias
        self.isFavorite = isFavorite
        self.notifications = notifications
        self.isMarkedUnread = isMarkedUnread
        self.business = business
        self.tags = tags
        self.draft = draft
        self.source = source
    }

    /// Whether the chat is muted (notifications off).
    public var isMuted: Bool { notifications == .none }
}

/// A participant of a chat: a group member, or the peer of a direct chat.
public struct Member: Sendable, Hashable {
    /// The source id of the chat the member belongs to.
    public var chatSourceId: String
    /// The member's id in its source, unique within the chat.
    public var sourceId: String
    /// The member's name as its source shows it.
    public var displayName: String
    /// The longer name, when the source has one (`""` otherwise).
    public var fullName: String
    /// The name the user gave the member locally (`""` when none).
    public var localAlias: String
    /// This member is the archive's owner.
    public var isUser: Bool
    /// The member left the group or was removed (kept for their messages; not offered for mentions).
    public var hasLeft: Bool

    /// Makes a member; names other than the display name default to empty.
    public init(
        chatSourceId: String, sourceId: String, displayName: String, fullName: String = "", localAlias: String = "",
        isUser: Bool = false, hasLeft: Bool = false
    ) {
        self.chatSourceId = chatSourceId
        self.sourceId = sourceId
        self.displayName = displayName
        self.fullName = fullName
        self.localAlias = localAlias
        self.isUser = isUser
        self.hasLeft = hasLeft
    }

    /// The name a person sees: the local alias when set, else the display name.
    public var shownName: String { localAlias.isEmpty ? displayName : localAlias }
}

extension Chat: Identifiable {
    /// The chat's source id, the archive's id of a chat (see ``ChatType`` for the kinds).
    public var id: String { sourceId }
}

extension Member: Identifiable {
    /// The member's source id (unique within its chat).
    public var id: String { sourceId }
}
