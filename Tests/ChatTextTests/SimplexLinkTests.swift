import ChatModel
import Testing

@testable import ChatText

/// Percent-encodes everything but ASCII letters and digits.
private func encoded(_ s: String) -> String {
    var out = ""
    for byte in s.utf8 {
        if (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) {
            out.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
            out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }
    }
    return out
}

private let keyHash = "u2dS9sG8nMNURyZwqASV4yROM28Er0luVTx5X1CsMrU"
private let inviteKey = String(repeating: "A", count: 75)
private let queue1 = "smp://\(keyHash)@smp1.example.com,abcdefgh.onion:5223/queueA#/?v=1-3&dh=MCowBQYDK2VuAyEA"
private let queue2 = "smp://\(keyHash)@smp2.example.com/queueB#/?v=1-3&dh=MCow&srv=xyz.onion"
private let e2e = encoded("v=2-3&x3dh=MEIwBQYDK2VvAzkA,MEIwBQ")

/// One decoder case.
struct LinkCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: String
    let expected: SimplexLinkDecoder.Link?
    var testDescription: String { name }
}

@Suite("SimpleX link decoder (MarkdownGrammar article)")
struct SimplexLinkTests {
    static let fullContact = "simplex:/contact#/?v=2-7&smp=\(encoded(queue1))"
    static let fullContactHTTPS = "https://simplex.chat/contact#/?v=2-7&smp=\(encoded(queue1))"
    static let fullGroup =
        "https://simplex.chat/contact#/?v=2-7&smp=\(encoded(queue2))&data=\(encoded("{\"groupLinkId\":\"abc\", \"type\": \"group\"}"))"
    static let fullInvitation = "simplex:/invitation#/?v=2-7&smp=\(encoded(queue1 + "," + queue2))&e2e=\(e2e)"

    static let cases: [LinkCase] = [
        LinkCase(
            name: "short group", input: "https://smp9.example.net/g#\(testKey)",
            expected: .init(
                linkType: .group, simplexUri: "simplex:/g#\(testKey)?h=smp9.example.net",
                smpHosts: ["smp9.example.net"], isShort: true)),
        LinkCase(
            name: "short contact with port, hash and extra hosts",
            input: "https://smp.example.net:5223/a#\(keyHash)@x1.onion,x2.example/\(testKey)",
            expected: .init(
                linkType: .contact,
                simplexUri: "simplex:/a#\(testKey)?h=smp.example.net,x1.onion,x2.example&p=5223&c=\(keyHash)",
                smpHosts: ["smp.example.net", "x1.onion", "x2.example"], isShort: true)),
        LinkCase(
            name: "short invitation", input: "https://smp.example.net/i#\(inviteKey)",
            expected: .init(
                linkType: .invitation, simplexUri: "simplex:/i#\(inviteKey)?h=smp.example.net",
                smpHosts: ["smp.example.net"], isShort: true)),
        LinkCase(
            name: "short channel", input: "https://smp.example.net/c#\(testKey)",
            expected: .init(
                linkType: .channel, simplexUri: "simplex:/c#\(testKey)?h=smp.example.net",
                smpHosts: ["smp.example.net"], isShort: true)),
        LinkCase(
            name: "short relay", input: "https://smp.example.net/r#\(testKey)",
            expected: .init(
                linkType: .relay, simplexUri: "simplex:/r#\(testKey)?h=smp.example.net",
                smpHosts: ["smp.example.net"], isShort: true)),
        LinkCase(
            name: "short simplex form", input: "simplex:/g#\(testKey)?h=a.example,b.onion&p=5223",
            expected: .init(
                linkType: .group, simplexUri: "simplex:/g#\(testKey)?h=a.example,b.onion&p=5223",
                smpHosts: ["a.example", "b.onion"], isShort: true)),
        LinkCase(
            name: "short invitation with contact key length", input: "https://smp.example.net/i#\(testKey)",
            expected: nil),
        LinkCase(name: "short key too short", input: "https://smp.example.net/a#abc", expected: nil),
        LinkCase(
            name: "short key bad character", input: "https://smp.example.net/a#\(testKey.dropLast())+", expected: nil),
        LinkCase(name: "short unknown type", input: "https://smp.example.net/z#\(testKey)", expected: nil),
        LinkCase(name: "short simplex form without host", input: "simplex:/a#\(testKey)?p=5223", expected: nil),
        LinkCase(name: "trailing punctuation", input: "https://smp9.example.net/g#\(testKey).", expected: nil),
        LinkCase(
            name: "full contact", input: fullContact,
            expected: .init(
                linkType: .contact, simplexUri: fullContact, smpHosts: ["smp1.example.com", "abcdefgh.onion"],
                isShort: false)),
        LinkCase(
            name: "full contact over https", input: fullContactHTTPS,
            expected: .init(
                linkType: .contact, simplexUri: fullContact, smpHosts: ["smp1.example.com", "abcdefgh.onion"],
                isShort: false)),
        LinkCase(
            name: "full group", input: fullGroup,
            expected: .init(
                linkType: .group, simplexUri: "simplex:/" + fullGroup.dropFirst("https://simplex.chat/".count),
                smpHosts: ["smp2.example.com", "xyz.onion"], isShort: false)),
        LinkCase(
            name: "full invitation with two queues", input: fullInvitation,
            expected: .init(
                linkType: .invitation, simplexUri: fullInvitation,
                smpHosts: ["smp1.example.com", "abcdefgh.onion", "smp2.example.com", "xyz.onion"], isShort: false)),
        LinkCase(
            name: "invitation without e2e", input: "simplex:/invitation#/?v=2-7&smp=\(encoded(queue1))", expected: nil),
        LinkCase(name: "contact without smp", input: "simplex:/contact#/?v=2-7", expected: nil),
        LinkCase(name: "bad smp", input: "simplex:/contact#/?v=2-7&smp=http%3A%2F%2Fx", expected: nil),
        LinkCase(name: "web page", input: "https://simplex.chat/docs/guide", expected: nil),
        LinkCase(name: "not a link", input: "hello", expected: nil),
    ]

    @Test(arguments: cases)
    func decode(_ c: LinkCase) {
        #expect(SimplexLinkDecoder.decode(c.input) == c.expected)
    }

    @Test func bareFullLinkInText() throws {
        let pieces = SimplexMarkdown.parseMarkdown("add me: \(Self.fullContact), thanks")
        // The split-off comma joins the following plain text (merging rule 4, ChatText's MarkdownGrammar).
        try #require(pieces.count == 3)
        #expect(pieces[0] == FormattedText("add me: "))
        #expect(pieces[1].text == Self.fullContact)
        #expect(pieces[2] == FormattedText(", thanks"))
        guard case .simplexLink(let showText, let linkType, _, let hosts)? = pieces[1].format else {
            Issue.record("not a SimpleX link: \(String(describing: pieces[1].format))")
            return
        }
        #expect(showText == nil)
        #expect(linkType == .contact)
        #expect(hosts == ["smp1.example.com", "abcdefgh.onion"])
    }

    @Test func bareShortLink() {
        let url = "https://smp9.example.net/g#\(testKey)"
        #expect(
            SimplexMarkdown.parseMarkdown("join \(url)") == [
                FormattedText("join "),
                FormattedText(
                    url,
                    .simplexLink(
                        showText: nil, linkType: .group, simplexUri: "simplex:/g#\(testKey)?h=smp9.example.net",
                        smpHosts: ["smp9.example.net"])),
            ])
    }

    /// The whole word, trailing punctuation included, is decoded (words, in MarkdownGrammar): a short link followed
    /// by `.` is not a SimpleX link, so it falls through to the web-URI check.
    @Test func shortLinkWithTrailingDotIsAURI() {
        let url = "https://smp9.example.net/g#\(testKey)"
        #expect(SimplexMarkdown.parseMarkdown(url + ".") == [FormattedText(url, .uri), FormattedText(".")])
    }
}
