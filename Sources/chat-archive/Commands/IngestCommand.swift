import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine
import Foundation

struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest", abstract: "Import chat exports (files, folders, zips) into the archive.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "auto, jsonl, simplex, telegram, whatsapp, discord, slack, matrix, signal, meta or imessage.")
    var format = "auto"

    @Option(
        help:
            "Time zone for formats with floating local times (WhatsApp, old Telegram): an IANA name such as Europe/Berlin, UTC, or an offset such as +01:00. Default UTC."
    )
    var timezone: String?

    @Option(help: "WhatsApp, Discord, Slack: the author name that is you.")
    var me: String?

    @Option(
        name: .customLong("date-order"),
        help: "WhatsApp: the day/month order of the dates when the file cannot tell: dmy, mdy or ymd.")
    var dateOrder: String?

    @Option(
        name: .customLong("chat-name"),
        help:
            "WhatsApp: the chat's name and key instead of the one from the file name (use the same one when re-importing)."
    )
    var chatName: String?

    @Flag(help: "Stop at the first problem, warnings included (everything stored before it stays).")
    var strict = false

    @Flag(
        inversion: .prefixedNo,
        help:
            "Store the messages' text compressed with a dictionary trained on them (the default where zstd's libzstd.so.1 loads): a smaller archive, a page of hits a little slower to read (ChatIndex's WritePerformance article has the figures). An archive made by a build of format 13 or later only; from then on every write compresses."
    )
    var compressText: Bool? = nil

    @Flag(name: .shortAndLong, help: "List every file skipped as not a chat export (by default they are counted).")
    var verbose = false

    @Option(name: .customLong("batch-size"), help: .hidden)
    var batchSize = 10_000

    @Argument(help: "Export files, folders or zips.")
    var paths: [String]

    func validate() throws {
        guard format == "auto" || FormatDetector.formatNames.contains(format) else {
            throw ValidationError("unknown --format \(format)")
        }
        if let tz = timezone, !Self.isZone(tz) {
            throw ValidationError(
                "unknown time zone \(tz) (give an IANA name such as Europe/Berlin, UTC, or an offset such as +01:00)")
        }
        if let d = dateOrder, Self.dateOrder(d) == nil {
            throw ValidationError("unknown --date-order \(d) (expected dmy, mdy or ymd)")
        }
        if let c = chatName, c.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--chat-name is empty")
        }
    }

    /// `dmy`, `mdy`, `ymd` (or the long names) as a date order.
    static func dateOrder(_ s: String) -> WhatsAppDateOrder? {
        switch s.lowercased() {
        case "dmy", "daymonthyear": .dayMonthYear
        case "mdy", "monthdayyear": .monthDayYear
        case "ymd", "yearmonthday": .yearMonthDay
        default: nil
        }
    }

    /// An IANA zone, `UTC`/`Z`, seconds east of UTC, or `±HH:MM`, as the importers accept them.
    static func isZone(_ s: String) -> Bool {
        if s == "UTC" || s == "Z" || TimeZone(identifier: s) != nil { return true }
        if let seconds = Int(s) { return abs(seconds) <= 18 * 3600 }
        let b = Array(s.utf8)
        guard b.count == 6, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"), b[3] == UInt8(ascii: ":"),
            let h = Int(String(decoding: b[1..<3], as: UTF8.self)),
            let m = Int(String(decoding: b[4..<6], as: UTF8.self))
        else { return false }
        return h <= 18 && m < 60
    }

    func run() async throws {
        try reportingErrors(json: global.json) {
            // Nothing to read: say so before an archive is created.
            if let missing = paths.first(where: { !FileManager.default.fileExists(atPath: $0) }),
                paths.allSatisfy({ !FileManager.default.fileExists(atPath: $0) })
            {
                throw CLIError("no such file or folder: \(missing)")
            }
            // A new archive is created only for something it can read: when no path holds an
            // export, the detector's error is the answer and no file or folder is left behind.
            if !FileManager.default.fileExists(atPath: global.archivePath) {
                try Self.requireOneExport(in: paths, format: format)
            }
            let archive = try global.open(.create)
            let started = Date()
            let bar = ProgressBar(enabled: Terminal.stderrIsTerminal && !global.json)
            let interrupt = IngestInterrupt()
            interrupt.install()
            defer { interrupt.uninstall() }
            let report = try archive.ingestSync(
                paths,
                options: IngestOptions(
                    format: format, strict: strict,
                    importOptions: ImportOptions(
                        timeZoneIdentifier: timezone, ownerName: me, dateOrder: dateOrder.flatMap(Self.dateOrder),
                        chatKey: chatName),
                    batchSize: batchSize, compressesText: compressText ?? IngestOptions.compressesByDefault),
                isCancelled: { interrupt.caughtSignal != nil }
            ) { p in bar.update(p) }
            bar.finish()
            let elapsed = Date().timeIntervalSince(started)
            if global.json {
                print(ArchiveJSON.ingest(report))
            } else {
                for e in report.errors.prefix(50) {
                    let label = e.severity == .warning ? "warning" : e.severity == .skipped ? "skipped" : "error"
                    Terminal.eprint(Terminal.visible("\(label): \(e)"))
                }
                if report.errors.count > 50 { Terminal.eprint("… and \(report.errors.count - 50) more problems") }
                for e in report.exports {
                    print(
                        Terminal.visible(
                            "read \(e.path) as \(e.format): \(e.filesRead) file\(e.filesRead == 1 ? "" : "s"), \(e.itemsRead) items"
                        ))
                    for s in e.skipped where verbose || !s.isNotAnExport {
                        print(Terminal.visible("  skipped \(s.path): \(s.reason)"))
                    }
                }
                for s in report.skippedFiles where verbose || !s.isNotAnExport {
                    print(Terminal.visible("skipped \(s.path): \(s.reason)"))
                }
                let notExports = (report.exports.flatMap(\.skipped) + report.skippedFiles).filter(\.isNotAnExport)
                    .reduce(0) { $0 + $1.fileCount }
                if notExports > 0 && !verbose {
                    print(
                        "\(notExports) file\(notExports == 1 ? "" : "s") skipped: not chat exports; --verbose lists them"
                    )
                }
                let total = report.itemsAdded + report.itemsUpdated + report.itemsUnchanged
                print(
                    "\(report.chats) chats, \(report.itemsAdded) items added, \(report.itemsUpdated) updated, "
                        + "\(report.itemsUnchanged) unchanged, \(report.itemsSkipped) skipped, \(report.warnings) warnings"
                        + (report.filesStopped > 0 ? ", \(report.filesStopped) files stopped early" : "")
                        + String(format: " in %.1f s (%.0f items/s)", elapsed, Double(total) / max(elapsed, 0.001)))
                if report.interrupted {
                    print("interrupted: \(total) items committed; run the same command to resume")
                } else if report.stoppedEarly {
                    print(
                        strict
                            ? "stopped at the first bad record (--strict)"
                            : "some sources stopped early; see the warnings")
                }
                print("archive: \(global.archivePath)")
            }
            if report.interrupted, let sig = interrupt.caughtSignal { throw ExitCode(128 + sig) }
            if report.stoppedEarly && strict { throw ExitCode(1) }
        }
    }
}

extension IngestCommand {
    /// Throws the first path's detection error when none of `paths` holds an export.
    static func requireOneExport(in paths: [String], format: String) throws {
        let forced = format == "auto" ? nil : format
        var first: Error?
        for path in paths {
            do {
                let search = try ExportFinder.find(path: path, forced: forced)
                if !search.exports.isEmpty { return }
            } catch {
                first = first ?? error
            }
        }
        if let first { throw first }
    }
}

/// The ingest progress bar: items/s, percent and ETA from the file size.
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private let start = Date()
    private var drawn = false

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ p: IngestProgress) {
        guard enabled else { return }
        lock.withLock {
            let elapsed = Date().timeIntervalSince(start)
            let rate = Double(p.itemsRead) / max(elapsed, 0.001)
            var line: String
            if p.isChecking {
                line = "checking the archive before writing to it (SQLite reads the whole file once)…"
            } else if p.isIndexing {
                line = "building the search index…"
            } else if let total = p.totalBytes, total > 0 {
                let frac = min(1, Double(p.bytesRead) / Double(total))
                let width = 24
                let filled = Int(frac * Double(width))
                let eta = frac > 0.01 ? elapsed / frac - elapsed : 0
                line = "[" + String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled) + "]"
                line += String(format: " %3.0f%%  %.0f items/s  ETA %.0fs  ", frac * 100, rate, eta)
                line += (p.file as NSString).lastPathComponent
            } else {
                line = String(format: "%d items  %.0f items/s", p.itemsRead, rate)
            }
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
            drawn = true
        }
    }

    func finish() {
        guard enabled else { return }
        lock.withLock { if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) } }
    }
}
