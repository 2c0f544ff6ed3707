import ChatArchive
import ChatArchiveCommandLine
import Foundation

/// Human renderings, readable at a glance.
enum HumanFormat {
    /// `2024-05-01 10:00` in UTC. Digits are padded by hand: `String(format:)` made printing a
    /// search page noticeably dearer (Foundation's format parsing and argument boxing).
    static func time(_ t: Timestamp?) -> String {
        guard let t else { return "" }
        let c = t.components
        func pad(_ v: Int, _ n: Int) -> String {
            let s = String(v)
            return s.count >= n ? s : String(repeating: "0", count: n - s.count) + s
        }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2)) \(pad(c.hour, 2)):\(pad(c.minute, 2))"
    }

    /// `s` with every line after the first indented by `indent` (pure Swift: Foundation's
    /// `replacingOccurrences` bridges through NSString).
    static func indentingLines(_ s: String, by indent: String) -> String {
        guard s.utf8.contains(0x0A) else { return s }
        return s.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + indent)
    }

    /// A size in binary units, labelled as such (KiB, MiB: powers of two).
    static func bytes(_ n: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var v = Double(n)
        var u = 0
        while v >= 1024, u < units.count - 1 {
            v /= 1024
            u += 1
        }
        return u == 0 ? "\(n) B" : String(format: "%.1f %@", v, units[u])
    }

    static func chatRow(_ r: ChatRow) -> String {
        let name = Terminal.visible(r.displayName, singleLine: true)
        var title = Terminal.bold(r.localAlias.isEmpty ? name : Terminal.visible(r.localAlias, singleLine: true))
        if !r.localAlias.isEmpty { title += Terminal.dim(" (\(name))") }
        var badges: [String] = [r.type.rawValue]
        if let b = r.business { badges.append(b == .business ? "business" : "customer") }
        if r.isFavorite { badges.append("★") }
        if r.isMuted { badges.append("muted") }
        if r.unreadCount > 0 { badges.append("\(r.unreadCount) unread") }
        if r.unreadMentions > 0 { badges.append("@\(r.unreadMentions)") }
        for t in r.tags { badges.append("#" + Terminal.visible(t, singleLine: true)) }
        var preview: String
        switch r.preview.kind {
        case .none: preview = Terminal.dim("no messages")
        case .deleted: preview = Terminal.dim("message deleted")
        case .draft: preview = "Draft: " + Terminal.visible(r.preview.text, singleLine: true)
        case .message:
            preview = ""
            if let s = r.preview.sender { preview += Terminal.visible(s, singleLine: true) + ": " }
            if let t = r.preview.contentType, t != .text { preview += "[\(t.rawValue)] " }
            preview += Terminal.visible(r.preview.text, singleLine: true)
        }
        preview = oneLine(preview, max: 70)
        let id = Terminal.dim("--chat \(Terminal.visible(r.chatId, singleLine: true))")
        return
            "\(title)  \(Terminal.dim(badges.joined(separator: " · ")))  \(Terminal.dim(time(r.lastActivity)))  \(id)\n    \(preview)"
    }

    static func oneLine(_ s: String, max: Int) -> String {
        let flat = s.replacingOccurrences(of: "\n", with: " ")
        return flat.count > max ? String(flat.prefix(max)) + "…" : flat
    }

    static func header(_ i: ArchivedItem) -> String {
        var h = Terminal.dim(time(i.timestamp)) + " "
        h += Terminal.cyan(
            i.sender.map { Terminal.visible($0, singleLine: true) }
                ?? (i.direction == .snd ? "you" : i.direction == .event ? "event" : "?"))
        var marks: [String] = []
        if i.contentType != .text { marks.append(i.contentType.rawValue) }
        if i.isEdited { marks.append("edited") }
        if i.isDeleted { marks.append("deleted") }
        if i.isUnread { marks.append("unread") }
        if i.isPinned { marks.append("pinned") }
        if !marks.isEmpty { h += " " + Terminal.dim("[" + marks.joined(separator: ", ") + "]") }
        return h
    }

    /// A hit: who wrote it in which chat (by name, when `chatNames` knows it), the arguments
    /// of `items` that open it in context, and the excerpt.
    static func hit(_ h: SearchHit, chatNames: [String: String] = [:]) -> String {
        let i = h.item
        var body = Terminal.excerpt(i.text, ranges: h.ranges)
        if body.isEmpty, let f = i.file { body = Terminal.visible(f.name, singleLine: true) }
        let name = chatNames[i.chatId].map { Terminal.visible(oneLine($0, max: 40), singleLine: true) }
        let place = name.map { "in " + $0 + Terminal.dim(" · ") } ?? ""
        let chat = Terminal.visible(i.chatId, singleLine: true)
        return header(i) + " " + place + Terminal.dim("--chat \(chat) --around \(i.id)") + "\n    "
            + indentingLines(body, by: "    ")
    }

    static func item(_ i: ArchivedItem, isAnchor: Bool) -> String {
        var body = Terminal.visible(i.text)
        if let f = i.file {
            body += (body.isEmpty ? "" : " ") + Terminal.dim("📎 \(Terminal.visible(f.name, singleLine: true))")
        }
        if let q = i.quote, !q.text.isEmpty {
            body = Terminal.dim("> " + Terminal.visible(oneLine(q.text, max: 60), singleLine: true)) + "\n    " + body
        }
        let line = (isAnchor ? Terminal.bold("▶ ") : "  ") + header(i) + Terminal.dim("  id \(i.id)")
        return line + "\n    " + indentingLines(body, by: "    ")
    }

    /// A formatted piece for the terminal.
    static func styled(_ p: FormattedText) -> String {
        let t = Terminal.visible(p.shownText)
        guard let f = p.format, Terminal.useColor else { return t }
        switch f {
        case .bold: return "\u{1B}[1m\(t)\u{1B}[0m"
        case .italic: return "\u{1B}[3m\(t)\u{1B}[0m"
        case .strikeThrough: return "\u{1B}[9m\(t)\u{1B}[0m"
        case .snippet: return "\u{1B}[7m\(t)\u{1B}[0m"
        case .secret: return "\u{1B}[8m\(t)\u{1B}[0m"
        case .underline: return "\u{1B}[4m\(t)\u{1B}[0m"
        case .colored(let c):
            let code =
                [
                    "red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "cyan": 36, "white": 37,
                    "black": 30,
                ][c.rawValue] ?? 39
            return "\u{1B}[\(code)m\(t)\u{1B}[0m"
        case .uri, .hyperLink, .simplexLink, .email, .phone: return "\u{1B}[4;34m\(t)\u{1B}[0m"
        case .mention, .command, .simplexName, .hashtag: return "\u{1B}[1;36m\(t)\u{1B}[0m"
        default: return t
        }
    }

    /// A histogram as text bars, one line per period (`2024-05` or the week's Monday,
    /// `2024-05-06`), the longest bar 40 cells; an estimated count reads `~123`.
    /// `search --count`'s line above the hits: "37 matches", "1000+ matches", "no matches".
    static func count(_ c: SearchCount) -> String {
        if c.total == 0 { return "no matches" }
        return "\(c.total)\(c.isExact ? "" : "+") match\(c.total == 1 && c.isExact ? "" : "es")"
    }

    static func histogram(_ h: SearchHistogram) -> String {
        guard !h.buckets.isEmpty else { return "no matches" }
        let most = max(1, h.buckets.map(\.count).max() ?? 1)
        var lines: [String] = []
        for b in h.buckets {
            let day = time(b.start).prefix(10)
            let label = h.period == .month ? String(day.prefix(7)) + "   " : String(day)
            let cells = b.count == 0 ? 0 : max(1, b.count * 40 / most)
            let bar = String(repeating: "█", count: cells)
            lines.append("\(label)  \(bar) \(b.isExact ? "" : "~")\(b.count)")
        }
        var footer = "total \(h.isExact ? "" : "about ")\(h.total), per \(h.period.rawValue) (UTC)"
        if let e = h.estimate {
            footer += "; the newest \(e.countedMatches) matches counted, older counts (~) estimated: --exact counts all"
        }
        lines.append(Terminal.dim(footer))
        return lines.joined(separator: "\n")
    }
}
