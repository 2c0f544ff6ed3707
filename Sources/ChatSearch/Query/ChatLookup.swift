import ChatText
import GRDB

/// Name lookups for `in:`, `from:` and `mentions:`.
enum ChatLookup {
    static func likePattern(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("%")
        for u in s.unicodeScalars {
            // By scalar: `%` and a combining mark after it are one Character.
            if u == "%" || u == "_" || u == "\\" { out.append("\\") }
            out.append(u)
        }
        out.append("%")
        return String(out)
    }

    static func chatIds(matching name: String, _ db: Database) throws -> [Int64] {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM chat WHERE sourceId = ?", arguments: [name]) {
            return [id]
        }
        let key = TextNormalizer.normalize(name)
        return try Int64.fetchAll(
            db, sql: "SELECT id FROM chat WHERE nameKey LIKE ? ESCAPE '\\'", arguments: [likePattern(key)])
    }

    /// Direct chats whose name contains `name` (folded).
    static func directChatIds(matching name: String, _ db: Database) throws -> [Int64] {
        try Int64.fetchAll(
            db, sql: "SELECT id FROM chat WHERE type = 'direct' AND nameKey LIKE ? ESCAPE '\\'",
            arguments: [likePattern(TextNormalizer.normalize(name))])
    }

    static func memberIds(matching name: String, chatIds: [Int64]?, _ db: Database) throws -> [Int64] {
        let key = TextNormalizer.normalize(name)
        var sql = "SELECT id FROM member WHERE (nameKey LIKE ? ESCAPE '\\' OR sourceId = ?)"
        var args: [DatabaseValueConvertible] = [likePattern(key), name]
        if let chatIds, !chatIds.isEmpty {
            sql += " AND chatId IN (" + chatIds.map { _ in "?" }.joined(separator: ",") + ")"
            args += chatIds
        }
        return try Int64.fetchAll(db, sql: sql + " LIMIT 500", arguments: StatementArguments(args))
    }
}
