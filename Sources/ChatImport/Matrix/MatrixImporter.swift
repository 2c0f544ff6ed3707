import ChatModel

/// Reads Element's "Export chat" JSON for Matrix rooms: the `.json` file alone, or the zip
/// (or its unpacked folder) with `export.json` and the attachments in `images/`, `videos/`,
/// `audio/`, `stickers/` and `files/`.
///
/// Each event becomes one item keyed by `(room_id, event_id)`, so a re-import adds nothing
/// and a later export updates edits and redactions. Element writes events decrypted, with the
/// latest edit already applied; reactions, stray edit and redaction events (written by other
/// tools) are applied to their targets. State and call events are kept as events, events the
/// exporter could not decrypt as placeholders.
package struct MatrixImporter: Sendable {
    /// The format's name as `--format` takes it.
    package static let formatName = "matrix"
    /// How the format is described in "Tried: …" errors.
    package static let formatDescription = "Matrix/Element (JSON with room_name, exported_by and messages)"

    /// Makes an importer; options come with each read.
    package init() {}

    /// The entries of `container` that are Element JSON exports (an object whose first keys
    /// include `room_name` and `exported_by`, and `messages` or `export_date`), judged from a
    /// prefix of each (`FormatDetector.prefixLimit`); empty when there is none.
    package static func recognise(_ container: any ExportContainer) throws -> [String] {
        var out: [String] = []
        var sniffed = 0
        let hasExportJSON = container.entryNames.contains { $0 == "export.json" || $0.hasSuffix("/export.json") }
        for name in container.entryNames {
            let base = name.split(separator: "/").last.map { $0.lowercased() } ?? ""
            let ext = base.contains(".") ? String(base.split(separator: ".").last ?? "") : ""
            if Sniff.mediaExtensions.contains(ext) { continue }
            // Attachments are never exports, even when they are JSON.
            if hasExportJSON,
                name.split(separator: "/").dropLast().contains(where: {
                    MatrixAttachments.folderNames.contains(String($0))
                })
            {
                continue
            }
            sniffed += 1
            if sniffed > Sniff.maxSniffedEntries { break }
            guard let prefix = try? container.prefix(of: name, limit: FormatDetector.prefixLimit) else { continue }
            if isExport(prefix) { out.append(name) }
        }
        return out
    }

    /// Whether a file's first bytes look like an Element JSON export.
    static func isExport(_ prefix: [UInt8]) -> Bool {
        let s = JSONPrefixScanner.scan(prefix)
        return s.root == .object && s.has("room_name") && s.has("exported_by")
            && (s.has("messages") || s.has("export_date"))
    }

    /// Reads the given export entries of `container` into `sink`.
    package func read(
        _ container: any ExportContainer, entries: [String], into sink: any ImportSink, options: ImportOptions
    ) throws {
        for entry in entries {
            var reader = MatrixExportReader(container: container, entry: entry, sink: sink, options: options)
            try reader.read()
        }
    }
}
