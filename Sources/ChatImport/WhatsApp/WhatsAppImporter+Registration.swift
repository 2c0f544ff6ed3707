extension WhatsAppImporter: RegisteredImporter {
    /// How "Tried: …" errors describe the format.
    package static let formatDescription = "WhatsApp (text whose lines start with a date and time header)"

    /// Makes an importer that takes the chat key and the date order from the options.
    package init() { self.init(chatKey: nil, dateOrder: nil) }

    /// Text entries whose first lines fit a message header template.
    package static func recognise(_ container: any ExportContainer) throws -> [String] {
        Sniff.candidates(container).filter { FormatDetector.looksLikeWhatsApp(Sniff.prefix(container, $0)) }
    }

    /// Reads each entry as one chat's text export.
    package func read(
        _ container: any ExportContainer, entries: [String], into sink: any ImportSink, options: ImportOptions
    ) throws {
        for entry in entries {
            sink.beginEntry(entry)
            try read(container, entry: entry, into: sink, options: options)
        }
    }
}
