extension TelegramImporter: RegisteredImporter {
    /// How "Tried: …" errors describe the format.
    package static let formatDescription = "Telegram (JSON with messages and type, or personal_information or chats)"

    /// JSON objects with `messages` and `type` (one chat), or `personal_information` or
    /// `chats.list` (a whole account).
    package static func recognise(_ container: any ExportContainer) throws -> [String] {
        Sniff.entries(container) { s in
            s.root == .object
                && ((s.has("messages") && s.has("type")) || s.has("personal_information") || s.has("chats.list"))
        }
    }

    /// Reads each entry as a Telegram JSON file.
    package func read(
        _ container: any ExportContainer, entries: [String], into sink: any ImportSink, options: ImportOptions
    ) throws {
        for entry in entries {
            sink.beginEntry(entry)
            try read(container, entry: entry, into: sink, options: options)
        }
    }
}
