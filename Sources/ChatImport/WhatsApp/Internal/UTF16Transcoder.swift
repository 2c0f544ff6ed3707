/// Presents a UTF-16 byte stream (after its BOM) as UTF-8, so line splitting works on bytes.
///
/// Lone surrogates become U+FFFD. Memory is one chunk.
final class UTF16ToUTF8Stream: ByteStream {
    private let base: ByteStream
    private let bigEndian: Bool
    private var carry: [UInt8] = []
    private var pendingHigh: UInt16?
    private var output: [UInt8] = []
    private var outputStart = 0
    private var atEnd = false
    /// Whether a lone surrogate or odd trailing byte was replaced.
    private(set) var replacedInvalid = false

    var totalBytes: Int64? { base.totalBytes }

    /// Wraps `base`, whose first two bytes (the BOM) have already been consumed by the caller
    /// or are still there: a leading BOM is dropped either way.
    init(_ base: ByteStream, bigEndian: Bool) {
        self.base = base
        self.bigEndian = bigEndian
    }

    func read(maxLength: Int) throws -> [UInt8] {
        while output.count - outputStart < maxLength, !atEnd {
            let chunk = try base.read(maxLength: 1 << 20)
            if chunk.isEmpty {
                atEnd = true
                if pendingHigh != nil || !carry.isEmpty {
                    append(0xFFFD)
                    replacedInvalid = true
                    pendingHigh = nil
                    carry = []
                }
                break
            }
            transcode(chunk)
        }
        let n = min(maxLength, output.count - outputStart)
        let out = Array(output[outputStart..<(outputStart + n)])
        outputStart += n
        if outputStart > 1 << 20 {
            output.removeSubrange(0..<outputStart)
            outputStart = 0
        }
        return out
    }

    private var sawFirstUnit = false

    private func transcode(_ chunk: [UInt8]) {
        var bytes = carry
        bytes.append(contentsOf: chunk)
        let whole = bytes.count & ~1
        carry = whole < bytes.count ? [bytes[bytes.count - 1]] : []
        var i = 0
        while i < whole {
            let unit =
                bigEndian ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i])
            i += 2
            if !sawFirstUnit {
                sawFirstUnit = true
                if unit == 0xFEFF { continue }
            }
            if (0xD800...0xDBFF).contains(unit) {
                if pendingHigh != nil {
                    append(0xFFFD)
                    replacedInvalid = true
                }
                pendingHigh = unit
                continue
            }
            if (0xDC00...0xDFFF).contains(unit) {
                if let high = pendingHigh {
                    append(0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(unit) - 0xDC00))
                    pendingHigh = nil
                } else {
                    append(0xFFFD)
                    replacedInvalid = true
                }
                continue
            }
            if pendingHigh != nil {
                append(0xFFFD)
                replacedInvalid = true
                pendingHigh = nil
            }
            append(UInt32(unit))
        }
    }

    private func append(_ scalar: UInt32) {
        let u = Unicode.Scalar(scalar) ?? "\u{FFFD}"
        UTF8.encode(u) { output.append($0) }
    }
}
