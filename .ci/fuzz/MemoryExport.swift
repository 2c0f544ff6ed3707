// The fuzz input as a one-file export, and a sink that checks what importers send it (built
// into module ChatImport by .ci/fuzz/run, with JSONLinesFuzz.swift or WhatsAppFuzz.swift).
import ChatModel

/// One entry, `name`, holding the input bytes.
final class MemoryExport: ExportContainer {
    let path: String
    let entryNames: [String]
    let refusedEntries: [(name: String, reason: String)] = []
    private let bytes: [UInt8]

    init(_ name: String, _ bytes: [UInt8]) {
        path = name
        entryNames = [name]
        self.bytes = bytes
    }

    func open(_ name: String) throws -> ByteStream { MemoryByteStream(bytes) }
    func size(of name: String) -> Int64? { Int64(bytes.count) }
    func displayName(of name: String) -> String { name }
}

/// Counts records and issues, and traps when a member or item arrives before its chat, or
/// an item repeats a source id within its chat.
final class CheckingSink: ImportSink {
    var records = 0
    var issues: [ImportIssue] = []
    private var chats = Set<String>()
    private var itemIds = Set<[String]>()
    private let uniqueItemIds: Bool

    init(uniqueItemIds: Bool) { self.uniqueItemIds = uniqueItemIds }

    func emit(_ record: ImportRecord) throws {
        records += 1
        switch record {
        case .chat(let c): chats.insert(c.sourceId)
        case .member(let m): require(chats.contains(m.chatSourceId), "member before its chat")
        case .item(let i):
            require(chats.contains(i.chatSourceId), "item before its chat")
            if uniqueItemIds {
                require(itemIds.insert([i.chatSourceId, i.sourceId]).inserted, "repeated item id \(i.sourceId)")
            }
        }
    }

    func report(_ issue: ImportIssue) throws { issues.append(issue) }
}
