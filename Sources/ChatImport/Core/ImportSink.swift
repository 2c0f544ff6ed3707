/// Receives what an importer reads. The archive writer implements it; tests collect into arrays.
///
/// `emit` may throw to stop the import (cancellation, `--strict`, a storage failure).
package protocol ImportSink: AnyObject {
    /// One chat, member or item.
    func emit(_ record: ImportRecord) throws
    /// A problem: a record kept with a warning, records skipped, or a file stopped (see
    /// ``ImportIssue/Severity``). Throws to stop (strict mode).
    func report(_ issue: ImportIssue) throws
    /// Progress through the current source: bytes consumed of its total (when known).
    func progress(bytesRead: Int64, totalBytes: Int64?)
    /// The entry of the container whose records follow (importers that read one entry per
    /// export say it, so that its attachment paths are read relative to its own folder).
    func beginEntry(_ name: String)
}

extension ImportSink {
    package func progress(bytesRead: Int64, totalBytes: Int64?) {}
    package func beginEntry(_ name: String) {}
}
