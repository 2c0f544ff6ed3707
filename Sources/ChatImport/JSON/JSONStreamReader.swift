import ChatModel

/// An error that stops a streamed JSON file: a syntax error, truncation, or a limit, with the
/// byte offset and 1-based line where it was found.
package struct JSONStreamError: Error, Sendable, CustomStringConvertible {
    /// Offset of the offending byte (for truncation: the start of the incomplete value).
    package var offset: Int64
    /// 1-based line of `offset`.
    package var line: Int
    /// What went wrong, in words a user can act on.
    package var message: String
    /// The file ended before the document was complete.
    package var isTruncation: Bool
    /// The message with its line and byte offset.
    package var description: String { "\(message) (line \(line), byte \(offset))" }
}

/// Walks a JSON document chunk by chunk and hands out, one at a time, the elements of the
/// arrays at chosen paths (their raw bytes), and the members seen outside those arrays.
///
/// Paths are written `messages[*]` or `chats.list[*].messages[*]`: keys joined with `.`,
/// `[*]` for "every element of the array". Containers on the way to a chosen path are
/// entered (``Event/enter(path:isObject:at:)``/``Event/exit(path:at:)``); every other value is read whole and handed out
/// as ``Event/value(path:key:bytes:at:)``. Memory is bounded by the largest single value, not the file.
///
/// - Complexity: O(n) in the file's size; each byte is scanned once by the reader and once
///   more when the caller parses an element.
package final class JSONStreamReader {
    /// Where a value starts in the file.
    package struct Location: Sendable, Hashable {
        /// Offset of the value's first byte.
        package var offset: Int64
        /// 1-based line of the value's first byte.
        package var line: Int
    }

    /// What the reader found next.
    package enum Event {
        /// A container on the way to a chosen path was opened (`path` is its own path).
        case enter(path: String, isObject: Bool, at: Location)
        /// The container at `path` was closed.
        case exit(path: String, at: Location)
        /// A value outside the chosen arrays: `path` is its own path (`chats.list[*].name`),
        /// `key` its member name (nil in an array). `bytes` is the value's raw JSON.
        case value(path: String, key: String?, bytes: [UInt8], at: Location)
        /// An element of a chosen array: `path` is the pattern it matched, `index` its
        /// position in that array, `bytes` its raw JSON.
        case element(path: String, index: Int, bytes: [UInt8], at: Location)
    }

    private enum Component: Equatable {
        case key(String)
        case any
    }

    private struct Frame {
        var isObject: Bool
        var path: [Component]
        var pathString: String
        /// Object: 0 = before a key or `}`, 1 = after a value. Array: 0 = before a value or `]`, 1 = after a value.
        var state: Int
        var count: Int
    }

    /// Largest value (element, string, other member) accepted, in bytes.
    package let maxValueBytes: Int
    /// Deepest nesting accepted.
    package let maxDepth: Int

    private let stream: ByteStream
    private let patterns: [[Component]]
    private let patternStrings: [String]
    private var buffer: [UInt8] = []
    private var pos = 0
    /// File offset of `buffer[0]`.
    private var base: Int64 = 0
    private var line = 1
    private var atEnd = false
    private var stack: [Frame] = []
    private var started = false
    private var finished = false
    private var chunkSize: Int
    /// Bytes read from the stream so far (for progress).
    package private(set) var bytesRead: Int64 = 0
    /// The stream's total size when known.
    package var totalBytes: Int64? { stream.totalBytes }

    /// Makes a reader of `stream` handing out the elements of the arrays at `elementPaths`.
    package init(
        _ stream: ByteStream, elementPaths: [String], maxValueBytes: Int = 64 << 20,
        maxDepth: Int = JSONParser.maxDepth,
        chunkSize: Int = 1 << 20
    ) {
        self.stream = stream
        self.maxValueBytes = maxValueBytes
        self.maxDepth = maxDepth
        self.chunkSize = max(chunkSize, 16)
        var parsed: [[Component]] = []
        for p in elementPaths { parsed.append(JSONStreamReader.components(of: p)) }
        patterns = parsed
        patternStrings = elementPaths
    }

    /// The current position: offset and line of the next unread byte.
    package var location: Location { Location(offset: base + Int64(pos), line: line) }

    private static func components(of path: String) -> [Component] {
        var out: [Component] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: true) {
            var s = Substring(part)
            var anys = 0
            while s.hasSuffix("[*]") {
                s = s.dropLast(3)
                anys += 1
            }
            if !s.isEmpty { out.append(.key(String(s))) }
            for _ in 0..<anys { out.append(.any) }
        }
        return out
    }

    private func fail(_ message: String, at offset: Int64? = nil, line: Int? = nil, truncated: Bool = false)
        -> JSONStreamError
    {
        JSONStreamError(
            offset: offset ?? base + Int64(pos), line: line ?? self.line, message: message, isTruncation: truncated)
    }

    // MARK: Buffer

    /// Reads more bytes, keeping everything from `keepFrom` on. Returns false at the end.
    private func refill(keepFrom: Int) throws -> Bool {
        if atEnd { return false }
        if keepFrom > 0 {
            buffer.removeSubrange(0..<keepFrom)
            base += Int64(keepFrom)
            pos -= keepFrom
        }
        // Grow the read with the kept data so that a long value costs amortised O(n).
        let chunk = try stream.read(maxLength: max(chunkSize, buffer.count))
        if chunk.isEmpty {
            atEnd = true
            return false
        }
        bytesRead += Int64(chunk.count)
        buffer.append(contentsOf: chunk)
        return true
    }

    /// Skips whitespace (and a leading BOM); returns the next byte without consuming it, nil at the end.
    private func peek() throws -> UInt8? {
        while true {
            while pos < buffer.count {
                let c = buffer[pos]
                switch c {
                case 0x0A:
                    line += 1
                    pos += 1
                case 0x20, 0x09, 0x0D: pos += 1
                default: return c
                }
            }
            if try !refill(keepFrom: pos) { return nil }
        }
    }

    // MARK: Events

    /// The next event, or nil when the document is complete.
    ///
    /// Throws ``JSONStreamError`` on a syntax error, truncation or a limit; events handed out
    /// before stay valid, and the reader must not be used after an error.
    package func next() throws(JSONStreamError) -> Event? {
        do {
            return try step()
        } catch let e as JSONStreamError {
            finished = true
            throw e
        } catch let e as JSONSyntaxError {
            finished = true
            throw fail(e.message)
        } catch {
            finished = true
            throw fail("read error: \(error)")
        }
    }

    private func step() throws -> Event? {
        if finished { return nil }
        if !started {
            started = true
            _ = try peek()
            if buffer.count - pos >= 3, buffer[pos] == 0xEF, buffer[pos + 1] == 0xBB, buffer[pos + 2] == 0xBF {
                pos += 3
            }
            guard try peek() != nil else { throw fail("the file is empty", truncated: true) }
            return try startValue(path: [], pathString: "", key: nil)
        }
        while true {
            guard var frame = stack.last else {
                if try peek() != nil { throw fail("unexpected data after the JSON document") }
                finished = true
                return nil
            }
            guard let c = try peek() else {
                throw fail("the file ends before the JSON document is complete", truncated: true)
            }
            let closer: UInt8 = frame.isObject ? 0x7D : 0x5D
            if c == closer, frame.state == 0 ? frame.count == 0 : true {
                let at = location
                pos += 1
                stack.removeLast()
                return .exit(path: frame.pathString, at: at)
            }
            if frame.state == 1 {
                guard c == 0x2C else {
                    throw fail(frame.isObject ? "expected ',' or '}'" : "expected ',' or ']'")
                }
                pos += 1
                frame.state = 0
                stack[stack.count - 1] = frame
                guard try peek() != nil else {
                    throw fail("the file ends before the JSON document is complete", truncated: true)
                }
                if (try peek()) == closer { throw fail("trailing ',' before '\(Character(Unicode.Scalar(closer)))'") }
                continue
            }
            // state 0: a value (array) or a key and a value (object).
            frame.state = 1
            frame.count += 1
            stack[stack.count - 1] = frame
            if frame.isObject {
                guard c == 0x22 else { throw fail("expected a string key") }
                let end = try scanValue(from: pos, at: location)
                let keyBytes = Array(buffer[pos..<end])
                pos = end
                guard case .string(let key) = try JSONParser.parse(keyBytes) else {
                    throw fail("expected a string key")
                }
                guard try peek() == 0x3A else { throw fail("expected ':' after a key") }
                pos += 1
                guard try peek() != nil else {
                    throw fail("the file ends before the JSON document is complete", truncated: true)
                }
                let path = frame.path + [.key(key)]
                let pathString = frame.pathString.isEmpty ? key : frame.pathString + "." + key
                return try startValue(path: path, pathString: pathString, key: key, index: frame.count - 1)
            } else {
                return try startValue(
                    path: frame.path + [.any], pathString: frame.pathString + "[*]", key: nil, index: frame.count - 1)
            }
        }
    }

    /// Reads or enters the value starting at `pos` (whitespace already skipped).
    private func startValue(path: [Component], pathString: String, key: String?, index: Int = 0) throws -> Event {
        let at = location
        let c = buffer[pos]
        if let k = patterns.firstIndex(of: path) {
            let end = try scanValue(from: pos, at: at)
            let bytes = Array(buffer[pos..<end])
            pos = end
            return .element(path: patternStrings[k], index: index, bytes: bytes, at: at)
        }
        if c == 0x7B || c == 0x5B,
            patterns.contains(where: { $0.count > path.count && Array($0[0..<path.count]) == path })
        {
            guard stack.count < maxDepth else { throw fail("JSON nested deeper than \(maxDepth) levels") }
            pos += 1
            stack.append(Frame(isObject: c == 0x7B, path: path, pathString: pathString, state: 0, count: 0))
            return .enter(path: pathString, isObject: c == 0x7B, at: at)
        }
        let end = try scanValue(from: pos, at: at)
        let bytes = Array(buffer[pos..<end])
        pos = end
        return .value(path: pathString, key: key, bytes: bytes, at: at)
    }

    /// Finds the end of the value starting at `start` without decoding it, counting lines,
    /// checking bracket balance, nesting and size. Returns the index just past the value; the
    /// buffer keeps the value's bytes from `start` (indices are adjusted for compaction).
    private func scanValue(from start: Int, at: Location) throws -> Int {
        var start = start
        var i = start
        var depth = 0
        var closers: [UInt8] = []
        var inString = false
        var escaped = false
        var lines = 0
        let isScalar = buffer[start] != 0x7B && buffer[start] != 0x5B && buffer[start] != 0x22
        let outerDepth = stack.count
        while true {
            let count = buffer.count
            let result: Int? = try buffer.withUnsafeBufferPointer { b throws -> Int? in
                while i < count {
                    let c = b[i]
                    if c == 0x0A { lines += 1 }
                    if isScalar {
                        switch c {
                        case 0x2C, 0x7D, 0x5D, 0x20, 0x09, 0x0A, 0x0D:
                            if c == 0x0A { lines -= 1 }
                            return i
                        default: i += 1
                        }
                        continue
                    }
                    if inString {
                        if escaped {
                            escaped = false
                        } else if c == 0x5C {
                            escaped = true
                        } else if c == 0x22 {
                            inString = false
                            if depth == 0 { return i + 1 }
                        }
                        i += 1
                        continue
                    }
                    switch c {
                    case 0x22: inString = true
                    case 0x7B, 0x5B:
                        depth += 1
                        if depth + outerDepth > maxDepth {
                            throw fail(
                                "JSON nested deeper than \(maxDepth) levels", at: base + Int64(i), line: at.line + lines
                            )
                        }
                        closers.append(c == 0x7B ? 0x7D : 0x5D)
                    case 0x7D, 0x5D:
                        guard let want = closers.popLast(), want == c else {
                            throw fail(
                                "unexpected '\(Character(Unicode.Scalar(c)))'", at: base + Int64(i),
                                line: at.line + lines)
                        }
                        depth -= 1
                        if depth == 0 { return i + 1 }
                    default: break
                    }
                    i += 1
                }
                return nil
            }
            if let end = result {
                line += lines
                return end
            }
            if i - start > maxValueBytes {
                throw fail(
                    "a value starting here is larger than \(maxValueBytes >> 20) MiB", at: at.offset, line: at.line)
            }
            let keep = min(start, pos)
            let shift = keep
            if try !refill(keepFrom: keep) {
                if isScalar {
                    line += lines
                    return i
                }
                throw fail(
                    "the file ends inside a value starting here (\(i - start) bytes read)", at: at.offset,
                    line: at.line,
                    truncated: true)
            }
            start -= shift
            i -= shift
        }
    }
}
