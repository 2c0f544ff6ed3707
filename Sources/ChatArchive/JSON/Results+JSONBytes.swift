import ChatModel
import ChatSearch

// The documents the CLI and the web app write most, by hand: the same bytes as the `Encodable`
// conformances beside them (ArchivedItem+Encodable.swift, ChatRow+Encodable.swift) produce
// through JSONStreamEncoder, member for member. A change to one is a change to both; the
// tests compare them byte for byte.

extension ChatRow: JSONBytesWritable {
    package func write(to o: inout JSONBytes) {
        o.raw("{\"chatId\":")
        o.string(chatId)
        o.raw(",\"type\":")
        o.string(type.rawValue)
        o.raw(",\"business\":")
        o.string(business?.rawValue)
        o.raw(",\"displayName\":")
        o.string(displayName)
        o.raw(",\"fullName\":")
        o.string(fullName)
        o.raw(",\"localAlias\":")
        o.string(localAlias)
        o.raw(",\"favorite\":")
        o.bool(isFavorite)
        o.raw(",\"muted\":")
        o.bool(isMuted)
        o.raw(",\"unreadCount\":")
        o.int(unreadCount)
        o.raw(",\"unreadMentions\":")
        o.int(unreadMentions)
        o.raw(",\"tags\":")
        o.array(tags) { $0.string($1) }
        o.raw(",\"lastActivity\":")
        o.time(lastActivity)
        o.raw(",\"itemCount\":")
        o.int(itemCount)
        o.raw(",\"preview\":{\"kind\":")
        o.string(preview.kind.rawValue)
        o.raw(",\"sender\":")
        o.string(preview.sender)
        o.raw(",\"contentType\":")
        o.string(preview.contentType?.rawValue)
        o.raw(",\"text\":")
        o.string(preview.text)
        o.raw("}}")
    }
}

extension ChatListPage: JSONBytesWritable {
    package func write(to o: inout JSONBytes) {
        o.raw("{\"chats\":")
        o.array(rows) { $1.write(to: &$0) }
        o.raw(",\"nextCursor\":")
        o.string(nextCursor)
        o.raw("}")
    }
}

extension ArchivedItem: JSONBytesWritable {
    package func write(to o: inout JSONBytes) { write(to: &o, ranges: nil, snippet: nil, spans: nil) }

    /// The item object with a hit's `ranges` (after `text`) and `snippet`, or a window's `spans`.
    package func write(to o: inout JSONBytes, ranges: [Range<Int>]?, snippet: String?, spans: [StoredSpan]?) {
        o.raw("{\"id\":")
        o.int(id)
        o.raw(",\"chatId\":")
        o.string(chatId)
        o.raw(",\"sourceId\":")
        o.string(sourceId)
        o.raw(",\"ts\":")
        o.time(timestamp)
        o.raw(",\"dir\":")
        o.string(direction.rawValue)
        o.raw(",\"sender\":")
        o.string(sender)
        o.raw(",\"contentType\":")
        o.string(contentType.rawValue)
        o.raw(",\"text\":")
        o.string(text)
        if let ranges {
            o.raw(",\"ranges\":")
            o.array(ranges) { o, r in
                o.raw("[")
                o.int(r.lowerBound)
                o.raw(",")
                o.int(r.upperBound)
                o.raw("]")
            }
        }
        writeStateAndFiles(to: &o)
        writeExtras(to: &o)
        if let snippet {
            o.raw(",\"snippet\":")
            o.string(snippet)
        }
        if let spans, !spans.isEmpty {
            o.raw(",\"spans\":")
            o.array(spans) { o, s in
                o.raw("{\"start\":")
                o.int(s.start)
                o.raw(",\"end\":")
                o.int(s.end)
                o.raw(",\"format\":")
                o.json(s.formatJSON)
                o.raw("}")
            }
        }
        o.raw("}")
    }

    /// `edited` to `pinned`, the item's files and the time's provenance.
    private func writeStateAndFiles(to o: inout JSONBytes) {
        o.raw(",\"edited\":")
        o.bool(isEdited)
        o.raw(",\"deleted\":")
        o.bool(isDeleted)
        o.raw(",\"unread\":")
        o.bool(isUnread)
        o.raw(",\"pinned\":")
        o.bool(isPinned)
        if let file {
            o.raw(",\"file\":")
            Self.write(file, to: &o)
        }
        if !moreFiles.isEmpty {
            o.raw(",\"moreFiles\":")
            o.array(moreFiles) { Self.write($1, to: &$0) }
        }
        if isFloatingTime {
            o.raw(",\"floatingTime\":true")
            if let wallClock {
                o.raw(",\"wallClock\":")
                o.string(wallClock)
            }
        }
        if isTimeUnknown { o.raw(",\"timeUnknown\":true") }
    }

    /// The members present only when the item has them: `preview` to `status`.
    private func writeExtras(to o: inout JSONBytes) {
        if let preview {
            o.raw(",\"preview\":{\"uri\":")
            o.string(preview.uri)
            o.raw(",\"title\":")
            o.string(preview.title)
            o.raw(",\"description\":")
            o.string(preview.description)
            o.raw("}")
        }
        if let duration {
            o.raw(",\"duration\":")
            o.int(duration)
        }
        if let quote {
            o.raw(",\"quote\":{\"id\":")
            o.string(quote.itemSourceId)
            o.raw(",\"text\":")
            o.string(quote.text)
            o.raw("}")
        }
        if !reactions.isEmpty {
            o.raw(",\"reactions\":")
            Reaction.write(reactions, to: &o)
        }
        if let status {
            o.raw(",\"status\":")
            o.string(status.rawValue)
        }
    }

    private static func write(_ file: FileRef, to o: inout JSONBytes) {
        o.raw("{\"name\":")
        o.string(file.name)
        o.raw(",\"size\":")
        o.int(file.size)
        if let path = file.path {
            o.raw(",\"path\":")
            o.string(path)
        }
        o.raw("}")
    }
}

extension SearchHistogram: JSONBytesWritable {
    package func write(to o: inout JSONBytes) {
        o.raw("{\"period\":")
        o.string(period.rawValue)
        o.raw(",\"timeZone\":\"UTC\",\"exact\":")
        o.bool(isExact)
        o.raw(",\"total\":")
        o.int(total)
        o.raw(",\"estimate\":")
        if let estimate {
            o.raw("{\"method\":\"newestCountedOlderSampled\",\"countedMatches\":")
            o.int(estimate.countedMatches)
            o.raw(",\"sampledMatches\":")
            o.int(estimate.sampledMatches)
            o.raw(",\"sampledSpans\":")
            o.int(estimate.sampledSpans)
            o.raw(",\"matchesPerSpan\":")
            o.int(estimate.matchesPerSpan)
            o.raw("}")
        } else {
            o.raw("null")
        }
        o.raw(",\"buckets\":")
        o.array(buckets) { o, b in
            o.raw("{\"start\":")
            o.time(b.start)
            o.raw(",\"end\":")
            o.time(b.end)
            o.raw(",\"count\":")
            o.int(b.count)
            o.raw(",\"exact\":")
            o.bool(b.isExact)
            o.raw("}")
        }
        o.raw("}")
    }
}

extension SearchPage: JSONBytesWritable {
    package func write(to o: inout JSONBytes) {
        o.raw("{\"hits\":")
        o.array(hits) { $1.item.write(to: &$0, ranges: $1.ranges, snippet: $1.snippet, spans: nil) }
        o.raw(",\"nextCursor\":")
        o.string(nextCursor)
        o.raw("}")
    }
}

extension MediaPage: JSONBytesWritable {
    package func write(to o: inout JSONBytes) {
        o.raw("{\"items\":")
        o.array(items) { $1.write(to: &$0, ranges: nil, snippet: nil, spans: spans[$1.id]) }
        o.raw(",\"nextCursor\":")
        o.string(nextCursor)
        o.raw("}")
    }
}

extension ItemWindow: JSONBytesWritable {
    package func write(to o: inout JSONBytes) {
        o.raw("{\"items\":")
        o.array(items) { $1.write(to: &$0, ranges: nil, snippet: nil, spans: spans[$1.id]) }
        o.raw(",\"navInfo\":")
        Self.writeCounts(
            navInfo.map { n -> [Count] in [("afterTotal", n.afterTotal), ("afterUnread", n.afterUnread)] }, to: &o)
        o.raw(",\"counts\":")
        Self.writeCounts(counts.map { c -> [Count] in [("before", c.before), ("after", c.after)] }, to: &o)
        o.raw("}")
    }

    /// A count under a plain ASCII name.
    private typealias Count = (name: StaticString, value: Int)

    /// An object of counts, or `null` without one.
    private static func writeCounts(_ fields: [Count]?, to o: inout JSONBytes) {
        guard let fields else { return o.raw("null") }
        for (k, field) in fields.enumerated() {
            o.raw(k == 0 ? "{\"" : ",\"")
            o.raw(field.name)
            o.raw("\":")
            o.int(field.value)
        }
        o.raw("}")
    }
}
