import GRDB

/// The tables and columns of one iMessage database, read once with `PRAGMA table_info`:
/// columns differ between macOS and iOS versions (`attributedBody`, `date_edited`,
/// `date_retracted`, `thread_originator_guid`, `associated_message_*` are missing from older
/// ones), and queries use only what is there.
struct IMessageSchema {
    /// The tables every iMessage database has.
    static let requiredTables = ["message", "chat", "handle", "chat_message_join"]
    /// The tables read when present.
    static let optionalTables = ["chat_handle_join", "attachment", "message_attachment_join"]

    private var columns: [String: Set<String>] = [:]

    /// Reads the schema; throws an ``ImportError`` naming `displayName` when a required table
    /// is missing or the schema cannot be read.
    init(_ db: Database, displayName: String) throws {
        do {
            for table in Self.requiredTables + Self.optionalTables where try db.tableExists(table) {
                columns[table] = Set(try db.columns(in: table).map { $0.name.lowercased() })
            }
        } catch {
            throw ImportError("\(displayName): cannot read the database schema: \(error)")
        }
        for table in Self.requiredTables where columns[table] == nil {
            throw ImportError("\(displayName): not an iMessage database (it has no \(table) table)")
        }
    }

    /// Whether the database has `table`.
    func has(_ table: String) -> Bool { columns[table] != nil }

    /// Whether `table` has `column`.
    func has(_ table: String, _ column: String) -> Bool { columns[table]?.contains(column.lowercased()) == true }

    /// `alias.column AS column`, or `NULL AS column` when the table lacks it.
    func column(_ table: String, _ alias: String, _ column: String) -> String {
        has(table, column) ? "\(alias).\(column) AS \(column)" : "NULL AS \(column)"
    }
}
