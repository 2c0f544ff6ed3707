import ArgumentParser
import ChatArchive

/// The options every command takes, as plain values: what ``GlobalOptions`` parses, and what the
/// quick path of the read commands fills in without ArgumentParser.
package struct GlobalValues: Equatable, Sendable {
    /// `--archive PATH`, if given.
    package var archive: String?
    /// `--json`: one JSON document on stdout.
    package var json = false

    package init(archive: String? = nil, json: Bool = false) {
        self.archive = archive
        self.json = json
    }

    /// The archive the command works on: `--archive`, else the library's default path.
    package var archivePath: String { archive ?? Archive.defaultPath }

    /// Opens the archive: commands that only read open it read-only (a missing archive is
    /// "no archive at PATH" and nothing is created); `rebuildsStaleIndexes: false` leaves an
    /// outdated index as it is (for `check`, which reports it). A write that waits for another
    /// program says so on stderr.
    package func open(_ mode: Archive.OpenMode, rebuildsStaleIndexes: Bool = true) throws -> Archive {
        let path = archivePath
        // A read command makes one query and exits: one connection, not a pool of two.
        if mode == .readOnly { return try Archive(readingOnceAt: path) }
        return try Archive(
            path: path, mode: mode, rebuildsStaleIndexes: rebuildsStaleIndexes,
            rebuildProgress: { done, total in
                if Terminal.stderrIsTerminal {
                    Terminal.progressLine("rebuilding the search index", done: done, total: total)
                }
            },
            onWait: { Terminal.eprint("waiting for another chat-archive writing to \(path)…") })
    }
}

/// Options every command takes.
package struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long, help: "The archive file (default: $CHAT_ARCHIVE or ~/.local/share/chat-archive/archive.sqlite).")
    package var archive: String?

    @Flag(name: .long, help: "Print one JSON document on stdout.")
    package var json = false

    package init() {}

    /// The parsed options as plain values.
    package var values: GlobalValues { GlobalValues(archive: archive, json: json) }

    package var archivePath: String { values.archivePath }

    /// See ``GlobalValues/open(_:rebuildsStaleIndexes:)``.
    package func open(_ mode: Archive.OpenMode, rebuildsStaleIndexes: Bool = true) throws -> Archive {
        try values.open(mode, rebuildsStaleIndexes: rebuildsStaleIndexes)
    }
}
