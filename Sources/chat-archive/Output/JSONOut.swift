import ChatArchive

/// A small streaming JSON writer for the CLI's documents (keys in contract order).
final class JSONOut {
    private(set) var text = ""
    private var needsComma: [Bool] = [false]

    private func separator() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }

    func object(_ body: () -> Void) {
        separator()
        text += "{"
        needsComma.append(false)
        body()
        needsComma.removeLast()
        text += "}"
    }

    func array(_ body: () -> Void) {
        separator()
        text += "["
        needsComma.append(false)
        body()
        needsComma.removeLast()
        text += "]"
    }

    func key(_ k: String) {
        separator()
        JSONValue.writeString(k, to: &text)
        text += ":"
        needsComma[needsComma.count - 1] = false
    }

    func field(_ k: String, _ v: String?) {
        key(k)
        value(v)
    }
    func field(_ k: String, _ v: Int?) {
        key(k)
        if let v { raw(String(v)) } else { raw("null") }
    }
    func field(_ k: String, _ v: Int64?) {
        key(k)
        if let v { raw(String(v)) } else { raw("null") }
    }
    func field(_ k: String, _ v: Bool) {
        key(k)
        raw(v ? "true" : "false")
    }
    func field(_ k: String, object body: () -> Void) {
        key(k)
        object(body)
    }
    func field(_ k: String, array body: () -> Void) {
        key(k)
        array(body)
    }

    func value(_ v: String?) {
        separator()
        if let v { JSONValue.writeString(v, to: &text) } else { text += "null" }
    }

    func raw(_ s: String) {
        separator()
        text += s
    }
}

extension JSONOut {
    /// An item object (the JSONOutput article of ChatArchive's documentation), with `ranges` and `snippet` for hits.
    func item(_ i: ArchivedItem, ranges: [Range<Int>]? = nil, snippet: String? = nil) {
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
                field("ranges", array: {
                    for r in ranges { self.raw("[\(r.lowerBound),\(r.upperBound)]") }
                })
            }
            field("edited", i.isEdited)
            field("deleted", i.isDeleted)
            field("unread", i.isUnread)
            field("pinned", i.isPinned)
            if let f = i.file {
                field("file", object: {
                    self.field("name", f.name)
                    self.field("size", f.size)
                    if let path = f.path { self.field("path", path) }
                })
            }
            if !i.moreFiles.isEmpty {
                field("moreFiles", array: {
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
                field("preview", object: {
                    self.field("uri", p.uri)
                    self.field("title", p.title)
                    self.field("description", p.description)
                })
            }
            if let d = i.duration { field("duration", d) }
            if let q = i.quote {
                field("quote", object: {
                    self.field("id", q.itemSourceId)
                    self.field("text", q.text)
                })
            }
            if !i.reactions.isEmpty {
                field("reactions", array: {
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
        }
    }
}
