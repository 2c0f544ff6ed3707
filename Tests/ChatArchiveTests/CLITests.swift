import ChatArchive
import ChatTestSupport
import Foundation
import Testing

/// End-to-end tests of the built `chat-archive` binary on the Corpus.
@Suite(.serialized) struct CLITests {
    static var binary: String {
        let build = URL(fileURLWithPath: TestArchive.packagePath).appendingPathComponent(".build")
        for config in ["debug", "release"] {
            let p = build.appendingPathComponent(config).appendingPathComponent("chat-archive").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return build.appendingPathComponent("debug/chat-archive").path
    }

    @discardableResult
    func run(_ args: [String], env: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.binary)
        p.arguments = args
        var e = ProcessInfo.processInfo.environment
        e["NO_COLOR"] = "1"
        for (k, v) in env { e[k] = v }
        p.environment = e
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let r = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: r, as: UTF8.self))
    }

    func json(_ s: String) throws -> JSONValue { try JSONParser.parse(Array(s.utf8)) }

    @Test func ingestSearchChatsItemsOnTheSampleCorpus() throws {
        let archive = TestArchive.temporaryPath()
        let sample = TestArchive.corpusPath + "/sample"
        let ingest = try run(["ingest", "--archive", archive, "--json", sample + "/chats.jsonl", sample + "/updates.jsonl"])
        #expect(ingest.status == 0, "\(ingest.err)")
        let report = try json(ingest.out)
        #expect(report["itemsAdded"]?.numberValue == 434)
        #expect(report["itemsUpdated"]?.numberValue == 2)
        #expect(report["chats"]?.numberValue == 12)

        let again = try json(try run(["ingest", "--archive", archive, "--json", sample + "/updates.jsonl"]).out)
        #expect(again["itemsAdded"]?.numberValue == 0)
        #expect(again["itemsUpdated"]?.numberValue == 0)

        let search = try run(["search", "--archive", archive, "--json", "Heinestraße"])
        #expect(search.status == 0)
        let hits = try #require(try json(search.out)["hits"]?.arrayValue)
        #expect(hits.count == 10)  // 4 in Family, 6 in Hiking club
        #expect(hits.first?["ranges"]?.arrayValue?.isEmpty == false)
        let id = try #require(hits.first?["id"]?.numberValue)
        let chat = try #require(hits.first?["chatId"]?.stringValue)

        let window = try json(try run(["items", "--archive", archive, "--json", "--chat", chat, "--around", String(Int64(id)), "--count", "2"]).out)
        let items = try #require(window["items"]?.arrayValue)
        #expect(items.count == 5)
        #expect(items[2]["id"]?.numberValue == id)
        #expect(window["navInfo"]?["afterTotal"]?.numberValue != nil)

        let chats = try json(try run(["chats", "--archive", archive, "--json", "--filter", "business"]).out)
        #expect(chats["chats"]?.arrayValue?.map { $0["chatId"]?.stringValue } == ["shop"])

        let paged = try json(try run(["search", "--archive", archive, "--json", "--limit", "3", "trip"]).out)
        #expect(paged["hits"]?.arrayValue?.count == 3)
        #expect(paged["nextCursor"]?.stringValue != nil)

        let human = try run(["search", "--archive", archive, "zugspitze"])
        #expect(human.out.contains("[Zugspitze]"))
        #expect(try run(["check", "--archive", archive]).status == 0)
    }

    @Test func badLinesAreReportedAndUsageErrorsExitWith2() throws {
        let archive = TestArchive.temporaryPath()
        let r = try run(["ingest", "--archive", archive, "--json", TestArchive.corpusPath + "/sample-bad/bad.jsonl"])
        #expect(r.status == 0)
        let report = try json(r.out)
        #expect(report["itemsAdded"]?.numberValue == 2)
        let lines = report["errors"]?.arrayValue?.compactMap { $0["line"]?.numberValue } ?? []
        #expect(lines == [2, 3, 5, 6])
        let strict = try run(["ingest", "--archive", TestArchive.temporaryPath(), "--strict", TestArchive.corpusPath + "/sample-bad/bad.jsonl"])
        #expect(strict.status == 1)
        #expect(try run(["search", "--archive", archive, "--order", "sideways", "x"]).status == 2)
        #expect(try run(["items", "--archive", archive, "--chat", "b", "--around", "1"]).status == 1)
    }

    @Test func demoRuns() throws {
        let r = try run(["demo"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Heinestraße"))
    }
}
