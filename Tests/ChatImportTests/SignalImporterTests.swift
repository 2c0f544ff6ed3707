import ChatArchive
import ChatModel
import ChatTestSupport
import Foundation
import Testing

@testable import ChatImport

private let signalRoot = corpusRoot + "/signal"
private let firstExport = signalRoot + "/desktop/signal-export-2026-01-01-00-00-00"
private let laterExport = signalRoot + "/later/signal-export-2026-01-02-00-00-00"

private enum Signal {
    static let jo = "aci:abcdef12-3456-7890-1234-567890123456"
    static let ken = "aci:1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d"
    static let yael = "aci:9d8c7b6a-5f4e-4d3c-9b2a-1f0e9d8c7b6a"
    static let somchai = "aci:5b5b5b5b-1111-4222-8333-444455556666"
    static let group = "signal:group:6f7403a9392ce03a55aa5b99196354ee"
    static let joChat = "signal:" + jo
    static let kenChat = "signal:" + ken
    static let noorChat = "signal:e164:971501234567"
    static let t0: Int64 = 1_767_225_000_000
    static func t(_ minutes: Int64) -> Int64 { t0 + minutes * 60_000 }

    static func read(_ path: String) throws -> CollectingSink {
        let sink = CollectingSink()
        let detection = try FormatDetector.detect(path: path)
        #expect(detection.format == "signal")
        try SignalImporter().read(detection.container, entries: detection.entries, into: sink, options: ImportOptions())
        return sink
    }

    /// Writes `lines` as a `main.jsonl` in a new folder and reads it.
    static func read(lines: [String]) throws -> CollectingSink {
        let folder = TestTemporary.folder("signal")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/main.jsonl"))
        return try read(folder)
    }

    static let header = #"{"version":"1","backupTimeMs":"1767225600000"}"#
    static let me = #"{"recipient":{"id":"1","self":{}}}"#
    static let joRecipient =
        #"{"recipient":{"id":"2","contact":{"aci":"q83vEjRWeJASNFZ4kBI0Vg==","profileGivenName":"Jo"}}}"#
    static let joChatFrame = #"{"chat":{"id":"1","recipientId":"2"}}"#
}

@Suite struct SignalImporterTests {
    let sink: CollectingSink
    init() throws { sink = try Signal.read(firstExport) }

    func item(_ chat: String, _ id: String) throws -> Item {
        try #require(sink.items.first { $0.chatSourceId == chat && $0.sourceId == id })
    }

    @Test func chatsAreKeyedBySignalIdentities() {
        #expect(sink.chats.count == 7)
        let byId = Dictionary(sink.chats.map { ($0.sourceId, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byId[Signal.joChat]?.displayName == "Johanna Berg")  // the phone's contact name beats the profile name
        #expect(byId[Signal.joChat]?.type == .direct)
        #expect(byId[Signal.joChat]?.isMuted == true)  // muted "forever" (Int64.max as a string)
        #expect(byId[Signal.group]?.displayName == "Rope Team 🧗")
        #expect(byId[Signal.group]?.type == .group)
        #expect(byId["signal:self"]?.type == .local)
        #expect(byId["signal:self"]?.displayName == "Note to Self")
        #expect(byId[Signal.kenChat]?.displayName == "Ken")  // nickname first
        #expect(byId[Signal.noorChat]?.displayName == "نور")
        #expect(byId[Signal.noorChat]?.isMarkedUnread == true)
        #expect(byId["signal:pni:7e7e7e7e-0000-4000-8000-000000000abc"]?.displayName == "dana.01")
        #expect(byId["signal:release-notes"]?.displayName == "Signal")
        #expect(sink.chats.allSatisfy { $0.source == "signal" })
    }

    @Test func membersAndTheUser() {
        let group = sink.members.filter { $0.chatSourceId == Signal.group }
        #expect(Set(group.map(\.sourceId)) == ["self", Signal.jo, Signal.ken, Signal.yael, Signal.somchai])
        #expect(group.first { $0.sourceId == "self" }?.displayName == "Lena Vogel")
        #expect(group.first { $0.sourceId == "self" }?.isUser == true)
        #expect(group.filter(\.isUser).count == 1)
        #expect(group.first { $0.sourceId == Signal.somchai }?.displayName == "สมชาย")
    }

    @Test func countsAndOneWarningForTheUnknownKind() {
        #expect(sink.items.count == 33)
        #expect(sink.issues.count == 1)
        #expect(sink.issues.first?.severity == .warning)
        #expect(sink.issues.first?.message.contains("adminDeletedMessage") == true)
        #expect(sink.issues.first?.location.line == 54)
        let unknown = sink.items.filter { $0.content.type == .unknown }
        #expect(unknown.map(\.sourceId) == ["\(Signal.jo):\(Signal.t(29))"])
        #expect(unknown.first?.content.text == "Unsupported Signal message (adminDeletedMessage)")
    }

    @Test func textSenderTimeAndReaction() throws {
        let m = try item(Signal.joChat, "\(Signal.jo):\(Signal.t0)")
        #expect(m.content.text == "rope check?")
        #expect(m.timestamp.milliseconds == Signal.t0)
        #expect(m.timestamp.rfc3339 == "2025-12-31T23:50:00Z")
        #expect(m.direction == .rcv)
        #expect(m.memberSourceId == Signal.jo)
        #expect(m.senderName == "Johanna Berg")
        #expect(!m.isUnread)
        #expect(m.reactions == [Reaction(emoji: "👍", count: 1)])
        #expect(m.markup == .plain)
    }

    @Test func replyQuotesByAuthorAndSentTime() throws {
        let m = try item(Signal.joChat, "self:\(Signal.t(1))")
        #expect(m.direction == .snd)
        #expect(m.status == .read)
        #expect(m.memberSourceId == "self")
        #expect(m.quote == Quote(itemSourceId: "\(Signal.jo):\(Signal.t0)", text: "rope check?"))
    }

    @Test func mentionReplacesTheObjectCharacterAndBoldCountsUTF16() throws {
        let m = try item(Signal.group, "\(Signal.jo):\(Signal.t(2))")
        #expect(m.content.text == "@Ken can you bring the 🧗 rope? tomorrow")
        #expect(
            m.markup
                == .formatted([
                    FormattedText("@Ken", .mention(memberName: "Ken")), FormattedText(" can you bring the 🧗 rope? "),
                    FormattedText("tomorrow", .bold),
                ]))
        #expect(m.mentions == ["Ken": MentionTarget(memberSourceId: Signal.ken)])
        #expect(m.isUnread)  // no "read": false by omission
    }

    @Test func mentionOfTheUserInHebrew() throws {
        let m = try item(Signal.group, "\(Signal.yael):\(Signal.t(6))")
        #expect(m.content.text == "שלום לכולם @Lena Vogel!")
        #expect(m.mentions == ["Lena Vogel": MentionTarget(memberSourceId: "self", isUserMention: true)])
    }

    @Test func editKeepsTheFirstVersionsKeyAndTheFinalText() throws {
        let m = try item(Signal.group, "\(Signal.ken):\(Signal.t(3))")
        #expect(m.isEdited)
        #expect(m.content.text == "I can bring two ropes 日本語テスト")
        #expect(m.timestamp.milliseconds == Signal.t(3))  // an edit does not move the message
        // A quote of the edited version finds the message.
        let reply = try item(Signal.group, "\(Signal.yael):\(Signal.t(26))")
        #expect(reply.quote == Quote(itemSourceId: "\(Signal.ken):\(Signal.t(3))", text: "I can bring two ropes"))
    }

    @Test func quotesOfAbsentTargets() throws {
        let older = try item(Signal.group, "\(Signal.yael):\(Signal.t(27))")
        #expect(older.quote == Quote(itemSourceId: "\(Signal.jo):\(Signal.t0 - 30 * 86_400_000)", text: "old plan"))
        let unknown = try item(Signal.group, "\(Signal.somchai):\(Signal.t(28))")
        #expect(unknown.quote == Quote(itemSourceId: nil, text: "?"))
    }

    @Test func attachmentsWithTheirExportedPaths() throws {
        let m = try item(Signal.group, "self:\(Signal.t(5))")
        #expect(m.content.type == .image)
        #expect(m.content.text == "Photos from the crag 📸")
        #expect(m.status == .delivered)
        let prefix = "files/"
        #expect(
            m.file
                == FileRef(
                    name: "crag.jpg", size: 14,
                    path: prefix + "ec/ec8f3b18fba129b7cc0b82f35c8e68c69be16d807b28ef36da12c213e4d2c1ff.jpg"))
        #expect(
            m.moreFiles == [
                FileRef(
                    name: "attachment.aac", size: 8,
                    path: prefix + "f1/f1cf98f31a43ecf3386ff342d467954a01948503713ea44c527d18758cebccbf.aac")
            ])
        // Every path is a file of the export.
        let container = try FolderContainer(path: firstExport)
        for path in sink.items.flatMap(\.files).compactMap(\.path) {
            #expect(container.entryNames.contains(path), "\(path)")
        }
        // Not exported: name and size only.
        let pdf = try item("signal:self", "self:\(Signal.t(17))")
        #expect(pdf.file == FileRef(name: "topo.pdf", size: 48213, path: nil))
        #expect(pdf.content.type == .file)
    }

    @Test func filesBesideOrInsideTheBackupFolderAndMainJSONLOnItsOwn() throws {
        let main = firstExport + "/signal-backup-2026-01-01-00-00-00/main.jsonl"
        let photo = "ec/ec8f3b18fba129b7cc0b82f35c8e68c69be16d807b28ef36da12c213e4d2c1ff.jpg"
        // Given alone, main.jsonl cannot reach files/: names and sizes only, the cut long text.
        let alone = try Signal.read(main)
        let m = try #require(alone.items.first { $0.sourceId == "self:\(Signal.t(5))" })
        #expect(m.file == FileRef(name: "crag.jpg", size: 14, path: nil))
        #expect(
            alone.items.first { $0.sourceId == "\(Signal.ken):\(Signal.t(13))" }?.content.text
                == "Long story short: the route is")
        // files/ inside the folder that holds main.jsonl.
        let folder = TestTemporary.folder("signal-nested")
        try FileManager.default.createDirectory(atPath: folder + "/files/ec", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: main, toPath: folder + "/main.jsonl")
        try FileManager.default.copyItem(atPath: firstExport + "/files/" + photo, toPath: folder + "/files/" + photo)
        let nested = try Signal.read(folder)
        #expect(nested.items.first { $0.sourceId == "self:\(Signal.t(5))" }?.file?.path == "files/" + photo)
    }

    @Test func stickerViewOnceDeletedAndLongText() throws {
        let sticker = try item(Signal.group, "\(Signal.somchai):\(Signal.t(10))")
        #expect(sticker.content.type == .image)
        #expect(sticker.content.text == "🧗")
        #expect(sticker.file?.name == "sticker.webp")
        #expect(sticker.file?.path?.hasSuffix(".webp") == true)
        let viewOnce = try item(Signal.group, "\(Signal.ken):\(Signal.t(12))")
        #expect(viewOnce.content.text == "View-once media")
        #expect(viewOnce.file == nil)
        #expect(viewOnce.reactions == [Reaction(emoji: "❤️", count: 1)])
        let deleted = try item(Signal.group, "\(Signal.jo):\(Signal.t(11))")
        #expect(deleted.isDeleted)
        #expect(deleted.content.text == "")
        let long = try item(Signal.kenChat, "\(Signal.ken):\(Signal.t(13))")
        #expect(long.content.text == "Long story short: the route is open again. الطريق مفتوح. เส้นทางเปิดแล้ว")
        #expect(long.file == nil)  // the text file is the text, not an attachment
    }

    @Test func stylesInEveryScript() throws {
        let thai = try item(Signal.group, "\(Signal.somchai):\(Signal.t(10) + 30_000)")
        #expect(
            thai.markup
                == .formatted([FormattedText("สวัสดีครับ "), FormattedText("ไปปีนเขา", .italic), FormattedText("กันไหม")]))
        let note = try item("signal:self", "self:\(Signal.t(16))")
        #expect(note.direction == .snd)
        #expect(note.status == nil)
        #expect(
            note.markup
                == .formatted([
                    FormattedText("spoiler", .secret), FormattedText(" "), FormattedText("code", .snippet),
                    FormattedText(" "),
                    FormattedText("strike", .strikeThrough), FormattedText(" cafe\u{301} "),
                    FormattedText("italic", .bold),
                ]))
        #expect(note.content.text == "spoiler code strike cafe\u{301} italic")
    }

    @Test func numbersWhereStringsAreUsualAndUnreadByOmission() throws {
        let m = try item(Signal.noorChat, "e164:971501234567:\(Signal.t(14))")
        #expect(m.content.text == "مرحبا! هل أنت بخير؟")
        #expect(m.isUnread)
        let link = try item(Signal.noorChat, "self:\(Signal.t(15))")
        #expect(link.content.type == .link)
        #expect(
            link.content.preview
                == LinkPreview(uri: "https://example.org/route", title: "Route guide", description: "Grades and topo"))
        #expect(link.status == .sent)
    }

    @Test func eventsForGroupChangesCallsAndUpdates() throws {
        let events = sink.items.filter { $0.direction == .event }
        #expect(events.allSatisfy { $0.content.type == .event })
        let change = try item(Signal.group, "\(Signal.jo):\(Signal.t(7))")
        #expect(change.content.text == "Johanna Berg added สมชาย\nJohanna Berg changed the group name to Rope Team 🧗")
        // The same author and time twice: the second one gets a suffix.
        let second = try item(Signal.group, "\(Signal.jo):\(Signal.t(7))#2")
        #expect(second.content.text == "Johanna Berg changed the group description")
        #expect(try item(Signal.group, "\(Signal.jo):\(Signal.t(8))").content.text == "Missed group call (5 min 30 s)")
        #expect(try item(Signal.joChat, "\(Signal.jo):\(Signal.t(9))").content.text == "Missed voice call")
        #expect(
            try item(Signal.joChat, "\(Signal.jo):\(Signal.t(19))").content.text
                == "Your safety number with Johanna Berg has changed")
        #expect(
            try item(Signal.joChat, "self:\(Signal.t(20))").content.text
                == "Lena Vogel set disappearing messages to 1 w")
        #expect(
            try item(Signal.joChat, "\(Signal.jo):\(Signal.t(24))").content.text == "Payment of 1.5 MOB: for the rope")
        #expect(
            try item(Signal.joChat, "\(Signal.jo):\(Signal.t(25))").content.text == "Johanna Berg sent a gift badge")
        #expect(events.count == 8)
    }

    @Test func pollContactStoryReplyAndDisappearing() throws {
        #expect(
            try item(Signal.group, "\(Signal.jo):\(Signal.t(22))").content.text
                == "Poll: Which crag?\n• Frankenjura (2 votes)\n• Elbsandstein (0 votes)")
        #expect(
            try item(Signal.kenChat, "\(Signal.ken):\(Signal.t(23))").content.text
                == "Contact: Mia Schulz\n+49 151 000000\nmia@example.org")
        #expect(try item(Signal.kenChat, "\(Signal.ken):\(Signal.t(31))").content.text == "Reacted 🔥 to a story")
        #expect(try item(Signal.joChat, "\(Signal.jo):\(Signal.t(21))").content.text == "this one disappears in a week")
    }

    @Test func storedRecordsHoldNoSecrets() throws {
        let text = try String(
            contentsOfFile: try #require(
                try SignalImporter.recognise(FolderContainer(path: firstExport)).first.map {
                    firstExport + "/" + $0
                }), encoding: .utf8)
        // Every base64 value of a secret field in the export…
        var secrets: [String] = []
        for line in text.split(separator: "\n") {
            guard let v = try? JSONParser.parse(Array(line.utf8)) else { continue }
            func collect(_ v: JSONValue) {
                switch v {
                case .object(let members):
                    for (k, x) in members {
                        if SignalSecrets.keys.contains(k), let s = x.stringValue {
                            secrets.append(s)
                        } else {
                            collect(x)
                        }
                    }
                case .array(let a): a.forEach(collect)
                default: break
                }
            }
            collect(v)
        }
        #expect(secrets.count > 20)
        // …is absent from every stored record.
        for item in sink.items {
            let raw = try #require(item.raw)
            for s in secrets { #expect(!raw.contains(s), "\(item.sourceId) keeps a secret") }
            #expect(!raw.contains("\"key\"") && !raw.contains("localKey") && !raw.contains("packKey"))
        }
        // Chats are named by a hash of the group's master key, never the key.
        let keys = secrets.filter { $0.count >= 16 }
        #expect(!sink.chats.contains { c in keys.contains { c.sourceId.contains($0) } })
        // Records without secrets keep their bytes.
        let plain = try item(Signal.joChat, "\(Signal.jo):\(Signal.t(21))")
        #expect(plain.raw?.hasPrefix(#"{"chatItem":{"chatId":"1","authorId":"2","dateSent":"1767226260000""#) == true)
    }
}

@Suite struct SignalReimportTests {
    @Test func aLaterExportWithOtherFileIdsUpdatesEditsDeletionsAndReadState() throws {
        let first = try Signal.read(firstExport)
        let later = try Signal.read(laterExport)
        #expect(later.items.count == 7)
        #expect(later.issues.isEmpty)
        // The file-local ids differ, Signal's identities do not.
        #expect(Set(later.chats.map(\.sourceId)).isSubset(of: Set(first.chats.map(\.sourceId))))
        let firstIds = Set(first.items.map { $0.chatSourceId + " " + $0.sourceId })
        let laterIds = later.items.map { $0.chatSourceId + " " + $0.sourceId }
        #expect(laterIds.filter { !firstIds.contains($0) } == [Signal.group + " \(Signal.jo):\(Signal.t(40))"])
        let edited = try #require(later.items.first { $0.sourceId == "\(Signal.ken):\(Signal.t(3))" })
        #expect(edited.content.text == "I can bring three ropes 日本語テスト")
        let deleted = try #require(later.items.first { $0.sourceId == "\(Signal.jo):\(Signal.t0)" })
        #expect(deleted.isDeleted)
    }

    @Test func ingestTwiceAddsNothingAndTheLaterExportUpdates() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let first = try archive.ingestSync([firstExport])
        #expect(first.itemsAdded == 33)
        #expect(first.chats == 7)
        let again = try archive.ingestSync([firstExport])
        #expect(again.itemsAdded == 0 && again.itemsUpdated == 0 && again.itemsUnchanged == 33)
        let later = try archive.ingestSync([laterExport])
        #expect(later.itemsAdded == 1)
        #expect(later.itemsUpdated == 3)  // edited again, deleted, read
        #expect(later.itemsUnchanged == 3)

        let three = try await archive.search("three")
        #expect(three.hits.map(\.item.sourceId) == ["\(Signal.ken):\(Signal.t(3))"])
        #expect(three.hits.first?.item.isEdited == true)
        #expect(three.hits.first?.item.sender == "Ken")
        let thai = try await archive.search("ปีนเขา")
        #expect(thai.hits.map(\.item.sourceId) == ["\(Signal.somchai):\(Signal.t(10) + 30_000)"])
        let hebrew = try await archive.search("לכולם")
        #expect(hebrew.hits.count == 1)
        let long = try await archive.search("مفتوح")
        #expect(long.hits.first?.item.text.hasPrefix("Long story short") == true)
        let photo = try await archive.search("crag")
        #expect(photo.hits.contains { $0.item.file?.path?.hasSuffix(".jpg") == true })
        let reply = try await archive.search("Checked")
        #expect(reply.hits.first?.item.quote?.itemSourceId == "\(Signal.jo):\(Signal.t0)")
    }

    @Test func aZipOfTheExportReadsLikeTheFolder() throws {
        var zip = TestZip()
        let container = try FolderContainer(path: firstExport)
        for name in container.entryNames { zip.add(name, bytes: try container.readAll(name)) }
        let path = try zip.write(named: "signal-export-2026-01-01-00-00-00.zip")
        let sink = try readExport(path)
        let folder = try Signal.read(firstExport)
        #expect(sink.items == folder.items)
        #expect(sink.items.contains { $0.file?.path?.hasPrefix("files/ec/") == true })
        let archive = try Archive(path: TestArchive.temporaryPath())
        #expect(try archive.ingestSync([firstExport]).itemsAdded == 33)
        let again = try archive.ingestSync([path])
        #expect(again.itemsAdded == 0 && again.itemsUpdated == 0 && again.itemsUnchanged == 33)
    }

    @Test func theCommandLineFormatOptionReadsIt() throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let report = try archive.ingestSync([firstExport], options: IngestOptions(format: "signal"))
        #expect(report.itemsAdded == 33)
    }
}

@Suite struct SignalDetectionTests {
    @Test func recognisesTheExportAndOnlyIt() throws {
        #expect(
            try SignalImporter.recognise(FolderContainer(path: firstExport)) == [
                "signal-backup-2026-01-01-00-00-00/main.jsonl"
            ])
        // The main.jsonl on its own.
        let main = firstExport + "/signal-backup-2026-01-01-00-00-00/main.jsonl"
        #expect(try FormatDetector.detect(path: main).format == "signal")
        // Other formats' files, JSON Lines included, are not claimed.
        for other in [
            "sample/chats-1.jsonl", "sample-bad/bad.jsonl", "discord/guild", "slack", "telegram/single-chat",
            "whatsapp/android-en-GB",
        ] {
            #expect(
                try SignalImporter.recognise(FormatDetector.openContainer(path: corpusRoot + "/" + other)).isEmpty,
                "\(other)")
            #expect(try FormatDetector.detect(path: corpusRoot + "/" + other).format != "signal", "\(other)")
        }
        #expect(
            !SignalImporter.isMainJSONL(
                Array(#"{"version":"1","backupTimeMs":"1"}"#.utf8) + [0x0A] + Array(#"{"kind":"chat"}"#.utf8) + [0x0A]))
        #expect(!SignalImporter.isMainJSONL(Array(#"{"kind":"chat","version":1}"#.utf8) + [0x0A]))
        #expect(SignalImporter.isMainJSONL(Array((Signal.header + "\n" + Signal.me + "\n").utf8)))
    }

    @Test func encryptedBackupsAreRefusedWithHowToExportInPlainText() throws {
        let folder = TestTemporary.folder("signal-encrypted")
        let backup = folder + "/signal-backup-2026-01-01-00-00-00"
        try FileManager.default.createDirectory(atPath: backup + "/files", withIntermediateDirectories: true)
        try Data([0x8A, 0x01, 0x33, 0xF0, 0x00, 0x12]).write(to: URL(fileURLWithPath: backup + "/main"))
        try Data([0x0A, 0x10, 0x01]).write(to: URL(fileURLWithPath: backup + "/metadata"))
        for path in [folder, backup] {
            #expect {
                try FormatDetector.detect(path: path)
            } throws: { error in
                "\(error)".contains("encrypted Signal backup") && "\(error)".contains("Export chat history")
            }
        }
        let android = TestTemporary.folder("signal-android") + "/signal-2026-01-01-00-00-00.backup"
        try Data([0x00, 0x00, 0x00, 0x30, 0x0A, 0x2E]).write(to: URL(fileURLWithPath: android))
        #expect(throws: ImportError.self) { try FormatDetector.detect(path: android) }
    }

    @Test func unknownFilesNameTheSignalTest() throws {
        let path = try TestArchive.writeFile("just some text\n", name: "notes.txt")
        #expect {
            try FormatDetector.detect(path: path)
        } throws: { error in
            "\(error)".contains("Signal (main.jsonl")
        }
    }
}

@Suite struct SignalBadInputTests {
    @Test func badLinesAreSkippedAndReadingGoesOn() throws {
        let sink = try Signal.read(lines: [
            Signal.header, Signal.me, Signal.joRecipient, Signal.joChatFrame,
            #"{"chatItem":{"chatId":"1","authorId":"2","dateSent":"1767225000000","incoming":{},"standardMessage":{"text":{"body":"one"}}}}"#,
            #"{"chatItem":{"chatId":"1","authorId":"2","#,
            #"{"chatItem":{"chatId":"99","authorId":"2","dateSent":"1767225001000","standardMessage":{"text":{"body":"lost chat"}}}}"#,
            #"{"recipient":{"id":"7","contact":{}}}"#,
            #"{"chatItem":{"chatId":"1","authorId":"42","dateSent":"1767225002000","incoming":{"read":true},"standardMessage":{"text":{"body":"who?"}}}}"#,
            #"{"chatItem":{"chatId":"1","authorId":"2","incoming":{"read":true},"standardMessage":{"text":{"body":"no time"}}}}"#,
            #"{"chatItem":{"chatId":"1","authorId":"2","dateSent":"1767225000000","incoming":{},"standardMessage":{"text":{"body":"same time"}}}}"#,
            #"["not","an","object"]"#,
            #"{"chatItem":{"chatId":"1","authorId":"2","dateSent":"1767225003000","incoming":{},"standardMessage":{"text":{"body":"🧗x","bodyRanges":[{"start":1,"length":5,"style":"BOLD"},{"start":-3,"length":2,"style":"ITALIC"}]}}}}"#,
        ])
        #expect(sink.items.map(\.content.text) == ["one", "who?", "no time", "same time", "🧗x"])
        #expect(sink.issues.map(\.severity) == [.skipped, .skipped, .skipped, .warning, .warning, .warning, .skipped])
        #expect(sink.issues.map { $0.location.line } == [6, 7, 8, 9, 10, 11, 12])
        let unknown = try #require(sink.items.first { $0.content.text == "who?" })
        #expect(unknown.sourceId == "unknown:1767225002000" && unknown.memberSourceId == nil)
        let noTime = try #require(sink.items.first { $0.content.text == "no time" })
        #expect(noTime.isTimeUnknown && noTime.timestamp.milliseconds == 1_767_225_002_000)
        #expect(sink.items.first { $0.content.text == "same time" }?.sourceId == "\(Signal.jo):1767225000000#2")
        // A range that cuts a surrogate pair is widened, never splits the emoji.
        #expect(sink.items.last?.markup == .formatted([FormattedText("🧗x", .bold)]))
    }

    @Test func aFileThatStopsBeingSignalIsReportedNotCrashed() throws {
        let sink = CollectingSink()
        let folder = TestTemporary.folder("signal-forced")
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: folder + "/main.jsonl"))
        try SignalImporter().read(
            try FolderContainer(path: folder), entries: ["main.jsonl"], into: sink, options: ImportOptions())
        #expect(sink.items.isEmpty)
        #expect(sink.issues.map(\.severity) == [.fatal])
    }

    @Test func memoryIsBoundedByLinesNotMessages() throws {
        // 20 000 messages in one chat: every key distinct, none lost, read as a stream.
        var lines = [Signal.header, Signal.me, Signal.joRecipient, Signal.joChatFrame]
        for k in 0..<20_000 {
            lines.append(
                #"{"chatItem":{"chatId":"1","authorId":"2","dateSent":"\#(1_767_225_000_000 + Int64(k))","incoming":{"read":true},"standardMessage":{"text":{"body":"m\#(k)"}}}}"#
            )
        }
        let sink = try Signal.read(lines: lines)
        #expect(sink.items.count == 20_000)
        #expect(Set(sink.items.map(\.sourceId)).count == 20_000)
        #expect(sink.issues.isEmpty)
    }
}
