import ArgumentParser
import ChatArchiveCommandLine
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `chat-archive serve`: checks the options, then replaces this process with the server
/// program `chat-archive-serve` (same arguments, same process id, so signals reach the
/// server), which keeps the HTTP stack out of every other command's process.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: ServeHelp.abstract, discussion: ServeHelp.discussion)

    /// The server program's name.
    static let program = "chat-archive-serve"

    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: ServeOptions

    func run() throws {
        guard let path = ServeCommand.serverProgram() else {
            fail(
                "the web app is the program \(ServeCommand.program), which is neither beside this chat-archive"
                    + " (\(ServeCommand.ownFolder ?? "?")) nor on PATH: build it with `swift build --product"
                    + " \(ServeCommand.program)` (as chat-archive was built, `-c release` for a release build) and"
                    + " put it beside chat-archive",
                json: global.json)
        }
        let argv = [path] + arguments
        var cArgs = argv.map { strdup($0) } + [nil]
        execv(path, &cArgs)
        fail("cannot start \(path): \(String(cString: strerror(errno)))", json: global.json)
    }

    /// The parsed options as the server program's arguments (`--name=value`, so that no value
    /// reads as an option).
    var arguments: [String] {
        var a = ["--port=\(options.port)", "--host=\(options.host)"]
        if options.open { a.append("--open") }
        if let archive = global.archive { a.append("--archive=\(archive)") }
        if global.json { a.append("--json") }
        return a
    }

    /// The folder of this executable, symbolic links resolved.
    static var ownFolder: String? {
        Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// Where the server program is: `$CHAT_ARCHIVE_SERVE` if set, else beside this executable
    /// (symbolic links resolved), else the first on `PATH`.
    static func serverProgram() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["CHAT_ARCHIVE_SERVE"], !explicit.isEmpty { return explicit }
        var candidates: [String] = []
        if let folder = ownFolder { candidates.append(folder + "/" + program) }
        for dir in (environment["PATH"] ?? "").split(separator: ":") where !dir.isEmpty {
            candidates.append(String(dir) + "/" + program)
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
