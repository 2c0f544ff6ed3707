/// A container that remembers the prefixes and JSON shapes read from its entries, so that the
/// recognise tests of every format read each entry's prefix (`FormatDetector.prefixLimit`) once.
package final class SniffingContainer: ExportContainer {
    /// The container sniffed.
    package let base: any ExportContainer
    private var prefixes: [String: [UInt8]] = [:]
    private var shapes: [String: JSONPrefixScanner.Shape] = [:]

    /// Wraps `base` (an already sniffing container is not wrapped twice: see ``wrap(_:)``).
    package init(_ base: any ExportContainer) { self.base = base }

    /// `container` itself when it already caches, else a caching wrapper.
    package static func wrap(_ container: any ExportContainer) -> SniffingContainer {
        (container as? SniffingContainer) ?? SniffingContainer(container)
    }

    package var path: String { base.path }
    package var entryNames: [String] { base.entryNames }
    package var refusedEntries: [(name: String, reason: String)] { base.refusedEntries }
    package func open(_ name: String) throws -> ByteStream { try base.open(name) }
    package func size(of name: String) -> Int64? { base.size(of: name) }
    package func displayName(of name: String) -> String { base.displayName(of: name) }

    /// The cached prefix (`FormatDetector.prefixLimit`), cut to `limit`; unreadable entries read as
    /// empty (the importer reports them, not detection).
    package func prefix(of name: String, limit: Int) throws -> [UInt8] {
        guard limit <= FormatDetector.prefixLimit else { return try base.prefix(of: name, limit: limit) }
        let p: [UInt8]
        if let cached = prefixes[name] {
            p = cached
        } else {
            p = (try? base.prefix(of: name, limit: FormatDetector.prefixLimit)) ?? []
            prefixes[name] = p
        }
        return p.count > limit ? Array(p.prefix(limit)) : p
    }

    func shape(_ name: String) throws -> JSONPrefixScanner.Shape {
        if let s = shapes[name] { return s }
        let s = JSONPrefixScanner.scan(try prefix(of: name, limit: FormatDetector.prefixLimit))
        shapes[name] = s
        return s
    }
}

/// The helpers the formats' recognise tests share.
package enum Sniff {
    /// Extensions of files no format reads as its main file (media and web assets).
    static let mediaExtensions: Set<String> = [
        "jpg", "jpeg", "png", "gif", "webp", "heic", "bmp", "tgs", "mp4", "mov", "webm", "mkv", "avi", "3gp", "opus",
        "ogg", "oga", "m4a", "mp3", "aac", "wav", "amr", "pdf", "vcf", "zip", "apk", "exe", "css", "js", "woff",
        "woff2", "ttf",
    ]

    /// At most this many entries are sniffed (media folders can be huge).
    static let maxSniffedEntries = 5000

    /// The last path component of an entry name.
    package static func baseName(_ name: String) -> String { name.split(separator: "/").last.map(String.init) ?? name }

    /// Whether an entry is media or a web asset, by its extension.
    package static func isMedia(_ name: String) -> Bool {
        let base = baseName(name)
        let parts = base.split(separator: ".")
        guard parts.count > 1, let ext = parts.last?.lowercased() else { return false }
        return mediaExtensions.contains(ext)
    }

    /// Entries worth sniffing: not media, and not the SimpleX agent database.
    package static func candidates(_ container: any ExportContainer) -> [String] {
        let names = container.entryNames.filter { name in
            baseName(name) != SimplexImporter.agentDatabaseName && !isMedia(name)
        }
        return Array(names.prefix(maxSniffedEntries))
    }

    /// The first `FormatDetector.prefixLimit` bytes of an entry (empty when unreadable).
    package static func prefix(_ container: any ExportContainer, _ name: String) -> [UInt8] {
        (try? container.prefix(of: name, limit: FormatDetector.prefixLimit)) ?? []
    }

    /// The JSON shape of an entry's prefix.
    static func shape(_ container: any ExportContainer, _ name: String) -> JSONPrefixScanner.Shape {
        if let sniffing = container as? SniffingContainer, let s = try? sniffing.shape(name) { return s }
        return JSONPrefixScanner.scan(prefix(container, name))
    }

    /// The candidate entries whose JSON shape passes `test`.
    static func entries(_ container: any ExportContainer, whereShape test: (JSONPrefixScanner.Shape) -> Bool)
        -> [String]
    {
        candidates(container).filter { test(shape(container, $0)) }
    }
}
