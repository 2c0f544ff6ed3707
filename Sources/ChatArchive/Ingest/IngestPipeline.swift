import ChatImport
import Foundation

/// Finds the exports in a path (by content, or `--format`) and runs their importers, all
/// through the one list of formats, `FormatRegistry`.
enum IngestPipeline {
    static var formats: [String] { FormatDetector.formatNames }

    /// `onExport` is told each export's path before its records are read (a folder may hold
    /// several exports, each with attachment paths relative to itself).
    static func read(
        _ path: String, options: IngestOptions, into sink: WriterSink, onExport: ((String) throws -> Void)? = nil
    ) throws {
        let forced = options.format == "auto" ? nil : options.format
        if let forced, !formats.contains(forced) {
            throw ImportError("unknown format \"\(forced)\" (expected auto, \(formats.joined(separator: ", ")))")
        }
        let search = try ExportFinder.find(path: path, forced: forced)
        sink.skippedFiles += search.skipped.map {
            SkippedFile(path: $0.path, reason: $0.reason, isNotAnExport: $0.isNotAnExport, fileCount: $0.fileCount)
        }
        let several = search.exports.count > 1
        for found in search.exports {
            let detection = found.detection
            let container = detection.container
            var export = IngestedExport(
                path: container.path, format: detection.format, filesRead: detection.entries.count, itemsRead: 0,
                skipped: found.skipped.map {
                    SkippedFile(
                        path: $0.path, reason: $0.reason, isNotAnExport: $0.isNotAnExport, fileCount: $0.fileCount)
                })
            let itemsBefore = sink.itemsRead
            defer {
                export.itemsRead = sink.itemsRead - itemsBefore
                sink.exports.append(export)
            }
            for refused in container.refusedEntries {
                try sink.report(
                    .fatal(SourceLocation(file: container.displayName(of: refused.name)), "skipped: \(refused.reason)"))
            }
            sink.file = container.path
            sink.roots = AttachmentRoots(container: container)
            try onExport?(container.path)
            do {
                try detection.read(into: sink, options: options.importOptions)
            } catch let e as ImportError where several {
                // One export of a folder failed as a whole: report it, read the others.
                try sink.report(.fatal(e.location ?? SourceLocation(file: container.path), e.message))
            }
        }
    }
}
