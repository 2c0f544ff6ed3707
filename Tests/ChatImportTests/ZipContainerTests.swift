import ChatTestSupport
import Foundation
import Testing

@testable import ChatImport

func readEntry(_ c: any ExportContainer, _ name: String, chunk: Int = 7) throws -> [UInt8] {
    let s = try c.open(name)
    var out: [UInt8] = []
    while true {
        let b = try s.read(maxLength: chunk)
        if b.isEmpty { return out }
        out += b
    }
}

@Suite struct ZipContainerTests {
    static let longText = String(repeating: "the quick brown fox jumps over the lazy dog 0123456789\n", count: 3000)

    @Test(arguments: [false, true])
    func readsStoredAndDeflatedEntries(zip64: Bool) throws {
        var z = TestZip()
        z.zip64 = zip64
        z.add("a/stored.txt", "hello stored", deflate: false)
        z.add("a/deflated.txt", Self.longText)
        z.add("empty.txt", "", deflate: false)
        z.add("dir/", "", deflate: false)
        let c = try ZipContainer(path: try z.write())
        #expect(c.entryNames == ["a/deflated.txt", "a/stored.txt", "empty.txt"])
        #expect(c.refusedEntries.isEmpty)
        #expect(try readEntry(c, "a/stored.txt") == Array("hello stored".utf8))
        #expect(try readEntry(c, "a/deflated.txt", chunk: 1000) == Array(Self.longText.utf8))
        #expect(try readEntry(c, "empty.txt") == [])
        #expect(c.size(of: "a/deflated.txt") == Int64(Self.longText.utf8.count))
        #expect(c.displayName(of: "a/stored.txt") == c.path + "!a/stored.txt")
        #expect(try c.prefix(of: "a/deflated.txt", limit: 9) == Array("the quick".utf8))
    }

    @Test(arguments: [false, true])
    func crcMismatchThrowsWithEntryName(deflate: Bool) throws {
        var z = TestZip()
        z.entries.append(.init(name: "bad.json", data: Array(Self.longText.utf8), deflate: deflate, crc: 0x1234_5678))
        let c = try ZipContainer(path: try z.write())
        let error = #expect(throws: ImportError.self) { try readEntry(c, "bad.json", chunk: 4096) }
        #expect(error?.message.contains("!bad.json") == true)
        #expect(error?.message.contains("CRC-32 mismatch") == true)
    }

    @Test(arguments: [
        ("../evil.txt", "unsafe"), ("/etc/passwd", "unsafe"), ("a/../../b", "unsafe"), ("C:/win.ini", "unsafe"),
        ("a\\..\\b", "unsafe"), ("link", "symbolic link"), ("secret.txt", "encrypted"), ("odd.bin", "method 12"),
    ])
    func refusesUnsafeEntries(name: String, reason: String) throws {
        var z = TestZip()
        z.add("ok.txt", "fine")
        var e = TestZip.Entry(name: name, data: Array("x".utf8), deflate: false)
        if name == "link" { e.unixMode = 0o120777 }
        if name == "secret.txt" { e.flags |= 1 }
        if name == "odd.bin" { e.method = 12 }
        z.entries.append(e)
        let c = try ZipContainer(path: try z.write())
        #expect(c.entryNames == ["ok.txt"])
        #expect(c.refusedEntries.count == 1)
        #expect(c.refusedEntries.first?.name == name)
        #expect(c.refusedEntries.first?.reason.contains(reason) == true)
        #expect(throws: ImportError.self) { try c.open(name) }
    }

    @Test func normalisesDotComponents() {
        #expect(ZipContainer.safeName("./a//b/./c.txt") == "a/b/c.txt")
        #expect(ZipContainer.safeName("a/..b/c") == "a/..b/c")
        #expect(ZipContainer.safeName("..") == nil)
    }

    @Test func refusesHighRatioEntries() throws {
        var z = TestZip()
        z.add("bomb.bin", bytes: [UInt8](repeating: 0, count: 4 << 20))
        let path = try z.write()
        let error = #expect(throws: ImportError.self) { try ZipContainer(path: path) }
        #expect(error?.message.contains("zip bomb") == true)
        // With a looser limit the same zip reads.
        let c = try ZipContainer(
            path: path, limits: ZipLimits(maxTotalUncompressedBytes: 8 << 30, maxRatio: 100_000, ratioExemptBytes: 0))
        #expect(try readEntry(c, "bomb.bin", chunk: 1 << 20).count == 4 << 20)
    }

    @Test func refusesTotalSizeOverTheLimit() throws {
        var z = TestZip()
        z.add("a.txt", Self.longText)
        z.add("b.txt", Self.longText)
        let limits = ZipLimits(
            maxTotalUncompressedBytes: Int64(Self.longText.utf8.count) + 10, maxRatio: 1000, ratioExemptBytes: 64 << 10)
        let error = #expect(throws: ImportError.self) { try ZipContainer(path: try z.write(), limits: limits) }
        #expect(error?.message.contains("refusing the zip") == true)
    }

    @Test func stopsEntriesThatInflatePastTheirDeclaredSize() throws {
        var z = TestZip()
        z.entries.append(.init(name: "liar.txt", data: Array(Self.longText.utf8), declaredSize: 1000))
        let c = try ZipContainer(
            path: try z.write(),
            limits: ZipLimits(maxTotalUncompressedBytes: 1 << 30, maxRatio: 1 << 40, ratioExemptBytes: 0))
        let error = #expect(throws: ImportError.self) { try readEntry(c, "liar.txt", chunk: 512) }
        #expect(error?.message.contains("declared size") == true)
    }

    @Test func truncatedZipIsRefused() throws {
        var z = TestZip()
        z.add("a.txt", Self.longText)
        let bytes = z.bytes()
        let path = try TestFiles.write(Array(bytes.prefix(bytes.count / 2)), named: "cut.zip")
        let error = #expect(throws: ImportError.self) { try ZipContainer(path: path) }
        #expect(error?.message.contains("cut.zip") == true)
    }

    @Test func truncatedEntryDataFailsOnRead() throws {
        // Cut the middle of the entry's data out; the central directory stays intact.
        var z = TestZip()
        z.add("a.txt", Self.longText)
        var bytes = z.bytes()
        let eocd = bytes.count - 22
        let cdOffset = Int(bytes.le32(eocd + 16))
        let cut = 100..<(cdOffset - 10)
        bytes.removeSubrange(cut)
        let newCD = UInt32(cdOffset - cut.count)
        let e2 = bytes.count - 22
        for k in 0..<4 { bytes[e2 + 16 + k] = UInt8(newCD >> (8 * UInt32(k)) & 0xFF) }
        let c = try ZipContainer(path: try TestFiles.write(bytes, named: "short.zip"))
        #expect(throws: ImportError.self) { try readEntry(c, "a.txt", chunk: 4096) }
    }

    @Test func recognisesZipMagic() {
        #expect(ZipContainer.hasZipMagic([0x50, 0x4B, 3, 4, 9]))
        #expect(ZipContainer.hasZipMagic([0x50, 0x4B, 5, 6]))
        #expect(!ZipContainer.hasZipMagic(Array("PK..".utf8)))
        #expect(!ZipContainer.hasZipMagic([0x50, 0x4B]))
    }

    @Test func decodesCP437Names() {
        #expect(ZipDirectoryReader.decodeName([0x81, 0x62, 0x65, 0x72], utf8Flag: false) == "über")
    }
}
