extension SimplexImporter: RegisteredImporter {
    /// How "Tried: …" errors describe both SimpleX tests.
    package static let formatDescription = databaseDescription + "; " + jsonDescription
    /// How "Tried: …" errors describe the database test.
    package static let databaseDescription = "SimpleX database (a zip or folder holding simplex_v1_chat.db)"
    /// How "Tried: …" errors describe the chat JSON test.
    package static let jsonDescription = "SimpleX JSON (chatInfo and chatItems, or an apiChat response)"

    /// The chat databases of a container, else its SimpleX chat JSON files.
    package static func recognise(_ container: any ExportContainer) throws -> [String] {
        let databases = try recogniseDatabase(container)
        return databases.isEmpty ? try recogniseJSON(container) : databases
    }

    /// `simplex_v1_chat.db` anywhere in the container, or a lone SQLite file whatever its name.
    package static func recogniseDatabase(_ container: any ExportContainer) throws -> [String] {
        let named = container.entryNames.filter { Sniff.baseName($0) == chatDatabaseName }
        if !named.isEmpty { return named }
        if container.entryNames.count == 1, let only = container.entryNames.first,
            (try container.prefix(of: only, limit: sqliteMagic.count)) == sqliteMagic
        {
            return [only]
        }
        return []
    }

    /// JSON objects with `chatInfo` and `chatItems`, or an `apiChat`/`apiChats` response
    /// (bare, or wrapped in `result` or `resp`).
    package static func recogniseJSON(_ container: any ExportContainer) throws -> [String] {
        Sniff.entries(container) { s in
            guard s.root == .object else { return false }
            if s.has("chatInfo") && s.has("chatItems") { return true }
            let apiTags: Set<String> = ["apiChat", "apiChats"]
            if let t = s.strings["type"], apiTags.contains(t) { return true }
            for wrapper in ["result", "resp"] {
                if s.has("\(wrapper).apiChat") || s.has("\(wrapper).apiChats") { return true }
                if let t = s.strings["\(wrapper).type"], apiTags.contains(t) { return true }
                if s.has("\(wrapper).chatInfo") && s.has("\(wrapper).chatItems") { return true }
            }
            return s.has("apiChat") && s.paths.count(where: { !$0.contains(".") }) == 1
        }
    }

    /// Reads chat databases and chat JSON files (SimpleX takes no import options).
    package func read(
        _ container: any ExportContainer, entries: [String], into sink: any ImportSink, options: ImportOptions
    ) throws {
        try read(container, entries: entries, into: sink)
    }
}
