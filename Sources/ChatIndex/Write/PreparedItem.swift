import ChatModel
import ChatText
import Foundation

/// An item analysed on the caller's thread: everything that needs no database.
struct PreparedItem {
    let item: Item
    let analyzed: AnalyzedText
    let extra: String
    let flags: ItemFlags
    let reactions: String?
    /// Attachments after the first, as JSON.
    let moreFiles: String?
    let sourceText: String?
    /// Hash of everything but the database-assigned parts (sender, tags).
    let contentHash: StableHasher
    let textTokens: TokenizedDocument
    let extraTokens: TokenizedDocument?
    /// The text's stored form, when the preparing thread had the archive's dictionary (else
    /// the writer makes it: ``TextCompression``).
    let storedText: StoredText?

    /// About what the prepared item holds on the heap, so that a batch can be bounded by
    /// memory as well as by its number of items: the token records (the bulk: each token of
    /// the text is recorded with its folded and original forms), the texts, and the item.
    var byteCount: Int {
        let item = self.item
        var n = 512 + textTokens.byteCount + (extraTokens?.byteCount ?? 0)
        n += item.content.text.utf8.count + extra.utf8.count + (item.raw?.utf8.count ?? 0)
        n += (sourceText == nil ? 0 : analyzed.displayText.utf8.count) + (reactions?.utf8.count ?? 0)
        n += (moreFiles?.utf8.count ?? 0) + (item.quote?.text.utf8.count ?? 0)
        n += analyzed.spans.count * 64 + (analyzed.linkTargets.count + analyzed.mentionNames.count) * 32
        if case .compressed(let bytes) = storedText { n += bytes.count }
        return n
    }

    init(_ item: Item, compressor: TextCompressor? = nil) {
        self.item = item
        let analyzed = ItemAnalyzer.analyze(item.content.text, markup: item.markup)
        self.analyzed = analyzed
        var flags = ItemFlags()
        if item.isEdited { flags.insert(.edited) }
        if item.isDeleted { flags.insert(.deleted) }
        if item.isUnread { flags.insert(.unread) }
        if item.isPinned { flags.insert(.pinned) }
        if analyzed.hasLinkSpan || item.content.preview != nil { flags.insert(.hasLink) }
        if item.isFloating { flags.insert(.floatingTime) }
        if item.isTimeUnknown { flags.insert(.timeUnknown) }
        self.flags = flags

        var extraParts = analyzed.linkTargets
        if let p = item.content.preview { extraParts += [p.uri, p.title, p.description] }
        if let f = item.file { extraParts.append(f.name) }
        extraParts += item.moreFiles.map(\.name)
        if let r = item.content.reason { extraParts.append(r) }
        let extra = extraParts.filter { !$0.isEmpty }.joined(separator: "\n")
        self.extra = extra
        let reactions = item.reactions.isEmpty ? nil : PreparedItem.reactionsJSON(item.reactions)
        self.reactions = reactions
        let moreFiles = item.moreFiles.isEmpty ? nil : PreparedItem.filesJSON(item.moreFiles)
        self.moreFiles = moreFiles
        sourceText = analyzed.displayText == item.content.text ? nil : item.content.text

        var h = StableHasher()
        h.combine(item.timestamp.milliseconds)
        h.combine(item.direction.code)
        h.combine(item.content.type.code)
        h.combine(item.content.text)
        h.combine(analyzed.displayText)
        h.combine(extra)
        h.combine(item.file?.name)
        h.combine(item.file?.size ?? -1)
        h.combine(item.file?.path)
        h.combine(moreFiles)
        h.combine(item.wallClock)
        h.combine(Int64(item.content.duration ?? -1))
        h.combine(item.quote?.itemSourceId)
        h.combine(item.quote?.text)
        h.combine(reactions)
        h.combine(item.status?.rawValue)
        contentHash = h
        textTokens = TokenizedDocument(analyzed.displayText)
        extraTokens = extra.isEmpty ? nil : TokenizedDocument(extra)
        storedText = compressor?.stored(analyzed.displayText)
    }

    static func filesJSON(_ files: [FileRef]) -> String {
        var o = JSONBytes(capacity: 64 * files.count)
        o.array(files) { o, f in
            o.raw("{\"name\":")
            o.string(f.name)
            if let size = f.size {
                o.raw(",\"size\":")
                o.int(size)
            }
            if let path = f.path {
                o.raw(",\"path\":")
                o.string(path)
            }
            o.raw("}")
        }
        return o.text
    }

    static func reactionsJSON(_ r: [Reaction]) -> String {
        var o = JSONBytes(capacity: 32 * r.count)
        Reaction.write(r, to: &o)
        return o.text
    }
}
