/// The trigram index of member names behind mention autocomplete (`memberNameGram`): each
/// member's folded name words and whole folded name (rowid = member.id) and, since format 17,
/// its chat as one token of its own (``token(_:)``), so that a query in one chat intersects the
/// chat's members with the fragment's in FTS5 instead of reading every member of the archive
/// whose name holds the fragment (a common one is held by a great many: ChatArchive's
/// ServingPerformance, mention autocomplete).
///
/// The writer adds a new member's row at the end of its transaction
/// (`BatchStore.writeNewNameRows`); triggers follow renames, moves and deletions.
package enum MemberGrams {
    /// SQL for the chat token of chat id `x` (an SQL expression): three characters of the
    /// supplementary private use planes, 15 bits of the id each, which the trigram tokenizer
    /// keeps as exactly one token and no folded name holds.
    package static func token(_ x: String) -> String {
        "char(983040 + ((\(x) >> 30) & 32767), 983040 + ((\(x) >> 15) & 32767), 983040 + (\(x) & 32767))"
    }

    /// Adds one member's row: bind id, words (search key), name (name key) and chat id.
    package static let insertSQL =
        "INSERT INTO memberNameGram(rowid, words, name, chat) VALUES (?1, ?2, ?3, \(token("?4")))"

    /// Every member's row, from the member table.
    static let fillSQL =
        "INSERT INTO memberNameGram(rowid, words, name, chat) SELECT id, searchKey, nameKey, \(token("chatId")) FROM member"

    /// Rebuilds the index with its chat column, fills it and replaces its triggers: format 17.
    static let createSQL = """
        DROP TRIGGER IF EXISTS member_nameGram_update;
        DROP TRIGGER IF EXISTS member_nameGram_delete;
        DROP TABLE IF EXISTS memberNameGram;
        CREATE VIRTUAL TABLE memberNameGram USING fts5(
            words, name, chat, tokenize='trigram case_sensitive 1', columnsize=0);
        \(fillSQL);
        CREATE TRIGGER member_nameGram_update AFTER UPDATE OF id, chatId, searchKey, nameKey ON member
        WHEN old.id IS NOT new.id OR old.chatId IS NOT new.chatId OR old.searchKey IS NOT new.searchKey
            OR old.nameKey IS NOT new.nameKey
        BEGIN
            DELETE FROM memberNameGram WHERE rowid = old.id;
            INSERT INTO memberNameGram(rowid, words, name, chat)
                VALUES (new.id, new.searchKey, new.nameKey, \(token("new.chatId")));
        END;
        CREATE TRIGGER member_nameGram_delete AFTER DELETE ON member BEGIN
            DELETE FROM memberNameGram WHERE rowid = old.id;
        END;
        """

    /// Rebuilds the rows from the members (a repair).
    package static let rebuildSQL = "DELETE FROM memberNameGram; \(fillSQL);"

    /// Members whose row differs from what the member table says, and rows of no member.
    package static func mismatchSQL(byChat: Bool) -> String {
        """
        SELECT (SELECT count(*) FROM memberNameGram WHERE rowid NOT IN (SELECT id FROM member))
            + (SELECT count(*) FROM member m LEFT JOIN memberNameGram g ON g.rowid = m.id
               WHERE g.rowid IS NULL OR g.words IS NOT m.searchKey OR g.name IS NOT m.nameKey\(
                byChat ? " OR g.chat IS NOT \(token("m.chatId"))" : ""))
        """
    }

    /// Whether the index has the chat column (format 17; an older archive opened read-only has
    /// not, and its queries in one chat filter the archive's candidates).
    /// (The migration's record: one key lookup, where asking FTS5 for its columns costs more
    /// than the query it decides.)
    package static let byChatSQL =
        "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = 'v17-memberNameGramByChat')"

    /// The FTS5 query of the members of chat `?chat` whose names hold trigram phrase `?phrase`
    /// (both SQL expressions), for a `MATCH`.
    package static func inChat(chat: String, phrase: String) -> String {
        "('chat : \"' || \(token(chat)) || '\" AND {words name} : ' || \(phrase))"
    }
}
