// A stand-in for the few GRDB calls QueryCompiler makes, over the SQLite C API, so the query
// fuzz harness runs the real compiler against a real (small) vocabulary without building GRDB.
// Built as module GRDB by .ci/fuzz/run; never part of the package.
import CSQLite
import Foundation  // GRDB exports it, and QueryCompiler relies on that (replacingOccurrences).

/// An SQLite failure: the result code, the message, the statement.
public struct DatabaseError: Error, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var sql: String
    public var description: String { "SQLite error \(code): \(message) in \(sql)" }
}

/// Values bound to statement parameters and read from the first column.
public protocol DatabaseValueConvertible {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
    static func column(of statement: OpaquePointer) -> Self?
}

extension String: DatabaseValueConvertible {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        // SQLITE_TRANSIENT: SQLite copies the text.
        sqlite3_bind_text(statement, index, self, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }
    public static func column(of statement: OpaquePointer) -> String? {
        sqlite3_column_text(statement, 0).map { String(cString: $0) }
    }
}

extension Int64: DatabaseValueConvertible {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, self)
    }
    public static func column(of statement: OpaquePointer) -> Int64? { sqlite3_column_int64(statement, 0) }
}

extension Int: DatabaseValueConvertible {
    public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_int64(statement, index, Int64(self))
    }
    public static func column(of statement: OpaquePointer) -> Int? { Int(sqlite3_column_int64(statement, 0)) }
}

/// Positional statement arguments.
public struct StatementArguments: ExpressibleByArrayLiteral {
    var values: [any DatabaseValueConvertible]
    public init(_ values: [any DatabaseValueConvertible]) { self.values = values }
    public init(arrayLiteral elements: any DatabaseValueConvertible...) { values = elements }
}

/// A prepared statement.
public final class Statement {
    let handle: OpaquePointer
    let sql: String
    unowned let database: Database
    init(_ handle: OpaquePointer, _ sql: String, _ database: Database) {
        self.handle = handle
        self.sql = sql
        self.database = database
    }
    deinit { sqlite3_finalize(handle) }
}

/// One SQLite connection.
public final class Database {
    /// The `sqlite3 *`.
    public let handle: OpaquePointer
    private var cache: [String: Statement] = [:]

    /// Opens an in-memory database.
    public init() {
        var db: OpaquePointer?
        precondition(sqlite3_open(":memory:", &db) == SQLITE_OK, "cannot open an in-memory database")
        handle = db!
    }

    private func error(_ sql: String) -> DatabaseError {
        DatabaseError(code: sqlite3_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    public func makeStatement(sql: String) throws -> Statement {
        var s: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &s, nil) == SQLITE_OK, let s else { throw error(sql) }
        return Statement(s, sql, self)
    }

    public func cachedStatement(sql: String) throws -> Statement {
        if let s = cache[sql] { return s }
        let s = try makeStatement(sql: sql)
        cache[sql] = s
        return s
    }

    public func execute(sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error(sql) }
    }

    /// Runs `statement` with `arguments`, calling `row` for every result row.
    public func run(_ statement: Statement, _ arguments: StatementArguments, row: (OpaquePointer) -> Void) throws {
        let s = statement.handle
        sqlite3_reset(s)
        sqlite3_clear_bindings(s)
        for (i, v) in arguments.values.enumerated() where v.bind(to: s, at: Int32(i + 1)) != SQLITE_OK {
            throw error(statement.sql)
        }
        while true {
            let rc = sqlite3_step(s)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                let e = error(statement.sql)
                sqlite3_reset(s)
                throw e
            }
            row(s)
        }
        sqlite3_reset(s)
    }
}

extension DatabaseValueConvertible {
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments = []) throws -> [Self] {
        var out: [Self] = []
        try statement.database.run(statement, arguments) { s in if let v = column(of: s) { out.append(v) } }
        return out
    }

    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Self] {
        var out: [Self] = []
        try db.run(db.cachedStatement(sql: sql), arguments) { s in if let v = column(of: s) { out.append(v) } }
        return out
    }

    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> Self? {
        var out: Self?
        try db.run(db.cachedStatement(sql: sql), arguments) { s in if out == nil { out = column(of: s) } }
        return out
    }
}
