import ChatModel

/// Reads Facebook Messenger and Instagram "Download your information" exports in JSON:
/// thread folders `<slug>_<id>/` holding `message_1.json … message_N.json` (newest first)
/// under `messages/`, `your_facebook_activity/messages/` or `your_instagram_activity/messages/`,
/// from a folder, a zip, or a folder holding the several zips of one request.
///
/// Every string is repaired from Meta's Latin-1 mojibake (`MetaMojibake`). Messages have no
/// ids: an item's key is a SHA-256 over the thread's id, the message's `timestamp_ms` and its
/// ordinal among the thread's messages of that millisecond, so a re-export maps each message
/// to the same item even when its sender was renamed or it was unsent since.
package struct MetaImporter: Sendable {
    /// The format's name as `--format` takes it (Messenger and Instagram alike).
    package static let formatName = "meta"

    /// How the format is described in "Tried: …" errors.
    package static let formatDescription =
        "Messenger or Instagram Download your information (JSON with participants and messages of sender_name and timestamp_ms)"

    /// The refusal for the HTML variant.
    static let htmlMessage =
        "This is the HTML version of Download Your Information. Request a new download and choose Format: JSON."

    /// The refusal for Instagram's format before 2020.
    static let oldInstagramMessage =
        "This is the old Instagram download format (one messages.json with conversation lists), which cannot be imported. "
        + "Request a new download from Accounts Center and choose Format: JSON."

    /// The refusal for the download of end-to-end encrypted chats ("secure storage").
    static let secureStorageMessage =
        "This is the download of Messenger's end-to-end encrypted chats (secure storage), which cannot be imported yet. "
        + "The main Download your information export in Format: JSON can be imported."

    /// Makes an importer.
    package init() {}

    /// The thread files of `container` (or of the zips a folder holds, named `x.zip!entry`),
    /// with or without their `participants`; empty when this is not a Meta export. Throws for
    /// Meta's HTML variant, the old Instagram format and the encrypted chats' download, with what
    /// to do instead. Reads at most the default prefix (`ExportContainer.prefix(of:limit:)`) of
    /// each JSON entry.
    package static func recognise(_ container: any ExportContainer) throws -> [String] {
        let found = try threadFiles(in: container)
        if !found.isEmpty { return found }
        var fromZips: [String] = []
        for zip in MetaExportParts.zipNames(in: container) {
            guard let root = MetaExportParts.folderPath(of: container),
                let part = try? ZipContainer(path: root + "/" + zip)
            else { continue }
            fromZips += try threadFiles(in: part).map { zip + "!" + $0 }
        }
        return fromZips
    }

    /// The entries of `container` that are Meta thread files.
    private static func threadFiles(in container: any ExportContainer) throws -> [String] {
        var found: [String] = []
        var html: String?
        var secureStorage: String?
        for name in container.entryNames {
            let lower = name.lowercased()
            if lower.hasSuffix(".html") {
                if html == nil, isHTMLThread(lower) { html = name }
                continue
            }
            guard lower.hasSuffix(".json") else { continue }
            // An unreadable entry is reported when it is read, not here.
            let s = JSONPrefixScanner.scan((try? container.prefix(of: name)) ?? [])
            if s.root == .object, s.has("participants"), s.has("messages"),
                s.has("messages.[].timestamp_ms") || s.has("messages.[].sender_name") || s.has("thread_path")
                    || s.has("participants.[].name")
            {
                found.append(name)
            } else if s.root == .object, s.has("messages.[].sender_name"), s.has("messages.[].timestamp_ms") {
                // A thread file trimmed to its messages: read with the participants taken from them.
                found.append(name)
            } else if s.root == .array, s.has("[].conversation"), s.has("[].participants") {
                throw ImportError(oldInstagramMessage, at: SourceLocation(file: container.displayName(of: name)))
            } else if s.root == .object, s.has("threadName"), s.has("participants"), s.has("messages") {
                secureStorage = secureStorage ?? name
            }
        }
        if found.isEmpty, let secureStorage {
            throw ImportError(secureStorageMessage, at: SourceLocation(file: container.displayName(of: secureStorage)))
        }
        if found.isEmpty, let html {
            throw ImportError(htmlMessage, at: SourceLocation(file: container.displayName(of: html)))
        }
        return found
    }

    /// `…/messages/inbox/<thread>/message_1.html` and the like.
    private static func isHTMLThread(_ lowerName: String) -> Bool {
        let parts = lowerName.split(separator: "/")
        guard parts.count >= 4, parts[parts.count - 1].hasPrefix("message_") else { return false }
        return parts[parts.count - 4] == "messages" && MetaRun.categories.contains(String(parts[parts.count - 3]))
    }

    /// Reads the thread files `entries` of `container`, as ``recognise(_:)`` named them.
    package func read(
        _ container: any ExportContainer, entries: [String], into sink: any ImportSink, options: ImportOptions
    ) throws {
        var container = container
        var entries = entries
        if entries.contains(where: { $0.contains(".zip!") }), let parts = try MetaExportParts.open(folder: container) {
            container = parts
            entries = entries.map { e in e.range(of: ".zip!").map { String(e[$0.upperBound...]) } ?? e }
        }
        var run = MetaRun(container: container, sink: sink)
        try run.read(entries: entries, ownerName: options.ownerName)
    }
}
