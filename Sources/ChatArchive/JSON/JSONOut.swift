import ChatModel
import ChatSearch

/// A small streaming JSON writer for the documents of the CLI's `--json` and the web app's API
/// (keys in contract order).
package final class JSONOut {
    package private(set) var text = ""

    package init() {}
    private var needsComma: [Bool] = [false]

    private func separator() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }

    package func object(_ body: () -> Void) {
        separator()
        text += "{"
        needsComma.append(false)
        body()
        needsComma.removeLast()
        text += "}"
    }

    package func array(_ body: () -> Void) {
        separator()
        text += "["
        needsComma.append(false)
        body()
        needsComma.removeLast()
        text += "]"
    }

    package func key(_ k: String) {
        separator()
        JSONValue.writeString(k, to: &text)
        text += ":"
        needsComma[needsComma.count - 1] = false
    }

    package func field(_ k: String, _ v: String?) {
        key(k)
        value(v)
    }
    package func field(_ k: String, _ v: Int?) {
        key(k)
        if let v { raw(String(v)) } else { raw("null") }
    }
    package func field(_ k: String, _ v: Int64?) {
        key(k)
        if let v { raw(String(v)) } else { raw("null") }
    }
    package func field(_ k: String, _ v: Bool) {
        key(k)
        raw(v ? "true" : "false")
    }
    package func field(_ k: String, object body: () -> Void) {
        key(k)
        object(body)
    }
    package func field(_ k: String, array body: () -> Void) {
        key(k)
        array(body)
    }

    package func value(_ v: String?) {
        separator()
        if let v { JSONValue.writeString(v, to: &text) } else { text += "null" }
    }

    package func raw(_ s: String) {
        separator()
        text += s
    }
}

extension JSONOut {
    /// An item object (the JSONOutput article of ChatArchive's documentation), with `ranges` and `snippet` for hits.
    package func item(
        _ i: ArchivedItem, ranges: [Range<Int>]? = nil, snippet: String? = nil, spans: [StoredSpan]? = nil
    ) {
        object {
            field("id", i.id)
            field("chatId", i.chatId)
            field("sourceId", i.sourceId)
            field("ts", i.timestamp.rfc3339)
            field("dir", i.direction.rawValue)
            field("sender", i.sender)
            field("contentType", i.contentType.rawValue)
            field("text", i.text)
            if let ranges {
                field(
                    "ranges",
                    array: {
                        for r in ranges { self.raw("[\(r.lowerBound),\(r.upperBound)]") }
                    })
            }
            field("edited", i.isEdited)
            field("deleted", i.isDeleted)
            field("unread", i.isUnread)
            field("pinned", i.isPinned)
            if let f = i.file {
                field(
                    "file",
                    object: {
                        self.field("name", f.name)
                        self.field("size", f.size)
                        if let path = f.path { self.field("path", path) }
                    })
            }
            if !i.moreFiles.isEmpty {
                field(
                    "moreFiles",
                    array: {
                        for f in i.moreFiles {
                            self.object {
                                self.field("name", f.name)
                                self.field("size", f.size)
                                if let path = f.path { self.field("path", path) }
                            }
                        }
                    })
            }
            if i.isFloatingTime {
                field("floatingTime", true)
                if let w = i.wallClock { field("wallClock", w) }
            }
            if i.isTimeUnknown { field("timeUnknown", true) }
            if let p = i.preview {
                field(
                    "preview",
                    object: {
                        self.field("uri", p.uri)
                        self.field("title", p.title)
                        self.field("description", p.description)
                    })
            }
            if let d = i.duration { field("duration", d) }
            if let q = i.quote {
                field(
                    "quote",
                    object: {
                        self.field("id", q.itemSourceId)
                        self.field("text", q.text)
                    })
            }
            if !i.reactions.isEmpty {
                field(
                    "reactions",
                    array: {
                        for r in i.reactions {
                            self.object {
                                self.field("emoji", r.emoji)
                                self.field("count", r.count)
                            }
                        }
                    })
            }
            if let s = i.status { field("status", s.rawValue) }
            if let snippet { field("snippet", snippet) }
            if let spans, !spans.isEmpty {
                // Markdown of `text`: UTF-16 [start, end) and SimpleX's tagged format object.
                field(
                    "spans",
                    array: {
                        for sp in spans {
                            self.object {
                                self.field("start", sp.start)
                                self.field("end", sp.end)
                                self.key("format")
                                self.raw(sp.formatJSON)
                            }
                        }
                    })
            }
        }
    }
}
