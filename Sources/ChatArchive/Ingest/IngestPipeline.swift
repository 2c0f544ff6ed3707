import ChatImport
import Foundation

/// Picks the importer for a path (by content, or `--format`) and runs it.
enum IngestPipeline {
    static let formats = DetectedFormat.allCases.map(\.rawValue)

    static func formatName(of path: String, forced: String) -> String {
        forced == "auto" ? ((try? FormatDetector.detect(path: path))?.format.rawValue ?? "unknown") : forced
    }

    static func read(_ path: String, options: IngestOptions, into sink: WriterSink) throws {
        var forced: DetectedFormat? = nil
        if options.format != "auto" {
            guard let f = DetectedFormat(rawValue: options.format) else {
                throw ImportError("unknown format \"\(options.format)\" (expected auto, \(formats.joined(separator: ", ")))")
            }
            forced = f
        }
        let detection = try FormatDetector.detect(path: path, forced: forced)
        let container = detection.container
        for refused in container.refusedEntries {
            try sink.report(.fatal(SourceLocation(file: container.displayName(of: refused.name)), "skipped: \(refused.reason)"))
        }
        let opts = options.importOptions
        switch detection.format {
        case .jsonl:
            for e in detection.entries {
                sink.file = container.displayName(of: e)
                try JSONLinesImporter().read(container, entry: e, into: sink)
            }
        case .telegram:
            for e in detection.entries {
                sink.file = container.displayName(of: e)
                try TelegramImporter().read(container, entry: e, into: sink, options: opts)
            }
        case .whatsapp:
            for e in detection.entries {
                sink.file = container.displayName(of: e)
                try WhatsAppImporter().read(container, entry: e, into: sink, options: opts)
            }
        case .discord:
            sink.file = path
            try DiscordImporter().read(container, entries: detection.entries, into: sink, options: opts)
        case .slack:
            sink.file = path
            try SlackImporter().read(container, into: sink, options: opts)
        case .meta:
            sink.file = path
            try MetaImporter().read(container, entries: detection.entries, into: sink, options: opts)
        case .simplex:
            sink.file = path
            try SimplexImporter().read(container, entries: detection.entries, into: sink)
        }
    }
}
