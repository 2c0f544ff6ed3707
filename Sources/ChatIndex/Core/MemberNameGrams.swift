/// The index of short member-name fragments behind `from:` autocomplete across chats: for each
/// member name as the archive groups them (the folded display name, ``folded(_:)``), every one-
/// and two-character piece of its members' name keys and search keys, and each word's one- and
/// two-character start after a newline (`"\nzo"`), as rows `(gram, folded)` of `memberNameShort`.
///
/// A query of one or two characters (too short for the trigram indexes) finds the names that
/// may hold it by one key lookup, and learns as cheaply whether it is common enough that
/// walking the member keys newest first meets a page of matches sooner (``MemberKeys``; before
/// format 23, the members themselves, by `member_activity`). Rows are keyed by name, not by
/// member or key: the same people are members of many chats, and a name has many keys, so the
/// table stays small and takes new rows only with new names.
///
/// The writer adds a new member's rows at the end of its transaction, as it adds the trigram
/// index's (`BatchStore.writeNewNameRows`: a trigger that writes another table makes every
/// insert a savepoint, which flushes FTS5's pending rows); a trigger adds a renamed member's.
/// A rename or a removal leaves the old rows, which only name a candidate that the query then
/// tests against the members themselves (`rebuildSQL`, run by a repair, drops them).
package enum MemberNameGrams {
    /// The folded display name of member row `m` (an SQL alias, `new`/`old`, or `""` for the
    /// bare column an index expression takes): the first line
    /// of its name key, by which autocomplete across chats groups members. The same expression
    /// as the `member_folded` index's, so that SQLite uses the index for it.
    package static func folded(_ m: String) -> String {
        MemberKeys.foldedSQL(m.isEmpty ? "nameKey" : m + ".nameKey")
    }

    /// The rows `(gram, folded)` of member row `m` (`member` to compute every member's, with
    /// `from`).
    static func rows(_ m: String, from: String? = nil) -> String {
        """
        SELECT g.value AS gram, \(folded(m)) AS folded
        FROM \(from.map { $0 + ", " } ?? "")json_each(member_short_grams(\(m).searchKey, \(m).nameKey)) AS g
        """
    }

    /// The rows of member `new` that the table lacks. Not `INSERT OR IGNORE`: a trigger's
    /// conflict clause gives way to the statement's that fired it (an upsert of members aborts
    /// on a conflict), and many members share a name's rows.
    static let newRows = """
        SELECT * FROM (\(rows("new"))) AS r
        WHERE NOT EXISTS (SELECT 1 FROM memberNameShort s WHERE s.gram = r.gram AND s.folded = r.folded)
        """

    /// Adds one row `(gram, folded)`: a single-row insert, which opens no savepoint.
    package static let insertSQL = "INSERT OR IGNORE INTO memberNameShort(gram, folded) VALUES (?, ?)"

    /// Every member's rows, from the member table.
    static let all = rows("member", from: "member")

    /// Creates the table, fills it from the members, adds the trigger that adds a renamed
    /// member's rows and the two indexes its queries use: format 15.
    package static let createSQL = """
        CREATE TABLE memberNameShort (gram TEXT NOT NULL, folded TEXT NOT NULL, PRIMARY KEY (gram, folded)) WITHOUT ROWID;
        INSERT OR IGNORE INTO memberNameShort(gram, folded) \(all);
        CREATE TRIGGER member_nameShort_update AFTER UPDATE OF searchKey, nameKey ON member
        WHEN old.searchKey IS NOT new.searchKey OR old.nameKey IS NOT new.nameKey
        BEGIN
            INSERT INTO memberNameShort(gram, folded) \(newRows);
        END;
        CREATE INDEX member_folded ON member(\(folded("")));
        CREATE INDEX member_activity ON member(lastTs DESC) WHERE \(MemberKeys.live(""));
        """

    /// Replaces `member_folded` with the listed members by folded name and then chat: a name's
    /// chats are counted from the index alone, in order (a popular name has thousands of
    /// members, each a row of the member table to read otherwise). Every query of the index
    /// lists only live members, so the index holds only those: format 16.
    package static let foldedByChatSQL = """
        DROP INDEX member_folded;
        CREATE INDEX member_folded ON member(\(folded("")), chatId) WHERE \(MemberKeys.live(""));
        """

    /// The number of rows the table lacks (rows it holds beyond the members' are allowed).
    package static let missingSQL = """
        SELECT count(*) FROM (SELECT * FROM (\(all)) EXCEPT SELECT gram, folded FROM memberNameShort)
        """

    /// Rebuilds the table from the members.
    package static let rebuildSQL = """
        DELETE FROM memberNameShort;
        INSERT OR IGNORE INTO memberNameShort(gram, folded) \(all);
        """

    /// Whether `db`'s archive has the table (format 15; an older archive opened read-only has not).
    package static let existsSQL = "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'memberNameShort')"
}
