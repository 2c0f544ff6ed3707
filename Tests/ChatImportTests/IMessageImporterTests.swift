import ChatArchive
import ChatModel
import ChatTestSupport
import Foundation
import GRDB
import Testing

@testable import ChatImport

private let imessageRoot = corpusRoot + "/imessage"
private let messagesFolder = imessageRoot + "/Messages"

enum IMessageFixture {
    static let direct = "imessage:iMessage;-;+15550001"
    static let group = "imessage:iMessage;+;chat493850128374651"
    static let sms = "imessage:SMS;-;+4915112345678"
    static let unnamed = "imessage:iMessage;+;chat777000111222333"
    static let lenaIMessage = "imessage:iMessage;-;+4915112345678"
    static let unlinked = "imessage:unlinked"
    /// 2024-05-01T10:00:00Z in Unix milliseconds; the fixture's minute `k` is `t(k)`.
    static let t0: Int64 = 1_714_557_600_000
    static func t(_ minutes: Int64) -> Int64 { t0 + minutes * 60_000 }
    /// The guid of the fixture's message with ROWID `n`.
    static func guid(_ n: Int) -> String {
        let digits = String(n)
        return "C0FFEE00-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }

    static func read(_ path: String) throws -> CollectingSink {
        let sink = CollectingSink()
        let detection = try FormatDetector.detect(path: path)
        #expect(detection.format == "imessage")
        try detection.read(into: sink, options: ImportOptions())
        return sink
    }

    /// A copy of the fixture's Messages folder in a new temporary folder; returns its path.
    static func copy() throws -> String {
        let folder = TestTemporary.folder("imessage") + "/Messages"
        try FileManager.default.copyItem(atPath: messagesFolder, toPath: folder)
        return folder
    }

    /// Runs SQL on a database file (created when missing).
    static func execute(_ sql: String, at path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
    }

    /// The bytes of an `attributedBody` holding `text`, as macOS writes them: an
    /// NSMutableAttributedString (or a plain NSAttributedString) whose string comes first.
    static func typedStream(_ text: String, plain: Bool = false) -> [UInt8] {
        func length(_ n: Int) -> [UInt8] {
            n < 128 ? [UInt8(n)] : [0x81, UInt8(n & 0xFF), UInt8(n >> 8)]
        }
        func newClass(_ name: String, _ version: UInt8) -> [UInt8] {
            [0x84, 0x84, UInt8(name.utf8.count)] + Array(name.utf8) + [version]
        }
        var out: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03, 0x84, 0x01, 0x40, 0x84]
        if plain {
            out += newClass("NSAttributedString", 0) + newClass("NSObject", 0) + [0x85]
            out += [0x92, 0x84] + newClass("NSString", 1) + [0x94]
        } else {
            out += newClass("NSMutableAttributedString", 0) + newClass("NSAttributedString", 0)
            out += newClass("NSObject", 0) + [0x85]
            out += [0x92, 0x84] + newClass("NSMutableString", 1) + newClass("NSString", 1) + [0x95]
        }
        let bytes = Array(text.utf8)
        out += [0x84, 0x01, 0x2B] + length(bytes.count) + bytes + [0x86]
        out += [0x84, 0x02, 0x69, 0x49, 0x01] + length(text.utf16.count) + [0x92, 0x84, 0x86, 0x86]
        return out
    }
}

@Suite struct IMessageImporterTests {
    let sink: CollectingSink
    init() throws { sink = try IMessageFixture.read(messagesFolder) }

    func item(_ chat: String, _ rowId: Int) throws -> Item {
        try #require(sink.items.first { $0.chatSourceId == chat && $0.sourceId == IMessageFixture.guid(rowId) })
    }

    @Test func chatsAreKeyedByGuidAndNamed() {
        #expect(sink.chats.count == 6)
        let byId = Dictionary(sink.chats.map { ($0.sourceId, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byId[IMessageFixture.direct]?.type == .direct)
        #expect(byId[IMessageFixture.direct]?.displayName == "+15550001")
        #expect(byId[IMessageFixture.group]?.type == .group)
        #expect(byId[IMessageFixture.group]?.displayName == "Rope Team 🧗")
        #expect(byId[IMessageFixture.unnamed]?.displayName == "+8613800138000, +971501234567")
        #expect(byId[IMessageFixture.sms]?.displayName == "+4915112345678")
        #expect(byId[IMessageFixture.unlinked] != nil)
        #expect(sink.chats.allSatisfy { $0.source == "imessage" })
    }

    @Test func membersAreHandleAddressesAndTheUser() {
        let group = sink.members.filter { $0.chatSourceId == IMessageFixture.group }
        #expect(Set(group.map(\.sourceId)) == ["me", "zoe@example.com", "+972501234567", "+66812345678"])
        #expect(group.filter(\.isUser).map(\.sourceId) == ["me"])
        // Left the group: no longer in chat_handle_join, but wrote in it.
        #expect(group.first { $0.sourceId == "+66812345678" }?.hasLeft == true)
        #expect(group.first { $0.sourceId == "zoe@example.com" }?.hasLeft == false)
    }

    @Test func countsWithoutTapbackRowsAndWithoutIssues() {
        #expect(sink.items.count == 22)
        #expect(sink.issues.isEmpty)
        #expect(Set(sink.items.map(\.sourceId)).isDisjoint(with: [3, 4, 5, 18, 19, 20].map(IMessageFixture.guid)))
    }

    @Test func textSenderAndNanosecondTime() throws {
        let m = try item(IMessageFixture.direct, 1)
        #expect(m.content == MessageContent(type: .text, text: "Are we still on for Saturday? 🧗"))
        #expect(m.timestamp.milliseconds == IMessageFixture.t0)
        #expect(m.timestamp.rfc3339 == "2024-05-01T10:00:00Z")
        #expect(m.direction == .rcv && m.memberSourceId == "+15550001" && m.senderName == "+15550001")
        #expect(!m.isUnread && m.markup == .plain)
        // The like was taken back (3001 after 2001).
        #expect(m.reactions.isEmpty)
    }

    @Test func attributedBodyTextWhenTextIsNull() throws {
        let m = try item(IMessageFixture.direct, 2)
        #expect(m.content.text == "Yes! 9:00 at the crag ☕")
        #expect(m.direction == .snd && m.memberSourceId == "me")
        #expect(m.status == .read)
        #expect(m.reactions == [Reaction(emoji: "❤️", count: 1)])
        // A plain NSAttributedString.
        #expect(try item(IMessageFixture.group, 15).content.text == "שלום לכולם! נתראה בשבת 🙂")
        // More than 127 bytes: the length is 0x81 and two bytes.
        #expect(
            try item(IMessageFixture.group, 16).content.text
                == "พรุ่งนี้เราจะไปปีนเขาที่กระบี่ ใครอยากไปด้วยบ้าง เตรียมรองเท้าให้พร้อมนะ")
    }

    @Test func textInEveryScript() throws {
        #expect(try item(IMessageFixture.group, 14).content.text == "Cafe\u{301} at 8? Or cre\u{302}pes 🥞")
        #expect(try item(IMessageFixture.group, 22).content.text == "Anyone up for 東京 next spring?")
        #expect(try item(IMessageFixture.unnamed, 25).content.text == "我们下周在上海见面吧")
        #expect(try item(IMessageFixture.unnamed, 26).content.text == "مرحبا بالجميع، كيف حالكم؟")
        #expect(try item(IMessageFixture.sms, 24).content.text == "Danke! مرحبا من دبي")
    }

    @Test func secondsDatesOfOlderDatabases() throws {
        let m = try item(IMessageFixture.sms, 23)
        #expect(m.timestamp.rfc3339 == "2012-06-01T12:00:00Z")
        #expect(try item(IMessageFixture.sms, 24).timestamp.rfc3339 == "2012-06-01T12:01:00Z")
        #expect(try item(IMessageFixture.sms, 24).status == .delivered)
    }

    @Test func aMessageInTwoChatsOrInNone() throws {
        let lena = sink.items.filter { $0.sourceId == IMessageFixture.guid(23) }.map(\.chatSourceId)
        #expect(lena.sorted() == [IMessageFixture.lenaIMessage, IMessageFixture.sms].sorted())
        #expect(try item(IMessageFixture.unlinked, 27).content.text == "A message in no conversation")
    }

    @Test func tapbacksAreCountedPerEmojiOnTheirTarget() throws {
        let m = try item(IMessageFixture.group, 14)
        #expect(m.reactions == [Reaction(emoji: "🔥", count: 1), Reaction(emoji: "😂", count: 2)])
    }

    @Test func editedAndUnsentMessages() throws {
        let edited = try item(IMessageFixture.direct, 6)
        #expect(edited.isEdited && !edited.isDeleted)
        #expect(edited.content.text == "Bring the blue rope, please")
        for rowId in [7, 17] {
            let unsent = try item(IMessageFixture.direct, rowId)
            #expect(unsent.isDeleted && !unsent.isEdited, "\(rowId)")
            #expect(unsent.content.text.isEmpty && unsent.file == nil, "\(rowId)")
        }
    }

    @Test func replyQuotesItsTarget() throws {
        let m = try item(IMessageFixture.direct, 8)
        #expect(m.quote == Quote(itemSourceId: IMessageFixture.guid(2), text: "Yes! 9:00 at the crag ☕"))
    }

    @Test func attachmentsWithPathsOnlyForFilesPresent() throws {
        let photo = try item(IMessageFixture.direct, 9)
        #expect(photo.content.type == .image)
        #expect(photo.content.text == "View from the top 🏔️")  // U+FFFC removed
        #expect(
            photo.file
                == FileRef(
                    name: "IMG_0001.HEIC", size: 26,
                    path: "Attachments/ab/12/B1E4C0DE-0001-4000-8000-00000000A001/IMG_0001.HEIC"))
        let voice = try item(IMessageFixture.direct, 10)
        #expect(voice.content == MessageContent(type: .voice, text: ""))
        #expect(voice.file == FileRef(name: "Audio Message.caf", size: 18432, path: nil))
        #expect(voice.isUnread)
        let pdf = try item(IMessageFixture.direct, 11)
        #expect(pdf.content == MessageContent(type: .file, text: "Topo for Saturday"))
        #expect(pdf.file == FileRef(name: "Route topo.pdf", size: 245_760, path: nil))
        #expect(pdf.status == .delivered && !pdf.isUnread)
    }

    @Test func groupEvents() throws {
        let rename = try item(IMessageFixture.group, 12)
        #expect(rename.direction == .event && rename.content.type == .event)
        #expect(rename.content.text == "You renamed the group to “Rope Team 🧗”")
        #expect(rename.memberSourceId == "me")
        #expect(try item(IMessageFixture.group, 13).content.text == "zoe@example.com added +66812345678")
        #expect(try item(IMessageFixture.group, 21).content.text == "+66812345678 left the group")
    }

    @Test func readStateOfReceivedMessages() throws {
        #expect(try item(IMessageFixture.group, 22).isUnread)
        #expect(sink.items.filter(\.isUnread).map(\.sourceId).sorted() == [10, 22].map(IMessageFixture.guid))
    }

    @Test func rawRecordKeepsTheRowWithExactNanoseconds() throws {
        let raw = try #require(try item(IMessageFixture.direct, 2).raw)
        let json = try JSONParser.parse(Array(raw.utf8))
        #expect(json["guid"]?.stringValue == IMessageFixture.guid(2))
        #expect(json["date"]?.stringValue == "736250520000000000")
        #expect(json["attributedBody"]?.stringValue?.isEmpty == false)
        #expect(json["imessage_rowid_"] == nil)
    }
}

@Suite struct IMessageFixtureTests {
    @Test func theCommittedDatabaseIsBuiltFromChatSQL() throws {
        let folder = TestTemporary.folder("imessage-sql")
        let sql = try String(contentsOfFile: imessageRoot + "/chat.sql", encoding: .utf8)
        try IMessageFixture.execute(sql, at: folder + "/chat.db")
        let rebuilt = try IMessageFixture.read(folder + "/chat.db")
        let committed = try IMessageFixture.read(messagesFolder)
        #expect(rebuilt.chats == committed.chats)
        #expect(rebuilt.members == committed.members)
        // The same items; only the photo's path needs its Attachments folder beside the database.
        #expect(rebuilt.items.count == committed.items.count)
        for (a, b) in zip(rebuilt.items, committed.items) {
            var b = b
            b.file?.path = a.file?.path
            #expect(a == b, "\(a.sourceId)")
        }
    }
}

@Suite struct TypedStreamDecoderTests {
    /// The bytes of a real macOS attributedBody (text only), as far as the string's end.
    static let noterTest: [UInt8] =
        [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03, 0x84, 0x01, 0x40, 0x84, 0x84, 0x84, 0x19]
        + Array("NSMutableAttributedString".utf8) + [0x00, 0x84, 0x84, 0x12] + Array("NSAttributedString".utf8)
        + [0x00, 0x84, 0x84, 0x08] + Array("NSObject".utf8) + [0x00, 0x85, 0x92, 0x84, 0x84, 0x84, 0x0F]
        + Array("NSMutableString".utf8) + [0x01, 0x84, 0x84, 0x08] + Array("NSString".utf8)
        + [0x01, 0x95, 0x84, 0x01, 0x2B, 0x0A] + Array("Noter test".utf8) + [0x86, 0x84, 0x02, 0x69, 0x49, 0x01, 0x0A]

    @Test func realBytes() {
        #expect(TypedStreamDecoder.text(Self.noterTest) == "Noter test")
    }

    @Test(arguments: [
        ("ascii", "hello", false), ("plain NSAttributedString", "שלום", true), ("emoji and ZWJ", "👩‍👩‍👧 ok", false),
        ("combining", "e\u{301}", true), ("CJK", "東京で会いましょう", false), ("Arabic", "مرحبا", true),
        ("long (0x81 length)", String(repeating: "ไทย ", count: 40), false), ("empty", "", false),
        ("attachment mark", "\u{FFFC}\u{FFFC}two photos", false),
    ])
    func decodesWhatItEncodes(name: String, text: String, plain: Bool) {
        #expect(TypedStreamDecoder.text(IMessageFixture.typedStream(text, plain: plain)) == text, "\(name)")
    }

    @Test func everyTruncationIsNilOrTheTextNeverACrash() {
        let full = IMessageFixture.typedStream("Bring the blue rope 🧗")
        let end = full.count - 11  // the string's last byte; the attribute runs follow it
        for n in 0...full.count {
            let expected = n >= end ? "Bring the blue rope 🧗" : nil
            #expect(TypedStreamDecoder.text(Array(full.prefix(n))) == expected, "\(n)")
        }
    }

    @Test func hostileBytesGiveNil() {
        let header: [UInt8] = [0x04, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03]
        let cases: [(String, [UInt8])] = [
            ("empty", []), ("not a typedstream", Array("bplist00".utf8)), ("header only", header),
            // Objects without a class, each holding an object ("@" by reference): deeper and deeper.
            (
                "endless nesting",
                header + [0x84, 0x01, 0x40] + Array([[UInt8]](repeating: [0x84, 0x85, 0x92], count: 50_000).joined())
            ),
            (
                "endless class chain",
                header + [0x84, 0x01, 0x40, 0x84]
                    + Array([[UInt8]](repeating: [0x84, 0x84, 0x01, 0x41, 0x00], count: 20_000).joined())
            ),
            ("reference out of range", header + [0x84, 0x01, 0x40, 0x84, 0xF0]),
            ("type reference out of range", header + [0xA0]),
            (
                "length past the end",
                Array(IMessageFixture.typedStream("x").prefix(121)) + [0x82, 0xFF, 0xFF, 0xFF, 0x7F]
            ),
            ("struct type", header + [0x84, 0x03, 0x7B, 0x61, 0x7D]),
        ]
        for (name, bytes) in cases {
            #expect(TypedStreamDecoder.text(bytes) == nil, "\(name)")
        }
        var random = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            var bytes = Array(IMessageFixture.typedStream("random").prefix(Int(random.next() % 90)))
            for _ in 0..<Int(random.next() % 40) { bytes.append(UInt8(truncatingIfNeeded: random.next())) }
            _ = TypedStreamDecoder.text(bytes)
        }
    }

    @Test func invalidUTF8IsReplaced() {
        // No class name or signature holds a "z": the one in the stream is the text's.
        var bytes = IMessageFixture.typedStream("zb")
        if let index = bytes.firstIndex(of: UInt8(ascii: "z")) { bytes[index] = 0xFF }
        #expect(TypedStreamDecoder.text(bytes) == "\u{FFFD}b")
        #expect(!TypedStreamDecoder.isValidText(bytes))
    }
}

@Suite struct AppleTimeTests {
    @Test(arguments: [
        ("nanoseconds", Int64(736_250_400_000_000_000), "2024-05-01T10:00:00Z"),
        ("seconds", Int64(360_244_800), "2012-06-01T12:00:00Z"),
        ("seconds, 2016", Int64(500_000_000), "2016-11-05T00:53:20Z"),
        ("nanoseconds, just above the threshold", Int64(1_000_000_000_001), "2001-01-01T00:16:40Z"),
    ])
    func bothUnits(name: String, value: Int64, expected: String) {
        #expect(AppleTime.timestamp(value.databaseValue)?.rfc3339 == expected, "\(name)")
    }

    @Test func unsetAndAbsurdValuesAreNil() {
        #expect(AppleTime.timestamp(Int64(0).databaseValue) == nil)
        #expect(AppleTime.timestamp(nil) == nil)
        #expect(AppleTime.timestamp("soon".databaseValue) == nil)
        #expect(AppleTime.timestamp(Int64.max.databaseValue) == nil)
        #expect(AppleTime.timestamp(Int64.min.databaseValue) == nil)
        #expect(AppleTime.timestamp(Int64(900_000_000_000).databaseValue) == nil)  // year 30 000 in seconds
        #expect(AppleTime.timestamp(Double(736_250_400_000_000_000).databaseValue)?.rfc3339 == "2024-05-01T10:00:00Z")
        #expect(AppleTime.timestamp(Double.nan.databaseValue) == nil)
    }
}
