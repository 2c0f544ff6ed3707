import ChatModel
import GRDB

/// How an archive stores its items' index tags (``IndexTerms``).
///
/// Most of an item's tags follow from its row's own columns: `all`, its chat and content type
/// (``IndexTerms/head(chat:type:)``) and its sender (``IndexTerms/sender(sentByMe:member:)``).
/// An archive of format 21 or later stores only the rest in `item.tags` (its states and
/// mentions, most often nothing), and the SQL of ``wholeSQL`` spells that head again from
/// `chatId`, `contentType`, `dir` and `memberId`: the view `itemText`, from which the items
/// index reads its rows, and every statement that needs an item's whole tags read them
/// through it (<doc:ArchiveLayout>). Older archives keep their whole tags stored.
package struct StoredTags: Sendable, Hashable {
    /// The content types whose head the archive's SQL spells (codes `0..<n`), or `nil` in an
    /// archive that stores whole tags. A type added to `ContentType` after the archive was
    /// made keeps its whole tags stored.
    package let headTypes: Int?

    /// The `meta` key of ``headTypes``.
    package static let metaKey = "tagHeadTypes"

    /// The archive's way.
    package static func of(_ db: Database) throws -> StoredTags {
        let value = try String.fetchOne(
            db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [metaKey])
        return StoredTags(headTypes: value.flatMap { Int($0) })
    }

    /// What is stored in `item.tags` for an item's whole tags: the tags after their head, when
    /// the archive's SQL spells that head.
    package func stored(_ tags: String, chat: Int64, contentType: Int64, sentByMe: Bool, member: Int64?) -> String {
        guard spellsHead(contentType: contentType) else { return tags }
        let head = IndexTerms.head(
            chat: chat, type: ContentType(code: contentType), sentByMe: sentByMe, member: member)
        // An item's tags are made head first (`BatchStore.tags(of:…)`); a live edit keeps their
        // tokens' order.
        precondition(tags.hasPrefix(head), "an item's tags begin with their head")
        return String(tags.dropFirst(head.count))
    }

    /// Whether the archive's SQL spells the head of an item of this content type (code).
    package func spellsHead(contentType: Int64) -> Bool {
        guard let headTypes else { return false }
        return contentType >= 0 && contentType < headTypes
    }

    /// The SQL expression of an item's whole tags over its row's `chatId`, `contentType`, `dir`,
    /// `memberId` and `tags` (unqualified, for a statement that reads one table).
    package var wholeSQL: String {
        guard let headTypes else { return "tags" }
        return "(\(Self.headSQL(types: headTypes)) || tags)"
    }

    /// The head (``IndexTerms/head(chat:type:)`` and ``IndexTerms/sender(sentByMe:member:)``)
    /// in plain SQL for the first `types` content types, and nothing for any other.
    static func headSQL(types: Int) -> String {
        let chatToken = IndexTerms.all + " " + IndexTerms.chatPrefix
        let chatPart = (IndexTerms.all + " " + IndexTerms.chat(0)).count
        let names = ContentType.allCases.prefix(types).map { type in
            "WHEN \(type.code) THEN '\(IndexTerms.head(chat: 0, type: type).dropFirst(chatPart))'"
        }
        return """
            CASE WHEN contentType BETWEEN 0 AND \(types - 1) \
            THEN '\(chatToken)' || chatId || (CASE contentType \(names.joined(separator: " ")) END) \
            || (CASE WHEN dir = \(ItemDirection.snd.code) THEN ' \(IndexTerms.fromMe)' ELSE '' END) \
            || (CASE WHEN memberId IS NULL THEN '' ELSE ' \(IndexTerms.memberPrefix)' || memberId END) \
            ELSE '' END
            """
    }

    /// Makes an empty archive store its items' tags without their head (format 21): the view
    /// that feeds the items index spells it.
    static func storeWithoutHead(_ db: Database) throws {
        let tags = StoredTags(headTypes: ContentType.allCases.count)
        try db.execute(sql: "DROP VIEW itemText; \(Migrations.itemTextViewSQL(tags: tags.wholeSQL))")
        try ArchiveDatabase.setMeta(db, metaKey, String(ContentType.allCases.count))
    }
}
