import Foundation
import GRDB

/// An archive could not be opened, read or written: a ``Code`` to switch on, one sentence
/// for the user, and the underlying cause.
///
/// Messages say what happened to which archive; they never name a command to run (an app
/// and the command line give different advice).
///
/// Every public call of `ChatArchive` throws this type only, or `CancellationError` when the
/// task that awaits it is cancelled. A `catch` can match a code directly:
///
/// ```swift
/// do {
///     try await archive.upsert(items: [item])
/// } catch ArchiveError.busy {
///     offerRetry()
/// } catch let error as ArchiveError {
///     showAlert(error.localizedDescription)
/// }
/// ```
public struct ArchiveError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable, Encodable {
        /// No archive exists at the path (and the mode does not create one).
        case notFound
        /// The path holds something that is not an archive (a folder, another kind of file).
        case notAnArchive
        /// A newer ChatArchive wrote the archive (its format or its text analyser).
        case newerVersion
        /// The archive cannot be written: read-only file, folder or media, or opened read-only.
        case readOnly
        /// Another process kept the archive locked for longer than the wait allows.
        case busy
        /// The archive file is damaged.
        case corrupt
        /// The disk is full.
        case diskFull
        /// No chat has the given id.
        case unknownChat
        /// No item has the given id.
        case unknownItem
        /// Any other input or output failure.
        case io
        /// A paging cursor that no page of the list returned (mistyped, or cut short).
        case invalidCursor
        /// A path given to ingest is plainly not a chat export (a README, a script, an
        /// export's own metadata), or holds none.
        case notAnExport
        /// An export cannot be read as a whole: missing, encrypted, a refused zip, an export
        /// format the archive cannot read (its message says which and why).
        case unreadableExport
    }

    /// What kind of failure this is.
    public var code: Code
    /// One sentence for the user.
    public var message: String
    /// The error that caused this one, when there is one (often a GRDB `DatabaseError`).
    public var underlying: (any Error & Sendable)?

    /// Makes an error of `code` with `message` and its cause.
    public init(_ code: Code, _ message: String, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// An ``Code/io`` error with `message` (kept for callers written before codes existed).
    public init(_ message: String) { self.init(.io, message) }

    /// The message.
    public var description: String { message }

    /// The message, for `localizedDescription` (a SwiftUI alert shows it): the sentence the
    /// command line prints, without the command-line advice it adds.
    public var errorDescription: String? { message }
}

extension ArchiveError.Code {
    /// Whether `error` is an ``ArchiveError`` of `code`: what lets `catch ArchiveError.busy`
    /// (see ``ArchiveError/busy``) and `case ArchiveError.busy` in a `switch` over an error match.
    public static func ~= (code: ArchiveError.Code, error: any Error) -> Bool {
        (error as? ArchiveError)?.code == code
    }
}

/// The codes as patterns: `catch ArchiveError.busy { … }` catches an ``ArchiveError`` whose
/// code is ``ArchiveError/Code/busy`` (a pattern `ArchiveError.Code.busy` would be read as the
/// enum's case, which no error is).
extension ArchiveError {
    /// The pattern of ``Code/notFound``.
    public static var notFound: Code { .notFound }
    /// The pattern of ``Code/notAnArchive``.
    public static var notAnArchive: Code { .notAnArchive }
    /// The pattern of ``Code/newerVersion``.
    public static var newerVersion: Code { .newerVersion }
    /// The pattern of ``Code/readOnly``.
    public static var readOnly: Code { .readOnly }
    /// The pattern of ``Code/busy``.
    public static var busy: Code { .busy }
    /// The pattern of ``Code/corrupt``.
    public static var corrupt: Code { .corrupt }
    /// The pattern of ``Code/diskFull``.
    public static var diskFull: Code { .diskFull }
    /// The pattern of ``Code/unknownChat``.
    public static var unknownChat: Code { .unknownChat }
    /// The pattern of ``Code/unknownItem``.
    public static var unknownItem: Code { .unknownItem }
    /// The pattern of ``Code/io``.
    public static var io: Code { .io }
    /// The pattern of ``Code/invalidCursor``.
    public static var invalidCursor: Code { .invalidCursor }
    /// The pattern of ``Code/notAnExport``.
    public static var notAnExport: Code { .notAnExport }
    /// The pattern of ``Code/unreadableExport``.
    public static var unreadableExport: Code { .unreadableExport }
}

extension ArchiveError {
    /// Words an SQLite failure on the archive at `path`, by its result code.
    ///
    /// - Parameters:
    ///   - e: SQLite's error.
    ///   - path: the archive's path, as the user gave it.
    ///   - doing: what failed, as a verb phrase ("open", "read", "write to").
    package static func database(_ e: DatabaseError, path: String, doing: String = "read") -> ArchiveError {
        let detail = e.message ?? "SQLite error \(e.resultCode.rawValue)"
        let code: Code
        let message: String
        switch e.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            code = .corrupt
            message = "the archive \(path) is damaged (SQLite: \(detail))"
        case .SQLITE_FULL:
            code = .diskFull
            message = "cannot \(doing) the archive \(path): the disk is full"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            code = .busy
            message = "cannot \(doing) the archive \(path): another program kept it locked for too long"
        case .SQLITE_READONLY:
            code = .readOnly
            message = "cannot \(doing) the archive \(path): it is read-only (a read-only file, folder or disk)"
        case .SQLITE_PERM, .SQLITE_AUTH:
            code = .readOnly
            message = "cannot \(doing) the archive \(path): permission denied"
        case .SQLITE_CANTOPEN:
            code = .io
            message = "cannot \(doing) the archive \(path): the file or its folder cannot be opened (SQLite: \(detail))"
        default:
            code = .io
            message = "cannot \(doing) the archive \(path): \(detail)"
        }
        return ArchiveError(code, message, underlying: e)
    }

    /// `error` as an ``ArchiveError``: itself when it is one, SQLite's errors by their code,
    /// a `CancellationError` as it is (the task was cancelled), anything else as ``Code/io``.
    package static func wrapping(_ error: any Error, path: String, doing: String = "read") -> any Error {
        switch error {
        case let e as ArchiveError: return e
        case let e as DatabaseError: return database(e, path: path, doing: doing)
        case is CancellationError: return error
        default: return ArchiveError(.io, "cannot \(doing) the archive \(path): \(error)", underlying: error)
        }
    }

    /// Runs `body`, turning SQLite's errors into ``ArchiveError``s about `path`.
    package static func mapping<T>(path: String, doing: String = "read", _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw wrapping(error, path: path, doing: doing)
        }
    }

    /// The `async` form of ``mapping(path:doing:_:)``.
    package static func mapping<T>(path: String, doing: String = "read", _ body: () async throws -> T) async throws -> T
    {
        do {
            return try await body()
        } catch {
            throw wrapping(error, path: path, doing: doing)
        }
    }
}

extension ArchiveError {
    /// The error for a chat the archive does not hold, named by its source id: what every query
    /// and write throws for it (`ArchiveError/Code/unknownChat`).
    package static func unknownChat(_ chat: String) -> ArchiveError {
        ArchiveError(.unknownChat, "no chat with id \"\(chat)\"")
    }
}
