// libFuzzer entry for the query parser and compiler (built into module ChatSearch by
// .ci/fuzz/run, with GRDBShim.swift as GRDB).
import CSQLite
import ChatModel
import ChatText
import GRDB

/// A small archive: the real FTS5 table definition and tokenizer, a vocabulary with enough
/// `seed…` terms to overflow the prefix expansion limit (the infix limit takes the same path
/// but would make every `see` query cost 100 ms), two chats and two members.
nonisolated(unsafe) private let fixture: Database = {
    let db = Database()
    require(FTS5Registration.register(on: db.handle) == SQLITE_OK, "cannot register the chat tokenizer")
    var sql = """
        CREATE TABLE chat (id INTEGER PRIMARY KEY, sourceId TEXT NOT NULL, nameKey TEXT NOT NULL);
        CREATE TABLE member (id INTEGER PRIMARY KEY, chatId INTEGER NOT NULL, sourceId TEXT NOT NULL, nameKey TEXT NOT NULL);
        CREATE VIRTUAL TABLE itemFts USING fts5(text, extra, tags, tokenize='chat');
        CREATE TABLE term (id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE);
        CREATE VIRTUAL TABLE termGram USING fts5(term, content='', tokenize='trigram');
        INSERT INTO chat VALUES (1, 'g1', 'garden club'), (2, 'd2', 'ana');
        INSERT INTO member VALUES (1, 1, 'ana', 'ana'), (2, 1, 'bob', 'bob m');
        INSERT INTO itemFts VALUES ('seeds for the garden, see you tomorrow', '', 'all c1 fr1 ttext');
        INSERT INTO itemFts VALUES ('東京で会いましょう l''arbre @zoë https://x.org', 'x.org', 'all c2 fr2 mn1 xlink');

        """
    var terms = ["seeds", "for", "the", "garden", "see", "you", "tomorrow", "arbre", "zoe", "東京", "京で", "x", "org"]
    for n in 0..<(QueryCompiler.maxPrefixTerms + 10) { terms.append("seed\(n)") }
    for (i, t) in terms.enumerated() {
        sql +=
            "INSERT INTO term VALUES (\(i + 1), '\(t)'); INSERT INTO termGram(rowid, term) VALUES (\(i + 1), '\(t)');\n"
    }
    do { try db.execute(sql: sql) } catch { fatalError("fixture: \(error)") }
    return db
}()

/// Parses the input, compiles it under a scope picked by its first byte, and runs the MATCH
/// expression through FTS5: traps when FTS5 rejects it (the compiler promises that no user
/// text can make a syntax error) or when compiling throws.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let knobs = data[0]
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let query = QueryParser.parse(text)
    var scope = SearchScope()
    if knobs & 1 != 0 { scope.chatIds = [1] }
    if knobs & 2 != 0 { scope.includeDeleted = true }
    if knobs & 4 != 0 { scope.content = ContentFilter.allCases[Int(knobs >> 3) % ContentFilter.allCases.count] }
    let compiled: CompiledQuery
    do {
        compiled = try QueryCompiler.compile(query, scope: scope, fixture)
    } catch {
        fatalError("compile threw \(error) for \(String(reflecting: text))")
    }
    do {
        let hits = try Int64.fetchAll(
            fixture, sql: "SELECT rowid FROM itemFts WHERE itemFts MATCH ? AND rowid >= ? AND rowid < ?",
            arguments: [compiled.match, compiled.minRowid, compiled.maxRowid])
        require(hits.count <= 2)
    } catch {
        fatalError(
            "FTS5 rejects \(String(reflecting: compiled.match)) compiled from \(String(reflecting: text)): \(error)")
    }
    for range in compiled.highlighter.ranges(in: text) {
        require(0 <= range.lowerBound && range.upperBound <= text.utf16.count, "highlight out of the text")
    }
    return 0
}
