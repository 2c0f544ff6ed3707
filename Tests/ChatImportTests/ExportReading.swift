@testable import ChatImport

/// Reads the export at `path` through the door `chat-archive ingest` uses: `ExportFinder`
/// finds the exports in it (by content, or the whole path as `format`, like `--format`) and
/// each is read by the registered format that recognised it.
@discardableResult
func readExport(
    _ path: String, format: String? = nil, options: ImportOptions = ImportOptions(),
    into sink: CollectingSink = CollectingSink()
) throws -> CollectingSink {
    for found in try ExportFinder.find(path: path, forced: format).exports {
        try found.detection.read(into: sink, options: options)
    }
    return sink
}
