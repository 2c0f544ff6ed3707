/// The lines of a WhatsApp `.txt` export, decoded: UTF-8 (with or without BOM) or UTF-16
/// (with a BOM, or recognisable by its zero bytes), CRLF or LF.
struct WhatsAppTextFile {
    /// One decoded line.
    struct Line {
        var number: Int
        var text: String
        var scalars: [Unicode.Scalar]
        /// Invalid UTF-8 was replaced by U+FFFD.
        var hadInvalidBytes: Bool
        /// The line holds a NUL byte: the file is binary from here on.
        var hasNUL: Bool
        var isTruncated: Bool
    }

    private var reader: LineReader
    private let totalBytes: Int64?

    /// Opens `entry` of `container`, picking the encoding from its first bytes.
    init(_ container: any ExportContainer, entry: String) throws {
        let head = try container.prefix(of: entry, limit: 4)
        let stream = try container.open(entry)
        totalBytes = stream.totalBytes
        if let bigEndian = WhatsAppTextFile.utf16ByteOrder(head) {
            reader = LineReader(UTF16ToUTF8Stream(stream, bigEndian: bigEndian))
        } else {
            reader = LineReader(stream)
        }
    }

    /// `true` for UTF-16BE, `false` for UTF-16LE, `nil` for UTF-8.
    static func utf16ByteOrder(_ head: [UInt8]) -> Bool? {
        guard head.count >= 2 else { return nil }
        if head[0] == 0xFF, head[1] == 0xFE { return false }
        if head[0] == 0xFE, head[1] == 0xFF { return true }
        guard head.count >= 4 else { return nil }
        if head[0] != 0, head[1] == 0, head[2] != 0, head[3] == 0 { return false }
        if head[0] == 0, head[1] != 0, head[2] == 0, head[3] != 0 { return true }
        return nil
    }

    /// Bytes consumed so far (of the decoded stream) and the source's size, for progress.
    var progress: (Int64, Int64?) { (reader.bytesRead, totalBytes) }

    /// The next line, or `nil` at the end.
    mutating func next() throws -> Line? {
        guard let raw = try reader.next() else { return nil }
        var bytes = raw.bytes
        if raw.number == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let hasNUL = bytes.contains(0)
        if hasNUL, let nul = bytes.firstIndex(of: 0) { bytes = bytes[bytes.startIndex..<nul] }
        let text = String(decoding: bytes, as: UTF8.self)
        let invalid = !text.utf8.elementsEqual(bytes)
        return Line(
            number: raw.number, text: text, scalars: Array(text.unicodeScalars), hadInvalidBytes: invalid,
            hasNUL: hasNUL,
            isTruncated: raw.isTruncated)
    }

}
