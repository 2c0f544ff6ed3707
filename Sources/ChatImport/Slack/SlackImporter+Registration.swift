extension SlackImporter: RegisteredImporter {
    /// How "Tried: …" errors describe the format.
    package static let formatDescription = "Slack (channels.json or users.json)"

    /// Every JSON entry, when `channels.json`, `users.json` or `org_users.json` sits at the top
    /// or in one extra top folder.
    package static func recognise(_ container: any ExportContainer) throws -> [String] {
        let markers: Set<String> = ["channels.json", "users.json", "org_users.json"]
        let hasMarker = container.entryNames.contains { name in
            markers.contains(Sniff.baseName(name)) && name.split(separator: "/").count <= 2
        }
        return hasMarker ? container.entryNames.filter { $0.lowercased().hasSuffix(".json") } : []
    }

    /// Reads the whole export: its lists say which day files belong to it.
    package func read(
        _ container: any ExportContainer, entries: [String], into sink: any ImportSink, options: ImportOptions
    ) throws {
        try read(container, into: sink, options: options)
    }
}
