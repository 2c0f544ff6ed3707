import ChatImport
import ChatIndex
import Foundation

extension IngestPipeline {
    /// Runs an ingest of `paths` into `database` and reports it with honest counts: skipped
    /// items are only the records left out, warnings and stopped files are counted apart.
    ///
    /// This is the body of ``Archive/ingestSync(_:options:isCancelled:progress:)``.
    static func run(
        _ paths: [String], options: IngestOptions, database: ArchiveDatabase,
        isCancelled: @escaping @Sendable () -> Bool = { false },
        progress: (@Sendable (IngestProgress) -> Void)? = nil
    ) throws -> IngestReport {
        if options.compressesText && !TextCompression.isAvailable { throw TextCompression.unavailableError }
        let writer = try ArchiveWriter(
            database: database, batchSize: options.batchSize, batchBytes: options.batchBytes,
            termLimit: options.termLimit,
            textTrainingTexts: options.compressesText
                ? options.textTrainingTexts ?? TextCompression.defaultTrainingTexts : 0,
            compressesWhileReading: options.compressesWhileReading)
        let sink = WriterSink(writer: writer, strict: options.strict, isCancelled: isCancelled, onProgress: progress)
        var report = IngestReport()
        var fatal: Error? = nil
        for path in paths {
            do {
                try writer.setExport(try recordExport(path, database: database))
                try read(path, options: options, into: sink) { export in
                    // Each export of a folder is where its own attachments are found.
                    try writer.setExport(try recordExport(export, database: database))
                }
            } catch is WriterSink.StrictStop {
                report.stoppedEarly = true
                break
            } catch is WriterSink.Cancelled {
                report.stoppedEarly = true
                report.interrupted = true
                break
            } catch let e as ImportError {
                // One source failed as a whole: report it, keep going with the others.
                sink.issues.append(.fatal(e.location ?? SourceLocation(file: path), e.message))
                if options.strict || paths.count == 1 { fatal = e }
                report.stoppedEarly = true
                if options.strict { break }
            }
        }
        let itemsRead = sink.itemsRead
        let summary = try writer.finish { done, total in
            progress?(
                IngestProgress(file: "", bytesRead: done, totalBytes: total, itemsRead: itemsRead, isIndexing: true))
        }
        report.chats = summary.chats
        report.itemsAdded = summary.itemsAdded
        report.itemsUpdated = summary.itemsUpdated
        report.itemsUnchanged = summary.itemsUnchanged
        report.timing = summary.timing
        // Records the archive could not place (an item or member of a chat no record described).
        // Their items are in the writer's skipped count already: these issues count none.
        let placeless = writer.issues.map {
            ImportIssue(SourceLocation(file: paths.count == 1 ? paths[0] : ""), $0, severity: .skipped, count: 0)
        }
        report.count(sink.issues + placeless, writerSkipped: summary.itemsSkipped)
        report.exports = sink.exports
        report.skippedFiles = sink.skippedFiles
        try recordSources(paths, options: options, report: report, database: database)
        if let fatal, report.itemsAdded + report.itemsUpdated + report.itemsUnchanged == 0 {
            throw fatal
        }
        return report
    }

    /// Records where an export lies (an absolute folder, or a zip file) so that its attachments
    /// can be read back later; a single file's export is the folder holding it.
    static func recordExport(_ path: String, database: ArchiveDatabase) throws -> Int64? {
        let url = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else { return nil }
        var root = url.path
        var isZip = false
        if !isDir.boolValue {
            let head = FileHandle(forReadingAtPath: url.path).map { h in
                defer { try? h.close() }
                return h.readData(ofLength: 4)
            }
            isZip = head.map { ZipContainer.hasZipMagic([UInt8]($0)) } ?? false
            if !isZip { root = url.deletingLastPathComponent().path }
        }
        return try ExportRecords.export(root: root, isZip: isZip, in: database)
    }

    private static func recordSources(
        _ paths: [String], options: IngestOptions, report: IngestReport, database: ArchiveDatabase
    ) throws {
        // One row per export read; a path that held none is recorded as it was given.
        var sources = report.exports.map { ($0.path, $0.format) }
        for p in paths where !report.exports.contains(where: { $0.path == p || $0.path.hasPrefix(p) }) {
            sources.append((p, options.format == "auto" ? "unknown" : options.format))
        }
        try ExportRecords.recordIngest(
            sources.map {
                ExportRecords.Source(
                    path: $0.0, format: $0.1, itemsAdded: report.itemsAdded, itemsUpdated: report.itemsUpdated,
                    itemsSkipped: report.itemsSkipped)
            }, in: database)
    }
}

extension IngestReport {
    /// Sets ``errors`` and the counts by severity: skipped records (plus the items the writer
    /// could not place) in ``itemsSkipped``, ``warnings``, ``filesStopped``.
    mutating func count(_ issues: [ImportIssue], writerSkipped: Int) {
        errors = issues
        itemsSkipped = writerSkipped
        warnings = 0
        filesStopped = 0
        for issue in issues {
            switch issue.severity {
            case .warning: warnings += 1
            case .skipped: itemsSkipped += issue.count
            case .fatal: filesStopped += 1
            }
        }
    }
}
