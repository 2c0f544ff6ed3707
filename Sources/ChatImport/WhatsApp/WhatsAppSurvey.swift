/// The first pass over a WhatsApp export: which header templates occur where, evidence for
/// the day/month order, the authors, and whether the chat is a group.
struct WhatsAppSurvey {
    /// What one template saw over the file.
    final class ShapeStats {
        var lines: [Int] = []
        /// Lines whose first date component is over 12 (so it is the day), and second.
        var firstOver12: [Int] = []
        var secondOver12: [Int] = []
        var firstDecreases = 0
        var secondDecreases = 0
        var firstChanges = 0
        var secondChanges = 0
        var previous: (Int, Int, Int)?
        var authorFirstLine: [String: Int] = [:]
        var isGroup = false
        var deletedByYouAuthors: Set<String> = []
    }

    /// At most this many distinct templates are tracked (a real file has one or two).
    static let maxShapes = 16

    private(set) var stats: [WhatsAppHeaderShape: ShapeStats] = [:]
    /// Templates of header lines among the first 20 non-empty lines, in order.
    private(set) var candidates: [WhatsAppHeaderShape] = []

    init(_ container: any ExportContainer, entry: String) throws {
        var file = try WhatsAppTextFile(container, entry: entry)
        var nonEmpty = 0
        while let line = try file.next() {
            if line.scalars.contains(where: { !WhatsAppChars.isSpace($0) && !WhatsAppChars.isIgnorable($0) }) {
                nonEmpty += 1
            }
            if !line.isTruncated, let header = WhatsAppHeaderParser.parse(line.scalars) {
                note(header, line: line)
                if nonEmpty <= 20, !candidates.contains(header.shape) { candidates.append(header.shape) }
            }
            if line.hasNUL { break }
        }
    }

    private mutating func note(_ header: WhatsAppHeader, line: WhatsAppTextFile.Line) {
        let s: ShapeStats
        if let existing = stats[header.shape] {
            s = existing
        } else {
            guard stats.count < WhatsAppSurvey.maxShapes else { return }
            s = ShapeStats()
            stats[header.shape] = s
        }
        s.lines.append(line.number)
        let c = header.components
        if header.shape.yearPosition == 2 {
            if c.0 > 12 { s.firstOver12.append(line.number) }
            if c.1 > 12 { s.secondOver12.append(line.number) }
            if let p = s.previous, p.2 == c.2 {
                if c.0 < p.0, c.1 > p.1 { s.firstDecreases += 1 }
                if c.1 < p.1, c.0 > p.0 { s.secondDecreases += 1 }
                if c.0 != p.0 { s.firstChanges += 1 }
                if c.1 != p.1 { s.secondChanges += 1 }
            }
            s.previous = c
        }
        switch WhatsAppLineKind.classify(header, line.scalars, knownAuthors: nil) {
        case .system(let text):
            if WhatsAppPhrases.showsGroup(WhatsAppChars.parseView(text)) { s.isGroup = true }
        case .message(let author, let text):
            if s.authorFirstLine[author] == nil { s.authorFirstLine[author] = line.number }
            if WhatsAppPhrases.isDeletedByYou(WhatsAppChars.parseView(text)) { s.deletedByYouAuthors.insert(author) }
        }
    }

    /// Locks the templates and orders; reports and returns `nil` when the file cannot be read.
    func plan(fileName: String, dateOrder: WhatsAppDateOrder?, sink: any ImportSink) throws -> WhatsAppPlan? {
        let count = { (shape: WhatsAppHeaderShape) in self.stats[shape]?.lines.count ?? 0 }
        guard var locked = candidates.first else {
            try sink.report(
                .fatal(
                    SourceLocation(file: fileName, line: 1),
                    "no WhatsApp message header (date, time, author) in the first 20 non-empty lines; not read"))
            return nil
        }
        for c in candidates.dropFirst() where count(c) > count(locked) { locked = c }
        guard let lockedStats = stats[locked] else { return nil }
        guard let lockedOrder = try order(for: locked, lockedStats, fileName: fileName, override: dateOrder, sink: sink)
        else {
            return nil
        }
        // A second template is accepted only for a contiguous block it owns.
        var secondaries: [WhatsAppPlan.Block] = []
        let others = stats.filter { $0.key != locked && $0.value.lines.count >= 2 }.sorted {
            ($1.value.lines.count, $0.value.lines.first ?? 0) < ($0.value.lines.count, $1.value.lines.first ?? 0)
        }
        for (shape, s) in others {
            guard let first = s.lines.first, let last = s.lines.last,
                !lockedStats.lines.contains(where: { $0 > first && $0 < last }),
                !secondaries.contains(where: { $0.lines.overlaps(first...last) })
            else { continue }
            guard let order = try order(for: shape, s, fileName: fileName, override: dateOrder, sink: sink) else {
                continue
            }
            secondaries.append(WhatsAppPlan.Block(shape: shape, lines: first...last, order: order))
        }
        var firstLines: [String: Int] = [:]
        var isGroup = lockedStats.isGroup
        var deletedByYou = lockedStats.deletedByYouAuthors
        for s in [lockedStats] + secondaries.compactMap({ stats[$0.shape] }) {
            for (a, l) in s.authorFirstLine { firstLines[a] = min(firstLines[a] ?? l, l) }
            isGroup = isGroup || s.isGroup
            deletedByYou.formUnion(s.deletedByYouAuthors)
        }
        let authors = firstLines.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
        return WhatsAppPlan(
            locked: locked, lockedOrder: lockedOrder, secondaries: secondaries, authors: authors,
            isGroup: isGroup || authors.count > 2, deletedByYouAuthors: deletedByYou)
    }

    /// The day/month order of one template (<doc:WhatsAppFormat>), or `nil` after reporting a
    /// contradiction that stops the file.
    private func order(
        for shape: WhatsAppHeaderShape, _ s: ShapeStats, fileName: String, override: WhatsAppDateOrder?,
        sink: any ImportSink
    ) throws -> WhatsAppDateOrder? {
        if shape.yearPosition == 0 { return .yearMonthDay }
        if let override, override != .yearMonthDay { return override }
        let dayFirst = s.firstOver12.count
        let monthFirst = s.secondOver12.count
        let firstLine = s.lines.first ?? 1
        if dayFirst > 0 || monthFirst > 0 {
            if dayFirst > monthFirst { return .dayMonthYear }
            if monthFirst > dayFirst { return .monthDayYear }
            let lines = (s.firstOver12.prefix(3) + s.secondOver12.prefix(3)).map(String.init).joined(separator: ", ")
            try sink.report(
                .fatal(
                    SourceLocation(file: fileName, line: firstLine),
                    "dates contradict each other on day/month order (lines \(lines)); not read: give the date order explicitly"
                ))
            return nil
        }
        if s.firstDecreases != s.secondDecreases {
            return s.firstDecreases > s.secondDecreases ? .dayMonthYear : .monthDayYear
        }
        if s.firstChanges != s.secondChanges {
            return s.firstChanges > s.secondChanges ? .dayMonthYear : .monthDayYear
        }
        let guess: WhatsAppDateOrder =
            shape.meridiem != .none && shape.dateSeparator == "/" ? .monthDayYear : .dayMonthYear
        try sink.report(
            .warning(
                SourceLocation(file: fileName, line: firstLine),
                "cannot tell day from month in these dates; read them as \(guess.rawValue) (give the date order to override)"
            ))
        return guess
    }
}

/// The templates and orders a file is read with.
struct WhatsAppPlan {
    /// A second template, accepted for the block of lines it owns.
    struct Block {
        var shape: WhatsAppHeaderShape
        var lines: ClosedRange<Int>
        var order: WhatsAppDateOrder
    }

    var locked: WhatsAppHeaderShape
    var lockedOrder: WhatsAppDateOrder
    var secondaries: [Block]
    /// Authors of ordinary messages, in order of first appearance.
    var authors: [String]
    var isGroup: Bool
    /// Authors of "You deleted this message": the owner, when there is exactly one.
    var deletedByYouAuthors: Set<String>

    /// The date order to read a header of `shape` on `line` with, or `nil` when that line is
    /// not a header under this plan (it continues the previous message).
    func order(for shape: WhatsAppHeaderShape, line: Int) -> WhatsAppDateOrder? {
        if shape == locked { return lockedOrder }
        return secondaries.first(where: { $0.shape == shape && $0.lines.contains(line) })?.order
    }
}
