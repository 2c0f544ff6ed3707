import ChatTestSupport
import Testing

@testable import chat_archive

/// The read commands' quick parser against ArgumentParser: whatever the quick path takes, it
/// takes as ArgumentParser would; whatever it cannot be sure of, it leaves to ArgumentParser.
@Suite struct QuickCommandLineTests {
    /// What ArgumentParser makes of `arguments` (validation included), as a quick-path command.
    func full(_ arguments: [String]) -> QuickCommandLine.Command? {
        guard let command = try? ChatArchiveCommand.parseAsRoot(arguments) else { return nil }
        switch command {
        case let c as SearchCommand: return .search(c.request)
        case let c as ChatsCommand: return .chats(c.request)
        case let c as ItemsCommand: return .items(c.request)
        case let c as StatsCommand: return .stats(c.request)
        default: return nil
        }
    }

    func expectSame(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let quick = QuickCommandLine.parse(arguments) else { return }
        #expect(full(arguments) == quick, "\(arguments)", sourceLocation: sourceLocation)
    }

    /// The forms scripts use take the quick path, with the values ArgumentParser gives them.
    @Test func plainFormsTakeTheQuickPathWithArgumentParsersValues() {
        let forms: [[String]] = [
            ["search", "video"],
            ["search", "--archive", "/tmp/a.sqlite", "video"],
            ["search", "video", "--archive", "/tmp/a.sqlite", "--json"],
            ["search", "--archive=/tmp/a b.sqlite", "--json", "Heinestraße"],
            ["search", "--chat", "g1", "--content", "link", "--limit", "20", "\"see you\" tomorrow"],
            ["search", "--order", "relevance", "--include-deleted", "--cursor", "n1777215763456000", "東京"],
            ["search", "--limit=7", "from:Zoë has:image after:2024-05"],
            ["search", "مرحبا"], ["search", "שלום"], ["search", "สวัสดี"], ["search", "नमस्ते"],
            ["search", "Привет"], ["search", "İstanbul"], ["search", "😀"], ["search", "ＡＢＣ"], ["search", "e\u{301}"],
            ["search", ""],
            ["search", "--histogram", "month", "東京"], ["search", "--histogram=week", "--exact", "--chat", "g1", ""],
            ["search", "--count", "--chat", "g1", "東京"],
            ["chats"], ["chats", "zoe"], ["chats", "--filter", "groups", "zoe"], ["chats", "--json", "--limit", "3"],
            ["chats", "--filter", "tag:work"], ["chats", "--counts", "--json"], ["chats", "--ids", "g1,c2"],
            ["items", "--chat", "g1"], ["items", "--chat", "g1", "--last", "10", "--json"],
            ["items", "--chat", "g1", "--around", "1755706982400000", "--count", "10"],
            ["items", "--chat", "g1", "--initial", "20"], ["items", "--chat", "g1", "--around-source", "1003"],
            ["items", "--chat", "g1", "--at", "2024-05-01", "--count", "5", "--content", "image", "--search", "x"],
            ["items", "--chat=g1", "--before=17", "--count=3"], ["items", "--after", "17", "--chat", "g1"],
            ["stats"], ["stats", "--json"], ["stats", "--archive", "/tmp/a.sqlite"],
        ]
        for arguments in forms {
            let quick = QuickCommandLine.parse(arguments)
            #expect(quick != nil, "not quick: \(arguments)")
            #expect(quick == full(arguments), "\(arguments)")
        }
    }

    /// Help, mistakes and unusual spellings go to ArgumentParser, which reports them.
    @Test func anythingUnsureGoesToArgumentParser() {
        let unsure: [[String]] = [
            [], ["search"], ["search", "--help"], ["search", "-h"], ["help", "search"], ["search", "a", "b"],
            ["search", "--", "-x"], ["search", "-x"], ["search", "--limit", "0", "x"],
            ["search", "--limit", "-1", "x"],
            ["search", "--limit", "ten", "x"], ["search", "--limit", "5", "--limit", "6", "x"],
            ["search", "--json=1", "x"],
            ["search", "--content", "pdf", "x"], ["search", "--order", "oldest", "x"], ["search", "--chat"],
            ["search", "--chat", "--json", "x"], ["search", "--unknown", "x"], ["search", "--limit=", "x"],
            ["search", "--json", "--json", "x"], ["search", "--histogram", "day", "x"], ["search", "--exact", "x"],
            ["search", "--count", "--histogram", "month", "x"],
            ["chats", "a", "b"], ["chats", "--filter", "nope"],
            ["chats", "--ids", "g1", "zoe"], ["chats", "--cursor", "not-a-cursor"], ["items"],
            ["items", "--chat", "g1", "--last", "3", "--initial", "4"], ["items", "--chat", "g1", "--at", "someday"],
            ["items", "--chat", "g1", "--count", "-3"], ["items", "--chat", "g1", "extra"], ["stats", "x"],
            ["ingest", "a.jsonl"], ["serve"], ["check"], ["markdown", "*b*"], ["demo"], ["--version"],
        ]
        for arguments in unsure {
            #expect(QuickCommandLine.parse(arguments) == nil, "quick: \(arguments)")
        }
    }

    /// Random command lines from the read commands' options, values that look like options,
    /// numbers, words in many scripts and both spellings of a value: the quick parser is nil or
    /// equal to ArgumentParser, and takes most of them.
    @Test func randomCommandLinesParseAsArgumentParserParsesThem() {
        var random = SplitMix64(seed: 16)
        let options: [String: [String]] = [
            "search": ["chat", "content", "limit", "cursor", "order", "include-deleted"],
            "chats": ["filter", "limit", "cursor", "ids", "counts"],
            "items": [
                "chat", "last", "before", "after", "around", "around-source", "initial", "at", "count", "content",
                "search",
            ],
            "stats": [],
        ]
        let flags: Set = ["include-deleted", "counts", "json"]
        let values = [
            "5", "0", "-2", "+3", "17", "x", "-x", "--json", "", "=", "a=b", "link", "image", "relevance", "newest",
            "groups",
            "tag:работа", "g1", "2024-05-01", "Heinestraße", "東京 タワー", "😀", "ＡＢＣ", "İ", "e\u{301}", "n1777215763456000",
        ]
        var quickCount: [String: Int] = [:]
        let cases = 4_000
        for _ in 0..<cases {
            let command = ["search", "chats", "items", "stats"][Int(random.next() % 4)]
            var arguments = [command]
            // `items` needs its chat: most lines give one, so that the other options get checked.
            if command == "items", random.next() % 5 != 0 { arguments += ["--chat", "g1"] }
            let names = (options[command] ?? []) + ["archive", "json"]
            for _ in 0..<Int(random.next() % 5) {
                let name = names[Int(random.next() % UInt64(names.count))]
                let value = values[Int(random.next() % UInt64(values.count))]
                switch (flags.contains(name), random.next() % 3) {
                case (true, _): arguments.append("--" + name)
                case (false, 0): arguments.append("--\(name)=\(value)")
                default: arguments += ["--" + name, value]
                }
            }
            for _ in 0..<Int(random.next() % 3) {
                let value = values[Int(random.next() % UInt64(values.count))]
                arguments.insert(value, at: 1 + Int(random.next() % UInt64(arguments.count)))
            }
            if QuickCommandLine.parse(arguments) != nil { quickCount[command, default: 0] += 1 }
            expectSame(arguments)
        }
        // Not a rare path: a good part of even these random lines is valid and quick.
        for command in options.keys {
            #expect(quickCount[command, default: 0] > cases / 80, "\(quickCount) of \(cases) quick")
        }
    }
}
