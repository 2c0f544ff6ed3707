import ChatModel
import ChatSearch

/// The JSON of items, hits, pages and windows: the documents of the CLI's `--json` and of the
/// web app's API are these encodings (members in this order), and an app may encode the same
/// values with `JSONEncoder`.
extension ArchivedItem: Encodable {
    private enum Key: String, CodingKey {
        case id, chatId, sourceId, ts, dir, sender, contentType, text, ranges, edited, deleted, unread, pinned
        case file, moreFiles, floatingTime, wallClock, timeUnknown, preview, duration, quote, reactions, status
        case snippet, spans
        case name, size, path
    }

    /// Encodes the item object; optional members are left out when they have no value, except
    /// `sender`, which is `null`.
    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, ranges: nil, snippet: nil, spans: nil)
    }

    /// The item object with a hit's `ranges` (after `text`) and `snippet`, or a window's `spans`.
    package func encode(to encoder: any Encoder, ranges: [Range<Int>]?, snippet: String?, spans: [StoredSpan]?)
        throws
    {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(id, forKey: .id)
        try c.encode(chatId, forKey: .chatId)
        try c.encode(sourceId, forKey: .sourceId)
        try c.encode(timestamp.rfc3339, forKey: .ts)
        try c.encode(direction.rawValue, forKey: .dir)
        try c.encode(sender, forKey: .sender)
        try c.encode(contentType.rawValue, forKey: .contentType)
        try c.encode(text, forKey: .text)
        if let ranges {
            var list = c.nestedUnkeyedContainer(forKey: .ranges)
            for r in ranges { try list.encode([r.lowerBound, r.upperBound]) }
        }
        try c.encode(isEdited, forKey: .edited)
        try c.encode(isDeleted, forKey: .deleted)
        try c.encode(isUnread, forKey: .unread)
        try c.encode(isPinned, forKey: .pinned)
        if let file {
            var f = c.nestedContainer(keyedBy: Key.self, forKey: .file)
            try Self.encode(file, into: &f)
        }
        if !moreFiles.isEmpty {
            var list = c.nestedUnkeyedContainer(forKey: .moreFiles)
            for file in moreFiles {
                var f = list.nestedContainer(keyedBy: Key.self)
                try Self.encode(file, into: &f)
            }
        }
        if isFloatingTime {
            try c.encode(true, forKey: .floatingTime)
            try c.encodeIfPresent(wallClock, forKey: .wallClock)
        }
        if isTimeUnknown { try c.encode(true, forKey: .timeUnknown) }
        try c.encodeIfPresent(preview, forKey: .preview)
        try c.encodeIfPresent(duration, forKey: .duration)
        if let quote {
            var q = c.nestedContainer(keyedBy: Key.self, forKey: .quote)
            try q.encode(quote.itemSourceId, forKey: .id)
            try q.encode(quote.text, forKey: .text)
        }
        if !reactions.isEmpty { try c.encode(reactions, forKey: .reactions) }
        try c.encodeIfPresent(status?.rawValue, forKey: .status)
        try c.encodeIfPresent(snippet, forKey: .snippet)
        if let spans, !spans.isEmpty { try c.encode(spans, forKey: .spans) }
    }

    private static func encode(_ file: FileRef, into f: inout KeyedEncodingContainer<Key>) throws {
        try f.encode(file.name, forKey: .name)
        try f.encode(file.size, forKey: .size)
        try f.encodeIfPresent(file.path, forKey: .path)
    }
}

extension StoredSpan: Encodable {
    private enum Key: String, CodingKey { case start, end, format }

    /// `{"start", "end", "format"}`: UTF-16 offsets into the item's text and SimpleX's tagged
    /// format object.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        try c.encode(RawJSON(formatJSON), forKey: .format)
    }
}

extension SearchHit: Encodable {
    /// The hit's item object with `ranges` and `snippet`.
    public func encode(to encoder: any Encoder) throws {
        try item.encode(to: encoder, ranges: ranges, snippet: snippet, spans: nil)
    }
}

extension SearchPage: Encodable {
    private enum Key: String, CodingKey { case hits, nextCursor }

    /// `{"hits": [...], "nextCursor": ...}` (`null` on the last page).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(hits, forKey: .hits)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}

extension NavigationInfo: Encodable {
    private enum Key: String, CodingKey { case afterTotal, afterUnread }

    /// `{"afterTotal", "afterUnread"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(afterTotal, forKey: .afterTotal)
        try c.encode(afterUnread, forKey: .afterUnread)
    }
}

extension WindowCounts: Encodable {
    private enum Key: String, CodingKey { case before, after }

    /// `{"before": n, "after": n}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(before, forKey: .before)
        try c.encode(after, forKey: .after)
    }
}

/// An item and its spans, as a window or a media page lists it.
private struct SpannedItem: Encodable {
    var item: ArchivedItem
    var spans: [StoredSpan]?
    func encode(to encoder: any Encoder) throws {
        try item.encode(to: encoder, ranges: nil, snippet: nil, spans: spans)
    }
}

extension ItemWindow: Encodable {
    private enum Key: String, CodingKey { case items, navInfo, counts }

    /// `{"items": [...], "navInfo": {"afterTotal", "afterUnread"} or null, "counts": {"before",
    /// "after"} or null}`; each item carries its markdown `spans`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(items.map { SpannedItem(item: $0, spans: spans[$0.id]) }, forKey: .items)
        try c.encode(navInfo, forKey: .navInfo)
        try c.encode(counts, forKey: .counts)
    }
}

extension MediaPage: Encodable {
    private enum Key: String, CodingKey { case items, nextCursor }

    /// `{"items": [...], "nextCursor": ...}` (`null` on the last page), newest first; each item
    /// carries its markdown `spans`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(items.map { SpannedItem(item: $0, spans: spans[$0.id]) }, forKey: .items)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}
