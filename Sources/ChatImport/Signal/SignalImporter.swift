import ChatModel

/// Reads Signal's plaintext export ("Export chat history" on Android and Desktop): a
/// `main.jsonl` of libsignal's JSON frames (a header line, then one `account`, `recipient`,
/// `chat`, `chatItem`… object per line), `metadata.json`, and the attachments under `files/`.
///
/// Chats, members and items are keyed by Signal's own identities (ACI, phone number, a hash
/// of the group's master key, the author and sent time of a message), never by the ids the
/// file numbers its records with, so that a later export updates what an earlier one stored.
/// Secrets the export holds in clear are dropped from the stored raw records. Encrypted
/// backups are refused with a message that says how to export in plain text.
package struct SignalImporter: Sendable {
    /// The format's name as `--format` takes it.
    package static let formatName = "signal"

    /// How the format is described in "Tried: …" errors.
    package static let formatDescription =
        "Signal (main.jsonl of \"Export chat history\": a first line with version and backupTimeMs, then one frame per line)"

    /// The message that refuses an encrypted backup.
    static let encryptedMessage =
        "is an encrypted Signal backup, which cannot be read: export in plain text instead "
        + "(in Signal: Settings → Chats → Export chat history), then import that folder"

    /// Makes an importer.
    package init() {}

    /// The frame keys of a plaintext export's lines after the header.
    static let frameKeys: Set<String> = [
        "account", "recipient", "chat", "chatItem", "stickerPack", "adHocCall", "notificationProfile", "chatFolder",
    ]

    /// The `main.jsonl` entries of `container` (empty when it is not a Signal export), from
    /// bounded prefixes. Throws for an encrypted Signal backup.
    package static func recognise(_ container: any ExportContainer) throws -> [String] {
        let names = container.entryNames
        let candidates = names.filter { name in
            let base = name.split(separator: "/").last.map(String.init) ?? name
            return (base.lowercased().hasSuffix(".jsonl") && !name.hasPrefix("files/") && !name.contains("/files/"))
                || names.count == 1
        }
        var found: [String] = []
        for name in candidates.prefix(64) {
            let prefix = (try? container.prefix(of: name)) ?? []
            if isMainJSONL(prefix) { found.append(name) }
        }
        if !found.isEmpty { return found }
        if let encrypted = try encryptedBackup(in: container) {
            throw ImportError("\(container.displayName(of: encrypted)) " + encryptedMessage)
        }
        return []
    }

    /// Whether a prefix is the start of a Signal `main.jsonl`: a first line that is an object
    /// with `version` and `backupTimeMs`, and following lines (those complete in the prefix)
    /// that are objects of exactly one member, the first of them a known frame.
    static func isMainJSONL(_ prefix: [UInt8]) -> Bool {
        var lines: [ArraySlice<UInt8>] = []
        var start = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < prefix.count, lines.count < 9 {
            guard let end = prefix[start...].firstIndex(of: 0x0A) else {
                // The last, unterminated line counts only when the prefix is the whole file.
                if prefix.count < 64 << 10 { lines.append(prefix[start...]) }
                break
            }
            let line = prefix[start..<end]
            if line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) { lines.append(line) }
            start = end + 1
        }
        guard let first = lines.first, let header = try? JSONParser.parse(first),
            header["version"] != nil, header["backupTimeMs"] != nil
        else { return false }
        // The first frame must be a known one; later lines that are JSON must be frames too
        // (a bad line is the importer's to report, not a reason to call the file something else).
        for (index, line) in lines.dropFirst().enumerated() {
            guard let v = try? JSONParser.parse(line) else {
                if index == 0 { return false }
                continue
            }
            guard case .object(let members) = v, members.count == 1 else { return false }
            if index == 0, !frameKeys.contains(members[0].0) { return false }
        }
        return true
    }

    /// An encrypted backup in `container`: a `signal-backup-*` folder whose `main` is not
    /// JSON text, or an Android `signal-*.backup` file.
    static func encryptedBackup(in container: any ExportContainer) throws -> String? {
        let names = Set(container.entryNames)
        for name in container.entryNames {
            let parts = name.split(separator: "/")
            guard let base = parts.last?.lowercased() else { continue }
            if base.hasPrefix("signal-"), base.hasSuffix(".backup") { return name }
            let folder = parts.count > 1 ? String(parts[parts.count - 2]) : ""
            let metadata = String(name.dropLast(4)) + "metadata"
            if base == "main", folder.hasPrefix("signal-backup-") || names.contains(metadata) {
                let head = (try? container.prefix(of: name, limit: 16)) ?? []
                let text = head.drop {
                    $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF
                }
                if !head.isEmpty, text.first != UInt8(ascii: "{") { return name }
            }
        }
        return nil
    }

    /// Reads the given `main.jsonl` entries of `container`, each on its own (the ids inside one
    /// file mean nothing in another).
    package func read(
        _ container: any ExportContainer, entries: [String], into sink: any ImportSink, options: ImportOptions
    ) throws {
        let locatorEntries = container.entryNames
        for entry in entries {
            var reader = SignalReader(container: container, entry: entry, sink: sink, entryNames: locatorEntries)
            try reader.read()
        }
    }
}
