/// Reads the shape of a JSON document from a prefix that may be cut anywhere: which object
/// keys appear near the top, and their string values. For sniffing formats, never for importing.
struct JSONPrefixScanner {
    /// What the prefix showed.
    struct Shape {
        enum Root { case object, array, scalar, none }
        var root: Root = .none
        /// Key paths down to ``JSONPrefixScanner/maxDepth``: `guild`, `result.apiChat`, `[].type`.
        var paths: Set<String> = []
        /// String values at those paths (first occurrence).
        var strings: [String: String] = [:]

        func has(_ path: String) -> Bool { paths.contains(path) }
    }

    static let maxDepth = 3

    private let b: [UInt8]
    private var i = 0
    private var shape = Shape()

    private init(_ bytes: [UInt8]) { b = bytes }

    /// Scans the first JSON value of `bytes` (after a BOM and whitespace).
    static func scan(_ bytes: some Collection<UInt8>) -> Shape {
        var s = JSONPrefixScanner(Array(bytes))
        if s.b.starts(with: [0xEF, 0xBB, 0xBF]) { s.i = 3 }
        s.space()
        guard s.i < s.b.count else { return s.shape }
        switch s.b[s.i] {
        case UInt8(ascii: "{"): s.shape.root = .object
        case UInt8(ascii: "["): s.shape.root = .array
        default: s.shape.root = .scalar
        }
        _ = s.value(path: "", depth: 0)
        return s.shape
    }

    private mutating func space() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    /// Skips one value, recording keys; false when the prefix ends or the JSON is invalid.
    private mutating func value(path: String, depth: Int) -> Bool {
        // Nothing below maxDepth is recorded: skip it without recursion, so that hostile
        // nesting (`[[[[…` a million deep) cannot overflow the stack.
        if depth >= JSONPrefixScanner.maxDepth { return skip() }
        space()
        guard i < b.count else { return false }
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            space()
            if i < b.count, b[i] == UInt8(ascii: "}") {
                i += 1
                return true
            }
            while true {
                space()
                guard i < b.count, b[i] == UInt8(ascii: "\""), let key = string() else { return false }
                let p = path.isEmpty ? key : path + "." + key
                if depth < JSONPrefixScanner.maxDepth { shape.paths.insert(p) }
                space()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { return false }
                i += 1
                space()
                if i < b.count, b[i] == UInt8(ascii: "\""), depth < JSONPrefixScanner.maxDepth {
                    guard let s = string() else { return false }
                    if shape.strings[p] == nil { shape.strings[p] = s }
                } else {
                    guard value(path: p, depth: depth + 1) else { return false }
                }
                space()
                guard i < b.count else { return false }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if b[i] == UInt8(ascii: "}") {
                    i += 1
                    return true
                }
                return false
            }
        case UInt8(ascii: "["):
            i += 1
            space()
            if i < b.count, b[i] == UInt8(ascii: "]") {
                i += 1
                return true
            }
            let p = path.isEmpty ? "[]" : path + ".[]"
            while true {
                guard value(path: p, depth: depth + 1) else { return false }
                space()
                guard i < b.count else { return false }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if b[i] == UInt8(ascii: "]") {
                    i += 1
                    return true
                }
                return false
            }
        case UInt8(ascii: "\""):
            return string() != nil
        default:
            let start = i
            while i < b.count,
                !(b[i] == UInt8(ascii: ",") || b[i] == UInt8(ascii: "}") || b[i] == UInt8(ascii: "]")
                    || b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09)
            {
                i += 1
            }
            return i > start && i < b.count
        }
    }

    /// Skips one value of any depth with a counter instead of recursion; false when the
    /// prefix ends or a bracket closes what was never opened.
    private mutating func skip() -> Bool {
        var open = 0
        repeat {
            space()
            guard i < b.count else { return false }
            switch b[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open += 1
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard open > 0 else { return false }
                open -= 1
                i += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                guard open > 0 else { return false }
                i += 1
            case UInt8(ascii: "\""):
                guard string() != nil else { return false }
            default:
                let start = i
                while i < b.count,
                    !(b[i] == UInt8(ascii: ",") || b[i] == UInt8(ascii: "}") || b[i] == UInt8(ascii: "]")
                        || b[i] == UInt8(ascii: ":") || b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09)
                {
                    i += 1
                }
                guard i > start, i < b.count else { return false }
            }
        } while open > 0
        return true
    }

    /// A string at `b[i] == '"'`, escapes decoded loosely; nil when cut off.
    private mutating func string() -> String? {
        i += 1
        var out: [UInt8] = []
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if c == UInt8(ascii: "\\") {
                guard i + 1 < b.count else { return nil }
                let e = b[i + 1]
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"), UInt8(ascii: "x"):
                    // Not needed for sniffing: keep a placeholder and skip the digits.
                    out.append(UInt8(ascii: "?"))
                    i += e == UInt8(ascii: "u") ? 4 : 2
                default: out.append(e)
                }
                i += 2
                continue
            }
            out.append(c)
            i += 1
        }
        return nil
    }
}
