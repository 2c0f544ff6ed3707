// libFuzzer entry for the JSON Lines importer and the JSON parser under it.
import ChatModel

/// Imports the input as a `.jsonl` file. Traps unless every non-blank line gave exactly one
/// record or one skipped-line issue (warnings come on top), or when records arrive out of
/// order (CheckingSink).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = JSONLinesImporter.recognizes(prefix: bytes)
    _ = try? JSONParser.parse(bytes)
    let sink = CheckingSink(uniqueItemIds: false)
    do {
        try JSONLinesImporter().read(MemoryExport("fuzz.jsonl", bytes), entry: "fuzz.jsonl", into: sink)
    } catch {
        fatalError("the importer threw \(error) with a sink that never throws")
    }
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    let nonBlank = lines.filter { !$0.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }.count
    let skipped = sink.issues.filter { $0.severity != .warning }.count
    require(sink.records + skipped == nonBlank, "\(nonBlank) lines gave \(sink.records) records and \(skipped) issues")
    return 0
}
