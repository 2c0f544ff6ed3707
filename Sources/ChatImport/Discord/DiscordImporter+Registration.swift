extension DiscordImporter: RegisteredImporter {
    /// How "Tried: …" errors describe the format.
    package static let formatDescription = "DiscordChatExporter (JSON with guild and channel)"

    /// JSON objects with `guild` and `channel`.
    package static func recognise(_ container: any ExportContainer) throws -> [String] {
        Sniff.entries(container) { $0.root == .object && $0.has("guild") && $0.has("channel") }
    }
}
