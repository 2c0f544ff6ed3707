import ChatModel

/// Reads WhatsApp's "Export chat" text files (Android `WhatsApp Chat with X.txt`, iOS
/// `_chat.txt`, and the old layout): <doc:WhatsAppFormat>.
///
/// Each file is read twice, streaming: the first pass picks the header template, the
/// day/month order, the authors and whether the chat is a group; the second emits items.
/// Times are floating wall-clock times, placed in ``ImportOptions/timeZoneIdentifier``.
package struct WhatsAppImporter: Sendable {
    /// The format's name as `--format` takes it.
    package static let formatName = "whatsapp"

    /// The chat key to use instead of the one derived from the file name.
    package var chatKey: String?
    /// The day/month order to use instead of inferring it.
    package var dateOrder: WhatsAppDateOrder?

    /// Makes an importer, optionally overriding the chat key and the date order.
    package init(chatKey: String? = nil, dateOrder: WhatsAppDateOrder? = nil) {
        self.chatKey = chatKey
        self.dateOrder = dateOrder
    }

    /// Reads one text export, `entry` of `container`, into `sink`.
    ///
    /// File-level problems (no template, contradictory dates, binary data) are reported and
    /// end this file; bad lines are reported and skipped. Throws only when `sink` does, or
    /// when the time zone option is not a zone.
    package func read(
        _ container: any ExportContainer, entry: String, into sink: any ImportSink, options: ImportOptions
    )
        throws
    {
        guard let zone = FloatingTimeZone(options.timeZoneIdentifier) else {
            throw ImportError(
                "unknown time zone \"\(options.timeZoneIdentifier ?? "")\": give an IANA name such as Europe/Berlin, or seconds east of UTC"
            )
        }
        let fileName = container.displayName(of: entry)
        let key = chatKey ?? options.chatKey ?? WhatsAppImporter.chatKey(container: container, entry: entry)
        let survey = try WhatsAppSurvey(container, entry: entry)
        guard let plan = try survey.plan(fileName: fileName, dateOrder: dateOrder ?? options.dateOrder, sink: sink)
        else { return }

        var ownerKey = options.ownerName.map(WhatsAppMessageBody.authorKey)
        if ownerKey == nil, plan.deletedByYouAuthors.count == 1 { ownerKey = plan.deletedByYouAuthors.first }
        let chatSourceId = "whatsapp:" + key
        try sink.emit(
            .chat(
                Chat(
                    sourceId: chatSourceId, type: plan.isGroup ? .group : .direct, displayName: key,
                    source: Self.formatName)))
        var emittedMembers: Set<String> = []
        for author in plan.authors where emittedMembers.insert(author).inserted {
            try sink.emit(
                .member(
                    Member(
                        chatSourceId: chatSourceId, sourceId: author, displayName: author, isUser: author == ownerKey)))
        }

        var run = WhatsAppRun(
            sink: sink, fileName: fileName, plan: plan, chatSourceId: chatSourceId, ownerKey: ownerKey,
            builder: WhatsAppItemBuilder(
                chatKey: key, chatSourceId: chatSourceId, zone: zone, ownerKey: ownerKey,
                knownAuthors: Set(plan.authors),
                mediaFolder: entry.split(separator: "/").dropLast().joined(separator: "/")),
            emittedMembers: emittedMembers)
        var file = try WhatsAppTextFile(container, entry: entry)
        while let line = try file.next() {
            if line.number % 4096 == 0 {
                let (read, total) = file.progress
                sink.progress(bytesRead: read, totalBytes: total)
            }
            guard try run.read(line) else { return }
        }
        try run.flush()
        try run.reportHoursReadAs24()
        let (read, total) = file.progress
        sink.progress(bytesRead: read, totalBytes: total)
    }

    /// The chat key from the file name: `WhatsApp Chat with Ana.txt` → `Ana`; for `_chat.txt`,
    /// the folder or zip it is in (`WhatsApp Chat - Allotment.zip` → `Allotment`).
    static func chatKey(container: any ExportContainer, entry: String) -> String {
        var parts = entry.split(separator: "/").map(String.init)
        var name = parts.popLast() ?? entry
        if name.lowercased() == "_chat.txt" {
            if let folder = parts.last {
                name = folder
            } else {
                var path = container.path
                while path.hasSuffix("/") { path.removeLast() }
                var pathParts = path.split(separator: "/").map(String.init)
                if pathParts.last == entry { pathParts.removeLast() }
                name = pathParts.last ?? "chat"
            }
        }
        for ext in [".txt", ".zip"] where name.lowercased().hasSuffix(ext) { name.removeLast(ext.count) }
        let lower = name.lowercased()
        if lower.contains("whatsapp") {
            for separator in [" with ", " mit ", " con ", " com ", " avec ", " met ", " - "] {
                if let r = lower.range(of: separator) {
                    let offset = lower.distance(from: lower.startIndex, to: r.upperBound)
                    name = String(name.dropFirst(offset))
                    break
                }
            }
        }
        return name.isEmpty ? "chat" : name
    }
}

/// One text export being read, line by line, into a sink: the message being gathered and what is left to report.
private struct WhatsAppRun {
    let sink: any ImportSink
    let fileName: String
    let plan: WhatsAppPlan
    let chatSourceId: String
    let ownerKey: String?
    var builder: WhatsAppItemBuilder
    var emittedMembers: Set<String>
    var pending: WhatsAppPendingItem?
    var skipping = false
    var hoursReadAs24 = 0
    var firstHourReadAs24: Int?

    /// Reads one line: a message header, a continuation or stray text; false when the file must end here.
    mutating func read(_ line: WhatsAppTextFile.Line) throws -> Bool {
        let location = SourceLocation(file: fileName, line: line.number)
        if line.isTruncated {
            try sink.report(.skipped(location, "line longer than 64 MiB; skipped"))
            return true
        }
        if line.hadInvalidBytes {
            try sink.report(.warning(location, "invalid UTF-8 replaced by U+FFFD"))
        }
        if let header = WhatsAppHeaderParser.parse(line.scalars),
            let order = plan.order(for: header.shape, line: line.number)
        {
            try flush()
            guard try start(line, header: header, order: order, location: location) else { return true }
        } else if var p = pending {
            pending = nil
            p.continuation.append(line.text)
            p.raw.append(line.text)
            pending = p
        } else if !skipping, !line.text.isEmpty {
            try sink.report(.skipped(location, "text before the first message header; skipped"))
        }
        if line.hasNUL {
            try flush()
            try reportHoursReadAs24()
            try sink.report(.fatal(location, "NUL byte: the file is binary from here on; stopped reading it"))
            return false
        }
        return true
    }

    /// Starts gathering the message a header line opens; false (reported) when its date or time is impossible.
    private mutating func start(
        _ line: WhatsAppTextFile.Line, header: WhatsAppHeader, order: WhatsAppDateOrder, location: SourceLocation
    ) throws -> Bool {
        let date = header.date(order: order)
        guard let hour = header.hour,
            Timestamp(
                year: date.year, month: date.month, day: date.day, hour: hour, minute: header.minute,
                second: header.second ?? 0)
                != nil
        else {
            skipping = true
            try sink.report(
                .skipped(
                    location,
                    "impossible date or time under the template \(header.shape) read as \(order.rawValue); message skipped"
                ))
            return false
        }
        skipping = false
        if header.hourIgnoresMeridiem {
            hoursReadAs24 += 1
            if firstHourReadAs24 == nil { firstHourReadAs24 = line.number }
        }
        pending = WhatsAppPendingItem(
            line: line.number, header: header, hour: hour, date: date, firstLine: line.scalars, raw: [line.text]
        )
        return true
    }

    /// Emits the message being gathered, if any, with its author as a member when new.
    mutating func flush() throws {
        guard let p = pending else { return }
        pending = nil
        let item = builder.item(from: p)
        if let author = item.memberSourceId, emittedMembers.insert(author).inserted {
            try sink.emit(
                .member(
                    Member(
                        chatSourceId: chatSourceId, sourceId: author, displayName: author,
                        isUser: author == ownerKey)))
        }
        try sink.emit(.item(item))
    }

    /// Reports the headers whose AM or PM was ignored for an hour that cannot be a 12-hour one.
    func reportHoursReadAs24() throws {
        guard hoursReadAs24 > 0 else { return }
        let noun = hoursReadAs24 == 1 ? "header has" : "headers have"
        try sink.report(
            .warning(
                SourceLocation(file: fileName, line: firstHourReadAs24),
                "\(hoursReadAs24) message \(noun) AM or PM with an hour that cannot be a 12-hour one (such as 23:59 PM "
                    + "or 00:04 AM); read as 24-hour times and kept"))
    }
}
