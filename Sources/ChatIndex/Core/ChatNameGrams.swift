/// The chat-list's index of short name fragments: every one- and two-character piece of each
/// chat's name key and transliteration key, as rows `(gram, chatId)` of `chatNameShort`.
///
/// A query of one or two characters (too short for the trigram index `chatNameGram`) finds its
/// candidate chats here by one key lookup, instead of testing every chat's names; triggers on
/// the chat table keep it, so every writer of chats does. Pieces never span the newline that
/// separates a chat's names (a query holds none).
///
/// - Complexity: about 2 rows per character of a chat's names; a lookup is O(log n + matches).
package enum ChatNameGrams {
    /// The rows `(gram, chatId)` for chat id `id` with keys `nameKey` and `translitKey` (SQL
    /// expressions), distinct; `from` adds a table to the FROM clause (the chat table, to
    /// compute them for every chat).
    package static func select(id: String, nameKey: String, translitKey: String, from: String? = nil) -> String {
        // json_each over '[0,0,…]' (one element per character) numbers the positions: SQLite
        // has no series generator and allows no WITH clause inside a trigger.
        """
        SELECT DISTINCT substr(s.value, j.key + 1, w.n) AS gram, \(id) AS chatId
        FROM \(from.map { $0 + ", " } ?? "")json_each(json_array(\(nameKey), \(translitKey))) AS s,
            json_each('[' || substr(replace(hex(zeroblob(length(s.value))), '00', ',0'), 2) || ']') AS j,
            (SELECT 1 AS n UNION ALL SELECT 2) AS w
        WHERE j.key + w.n <= length(s.value) AND instr(substr(s.value, j.key + 1, w.n), char(10)) = 0
        """
    }

    /// Every chat's rows, from the chat table.
    package static let all = select(
        id: "chat.id", nameKey: "chat.nameKey", translitKey: "chat.translitKey", from: "chat")

    /// Creates the table, fills it from the chats, and adds the triggers that keep it.
    package static let createSQL = """
        CREATE TABLE chatNameShort (gram TEXT NOT NULL, chatId INTEGER NOT NULL, PRIMARY KEY (gram, chatId)) WITHOUT ROWID;
        INSERT OR IGNORE INTO chatNameShort(gram, chatId) \(all);
        CREATE TRIGGER chat_nameShort_insert AFTER INSERT ON chat BEGIN
            INSERT OR IGNORE INTO chatNameShort(gram, chatId) \(select(id: "new.id", nameKey: "new.nameKey", translitKey: "new.translitKey"));
        END;
        CREATE TRIGGER chat_nameShort_update AFTER UPDATE OF id, nameKey, translitKey ON chat
        WHEN old.id IS NOT new.id OR old.nameKey IS NOT new.nameKey OR old.translitKey IS NOT new.translitKey
        BEGIN
            DELETE FROM chatNameShort WHERE chatId = old.id AND gram IN (
                SELECT gram FROM (\(select(id: "old.id", nameKey: "old.nameKey", translitKey: "old.translitKey"))));
            INSERT OR IGNORE INTO chatNameShort(gram, chatId) \(select(id: "new.id", nameKey: "new.nameKey", translitKey: "new.translitKey"));
        END;
        CREATE TRIGGER chat_nameShort_delete AFTER DELETE ON chat BEGIN
            DELETE FROM chatNameShort WHERE chatId = old.id AND gram IN (
                SELECT gram FROM (\(select(id: "old.id", nameKey: "old.nameKey", translitKey: "old.translitKey"))));
        END;
        """

    /// The number of rows the table holds but should not, plus those it lacks.
    package static let mismatchSQL = """
        SELECT (SELECT count(*) FROM (SELECT gram, chatId FROM chatNameShort EXCEPT SELECT * FROM (\(all))))
            + (SELECT count(*) FROM (SELECT * FROM (\(all)) EXCEPT SELECT gram, chatId FROM chatNameShort))
        """

    /// Rebuilds the table from the chats.
    package static let rebuildSQL = """
        DELETE FROM chatNameShort;
        INSERT OR IGNORE INTO chatNameShort(gram, chatId) \(all);
        """
}
