import ChatImport
import Foundation

/// Picks the importer for a path and runs it.
enum IngestPipeline {
    static let formats = ["jsonl", "simplex", "telegram", "whatsapp", "discord", "slack"]

    static func formatName(of path: String, forced: String) -> String {
        forced == "auto" ? ((try? detect(path))?.0 ?? "unknown") : forced
    }

    /// Returns the format name and the container/entries to read.
    static func detect(_ path: String) throws -> (String, any ExportContainer, [String]) {
        let container = try FolderContainer(path: path)
        var jsonl: [String] = []
        for e in container.entryNames {
            if JSONLinesImporter.recognizes(prefix: try container.prefix(of: e)) { jsonl.append(e) }
        }
        guard !jsonl.isEmpty else {
            throw ImportError("\(path): not a recognised export (tried: ChatArchive JSON Lines)")
        }
        return ("jsonl", container, jsonl)
    }

    static func read(_ path: String, options: IngestOptions, into sink: WriterSink) throws {
        let (format, container, entries): (String, any ExportContainer, [String])
        if options.format == "auto" {
            (format, container, entries) = try detect(path)
        } else {
            guard formats.contains(options.format) else {
                throw ImportError("unknown format \"\(options.format)\" (expected auto, \(formats.joined(separator: ", ")))")
            }
            let c = try FolderContainer(path: path)
            (format, container, entries) = (options.format, c, c.entryNames)
        }
        switch format {
        case "jsonl":
            for e in entries {
                sink.file = container.displayName(of: e)
                try JSONLinesImporter().read(container, entry: e, into: sink)
            }
        default:
            throw ImportError("\(path): the \(format) importer is not available in this build")
        }
    }
}
