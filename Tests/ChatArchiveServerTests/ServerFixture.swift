import ChatArchive
import ChatArchiveServer
import ChatTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// An archive of the sample corpus plus an export folder with attachments, and a server over it.
struct ServerFixture {
    static let token = "test-token-0123456789"
    static let host = "127.0.0.1:8080"

    let path: String
    let archive: Archive
    let server: ArchiveServer
    let exportFolder: String

    init() throws {
        path = TestArchive.temporaryPath()
        let archive = try Archive(path: path)
        let sample = TestArchive.corpusPath + "/sample"
        _ = try archive.ingestSync([sample + "/chats-1.jsonl", sample + "/chats-2.jsonl", sample + "/updates.jsonl"])
        _ = try archive.ingestSync([TestArchive.corpusPath + "/hostile/hostile.jsonl"])

        // An export folder holding its attachments, one of them a link to a file outside.
        let folder = TestTemporary.folder("export") + "/Media export"
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        let outside = TestTemporary.folder("outside") + "/secret.txt"
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside))
        try Data(ServerFixture.png).write(to: URL(fileURLWithPath: folder + "/photos/dawn ☀.png"))
        try Data("%PDF-1.4 test".utf8).write(to: URL(fileURLWithPath: folder + "/report.pdf"))
        try Data("<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>".utf8).write(
            to: URL(fileURLWithPath: folder + "/logo.svg"))
        try Data("moved".utf8).write(to: URL(fileURLWithPath: folder + "/moved.txt"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/photos/link.png", withDestinationPath: outside)
        let lines = [
            Lines.chat("media", name: "Media chat"),
            Lines.item(
                "media", "1", ts: "2024-05-01T10:00:00Z", text: "dawn", type: "image",
                extra: #""file":{"name":"dawn ☀.png","size":67,"path":"photos/dawn ☀.png"}"#),
            Lines.item(
                "media", "2", ts: "2024-05-01T10:01:00Z", text: "the report", type: "file",
                extra: #""file":{"name":"report.pdf","size":13,"path":"report.pdf"}"#),
            Lines.item(
                "media", "3", ts: "2024-05-01T10:02:00Z", text: "a link out", type: "image",
                extra: #""file":{"name":"link.png","path":"photos/link.png"}"#),
            Lines.item(
                "media", "4", ts: "2024-05-01T10:03:00Z", text: "encoded dots", type: "file",
                extra: #""file":{"name":"secret.txt","path":"%2e%2e/%2E%2E/secret.txt"}"#),
            Lines.item(
                "media", "5", ts: "2024-05-01T10:04:00Z", text: "moved since", type: "file",
                extra: #""file":{"name":"moved.txt","path":"moved.txt"}"#),
            Lines.item(
                "media", "6", ts: "2024-05-01T10:05:00Z", text: "a logo", type: "image",
                extra: #""file":{"name":"logo.svg","path":"logo.svg"}"#),
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/chat.jsonl"))
        _ = try archive.ingestSync([folder])
        try FileManager.default.removeItem(atPath: folder + "/moved.txt")
        exportFolder = folder
        self.archive = try openArchiveForReading(path: path)
        let policy = AccessPolicy(token: ServerFixture.token)
        policy.allow(host: "127.0.0.1", port: 8080)
        server = ArchiveServer(archive: self.archive, policy: policy)
    }

    /// Runs `body` with a client that sends requests straight to the router (no sockets).
    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: server.makeRouter())
        try await app.test(.router) { client in try await body(client) }
    }

    /// The archive id of an item by its source id.
    func itemId(chat: String, source: String) async throws -> Int64 {
        let window = try await archive.items(in: chat, window: .last(1000))
        return try #require(window.items.first { $0.sourceId == source }?.id)
    }

    /// A 1×1 PNG.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0A, 0x49,
        0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00,
        0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
}

/// Headers of an authorised request through the bound address.
func authorised(_ extra: HTTPFields = [:]) -> HTTPFields {
    var h = extra
    h[hostHeader] = ServerFixture.host
    h[.authorization] = "Bearer " + ServerFixture.token
    return h
}

extension ByteBuffer {
    var text: String { String(buffer: self) }
}

/// The `Host` header's name.
let hostHeader = HTTPFields.Element.Name("Host") ?? .authorization
