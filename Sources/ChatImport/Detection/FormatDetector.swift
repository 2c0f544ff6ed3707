import Foundation

/// The export formats `--format` names.
public enum DetectedFormat: String, Sendable, Hashable, CaseIterable {
    case jsonl, simplex, telegram, whatsapp, discord, slack, meta
}

/// What detection found: the format, the opened container, and the entries to read.
public struct Detection {
    /// The recognised (or forced) format.
    public var format: DetectedFormat
    /// The opened export: a folder, a single file, or a zip.
    public var container: any ExportContainer
    /// The entries the importer should read, sorted.
    public var entries: [String]

    /// Makes a detection.
    public init(format: DetectedFormat, container: any ExportContainer, entries: [String]) {
        self.format = format
        self.container = container
        self.entries = entries
    }
}

/// Recognises exports by content (FORMATS.md §0), never by extension: opens a file, folder or
/// zip (by magic bytes) and tries each format's test in order on 64 KiB prefixes.
public enum FormatDetector {
    /// How many bytes of each entry are sniffed.
    public static let prefixLimit = 64 << 10
    /// At most this many entries are sniffed (media folders can be huge).
    static let maxSniffedEntries = 5000

    /// The tests, in the order they are tried, with how they are described in errors.
    static let tests: [(format: DetectedFormat, kind: String, description: String)] = [
        (.simplex, "database", "SimpleX database (a zip or folder holding simplex_v1_chat.db)"),
        (.slack, "slack", "Slack (channels.json or users.json)"),
        (.discord, "discord", "DiscordChatExporter (JSON with guild and channel)"),
        (.meta, "meta", MetaImporter.formatDescription),
        (.telegram, "telegram", "Telegram (JSON with messages and type, or personal_information or chats)"),
        (.simplex, "json", "SimpleX JSON (chatInfo and chatItems, or an apiChat response)"),
        (.whatsapp, "whatsapp", "WhatsApp (text whose lines start with a date and time header)"),
        (.jsonl, "jsonl", "ChatArchive JSON Lines (a first line that is an object with \"kind\")"),
    ]

    /// Opens `path` as a zip (by its first bytes), a folder, or a single file.
    public static func openContainer(path: String) throws -> any ExportContainer {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw ImportError("\(path): no such file or folder")
        }
        if !isDir.boolValue {
            let head = try FileByteStream(path: path).read(maxLength: 4)
            if ZipContainer.hasZipMagic(head) { return try ZipContainer(path: path) }
        }
        return try FolderContainer(path: path)
    }

    /// Detects the format of the export at `path`; `forced` skips recognition (`--format`) but
    /// still picks the entries that format reads.
    public static func detect(path: String, forced: DetectedFormat? = nil) throws -> Detection {
        try detect(in: openContainer(path: path), forced: forced)
    }

    /// Detects the format of an opened container.
    public static func detect(in container: any ExportContainer, forced: DetectedFormat? = nil) throws -> Detection {
        var sniffer = Sniffer(container: container)
        for test in tests where forced == nil || forced == test.format {
            let found = try sniffer.entries(passing: test.kind)
            if !found.isEmpty { return Detection(format: test.format, container: container, entries: found) }
        }
        if let forced {
            let fallback = try sniffer.textEntries()
            guard !fallback.isEmpty else {
                throw ImportError("\(container.path): nothing to read as \(forced.rawValue) (no suitable file found)")
            }
            return Detection(format: forced, container: container, entries: fallback)
        }
        if let html = try sniffer.firstEntry(where: { Sniffer.isHTML($0) }) {
            throw ImportError(
                "\(container.displayName(of: html)) is an HTML export, which cannot be imported: re-export as JSON "
                    + "(Telegram: Export chat history → Format: Machine-readable JSON; DiscordChatExporter: --format Json)")
        }
        if let csv = try sniffer.csvEntry() {
            throw ImportError("\(container.displayName(of: csv)) is a CSV export, which cannot be imported: re-export as JSON")
        }
        let empty = try sniffer.allEmpty() ? " (it is empty)" : ""
        throw ImportError(
            "\(container.path): not a recognised chat export\(empty). Tried: "
                + tests.map(\.description).joined(separator: "; ") + ".")
    }

    /// Whether `text` looks like a WhatsApp export: one of the first 20 non-empty lines fits a
    /// header template, and most lines that start with a digit or `[` fit it.
    public static func looksLikeWhatsApp(_ prefix: [UInt8]) -> Bool {
        WhatsAppSniff.matches(prefix)
    }
}

/// Reads and caches entry prefixes while the tests run.
struct Sniffer {
    let container: any ExportContainer
    private var prefixes: [String: [UInt8]] = [:]
    private var shapes: [String: JSONPrefixScanner.Shape] = [:]

    init(container: any ExportContainer) { self.container = container }

    static let mediaExtensions: Set<String> = [
        "jpg", "jpeg", "png", "gif", "webp", "heic", "bmp", "tgs", "mp4", "mov", "webm", "mkv", "avi", "3gp", "opus",
        "ogg", "oga", "m4a", "mp3", "aac", "wav", "amr", "pdf", "vcf", "zip", "apk", "exe", "css", "js", "woff", "woff2", "ttf",
    ]

    /// Entries worth sniffing: not media, and not the SimpleX agent database.
    var candidates: [String] {
        let names = container.entryNames.filter { name in
            let base = Sniffer.baseName(name)
            if base == SimplexImporter.agentDatabaseName { return false }
            let ext = base.split(separator: ".").count > 1 ? (base.split(separator: ".").last.map { $0.lowercased() } ?? "") : ""
            return !Sniffer.mediaExtensions.contains(ext)
        }
        return Array(names.prefix(FormatDetector.maxSniffedEntries))
    }

    static func baseName(_ name: String) -> String { name.split(separator: "/").last.map(String.init) ?? name }

    mutating func prefix(_ name: String) throws -> [UInt8] {
        if let p = prefixes[name] { return p }
        let p: [UInt8]
        do {
            p = try container.prefix(of: name, limit: FormatDetector.prefixLimit)
        } catch {
            p = []  // Unreadable entries are reported by the importer, not by detection.
        }
        prefixes[name] = p
        return p
    }

    mutating func shape(_ name: String) throws -> JSONPrefixScanner.Shape {
        if let s = shapes[name] { return s }
        let s = JSONPrefixScanner.scan(try prefix(name))
        shapes[name] = s
        return s
    }

    mutating func entries(passing kind: String) throws -> [String] {
        switch kind {
        case "database":
            let named = container.entryNames.filter { Sniffer.baseName($0) == SimplexImporter.chatDatabaseName }
            if !named.isEmpty { return named }
            // A database file given on its own, whatever its name.
            if container.entryNames.count == 1, let only = container.entryNames.first,
                try prefix(only).starts(with: SimplexImporter.sqliteMagic)
            {
                return [only]
            }
            return []
        case "slack":
            let markers: Set<String> = ["channels.json", "users.json", "org_users.json"]
            let hasMarker = container.entryNames.contains { name in
                markers.contains(Sniffer.baseName(name)) && name.split(separator: "/").count <= 2
            }
            return hasMarker ? container.entryNames.filter { $0.lowercased().hasSuffix(".json") } : []
        case "meta":
            return try MetaImporter.recognise(container)
        default:
            var out: [String] = []
            for name in candidates where try passes(kind, name) { out.append(name) }
            return out
        }
    }

    private mutating func passes(_ kind: String, _ name: String) throws -> Bool {
        switch kind {
        case "discord":
            let s = try shape(name)
            return s.root == .object && s.has("guild") && s.has("channel")
        case "telegram":
            let s = try shape(name)
            return s.root == .object
                && ((s.has("messages") && s.has("type")) || s.has("personal_information") || s.has("chats.list"))
        case "json":
            let s = try shape(name)
            guard s.root == .object else { return false }
            if s.has("chatInfo") && s.has("chatItems") { return true }
            let apiTags: Set<String> = ["apiChat", "apiChats"]
            if let t = s.strings["type"], apiTags.contains(t) { return true }
            for wrapper in ["result", "resp"] {
                if s.has("\(wrapper).apiChat") || s.has("\(wrapper).apiChats") { return true }
                if let t = s.strings["\(wrapper).type"], apiTags.contains(t) { return true }
                if s.has("\(wrapper).chatInfo") && s.has("\(wrapper).chatItems") { return true }
            }
            return s.has("apiChat") && s.paths.count(where: { !$0.contains(".") }) == 1
        case "whatsapp":
            return FormatDetector.looksLikeWhatsApp(try prefix(name))
        case "jsonl":
            let p = try prefix(name)
            var start = p.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            // The first non-blank line.
            while start < p.count {
                let end = p[start...].firstIndex(of: 0x0A) ?? p.count
                let line = p[start..<end]
                if line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
                    let s = JSONPrefixScanner.scan(line)
                    return s.root == .object && s.has("kind")
                }
                start = end + 1
            }
            return false
        default:
            return false
        }
    }

    /// Entries that are text (no NUL byte in their prefix), for a forced format.
    mutating func textEntries() throws -> [String] {
        var out: [String] = []
        for name in candidates {
            let p = try prefix(name)
            if !p.isEmpty, !p.contains(0) || p.starts(with: [0xFF, 0xFE]) || p.starts(with: [0xFE, 0xFF]) { out.append(name) }
        }
        return out
    }

    mutating func firstEntry(where test: ([UInt8]) -> Bool) throws -> String? {
        for name in candidates where test(try prefix(name)) { return name }
        return nil
    }

    static func isHTML(_ p: [UInt8]) -> Bool {
        var start = p.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < p.count, p[start] == 0x20 || p[start] == 0x0A || p[start] == 0x0D || p[start] == 0x09 { start += 1 }
        let head = String(decoding: p[start..<min(p.count, start + 64)], as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    mutating func csvEntry() throws -> String? {
        for name in candidates {
            let p = try prefix(name)
            let start = p.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let end = p[start...].firstIndex(of: 0x0A) ?? p.count
            let firstLine = String(decoding: p[start..<end], as: UTF8.self).replacingOccurrences(of: "\"", with: "")
            if firstLine.hasPrefix("AuthorID,Author,Date,Content") { return name }
            if name.lowercased().hasSuffix(".csv"), firstLine.contains(",") { return name }
        }
        return nil
    }

    mutating func allEmpty() throws -> Bool {
        for name in candidates where !(try prefix(name)).isEmpty { return false }
        return true
    }
}
