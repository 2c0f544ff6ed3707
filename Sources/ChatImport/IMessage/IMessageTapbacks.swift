import ChatModel

/// Tapbacks, the rows whose `associated_message_type` is 2000–2007 (added) or 3000–3007
/// (removed), turned into reaction counts on the messages they point at.
///
/// They are replayed in time order per target, actor (me or the handle) and kind, so that a
/// removal cancels the earlier addition; then the ones still standing are counted per emoji.
struct IMessageTapbacks {
    /// One tapback row.
    struct Row {
        var target: String
        var type: Int64
        var actor: String
        var customEmoji: String?
        var time: Int64
        var rowId: Int64
    }

    /// The emoji of the classic tapbacks, by `associated_message_type % 1000`.
    static let emoji: [Int64: String] = [0: "❤️", 1: "👍", 2: "👎", 3: "😂", 4: "‼️", 5: "❓"]

    /// Whether an `associated_message_type` is a tapback (added or removed).
    static func isTapback(_ type: Int64) -> Bool { (2000...2007).contains(type) || (3000...3007).contains(type) }

    /// The guid an `associated_message_guid` points at: `p:<part>/<guid>`, `bp:<guid>` or bare.
    static func targetGuid(_ associated: String) -> String {
        if associated.hasPrefix("p:"), let slash = associated.firstIndex(of: "/") {
            return String(associated[associated.index(after: slash)...])
        }
        if associated.hasPrefix("bp:") { return String(associated.dropFirst(3)) }
        return associated
    }

    /// The reactions standing on each target guid after replaying `rows`.
    static func reactions(_ rows: [Row]) -> [String: [Reaction]] {
        var standing: [String: [(key: String, emoji: String)]] = [:]
        for row in rows.sorted(by: { ($0.time, $0.rowId) < ($1.time, $1.rowId) }) {
            let kind = row.type % 1000
            guard let emoji = kind == 6 ? row.customEmoji : Self.emoji[kind], !emoji.isEmpty else { continue }
            let key = row.actor + "\u{1F}" + (kind == 6 ? "6:" + emoji : String(kind))
            var list = standing[row.target, default: []]
            list.removeAll { $0.key == key }
            if row.type < 3000 { list.append((key, emoji)) }
            standing[row.target] = list
        }
        return standing.mapValues { list in
            var order: [String] = []
            var counts: [String: Int] = [:]
            for entry in list {
                if counts[entry.emoji] == nil { order.append(entry.emoji) }
                counts[entry.emoji, default: 0] += 1
            }
            return order.map { Reaction(emoji: $0, count: counts[$0] ?? 0) }
        }.filter { !$0.value.isEmpty }
    }
}
