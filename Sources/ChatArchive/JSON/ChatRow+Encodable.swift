import ChatModel
import ChatSearch

extension ChatRow: Encodable {
    private enum Key: String, CodingKey {
        case chatId, type, business, displayName, fullName, localAlias, favorite, muted, unreadCount
        case unreadMentions, tags, lastActivity, itemCount, preview
    }

    /// A chat-list row as the CLI's `chats --json` and the web app's `/api/chats` list it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(chatId, forKey: .chatId)
        try c.encode(type.rawValue, forKey: .type)
        try c.encode(business?.rawValue, forKey: .business)
        try c.encode(displayName, forKey: .displayName)
        try c.encode(fullName, forKey: .fullName)
        try c.encode(localAlias, forKey: .localAlias)
        try c.encode(isFavorite, forKey: .favorite)
        try c.encode(isMuted, forKey: .muted)
        try c.encode(unreadCount, forKey: .unreadCount)
        try c.encode(unreadMentions, forKey: .unreadMentions)
        try c.encode(tags, forKey: .tags)
        try c.encode(lastActivity?.rfc3339, forKey: .lastActivity)
        try c.encode(itemCount, forKey: .itemCount)
        try c.encode(preview, forKey: .preview)
    }
}

extension ChatPreview: Encodable {
    private enum Key: String, CodingKey { case kind, sender, contentType, text }

    /// `{"kind", "sender", "contentType", "text"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(kind.rawValue, forKey: .kind)
        try c.encode(sender, forKey: .sender)
        try c.encode(contentType?.rawValue, forKey: .contentType)
        try c.encode(text, forKey: .text)
    }
}

extension ChatListPage: Encodable {
    private enum Key: String, CodingKey { case chats, nextCursor }

    /// `{"chats": [...], "nextCursor": ...}` (`null` on the last page), as `chats --json` and
    /// `/api/chats` answer.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(rows, forKey: .chats)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}
