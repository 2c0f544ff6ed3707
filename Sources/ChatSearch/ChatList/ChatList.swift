import ChatIndex
import ChatModel
import ChatText
import GRDB

/// SimpleX's chat-list filter tabs, plus user tags.
public enum ChatFilter: Sendable, Hashable {
    case all, unread, favorites, contacts, groups, business, notes, reports
    /// Chats the user tagged `NAME` (`tag:NAME`).
    case tag(String)

    /// Parses `all`, `unread`, …, `tag:NAME`.
    public init?(_ s: String) {
        switch s.lowercased() {
        case "all": self = .all
        case "unread": self = .unread
        case "favorites", "favourites": self = .favorites
        case "contacts": self = .contacts
        case "groups": self = .groups
        case "business": self = .business
        case "notes": self = .notes
        case "reports": self = .reports
        default:
            guard s.lowercased().hasPrefix("tag:"), s.count > 4 else { return nil }
            self = .tag(String(s.dropFirst(4)))
        }
    }

    /// The SQL condition over `chat` implementing SimpleX's rule for the tab.
    package var condition: (String, [DatabaseValueConvertible]) {
        switch self {
        case .all: return ("1", [])
        case .unread:
            // A muted chat counts only when marked unread; a mentions-only chat by its unread mentions.
            return (
                """
                (unreadChat = 1 OR (notifications = 'all' AND unreadCount > 0)
                 OR (notifications = 'mentions' AND unreadMentions > 0))
                """, []
            )
        case .favorites: return ("favorite = 1", [])
        case .contacts:
            return (
                "(type IN ('direct', 'contactRequest', 'contactConnection') OR (type = 'group' AND business = 'customer'))",
                []
            )
        case .groups: return ("(type = 'group' AND business IS NULL)", [])
        case .business: return ("(type = 'group' AND business = 'business')", [])
        case .notes: return ("type = 'local'", [])
        case .reports: return ("reportCount > 0", [])
        case .tag(let t):
            return ("EXISTS (SELECT 1 FROM chatTag WHERE chatTag.chatId = chat.id AND chatTag.tag = ?)", [t])
        }
    }
}

/// What a chat-list row shows of the last item.
public struct ChatPreview: Sendable, Hashable {
    /// What the preview shows: the last message, a deleted marker, the draft, or nothing.
    public enum Kind: String, Sendable, Hashable { case message, deleted, draft, none }
    /// What the preview shows.
    public var kind: Kind
    /// The sender's name, in groups, for received items.
    public var sender: String?
    /// The last item's content type (for an icon).
    public var contentType: ContentType?
    /// The text shown (display text of the last item, or the draft).
    public var text: String

    /// Creates a preview.
    public init(
        kind: Kind,
        sender: String? = nil,
        contentType: ContentType? = nil,
        text: String
    ) {
        self.kind = kind
        self.sender = sender
        self.contentType = contentType
        self.text = text
    }
}

/// One row of the chat list.
public struct ChatRow: Sendable, Hashable {
    /// The chat's source id (what `--chat` and `Archive.items(in:…)` take).
    public var chatId: String
    /// The kind of chat.
    public var type: ChatType
    /// The user's role, for business chats.
    public var business: BusinessRole?
    /// The chat's name.
    public var displayName: String
    /// The chat's longer name (`""` when none).
    public var fullName: String
    /// The user's local name for the chat (`""` when none).
    public var localAlias: String
    /// The chat is a favourite.
    public var isFavorite: Bool
    /// Notifications are off.
    public var isMuted: Bool
    /// Unread items in the chat.
    public var unreadCount: Int
    /// Unread items that mention the user.
    public var unreadMentions: Int
    /// The user's tags on the chat.
    public var tags: [String]
    /// The time of the newest item; `nil` for an empty chat.
    public var lastActivity: Timestamp?
    /// Number of items in the chat.
    public var itemCount: Int
    /// What the row shows of the last item.
    public var preview: ChatPreview
    /// Found through transliteration only (ranked after direct matches).
    public var isLooseMatch: Bool
    /// The user marked the chat unread (SimpleX's "mark unread"; the unread tab lists it).
    public var isMarkedUnread: Bool = false
    /// How the chat notifies (``isMuted`` is `.none`).
    public var notifications: NotificationMode = .all

    /// Creates a row (for previews and tests of apps that embed the library).
    public init(
        chatId: String,
        type: ChatType,
        business: BusinessRole? = nil,
        displayName: String,
        fullName: String,
        localAlias: String,
        isFavorite: Bool,
        isMuted: Bool,
        unreadCount: Int,
        unreadMentions: Int,
        tags: [String] = [],
        lastActivity: Timestamp? = nil,
        itemCount: Int,
        preview: ChatPreview,
        isLooseMatch: Bool
    ) {
        self.chatId = chatId
        self.type = type
        self.business = business
        self.displayName = displayName
        self.fullName = fullName
        self.localAlias = localAlias
        self.isFavorite = isFavorite
        self.isMuted = isMuted
        self.unreadCount = unreadCount
        self.unreadMentions = unreadMentions
        self.tags = tags
        self.lastActivity = lastActivity
        self.itemCount = itemCount
        self.preview = preview
        self.isLooseMatch = isLooseMatch
    }
}

/// The chat list: name search and filter tabs, newest activity first.
package enum ChatList {
    /// Lists chats whose displayName, fullName or localAlias contains `query` (after the
    /// analyser's folding); chats found only through transliteration come after.
    package static func chats(matching query: String?, filter: ChatFilter = .all, limit: Int = 100, in db: Database)
        throws -> [ChatRow]
    {
        try page(matching: query, filter: filter, limit: limit, after: nil, in: db).rows
    }

    /// One page of ``chats(matching:filter:limit:in:)``: the rows after `cursor` in the list's
    /// order (from the start when `nil`), and the cursor of the next page.
    ///
    /// - Complexity: index speed at any depth without a name query (the cursor is a range on
    ///   `chat_recentNames`); with one, the matching names are found and sorted as for the first page.
    package static func page(
        matching query: String?, filter: ChatFilter = .all, limit: Int = 100, after cursor: ChatListCursor?,
        in db: Database
    ) throws -> ChatListPage {
        let q = (query ?? "").trimmingSpaces
        let lim = max(1, min(limit, 100_000))
        if !q.isEmpty { return try namePage(query: q, filter: filter, limit: lim, after: cursor, in: db) }
        // Every row is a direct one (loose 0): after a loose position nothing is left.
        if cursor?.isLoose == true { return ChatListPage(rows: [], nextCursor: nil) }
        let (cond, condArgs) = filter.condition
        // One row more than the page tells whether a next page exists.
        let fetch = lim + 1
        // `ORDER BY lastTs DESC, id DESC` puts chats without activity last (SQLite sorts NULL
        // lowest), which is what lets the activity-ordered indexes stop at a page. The list's
        // order is (loose, lastTs DESC, id DESC); a cursor is the position of the last row shown.
        let page: String
        let args: [DatabaseValueConvertible]
        if let cursor, let ts = cursor.lastTs {
            // The rest of the chats with activity, by a range on the index, then those without.
            page = """
                SELECT * FROM (
                    SELECT id, 0 AS loose, lastTs FROM chat
                    WHERE \(cond) AND lastTs <= ? AND (lastTs < ? OR id < ?) ORDER BY lastTs DESC, id DESC LIMIT ?)
                UNION ALL
                SELECT * FROM (
                    SELECT id, 0, lastTs FROM chat WHERE \(cond) AND lastTs IS NULL ORDER BY lastTs DESC, id DESC LIMIT ?)
                LIMIT ?
                """
            args = condArgs + [ts, ts, cursor.id, fetch] + condArgs + [fetch, fetch]
        } else if let cursor {
            page = """
                SELECT id, 0 AS loose, lastTs FROM chat WHERE \(cond) AND lastTs IS NULL AND id < ?
                ORDER BY lastTs DESC, id DESC LIMIT ?
                """
            args = condArgs + [cursor.id, fetch]
        } else {
            page = "SELECT id, 0 AS loose, lastTs FROM chat WHERE \(cond) ORDER BY lastTs DESC, id DESC LIMIT ?"
            args = condArgs + [fetch]
        }
        return pageOf(try rows(page: page, arguments: StatementArguments(args), in: db), limit: lim)
    }

    /// The first `limit` of `rows` (fetched one beyond the page) and the next page's cursor.
    private static func pageOf(_ rows: [(row: ChatRow, position: ChatListCursor)], limit: Int) -> ChatListPage {
        guard rows.count > limit else { return ChatListPage(rows: rows.map(\.row), nextCursor: nil) }
        let shown = rows.prefix(limit)
        return ChatListPage(rows: shown.map(\.row), nextCursor: shown.last?.position.text)
    }

    /// A page of the chats whose names hold `query`: direct matches newest first, then those
    /// found through transliteration only.
    ///
    /// The two are separate statements, and the loose one runs only when the direct matches
    /// do not fill the page: a transliterated query's trigram phrase is long (家人群 is
    /// `jia ren qun`, nine trigrams, several in thousands of names) and was a fifth of such a
    /// search's time when both were one statement (<doc:SearchPerformance>). Each side takes its
    /// candidates from the index that suits its text (``source(_:column:in:)``) or walks the
    /// names newest first.
    private static func namePage(
        query q: String, filter: ChatFilter, limit lim: Int, after cursor: ChatListCursor?, in db: Database
    ) throws -> ChatListPage {
        let (cond, condArgs) = filter.condition
        let fetch = lim + 1
        // Folded names are compared as bytes (instr: no pattern, no case rules).
        let key = TextNormalizer.normalize(q)
        var rows: [(row: ChatRow, position: ChatListCursor)] = []
        if cursor?.isLoose != true {
            // A direct match holds the key in its name: the trigram index's `name` column.
            let (after, afterArgs) = ChatListCursor.condition(after: cursor, isLoose: false)
            let source = try self.source(key, column: "name", in: db) ?? walk
            rows = try self.rows(
                page: """
                    SELECT chat.id AS id, 0 AS loose, chat.lastTs AS lastTs FROM \(source.0)
                        \(cond) AND instr(chat.nameKey, ?) > 0 AND \(after) ORDER BY lastTs DESC, id DESC LIMIT ?
                    """,
                arguments: StatementArguments(source.1 + condArgs + [key] + afterArgs + [fetch]), in: db)
        }
        if rows.count < fetch {
            // A loose match holds the transliteration in its transliterated name, which the
            // index's `translit` column holds only when it differs from the name: both columns,
            // but for an ASCII query, its own transliteration. Its loose matches' names differ
            // from their transliterations (a name that does not would hold the query itself,
            // a direct match), so the sparse `translit` column alone holds them.
            let isASCII = q.utf8.allSatisfy { $0 < 0x80 }
            let translit = isASCII ? key : TextNormalizer.normalize(TextNormalizer.transliterate(q))
            let (after, afterArgs) = ChatListCursor.condition(after: cursor, isLoose: true)
            let source = try self.source(translit, column: isASCII ? "translit" : nil, in: db) ?? walk
            rows += try self.rows(
                page: """
                    SELECT chat.id AS id, 1 AS loose, chat.lastTs AS lastTs FROM \(source.0)
                        \(cond) AND instr(chat.translitKey, ?) > 0 AND instr(chat.nameKey, ?) = 0 AND \(after)
                    ORDER BY lastTs DESC, id DESC LIMIT ?
                    """,
                arguments: StatementArguments(
                    source.1 + condArgs + [translit, key] + afterArgs + [fetch - rows.count]), in: db)
        }
        return pageOf(rows, limit: lim)
    }

    /// Every chat, newest first, as a FROM clause for ``namePage(query:filter:limit:after:in:)``.
    private static var walk: (String, [DatabaseValueConvertible]) { ("chat WHERE", []) }

    /// The chats whose names may hold `text`, as a FROM clause (ending in `WHERE … AND`) with its
    /// arguments: those of ``shortSource(_:in:)`` for one or two characters, the trigram
    /// index's (restricted to `column` when given) for longer ones, and `nil` when walking
    /// the names is cheaper (a text in ``commonCandidates(_:)`` names or more, or one FTS5
    /// cannot quote).
    static func source(_ text: String, column: String?, in db: Database) throws -> (
        String, [DatabaseValueConvertible]
    )? {
        if text.unicodeScalars.count <= 2 { return try shortSource(text, in: db) }
        guard let phrase = trigramPhrase(text) else { return nil }
        let query = column.map { "\($0) : \(phrase)" } ?? phrase
        guard try !isCommon(query, in: db) else { return nil }
        return ("chatNameGram JOIN chat ON chat.id = chatNameGram.rowid WHERE chatNameGram MATCH ? AND", [query])
    }

    /// The rows `page` (a statement yielding `id, loose, lastTs` of chats) chooses, in the list's
    /// order, each with its position in the list.
    static func rows(page: String, arguments: StatementArguments, in db: Database) throws
        -> [(row: ChatRow, position: ChatListCursor)]
    {
        // Rows are decoded straight from the statement (a cursor): fetchAll would first copy
        // every row with its 23 column names.
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    WITH page AS MATERIALIZED (\(page))
                    SELECT chat.sourceId, chat.type, chat.business, chat.displayName, chat.fullName, chat.localAlias,
                        chat.favorite, chat.notifications, chat.unreadCount, chat.unreadMentions, chat.itemCount, chat.lastTs,
                        chat.draft, page.loose,
                        (SELECT group_concat(tag, char(10)) FROM chatTag WHERE chatTag.chatId = chat.id),
                        last.flags, chat_text(last.text), last.contentType, last.dir, last.fileName,
                        lastMember.displayName, lastMember.localAlias, chat.id, chat.unreadChat
                    FROM page JOIN chat ON chat.id = page.id
                    LEFT JOIN item AS last ON last.id = chat.lastItemId
                    LEFT JOIN member AS lastMember ON lastMember.id = last.memberId
                    ORDER BY page.loose, page.lastTs DESC, page.id DESC
                    """),
            arguments: arguments)
        var chats: [(row: ChatRow, position: ChatListCursor)] = []
        while let row = try rows.next() {
            let position = ChatListCursor(isLoose: (row[13] as Int) == 1, lastTs: row[11], id: row[22])
            chats.append((try makeRow(row, db), position))
        }
        return chats
    }

    /// The fewest candidates beyond which walking the names newest first is cheaper than
    /// looking each candidate's chat row up and sorting them.
    package static let commonCandidates = 300

    /// Candidates beyond which the walk is cheaper, for this archive's number of chats `n`: a
    /// candidate costs a chat-row lookup (about ten steps of the walk), and the walk meets a
    /// page of 60 matches after about 60·n/candidates names, so the two cost the same near
    /// √(6·n) candidates (300 at 10,000 chats, 950 at 150,000).
    static func commonCandidates(_ db: Database) throws -> Int {
        let chats =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT value FROM archiveCounter WHERE name = ?"),
                arguments: [ArchiveCounters.chats]) ?? 0
        return max(commonCandidates, Int((6.0 * Double(chats)).squareRoot()))
    }

    /// Whether the trigram index holds at least ``commonCandidates(_:)`` chats for `phrase`
    /// (counted no further than that).
    static func isCommon(_ phrase: String, in db: Database) throws -> Bool {
        let limit = try commonCandidates(db)
        return try Int.fetchOne(
            db.cachedStatement(
                sql: "SELECT count(*) FROM (SELECT 1 FROM chatNameGram WHERE chatNameGram MATCH ? LIMIT ?)"),
            arguments: [phrase, limit]) ?? 0 >= limit
    }

    /// The chats whose names hold `gram`, a query of one or two characters, as a FROM clause
    /// (ending in `WHERE … AND`) with its arguments: `nil` when the walk is cheaper (an empty
    /// query, or one in ``commonCandidates(_:)`` chats or more).
    static func shortSource(_ gram: String, in db: Database) throws -> (String, [DatabaseValueConvertible])? {
        guard (1...2).contains(gram.unicodeScalars.count) else { return nil }
        let limit = try commonCandidates(db)
        guard
            try Int.fetchOne(
                db.cachedStatement(
                    sql: "SELECT count(*) FROM (SELECT 1 FROM chatNameShort WHERE gram = ? LIMIT ?)"),
                arguments: [gram, limit]) ?? 0 < limit
        else { return nil }
        return ("chat WHERE chat.id IN (SELECT chatId FROM chatNameShort WHERE gram = ?) AND", [gram])
    }

    /// `s` as an FTS5 phrase for a trigram index, or `nil` when it is too short for trigrams
    /// (under 3 characters) or holds a NUL, which FTS5 cannot quote.
    static func trigramPhrase(_ s: String) -> String? {
        guard s.unicodeScalars.count >= 3, !s.utf8.contains(0) else { return nil }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Decodes a row of the list's statement (by position: name lookups cost more than the rest).
    private static func makeRow(_ r: Row, _ db: Database) throws -> ChatRow {
        let type = ChatType(rawValue: r[1]) ?? .direct
        let draft: String? = r[12]
        var preview = ChatPreview(kind: .none, sender: nil, contentType: nil, text: "")
        if let draft, !draft.isEmpty {
            preview = ChatPreview(kind: .draft, sender: nil, contentType: .text, text: draft)
        } else if let flags: Int64 = r[15] {
            let contentType = ContentType(code: r[17])
            if ItemFlags(rawValue: flags).contains(.deleted) {
                preview = ChatPreview(kind: .deleted, sender: nil, contentType: contentType, text: "message deleted")
            } else {
                var sender: String? = nil
                if type == .group && ItemDirection(code: r[18]) == .rcv {
                    let alias: String? = r[21]
                    sender = (alias?.isEmpty == false) ? alias : r[20]
                }
                var text: String = r[16]
                if text.isEmpty, let f: String = r[19] { text = f }
                preview = ChatPreview(kind: .message, sender: sender, contentType: contentType, text: text)
            }
        }
        let tagList: String? = r[14]
        let lastTs: Int64? = r[11]
        var row = ChatRow(
            chatId: r[0], type: type, business: (r[2] as String?).flatMap(BusinessRole.init(rawValue:)),
            displayName: r[3], fullName: r[4], localAlias: r[5],
            isFavorite: r[6], isMuted: (r[7] as String) == "none",
            unreadCount: r[8], unreadMentions: r[9],
            tags: tagList.map { $0.split(separator: "\n").map(String.init).sorted() } ?? [],
            lastActivity: lastTs.map { Timestamp(milliseconds: $0) }, itemCount: r[10], preview: preview,
            isLooseMatch: (r[13] as Int) == 1)
        row.isMarkedUnread = r[23]
        row.notifications = NotificationMode(rawValue: r[7]) ?? .all
        return row
    }
}

extension ChatRow: Identifiable {
    /// The chat's source id (``chatId``).
    public var id: String { chatId }
}
