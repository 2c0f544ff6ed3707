import GRDB
import Testing

@testable import ChatIndex

/// The writer's statements bound through SQLite's C API store what GRDB's arguments stored.
struct DirectBindingsTests {
    static let texts = [
        "", "plain", "Straße İstanbul ıi", "我住在東京都", "日本語のテキスト", "서울에서 만나요", "ราคาถูกมาก",
        "مرحبا بالعالم", "שלום עולם", "नमस्ते दुनिया", "Привет, мир", "ＡＢＣ１２３", "e\u{301}e\u{301}", "👍🏽👨‍👩‍👧 ok",
    ]

    @Test func everyValueRoundTripsAsGRDBBindsIt() throws {
        let db = try DatabaseQueue()
        try db.write { db in
            try db.execute(sql: "CREATE TABLE t (k INTEGER PRIMARY KEY, s TEXT, n INTEGER, o TEXT, b INTEGER)")
            let direct = try db.cachedStatement(sql: "INSERT INTO t(k, s, n, o, b) VALUES (?, ?, ?, ?, ?)")
            let grdb = try db.makeStatement(sql: "INSERT INTO t(k, s, n, o, b) VALUES (?, ?, ?, ?, ?)")
            let numbers: [Int64?] = [nil, 0, -1, .max, .min]
            for (k, text) in Self.texts.enumerated() {
                let number = numbers[k % numbers.count]
                let optional: String? = k % 2 == 0 ? nil : text
                try direct.execute { b in
                    b.bind(Int64(2 * k))
                    b.bind(text)
                    b.bind(number)
                    b.bind(optional)
                    b.bind(k % 3 == 0)
                }
                try grdb.execute(arguments: [2 * k + 1, text, number, optional, k % 3 == 0])
            }
            let rows = try Row.fetchAll(
                db, sql: "SELECT k, s, typeof(s), n, typeof(n), o, typeof(o), b FROM t ORDER BY k")
            #expect(rows.count == 2 * Self.texts.count)
            for k in Self.texts.indices {
                let (mine, theirs) = (rows[2 * k], rows[2 * k + 1])
                #expect(Array(mine.databaseValues.dropFirst()) == Array(theirs.databaseValues.dropFirst()), "\(k)")
                #expect((mine["s"] as String) == Self.texts[k])
                #expect((mine[2] as String) == "text", "an empty string stays text, never NULL")
            }
        }
    }

    @Test func aFailedStatementThrowsTheConstraintAndRunsAgain() throws {
        let db = try DatabaseQueue()
        try db.write { db in
            try db.execute(sql: "CREATE TABLE t (k INTEGER PRIMARY KEY, s TEXT NOT NULL)")
            let insert = try db.makeStatement(sql: "INSERT INTO t(k, s) VALUES (?, ?)")
            try insert.execute { b in
                b.bind(Int64(1))
                b.bind("first")
            }
            #expect {
                try insert.execute { b in
                    b.bind(Int64(1))
                    b.bind("again")
                }
            } throws: { ($0 as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY }
            try insert.execute { b in
                b.bind(Int64(2))
                b.bind("second")
            }
            #expect(try String.fetchAll(db, sql: "SELECT s FROM t ORDER BY k") == ["first", "second"])
        }
    }

    @Test func observersSeeTheDirectlyBoundWrites() throws {
        let db = try DatabaseQueue()
        try db.write { try $0.execute(sql: "CREATE TABLE t (k INTEGER PRIMARY KEY, s TEXT)") }
        final class Counter: TransactionObserver, @unchecked Sendable {
            var inserts = 0
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) { if event.kind == .insert { inserts += 1 } }
            func databaseDidCommit(_ db: Database) {}
            func databaseDidRollback(_ db: Database) {}
        }
        let counter = Counter()
        db.add(transactionObserver: counter)
        try db.write { db in
            let insert = try db.makeStatement(sql: "INSERT INTO t(k, s) VALUES (?, ?)")
            for k in 0..<3 {
                try insert.execute { b in
                    b.bind(Int64(k))
                    b.bind("row \(k)")
                }
            }
        }
        #expect(counter.inserts == 3)
    }
}
