/// One record of a zip's central directory, as written (names not yet checked).
struct ZipDirectoryEntry {
    var name: String
    var flags: UInt16
    var method: UInt16
    var crc: UInt32
    var compressedSize: Int64
    var uncompressedSize: Int64
    var localHeaderOffset: Int64
    var isDirectory: Bool
    var isSymlink: Bool
}

/// Reads the end-of-central-directory record (zip64 too) and the central directory.
enum ZipDirectoryReader {
    static let eocdSignature: UInt32 = 0x0605_4B50
    static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    static let zip64EOCDSignature: UInt32 = 0x0606_4B50
    static let centralSignature: UInt32 = 0x0201_4B50

    static func read(_ file: ZipFile) throws(ZipError) -> [ZipDirectoryEntry] {
        // The EOCD is 22 bytes plus a comment of up to 65535 bytes, at the very end.
        let tailLength = Int(min(file.size, 22 + 65535))
        guard tailLength >= 22 else { throw ZipError(message: "too short to be a zip (truncated?)") }
        let tailStart = file.size - Int64(tailLength)
        let tail = try file.read(at: tailStart, count: tailLength)
        var eocdAt: Int? = nil
        var i = tail.count - 22
        while i >= 0 {
            if tail.le32(i) == eocdSignature, i + 22 + Int(tail.le16(i + 20)) <= tail.count {
                eocdAt = i
                break
            }
            i -= 1
        }
        guard let e = eocdAt else {
            throw ZipError(message: "no end-of-central-directory record (truncated or not a zip)")
        }
        var count = Int64(tail.le16(e + 10))
        var cdSize = Int64(tail.le32(e + 12))
        var cdOffset = Int64(tail.le32(e + 16))
        let eocdOffset = tailStart + Int64(e)
        // Zip64: a locator 20 bytes before the EOCD points at the zip64 EOCD record.
        if eocdOffset >= 20 {
            let loc = try file.read(at: eocdOffset - 20, count: 20)
            if loc.le32(0) == zip64LocatorSignature {
                let z64Offset = Int64(clamping: loc.le64(8))
                let z = try file.read(at: z64Offset, count: 56)
                guard z.le32(0) == zip64EOCDSignature else {
                    throw ZipError(message: "bad zip64 end-of-central-directory record")
                }
                count = Int64(clamping: z.le64(32))
                cdSize = Int64(clamping: z.le64(40))
                cdOffset = Int64(clamping: z.le64(48))
            }
        }
        guard cdOffset >= 0, cdSize >= 0, cdOffset + cdSize <= file.size else {
            throw ZipError(message: "the central directory lies outside the file (truncated zip)")
        }
        guard cdSize <= 1 << 30 else { throw ZipError(message: "central directory larger than 1 GiB") }
        let cd = try file.read(at: cdOffset, count: Int(cdSize))
        var out: [ZipDirectoryEntry] = []
        out.reserveCapacity(Int(min(count, 1 << 20)))
        var p = 0
        for n in 0..<count {
            guard p + 46 <= cd.count, cd.le32(p) == centralSignature else {
                throw ZipError(message: "central directory record \(n + 1) of \(count) is damaged")
            }
            let madeBy = cd.le16(p + 4)
            let flags = cd.le16(p + 8)
            let method = cd.le16(p + 10)
            let crc = cd.le32(p + 16)
            var compressed = Int64(cd.le32(p + 20))
            var uncompressed = Int64(cd.le32(p + 24))
            let nameLength = Int(cd.le16(p + 28))
            let extraLength = Int(cd.le16(p + 30))
            let commentLength = Int(cd.le16(p + 32))
            let externalAttributes = cd.le32(p + 38)
            var offset = Int64(cd.le32(p + 42))
            let nameStart = p + 46
            let extraStart = nameStart + nameLength
            let next = extraStart + extraLength + commentLength
            guard next <= cd.count else { throw ZipError(message: "central directory record \(n + 1) is truncated") }
            let nameBytes = Array(cd[nameStart..<extraStart])
            // Zip64 extended information: only the fields whose 32-bit value is saturated, in order.
            var x = extraStart
            while x + 4 <= extraStart + extraLength {
                let id = cd.le16(x)
                let size = Int(cd.le16(x + 2))
                if id == 0x0001 {
                    var f = x + 4
                    let end = min(x + 4 + size, extraStart + extraLength)
                    if uncompressed == 0xFFFF_FFFF, f + 8 <= end {
                        uncompressed = Int64(clamping: cd.le64(f))
                        f += 8
                    }
                    if compressed == 0xFFFF_FFFF, f + 8 <= end {
                        compressed = Int64(clamping: cd.le64(f))
                        f += 8
                    }
                    if offset == 0xFFFF_FFFF, f + 8 <= end {
                        offset = Int64(clamping: cd.le64(f))
                        f += 8
                    }
                }
                x += 4 + size
            }
            let name = decodeName(nameBytes, utf8Flag: flags & 0x0800 != 0)
            let unixMode = madeBy >> 8 == 3 ? (externalAttributes >> 16) & 0o170000 : 0
            out.append(
                ZipDirectoryEntry(
                    name: name, flags: flags, method: method, crc: crc, compressedSize: compressed,
                    uncompressedSize: uncompressed, localHeaderOffset: offset,
                    isDirectory: name.hasSuffix("/") || unixMode == 0o040000
                        || (externalAttributes & 0x10 != 0 && uncompressed == 0),
                    isSymlink: unixMode == 0o120000))
            p = next
        }
        return out
    }

    /// Names are UTF-8 when flagged (and in practice often without the flag); otherwise CP437.
    static func decodeName(_ bytes: [UInt8], utf8Flag: Bool) -> String {
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        if utf8Flag { return String(decoding: bytes, as: UTF8.self) }
        var s = ""
        for b in bytes {
            if b < 0x80 {
                s.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                s.unicodeScalars.append(cp437High[Int(b - 0x80)])
            }
        }
        return s
    }

    private static let cp437High: [Unicode.Scalar] = Array(
        "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{00A0}"
            .unicodeScalars)
}
