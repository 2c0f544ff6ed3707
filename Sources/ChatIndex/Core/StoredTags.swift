import ChatModel
import GRDB

/// How an archive stores its items' index tags (``IndexTerms``).
///
/// Every item's tags begin with the same three tokens: `all`, its chat and its content type
/// (``IndexTerms/head(chat:type:)``). An archive of format 21 or later stores only the rest
/// (`item.tagTail`, most often empty), and `item.tags` is a virtual column that puts the
/// head back from the row's own `chatId` and `contentType`, in plain SQL, so that every
/// reader of `tags` (the index's content view, deletes, rebuilds, any SQLite shell) reads the
/// whole tags as before (<doc:ArchiveLayout>). Older archives keep their whole tags stored.
package struct StoredTags: Sendable, Hashable {
    /// The content types whose head the archive's virtual column spells (codes `0..<n`), or
    /// `nil` in an archive that stores whole tags. A type added to `ContentType` later than
    /// the archive's column keeps its whole tags in the tail.
    package let headTypes: Int?

    /// The `meta` key of ``headTypes``.
    package static let metaKey = "tagHeadTypes"

    /// The archive's way.
    package static func of(_ db: Database) throws -> StoredTags {
        let value = try String.fetchOne(
            db.cachedStatement(sql: "SELECT value FROM meta WHERE key = ?"), arguments: [metaKey])
        return StoredTags(headTypes: value.flatMap { Int($0) })
    }

    /// The column an item's stored tags are written to.
    package var column: String { headTypes == nil ? "tags" : "tagTail" }

    /// What is written to ``column`` for an item's whole `tags`: the tags after their head,
    /// when the archive's virtual column spells that head.
    package func stored(_ tags: String, chat: Int64, contentType: Int64) -> String {
        guard let headTypes, contentType >= 0, contentType < headTypes else { return tags }
        let head = IndexTerms.head(chat: chat, type: ContentType(code: contentType))
        // Every tags string is made by `IndexTerms.tags`, head first; a live edit keeps its tokens' order.
        precondition(tags.hasPrefix(head), "an item's tags begin with their head")
        return String(tags.dropFirst(head.count))
    }

    /// The SQL of the virtual `tags` column over `chatId`, `contentType` and `tagTail`: the
    /// head of ``IndexTerms/head(chat:type:)`` for the first `types` content types, and
    /// nothing before the tail for any other.
    static func virtualColumnSQL(types: Int) -> String {
        let chatPart = (IndexTerms.all + " " + IndexTerms.chat(0)).count
        let chatToken = IndexTerms.all + " " + IndexTerms.chatPrefix
        let names = ContentType.allCases.prefix(types).map { type in
            "WHEN \(type.code) THEN '\(IndexTerms.head(chat: 0, type: type).dropFirst(chatPart))'"
        }
        return """
            tags TEXT GENERATED ALWAYS AS (
                CASE WHEN contentType BETWEEN 0 AND \(types - 1)
                THEN '\(chatToken)' || chatId || (CASE contentType \(names.joined(separator: " ")) END)
                ELSE '' END || tagTail) VIRTUAL
            """
    }

    /// Turns an empty archive's `item.tags` into the virtual column over a stored tail (format
    /// 21). The view that feeds the items index names `tags`, so it goes and comes back.
    static func deriveHead(_ db: Database) throws {
        let types = ContentType.allCases.count
        try db.execute(
            sql: """
                DROP VIEW itemText;
                ALTER TABLE item DROP COLUMN tags;
                ALTER TABLE item ADD COLUMN tagTail TEXT NOT NULL DEFAULT '';
                ALTER TABLE item ADD COLUMN \(virtualColumnSQL(types: types));
                \(Migrations.itemTextViewSQL);
                """)
        try ArchiveDatabase.setMeta(db, metaKey, String(types))
    }
}
