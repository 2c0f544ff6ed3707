import ChatArchive
import ChatTestSupport
import Testing

/// What importers know about times and files reaches the archive, its queries and its JSON.
@Suite struct ItemFieldsTests {
    @Test func whatsAppFloatingTimesAndAttachedFilePathsAreKept() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let r = try archive.ingestSync([TestArchive.corpusPath + "/whatsapp/android-en-GB"])
        #expect(r.itemsAdded > 0)
        let hits = try await archive.search("IMG-20240703-WA0001").hits
        let item = try #require(hits.first?.item)
        #expect(item.isFloatingTime)
        #expect(item.wallClock == "2024-07-03T18:06")
        #expect(item.file?.name == "IMG-20240703-WA0001.jpg")
        #expect(item.file?.path == "IMG-20240703-WA0001.jpg")
    }

    @Test func everyDiscordAttachmentIsKeptAndSearchable() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        _ = try archive.ingestSync([TestArchive.corpusPath + "/discord/dm"])
        // The second attachment's name is indexed too.
        let hits = try await archive.search("dmesg").hits
        let item = try #require(hits.first?.item)
        #expect(item.file?.name == "boot.log")
        #expect(item.moreFiles.map(\.name) == ["dmesg.txt"])
    }

    @Test func reimportingWithAnotherTimeZoneUpdatesFloatingItems() throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let path = TestArchive.corpusPath + "/whatsapp/android-en-GB"
        let first = try archive.ingestSync([path])
        var options = IngestOptions()
        options.importOptions.timeZoneIdentifier = "+02:00"
        let second = try archive.ingestSync([path], options: options)
        #expect(second.itemsAdded == 0, "ids do not depend on the zone")
        #expect(second.itemsUpdated >= first.itemsAdded, "every item moved in time")
        #expect(second.itemsUnchanged == 0)
    }
    @Test func aQuoteOpensInContextByItsSourceId() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        _ = try archive.ingestSync([TestArchive.corpusPath + "/sample/chats-1.jsonl"])
        let reply = try #require(try await archive.search("on it", options: SearchOptions(chat: "g-hiking")).hits.first)
        let quoted = try #require(reply.item.quote?.itemSourceId)
        let id = try #require(try await archive.itemId(chat: "g-hiking", sourceId: quoted))
        let window = try await archive.items(in: "g-hiking", window: .around(id, count: 3))
        #expect(window.items.contains { $0.id == id && $0.sourceId == quoted })
        #expect(try await archive.itemId(chat: "g-hiking", sourceId: "no-such-message") == nil)
        await #expect(throws: ArchiveError.self) { try await archive.itemId(chat: "no-such-chat", sourceId: quoted) }
    }
}
