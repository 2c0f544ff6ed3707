import ChatArchive
import ChatTestSupport
import Testing

/// Prefix and infix words are expanded through the vocabulary (never FTS5's materialising
/// `*` unless the vocabulary has too many terms): the results must be exactly those of the
/// rules, co-located parts included.
@Suite struct ExpansionTests {
    static let lines = [
        Lines.chat("g1", name: "Garden"),
        Lines.item("g1", "1", ts: "2024-05-01T10:00:00Z", text: "on a vu l'arbre du jardin"),
        Lines.item("g1", "2", ts: "2024-05-01T10:01:00Z", text: "Heinestraße 5, dritter Stock"),
        Lines.item("g1", "3", ts: "2024-05-01T10:02:00Z", text: "ping @zoë about the seed order"),
        Lines.item("g1", "4", ts: "2024-05-01T10:03:00Z", text: "see https://docs.example.org/garden/plan"),
        Lines.item("g1", "5", ts: "2024-05-01T10:04:00Z", text: "arbitrary words, nothing else"),
    ].joined(separator: "\n")

    @Test(arguments: [
        ("ar", ["1", "5"]),            // short: word prefixes, co-located part `arbre` included
        ("arb", ["1", "5"]),           // infix ⊇ prefix
        ("rbre", ["1"]),               // infix inside `l'arbre`
        ("straße", ["2"]),             // infix with folding
        ("eed", ["3"]),
        ("zo", ["3"]),                 // prefix of a mention's part
        ("examp", ["4"]),              // URL host labels
        ("garden plan", ["4"]),
        ("nothing", ["5"]),
        ("xq", []),
    ])
    func expands(_ query: String, _ expected: [String]) async throws {
        let (archive, _) = try TestArchive.make(jsonl: Self.lines)
        let hits = try await archive.search(query).hits.map(\.item.sourceId).sorted()
        #expect(hits == expected.sorted())
    }

    /// Inputs found by fuzzing (.ci/fuzz/run query): however many words or exclusions, a query
    /// neither fails nor expands without bound, and still finds what its words match.
    @Test(arguments: [
        // A level of parentheses per exclusion overflowed FTS5's parser stack (an SQL error).
        ("150 exclusions", "plan " + (1...150).map { "-x\($0)" }.joined(separator: " "), ["4"]),
        ("150 exclusions, one matching", "the " + (1...149).map { "-x\($0)" }.joined(separator: " ") + " -order", []),
        // Fifty copies of an infix word were fifty expansions: seconds of FTS5 time.
        ("50 repeated words", String(repeating: "eed ", count: 50), ["3"]),
        ("50 repeated exclusions", "garden " + String(repeating: "-seed ", count: 50), ["4"]),
    ])
    func longQueries(_ name: String, _ query: String, _ expected: [String]) async throws {
        let (archive, _) = try TestArchive.make(jsonl: Self.lines)
        let hits = try await archive.search(query).hits.map(\.item.sourceId).sorted()
        #expect(hits == expected.sorted(), "\(name)")
    }

    @Test func prefixUpperBoundIncrementsTheLastScalar() async throws {
        let (archive, _) = try TestArchive.make(jsonl: Self.lines)
        // A word whose range has no terms still finds nothing, and ranges never throw.
        for q in ["\u{10FFFF}", "q\u{10FFFF}", "\u{D7FF}", "ÿ"] {
            let hits = try await archive.search(q).hits.map(\.item.text)
            #expect(hits.isEmpty, "\(q.unicodeScalars.map { String($0.value, radix: 16) }): \(hits)")
        }
    }
}
