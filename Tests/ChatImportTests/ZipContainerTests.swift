import ChatTestSupport
import Foundation
import Testing

@testable import ChatImport

/// Builds small zip files in tests, stored or deflated, with the lies zip bombs tell.
struct TestZip {
    struct Entry {
        var name: String
        var data: [UInt8]
        var deflate = true
        var flags: UInt16 = 0x0800
        var unixMode: UInt32? = nil
        var method: UInt16? = nil
        var declaredSize: Int64? = nil
        var crc: UInt32? = nil
    }
    var entries: [Entry] = []
    var zip64 = false

    mutating func add(_ name: String, _ text: String, deflate: Bool = true) {
        entries.append(Entry(name: name, data: Array(text.utf8), deflate: deflate))
    }

    mutating func add(_ name: String, bytes: [UInt8], deflate: Bool = true) {
        entries.append(Entry(name: name, data: bytes, deflate: deflate))
    }

    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func le16(_ v: UInt16, _ a: inout [UInt8]) { a += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32, _ a: inout [UInt8]) {
            le16(UInt16(v & 0xFFFF), &a)
            le16(UInt16(v >> 16), &a)
        }
        func le64(_ v: UInt64, _ a: inout [UInt8]) {
            le32(UInt32(v & 0xFFFF_FFFF), &a)
            le32(UInt32(v >> 32), &a)
        }
        for e in entries {
            let payload = e.deflate ? (rawDeflate(e.data) ?? []) : e.data
            let method = e.method ?? (e.deflate ? 8 : 0)
            let crc = e.crc ?? zipCRC32(0, e.data)
            let size = UInt32(e.declaredSize ?? Int64(e.data.count))
            let offset = UInt32(out.count)
            let name = Array(e.name.utf8)
            le32(0x0403_4B50, &out)
            le16(20, &out)
            le16(e.flags, &out)
            le16(method, &out)
            le32(0, &out)
            le32(crc, &out)
            le32(UInt32(payload.count), &out)
            le32(size, &out)
            le16(UInt16(name.count), &out)
            le16(0, &out)
            out += name
            out += payload
            var extra: [UInt8] = []
            if zip64 {
                le16(1, &extra)
                le16(24, &extra)
                le64(UInt64(size), &extra)
                le64(UInt64(payload.count), &extra)
                le64(UInt64(offset), &extra)
            }
            le32(0x0201_4B50, &central)
            le16(e.unixMode == nil ? 20 : 0x031E, &central)
            le16(20, &central)
            le16(e.flags, &central)
            le16(method, &central)
            le32(0, &central)
            le32(crc, &central)
            le32(zip64 ? 0xFFFF_FFFF : UInt32(payload.count), &central)
            le32(zip64 ? 0xFFFF_FFFF : size, &central)
            le16(UInt16(name.count), &central)
            le16(UInt16(extra.count), &central)
            le16(0, &central)
            le16(0, &central)
            le16(0, &central)
            le32((e.unixMode ?? 0) << 16, &central)
            le32(zip64 ? 0xFFFF_FFFF : offset, &central)
            central += name
            central += extra
        }
        let cdOffset = out.count
        out += central
        if zip64 {
            let z64 = out.count
            le32(0x0606_4B50, &out)
            le64(44, &out)
            le16(45, &out)
            le16(45, &out)
            le32(0, &out)
            le32(0, &out)
            le64(UInt64(entries.count), &out)
            le64(UInt64(entries.count), &out)
            le64(UInt64(central.count), &out)
            le64(UInt64(cdOffset), &out)
            le32(0x0706_4B50, &out)
            le32(0, &out)
            le64(UInt64(z64), &out)
            le32(1, &out)
        }
        le32(0x0605_4B50, &out)
        le16(0, &out)
        le16(0, &out)
        le16(zip64 ? 0xFFFF : UInt16(entries.count), &out)
        le16(zip64 ? 0xFFFF : UInt16(entries.count), &out)
        le32(zip64 ? 0xFFFF_FFFF : UInt32(central.count), &out)
        le32(zip64 ? 0xFFFF_FFFF : UInt32(cdOffset), &out)
        le16(0, &out)
        return out
    }

    /// Writes the zip into a fresh temporary folder and returns its path.
    func write(named name: String = "test.zip") throws -> String {
        try TestFiles.write(bytes(), named: name)
    }
}

/// Temporary files for tests.
enum TestFiles {
    static func folder() throws -> String {
        // Inside the test process's folder, which is removed when the process exits.
        TestTemporary.folder("chatimport")
    }

    static func write(_ bytes: [UInt8], named name: String, in dir: String? = nil) throws -> String {
        let d = try dir ?? folder()
        let path = d + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func write(_ text: String, named name: String, in dir: String? = nil) throws -> String {
        try write(Array(text.utf8), named: name, in: dir)
    }
}

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
