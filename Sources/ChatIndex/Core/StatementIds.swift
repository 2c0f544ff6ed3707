import GRDB
import GRDBSQLite

extension Statement {
    /// The first column of every row as an `Int64`, stepped through SQLite's C API: for the
    /// thousands of rowids a histogram walks, GRDB's generic cursor (`Int64.fetchAll`) cost
    /// as much as FTS5 itself (SearchPerformance.md in ChatSearch.docc). Errors are GRDB's
    /// `DatabaseError`, as from any fetch, so damage reads as damage.
    package func int64s(arguments: StatementArguments) throws -> [Int64] {
        try setArguments(arguments)
        let s = sqliteStatement
        defer { sqlite3_reset(s) }
        var out: [Int64] = []
        while true {
            switch sqlite3_step(s) {
            case SQLITE_ROW: out.append(sqlite3_column_int64(s, 0))
            case SQLITE_DONE: return out
            case let code:
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(sqlite3_db_handle(s))), sql: sql)
            }
        }
    }
}
