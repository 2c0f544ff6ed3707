import ArgumentParser
import ChatArchive
import Foundation

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Build a temporary archive from the bundled Corpus/ and show search, the chat list and a hit in context.")

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

    func locateCorpus() throws -> String {
        let fm = FileManager.default
        var candidates: [String] = []
        if let corpus { candidates.append(corpus) }
        candidates.append(fm.currentDirectoryPath + "/Corpus")
        let source = URL(fileURLWithPath: #filePath)
        candidates.append(source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path + "/Corpus")
        for c in candidates where fm.fileExists(atPath: c + "/sample") { return c }
        throw CLIError("cannot find the Corpus folder (looked in \(candidates.joined(separator: ", "))); pass --corpus PATH")
    }

    func run() async throws {
        try await reportingErrors(json: false) {
            let corpus = try locateCorpus()
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chat-archive-demo-\(getpid())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            defer { if !keep { try? FileManager.default.removeItem(at: dir) } }
            let path = dir.appendingPathComponent("demo.sqlite").path
            let archive = try Archive(path: path)

            print(Terminal.bold("1. Ingest") + Terminal.dim("  (\(corpus))"))
            let fm = FileManager.default
            var sources: [String] = []
            for sub in ["sample", "simplex", "telegram", "whatsapp", "discord", "slack"] {
                let p = corpus + "/" + sub
                guard fm.fileExists(atPath: p) else { continue }
                if sub == "sample" {
                    let files = (try? fm.contentsOfDirectory(atPath: p))?.filter { $0.hasSuffix(".jsonl") }.sorted() ?? []
                    sources += files.map { p + "/" + $0 }
                } else {
                    sources += ((try? fm.contentsOfDirectory(atPath: p)) ?? []).sorted().filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") && !$0.hasSuffix(".py") }.map { p + "/" + $0 }
                }
            }
            for s in sources {
                do {
                    let r = try await archive.ingest([s])
                    print("   \(s.dropFirst(corpus.count + 1)): \(r.itemsAdded) added, \(r.itemsUpdated) updated, \(r.itemsUnchanged) unchanged, \(r.itemsSkipped) skipped")
                } catch {
                    print("   \(s.dropFirst(corpus.count + 1)): \(Terminal.dim("\(error)"))")
                }
            }
            let again = try await archive.ingest(Array(sources.filter { $0.contains("/sample/") }.suffix(1)))
            print("   re-ingesting the latest sample export: \(again.itemsAdded) added, \(again.itemsUpdated) updated, \(again.itemsUnchanged) unchanged")

            print("\n" + Terminal.bold("2. Chat list") + Terminal.dim("  (chat-archive chats)"))
            for r in try await archive.chats(limit: 12) { print("   " + HumanFormat.chatRow(r).replacingOccurrences(of: "\n", with: "\n   ")) }
            for (q, f) in [("lukasz", ChatFilter.all), ("", .unread), ("", .contacts)] {
                let rows = try await archive.chats(matching: q.isEmpty ? nil : q, filter: f, limit: 5)
                let label = q.isEmpty ? "--filter \(f)" : "\"\(q)\""
                print("   chats \(label): " + (rows.map { $0.localAlias.isEmpty ? $0.displayName : $0.localAlias }.joined(separator: ", ")))
            }

            print("\n" + Terminal.bold("3. Search") + Terminal.dim("  (chat-archive search QUERY)"))
            var firstHit: SearchHit? = nil
            for (q, what) in DemoCommand.searches {
                let page = try await archive.search(q, options: SearchOptions(limit: 3))
                print("   " + Terminal.bold(q) + Terminal.dim("  — \(what)"))
                if page.hits.isEmpty { print("      " + Terminal.dim("no matches")) }
                for h in page.hits.prefix(2) {
                    print("      " + Terminal.cyan(h.item.sender ?? "") + ": " + HumanFormat.oneLine(Terminal.highlighted(h.item.text, ranges: h.ranges), max: 200))
                }
                if firstHit == nil, q == "straße" { firstHit = page.hits.first }
            }

            if let hit = firstHit {
                print("\n" + Terminal.bold("4. A hit in its context") + Terminal.dim("  (chat-archive items --chat \(hit.item.chatId) --around \(hit.item.id) --count 3)"))
                let w = try await archive.context(of: hit, count: 3)
                for i in w.items { print("   " + HumanFormat.item(i, isAnchor: i.id == hit.item.id).replacingOccurrences(of: "\n", with: "\n   ")) }
                if let n = w.navInfo { print("   " + Terminal.dim("\(n.afterTotal) newer items, \(n.afterUnread) unread")) }
            }
            if keep { print("\narchive kept at \(path)") }
        }
    }
}
