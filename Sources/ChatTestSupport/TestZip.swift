import ChatImport
import Foundation

/// Builds small zip files in tests, stored or deflated, with the lies zip bombs tell.
package struct TestZip {
    /// One entry, with what its headers may claim instead of the truth.
    package struct Entry {
        package var name: String
        package var data: [UInt8]
        package var deflate: Bool
        package var flags: UInt16
        package var unixMode: UInt32?
        package var method: UInt16?
        package var declaredSize: Int64?
        package var crc: UInt32?

        package init(
            name: String, data: [UInt8], deflate: Bool = true, flags: UInt16 = 0x0800, unixMode: UInt32? = nil,
            method: UInt16? = nil, declaredSize: Int64? = nil, crc: UInt32? = nil
        ) {
            self.name = name
            self.data = data
            self.deflate = deflate
            self.flags = flags
            self.unixMode = unixMode
            self.method = method
            self.declaredSize = declaredSize
            self.crc = crc
        }
    }

    package init() {}

    package var entries: [Entry] = []
    package var zip64 = false

    package mutating func add(_ name: String, _ text: String, deflate: Bool = true) {
        entries.append(Entry(name: name, data: Array(text.utf8), deflate: deflate))
    }

    package mutating func add(_ name: String, bytes: [UInt8], deflate: Bool = true) {
        entries.append(Entry(name: name, data: bytes, deflate: deflate))
    }

    package func bytes() -> [UInt8] {
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
    package func write(named name: String = "test.zip") throws -> String {
        try TestFiles.write(bytes(), named: name)
    }
}

/// Temporary files for tests.
package enum TestFiles {
    package static func folder() throws -> String {
        // Inside the test process's folder, which is removed when the process exits.
        TestTemporary.folder("chatimport")
    }

    package static func write(_ bytes: [UInt8], named name: String, in dir: String? = nil) throws -> String {
        let d = try dir ?? folder()
        let path = d + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    package static func write(_ text: String, named name: String, in dir: String? = nil) throws -> String {
        try write(Array(text.utf8), named: name, in: dir)
    }
}
