import ChatArchive
import ChatTestSupport
import ChatText
import Foundation
import Testing

@testable import ChatSearch

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
        ("ar", ["1", "5"]),  // short: word prefixes, co-located part `arbre` included
        ("arb", ["1", "5"]),  // infix ⊇ prefix
        ("rbre", ["1"]),  // infix inside `l'arbre`
        ("straße", ["2"]),  // infix with folding
        ("eed", ["3"]),
        ("zo", ["3"]),  // prefix of a mention's part
        ("examp", ["4"]),  // URL host labels
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
    @Test(
        arguments: [
            // A level of parentheses per exclusion overflowed FTS5's parser stack (an SQL error).
            ("150 exclusions", "plan " + (1...150).map { "-x\($0)" }.joined(separator: " "), ["4"]),
            (
                "150 exclusions, one matching", "the " + (1...149).map { "-x\($0)" }.joined(separator: " ") + " -order",
                []
            ),
            // Fifty copies of an infix word were fifty expansions: seconds of FTS5 time.
            ("50 repeated words", String(repeating: "eed ", count: 50), ["3"]),
            ("50 repeated exclusions", "garden " + String(repeating: "-seed ", count: 50), ["4"]),
            // Found by the randomized test: `＂` folds to `"`, and `"` + a combining mark is one
            // Character, which a Character-wise quote doubling left alone (an unterminated string).
            ("full-width quote before a mark", "garden plan＂\u{1032}x", []),
            ("quote before a mark, phrase", "\"plan＂\u{301}\"", ["4"]),
            ("percent before a mark in in:", "in:%\u{301} plan", []),
        ] as [(String, String, [String])])
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

/// Expansion drops a term when one of its parts is itself an alternative (`blog.example.fr`
/// when `example` is listed): the results must stay exactly the infix rule's, which this suite
/// checks against an oracle over the analyser's own document tokens.
@Suite struct CoveredExpansionTests {
    static let labels = [
        "ex", "example", "exa", "mple", "shop", "blog", "www", "ana", "sample", "10", "192", "168", "x1", "dev",
    ]
    static let tlds = ["com", "org", "exa", "io", "fr", "co.uk"]

    static func corpus() -> [String] {
        var seeded = SplitMix64(seed: 0xC0FFEE)
        func pick(_ a: [String]) -> String { a[Int(seeded.next() % UInt64(a.count))] }
        func host() -> String {
            (0..<(1 + Int(seeded.next() % 3))).map { _ in pick(labels) }.joined(separator: ".") + "." + pick(tlds)
        }
        var texts: [String] = []
        for _ in 0..<400 {
            var words: [String] = []
            for _ in 0..<(1 + Int(seeded.next() % 4)) {
                switch seeded.next() % 9 {
                case 0: words.append(host())
                case 1: words.append("https://" + host() + "/" + pick(labels))
                case 2: words.append(pick(labels) + "@" + host())
                case 3: words.append(pick(labels) + "." + pick(labels))  // a dotted word: e.g, v2.0
                case 4: words.append("http://192.168.\(seeded.next() % 3).\(seeded.next() % 12)/" + pick(labels))
                case 5: words.append("@" + pick(labels) + "." + pick(labels))
                // cut at 128 bytes
                case 6: words.append(String(repeating: pick(labels) + ".", count: 30) + pick(labels))
                case 7: words.append(pick(labels) + "'" + pick(labels))
                default: words.append(pick(labels) + pick(labels))
                }
            }
            texts.append(words.joined(separator: " "))
        }
        return texts
    }

    @Test func coveredTermsAreDroppedOnlyWhenAPartIsListed() {
        let alts = [
            "example", "example.com", "blog.example.fr", "ana@example.org", "www.example", "my-site.example",
            "example.10.1.2", "x.example", "10.1.2.example",
        ]
        // `www.example`: the last part may be a top-level domain (not indexed alone) or cut;
        // `example.10.1.2` ends in a number (an IP address has no parts indexed); `x.example` and
        // `10.1.2.example` list no part.
        #expect(
            QueryCompiler.pruneCovered(alts) == [
                "example", "www.example", "my-site.example", "example.10.1.2", "x.example", "10.1.2.example",
            ])
        #expect(QueryCompiler.pruneCovered(["com", "x1.com"]) == ["com", "x1.com"])
        #expect(QueryCompiler.pruneCovered(["www", "www.shop.com"]) == ["www", "www.shop.com"])
        #expect(QueryCompiler.pruneCovered(["shop", "www.shop.com", "shop@mail.org"]) == ["shop"])
    }

    @Test func prunedExpansionsFindExactlyTheInfixMatches() async throws {
        let texts = Self.corpus()
        let lines =
            [Lines.chat("h", name: "Hosts")]
            + texts.enumerated().map { i, t in
                Lines.item(
                    "h", "\(i)",
                    ts: "2024-05-01T10:\(String(format: "%02d", i / 60)):\(String(format: "%02d", i % 60))Z", text: t)
            }
        let (archive, _) = try TestArchive.make(jsonl: lines.joined(separator: "\n"))
        let tokens = texts.map { Set(Tokenizer.tokens(in: $0, mode: .document).map(\.text)) }
        var queries = Set(
            Self.labels.filter { $0.count >= 3 } + Self.tlds.filter { $0.count >= 3 && !$0.contains(".") })
        var seeded = SplitMix64(seed: 7)
        let all = tokens.flatMap { $0 }.filter { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        for _ in 0..<150 {
            let t = Array(all[Int(seeded.next() % UInt64(all.count))])
            guard t.count >= 3 else { continue }
            let length = 3 + Int(seeded.next() % UInt64(t.count - 2))
            let start = Int(seeded.next() % UInt64(t.count - length + 1))
            queries.insert(String(t[start..<(start + length)]))
        }
        // Pieces of hosts, addresses and dotted words, typed as they are: one token in the
        // document, several in the query (`x1.com` is `x1` and `com` to the word breaker).
        let dotted = tokens.flatMap { $0 }.filter { $0.contains(".") || $0.contains("@") }
        var typed = Set<String>()
        for _ in 0..<150 {
            let t = Array(dotted[Int(seeded.next() % UInt64(dotted.count))])
            guard t.count >= 4 else { continue }
            let length = 4 + Int(seeded.next() % UInt64(t.count - 3))
            let start = Int(seeded.next() % UInt64(t.count - length + 1))
            let q = String(t[start..<(start + length)])
            if q.contains(".") || q.contains("@"), q.first?.isLetter == true || q.first?.isNumber == true {
                typed.insert(q)
            }
        }
        #expect(typed.count > 50)
        for q in typed.sorted() {
            let expected = Set(tokens.indices.filter { i in tokens[i].contains { $0.contains(q) } }.map(String.init))
            let found = Set(
                try await archive.search(q, options: SearchOptions(limit: 10_000)).hits.map(\.item.sourceId))
            let missing = expected.subtracting(found).sorted()
            // The query's own tokens as a phrase (`10` then `co…`) find more, but only texts holding them.
            let parts = Tokenizer.tokens(in: q, mode: .query).map(\.text)
            let unexplained = found.subtracting(expected).filter { id in
                !parts.allSatisfy { texts[Int(id)!].lowercased().contains($0) }
            }.sorted()
            #expect(
                missing.isEmpty && unexplained.isEmpty,
                "\(q): missing \(missing.prefix(3).map { texts[Int($0)!] }), unexplained \(unexplained.prefix(3).map { texts[Int($0)!] })"
            )
        }
        for q in queries.sorted() {
            let expected = Set(tokens.indices.filter { i in tokens[i].contains { $0.contains(q) } }.map(String.init))
            let found = try await archive.search(q, options: SearchOptions(limit: 10_000)).hits.map(\.item.sourceId)
            let missing = expected.subtracting(found).sorted()
            let extra = Set(found).subtracting(expected).sorted()
            #expect(
                missing.isEmpty && extra.isEmpty,
                "\(q): missing \(missing.prefix(3).map { texts[Int($0)!] }), extra \(extra.prefix(3).map { texts[Int($0)!] })"
            )
        }
    }
}
