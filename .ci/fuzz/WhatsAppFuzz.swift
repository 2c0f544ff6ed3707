// libFuzzer entry for the WhatsApp text export reader: encoding detection, line reader,
// header template survey, header parser, message bodies, stable ids.
import ChatModel

/// Recognises and imports the input as `WhatsApp Chat with Fuzz.txt`, floating times placed
/// in Europe/Berlin (a zone with DST gaps). Traps when the importer throws, or on records out
/// of order or a repeated item id (CheckingSink).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let name = "WhatsApp Chat with Fuzz.txt"
    _ = WhatsAppImporter.recognizes(prefix: bytes)
    let sink = CheckingSink(uniqueItemIds: true)
    do {
        try WhatsAppImporter().read(
            MemoryExport(name, bytes), entry: name, into: sink,
            options: ImportOptions(timeZoneIdentifier: "Europe/Berlin"))
    } catch {
        preconditionFailure("the importer threw \(error) with a sink that never throws")
    }
    return 0
}
