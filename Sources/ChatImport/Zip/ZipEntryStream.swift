/// Streams one zip entry: reads compressed bytes in chunks, inflates them, checks the CRC-32
/// and the declared size. Memory stays bounded by the chunk size.
final class ZipEntryStream: ByteStream {
    private static let inputChunk = 256 << 10

    private let file: ZipFile
    private let entry: ZipContainer.Entry
    private let displayName: String
    private let inflater: RawInflater?
    private var inputOffset: Int64
    private var inputRemaining: Int64
    private var input: [UInt8] = []
    private var inputUsed = 0
    private var produced: Int64 = 0
    private var crc: UInt32 = 0
    private var finished = false

    var totalBytes: Int64? { entry.uncompressedSize }

    init(file: ZipFile, entry: ZipContainer.Entry, displayName: String) throws(ZipError) {
        self.file = file
        self.entry = entry
        self.displayName = displayName
        let header = try file.read(at: entry.localHeaderOffset, count: 30)
        guard header.le32(0) == 0x0403_4B50 else { throw ZipError(message: "damaged local header") }
        let dataStart = entry.localHeaderOffset + 30 + Int64(header.le16(26)) + Int64(header.le16(28))
        guard dataStart + entry.compressedSize <= file.size else {
            throw ZipError(message: "entry data runs past the end of the zip (truncated)")
        }
        inputOffset = dataStart
        inputRemaining = entry.compressedSize
        inflater = entry.method == 8 ? try RawInflater() : nil
    }

    func read(maxLength: Int) throws -> [UInt8] {
        do {
            return try readChunk(maxLength: maxLength)
        } catch {
            finished = true
            throw ImportError("\(displayName): \(error.message)")
        }
    }

    private func readChunk(maxLength: Int) throws(ZipError) -> [UInt8] {
        guard !finished, maxLength > 0 else { return [] }
        var out: [UInt8] = []
        if let inflater {
            while out.isEmpty {
                if inputUsed == input.count {
                    guard inputRemaining > 0 else { throw ZipError(message: "deflate data ends early (corrupt entry)") }
                    let n = Int(min(Int64(ZipEntryStream.inputChunk), inputRemaining))
                    input = try file.read(at: inputOffset, count: n)
                    inputUsed = 0
                    inputOffset += Int64(n)
                    inputRemaining -= Int64(n)
                }
                let room = Int(min(Int64(maxLength), entry.uncompressedSize - produced + 1))
                let (consumed, ended) = try inflater.inflate(
                    input, from: inputUsed, into: &out, maxOutput: max(room, 1))
                inputUsed += consumed
                try account(out.count)
                if ended {
                    try finish()
                    break
                }
                if consumed == 0 && out.isEmpty && inputUsed < input.count {
                    throw ZipError(message: "deflate stream makes no progress (corrupt entry)")
                }
            }
            crc = zipCRC32(crc, out)
            if finished { try checkCRC() }
        } else {
            let n = Int(min(Int64(maxLength), inputRemaining))
            out = try file.read(at: inputOffset, count: n)
            inputOffset += Int64(n)
            inputRemaining -= Int64(n)
            try account(n)
            crc = zipCRC32(crc, out)
            if inputRemaining == 0 {
                try finish()
                try checkCRC()
            }
        }
        return out
    }

    /// Stops an entry whose output grows past its declared size (a lying header).
    private func account(_ n: Int) throws(ZipError) {
        produced += Int64(n)
        if produced > entry.uncompressedSize {
            throw ZipError(
                message: "entry inflates past its declared size of \(entry.uncompressedSize) bytes; refusing it")
        }
    }

    private func finish() throws(ZipError) {
        finished = true
        guard produced == entry.uncompressedSize else {
            throw ZipError(message: "entry is \(produced) bytes, but the zip declares \(entry.uncompressedSize)")
        }
    }

    private func checkCRC() throws(ZipError) {
        guard crc == entry.crc else {
            throw ZipError(
                message: "CRC-32 mismatch (expected \(hex(entry.crc)), got \(hex(crc))): the entry is corrupt")
        }
    }

    private func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 8 - s.count) + s
    }
}
