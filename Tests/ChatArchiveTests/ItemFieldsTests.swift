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
}
