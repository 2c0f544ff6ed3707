import ChatArchive
import ChatArchiveServer
import ChatTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The API answers the very document the CLI prints with `--json` for the same arguments.
@Suite(.serialized) struct JSONParityTests {
    static var binary: String { ChildProcess.chatArchiveBinary }

    func cli(_ args: [String]) throws -> String {
        try ChildProcess.run(Self.binary, args).out.trimmingCharacters(in: .newlines)
    }

    static func q(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s }

    @Test func chatsSearchItemsAndStatsAreTheCLIsDocuments() async throws {
        let f = try ServerFixture()
        let hit = try #require(try await f.archive.search("Heinestraße").hits.first)
        let around = String(hit.item.id)
        let cursor = try #require(try await f.archive.chats(limit: 4, after: nil).nextCursor)
        let nameCursor = try #require(try await f.archive.chats(matching: "a", limit: 2, after: nil).nextCursor)
        let mediaCursor = try #require(try await f.archive.media(in: "media", kind: .image, limit: 1).nextCursor)
        // (CLI arguments, API request) pairs; scripts beyond Latin in the queries.
        let cases: [([String], String)] = [
            (["chats"], "/api/chats"),
            (["chats", "--filter", "groups", "--limit", "3"], "/api/chats?filter=groups&limit=3"),
            (["chats", "hik"], "/api/chats?q=hik"),
            (["chats", "--counts"], "/api/counts"),
            (["chats", "--limit", "4", "--cursor", cursor], "/api/chats?limit=4&cursor=\(Self.q(cursor))"),
            (
                ["chats", "a", "--limit", "2", "--cursor", nameCursor],
                "/api/chats?q=a&limit=2&cursor=\(Self.q(nameCursor))"
            ),
            (
                ["chats", "--ids", #"g-hiking,nope,b-cafe,a\,b"#],
                "/api/chats?ids=\(Self.q(#"g-hiking,nope,b-cafe,a\,b"#))"
            ),
            (["chats", "--filter", "tag:friends"], "/api/chats?filter=\(Self.q("tag:friends"))"),
            (["search", "Heinestraße"], "/api/search?q=\(Self.q("Heinestraße"))"),
            (["search", "trip", "--limit", "2", "--order", "relevance"], "/api/search?q=trip&limit=2&order=relevance"),
            (["search", "東京"], "/api/search?q=\(Self.q("東京"))"),
            (["search", "trip", "--count", "--limit", "1"], "/api/search?q=trip&count=true&limit=1"),
            (
                ["search", "script", "--chat", "hostile", "--count", "--include-deleted"],
                "/api/search?q=script&chat=hostile&count=true&includeDeleted=true"
            ),
            (["search", "สวัสดี"], "/api/search?q=\(Self.q("สวัสดี"))"),
            (["search", "مرحبا"], "/api/search?q=\(Self.q("مرحبا"))"),
            (
                ["search", "script", "--chat", "hostile", "--include-deleted"],
                "/api/search?q=script&chat=hostile&includeDeleted=true"
            ),
            (["search", "trip", "--histogram", "month"], "/api/histogram?q=trip&period=month"),
            (
                ["search", "東京", "--histogram", "week", "--exact"],
                "/api/histogram?q=\(Self.q("東京"))&period=week&exact=true"
            ),
            (
                ["search", "", "--histogram", "month", "--chat", "g-hiking"],
                "/api/histogram?q=&period=month&chat=g-hiking"
            ),
            (
                ["search", "script", "--histogram", "week", "--chat", "hostile", "--include-deleted"],
                "/api/histogram?q=script&period=week&chat=hostile&includeDeleted=true"
            ),
            (
                ["items", "--chat", hit.item.chatId, "--around", around, "--count", "3"],
                "/api/items?chat=\(hit.item.chatId)&around=\(around)&count=3"
            ),
            (
                ["items", "--chat", "g-hiking", "--around-source", "1003", "--count", "2"],
                "/api/items?chat=g-hiking&aroundSource=1003&count=2"
            ),
            (["items", "--chat", "g-hiking", "--initial", "10"], "/api/items?chat=g-hiking&initial=10"),
            (["items", "--chat", "g-hiking", "--last", "7"], "/api/items?chat=g-hiking&last=7"),
            (
                ["items", "--chat", "g-hiking", "--at", "2024-05-02", "--count", "4"],
                "/api/items?chat=g-hiking&at=2024-05-02&count=4"
            ),
            (["items", "--chat", "hostile", "--last", "50"], "/api/items?chat=hostile&last=50"),
            (
                ["items", "--chat", "media", "--last", "10", "--content", "image"],
                "/api/items?chat=media&last=10&content=image"
            ),
            (["items", "--chat", "media", "--media", "image"], "/api/chats/media/media?kind=image"),
            (
                ["items", "--chat", "media", "--media", "file", "--limit", "2"],
                "/api/chats/media/media?kind=file&limit=2"
            ),
            (
                ["items", "--chat", "media", "--media", "image", "--limit", "1", "--cursor", mediaCursor],
                "/api/chats/media/media?kind=image&limit=1&cursor=\(Self.q(mediaCursor))"
            ),
            (["items", "--chat", "g-hiking", "--media", "link"], "/api/chats/g-hiking/media?kind=link"),
            (["members", "--chat", "g-hiking", "zo"], "/api/members?chat=g-hiking&q=zo"),
            (["members", "--chat", "g-hiking", "--limit", "3"], "/api/members?chat=g-hiking&limit=3"),
            (["members", "an"], "/api/members?q=an"),
            (["members", "--limit", "4"], "/api/members?limit=4"),
            (["members", "زوي"], "/api/members?q=\(Self.q("زوي"))"),
            (["items", "--chat", "hostile", "--media", "file"], "/api/chats/hostile/media?kind=file"),
        ]
        var documents: [String] = []
        for (args, _) in cases { documents.append(try cli(args + ["--archive", f.path, "--json"])) }
        let expected = documents
        try await f.test { client in
            for (k, (args, uri)) in cases.enumerated() {
                try await client.execute(uri: uri, method: .get, headers: authorised()) { r in
                    #expect(r.status == .ok, "\(uri)")
                    #expect(!expected[k].isEmpty, "\(args)")
                    #expect(r.body.text == expected[k], "\(args) vs \(uri)")
                }
            }
        }
    }

    @Test func aMediaPageRefusesABadKindAndAnUnknownChat() async throws {
        let f = try ServerFixture()
        let bad = try cli(["items", "--chat", "media", "--media", "text", "--archive", f.path, "--json"])
        #expect(bad.isEmpty)
        let unknown = try cli(["items", "--chat", "nope", "--media", "image", "--archive", f.path, "--json"])
        #expect(unknown.contains("no chat with id"))
        try await f.test { client in
            for (uri, status, text) in [
                ("/api/chats/media/media?kind=text", HTTPResponse.Status.badRequest, "unknown kind text"),
                ("/api/chats/media/media", .badRequest, "kind is missing"),
                ("/api/chats/media/media?kind=image&cursor=zz", .badRequest, "not a cursor"),
                ("/api/chats/media/media?kind=image&limit=0", .badRequest, "limit must be positive"),
                ("/api/chats/nope/media?kind=image", .notFound, "no chat with id"),
                ("/api/chats/%E6%9D%B1%E4%BA%AC/media?kind=image", .notFound, "東京"),
            ] {
                try await client.execute(uri: uri, method: .get, headers: authorised()) { r in
                    #expect(r.status == status, "\(uri)")
                    #expect(r.body.text.contains(text), "\(uri): \(r.body.text)")
                }
            }
        }
    }

    @Test func anUnknownChatIsAnErrorInBoth() async throws {
        let f = try ServerFixture()
        let cli = try cli(["items", "--chat", "nope", "--last", "3", "--archive", f.path, "--json"])
        #expect(cli.contains("no chat with id"))
        try await f.test { client in
            try await client.execute(uri: "/api/items?chat=nope&last=3", method: .get, headers: authorised()) { r in
                #expect(r.status == .notFound)
                #expect(r.body.text.contains("no chat with id"))
            }
        }
    }
}
