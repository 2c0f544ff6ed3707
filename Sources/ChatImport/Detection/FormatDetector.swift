import Foundation

/// What detection found: the format, the opened container, and the entries to read.
package struct Detection {
    /// The recognised (or forced) format's `--format` name.
    package var format: String { importFormat.name }
    /// The opened export: a folder, a single file, or a zip.
    package var container: any ExportContainer
    /// The entries the importer should read, sorted.
    package var entries: [String]
    /// The registered format that recognised the entries and reads them.
    package var importFormat: ImportFormat

    /// Makes a detection.
    package init(format: ImportFormat, container: any ExportContainer, entries: [String]) {
        self.importFormat = format
        self.container = container
        self.entries = entries
    }

    /// Reads the entries into `sink` with the format's importer.
    package func read(into sink: any ImportSink, options: ImportOptions) throws {
        try importFormat.read(container, entries, sink, options)
    }
}

/// Recognises exports by content, never by extension: opens a file, folder or zip (by magic
/// bytes) and tries each registered format's test in order (`FormatRegistry`) on prefixes
/// of `prefixLimit` bytes.
package enum FormatDetector {
    /// How many bytes of each entry are sniffed.
    package static let prefixLimit = 64 << 10

    /// The `--format` names, in detection order.
    package static var formatNames: [String] { FormatRegistry.names }

    /// Opens `path` as a zip (by its first bytes), a folder, or a single file.
    package static func openContainer(path: String) throws -> any ExportContainer {
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

    /// Detects the format of the export at `path`; `forced` (a `--format` name) skips
    /// recognition but still picks the entries that format reads.
    package static func detect(path: String, forced: String? = nil) throws -> Detection {
        try detect(in: openContainer(path: path), forced: forced)
    }

    /// Detects the format of an opened container.
    package static func detect(in container: any ExportContainer, forced: String? = nil) throws -> Detection {
        if let forced, FormatRegistry.format(named: forced) == nil {
            throw ImportError("unknown format \"\(forced)\" (expected auto, \(formatNames.joined(separator: ", ")))")
        }
        let sniffing = SniffingContainer.wrap(container)
        for format in FormatRegistry.formats where forced == nil || forced == format.name {
            let found = try format.recognise(sniffing)
            if !found.isEmpty { return Detection(format: format, container: container, entries: found) }
        }
        if let forced, let format = FormatRegistry.format(named: forced) {
            let fallback = textEntries(sniffing)
            guard !fallback.isEmpty else {
                throw ImportError("\(container.path): nothing to read as \(forced) (no suitable file found)")
            }
            return Detection(format: format, container: container, entries: fallback)
        }
        throw unrecognised(sniffing)
    }

    /// Why nothing in a container was recognised: an HTML or CSV export (with how to re-export
    /// it), an empty one, or the tests tried.
    static func unrecognised(_ container: SniffingContainer) -> ImportError {
        let candidates = Sniff.candidates(container)
        if let html = candidates.first(where: { isHTML(Sniff.prefix(container, $0)) }) {
            return ImportError(
                "\(container.displayName(of: html)) is an HTML export, which cannot be imported: re-export as JSON "
                    + "(Telegram: Export chat history → Format: Machine-readable JSON; DiscordChatExporter: --format Json)"
            )
        }
        if let csv = candidates.first(where: { isCSV($0, Sniff.prefix(container, $0)) }) {
            return ImportError(
                "\(container.displayName(of: csv)) is a CSV export, which cannot be imported: re-export as JSON")
        }
        let empty = candidates.allSatisfy { Sniff.prefix(container, $0).isEmpty } ? " (it is empty)" : ""
        var tried: [String] = []
        for f in FormatRegistry.formats where !tried.contains(f.description) { tried.append(f.description) }
        return ImportError(
            "\(container.path): not a recognised chat export\(empty). Tried: " + tried.joined(separator: "; ") + ".",
            isNotAnExport: true)
    }

    /// Whether `text` looks like a WhatsApp export: one of the first 20 non-empty lines fits a
    /// header template, and most lines that start with a digit or `[` fit it.
    package static func looksLikeWhatsApp(_ prefix: [UInt8]) -> Bool {
        WhatsAppSniff.matches(prefix)
    }
}

extension FormatDetector {
    /// Entries that are text (no NUL byte in their prefix), for a forced format.
    static func textEntries(_ container: any ExportContainer) -> [String] {
        Sniff.candidates(container).filter { name in
            let p = Sniff.prefix(container, name)
            return !p.isEmpty && (!p.contains(0) || p.starts(with: [0xFF, 0xFE]) || p.starts(with: [0xFE, 0xFF]))
        }
    }

    static func isHTML(_ p: [UInt8]) -> Bool {
        var start = p.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < p.count, p[start] == 0x20 || p[start] == 0x0A || p[start] == 0x0D || p[start] == 0x09 {
            start += 1
        }
        let head = String(decoding: p[start..<min(p.count, start + 64)], as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    static func isCSV(_ name: String, _ p: [UInt8]) -> Bool {
        let start = p.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let end = p[start...].firstIndex(of: 0x0A) ?? p.count
        let firstLine = String(decoding: p[start..<end], as: UTF8.self).replacingOccurrences(of: "\"", with: "")
        if firstLine.hasPrefix("AuthorID,Author,Date,Content") { return true }
        return name.lowercased().hasSuffix(".csv") && firstLine.contains(",")
    }
}
