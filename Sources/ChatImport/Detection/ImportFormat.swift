/// One export format as the pipeline and the detector see it: its `--format` name, how errors
/// describe it, how it is recognised and how it is read.
///
/// A format is one importer type plus one line in ``FormatRegistry/formats``:
///
/// ```swift
/// ImportFormat(SignalImporter.self),
/// ```
package struct ImportFormat: Sendable {
    /// The name `--format` takes (`telegram`). Several entries may share a name when a format
    /// has tests at different places in the detection order (SimpleX databases and JSON).
    package var name: String
    /// How "Tried: …" errors describe what the format looks like.
    package var description: String
    /// The entries of a container to read as this format (empty when it is not this format),
    /// from bounded prefix reads only.
    package var recognise: @Sendable (any ExportContainer) throws -> [String]
    /// Reads `entries` of a container into a sink.
    package var read: @Sendable (any ExportContainer, [String], any ImportSink, ImportOptions) throws -> Void

    /// A format from its four parts.
    package init(
        name: String, description: String, recognise: @escaping @Sendable (any ExportContainer) throws -> [String],
        read: @escaping @Sendable (any ExportContainer, [String], any ImportSink, ImportOptions) throws -> Void
    ) {
        self.name = name
        self.description = description
        self.recognise = recognise
        self.read = read
    }

    /// The format an importer type describes with its static members.
    package init<Importer: RegisteredImporter>(_ importer: Importer.Type) {
        self.init(
            name: Importer.formatName, description: Importer.formatDescription,
            recognise: { try Importer.recognise($0) },
            read: { try Importer().read($0, entries: $1, into: $2, options: $3) })
    }
}

/// What an importer provides to be registered with one line, `ImportFormat(MyImporter.self)`.
package protocol RegisteredImporter: Sendable {
    /// The name `--format` takes.
    static var formatName: String { get }
    /// How "Tried: …" errors describe the format.
    static var formatDescription: String { get }
    /// The entries of `container` to read (empty when it is not this format); bounded prefix
    /// reads only.
    static func recognise(_ container: any ExportContainer) throws -> [String]
    /// Makes an importer with default settings.
    init()
    /// Reads `entries` of `container` into `sink`.
    func read(_ container: any ExportContainer, entries: [String], into sink: any ImportSink, options: ImportOptions)
        throws
}
