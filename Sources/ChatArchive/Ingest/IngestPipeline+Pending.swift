import ChatImport

extension IngestPipeline {
    /// Formats whose importers are still being written.
    static func readOther(_ detection: Detection, options: ImportOptions, into sink: WriterSink) throws {
        throw ImportError("\(detection.container.path): \(detection.format.rawValue) exports are recognised but not importable yet")
    }
}
