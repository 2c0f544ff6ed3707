import ChatModel

/// One value an importer produces, in the order the archive must receive them: a chat
/// before its members and items.
package enum ImportRecord: Sendable {
    case chat(Chat)
    case member(Member)
    case item(Item)
}

/// Where a problem in an export was found: the file (or `zip!entry`), and a line, a byte
/// offset or a record key, whichever the format has.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    package var file: String
    package var line: Int?
    package var byteOffset: Int64?
    /// A record key where lines make no sense (a SQLite table and key).
    package var record: String?

    package init(file: String, line: Int? = nil, byteOffset: Int64? = nil, record: String? = nil) {
        self.file = file
        self.line = line
        self.byteOffset = byteOffset
        self.record = record
    }

    package var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let byteOffset { s += " (byte \(byteOffset))" }
        if let record { s += " [\(record)]" }
        return s
    }
}

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

/// An error that stops an import: an unrecognised file, an encrypted database, a refused zip.
package struct ImportError: Error, Sendable, CustomStringConvertible {
    package var location: SourceLocation?
    package var message: String
    package init(_ message: String, at location: SourceLocation? = nil) {
        self.location = location
        self.message = message
    }
    package var description: String { location.map { "\($0): \(message)" } ?? message }
}

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
}

extension ImportSink {
    package func progress(bytesRead: Int64, totalBytes: Int64?) {}
}

/// A reader of one export format.
package protocol ArchiveImporter: Sendable {
    /// The format's name as `--format` takes it.
    static var formatName: String { get }
    /// Reads the export at `source` and sends everything to `sink`, streaming: memory stays
    /// bounded whatever the export's size.
    func read(_ source: ImportSource, into sink: any ImportSink) throws
}

/// An export to read: a file, a folder, or an entry list of a zip.
package struct ImportSource: Sendable {
    /// Path as given by the user (used in messages).
    package var path: String
    /// Options the user gave.
    package var options: ImportOptions
    package init(path: String, options: ImportOptions = ImportOptions()) {
        self.path = path
        self.options = options
    }
}

/// Options for importers.
public struct ImportOptions: Sendable {
    /// Zone for formats with floating local times (WhatsApp, old Telegram), as seconds east of UTC
    /// or an IANA identifier resolved by the caller.
    public var timeZoneIdentifier: String?
    /// WhatsApp: the author name that is the archive's owner.
    public var ownerName: String?
    /// WhatsApp: the day/month order of the dates, when the file cannot tell (<doc:WhatsAppFormat>).
    public var dateOrder: WhatsAppDateOrder?
    /// WhatsApp: the chat key (and name) instead of the one taken from the file name; re-imports
    /// must use the same key for their ids to match.
    public var chatKey: String?
    public init(
        timeZoneIdentifier: String? = nil, ownerName: String? = nil, dateOrder: WhatsAppDateOrder? = nil,
        chatKey: String? = nil
    ) {
        self.timeZoneIdentifier = timeZoneIdentifier
        self.ownerName = ownerName
        self.dateOrder = dateOrder
        self.chatKey = chatKey
    }
}

/// Collects records in memory: for tests and small imports.
package final class CollectingSink: ImportSink {
    package private(set) var chats: [Chat] = []
    package private(set) var members: [Member] = []
    package private(set) var items: [Item] = []
    package private(set) var issues: [ImportIssue] = []
    package var isStrict = false
    package init() {}
    package func emit(_ record: ImportRecord) throws {
        switch record {
        case .chat(let c): chats.append(c)
        case .member(let m): members.append(m)
        case .item(let i): items.append(i)
        }
    }
    package func report(_ issue: ImportIssue) throws {
        issues.append(issue)
        if isStrict { throw issue }
    }
}
