import ChatArchive
import ChatModel
import ChatTestSupport
import Foundation
import Testing

@testable import ChatImport

private func metaRoot(_ name: String) -> String { corpusRoot + "/meta/" + name }

private func importMeta(_ path: String, owner: String? = nil) throws -> CollectingSink {
    let sink = CollectingSink()
    let detection = try FormatDetector.detect(path: path)
    #expect(detection.format == "meta")
    try MetaImporter().read(
        detection.container, entries: detection.entries, into: sink, options: ImportOptions(ownerName: owner))
    return sink
}

private let lenaThread = "your_facebook_activity/messages/inbox/lenaortiz_10158832/"
/// 2024-06-01T08:20:00Z, the first message of the Lena thread.
private let t0: Int64 = 1_717_230_000_000

private func at(_ sink: CollectingSink, _ chat: String, _ ms: Int64) -> [Item] {
    sink.items.filter { $0.chatSourceId == chat && $0.timestamp.milliseconds == ms }
}

@Suite struct MetaMojibakeTests {
    @Test func repairsLatin1ReadingsOfUTF8() {
        #expect(MetaMojibake.repair("Caf\u{C3}\u{A9}") == "Café")
        #expect(MetaMojibake.repair("\u{F0}\u{9F}\u{91}\u{8D}") == "👍")
        #expect(MetaMojibake.repair("\u{D0}\u{9F}\u{D1}\u{80}\u{D0}\u{B8}") == "При")
        #expect(MetaMojibake.repair("\u{E4}\u{BD}\u{A0}\u{E5}\u{A5}\u{BD}") == "你好")
        #expect(MetaMojibake.repair("\u{D9}\u{85}\u{D8}\u{B1}") == "مر")
    }

    @Test func leavesTextThatIsNotMojibake() {
        for s in ["naïve", "Müller £5 ©", "Café 👍", "", "plain ASCII", "\u{C0}\u{80}", "Ã", "e\u{301}", "日本語"] {
            #expect(MetaMojibake.repair(s) == s)
        }
    }

    @Test func repairsKeysAndNestedStrings() {
        let v: JSONValue = .object([("k\u{C3}\u{A9}", .array([.string("\u{C3}\u{BC}"), .number(1)]))])
        #expect(MetaMojibake.repair(v) == .object([("ké", .array([.string("ü"), .number(1)]))]))
    }

    @Test func sentences() {
        #expect(MetaSentence.classify("Lena left the group.", sender: "Lena") == .event)
        #expect(MetaSentence.classify("You named the group X.", sender: "Jo") == .event)
        #expect(MetaSentence.classify("I left the group early", sender: "Lena") == .text)
        #expect(MetaSentence.classify("Reacted 😂 to your message", sender: "Jo") == .reactionEcho)
        #expect(MetaSentence.classify("Liked a message", sender: "Jo") == .reactionEcho)
        #expect(MetaSentence.classify("Jo sent an attachment.", sender: "Jo") == .attachmentPlaceholder)
        #expect(MetaSentence.classify("Lena hat die Gruppe verlassen.", sender: "Lena") == .text)
    }
}

@Suite struct MetaFacebook2024Tests {
    let sink: CollectingSink
    init() throws { sink = try importMeta(metaRoot("facebook-2024")) }

    @Test func chatsMembersAndCounts() {
        #expect(sink.chats.map(\.sourceId).sorted() == ["meta:10158832", "meta:2345678901", "meta:5550001"])
        #expect(sink.chats.allSatisfy { $0.source == "messenger" })
        #expect(sink.issues.isEmpty, "\(sink.issues)")
        #expect(sink.items.count == 28)
        #expect(at(sink, "meta:10158832", t0 + 180_000).isEmpty, "the reaction echo makes no item")
        let lena = sink.chats.first { $0.sourceId == "meta:10158832" }
        #expect(lena?.type == .direct && lena?.displayName == "Lena Ortiz" && lena?.tags == [])
        let club = sink.chats.first { $0.sourceId == "meta:2345678901" }
        #expect(club?.type == .group && club?.displayName == "Book Club 📚" && club?.tags == ["archived"])
        #expect(sink.chats.first { $0.sourceId == "meta:5550001" }?.tags == ["moved to end-to-end encryption"])
        let lenaMembers = sink.members.filter { $0.chatSourceId == "meta:10158832" }
        #expect(lenaMembers.map(\.sourceId) == ["Lena Ortiz", "Jo Brändt"])
        #expect(lenaMembers.map(\.isUser) == [false, true])
        #expect(sink.members.filter { $0.chatSourceId == "meta:2345678901" }.count == 5)
    }

    @Test func textTimesSendersAndReactions() throws {
        let first = try #require(at(sink, "meta:10158832", t0).first)
        #expect(first.content.text == "Café at 8?")
        #expect(first.timestamp.rfc3339 == "2024-06-01T08:20:00Z")
        #expect(first.memberSourceId == "Lena Ortiz" && first.direction == .rcv)
        #expect(first.reactions == [Reaction(emoji: "❤", count: 2), Reaction(emoji: "😂", count: 1)])
        #expect(first.markup == .plain)
        #expect(first.raw?.contains("Caf\\u00c3\\u00a9") == true, "raw keeps the exported bytes")
        let sure = try #require(at(sink, "meta:10158832", t0 + 60_000).first)
        #expect(sure.content.text == "Sure 👍" && sure.direction == .snd && sure.memberSourceId == "Jo Brändt")
        #expect(at(sink, "meta:10158832", t0 + 540_000).first?.content.text == "Привет! 你好 مرحبا")
        #expect(at(sink, "meta:10158832", t0 + 600_000).first?.content.text == "naïve Müller paid £5 ©")
        #expect(at(sink, "meta:10158832", t0 + 660_000).first?.content.text == "Ã© is what é looks like broken")
        let arabic = sink.items.first { $0.chatSourceId == "meta:2345678901" && $0.memberSourceId == "Mia Chen" }
        #expect(arabic?.content.text == "مرحبا بالجميع! كتاب الشهر؟")
    }

    @Test func itemsComeOldestFirstOverTheThreadFiles() {
        let times = sink.items.filter { $0.chatSourceId == "meta:10158832" }.map(\.timestamp.milliseconds)
        #expect(times == times.sorted())
        let same = at(sink, "meta:10158832", t0 + 120_000)
        #expect(same.map(\.content.type) == [.image, .text])
        #expect(Set(same.map(\.sourceId)).count == 2)
    }

    @Test func attachments() throws {
        let photo = try #require(at(sink, "meta:10158832", t0 + 120_000).first)
        #expect(photo.content.text == "", "the attachment placeholder sentence is dropped")
        #expect(photo.file == FileRef(name: "café_1.jpg", size: 15, path: lenaThread + "photos/café_1.jpg"))
        #expect(photo.moreFiles == [FileRef(name: "2_second.jpg", size: 15, path: lenaThread + "photos/2_second.jpg")])
        let voice = try #require(at(sink, "meta:10158832", t0 + 240_000).first)
        #expect(voice.content.type == .voice && voice.file?.path == lenaThread + "audio/audioclip_1.mp4")
        let sticker = try #require(at(sink, "meta:10158832", t0 + 780_000).first)
        #expect(sticker.content.type == .image)
        #expect(sticker.file?.path == "your_facebook_activity/messages/stickers_used/369239263222822.png")
        let video = try #require(at(sink, "meta:10158832", t0 + 840_000).first)
        #expect(
            video.content.type == .video && video.file?.name == "clip_1.mp4"
                && video.moreFiles.map(\.name) == ["dance.gif"])
        let file = try #require(at(sink, "meta:10158832", t0 + 900_000).first)
        #expect(file.content.type == .file && file.file?.name == "Menü.pdf" && file.file?.size == 15)
    }

    @Test func sharesCallsUnsentPlaceholdersAndEvents() throws {
        let share = try #require(at(sink, "meta:10158832", t0 + 300_000).first)
        #expect(share.content.type == .link && share.content.text == "Menu — Café Olé", "a share shows its title once")
        #expect(share.content.preview == LinkPreview(uri: "https://example.com/menu"))
        let unsent = try #require(at(sink, "meta:10158832", t0 + 360_000).first)
        #expect(unsent.isDeleted && unsent.content.text == "")
        let call = try #require(at(sink, "meta:10158832", t0 + 420_000).first)
        #expect(call.direction == .event && call.content.type == .event && call.content.duration == 125)
        #expect(call.content.text == "You called Lena Ortiz.")
        let missed = try #require(at(sink, "meta:10158832", t0 + 480_000).first)
        #expect(missed.content.type == .event && missed.content.duration == 0)
        let takenDown = try #require(at(sink, "meta:10158832", t0 + 720_000).first)
        #expect(takenDown.content.type == .unknown && takenDown.content.reason == "taken down by Meta")
        let location = try #require(at(sink, "meta:10158832", t0 + 960_000).first)
        #expect(
            location.content.type == .link && location.content.preview?.uri == "https://maps.google.com/?q=52.52,13.40")
        let club = sink.items.filter { $0.chatSourceId == "meta:2345678901" }
        #expect(club.map(\.direction) == [.event, .event, .event, .event, .event, .rcv, .rcv, .event, .rcv])
        #expect(club[2].content.text == "Jo Brändt named the group Book Club 📚.")
        #expect(
            club[6].content.text == "Lena Ortiz hat die Gruppe verlassen.", "a sentence in another language stays text")
        #expect(club[8].memberSourceId == "Facebook user")
    }

    @Test func aThreadFolderAloneKeepsItsKeys() throws {
        let alone = try importMeta(metaRoot("facebook-2024/") + lenaThread, owner: "Jo Brändt")
        let full = sink.items.filter { $0.chatSourceId == "meta:10158832" }
        #expect(alone.items.map(\.sourceId) == full.map(\.sourceId))
        #expect(alone.items.map(\.direction) == full.map(\.direction))
        #expect(at(alone, "meta:10158832", t0 + 120_000).first?.file?.path == "photos/café_1.jpg")
    }
}

@Suite struct MetaOtherLayoutTests {
    @Test func facebookUntil2023() throws {
        let sink = try importMeta(metaRoot("facebook-2023"))
        #expect(sink.chats.map(\.sourceId) == ["meta:77001"])
        #expect(sink.chats.first?.type == .direct)
        #expect(sink.items.count == 8)
        let items = sink.items
        #expect(items[0].content.text == "Grüße aus Köln" && items[0].direction == .rcv)
        #expect(items[1].content.type == .link && items[1].direction == .snd)
        #expect(items[1].content.preview?.uri == "https://example.org/article")
        #expect(items[2].file == FileRef(name: "photo_1.jpg", path: "https://scontent.xx.fbcdn.net/v/t1/photo_1.jpg"))
        #expect(items[3].file == FileRef(name: "10150000000000001.jpg"), "a bare file name is not in the export")
        #expect(items[4].content.type == .event && items[4].content.duration == 61)
        #expect(items[5].content.type == .event && items[5].content.text == "Jo Brandt added Ana.")
        #expect(items[6].content.type == .event && items[6].content.text == "Left: Ana")
        #expect(items[7].file?.path == nil && items[7].file?.name == "passwd")
        #expect(sink.issues.count == 1 && sink.issues.first?.message.contains("leaves the export") == true)
    }

    @Test func instagram2024() throws {
        let sink = try importMeta(metaRoot("instagram-2024"))
        #expect(sink.chats.map(\.source) == ["instagram"])
        #expect(sink.chats.first?.displayName == "Lena ✈️")
        #expect(sink.items.count == 4, "Liked a message and Reacted … make no items")
        let items = sink.items
        #expect(items[0].content.text == "你好！看这个" && items[0].reactions == [Reaction(emoji: "😂", count: 1)])
        #expect(items[1].content.type == .link && items[1].content.text == "Sunset in Lisboa 🌅")
        #expect(
            items[1].content.preview
                == LinkPreview(uri: "https://www.instagram.com/p/C8xyz/", description: "lena.travels"))
        #expect(items[2].content.text == "ขอบคุณครับ 🙏" && items[2].direction == .snd && items[2].content.type == .image)
        #expect(items[2].file?.size == 10)
        #expect(items[3].content.text == "שלום e\u{301} 👍🏽")
    }

    @Test func instagramUntil2023FindsTheOwnerInEveryThread() throws {
        let sink = try importMeta(metaRoot("instagram-2022"))
        #expect(
            sink.chats.map(\.sourceId) == [
                "meta:340282366841710300949128100000000001", "meta:340282366841710300949128100000000002",
            ])
        #expect(sink.items.map(\.direction) == [.rcv, .snd, .snd])
        #expect(sink.members.filter(\.isUser).map(\.sourceId) == ["jo", "jo"])
        #expect(sink.issues.isEmpty)
    }

    @Test func htmlOldInstagramAndSecureStorageAreRefusedWithWhatToDo() {
        #expect {
            try FormatDetector.detect(path: metaRoot("html"))
        } throws: { ($0 as? ImportError)?.message.contains("choose Format: JSON") == true }
        #expect {
            try FormatDetector.detect(path: metaRoot("instagram-old"))
        } throws: { ($0 as? ImportError)?.message.contains("old Instagram") == true }
        #expect {
            try FormatDetector.detect(path: metaRoot("e2ee-secure-storage"))
        } throws: { ($0 as? ImportError)?.message.contains("end-to-end encrypted chats") == true }
    }

    @Test func badInputKeepsWhatItCan() throws {
        let folder = TestTemporary.folder("meta-bad")
        let json = """
            {"participants": [{"name": "A"}, {"name": "B"}], "messages": [
             {"sender_name": "A", "timestamp_ms": 2000, "content": "second"},
             {"sender_name": "B", "content": "no time"},
             {"sender_name": "A", "timestamp_ms": 1000, "content": 42},
             {"sender_name": "B", "timestamp_ms": 500, "content": "first"},
             {"sender_name": "A", "timestamp_ms": 3000, "content": "cut o
            """
        _ = try TestFiles.write(json, named: "messages/inbox/x_42/message_1.json", in: folder)
        let sink = try importMeta(folder)
        #expect(sink.chats.map(\.sourceId) == ["meta:42"])
        #expect(sink.items.map(\.content.text) == ["first", "no time", "second"])
        #expect(sink.items.map(\.isTimeUnknown) == [false, true, false])
        #expect(sink.items[1].timestamp.milliseconds == 500)
        #expect(sink.issues.map(\.severity) == [.warning, .skipped, .warning, .fatal])
        #expect(sink.issues[0].message.contains("--me"))
        #expect(sink.issues[3].location.byteOffset != nil)
        #expect(Set(sink.items.map(\.sourceId)).count == 3)
    }

    @Test func otherFormatsAreNotClaimed() throws {
        for sample in [
            "discord/guild", "telegram/single-chat", "slack", "simplex/android-group.json", "sample/chats-1.jsonl",
        ] {
            #expect(
                try MetaImporter.recognise(FormatDetector.openContainer(path: corpusRoot + "/" + sample)).isEmpty,
                "\(sample)")
        }
    }
}

/// `Corpus/meta/trimmed`: a thread file cut down to its messages (no `participants`, no
/// `title`), as tools that trim Messenger and Instagram downloads leave it.
@Suite struct MetaWithoutParticipantsTests {
    @Test func theSendersAreTheParticipantsAndTheFolderTheName() throws {
        let sink = try readExport(metaRoot("trimmed"))
        #expect(
            sink.chats == [
                Chat(sourceId: "meta:4440001", type: .direct, displayName: "mariasilva_4440001", source: "messenger")
            ])
        #expect(sink.members.map(\.displayName) == ["Tomás Reyes", "Maria Silva"])
        #expect(
            sink.items.map(\.content.text) == [
                "Shall we meet for the market this weekend?", "Saturday at 10?", "Perfect, see you at the café 👍",
            ])
        #expect(sink.items.map(\.senderName) == ["Tomás Reyes", "Maria Silva", "Tomás Reyes"])
        let warning = try #require(sink.issues.first { $0.message.hasPrefix("no participants") })
        #expect(warning.severity == .warning)
        #expect(warning.file.hasSuffix("mariasilva_4440001/message_1.json"))
        #expect(warning.message.contains("\"mariasilva_4440001\""))
    }

    @Test func theFileAloneReadsAsItsFolder() throws {
        let folder = try readExport(metaRoot("trimmed"))
        let file = try readExport(metaRoot("trimmed/mariasilva_4440001/message_1.json"))
        #expect(file.chats == folder.chats)
        #expect(file.members == folder.members)
        #expect(file.items.map(\.sourceId) == folder.items.map(\.sourceId))
    }

    @Test func detectionFindsTheFileAsMeta() throws {
        let detection = try FormatDetector.detect(path: metaRoot("trimmed"))
        #expect(detection.format == "meta")
        #expect(detection.entries == ["mariasilva_4440001/message_1.json"])
    }

    @Test func aFileWithoutParticipantsOrMessagesIsStillNoThread() throws {
        let folder = TestTemporary.folder("meta-no-thread")
        _ = try TestFiles.write(
            #"{"participants": [{"name": "A"}], "messages": [{"sender_name": "A", "timestamp_ms": 1}]}"#,
            named: "messages/inbox/x_42/message_1.json", in: folder)
        _ = try TestFiles.write(#"{"messages": []}"#, named: "messages/inbox/y_43/message_1.json", in: folder)
        let sink = try readExport(folder)
        #expect(sink.chats.map(\.sourceId) == ["meta:42"])
    }
}

@Suite struct MetaSplitExportTests {
    /// The facebook-2024 fixture's files: JSON and profile in one list, media in the other.
    func parts() -> (json: [String], media: [String]) {
        let root = metaRoot("facebook-2024")
        let names = (try? FolderContainer(path: root).entryNames) ?? []
        return (names.filter { $0.hasSuffix(".json") }, names.filter { !$0.hasSuffix(".json") })
    }

    @Test func severalZipsInAFolderAreOneExport() throws {
        let root = metaRoot("facebook-2024")
        let (json, media) = parts()
        #expect(!json.isEmpty && !media.isEmpty)
        let folder = TestTemporary.folder("meta-split-zips")
        for (name, list) in [("facebook-jo-2024-06-01-part1.zip", json), ("facebook-jo-2024-06-01-part2.zip", media)] {
            var zip = TestZip()
            for entry in list {
                zip.add(entry, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + entry))))
            }
            _ = try TestFiles.write(zip.bytes(), named: name, in: folder)
        }
        let sink = try importMeta(folder)
        #expect(sink.items.count == 28)
        #expect(sink.issues.isEmpty, "\(sink.issues)")
        let photo = try #require(at(sink, "meta:10158832", t0 + 120_000).first)
        #expect(photo.file == FileRef(name: "café_1.jpg", size: 15, path: lenaThread + "photos/café_1.jpg"))
        #expect(
            at(sink, "meta:10158832", t0 + 60_000).first?.direction == .snd,
            "the owner comes from the profile in part 1")
    }

    @Test func unzippedPartsSideBySideAreOneExport() throws {
        let root = metaRoot("facebook-2024")
        let (json, media) = parts()
        let folder = TestTemporary.folder("meta-split-folders")
        // One thread file in each part, media in the second.
        let part2JSON = json.filter { $0.hasSuffix("message_2.json") }
        for (part, list) in [("part1", json.filter { !part2JSON.contains($0) }), ("part2", media + part2JSON)] {
            for entry in list {
                _ = try TestFiles.write(
                    [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + entry))), named: part + "/" + entry,
                    in: folder)
            }
        }
        let sink = try importMeta(folder)
        let whole = try importMeta(root)
        #expect(sink.items.map(\.sourceId) == whole.items.map(\.sourceId))
        #expect(sink.chats.count == 3)
        let photo = try #require(at(sink, "meta:10158832", t0 + 120_000).first)
        #expect(photo.file?.path == "part2/" + lenaThread + "photos/café_1.jpg" && photo.file?.size == 15)
        // The same download unzipped twice side by side: each thread file is read once.
        for entry in json where entry.contains("/messages/") {
            _ = try TestFiles.write(
                [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + entry))), named: "again/" + entry,
                in: folder)
        }
        let twice = try importMeta(folder)
        #expect(twice.items.map(\.sourceId) == whole.items.map(\.sourceId))
        #expect(twice.issues.count == 5 && twice.issues.allSatisfy { $0.message.contains("read already") })
    }
}

@Suite struct MetaArchiveTests {
    @Test func ingestSearchReimportAndALaterExport() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let first = try archive.ingestSync([metaRoot("facebook-2024")])
        #expect(first.itemsAdded == 28 && first.errors.isEmpty)
        let again = try archive.ingestSync([metaRoot("facebook-2024")])
        #expect(again.itemsAdded == 0 && again.itemsUpdated == 0 && again.itemsUnchanged == 28)

        for (query, text) in [("cafe", "Café at 8?"), ("Привет", "Привет! 你好 مرحبا"), ("你好", "Привет! 你好 مرحبا")] {
            let hits = try await archive.search(query).hits
            #expect(hits.contains { $0.item.text == text }, "\(query)")
        }
        #expect(try await archive.search("كتاب").hits.count == 1)

        // A later export: the thread is split differently, Lena renamed herself, Jo unsent a
        // message, two messages are new. Every old message keeps its item.
        let later = try archive.ingestSync([metaRoot("facebook-2024-later")])
        #expect(later.itemsAdded == 2)
        #expect(later.itemsUpdated > 0)
        let window = try await archive.items(in: "meta:10158832", window: .last(100))
        #expect(window.items.count == 19)
        let sure = window.items.first { $0.timestamp.milliseconds == t0 + 60_000 }
        #expect(sure?.isDeleted == true)
    }
}
