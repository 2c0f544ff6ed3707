import ChatArchive
import ChatArchiveServer
import ChatTestSupport
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

/// The token and `Host` rules on every route, media included.
@Suite struct AccessTests {
    static let routes = [
        "/", "/app.js", "/api/chats", "/api/counts", "/api/search?q=trip", "/api/stats", "/api/media/1?n=0", "/nowhere",
    ]

    @Test(arguments: routes) func withoutTheTokenEveryRouteAnswers401(route: String) async throws {
        let f = try ServerFixture()
        try await f.test { client in
            var h = HTTPFields()
            h[hostHeader] = ServerFixture.host
            try await client.execute(uri: route, method: .get, headers: h) { r in
                #expect(r.status == .unauthorized)
                #expect(r.body.text.contains(#""code":"unauthorized""#))
            }
            h[.authorization] = "Bearer wrong-token-0123456789"
            try await client.execute(uri: route, method: .get, headers: h) { r in #expect(r.status == .unauthorized) }
            h[.cookie] = "\(AccessPolicy.cookieName)=nope"
            try await client.execute(uri: route, method: .get, headers: h) { r in #expect(r.status == .unauthorized) }
        }
    }

    @Test(arguments: ["evil.example:8080", "127.0.0.1:9999", "localhost", "attacker.localhost:8080", ""])
    func aForeignHostIsRefusedEvenWithTheToken(host: String) async throws {
        let f = try ServerFixture()
        try await f.test { client in
            for route in AccessTests.routes + ["/?token=\(ServerFixture.token)"] {
                var h = authorised()
                h[hostHeader] = host
                try await client.execute(uri: route, method: .get, headers: h) { r in
                    #expect(r.status == .forbidden, "\(route) with Host \(host)")
                }
            }
        }
    }

    @Test func localhostAndTheBoundAddressAreAccepted() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080"] {
                var h = authorised()
                h[hostHeader] = host
                try await client.execute(uri: "/api/stats", method: .get, headers: h) { r in
                    #expect(r.status == .ok, "\(host)")
                }
            }
        }
    }

    @Test func theTokenInTheAddressBecomesACookieAndARedirect() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            var h = HTTPFields()
            h[hostHeader] = ServerFixture.host
            let cookie = try await client.execute(uri: "/?token=\(ServerFixture.token)&x=1", method: .get, headers: h) {
                r in
                #expect(r.status == .seeOther)
                #expect(r.headers[.location] == "/?x=1")
                let c = try #require(r.headers[.setCookie])
                #expect(c.contains("HttpOnly"))
                #expect(c.contains("SameSite=Strict"))
                #expect(c.hasPrefix("\(AccessPolicy.cookieName(port: 8080))=\(ServerFixture.token);"))
                return String(c.prefix { $0 != ";" })
            }
            try await client.execute(uri: "/?token=not-the-token", method: .get, headers: h) { r in
                #expect(r.status == .unauthorized)
            }
            h[.cookie] = cookie
            try await client.execute(uri: "/", method: .get, headers: h) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType]?.hasPrefix("text/html") == true)
            }
            try await client.execute(uri: "/api/chats", method: .get, headers: h) { r in #expect(r.status == .ok) }
        }
    }

    @Test func theAppHasNoInlineScriptAndAStrictPolicy() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            try await client.execute(uri: "/", method: .get, headers: authorised()) { r in
                let csp = try #require(r.headers[.contentSecurityPolicy])
                #expect(csp.contains("script-src 'self'"))
                #expect(!csp.contains("unsafe-inline"))
                #expect(r.headers[.xContentTypeOptions] == "nosniff")
                let html = r.body.text
                // Every <script> has a src and no element has an on… handler attribute.
                #expect(html.components(separatedBy: "<script").dropFirst().allSatisfy { $0.hasPrefix(" src=") })
                #expect(html.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil)
                #expect(html.contains(#"type="search""#))
            }
            try await client.execute(uri: "/app.js", method: .get, headers: authorised()) { r in
                #expect(r.headers[.contentType]?.hasPrefix("text/javascript") == true)
                let js = r.body.text
                #expect(!js.contains("innerHTML"))
                #expect(!js.contains("insertAdjacentHTML"))
                #expect(!js.contains("document.write"))
                #expect(!js.contains("eval("))
            }
        }
    }
}

/// Two servers in one browser, a browser without the token, a wildcard address, the app's files.
@Suite struct BrowserAccessTests {
    @Test func eachPortHasItsOwnCookieAndAnotherServersCookieIsRefused() async throws {
        #expect(AccessPolicy.cookieName(port: 8080) != AccessPolicy.cookieName(port: 8081))
        let f = try ServerFixture()
        try await f.test { client in
            var h = HTTPFields()
            h[hostHeader] = ServerFixture.host
            // The right token under the cookie of a server on another port.
            h[.cookie] = "\(AccessPolicy.cookieName(port: 8081))=\(ServerFixture.token)"
            try await client.execute(uri: "/api/stats", method: .get, headers: h) { r in
                #expect(r.status == .unauthorized)
            }
            h[.cookie] =
                "\(AccessPolicy.cookieName(port: 8081))=other; \(AccessPolicy.cookieName(port: 8080))=\(ServerFixture.token)"
            try await client.execute(uri: "/api/stats", method: .get, headers: h) { r in #expect(r.status == .ok) }
        }
    }

    @Test func aBrowserWithoutTheTokenGetsAPageThatSaysWhatToDo() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            var h = HTTPFields()
            h[hostHeader] = ServerFixture.host
            h[.accept] = "text/html,application/xhtml+xml,*/*;q=0.8"
            try await client.execute(uri: "/", method: .get, headers: h) { r in
                #expect(r.status == .unauthorized)
                #expect(r.headers[.contentType]?.hasPrefix("text/html") == true)
                #expect(r.body.text.contains("chat-archive serve"))
                #expect(!r.body.text.contains("<script"))
            }
            // The API stays JSON whatever the client accepts.
            try await client.execute(uri: "/api/chats", method: .get, headers: h) { r in
                #expect(r.status == .unauthorized)
                #expect(r.body.text.contains(#""code":"unauthorized""#))
            }
        }
    }

    @Test func aWildcardAddressAcceptsTheMachinesNamesAndNoOthers() {
        let policy = AccessPolicy(token: ServerFixture.token)
        policy.allow(host: "0.0.0.0", port: 8090)
        for host in ["127.0.0.1:8090", "localhost:8090", "0.0.0.0:8090"] {
            #expect(policy.isAllowed(host: host), "\(host)")
        }
        for host in ["evil.example:8090", "127.0.0.1:8091", "attacker.localhost:8090", "localhost"] {
            #expect(!policy.isAllowed(host: host), "\(host)")
        }
    }

    @Test(arguments: [("/app.js", "app.js"), ("/app.css", "app.css"), ("/", "index.html")])
    func theServedFilesAreTheFilesInTheSources(route: String, file: String) async throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ChatArchiveServer/Web/" + file)
        let bytes = try Data(contentsOf: source)
        let f = try ServerFixture()
        try await f.test { client in
            try await client.execute(uri: route, method: .get, headers: authorised()) { r in
                #expect(r.status == .ok)
                #expect(Data(r.body.readableBytesView) == bytes)
            }
        }
    }
}

/// The JSON API: the contract's documents, its errors, and its load.
@Suite struct APIRouteTests {
    @Test func chatsSearchItemsAndStatsAnswerTheirDocuments() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            try await client.execute(uri: "/api/chats?filter=business", method: .get, headers: authorised()) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "application/json; charset=utf-8")
                let v = try JSONParser.parse(Array(r.body.text.utf8))
                #expect(v["chats"]?.arrayValue?.map { $0["chatId"]?.stringValue } == ["b-cafe"])
            }
            try await client.execute(uri: "/api/search?q=Heinestra%C3%9Fe", method: .get, headers: authorised()) { r in
                let v = try JSONParser.parse(Array(r.body.text.utf8))
                #expect(v["hits"]?.arrayValue?.count == 6)
            }
            try await client.execute(uri: "/api/search?q=trip&limit=3", method: .get, headers: authorised()) { r in
                let v = try JSONParser.parse(Array(r.body.text.utf8))
                let cursor = try #require(v["nextCursor"]?.stringValue)
                let encoded = try #require(cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                try await client.execute(
                    uri: "/api/search?q=trip&limit=3&cursor=\(encoded)", method: .get, headers: authorised()
                ) { next in
                    #expect(next.status == .ok)
                    let page = try JSONParser.parse(Array(next.body.text.utf8))
                    #expect(page["hits"]?.arrayValue?.first?["id"] != v["hits"]?.arrayValue?.first?["id"])
                }
            }
            try await client.execute(
                uri: "/api/items?chat=media&at=2024-05-01T10:02:30Z&count=1", method: .get, headers: authorised()
            ) { r in
                let v = try JSONParser.parse(Array(r.body.text.utf8))
                #expect(v["items"]?.arrayValue?.map { $0["sourceId"]?.stringValue } == ["3", "4", "5"])
                #expect(v["navInfo"]?["afterTotal"]?.numberValue == 1)
                #expect(v["counts"]?["after"]?.numberValue == 1)
            }
            try await client.execute(uri: "/api/stats", method: .get, headers: authorised()) { r in
                let v = try JSONParser.parse(Array(r.body.text.utf8))
                #expect((v["items"]?.numberValue ?? 0) > 400)
            }
            try await client.execute(
                uri: "/api/histogram?q=&period=month&chat=media", method: .get, headers: authorised()
            ) { r in
                #expect(r.status == .ok)
                let v = try JSONParser.parse(Array(r.body.text.utf8))
                #expect(v["exact"]?.boolValue == true)
                #expect(v["timeZone"]?.stringValue == "UTC")
                #expect(v["buckets"]?.arrayValue?.map { $0["start"]?.stringValue } == ["2024-05-01T00:00:00Z"])
                #expect(v["buckets"]?.arrayValue?.first?["count"]?.numberValue == 6)
            }
        }
    }

    @Test(arguments: [
        ("/api/items", 400), ("/api/items?chat=g-hiking&last=5&initial=3", 400),
        ("/api/items?chat=g-hiking&last=-1", 400),
        ("/api/items?chat=g-hiking&at=yesterday", 400), ("/api/items?chat=nope&last=5", 404),
        ("/api/items?chat=g-hiking&around=1", 404),
        ("/api/items?chat=g-hiking&aroundSource=no-such-message", 404), ("/api/items?chat=nope&aroundSource=1003", 404),
        ("/api/items?chat=g-hiking&around=1&aroundSource=1003", 400), ("/api/search", 400),
        ("/api/search?q=x&order=random", 400),
        ("/api/search?q=x&content=gif", 400), ("/api/search?q=x&limit=0", 400), ("/api/search?q=x&chat=nope", 404),
        ("/api/chats?filter=odd", 400), ("/api/chats?cursor=nope", 400), ("/api/chats?q=hik&cursor=c0.1", 400),
        ("/api/chats?cursor=%27%3B%20DROP%20TABLE%20chat%3B%20--", 400), ("/api/chats?ids=a&q=hik", 400),
        ("/api/chats?ids=a&cursor=c0.1.1", 400), ("/api/chats?ids=a&filter=groups", 400),
        ("/api/chats?ids=" + (0...200).map { "c\($0)" }.joined(separator: ","), 400), ("/api/nothing", 404),
        ("/api/media/abc", 400), ("/api/media/1?n=-1", 400),
        ("/api/histogram?q=trip", 400), ("/api/histogram?q=trip&period=day", 400),
        ("/api/histogram?q=trip&period=month&exact=maybe", 400), ("/api/histogram?q=trip&period=week&chat=nope", 404),
        ("/api/histogram?q=trip&period=month&content=gif", 400),
    ])
    func badRequestsAnswerAnErrorDocument(uri: String, status: Int) async throws {
        let f = try ServerFixture()
        try await f.test { client in
            try await client.execute(uri: uri, method: .get, headers: authorised()) { r in
                #expect(r.status.code == status, "\(uri): \(r.body.text)")
                let v = try JSONParser.parse(Array(r.body.text.utf8))
                #expect(v["error"]?["code"]?.stringValue != nil)
                #expect(v["error"]?["message"]?.stringValue?.isEmpty == false)
            }
        }
    }

    /// Pages of `/api/chats`, by the cursor each page answers, hold every row of the whole list once.
    @Test(arguments: ["", "&q=a", "&filter=groups", "&q=hik&filter=groups", "&filter=unread"])
    func chatPagesHoldTheWholeListOnce(params: String) async throws {
        let f = try ServerFixture()
        try await f.test { client in
            let whole = try await client.execute(
                uri: "/api/chats?limit=10000" + params, method: .get, headers: authorised()
            ) {
                r in
                let v = try JSONParser.parse(Array(r.body.text.utf8))
                #expect(v["nextCursor"] == .null)
                return (v["chats"]?.arrayValue ?? []).compactMap { $0["chatId"]?.stringValue }
            }
            var paged: [String] = []
            var cursor = ""
            repeat {
                let next = try await client.execute(
                    uri: "/api/chats?limit=3\(params)&cursor=\(cursor)", method: .get, headers: authorised()
                ) { r in
                    #expect(r.status == .ok, "\(r.body.text)")
                    let v = try JSONParser.parse(Array(r.body.text.utf8))
                    let rows = (v["chats"]?.arrayValue ?? []).compactMap { $0["chatId"]?.stringValue }
                    paged += rows
                    return v["nextCursor"]?.stringValue ?? ""
                }
                cursor = try #require(next.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            } while !cursor.isEmpty && paged.count <= whole.count
            #expect(!whole.isEmpty || params.contains("unread"))
            #expect(paged == whole)
        }
    }

    /// `ids=` names the chats of search hits wherever they are in the list, commas escaped.
    @Test func idsLookUpNamedRows() async throws {
        let f = try ServerFixture()
        try await f.test { client in
            let ids = Self.q(#"b-cafe,nope,g-hiking,b-cafe,x\,y"#)
            try await client.execute(uri: "/api/chats?ids=\(ids)", method: .get, headers: authorised()) { r in
                #expect(r.status == .ok)
                let v = try JSONParser.parse(Array(r.body.text.utf8))
                #expect(v["chats"]?.arrayValue?.map { $0["chatId"]?.stringValue } == ["b-cafe", "g-hiking"])
                #expect(v["chats"]?.arrayValue?.last?["displayName"]?.stringValue == "Hiking club")
                #expect(v["nextCursor"] == .null)
            }
            let most = (0..<200).map { "c\($0)" }.joined(separator: ",") + ",g-hiking"
            try await client.execute(uri: "/api/chats?ids=\(most)", method: .get, headers: authorised()) { r in
                #expect(r.status == .badRequest)
            }
            let bound = (0..<199).map { "c\($0)" }.joined(separator: ",") + ",g-hiking"
            try await client.execute(uri: "/api/chats?ids=\(bound)", method: .get, headers: authorised()) { r in
                #expect(r.status == .ok)
                #expect(r.body.text.contains("g-hiking"))
            }
        }
    }

    static func q(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s }

    @Test func twoHundredConcurrentRequestsAllSucceed() async throws {
        let f = try ServerFixture()
        let uris = [
            "/api/chats", "/api/search?q=trip", "/api/items?chat=g-hiking&last=30", "/api/stats", "/api/chats?q=hik",
        ]
        try await f.test { client in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for k in 0..<200 {
                    group.addTask {
                        try await client.execute(uri: uris[k % uris.count], method: .get, headers: authorised()) {
                            $0.status.code
                        }
                    }
                }
                var all: [Int] = []
                for try await s in group { all.append(s) }
                return all
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
        }
    }
}

/// Attachments come from the export's folder, and only from inside it.
@Suite struct MediaTests {
    /// A folder of two exports, each with a file at the same relative path: each item's file
    /// comes from its own export, and an archive that recorded only the folder heals on the next
    /// ingest of the folder.
    @Test func aFolderOfExportsFindsEachAttachmentInItsOwnExport() async throws {
        let parent = TestTemporary.folder("exports")
        for (k, chat) in ["one", "two"].enumerated() {
            let folder = parent + "/export \(chat)"
            try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
            try Data("bytes of \(chat)".utf8).write(to: URL(fileURLWithPath: folder + "/photos/p.txt"))
            let lines = [
                Lines.chat(chat, name: "Chat \(chat)"),
                Lines.item(
                    chat, "1", ts: "2024-05-0\(k + 1)T10:00:00Z", text: "a file", type: "file",
                    extra: #""file":{"name":"p.txt","path":"photos/p.txt"}"#),
            ]
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(
                to: URL(fileURLWithPath: folder + "/chat.jsonl"))
        }
        let path = TestArchive.temporaryPath()
        let archive = try Archive(path: path)
        _ = try archive.ingestSync([parent])
        func bytes(_ chat: String) async throws -> String? {
            let window = try await archive.items(in: chat, window: .last(5))
            let id = try #require(window.items.first?.id)
            guard let file = try await archive.attachment(item: id, index: 0) else { return nil }
            return String(decoding: try file.stream.read(maxLength: 1000), as: UTF8.self)
        }
        #expect(try await bytes("one") == "bytes of one")
        #expect(try await bytes("two") == "bytes of two")
        // An archive made before: each path as its sub-export wrote it, relative to the wrong root
        // (and the stored item's hash of that older item).
        let queue = try TestArchive.rawQueue(path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE item SET filePath = 'photos/p.txt', contentHash = 0 WHERE filePath IS NOT NULL")
        }
        #expect(try await bytes("one") == nil)
        _ = try archive.ingestSync([parent])
        #expect(try await bytes("one") == "bytes of one")
        #expect(try await bytes("two") == "bytes of two")
    }

    @Test func anImageIsStreamedInlineWithItsType() async throws {
        let f = try ServerFixture()
        let id = try await f.itemId(chat: "media", source: "1")
        try await f.test { client in
            try await client.execute(uri: "/api/media/\(id)?n=0", method: .get, headers: authorised()) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "image/png")
                #expect(r.headers[.xContentTypeOptions] == "nosniff")
                #expect(r.headers[.contentDisposition] == nil)
                #expect(Array(r.body.readableBytesView) == ServerFixture.png)
            }
            try await client.execute(uri: "/api/media/\(id)", method: .get, headers: authorised()) { r in
                #expect(r.status == .ok)
            }
            try await client.execute(uri: "/api/media/\(id)?n=1", method: .get, headers: authorised()) { r in
                #expect(r.status == .notFound)
            }
        }
    }

    @Test func documentsAndScriptableImagesAreDownloadsNeverPages() async throws {
        let f = try ServerFixture()
        let pdf = try await f.itemId(chat: "media", source: "2")
        let svg = try await f.itemId(chat: "media", source: "6")
        try await f.test { client in
            try await client.execute(uri: "/api/media/\(pdf)?n=0", method: .get, headers: authorised()) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "application/pdf")
                #expect(r.headers[.contentDisposition] == "attachment; filename*=UTF-8''report.pdf")
            }
            try await client.execute(uri: "/api/media/\(svg)?n=0", method: .get, headers: authorised()) { r in
                #expect(r.headers[.contentType] == "application/octet-stream")
                #expect(r.headers[.contentDisposition]?.hasPrefix("attachment") == true)
                #expect(r.headers[.contentSecurityPolicy]?.contains("sandbox") == true)
            }
        }
    }

    @Test(arguments: ["3", "4", "5"]) func pathsOutOfTheExportAndMovedFilesAre404(source: String) async throws {
        let f = try ServerFixture()
        let id = try await f.itemId(chat: "media", source: source)
        try await f.test { client in
            try await client.execute(uri: "/api/media/\(id)?n=0", method: .get, headers: authorised()) { r in
                #expect(r.status == .notFound)
                #expect(r.headers[.contentType] == "application/json; charset=utf-8")
                #expect(!r.body.text.contains("secret"))
            }
        }
    }

    @Test func itemsWithoutAFileInTheirExportAre404() async throws {
        let f = try ServerFixture()
        let missing = try await f.itemId(chat: "hostile", source: "h21")
        let escaping = try await f.itemId(chat: "hostile", source: "h20")
        try await f.test { client in
            for uri in [
                "/api/media/\(missing)?n=0", "/api/media/\(escaping)?n=0", "/api/media/1?n=0",
                "/api/media/99999999999999",
            ] {
                try await client.execute(uri: uri, method: .get, headers: authorised()) { r in
                    #expect(r.status == .notFound, "\(uri)")
                }
            }
        }
    }

    @Test(arguments: [
        ("photos/a.jpg", true), ("a b/ü ☀.png", true), ("../a.jpg", false), ("photos/../../a", false),
        ("/etc/passwd", false),
        ("%2e%2e/a", false), ("photos/%2E%2E/%2e%2e/a", false), ("./a", false), ("a//b", false), ("a\\..\\b", false),
        ("https://cdn.example/a.png", false), ("", false), ("a\u{0}b", false), ("%2fetc/passwd", false),
    ])
    func attachmentPathsStayRelative(path: String, isSafe: Bool) {
        #expect((AttachmentPath.safeRelative(path) != nil) == isSafe, "\(path)")
    }
}
