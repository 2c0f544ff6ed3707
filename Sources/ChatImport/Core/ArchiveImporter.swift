/// A reader of one export format.
package protocol ArchiveImporter: Sendable {
    /// The format's name as `--format` takes it.
    static var formatName: String { get }
    /// Reads the export at `source` and sends everything to `sink`, streaming: memory stays
    /// bounded whatever the export's size.
    func read(_ source: ImportSource, into sink: any ImportSink) throws
}
