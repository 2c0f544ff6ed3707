import ArgumentParser
import ChatArchive
import Foundation

extension ArchiveError {
    /// The library's sentence with the command-line advice for its code.
    package var commandLineMessage: String {
        switch code {
        case .corrupt:
            return message
                + "; run `chat-archive check --repair` to rebuild what can be rebuilt (copy the file first), or restore the archive from a backup"
        case .newerVersion: return message + "; use a newer chat-archive"
        case .notFound where !message.contains("symbolic link"):
            return message + " (`chat-archive ingest` creates one)"
        case .readOnly where message.contains("needs an upgrade"):
            return message + "; run `chat-archive check --repair` once where it can be written"
        case .busy: return message + "; try again when the other chat-archive has finished"
        case .unknownChat: return message + " (see `chat-archive chats`)"
        default: return message
        }
    }
}

/// A failure the message explains (exit status 1).
package struct CLIError: Error, CustomStringConvertible {
    package var description: String
    package init(_ d: String) { description = d }
}

/// Runs `body`, turning library errors into one-line messages on stderr and exit status 1;
/// usage errors (`ValidationError`, `ExitCode`) go on to ArgumentParser.
package func reportingErrors(json: Bool, _ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        try report(error, json: json)
    }
}

/// The blocking form of ``reportingErrors(json:_:)-(_,()async(throws)->Void)``.
package func reportingErrors(json: Bool, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        try report(error, json: json)
    }
}

/// Exits with a one-line message for a library error; rethrows a usage error.
private func report(_ error: Error, json: Bool) throws {
    switch error {
    case let e as CLIError: fail(e.description, json: json)
    case let e as ArchiveError: fail(e.commandLineMessage, json: json)
    case let e as ImportError: fail(e.description, json: json)
    case is ValidationError, is ExitCode: throw error
    default: fail("\(error)", json: json)
    }
}

/// Prints `message` (and with `json` the document `{"error": message}` on stdout) and exits with status 1.
package func fail(_ message: String, json: Bool) -> Never {
    if json {
        let o = JSONOut()
        o.object { o.field("error", message) }
        print(o.text)
    }
    FileHandle.standardError.write(Data(("chat-archive: " + Terminal.visible(message) + "\n").utf8))
    Foundation.exit(1)
}

/// Writes a line to stderr (unbuffered).
package func standardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Parses the process's arguments for `root` and runs the command; usage errors exit with
/// status 2 (ChatArchive's CommandLine article), not sysexits' 64.
package func runCommandLine(_ root: ParsableCommand.Type, arguments: [String]? = nil) async {
    do {
        var command = try root.parseAsRoot(arguments)
        if var async = command as? AsyncParsableCommand {
            try await async.run()
        } else {
            try command.run()
        }
    } catch {
        exitReporting(error, root: root)
    }
}

/// Exits as ArgumentParser does for `error`, except that a usage error's status is 2.
package func exitReporting(_ error: Error, root: ParsableCommand.Type) -> Never {
    if root.exitCode(for: error) == .validationFailure {
        FileHandle.standardError.write(Data((root.fullMessage(for: error) + "\n").utf8))
        Foundation.exit(2)
    }
    root.exit(withError: error)
}

/// Runs `body`, a reading of the command's parameters (``RequestParameters``), and reports a
/// wrong one as a usage error (exit status 2, with the command's usage).
package func usage<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let e as ParameterError {
        throw ValidationError(e.message)
    }
}
