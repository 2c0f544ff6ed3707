/// Reads the text out of an iMessage `attributedBody`: a NeXT "typedstream" (the format of
/// `NSArchiver`, not a keyed-archiver plist) holding an `NSAttributedString` whose first value
/// is an `NSString`.
///
/// The stream starts with a version byte, the signature `streamtyped` and a system version;
/// then come value groups, each a type string (`@` object, `+` bytes with a length, `i`
/// integer…) followed by one value per type character. An object is `0x84` (new), its class
/// chain (`0x84` + name + version, up to `0x85`, or a reference to a class seen before), its
/// value groups, and `0x86`. Integers are one byte, or `0x81` + 2 bytes / `0x82` + 4 bytes,
/// little-endian. Strings, classes and objects seen before are written as references
/// (`0x92` + their index). The text is the first `+` value inside an object whose class chain
/// contains `NSString`; nothing is found by fixed offsets, and bytes that end early or make no
/// sense give `nil`, never a crash.
enum TypedStreamDecoder {
    /// The text of the first `NSString` in `bytes`, or `nil` when there is none or the bytes
    /// are not a typedstream. Bytes that are not valid UTF-8 are read as U+FFFD.
    static func text(_ bytes: [UInt8]) -> String? {
        var parser = TypedStreamParser(bytes: bytes)
        guard let found = try? parser.firstString() else { return nil }
        return String(validating: found, as: UTF8.self) ?? String(decoding: found, as: UTF8.self)
    }

    /// Whether the text's bytes are valid UTF-8 (a blob that decodes only with U+FFFD is
    /// reported).
    static func isValidText(_ bytes: [UInt8]) -> Bool {
        var parser = TypedStreamParser(bytes: bytes)
        guard let found = try? parser.firstString() else { return true }
        return String(validating: found, as: UTF8.self) != nil
    }
}

/// The typedstream reader behind ``TypedStreamDecoder``: one pass over the bytes, with the
/// tables of shared strings and of objects and classes that references point into.
private struct TypedStreamParser {
    enum Failure: Error { case truncated, malformed, unsupported }

    private enum Tag {
        static let int16: UInt8 = 0x81
        static let int32: UInt8 = 0x82
        static let real: UInt8 = 0x83
        static let new: UInt8 = 0x84
        static let nilValue: UInt8 = 0x85
        static let endOfObject: UInt8 = 0x86
        static let firstReference: UInt8 = 0x92
    }

    /// An entry of the table that object and class references index.
    private enum Shared {
        case object
        case objectClass(name: [UInt8], superclass: Int?)
    }

    /// Nested objects deeper than this are refused (a hostile blob could nest without end).
    private static let maxDepth = 32

    let bytes: [UInt8]
    private var position = 0
    private var strings: [[UInt8]] = []
    private var table: [Shared] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// The bytes of the first `NSString`'s text, or `nil` when the stream holds none.
    mutating func firstString() throws -> [UInt8]? {
        try readHeader()
        while position < bytes.count {
            guard let types = try sharedString() else { return nil }
            for type in types {
                if let found = try value(of: type, inStringObject: false, depth: 0) { return found }
            }
        }
        return nil
    }

    // MARK: Header

    private mutating func readHeader() throws {
        let version = try byte()
        let length = Int(try byte())
        guard version == 4 || version == 3, length == 11 else { throw Failure.malformed }
        guard try take(length) == Array("streamtyped".utf8) else { throw Failure.malformed }
        _ = try integer()  // the system version (1000)
    }

    // MARK: Values

    /// One value of `type`; the text when it is the string looked for.
    private mutating func value(of type: UInt8, inStringObject: Bool, depth: Int) throws -> [UInt8]? {
        switch type {
        case UInt8(ascii: "@"):
            return try object(depth: depth + 1)
        case UInt8(ascii: "+"):
            let text = try take(try length())
            return inStringObject ? text : nil
        case UInt8(ascii: "#"):
            _ = try classChain()
        case UInt8(ascii: "*"), UInt8(ascii: ":"):
            _ = try sharedString()
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            try real(width: type == UInt8(ascii: "f") ? 4 : 8)
        case UInt8(ascii: "c"), UInt8(ascii: "C"), UInt8(ascii: "s"), UInt8(ascii: "S"), UInt8(ascii: "i"),
            UInt8(ascii: "I"), UInt8(ascii: "l"), UInt8(ascii: "L"), UInt8(ascii: "q"), UInt8(ascii: "Q"),
            UInt8(ascii: "B"):
            _ = try integer()
        default:
            // Arrays, structs and pointers never come before the text in an attributedBody.
            throw Failure.unsupported
        }
        return nil
    }

    /// An object: nil, a reference, or a new object with its class chain and value groups.
    private mutating func object(depth: Int) throws -> [UInt8]? {
        guard depth <= Self.maxDepth else { throw Failure.malformed }
        let head = try byte()
        if head == Tag.nilValue { return nil }
        guard head == Tag.new else {
            _ = try reference(head, in: table.count)
            return nil
        }
        table.append(.object)
        let chain = try classChain()
        let isString = chain.contains(Array("NSString".utf8))
        while true {
            guard position < bytes.count else { throw Failure.truncated }
            if bytes[position] == Tag.endOfObject {
                position += 1
                return nil
            }
            guard let types = try sharedString() else { throw Failure.malformed }
            for type in types {
                if let found = try value(of: type, inStringObject: isString, depth: depth) { return found }
            }
        }
    }

    /// A class and its superclasses, most derived first; empty for nil.
    private mutating func classChain() throws -> [[UInt8]] {
        try classIndex().map { chain(from: $0) } ?? []
    }

    /// The table index of a class read with its superclasses (new ones are registered, most
    /// derived first, then linked), or `nil` for a nil class. Iterative: a hostile chain of
    /// classes cannot exhaust the stack.
    private mutating func classIndex() throws -> Int? {
        var newClasses: [(index: Int, name: [UInt8])] = []
        var tail: Int? = nil
        while true {
            let head = try byte()
            if head == Tag.nilValue { break }
            guard head == Tag.new else {
                tail = try reference(head, in: table.count)
                break
            }
            guard let name = try sharedString() else { throw Failure.malformed }
            _ = try integer()  // the class version
            newClasses.append((table.count, name))
            table.append(.objectClass(name: name, superclass: nil))
        }
        var next = tail
        for entry in newClasses.reversed() {
            table[entry.index] = .objectClass(name: entry.name, superclass: next)
            next = entry.index
        }
        return next
    }

    /// The class chain starting at a table entry (a reference may point at a class).
    private func chain(from index: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var next: Int? = index
        while let i = next, table.indices.contains(i), out.count < table.count {
            guard case .objectClass(let name, let superclass) = table[i] else { break }
            out.append(name)
            next = superclass
        }
        return out
    }

    /// A shared string (type strings, class names): nil, new, or a reference.
    private mutating func sharedString() throws -> [UInt8]? {
        let head = try byte()
        if head == Tag.nilValue { return nil }
        guard head == Tag.new else { return strings[try reference(head, in: strings.count)] }
        let text = try take(try length())
        strings.append(text)
        return text
    }

    /// The table index a reference byte stands for, checked against the table's size.
    private func reference(_ head: UInt8, in count: Int) throws -> Int {
        guard head >= Tag.firstReference else { throw Failure.malformed }
        let index = Int(head - Tag.firstReference)
        guard index < count else { throw Failure.malformed }
        return index
    }

    // MARK: Numbers and bytes

    /// A signed integer: a literal byte, or a tag and 2 or 4 little-endian bytes.
    private mutating func integer() throws -> Int {
        let head = try byte()
        switch head {
        case Tag.int16: return Int(Int16(bitPattern: UInt16(try littleEndian(2))))
        case Tag.int32: return Int(Int32(bitPattern: UInt32(try littleEndian(4))))
        case Tag.real, Tag.new, Tag.nilValue, Tag.endOfObject: throw Failure.malformed
        default: return Int(Int8(bitPattern: head))
        }
    }

    /// A length: an unsigned literal byte, or a tag and 2 or 4 little-endian bytes.
    private mutating func length() throws -> Int {
        let head = try byte()
        switch head {
        case Tag.int16: return try littleEndian(2)
        case Tag.int32: return try littleEndian(4)
        case 0x80...0x91: throw Failure.malformed
        default: return Int(head)
        }
    }

    private mutating func real(width: Int) throws {
        if position < bytes.count, bytes[position] == Tag.real {
            position += 1
            _ = try take(width)
        } else {
            _ = try integer()
        }
    }

    private mutating func littleEndian(_ count: Int) throws -> Int {
        try take(count).reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    private mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw Failure.truncated }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func take(_ count: Int) throws -> [UInt8] {
        guard count >= 0, count <= bytes.count - position else { throw Failure.truncated }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }
}
