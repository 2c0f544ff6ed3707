/// Every export format, in the order detection tries them: the one list that both the
/// detector and the ingest pipeline use.
///
/// To add a format, write its importer (a ``RegisteredImporter``, or the four parts of an
/// ``ImportFormat``) and add one line here, where its recognise test must run: tests that look
/// at folder listings before tests of file contents, specific JSON shapes before general ones.
package enum FormatRegistry {
    /// The formats in detection order.
    package static let formats: [ImportFormat] = [
        // Before SimpleX's database test, which claims a lone SQLite file whatever its tables.
        ImportFormat(IMessageImporter.self),
        ImportFormat(
            name: SimplexImporter.formatName, description: SimplexImporter.databaseDescription,
            recognise: { try SimplexImporter.recogniseDatabase($0) },
            read: { try SimplexImporter().read($0, entries: $1, into: $2, options: $3) }),
        ImportFormat(SlackImporter.self),
        ImportFormat(DiscordImporter.self),
        ImportFormat(MetaImporter.self),
        ImportFormat(TelegramImporter.self),
        ImportFormat(
            name: SimplexImporter.formatName, description: SimplexImporter.jsonDescription,
            recognise: { try SimplexImporter.recogniseJSON($0) },
            read: { try SimplexImporter().read($0, entries: $1, into: $2, options: $3) }),
        ImportFormat(MatrixImporter.self),
        ImportFormat(SignalImporter.self),
        ImportFormat(WhatsAppImporter.self),
        ImportFormat(JSONLinesImporter.self),
    ]

    /// The distinct format names, in detection order.
    package static var names: [String] {
        var seen: Set<String> = []
        return formats.map(\.name).filter { seen.insert($0).inserted }
    }

    /// The first format registered under `name`.
    package static func format(named name: String) -> ImportFormat? {
        formats.first { $0.name == name }
    }
}
