import ChatModel
import Testing

@testable import ChatText

/// One message with its expected display text and span ranges.
struct DisplayCase: Sendable, CustomTestStringConvertible {
    let name: String
    let message: String
    let display: String
    /// `(start, end, typeName)` in UTF-16 units.
    let spans: [Span]
    var testDescription: String { name }
}

@Suite("Display text and spans (DisplayTextAndSpans article)")
struct MarkdownDisplayTests {
    static let cases: [DisplayCase] = [
        DisplayCase(name: "no markup", message: "just text", display: "just text", spans: []),
        DisplayCase(
            name: "bold", message: "Hi *there*", display: "Hi there", spans: [Span(start: 3, end: 8, format: .bold)]),
        DisplayCase(
            name: "emoji with modifier", message: "👍🏽 *ok* @'Bob M'", display: "👍🏽 ok @Bob M",
            spans: [
                Span(start: 5, end: 7, format: .bold), Span(start: 8, end: 14, format: .mention(memberName: "Bob M")),
            ]),
        DisplayCase(
            name: "CJK", message: "日本語 *太字* です", display: "日本語 太字 です", spans: [Span(start: 4, end: 6, format: .bold)]),
        DisplayCase(
            name: "combining accent", message: "e\u{301} *x* e\u{301}", display: "e\u{301} x e\u{301}",
            spans: [Span(start: 3, end: 4, format: .bold)]),
        DisplayCase(
            name: "emoji inside a span", message: "_😀x_ !1 🇫🇷!", display: "😀x 🇫🇷",
            spans: [Span(start: 0, end: 3, format: .italic), Span(start: 4, end: 8, format: .colored(.red))]),
        DisplayCase(
            name: "hyperlink shows its text", message: "[our wiki](https://wiki.example.org/start) ok",
            display: "our wiki ok",
            spans: [
                Span(
                    start: 0, end: 8,
                    format: .hyperLink(showText: "our wiki", linkUri: "https://wiki.example.org/start"))
            ]),
        DisplayCase(
            name: "secret is display text", message: "code ##7731##", display: "code #7731#",
            spans: [Span(start: 5, end: 11, format: .secret)]),
        DisplayCase(
            name: "whole-line command", message: " /find cats", display: " /find cats",
            spans: [Span(start: 0, end: 11, format: .command("find cats"))]),
        DisplayCase(
            name: "lines", message: "*a*\n\n💬 _b_", display: "a\n\n💬 b",
            spans: [Span(start: 0, end: 1, format: .bold), Span(start: 6, end: 7, format: .italic)]),
    ]

    @Test(arguments: cases)
    func displayTextAndSpans(_ c: DisplayCase) {
        let rendered = MarkdownDisplay.render(message: c.message)
        #expect(rendered.displayText == c.display)
        #expect(rendered.spans == c.spans)
        let utf16 = Array(rendered.displayText.utf16)
        for span in rendered.spans {
            #expect(span.start >= 0 && span.start <= span.end && span.end <= utf16.count)
        }
    }

    @Test func spanRangesSliceTheShownText() throws {
        let pieces = try #require(SimplexMarkdown.parseMaybeMarkdownList("🎉 *fête* and @'Zoë Ü' at 日本 !3 ok!"))
        let rendered = MarkdownDisplay.render(pieces)
        let utf16 = Array(rendered.displayText.utf16)
        let formatted = pieces.filter { $0.format != nil }
        try #require(rendered.spans.count == formatted.count)
        for (span, piece) in zip(rendered.spans, formatted) {
            #expect(String(decoding: utf16[span.start..<span.end], as: UTF16.self) == piece.shownText)
            #expect(span.format == piece.format)
        }
    }

    @Test func linkTargetsAndMentions() {
        let short = "https://smp9.example.net/g#\(testKey)"
        let message =
            "[wiki](https://w.example.org/a) [Join](\(short)) \(short) see https://ex.org/p. and shop.example.net @'Ann Lee' @bob, #Weekend ops@example.org"
        let rendered = MarkdownDisplay.render(message: message)
        #expect(
            rendered.linkTargets == ["https://w.example.org/a", short, short, "https://ex.org/p", "shop.example.net"])
        #expect(rendered.mentionNames == ["Ann Lee", "bob"])
        #expect(rendered.displayText.hasPrefix("wiki Join \(short) see"))
    }

    @Test func bracketedURL() {
        #expect(MarkdownDisplay.bracketedURL("[a (b)](https://x.y/z)") == "https://x.y/z")
        #expect(MarkdownDisplay.bracketedURL("no brackets") == "no brackets")
    }
}
