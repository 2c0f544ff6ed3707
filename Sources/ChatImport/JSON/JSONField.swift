import ChatModel

/// Lenient readers of JSON fields, shared by the importers of every JSON-based format.
enum JSONField {
    /// An integer from a number or a numeric string (`"1699215243"`).
    static func int(_ v: JSONValue?) -> Int64? {
        switch v {
        case .number(let n)?:
            guard n.isFinite, n == n.rounded(), abs(n) < 9.0e18 else { return nil }
            return Int64(n)
        case .string(let s)?:
            return Int64(s.trimmingPrefix(" "))
        default: return nil
        }
    }

    /// A string, or a number written as an integer string.
    static func idString(_ v: JSONValue?) -> String? {
        switch v {
        case .string(let s)?: return s
        case .number?: return int(v).map { String($0) }
        default: return nil
        }
    }

    /// A non-empty string.
    static func text(_ v: JSONValue?) -> String? {
        if case .string(let s)? = v, !s.isEmpty { return s }
        return nil
    }

    /// A scalar rendered as text (strings as they are, integers without a fraction).
    static func scalarText(_ v: JSONValue) -> String? {
        switch v {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .number: return v.jsonText
        default: return nil
        }
    }

    /// A path relative to an export's root with `/` separators (`\` converted, `.` parts
    /// dropped), or `nil` when it is empty, absolute, a drive path or climbs out with `..`.
    /// `http(s)` URLs are kept as they are.
    static func relativePath(_ path: String) -> String? {
        let lower = path.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") { return path }
        let head = Array(path.utf8.prefix(2))
        let isDrive = head.count == 2 && head[1] == UInt8(ascii: ":")
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("\\"), !isDrive else { return nil }
        var parts: [Substring] = []
        for part in path.split(whereSeparator: { $0 == "/" || $0 == "\\" }) where part != "." {
            if part == ".." { return nil }
            parts.append(part)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// The last component of a `/` or `\` separated path.
    static func lastPathComponent(_ path: String) -> String {
        let parts = path.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        return parts.last.map(String.init) ?? ""
    }
}

/// A set of integer ids that stays small when ids mostly ascend (Telegram message ids):
/// a bitmap over a window, and a hash set for the rest.
struct SeenIDs {
    private var low: Int64 = 0
    private var words: [UInt64] = []
    private var others = Set<Int64>()
    private static let maxBits: Int64 = 1 << 27

    /// Inserts `id`; false when it was already there.
    mutating func insert(_ id: Int64) -> Bool {
        if words.isEmpty, others.isEmpty { low = id & ~63 }
        let d = id &- low
        if d >= 0, d < SeenIDs.maxBits {
            let w = Int(d >> 6)
            let bit = UInt64(1) << UInt64(d & 63)
            if w >= words.count {
                words.append(contentsOf: repeatElement(0, count: w - words.count + 1 + words.count / 2))
            }
            if words[w] & bit != 0 { return false }
            words[w] |= bit
            return true
        }
        return others.insert(id).inserted
    }
}
