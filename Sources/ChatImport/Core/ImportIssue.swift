/// A problem in an export: where, what, in words a user can act on, and what it cost.
public struct ImportIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// What a problem did to the import (the levels of <doc:BadInput>).
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        /// The record was kept, perhaps altered (U+FFFD for bad bytes, the previous item's
        /// time, a repeated id whose first copy was kept, a guessed date order).
        case warning
        /// Records were left out (``ImportIssue/count`` of them); reading went on.
        case skipped
        /// A file, zip entry or whole source stopped here (truncated or invalid JSON, binary
        /// data, no readable template, an unreadable export): what came before it is kept.
        case fatal
    }

    package var location: SourceLocation
    /// What was wrong, in words a user can act on.
    public var message: String
    /// What the problem did to the import.
    public var severity: Severity
    /// How many records a ``Severity/skipped`` issue stands for (a chat without an id skips
    /// all its messages); 0 for the other severities.
    public var count: Int

    /// An issue; `count` defaults to one record for ``Severity/skipped`` and none otherwise.
    package init(_ location: SourceLocation, _ message: String, severity: Severity = .skipped, count: Int? = nil) {
        self.location = location
        self.message = message
        self.severity = severity
        self.count = count ?? (severity == .skipped ? 1 : 0)
    }

    /// A record kept despite the problem.
    package static func warning(_ location: SourceLocation, _ message: String) -> ImportIssue {
        ImportIssue(location, message, severity: .warning)
    }

    /// `count` records left out.
    package static func skipped(_ location: SourceLocation, _ message: String, count: Int = 1) -> ImportIssue {
        ImportIssue(location, message, severity: .skipped, count: count)
    }

    /// A file or source that stopped here.
    package static func fatal(_ location: SourceLocation, _ message: String) -> ImportIssue {
        ImportIssue(location, message, severity: .fatal)
    }

    /// The file (or `zip!entry`) in which the problem was found.
    public var file: String { location.file }
    /// The line of the file, for line-based formats.
    public var line: Int? { location.line }
    /// The byte offset in the file, for formats read as a byte stream.
    public var byteOffset: Int64? { location.byteOffset }
    /// A record key where lines make no sense (a SQLite table and key).
    public var record: String? { location.record }

    /// Where and what: `file:line (byte n) [record]: message`.
    public var description: String { "\(location): \(message)" }
}
