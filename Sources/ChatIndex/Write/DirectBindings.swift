import GRDB
import GRDBSQLite

/// Parameters bound straight through SQLite's C API, for the writer's statements that run once
/// or more per item.
///
/// `setUncheckedArguments([...])` boxes every value into an existential, converts it to a
/// `DatabaseValue` and keeps the array: for the item row's 30 values that was most of the
/// GRDB time in the writer thread's profile. The statement still runs through GRDB's
/// `execute()`, so transaction observers, error reporting and the statement cache see it as
/// before: ``Statement/execute(binding:)`` marks the statement's arguments as set (none), binds
/// each parameter in order, then executes with the bindings in place.
struct DirectBindings {
    private let statement: SQLiteStatement
    /// The last parameter bound (1-based).
    private(set) var count: CInt = 0

    fileprivate init(_ statement: SQLiteStatement) { self.statement = statement }

    /// SQLite copies the bytes before the bind call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private mutating func next() -> CInt {
        count += 1
        return count
    }

    mutating func bind(_ value: Int64) {
        let code = sqlite3_bind_int64(statement, next(), value)
        assert(code == SQLITE_OK, "bind \(count): \(code)")
    }

    mutating func bind(_ value: Int) { bind(Int64(value)) }

    mutating func bind(_ value: Bool) { bind(Int64(value ? 1 : 0)) }

    mutating func bind(_ value: String) {
        let index = next()
        var value = value
        let code = value.withUTF8 { bytes in
            // An empty buffer may have no address, and a null pointer would bind NULL.
            bytes.isEmpty
                ? sqlite3_bind_text(statement, index, "", 0, Self.transient)
                : bytes.withMemoryRebound(to: CChar.self) {
                    sqlite3_bind_text(statement, index, $0.baseAddress, CInt($0.count), Self.transient)
                }
        }
        assert(code == SQLITE_OK, "bind \(index): \(code)")
    }

    mutating func bind(_ value: [UInt8]) {
        let index = next()
        let code = value.withUnsafeBytes { bytes in
            // A zero-length blob still needs an address (a null pointer would bind NULL).
            bytes.isEmpty
                ? sqlite3_bind_zeroblob(statement, index, 0)
                : sqlite3_bind_blob(statement, index, bytes.baseAddress, CInt(bytes.count), Self.transient)
        }
        assert(code == SQLITE_OK, "bind \(index): \(code)")
    }

    /// A message's text as it is stored (``StoredText``).
    mutating func bind(_ value: StoredText) {
        switch value {
        case .text(let s): bind(s)
        case .compressed(let b): bind(b)
        }
    }

    mutating func bindNull() {
        let code = sqlite3_bind_null(statement, next())
        assert(code == SQLITE_OK, "bind \(count): \(code)")
    }

    mutating func bind(_ value: Int64?) {
        if let value { bind(value) } else { bindNull() }
    }

    mutating func bind(_ value: Int?) {
        if let value { bind(Int64(value)) } else { bindNull() }
    }

    mutating func bind(_ value: String?) {
        if let value { bind(value) } else { bindNull() }
    }
}

extension Statement {
    /// Binds every parameter with `body`, in order, then executes the statement through GRDB.
    func execute(binding body: (inout DirectBindings) -> Void) throws {
        // A reset after a failed step returns that step's error, which GRDB's reset below
        // would trap on: the statement may be one whose last run failed.
        sqlite3_reset(sqliteStatement)
        // Resets, clears the bindings, and records "no arguments, valid and bound", so that
        // `execute()` keeps the bindings made below.
        setUncheckedArguments(StatementArguments())
        var bindings = DirectBindings(sqliteStatement)
        body(&bindings)
        precondition(bindings.count == sqlite3_bind_parameter_count(sqliteStatement), "unbound parameters")
        try execute()
    }
}
