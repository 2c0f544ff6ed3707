import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine
import Foundation

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the archive and its indexes; --repair rebuilds the indexes and finds attachments again.",
        discussion: """
            Runs SQLite's integrity check, the full-text index's, and the archive's own checks (index
            entries against stored items, interrupted rebuilds, analyser version, chat-list counters), and
            prints each problem found, then whether the archive's pages carry checksums. Exit status 1 when
            a problem remains. --repair also records the attachments of an ingested folder of exports
            against the export inside it that holds them (archives made before each export of a folder
            was recorded on its own found none of them), and says how many it moved.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(
        help:
            "Rebuild the search indexes from the stored items, and find attachments of a folder of exports in their own export (items are never touched)."
    )
    var repair = false

    @Flag(
        help:
            "Give an archive made before page checksums its checksums (rewrites the file once; stored data is kept as it is)."
    )
    var addChecksums = false

    func run() async throws {
        try await reportingErrors(json: global.json) {
            // Opened as it is: an outdated or half-rebuilt index is reported, not mended silently.
            // Without --repair it only reads: opened read-only, it works on read-only media too.
            let archive = try global.open(repair || addChecksums ? .readWrite : .readOnly, rebuildsStaleIndexes: false)
            var problems = try await archive.check()
            var repaired = false
            // Before the indexes: what it moved is reported whether or not they needed rebuilding.
            let attachments = repair ? try await archive.repairAttachmentRoots() : AttachmentRootRepair()
            if repair && !problems.isEmpty {
                if !global.json { for p in problems { print(Terminal.visible("found: \(p)")) } }
                problems = try await archive.repair { progress in
                    if Terminal.stderrIsTerminal {
                        Terminal.progressLine(
                            "rebuilding the search index", done: progress.completed, total: progress.total)
                    }
                }
                repaired = true
            }
            // Checksums are added to a healthy archive only: a VACUUM of a damaged one could
            // seal what is wrong in it.
            var checksumsAdded = false
            if addChecksums && problems.isEmpty {
                if !global.json && archive.hasPageChecksums == false && Terminal.stderrIsTerminal {
                    Terminal.eprint("adding page checksums: rewriting every page of the archive…")
                }
                checksumsAdded = try await archive.addPageChecksums()
            }
            let checksums = archive.hasPageChecksums
            if global.json {
                let o = JSONOut()
                o.object {
                    o.field("ok", problems.isEmpty)
                    o.field("repaired", repaired)
                    o.field("problems", array: { for p in problems { o.value(p) } })
                    if let checksums { o.field("pageChecksums", checksums) }
                    o.field("checksumsAdded", checksumsAdded)
                    if repair {
                        o.field(
                            "attachmentsMoved",
                            array: {
                                for m in attachments.moves {
                                    o.object {
                                        o.field("from", m.from)
                                        o.field("to", m.to)
                                        o.field("items", m.items)
                                    }
                                }
                            })
                        o.field("attachmentsLeft", attachments.itemsLeft)
                    }
                }
                print(o.text)
            } else {
                for m in attachments.moves {
                    print(
                        Terminal.visible(
                            "found attachments: \(m.items) item\(m.items == 1 ? "" : "s") recorded against \(m.from) now read from \(m.to), the export inside it that holds their files"
                        ))
                }
                if attachments.itemsLeft > 0 {
                    print(
                        "attachments: \(attachments.itemsLeft) item\(attachments.itemsLeft == 1 ? "'s file is" : "s' files are") in no single export of their folder; left as they were"
                    )
                }
                if problems.isEmpty {
                    print(
                        repaired
                            ? "repaired: the indexes were rebuilt from the stored items; the archive is now healthy"
                            : "ok: the archive and its indexes are healthy")
                } else {
                    for p in problems { print(Terminal.visible("problem: \(p)")) }
                    if !repair {
                        print("`chat-archive check --repair` rebuilds what can be rebuilt from the stored items")
                    }
                }
            }
            if !global.json {
                switch (checksums, checksumsAdded) {
                case (true, true): print("page checksums: added; every page is now verified whenever it is read")
                case (true, _): print("page checksums: yes, every page is verified whenever it is read")
                case (false, _) where addChecksums && !problems.isEmpty:
                    print("page checksums: none, and not added to an archive with problems")
                case (false, _):
                    print(
                        "page checksums: none (an archive made before them); `chat-archive check --add-checksums` adds them"
                    )
                default: break
                }
            }
            if !problems.isEmpty { throw ExitCode(1) }
        }
    }
}
