import ChatModel
import Foundation
import Testing

@testable import ChatImport

/// A container over bytes in memory, for edge cases that need no fixture file.
private final class BytesContainer: ExportContainer {
    let path: String
    let files: [String: [UInt8]]
    var entryNames: [String] { files.keys.sorted() }
    var refusedEntries: [(name: String, reason: String)] { [] }
    init(path: String = "mem", _ files: [String: [UInt8]]) {
        self.path = path
        self.files = files
    }
    func open(_ name: String) throws -> ByteStream {
        guard let b = files[name] else { throw ImportError("no entry \(name)") }
        return MemoryByteStream(b)
    }
    func size(of name: String) -> Int64? { files[name].map { Int64($0.count) } }
    func displayName(of name: String) -> String { path + "!" + name }
}

private let whatsappCorpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Corpus/whatsapp").path

private func importFixture(_ folder: String, options: ImportOptions = ImportOptions()) throws -> CollectingSink {
    try readExport(whatsappCorpus + "/" + folder, options: options)
}

private func importText(
    _ text: String, name: String = "WhatsApp Chat with Test.txt", options: ImportOptions = ImportOptions()
)
    throws -> CollectingSink
{
    let sink = CollectingSink()
    try WhatsAppImporter().read(BytesContainer([name: Array(text.utf8)]), entry: name, into: sink, options: options)
    return sink
}

@Suite("WhatsApp Android en-GB group")
struct WhatsAppAndroidTests {
    let sink: CollectingSink
    init() throws { sink = try importFixture("android-en-GB") }

    @Test func chatMembersAndCounts() {
        #expect(sink.chats.map(\.sourceId) == ["whatsapp:Allotment"])
        #expect(sink.chats.first?.type == .group)
        #expect(sink.chats.first?.source == "whatsapp")
        #expect(sink.members.map(\.sourceId) == ["Ben", "Ana", "Cal"])
        // Ana wrote "You deleted this message", so she is the owner even without --owner.
        #expect(sink.members.filter(\.isUser).map(\.sourceId) == ["Ana"])
        #expect(sink.items.count == 23)
        #expect(sink.items.filter { $0.direction == .event }.count == 8)
    }

    @Test func impossibleDateIsReportedAndSkippedWithItsContinuation() {
        #expect(sink.issues.count == 1)
        #expect(sink.issues.first?.location.line == 23)
        #expect(sink.issues.first?.location.file.hasSuffix("WhatsApp Chat with Allotment.txt") == true)
        #expect(sink.issues.first?.message.contains("impossible date") == true)
        #expect(
            !sink.items.contains {
                $0.content.text.contains("cannot exist") || $0.content.text.contains("continuation")
            })
    }

    @Test func systemLines() {
        let events = sink.items.filter { $0.direction == .event }
        #expect(events.allSatisfy { $0.content.type == .event && $0.memberSourceId == nil })
        #expect(
            events.map(\.content.text) == [
                "Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them. Tap to learn more.",
                "Ana created group \"Allotment\"", "Ana added Ben", "Ana added ~\u{202F}Cal",
                "Ana changed the subject from \"Plots\" to \"Allotment: 2024\"", "~\u{202F}Cal left",
                "Your security code with Ben changed. Tap to learn more.",
                "Ana turned on disappearing messages. New messages will disappear from this chat 7 days after they're sent.",
            ])
    }

    @Test func multiLineMessageKeepsALineInAnotherDateStyle() throws {
        let item = try #require(sink.items.first { $0.content.text.hasPrefix("me, sorry") })
        #expect(item.content.text == "me, sorry\n2024-06-02 10:00 rota moved, bringing it Saturday")
        #expect(item.memberSourceId == "Ben")
        #expect(item.direction == .rcv)
        #expect(item.timestamp.rfc3339 == "2024-07-03T18:04:00Z")
        #expect(item.raw == "03/07/2024, 18:04 - Ben: me, sorry\n2024-06-02 10:00 rota moved, bringing it Saturday")
    }

    @Test func attachments() throws {
        let media = sink.items.filter { $0.file != nil }
        #expect(media.map(\.content.type) == [.file, .image, .voice, .file, .file, .video])
        #expect(
            media.map { $0.file?.name } == [
                "(media omitted)", "IMG-20240703-WA0001.jpg", "PTT-20240703-WA0002.opus", "(view once media)",
                "Seed catalogue.pdf\u{00A0}(1).pdf", "VID-20240713-WA0004.mp4",
            ])
        #expect(media[1].content.text == "first *tomatoes* of the _year_")
        #expect(media[1].markup == .simplex)
        #expect(media[2].memberSourceId == "Cal")
        #expect(media[5].timestamp.rfc3339 == "2024-07-13T09:31:00Z")
    }

    @Test func editWithMentions() throws {
        let item = try #require(sink.items.first { $0.isEdited })
        #expect(item.content.text == "thanks @Cal and @Ben")
        #expect(
            item.mentions == ["Cal": MentionTarget(memberSourceId: "Cal"), "Ben": MentionTarget(memberSourceId: "Ben")])
        #expect(item.direction == .snd)
        #expect(sink.items.filter(\.isEdited).count == 1)
    }

    @Test func deletionsAndLocation() throws {
        let deleted = sink.items.filter(\.isDeleted)
        #expect(deleted.map(\.memberSourceId) == ["Ben", "Ana"])
        #expect(deleted.map(\.direction) == [.rcv, .snd])
        #expect(deleted.allSatisfy { $0.content.text.isEmpty })
        let location = try #require(sink.items.first { $0.content.type == .link })
        #expect(location.content.preview?.uri == "https://maps.google.com/?q=51.5007,-0.1246")
        #expect(location.content.text == "location: https://maps.google.com/?q=51.5007,-0.1246")
    }

    @Test func textTraps() throws {
        let list = try #require(sink.items.first { $0.content.text.hasPrefix("list for Saturday") })
        #expect(list.content.text == "list for Saturday:\n\n- spade\u{2028}- ~rake~ hoe")
        let family = try #require(sink.items.first { $0.content.text.contains("family") })
        #expect(family.content.text == "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} family day, cafe\u{301} after")
    }

    @Test func identicalMessagesInOneMinuteGetDistinctIds() {
        let oks = sink.items.filter { $0.content.text == "ok" }
        #expect(oks.count == 2)
        #expect(oks[0].sourceId != oks[1].sourceId)
        #expect(Set(sink.items.map(\.sourceId)).count == sink.items.count)
        #expect(sink.items.allSatisfy { $0.sourceId.count == 32 && $0.sourceId.allSatisfy(\.isHexDigit) })
    }

    @Test func ownerOptionDecidesDirection() throws {
        let asBen = try importFixture("android-en-GB", options: ImportOptions(ownerName: "Ben"))
        #expect(asBen.members.filter(\.isUser).map(\.sourceId) == ["Ben"])
        #expect(asBen.items.filter { $0.direction == .snd }.allSatisfy { $0.memberSourceId == "Ben" })
        #expect(asBen.items.filter { $0.memberSourceId == "Ana" }.allSatisfy { $0.direction == .rcv })
        // The owner does not change ids.
        #expect(asBen.items.map(\.sourceId) == sink.items.map(\.sourceId))
    }

    @Test func reimportIsIdempotent() throws {
        let again = try importFixture("android-en-GB")
        #expect(again.items.map(\.sourceId) == sink.items.map(\.sourceId))
        #expect(again.items == sink.items)
    }

    @Test func changedTextChangesOnlyThatId() throws {
        let path = whatsappCorpus + "/android-en-GB/WhatsApp Chat with Allotment.txt"
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let changed = original.replacingOccurrences(of: "Ben: me, sorry", with: "Ben: me, so sorry")
        #expect(changed != original)
        let a = try importText(original, name: "WhatsApp Chat with Allotment.txt")
        let b = try importText(changed, name: "WhatsApp Chat with Allotment.txt")
        #expect(a.items.map(\.sourceId) == sink.items.map(\.sourceId))
        let differing = zip(a.items, b.items).filter { $0.sourceId != $1.sourceId }
        #expect(differing.count == 1)
        #expect(differing.first?.0.content.text.hasPrefix("me, sorry") == true)
    }
}

@Suite("WhatsApp iOS en-US _chat.txt")
struct WhatsAppIOSTests {
    let sink: CollectingSink
    init() throws { sink = try importFixture("ios-en-US") }

    @Test func chatFromFolderName() {
        #expect(sink.chats.map(\.sourceId) == ["whatsapp:Allotment"])
        #expect(sink.chats.first?.type == .group)
        #expect(sink.members.map(\.sourceId) == ["Ben", "Ana"])
        #expect(sink.members.map(\.isUser) == [false, true])
        #expect(sink.items.count == 15)
        #expect(sink.issues.isEmpty)
    }

    @Test func systemLinesHaveTheGroupAsAuthorAndAnLRM() {
        let events = sink.items.filter { $0.direction == .event }
        #expect(
            events.map(\.content.text) == [
                "Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them.",
                "Ana created this group", "Ana added ~\u{202F}Ben", "Ana changed the group name to \"Allotment 2024\"",
            ])
        #expect(events[1].timestamp.rfc3339 == "2024-07-03T18:02:11Z")
    }

    @Test func twelveHourClockWithNarrowNoBreakSpace() {
        let times = sink.items.filter { $0.memberSourceId == "Ana" && $0.content.type == .text && !$0.isDeleted }.map(
            \.timestamp.rfc3339)
        #expect(times == ["2024-07-03T18:09:40Z", "2024-07-13T00:15:00Z"])
    }

    @Test func attachedAndOmittedAreBothKept() {
        let photos = sink.items.filter { $0.content.type == .image }
        #expect(photos.map { $0.file?.name } == ["00000021-PHOTO-2024-07-03-18-05-17.jpg", "(image omitted)"])
        #expect(photos.map(\.timestamp) == [photos[0].timestamp, photos[0].timestamp])
        #expect(photos[0].sourceId != photos[1].sourceId)
        #expect(photos.allSatisfy { $0.memberSourceId == "Ben" && $0.content.text.isEmpty })
        let voices = sink.items.filter { $0.content.type == .voice }
        #expect(voices.map { $0.file?.name } == ["(audio omitted)", "00000022-AUDIO-2024-07-13-12-30-05.opus"])
        let document = sink.items.first { $0.content.type == .file }
        #expect(document?.file?.name == "Plot rules.pdf")
    }

    @Test func editMentionDeletionsLocation() throws {
        let edited = try #require(sink.items.first { $0.isEdited })
        #expect(edited.content.text == "thanks @Ben")
        #expect(edited.mentions == ["Ben": MentionTarget(memberSourceId: "Ben")])
        let deleted = sink.items.filter(\.isDeleted)
        #expect(deleted.map(\.memberSourceId) == ["Ben", "Ana"])
        #expect(deleted.allSatisfy { $0.content.text.isEmpty })
        let location = try #require(sink.items.first { $0.content.type == .link })
        #expect(location.content.preview?.uri == "https://maps.google.com/?q=40.7128,-74.0060")
        #expect(location.memberSourceId == "Ben")
    }

    @Test func multiLineWithCRLF() throws {
        let item = try #require(sink.items.first { $0.content.text.hasPrefix("me, sorry") })
        #expect(item.content.text == "me, sorry\nbringing it Saturday")
        #expect(!sink.items.contains { $0.content.text.contains("\r") || ($0.raw ?? "").contains("\r") })
    }
}

@Suite("WhatsApp German, UTF-16 and mixed exports")
struct WhatsAppVariantTests {
    @Test func germanPhrasesAndBerlinTime() throws {
        let sink = try importFixture("android-de-DE", options: ImportOptions(timeZoneIdentifier: "Europe/Berlin"))
        #expect(sink.chats.map(\.sourceId) == ["whatsapp:Gartenfreunde"])
        #expect(sink.chats.first?.type == .group)
        #expect(sink.items.count == 10)
        #expect(
            sink.items.map(\.timestamp.rfc3339) == [
                "2024-03-31T00:59:00Z",
                "2024-03-31T01:30:00Z",  // 02:30 does not exist: moved forward to 03:30 CEST
                "2024-03-31T01:00:00Z", "2024-03-31T01:01:00Z", "2024-03-31T01:02:00Z", "2024-04-01T06:00:00Z",
                "2024-04-01T06:01:00Z", "2024-04-01T06:02:00Z",
                "2024-10-27T00:30:00Z",  // 02:30 happens twice: the first (CEST) is taken
                "2024-10-27T02:30:00Z",
            ])
        #expect(sink.items.prefix(3).allSatisfy { $0.direction == .event })
        let photo = sink.items[3]
        #expect(photo.content.type == .image)
        #expect(photo.file?.name == "IMG-20240331-WA0001.jpg")
        #expect(photo.content.text == "Gießkanne")
        #expect(sink.items[4].file?.name == "(media omitted)")
        #expect(sink.items[5].isDeleted)
        #expect(sink.items[6].isEdited && sink.items[6].content.text == "Erdbeeren sind reif")
        #expect(sink.items[7].content.type == .link)
    }

    @Test func floatingTimesDefaultToUTCAndIdsIgnoreTheZone() throws {
        let utc = try importFixture("android-de-DE")
        let berlin = try importFixture("android-de-DE", options: ImportOptions(timeZoneIdentifier: "Europe/Berlin"))
        #expect(utc.items[1].timestamp.rfc3339 == "2024-03-31T02:30:00Z")
        #expect(utc.items.map(\.sourceId) == berlin.items.map(\.sourceId))
        let fixed = try importFixture("android-de-DE", options: ImportOptions(timeZoneIdentifier: "3600"))
        #expect(fixed.items[1].timestamp.rfc3339 == "2024-03-31T01:30:00Z")
    }

    @Test func unknownZoneThrows() {
        #expect(throws: ImportError.self) {
            try importFixture("android-de-DE", options: ImportOptions(timeZoneIdentifier: "Mars/Olympus"))
        }
    }

    @Test func utf16MonthFirstDirectChat() throws {
        let sink = try importFixture("android-en-US-utf16")
        #expect(sink.chats.map(\.sourceId) == ["whatsapp:Sam"])
        #expect(sink.chats.first?.type == .direct)
        #expect(sink.members.map(\.sourceId) == ["Sam", "Dee"])
        #expect(sink.issues.isEmpty)
        #expect(sink.items.count == 7)
        #expect(
            sink.items.map(\.timestamp.rfc3339) == [
                "2024-07-03T18:01:00Z", "2024-07-03T18:02:00Z", "2024-07-03T18:03:00Z", "2024-07-03T23:59:00Z",
                "2024-07-13T00:05:00Z", "2024-07-13T12:30:00Z", "2024-07-13T12:31:00Z",
            ])
        #expect(sink.items[3].direction == .event && sink.items[3].content.text == "Missed voice call")
        #expect(sink.items[4].direction == .rcv && sink.items[4].memberSourceId == "Dee")
        #expect(sink.items[5].file?.name == "DOC-20240713-WA0007.docx")
        #expect(sink.items[5].content.text == "minutes attached\n\nsee you")
    }

    @Test func secondTemplateOnlyForTheBlockItOwns() throws {
        let sink = try importFixture("mixed-styles")
        #expect(sink.items.count == 6)
        #expect(
            sink.items.map(\.timestamp.rfc3339) == [
                "2024-07-03T18:02:00Z", "2024-07-13T18:03:00Z", "2024-07-13T18:04:00Z", "2024-07-14T09:00:00Z",
                "2024-07-14T09:01:30Z", "2024-07-15T10:00:00Z",
            ])
        #expect(sink.items[2].content.text == "2024-06-02 10:00 inside the text stays text")
        #expect(sink.chats.first?.type == .direct)
    }
}

@Suite("WhatsApp bad input")
struct WhatsAppBadInputTests {
    @Test func nulStopsTheFile() throws {
        let text =
            "13/07/2024, 18:04 - Ben: hello\n13/07/2024, 18:05 - Ben: bin\u{0}ary\n13/07/2024, 18:06 - Ben: never read\n"
        let sink = try importText(text)
        #expect(sink.items.map(\.content.text) == ["hello", "bin"])
        #expect(sink.issues.map(\.location.line) == [2])
        #expect(sink.issues.first?.message.contains("NUL") == true)
    }

    @Test func noTemplateIsAFileIssue() throws {
        let sink = try importText("hello\nworld\n")
        #expect(sink.chats.isEmpty && sink.items.isEmpty)
        #expect(sink.issues.count == 1)
        #expect(sink.issues.first?.location.file == "mem!WhatsApp Chat with Test.txt")
    }

    @Test func contradictoryDayMonthStopsTheFile() throws {
        let sink = try importText("13/01/2024, 10:00 - A: x\n01/13/2024, 10:00 - A: y\n")
        #expect(sink.items.isEmpty)
        #expect(sink.issues.first?.message.contains("contradict") == true)
    }

    @Test func dateOrderOverride() throws {
        let sink = CollectingSink()
        let text = "03/07/2024, 10:00 - A: x\n"
        try WhatsAppImporter(chatKey: "k", dateOrder: .monthDayYear).read(
            BytesContainer(["a.txt": Array(text.utf8)]), entry: "a.txt", into: sink, options: ImportOptions())
        #expect(sink.items.first?.timestamp.rfc3339 == "2024-03-07T10:00:00Z")
        #expect(sink.chats.first?.sourceId == "whatsapp:k")
        #expect(sink.issues.isEmpty)
        // Without the override and no evidence, the guess is reported.
        let guessed = try importText(text)
        #expect(guessed.items.first?.timestamp.rfc3339 == "2024-07-03T10:00:00Z")
        #expect(guessed.issues.count == 1)
    }

    @Test func textBeforeTheFirstHeaderAndInvalidUTF8AreReported() throws {
        var bytes = Array("preamble\n03/07/2024, 18:04 - Ben: caf".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\n13/07/2024, 18:05 - Ben: ok\n".utf8)
        let sink = CollectingSink()
        try WhatsAppImporter().read(
            BytesContainer(["c.txt": bytes]), entry: "c.txt", into: sink, options: ImportOptions())
        #expect(sink.issues.map(\.location.line) == [1, 2])
        #expect(sink.items.first?.content.text == "caf\u{FFFD}(")
        #expect(sink.items.count == 2)
    }

    @Test func recognition() throws {
        let android = try FolderContainer(path: whatsappCorpus + "/android-en-GB")
        let androidEntry = try #require(android.entryNames.first)
        #expect(FormatDetector.looksLikeWhatsApp(try android.prefix(of: androidEntry)))
        let utf16 = try FolderContainer(path: whatsappCorpus + "/android-en-US-utf16")
        let utf16Entry = try #require(utf16.entryNames.first)
        let utf16Head = try utf16.prefix(of: utf16Entry)
        #expect(FormatDetector.looksLikeWhatsApp(utf16Head))
        #expect(!FormatDetector.looksLikeWhatsApp(Array("[{\"ts\": \"1.2\"}]".utf8)))
        #expect(!FormatDetector.looksLikeWhatsApp(Array("just some notes\n2024 was a year\n".utf8)))
    }
}

/// Header lines in the variants ChatImport's WhatsAppFormat article lists, and what they read as.
@Test(arguments: [
    ("Android en-GB", "03/07/2024, 18:02 - Ana: hi", WhatsAppDateOrder.dayMonthYear, "2024-07-03 18:02:00"),
    ("US 12-hour", "7/3/24, 6:02 PM - Ana: hi", .monthDayYear, "2024-07-03 18:02:00"),
    ("iOS seconds NNBSP", "[7/3/24, 6:02:11\u{202F}PM] Ana: hi", .monthDayYear, "2024-07-03 18:02:11"),
    ("12 AM is midnight", "7/3/24, 12:05 AM - Ana: hi", .monthDayYear, "2024-07-03 00:05:00"),
    ("lower-case am", "03/07/2024, 9:05 am - Ana: hi", .dayMonthYear, "2024-07-03 09:05:00"),
    ("a. m. with NBSP", "3/7/24, 9:05\u{A0}a.\u{A0}m. - Ana: hi", .dayMonthYear, "2024-07-03 09:05:00"),
    ("p.m.", "3/7/24, 9:05 p.m. - Ana: hi", .dayMonthYear, "2024-07-03 21:05:00"),
    ("dotted date 2-digit year", "03.07.24, 18:02 - Ana: hi", .dayMonthYear, "2024-07-03 18:02:00"),
    ("dashed date", "03-07-2024 18:02 - Ana: hi", .dayMonthYear, "2024-07-03 18:02:00"),
    ("spaced date", "3. 7. 2024. 18:02 - Ana: hi", .dayMonthYear, "2024-07-03 18:02:00"),
    ("year first", "2024-07-03 18:02 - Ana: hi", .yearMonthDay, "2024-07-03 18:02:00"),
    ("word before time", "3.7.2024 klo 18.02 - Ana: hi", .dayMonthYear, "2024-07-03 18:02:00"),
    ("old layout", "03/07/2024 18:02: Ana: hi", .dayMonthYear, "2024-07-03 18:02:00"),
    ("time first", "18:02, 03/07/2024 - Ana: hi", .dayMonthYear, "2024-07-03 18:02:00"),
    (
        "Arabic digits and PM",
        "\u{663}\u{200F}/\u{667}\u{200F}/\u{662}\u{660}\u{662}\u{664}\u{60C} \u{666}:\u{660}\u{662} \u{645} - Ana: hi",
        .dayMonthYear, "2024-07-03 18:02:00"
    ),
    ("Arabic AM", "3/7/2024, 6:02 \u{635} - Ana: hi", .dayMonthYear, "2024-07-03 06:02:00"),
    ("Japanese PM first", "2024/07/03 午後6:02 - Ana: hi", .yearMonthDay, "2024-07-03 18:02:00"),
    ("Korean AM first", "2024. 7. 3. 오전 6:02 - Ana: hi", .yearMonthDay, "2024-07-03 06:02:00"),
    ("Buddhist year", "3/7/2567 18:02 - Ana: hi", .dayMonthYear, "2024-07-03 18:02:00"),
    ("Reiwa year", "R6/07/03 18:02 - Ana: hi", .yearMonthDay, "2024-07-03 18:02:00"),
    ("leading marks", "\u{FEFF}\u{200E}[03/07/2024, 18:02:05] Ana: hi", .dayMonthYear, "2024-07-03 18:02:05"),
])
func headerVariants(_ name: String, _ line: String, _ order: WhatsAppDateOrder, _ expected: String) throws {
    let header = try #require(WhatsAppHeaderParser.parse(Array(line.unicodeScalars)), "\(name)")
    let d = header.date(order: order)
    func p(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let got = "\(d.year)-\(p(d.month))-\(p(d.day)) \(p(header.hour ?? -1)):\(p(header.minute)):\(p(header.second ?? 0))"
    #expect(got == expected, "\(name)")
    let kind = WhatsAppLineKind.classify(header, Array(line.unicodeScalars), knownAuthors: nil)
    guard case .message(let author, let text) = kind else {
        Issue.record("\(name): not read as a message")
        return
    }
    #expect(author == "Ana" && text == "hi", "\(name)")
}

@Test(arguments: [
    "2024-06-02 10:00 rota moved", "hello", "12 apples: cheap", "3/7/2024 is a date", "[link] text",
    "10:00 meeting - bring cake",
])
func notHeaders(_ line: String) {
    #expect(WhatsAppHeaderParser.parse(Array(line.unicodeScalars)) == nil)
}

@Test func sha256KnownAnswers() {
    #expect(SHA256Digest.hex(Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256Digest.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    #expect(SHA256Digest.hex(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
        SHA256Digest.hex([UInt8](repeating: 0x61, count: 1000))
            == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
}

@Suite("WhatsApp 12-hour exports with 24-hour hours")
struct WhatsAppImpossibleHourTests {
    let sink: CollectingSink
    init() throws { sink = try importFixture("android-en-US-24h-meridiem") }

    @Test func hoursThatCannotBeTwelveHourAreReadAsTwentyFourHour() {
        #expect(
            sink.items.map(\.timestamp.rfc3339) == [
                "2018-01-29T23:58:00Z", "2018-01-29T23:59:00Z", "2018-01-30T00:04:00Z", "2018-01-30T00:10:00Z",
                "2018-01-30T13:15:00Z", "2018-01-30T13:20:00Z",
            ])
        #expect(sink.items[2].content.text == "after midnight: 你好 สวัสดี مرحبا שלום\ncontinued on a second line")
        #expect(sink.items[1].content.text == "one minute to go 🎉")
        #expect(sink.items.map(\.memberSourceId) == ["Bob", "Bob", "Bob", "Ann", "Ann", "Bob"])
    }

    @Test func oneWarningPerFileWithTheCountAndOnlyHoursPast23AreSkipped() {
        let warnings = sink.issues.filter { $0.severity == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.hasPrefix("3 message headers have AM or PM") == true)
        #expect(warnings.first?.location.line == 2)
        let skipped = sink.issues.filter { $0.severity == .skipped }
        #expect(skipped.count == 1)
        #expect(skipped.first?.location.line == 8)
        #expect(!sink.items.contains { $0.content.text.contains("no such hour") })
    }

    @Test(arguments: [
        ("1/29/18, 23:59 PM - Bob: x", 23, true), ("1/30/18, 00:04 AM - Bob: x", 0, true),
        ("1/30/18, 12:04 AM - Bob: x", 0, false),
        ("[1/30/18, 13:04:05 PM] Bob: x", 13, true), ("1/30/18, 11:04 PM - Bob: x", 23, false),
        ("1/30/18, 24:04 PM - Bob: x", -1, false),
    ])
    func headerHours(_ line: String, _ hour: Int, _ ignoresMeridiem: Bool) throws {
        let header = try #require(WhatsAppHeaderParser.parse(Array(line.unicodeScalars)))
        #expect((header.hour ?? -1) == hour)
        #expect(header.hourIgnoresMeridiem == ignoresMeridiem)
    }
}
