import ChatArchive
import ChatTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `chat-archive serve` as a user starts it: the `chat-archive` process becomes the server
/// program `chat-archive-serve` and answers HTTP on the port it prints.
@Suite(.serialized) struct ServeProgramTests {
    /// One HTTP/1.1 request to 127.0.0.1:`port` over a plain socket; the whole response.
    func get(port: Int, _ path: String, token: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw TestFailure("cannot connect to port \(port)") }
        let request = Array(
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n"
                .utf8)
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        return String(decoding: response, as: UTF8.self)
    }

    @Test func serveBecomesTheServerProgramAndAnswers() throws {
        let archive = TestArchive.temporaryPath()
        let sample = TestArchive.corpusPath + "/sample"
        let ingest = try ChildProcess.run(
            ChildProcess.chatArchiveBinary, ["ingest", "--archive", archive, sample + "/chats-1.jsonl"])
        #expect(ingest.status == 0, "\(ingest.err)")

        let p = try ChildProcess(ChildProcess.chatArchiveBinary, ["serve", "--archive", archive, "--json"])
        defer { p.kill() }
        // Its first line, once written (or whatever it wrote before it ended).
        var line = Array(p.outputSoFar.utf8)
        while !line.contains(0x0A) && p.isRunning {
            usleep(10_000)
            line = Array(p.outputSoFar.utf8)
        }
        if !line.contains(0x0A) { line = Array(p.outputSoFar.utf8) }
        let first = try JSONParser.parse(Array(line.prefix { $0 != 0x0A }))
        let port = try #require(first["port"]?.numberValue.map { Int($0) })
        let token = try #require(first["token"]?.stringValue)
        #expect(first["url"]?.stringValue == "http://127.0.0.1:\(port)/?token=\(token)")

        #if os(Linux)
            // The same process, now running the server program.
            let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(p.pid)/exe")
            #expect(exe.hasSuffix("/chat-archive-serve"), "\(exe)")
        #endif
        let stats = try get(port: port, "/api/stats", token: token)
        #expect(stats.hasPrefix("HTTP/1.1 200"), "\(stats.prefix(200))")
        #expect(stats.contains("\"items\":"), "\(stats.suffix(300))")
        let refused = try get(port: port, "/api/stats", token: "wrong")
        #expect(refused.hasPrefix("HTTP/1.1 401") || refused.hasPrefix("HTTP/1.1 403"), "\(refused.prefix(200))")

        p.kill(SIGTERM)
        let end = p.wait()
        #expect(end.status == 0 && end.signal == nil, "SIGTERM stops the server cleanly")
    }

    @Test func aServerProgramThatCannotStartIsReported() throws {
        let archive = TestArchive.temporaryPath()
        let r = try ChildProcess.run(
            ChildProcess.chatArchiveBinary, ["serve", "--archive", archive, "--json"],
            environment: ["CHAT_ARCHIVE_SERVE": "/nonexistent/chat-archive-serve"])
        #expect(r.status == 1)
        #expect(r.err.contains("cannot start /nonexistent/chat-archive-serve"), "\(r.err)")
        #expect(try JSONParser.parse(Array(r.out.utf8))["error"]?.stringValue != nil)
    }

    @Test func serveChecksItsOptionsBeforeStartingTheServer() throws {
        let r = try ChildProcess.run(
            ChildProcess.chatArchiveBinary, ["serve", "--port", "70000"],
            environment: ["CHAT_ARCHIVE_SERVE": "/nonexistent/chat-archive-serve"])
        #expect(r.status == 2)
        #expect(r.err.contains("--port must be from 0 to 65535"), "\(r.err)")
    }
}
