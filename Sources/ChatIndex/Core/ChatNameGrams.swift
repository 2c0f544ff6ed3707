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
    /// compute them for every chat). The pieces come from `chat_short_grams`, a function the
    /// archive's connections register with its tokenizer (an insert of a chat by a program
    /// without it fails rather than leaving this index behind).
    package static func select(id: String, nameKey: String, translitKey: String, from: String? = nil) -> String {
        """
        SELECT g.value AS gram, \(id) AS chatId
        FROM \(from.map { $0 + ", " } ?? "")json_each(chat_short_grams(\(nameKey), \(translitKey))) AS g
        """
    }

    /// The same rows computed in SQL alone, as the triggers of format v6 did (slowly:
    /// json_each over `'[0,0,…]'` numbers the positions, since SQLite has no series generator
    /// and allows no WITH clause inside a trigger). Kept for that migration and for tests.
    package static func selectInSQL(id: String, nameKey: String, translitKey: String, from: String? = nil) -> String {
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

    /// The triggers that keep the table, over a rows expression (`select` or `selectInSQL`).
    private static func triggersSQL(_ rows: (String, String, String) -> String) -> String {
        """
        CREATE TRIGGER chat_nameShort_insert AFTER INSERT ON chat BEGIN
            INSERT OR IGNORE INTO chatNameShort(gram, chatId) \(rows("new.id", "new.nameKey", "new.translitKey"));
        END;
        CREATE TRIGGER chat_nameShort_update AFTER UPDATE OF id, nameKey, translitKey ON chat
        WHEN old.id IS NOT new.id OR old.nameKey IS NOT new.nameKey OR old.translitKey IS NOT new.translitKey
        BEGIN
            DELETE FROM chatNameShort WHERE chatId = old.id AND gram IN (
                SELECT gram FROM (\(rows("old.id", "old.nameKey", "old.translitKey"))));
            INSERT OR IGNORE INTO chatNameShort(gram, chatId) \(rows("new.id", "new.nameKey", "new.translitKey"));
        END;
        CREATE TRIGGER chat_nameShort_delete AFTER DELETE ON chat BEGIN
            DELETE FROM chatNameShort WHERE chatId = old.id AND gram IN (
                SELECT gram FROM (\(rows("old.id", "old.nameKey", "old.translitKey"))));
        END;
        """
    }

    /// The triggers of format v6 (pieces computed in SQL alone).
    package static let sqlTriggersSQL = triggersSQL { selectInSQL(id: $0, nameKey: $1, translitKey: $2) }

    /// Creates the table, fills it from the chats, and adds the triggers that keep it: format
    /// v6, as released.
    package static let createSQL = """
        CREATE TABLE chatNameShort (gram TEXT NOT NULL, chatId INTEGER NOT NULL, PRIMARY KEY (gram, chatId)) WITHOUT ROWID;
        INSERT OR IGNORE INTO chatNameShort(gram, chatId) \(selectInSQL(id: "chat.id", nameKey: "chat.nameKey", translitKey: "chat.translitKey", from: "chat"));
        \(sqlTriggersSQL)
        """

    /// Replaces the triggers with ones whose pieces come from `chat_short_grams` (format v8): the
    /// same rows, so the table stays as it is. The SQL computing the pieces was most of a chat
    /// insert's cost in an ingest (<doc:WritePerformance>).
    package static let functionTriggersSQL = """
        DROP TRIGGER chat_nameShort_insert;
        DROP TRIGGER chat_nameShort_update;
        DROP TRIGGER chat_nameShort_delete;
        \(triggersSQL { select(id: $0, nameKey: $1, translitKey: $2) })
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
