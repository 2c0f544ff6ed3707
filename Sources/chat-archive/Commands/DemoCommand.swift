import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine
import Foundation

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Build a temporary archive from the bundled Corpus/ and show search, the chat list and a hit in context.")

    @Option(help: "The Corpus folder (default: ./Corpus, or the one beside the sources).")
    var corpus: String?

    @Flag(help: "Keep the temporary archive and print its path.")
    var keep = false

    /// Searches that show what the analyser does, with what each demonstrates.
    static let searches: [(String, String)] = [
        ("cafe", "accents folded: finds Café"),
        ("ISTANBUL", "case folded, Turkish İ: finds İstanbul"),
        ("ＡＢＣ", "full-width folded: finds ABC"),
        ("東京", "Chinese/Japanese substring: finds 東京都"),
        ("서울", "Korean inside a longer word: finds 서울에서"),
        ("ผัดไทย", "Thai without spaces: finds ผัดไทย inside a sentence"),
        ("😂", "emoji"),
        ("straße", "infix: finds Heinestraße"),
        ("eed", "infix: finds seed, need"),
        ("arbre", "apostrophes: finds l'arbre"),
        ("\"see you\" -tomorrow", "phrase and exclusion"),
        ("has:link", "content filter"),
    ]

    /// One sample per format, and a query that finds something in it.
    struct Sample {
        var format: String
        var path: String
        var query: String
        /// Whether a chat id comes from this sample's format (importers prefix theirs).
        func owns(_ chatSourceId: String) -> Bool {
            format == "jsonl"
                ? ![
                    "simplex:", "telegram:", "whatsapp:", "discord:", "slack:", "matrix:", "signal:", "meta:",
                    "imessage:",
                ].contains { chatSourceId.hasPrefix($0) }
                : chatSourceId.hasPrefix(format + ":")
        }
    }

    static let samples: [Sample] = [
        Sample(format: "jsonl", path: "sample", query: "knafeh"),
        Sample(format: "simplex", path: "simplex/android-group.json", query: "summit"),
        Sample(format: "telegram", path: "telegram/single-chat", query: "Frankenjura"),
        Sample(format: "whatsapp", path: "whatsapp/android-en-GB", query: "tomatoes"),
        Sample(format: "discord", path: "discord/dm", query: "boots"),
        Sample(format: "slack", path: "slack", query: "shed"),
        Sample(format: "matrix", path: "matrix/with-attachments", query: "greenhouse"),
        Sample(format: "signal", path: "signal/desktop/signal-export-2026-01-01-00-00-00", query: "ropes"),
        Sample(format: "meta", path: "meta/facebook-2024", query: "café"),
        Sample(format: "imessage", path: "imessage/Messages", query: "crag"),
    ]

    func pad(_ s: String) -> String { s + String(repeating: " ", count: max(1, 10 - s.count)) }

    func locateCorpus() throws -> String {
        let fm = FileManager.default
        var candidates: [String] = []
        if let corpus { candidates.append(corpus) }
        candidates.append(fm.currentDirectoryPath + "/Corpus")
        let source = URL(fileURLWithPath: #filePath)
        candidates.append(
            source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().path + "/Corpus")
        for c in candidates where fm.fileExists(atPath: c + "/sample") { return c }
        throw CLIError(
            "cannot find the Corpus folder (looked in \(candidates.joined(separator: ", "))); pass --corpus PATH")
    }

    func run() async throws {
        try await reportingErrors(json: false) {
            let corpus = try locateCorpus()
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chat-archive-demo-\(getpid())")
            try FileManager.default.createDirectory(
                at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            defer { if !keep { try? FileManager.default.removeItem(at: dir) } }
            let path = dir.appendingPathComponent("demo.sqlite").path
            let archive = try Archive(path: path)
            try await ingestSamples(corpus: corpus, into: archive)
            try await showOneHitPerFormat(archive)
            try await showChatList(archive)
            if let hit = try await showSearches(archive) { try await showContext(of: hit, archive) }
            if keep { print("\narchive kept at \(path)") }
        }
    }

    /// 1. One sample of each format, then the newest JSON Lines file again (nothing changes).
    func ingestSamples(corpus: String, into archive: Archive) async throws {
        print(Terminal.bold("1. Ingest one sample of each format") + Terminal.dim("  (\(corpus))"))
        let fm = FileManager.default
        var jsonl: [String] = []
        for sample in DemoCommand.samples {
            let p = corpus + "/" + sample.path
            guard fm.fileExists(atPath: p) else {
                print("   " + pad(sample.format) + Terminal.dim("\(sample.path): not found"))
                continue
            }
            var paths = [p]
            if sample.format == "jsonl" {
                let files =
                    (try? fm.contentsOfDirectory(atPath: p))?.filter { $0.hasSuffix(".jsonl") }.sorted() ?? []
                paths = files.map { p + "/" + $0 }
                jsonl = paths
            }
            do {
                let r = try await archive.ingest(paths)
                var line = "\(sample.path): \(r.itemsAdded) added, \(r.itemsUpdated) updated"
                if !r.errors.isEmpty {
                    let n = r.errors.count
                    line += Terminal.dim("  (\(n) \(n == 1 ? "problem" : "problems") in the fixture, on purpose)")
                }
                print("   " + pad(sample.format) + line)
            } catch {
                print("   " + pad(sample.format) + Terminal.dim("\(sample.path): \(error)"))
            }
        }
        if let latest = jsonl.last {
            let again = try await archive.ingest([latest])
            print(
                "   re-ingesting \(latest.dropFirst(corpus.count + 1)): \(again.itemsAdded) added, \(again.itemsUpdated) updated, \(again.itemsUnchanged) unchanged"
            )
        }
    }

    /// One hit of each format's sample query, in that format's chats.
    func showOneHitPerFormat(_ archive: Archive) async throws {
        print("\n" + Terminal.bold("   One hit from each format"))
        for sample in DemoCommand.samples {
            let page = try await archive.search(sample.query, options: SearchOptions(limit: 50))
            let hit = page.hits.first { sample.owns($0.item.chatId) }
            let label = pad(sample.format) + Terminal.bold(sample.query) + "  "
            guard let hit else {
                print("   " + label + Terminal.dim("no match"))
                continue
            }
            let sender = hit.item.sender.map { Terminal.cyan($0) + ": " } ?? ""
            print(
                "   " + label + sender
                    + HumanFormat.oneLine(Terminal.highlighted(hit.item.text, ranges: hit.ranges), max: 90))
        }
    }

    /// 2. The chat list, a name search and two filter tabs.
    func showChatList(_ archive: Archive) async throws {
        print("\n" + Terminal.bold("2. Chat list") + Terminal.dim("  (chat-archive chats)"))
        for r in try await archive.chats(limit: 12) {
            print("   " + HumanFormat.chatRow(r).replacingOccurrences(of: "\n", with: "\n   "))
        }
        for (q, f) in [("lukasz", ChatFilter.all), ("", .unread), ("", .contacts)] {
            let rows = try await archive.chats(matching: q.isEmpty ? nil : q, filter: f, limit: 5)
            let label = q.isEmpty ? "--filter \(f)" : "\"\(q)\""
            print(
                "   chats \(label): "
                    + (rows.map { $0.localAlias.isEmpty ? $0.displayName : $0.localAlias }.joined(separator: ", ")))
        }
    }

    /// 3. The sample searches; returns the first hit of `straße`, opened in step 4.
    func showSearches(_ archive: Archive) async throws -> SearchHit? {
        print("\n" + Terminal.bold("3. Search") + Terminal.dim("  (chat-archive search QUERY)"))
        var firstHit: SearchHit? = nil
        for (q, what) in DemoCommand.searches {
            let page = try await archive.search(q, options: SearchOptions(limit: 3))
            print("   " + Terminal.bold(q) + Terminal.dim("  — \(what)"))
            if page.hits.isEmpty { print("      " + Terminal.dim("no matches")) }
            for h in page.hits.prefix(2) {
                print(
                    "      " + Terminal.cyan(h.item.sender ?? "") + ": "
                        + HumanFormat.oneLine(Terminal.highlighted(h.item.text, ranges: h.ranges), max: 200))
            }
            if firstHit == nil, q == "straße" { firstHit = page.hits.first }
        }
        return firstHit
    }

    /// 4. A hit in its context: the window around it.
    func showContext(of hit: SearchHit, _ archive: Archive) async throws {
        print(
            "\n" + Terminal.bold("4. A hit in its context")
                + Terminal.dim("  (chat-archive items --chat \(hit.item.chatId) --around \(hit.item.id) --count 3)"))
        let w = try await archive.context(of: hit, count: 3)
        for i in w.items {
            print(
                "   "
                    + HumanFormat.item(i, isAnchor: i.id == hit.item.id).replacingOccurrences(of: "\n", with: "\n   "))
        }
        if let n = w.navInfo {
            print("   " + Terminal.dim("\(n.afterTotal) newer items, \(n.afterUnread) unread"))
        }
    }
}
