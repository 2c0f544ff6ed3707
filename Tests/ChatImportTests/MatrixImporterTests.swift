import ChatModel
import ChatTestSupport
import Foundation
import Testing

@testable import ChatArchive
@testable import ChatImport

private let matrixRoot = corpusRoot + "/matrix"
/// The top folder Element's zip holds (the export's file name without `.zip`).
private let roomFolder = "Element - Allotment Committee - Chat Export - 2024-09-14T10-45-00.000Z"

private func importMatrix(_ relative: String, owner: String? = nil) throws -> CollectingSink {
    let container = try FormatDetector.openContainer(path: matrixRoot + "/" + relative)
    let entries = try MatrixImporter.recognise(container)
    let sink = CollectingSink()
    try MatrixImporter().read(container, entries: entries, into: sink, options: ImportOptions(ownerName: owner))
    return sink
}

private func item(_ sink: CollectingSink, _ id: String) -> Item? { sink.items.first { $0.sourceId == id } }

@Suite struct MatrixRecognitionTests {
    @Test func recognisesTheExportInItsFolderAndAlone() throws {
        let folder = try FormatDetector.openContainer(path: matrixRoot + "/with-attachments")
        #expect(try MatrixImporter.recognise(folder) == [roomFolder + "/export.json"])
        let detection = try FormatDetector.detect(path: matrixRoot + "/with-attachments")
        #expect(detection.format == "matrix")
        #expect(detection.entries == [roomFolder + "/export.json"])
        let alone = try FormatDetector.detect(path: matrixRoot + "/json-only")
        #expect(alone.format == "matrix")
        #expect(MatrixImporter.formatName == "matrix")
        #expect(FormatRegistry.formats.contains { $0.description == MatrixImporter.formatDescription })
    }

    @Test(arguments: [
        "discord/dm", "slack", "telegram/single-chat", "simplex/android-group.json", "sample", "whatsapp/android-en-GB",
    ])
    func claimsNoOtherFormat(_ relative: String) throws {
        let container = try FormatDetector.openContainer(path: corpusRoot + "/" + relative)
        #expect(try MatrixImporter.recognise(container).isEmpty)
        #expect(try FormatDetector.detect(in: container).format != "matrix")
    }

    @Test func needsTheExportKeysNotJustMessages() {
        #expect(
            MatrixImporter.isExport(
                Array(#"{"room_name":"r","exported_by":"me","export_date":"1/1/2024","messages":[]}"#.utf8)))
        #expect(!MatrixImporter.isExport(Array(#"{"room_name":"r","messages":[]}"#.utf8)))
        #expect(!MatrixImporter.isExport(Array(#"[{"room_name":"r","exported_by":"me","messages":[]}]"#.utf8)))
        #expect(!MatrixImporter.isExport(Array("<!DOCTYPE html><html>".utf8)))
    }
}

@Suite struct MatrixRoomExportTests {
    let sink: CollectingSink
    init() throws { sink = try importMatrix("with-attachments") }

    @Test func chatAndMembers() {
        #expect(
            sink.chats == [
                Chat(
                    sourceId: "matrix:!allot:example.org", type: .group, displayName: "Allotment Committee",
                    source: "matrix")
            ])
        // Members whose membership events are in the file, with their latest names; the bot and
        // the banned account, never named, come from the items' sender names instead.
        #expect(
            sink.members.map(\.sourceId) == [
                "@moss:example.org", "@vee:example.org", "@kit:matrix.org", "@yuki:example.jp", "@sam:example.org",
            ])
        #expect(sink.members.map(\.displayName) == ["Moss", "Vee K", "Kit", "由紀", "Sam"])
        #expect(sink.members.filter(\.isUser).map(\.sourceId) == ["@moss:example.org"])
        #expect(item(sink, "$notice")?.senderName == "bot")
    }

    @Test func everyEventIsOneItemAndProblemsAreReported() {
        #expect(sink.items.count == 47)
        #expect(Set(sink.items.map(\.sourceId)).count == 47)
        #expect(sink.issues.count == 2)
        #expect(sink.issues.allSatisfy { $0.severity == .warning })
        #expect(
            sink.issues.contains { $0.message.contains("2 encrypted event(s)") && $0.message.contains("key backup") })
        #expect(sink.issues.contains { $0.message.contains("3 attachment(s) are not in the export") })
    }

    @Test func sendersTimesAndDirections() throws {
        let hello = try #require(item(sink, "$hello"))
        #expect(hello.timestamp.rfc3339 == "2024-09-14T10:02:00Z")
        #expect(hello.memberSourceId == "@vee:example.org")
        #expect(hello.direction == .rcv)
        let reply = try #require(item(sink, "$reply1"))
        #expect(reply.direction == .snd)
        #expect(item(sink, "$photo-same-second")?.timestamp.rfc3339 == "2024-09-14T10:10:00.750Z")
        // The server clock is not monotonic: file order is kept, times as given.
        #expect(item(sink, "$img-0810")?.timestamp.rfc3339 == "2024-09-14T10:08:10Z")
        #expect(item(sink, "$create")?.direction == .event)
        #expect(item(sink, "$call")?.direction == .event)
    }

    @Test(arguments: [
        ("$hello", "Welcome to the allotment room! See https://example.org/rota"),
        ("$reply1", "Thanks! The greenhouse key is under the pot 🔑"),
        ("$jp", "温室の鍵、ありがとう！明日トマトを植えます。"),
        ("$ar", "شكراً! سأحضر البذور غداً — תודה רבה\r\nسطر ثانٍ"),
        ("$thai", "@Kit: ปลูกมะเขือเทศวันเสาร์ Sunday"),
        ("$edited", "The shed rota starts on Monday"),
        ("$emote", "* Kit waves 👋"),
        ("$notice", "Reminder: water the seedlings 💧"),
        ("$markdown", "Use git pull and don't forget the cake\nSecond line & more"),
        ("$hostile-html", "Safe click <b>not bold</b>\n:tomato:"),
        ("$quote-not-reply", "> <@moss:example.org> not a reply\n\nstill all kept"),
        ("$combining", "Cafe\u{301} crème, naïve 👩‍🌾 über\u{2028}same message"),
        ("$location", "Plot 7 gate"),
        ("$poll", "Work day: Saturday or Sunday?\n• Saturday\n• Sunday"),
        ("$thread-3", "Courgettes need the sunny corner"),
        ("$image-caption", "Our greenhouse plan. Finally!"),
        ("$img-0840", ""),
        ("$redacted", ""),
        ("$bad-encrypted", "** Unable to decrypt: The sender's device has not sent us the keys for this message. **"),
        ("$undecryptable", "Encrypted message that could not be decrypted"),
    ])
    func text(_ id: String, _ expected: String) throws {
        let m = try #require(item(sink, id))
        #expect(m.content.text == expected)
        // The reply fallback is gone, not only hidden: no `> <@` quote and no second copy.
        if m.quote != nil { #expect(!m.content.text.contains("<@")) }
    }

    @Test(arguments: [
        ("$create", "Moss created the room"),
        ("$name", "Moss changed the room name to Allotment Committee"),
        ("$topic", "Moss changed the topic to \"Plots, seeds and the shed rota 🌱\""),
        ("$m-yuki-join", "由紀 joined the room"),
        ("$m-vee-rename", "Vee changed their display name to Vee K"),
        ("$m-sam-invite", "Moss invited Sam"),
        ("$m-sam-join", "Sam joined the room"),
        ("$m-sam-kick", "Moss removed Sam: spam"),
        ("$m-spam-ban", "Moss banned spam: spam bot"),
        ("$m-kit-leave", "Kit left the room"),
        ("$pins", "Moss changed the pinned messages"),
        ("$call", "Kit started a voice call"),
    ])
    func stateEventsAreEvents(_ id: String, _ expected: String) throws {
        let m = try #require(item(sink, id))
        #expect(m.content.type == .event)
        #expect(m.direction == .event)
        #expect(m.content.text == expected)
    }

    @Test func spansFromFormattedBody() throws {
        #expect(
            item(sink, "$hello")?.markup
                == .formatted([
                    FormattedText("Welcome", .bold), FormattedText(" to the "), FormattedText("allotment", .italic),
                    FormattedText(" room! See "), FormattedText("https://example.org/rota", .uri),
                ]))
        let thai = try #require(item(sink, "$thai"))
        #expect(
            thai.markup
                == .formatted([
                    FormattedText("@Kit", .mention(memberName: "Kit")), FormattedText(": ปลูกมะเขือเทศวันเสาร์ "),
                    FormattedText("Sunday", .strikeThrough),
                ]))
        #expect(thai.mentions == ["Kit": MentionTarget(memberSourceId: "@kit:matrix.org")])
        #expect(
            item(sink, "$markdown")?.markup
                == .formatted([
                    FormattedText("Use "), FormattedText("git pull", .snippet), FormattedText(" and "),
                    FormattedText("don't", .bold),
                    FormattedText(" forget "), FormattedText("the cake", .secret),
                    FormattedText("\nSecond line & more"),
                ]))
        // The reply's HTML is plain once the fallback is gone; body Markdown is never read when
        // there is HTML (no `**`).
        #expect(item(sink, "$reply1")?.markup == .plain)
        #expect(item(sink, "$hello")?.content.text.contains("**") == false)
    }

    @Test func hostileHTMLIsDataOnly() throws {
        let m = try #require(item(sink, "$hostile-html"))
        #expect(m.markup == .plain)  // no link for `javascript:`, no tags, no script text
        #expect(!m.content.text.contains("alert"))
        #expect(m.raw?.contains("<script>") == true)  // the raw record keeps what was sent
    }

    @Test func repliesAndThreadsQuoteWhatTheyAnswer() {
        #expect(
            item(sink, "$reply1")?.quote
                == Quote(itemSourceId: "$hello", text: "Welcome to the allotment room! See https://example.org/rota"))
        #expect(
            item(sink, "$jp")?.quote
                == Quote(itemSourceId: "$reply1", text: "Thanks! The greenhouse key is under the pot 🔑"))
        #expect(item(sink, "$ar")?.quote?.itemSourceId == "$jp")
        // `is_falling_back`: the reply target is only "latest in thread", the root is quoted.
        let root = "Thread: what should we plant in plot 7?"
        #expect(item(sink, "$thread-1")?.quote == Quote(itemSourceId: "$thread-root", text: root))
        #expect(item(sink, "$thread-2")?.quote == Quote(itemSourceId: "$thread-root", text: root))
        // A real reply inside the thread quotes the message it answers.
        #expect(item(sink, "$thread-3")?.quote == Quote(itemSourceId: "$thread-1", text: "Courgettes"))
        #expect(item(sink, "$quote-not-reply")?.quote == nil)
    }

    @Test func reactionsEditsAndRedactions() throws {
        #expect(item(sink, "$reply1")?.reactions == [Reaction(emoji: "👍", count: 2), Reaction(emoji: "🌱", count: 1)])
        let edited = try #require(item(sink, "$edited"))
        #expect(edited.isEdited)
        #expect(!edited.isDeleted)
        let redacted = try #require(item(sink, "$redacted"))
        #expect(redacted.isDeleted)
        #expect(redacted.raw?.contains("wrong room") == true)
        #expect(item(sink, "$hello")?.isEdited == false)
    }

    @Test(
        arguments: [
            (
                "$image-caption", ContentType.image, "plan.jpg", Int64(2048),
                "images/Our greenhouse plan-14-09-2024 at 11-07-05. Finally!", nil as Int?
            ),
            ("$img-0840", .image, "image.png", 1111, "images/image-14-09-2024 at 11-08-40.png", nil),
            ("$img-0810", .image, "image.png", 2222, "images/image-14-09-2024 at 11-08-10.png", nil),
            ("$photo-first", .image, "photo.jpg", 3000, "images/photo-14-09-2024 at 11-10-00.jpg", nil),
            ("$photo-same-second", .image, "photo.jpg", 3100, nil, nil),
            ("$voice", .voice, "Voice message", 6400, "audio/Voice message-14-09-2024 at 11-11-00.ogg", 4),
            ("$audio", .file, "birdsong.mp3", 48000, "audio/birdsong-14-09-2024 at 11-12-00.mp3", 62),
            ("$video-over-limit", .video, "tour.mp4", 900_000_000, nil, 12),
            (
                "$file-slash", .file, "seeds/list 2024.pdf", 4096, "files/seeds/list 2024-14-09-2024 at 11-14-00.pdf",
                nil
            ),
            ("$file-traversal", .file, "../../etc/passwd.txt", 12, nil, nil),
            ("$sticker", .image, "Happy tomato", 900, "stickers/Happy tomato-14-09-2024 at 11-16-00.png", nil),
        ] as [(String, ContentType, String, Int64, String?, Int?)])
    func attachments(
        _ id: String, _ type: ContentType, _ name: String, _ size: Int64, _ path: String?, _ duration: Int?
    ) throws {
        let m = try #require(item(sink, id))
        #expect(m.content.type == type)
        #expect(m.file == FileRef(name: name, size: size, path: path.map { roomFolder + "/" + $0 }))
        #expect(m.content.duration == duration)
        if let path {
            // The path leads to the file, relative to the folder that was ingested.
            #expect(FileManager.default.fileExists(atPath: matrixRoot + "/with-attachments/" + roomFolder + "/" + path))
        }
    }

    @Test func encryptedMediaKeysAreNotStored() throws {
        let m = try #require(item(sink, "$image-caption"))
        let raw = try #require(m.raw)
        #expect(!raw.contains("SECRETKEYDATA"))
        #expect(!raw.contains("THUMBSECRET"))
        #expect(raw.contains("mxc://example.org/plan"))
        #expect(raw.contains("\"iv\""))
        // Events without keys keep their bytes exactly.
        #expect(item(sink, "$hello")?.raw?.hasPrefix("{\n      \"type\": \"m.room.message\"") == true)
    }

    @Test func undecryptableEventsAreKeptAsPlaceholders() {
        #expect(item(sink, "$undecryptable")?.content.type == .unknown)
        #expect(item(sink, "$undecryptable")?.memberSourceId == "@yuki:example.jp")
        #expect(item(sink, "$bad-encrypted")?.content.type == .unknown)
    }

    @Test func theOwnerCanBeNamedByUserID() throws {
        let mine = try importMatrix("with-attachments", owner: "@kit:matrix.org")
        #expect(mine.members.filter(\.isUser).map(\.sourceId) == ["@kit:matrix.org"])
        #expect(mine.items.first { $0.sourceId == "$emote" }?.direction == .snd)
        #expect(mine.items.first { $0.sourceId == "$reply1" }?.direction == .rcv)
    }

    @Test func theZipReadsLikeTheFolder() throws {
        var zip = TestZip()
        let base = matrixRoot + "/with-attachments"
        let names = try FileManager.default.subpathsOfDirectory(atPath: base).sorted()
        for name in names {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: base + "/" + name, isDirectory: &isDir), !isDir.boolValue
            else { continue }
            zip.add(name, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: base + "/" + name))))
        }
        let path = try zip.write(named: "Element - Allotment Committee - Chat Export.zip")
        let detection = try FormatDetector.detect(path: path)
        #expect(detection.format == "matrix")
        let fromZip = CollectingSink()
        try MatrixImporter().read(
            detection.container, entries: detection.entries, into: fromZip, options: ImportOptions())
        #expect(fromZip.items == sink.items)
        #expect(fromZip.items.compactMap(\.file?.path).count == 8)
    }
}

@Suite struct MatrixDirectExportTests {
    let sink: CollectingSink
    init() throws { sink = try importMatrix("json-only") }

    @Test func directChatOwnedByTheExportersUserID() {
        #expect(sink.chats.map(\.type) == [.direct])
        #expect(sink.chats.map(\.displayName) == ["Vee K"])
        #expect(sink.members.map(\.sourceId) == ["@moss:example.org", "@vee:example.org"])
        #expect(sink.members.map(\.displayName) == ["moss", "Vee K"])
        #expect(sink.members.map(\.isUser) == [true, false])
    }

    @Test func relationEventsAreAppliedNotStored() {
        #expect(
            sink.items.map(\.sourceId)
                == [
                    "$d-create", "$d-moss-join", "$d-vee-invite", "$d-vee-join", "$d-hi", "$d-seeds", "$d-seedlings",
                    "$d-undecryptable",
                ])
        #expect(item(sink, "$d-vee-invite")?.content.text == "moss invited Vee K")
    }

    @Test func reactionsAreCountedOncePerSenderWithoutRedactedOnes() {
        #expect(item(sink, "$d-hi")?.reactions == [Reaction(emoji: "👍", count: 2)])
    }

    @Test func onlyTheSendersOwnEditApplies() throws {
        let m = try #require(item(sink, "$d-seeds"))
        #expect(m.content.text == "I have 40 tomato seeds")
        #expect(m.isEdited)
        #expect(m.direction == .snd)
    }

    @Test func aRedactionEventDeletesItsTargetKeepingItsText() throws {
        // Room version 11 puts `redacts` in the content.
        let m = try #require(item(sink, "$d-seedlings"))
        #expect(m.isDeleted)
        #expect(m.content.text == "Hebrew: שתילים, Arabic: بذور")
    }

    @Test func badRecordsAreReportedWithTheirLine() {
        #expect(sink.issues.count == 3)
        let duplicate = sink.issues.first { $0.message.contains("appears again") }
        #expect(duplicate?.severity == .warning)
        #expect(duplicate?.location.line == 152)
        let noID = sink.issues.first { $0.message.contains("without an event_id") }
        #expect(noID?.severity == .skipped)
        #expect(noID?.location.line == 160)
        #expect(noID?.location.byteOffset != nil)
    }
}

@Suite struct MatrixHTMLTests {
    private func text(_ html: String) -> String { MatrixHTML.parse(html, nameOf: { _ in nil }, ownerID: nil).text }

    @Test(arguments: [
        ("plain", "a  b\n c", "a b c"),
        ("br and paragraphs", "<p>one</p><p>two<br>three</p>", "one\ntwo\nthree"),
        ("entities", "&lt;&amp;&gt; &quot;x&quot; &#233; &#x1F600; &nbsp;!", "<&> \"x\" é 😀 \u{A0}!"),
        ("unknown entity kept", "AT&T &bogus; &", "AT&T &bogus; &"),
        ("bad numeric entity", "a&#0;b&#xD800;c", "a\u{FFFD}b\u{FFFD}c"),
        (
            "nested reply fallback",
            "<mx-reply><blockquote><mx-reply>old</mx-reply>quoted</blockquote></mx-reply>answer", "answer"
        ),
        ("comment", "a<!-- <b>hidden</b> -->b", "ab"),
        ("literal less-than", "1 < 2 and 3 <4", "1 < 2 and 3 <4"),
        ("quoted greater-than in attribute", "<a href=\"https://e.org/?q=a>b\">link</a>", "link"),
        ("pre keeps spaces", "<pre><code>let x  = 1\n  y</code></pre>after", "let x  = 1\n  y\nafter"),
        ("lists", "<ul><li>one</li><li>two</li></ul><ol start=\"3\"><li>three</li></ol>", "• one\n• two\n3. three"),
        ("unclosed tags", "<b>bold <i>both", "bold both"),
        ("style dropped", "<style>p{color:red}</style>shown", "shown"),
        ("percent-encoded mention", "<a href=\"https://matrix.to/#/%40z%C3%B6e%3Aexample.org\"></a> hi", "@zöe hi"),
        ("matrix URI mention", "<a href=\"matrix:u/alice:example.org\">Alice</a>", "@Alice"),
        ("hebrew and arabic", "<em>שלום</em> <strong>مرحبا</strong>", "שלום مرحبا"),
        ("cjk without spaces", "<b>日本語</b>の<i>テキスト</i>", "日本語のテキスト"),
        ("empty", "", ""),
    ])
    func displayText(_ name: String, _ html: String, _ expected: String) {
        #expect(text(html) == expected, "\(name)")
    }

    @Test func linksAndMentions() {
        let r = MatrixHTML.parse(
            "<a href=\"https://matrix.to/#/@moss:example.org\">Moss</a> see <a href=\"https://example.org/a\">the plan</a>"
                + " <a href=\"javascript:alert(1)\">x</a> <a href=\"https://matrix.to/#/#garden:example.org\">#garden</a>",
            nameOf: { _ in nil }, ownerID: "@moss:example.org")
        #expect(
            r.pieces == [
                FormattedText("@Moss", .mention(memberName: "Moss")), FormattedText(" see "),
                FormattedText("the plan", .hyperLink(showText: "the plan", linkUri: "https://example.org/a")),
                FormattedText(" x "),
                FormattedText(
                    "#garden", .hyperLink(showText: "#garden", linkUri: "https://matrix.to/#/#garden:example.org")),
            ])
        #expect(r.mentions == ["Moss": MentionTarget(memberSourceId: "@moss:example.org", isUserMention: true)])
    }

    @Test func aMentionWithoutTextTakesTheMembersName() {
        let r = MatrixHTML.parse(
            "<a href=\"https://matrix.to/#/@vee:example.org?via=example.org\"></a>",
            nameOf: { $0 == "@vee:example.org" ? "Vee K" : nil }, ownerID: nil)
        #expect(r.pieces == [FormattedText("@Vee K", .mention(memberName: "Vee K"))])
    }

    @Test func hostileNestingStaysBounded() {
        let html = String(repeating: "<b><i>", count: 20_000) + "deep" + String(repeating: "</i></b>", count: 20_000)
        #expect(text(html) == "deep")
    }
}

@Suite struct MatrixReplyFallbackTests {
    @Test(arguments: [
        ("> <@a:x.org> quoted\n\nanswer", "answer"),
        ("> <@a:x.org> line one\n> line two\n\nanswer\nmore", "answer\nmore"),
        ("> * <@a:x.org> waves\n\nhello", "hello"),
        ("> <@a:x.org> quoted\r\n\r\nanswer", "answer"),
        ("> <@a:x.org> quoted\nanswer without a blank line", "answer without a blank line"),
        ("> <@a:x.org> only a quote", "> <@a:x.org> only a quote"),
        ("> <@a:x.org> quote\n\n", "> <@a:x.org> quote\n\n"),
        ("> not a fallback\n\ntext", "> not a fallback\n\ntext"),
        ("> <@a:x.org> 引用\n\n返信です 🙂", "返信です 🙂"),
    ])
    func strips(_ body: String, _ expected: String) {
        #expect(MatrixReplyFallback.strip(body) == expected)
    }
}

/// Through the whole pipeline: detection, importer, archive writer, search.
@Suite struct MatrixArchiveTests {
    @Test func ingestSearchReimportAndALaterExport() async throws {
        let archive = try Archive(path: TestArchive.temporaryPath())
        let first = try archive.ingestSync([matrixRoot + "/with-attachments"])
        #expect(first.itemsAdded == 47)
        #expect(first.itemsUpdated == 0)

        // The quoted text of a reply's fallback is not indexed a second time.
        #expect(try await archive.search("温室").hits.map(\.item.sourceId) == ["$jp"])
        #expect(try await archive.search("Welcome").hits.map(\.item.sourceId) == ["$hello"])
        #expect(Set(try await archive.search("greenhouse").hits.map(\.item.sourceId)) == ["$reply1", "$image-caption"])
        let caption = try #require(try await archive.search("greenhouse plan").hits.first)
        #expect(caption.item.file?.path == roomFolder + "/images/Our greenhouse plan-14-09-2024 at 11-07-05. Finally!")
        #expect(caption.item.sender == "Vee K")
        let thai = try #require(try await archive.search("Sunday").hits.first { $0.item.sourceId == "$thai" })
        #expect(thai.item.text == "@Kit: ปลูกมะเขือเทศวันเสาร์ Sunday")

        let again = try archive.ingestSync([matrixRoot + "/with-attachments"])
        #expect(again.itemsAdded == 0)
        #expect(again.itemsUpdated == 0)
        #expect(again.itemsUnchanged == 47)

        // A later, partial export: one edit, one redaction, one new message; nothing else moves.
        let later = try archive.ingestSync([matrixRoot + "/later-export"])
        #expect(later.itemsAdded == 1)
        #expect(later.itemsUpdated == 2)
        #expect(later.itemsUnchanged == 2)
        let edited = try #require(try await archive.search("ปลูกมะเขือเทศ").hits.first)
        #expect(edited.item.text == "@Kit: ปลูกมะเขือเทศวันอาทิตย์")
        #expect(edited.item.isEdited)
        #expect(try await archive.search("Sunday").hits.allSatisfy { $0.item.sourceId != "$thai" })
        #expect(try await archive.search("cake").hits.isEmpty)
        let swap = try #require(try await archive.search("swapped").hits.first)
        #expect(swap.item.sender == "Kit")  // the earlier export's name stays
        let shed = try #require(
            try await archive.search("shed rota Monday").hits.first { $0.item.sourceId == "$edited" })
        #expect(shed.item.direction == .snd)
        #expect(shed.item.sender == "Moss")
    }
}
