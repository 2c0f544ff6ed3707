import ChatModel
import GRDB

/// How many chats each filter tab of the chat list holds (SimpleX's tabs show them), by the
/// same rules as `ChatFilter`'s lists.
public struct ChatFilterCounts: Sendable, Hashable {
    /// Every chat.
    public var all: Int
    /// Chats the unread tab lists (muted chats only when marked unread, mentions-only chats by
    /// their unread mentions).
    public var unread: Int
    /// Favorite chats.
    public var favorites: Int
    /// Contacts (and business chats in which the user is the customer).
    public var contacts: Int
    /// Groups that are not business chats.
    public var groups: Int
    /// Business chats.
    public var business: Int
    /// Note-to-self chats.
    public var notes: Int
    /// Chats with open reports.
    public var reports: Int
    /// Chats per user tag.
    public var tags: [String: Int]

    /// The count of the chats `filter` lists.
    public func count(_ filter: ChatFilter) -> Int {
        switch filter {
        case .all: all
        case .unread: unread
        case .favorites: favorites
        case .contacts: contacts
        case .groups: groups
        case .business: business
        case .notes: notes
        case .reports: reports
        case .tag(let t): tags[t] ?? 0
        }
    }
}

extension ChatFilterCounts: Encodable {
    private enum Key: String, CodingKey {
        case all, unread, favorites, contacts, groups, business, notes, reports, tags
    }

    /// `{"all", "unread", "favorites", "contacts", "groups", "business", "notes", "reports",
    /// "tags": {"NAME": n}}`, tags sorted by name.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(all, forKey: .all)
        try c.encode(unread, forKey: .unread)
        try c.encode(favorites, forKey: .favorites)
        try c.encode(contacts, forKey: .contacts)
        try c.encode(groups, forKey: .groups)
        try c.encode(business, forKey: .business)
        try c.encode(notes, forKey: .notes)
        try c.encode(reports, forKey: .reports)
        var t = c.nestedContainer(keyedBy: JSONKey.self, forKey: .tags)
        for (name, n) in tags.sorted(by: { $0.key < $1.key }) { try t.encode(n, forKey: JSONKey(name)) }
    }
}

extension ChatList {
    /// The tabs' counts: one pass over the chats with each tab's condition, and the tags.
    ///
    /// - Complexity: O(chats): reads every chat row once, and the tag table.
    package static func filterCounts(in db: Database) throws -> ChatFilterCounts {
        let tabs: [ChatFilter] = [.all, .unread, .favorites, .contacts, .groups, .business, .notes, .reports]
        // Every tab's condition but a tag's is argument-free SQL over `chat`.
        let sums = tabs.map { "coalesce(sum(\($0.condition.0)), 0)" }.joined(separator: ", ")
        let row = try Row.fetchOne(db, sql: "SELECT \(sums) FROM chat")
        let n: [Int] = (0..<tabs.count).map { row?[$0] ?? 0 }
        var tags: [String: Int] = [:]
        for r in try Row.fetchAll(db, sql: "SELECT tag, count(DISTINCT chatId) FROM chatTag GROUP BY tag") {
            tags[r[0]] = r[1]
        }
        return ChatFilterCounts(
            all: n[0], unread: n[1], favorites: n[2], contacts: n[3], groups: n[4], business: n[5], notes: n[6],
            reports: n[7], tags: tags)
    }
}
