import ChatModel

/// The state of one Meta import over all its thread files.
struct MetaRun {
    /// The folders under `messages/` that hold thread folders.
    static let categories: Set<String> = [
        "inbox", "archived_threads", "filtered_threads", "message_requests", "e2ee_cutover",
    ]

    /// What a thread has emitted so far.
    struct Thread {
        var chatSourceId: String
        var members: Set<String> = []
        /// Items made per `timestamp_ms`, for the ordinal in the item key.
        var ordinals: [String: Int] = [:]
        var clock = ItemClock()
    }

    let container: any ExportContainer
    let sink: any ImportSink
    private(set) var owner: String?
    private var source = "messenger"
    private var entrySet: Set<String> = []
    /// Entries by their path from the export's root (`your_facebook_activity/…`,
    /// `messages/…`), for parts unzipped side by side into folders of their own.
    private var byRootPath: [String: String] = [:]

    init(container: any ExportContainer, sink: any ImportSink) {
        self.container = container
        self.sink = sink
    }

    /// Reads every thread: each thread's files oldest first (`message_N.json` down to
    /// `message_1.json`), each file's messages from its end (they are listed newest first).
    mutating func read(entries: [String], ownerName: String?) throws {
        entrySet = Set(container.entryNames)
        for name in container.entryNames {
            if let r = Self.rootPath(name), r != name, byRootPath[r] == nil { byRootPath[r] = name }
        }
        source = Self.platform(of: container.entryNames)
        // A thread is its folder name wherever it lies: the parts of a split request, unzipped
        // side by side, each hold some of its files.
        var threads: [String: [String]] = [:]
        for entry in Set(entries) {
            threads[JSONField.lastPathComponent(Self.folder(of: entry)), default: []].append(entry)
        }
        let folders = threads.keys.sorted()
        owner = ownerName ?? (try? profileOwner()) ?? nil
        if owner == nil {
            owner = try commonParticipant(folders.compactMap { threads[$0]?.first })
            if owner == nil {
                try sink.report(
                    .warning(
                        SourceLocation(file: container.path),
                        "could not tell which participant is you (no profile file, and no one name in every thread); "
                            + "every message is read as received: pass --me \"Your Name\" to fix"))
            }
        }
        for folder in folders {
            let files = (threads[folder] ?? []).sorted {
                Self.fileNumber($0) != Self.fileNumber($1) ? Self.fileNumber($0) > Self.fileNumber($1) : $0 < $1
            }
            var thread: Thread?
            var numbers: Set<Int> = []
            for file in files {
                // Two copies of one thread file (two downloads side by side) would repeat its messages.
                guard numbers.insert(Self.fileNumber(file)).inserted else {
                    try sink.report(
                        .fatal(
                            SourceLocation(file: container.displayName(of: file)),
                            "another \(JSONField.lastPathComponent(file)) of this thread was read already; skipped"))
                    continue
                }
                try read(file, folder: Self.folder(of: file), thread: &thread)
            }
        }
    }

    // MARK: Export-wide facts

    /// `instagram` when the export is Instagram's, else `messenger`.
    static func platform(of names: [String]) -> String {
        for name in names {
            if name.hasPrefix("your_instagram_activity/") || name.contains("/your_instagram_activity/")
                || name.hasSuffix("personal_information/personal_information.json")
            {
                return "instagram"
            }
        }
        return "messenger"
    }

    /// The owner's name from the profile file, when the export holds it.
    private func profileOwner() throws -> String? {
        for name in container.entryNames {
            if name.hasSuffix("profile_information/profile_information.json") {
                let v = MetaMojibake.repair(try JSONParser.parse(try container.readAll(name, limit: 16 << 20)))
                if let n = v["profile_v2"]?["name"]?["full_name"]?.stringValue, !n.isEmpty { return n }
            } else if name.hasSuffix("personal_information/personal_information.json") {
                let v = MetaMojibake.repair(try JSONParser.parse(try container.readAll(name, limit: 16 << 20)))
                if let n = v["profile_user"]?.arrayValue?.first?["string_map_data"]?["Name"]?["value"]?.stringValue,
                    !n.isEmpty
                {
                    return n
                }
            }
        }
        return nil
    }

    /// The one name among the participants of every thread, when there is exactly one.
    private func commonParticipant(_ files: [String]) throws -> String? {
        var common: Set<String>?
        for file in files {
            var names: Set<String> = []
            var hasParticipants = false
            let reader = JSONStreamReader(try container.open(file), elementPaths: ["participants[*]"])
            do {
                loop: while let e = try reader.next() {
                    switch e {
                    case .element(_, _, let bytes, _):
                        if let n = (try? JSONParser.parse(bytes))?["name"]?.stringValue {
                            names.insert(MetaMojibake.repair(n))
                        }
                    case .exit("participants", _):
                        hasParticipants = true
                        break loop
                    default: continue
                    }
                }
            } catch {
                continue
            }
            // A file trimmed to its messages says nothing about who is in every thread.
            guard hasParticipants else { continue }
            common = common.map { $0.intersection(names) } ?? names
        }
        guard let common, common.count == 1 else { return nil }
        return common.first
    }

    /// The part of `path` from the export's root on (from its first `your_facebook_activity`,
    /// `your_instagram_activity` or `messages` component), nil when it has none.
    static func rootPath(_ path: String) -> String? {
        var rest = Substring(path)
        while true {
            if rest.hasPrefix("your_facebook_activity/") || rest.hasPrefix("your_instagram_activity/")
                || rest.hasPrefix("messages/")
            {
                return String(rest)
            }
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            rest = rest[rest.index(after: slash)...]
        }
    }

    /// The folder of an entry (`""` at the root).
    static func folder(of entry: String) -> String {
        guard let slash = entry.lastIndex(of: "/") else { return "" }
        return String(entry[..<slash])
    }

    /// `N` of `message_N.json` (0 for other names).
    static func fileNumber(_ entry: String) -> Int {
        let base = JSONField.lastPathComponent(entry).lowercased()
        guard base.hasPrefix("message_"), base.hasSuffix(".json") else { return 0 }
        return Int(base.dropFirst(8).dropLast(5)) ?? 0
    }

    /// The chat key of a thread folder name: its trailing numeric id (`lenaortiz_10158832` →
    /// `10158832`), else the whole name.
    static func threadID(_ folderName: String) -> String {
        if let underscore = folderName.lastIndex(of: "_") {
            let id = folderName[folderName.index(after: underscore)...]
            if !id.isEmpty, id.allSatisfy({ $0.isASCII && $0.isNumber }) { return String(id) }
        }
        return folderName
    }

    // MARK: One file

    private mutating func read(_ entry: String, folder: String, thread: inout Thread?) throws {
        let file = container.displayName(of: entry)
        let reader = JSONStreamReader(try container.open(entry), elementPaths: ["messages[*]"])
        var head: [String: JSONValue] = [:]
        var elements: [(bytes: [UInt8], at: JSONStreamReader.Location)] = []
        var failure: JSONStreamError?
        do {
            while let e = try reader.next() {
                switch e {
                case .value(let path, _, let bytes, _) where !path.contains("."):
                    if let v = try? JSONParser.parse(bytes) { head[path] = MetaMojibake.repair(v) }
                case .element(_, _, let bytes, let at):
                    elements.append((bytes, at))
                default: continue
                }
            }
        } catch {
            failure = error
        }
        if thread == nil, head["participants"] == nil, elements.isEmpty {
            // Participants come first in a thread file: without them or messages this is not one.
            if let failure {
                try sink.report(
                    .fatal(SourceLocation(file: file, line: failure.line, byteOffset: failure.offset), failure.message))
            } else {
                try sink.report(
                    .fatal(
                        SourceLocation(file: file),
                        "not a Messenger or Instagram thread file (no participants); skipped"))
            }
            return
        }
        if thread == nil {
            thread = try openThread(head: head, folder: folder, file: file, elements: elements)
        }
        guard var t = thread else { return }
        defer { thread = t }
        var sinceProgress = 0
        for element in elements.reversed() {
            try message(
                element.bytes,
                location: SourceLocation(file: file, line: element.at.line, byteOffset: element.at.offset), thread: &t)
            sinceProgress += 1
            if sinceProgress == 2000 {
                sinceProgress = 0
                sink.progress(bytesRead: reader.bytesRead, totalBytes: reader.totalBytes)
            }
        }
        if let failure {
            try sink.report(
                .fatal(
                    SourceLocation(file: file, line: failure.line, byteOffset: failure.offset),
                    failure.message + "; the \(elements.count) messages before it were kept"))
        }
    }

    /// Emits the chat and its participants. A file without `participants` (trimmed to its
    /// messages) takes them from the messages' senders, and its name from its folder, with a
    /// warning.
    private mutating func openThread(
        head: [String: JSONValue], folder: String, file: String,
        elements: [(bytes: [UInt8], at: JSONStreamReader.Location)]
    ) throws -> Thread {
        let hasParticipants = head["participants"] != nil
        var folderName = JSONField.lastPathComponent(head["thread_path"]?.stringValue ?? "")
        if folderName.isEmpty { folderName = JSONField.lastPathComponent(folder) }
        if folderName.isEmpty, !hasParticipants, (container as? FolderContainer)?.isFolder == false {
            // A trimmed file read alone: its folder is the one holding it.
            folderName = JSONField.lastPathComponent(Self.folder(of: container.path))
        }
        if folderName.isEmpty { folderName = JSONField.lastPathComponent(container.path) }
        let chatSourceId = "meta:" + Self.threadID(folderName)
        let participants =
            hasParticipants
            ? (head["participants"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue ?? $0.stringValue }
            : Self.senders(of: elements.reversed().map(\.bytes))
        if !hasParticipants {
            try sink.report(
                .warning(
                    SourceLocation(file: file),
                    "no participants: the chat's participants are taken from its messages' senders and its name from "
                        + "its folder, \"\(folderName)\""))
        }
        let isGroup =
            participants.count > 2 || head["joinable_mode"] != nil
            || head["thread_type"]?.stringValue == "RegularGroup"
        var name = head["title"]?.stringValue ?? ""
        if name.isEmpty, hasParticipants { name = participants.filter { $0 != owner }.joined(separator: ", ") }
        if name.isEmpty { name = folderName }
        let parts = folder.split(separator: "/")
        let category = parts.count >= 2 ? String(parts[parts.count - 2]) : ""
        let tags: [String] =
            switch category {
            case "archived_threads": ["archived"]
            case "filtered_threads": ["filtered"]
            case "message_requests": ["message request"]
            case "e2ee_cutover": ["moved to end-to-end encryption"]
            default: []
            }
        try sink.emit(
            .chat(
                Chat(
                    sourceId: chatSourceId, type: isGroup ? .group : .direct, displayName: name, tags: tags,
                    source: source)))
        var thread = Thread(chatSourceId: chatSourceId)
        for p in participants where !p.isEmpty {
            try member(p, in: &thread)
        }
        return thread
    }

    /// The distinct `sender_name`s of messages, in the order given, repaired.
    private static func senders(of messages: [[UInt8]]) -> [String] {
        var seen: Set<String> = []
        var names: [String] = []
        for bytes in messages {
            guard let name = (try? JSONParser.parse(bytes))?["sender_name"]?.stringValue else { continue }
            let repaired = MetaMojibake.repair(name)
            if !repaired.isEmpty, seen.insert(repaired).inserted { names.append(repaired) }
        }
        return names
    }

    private func member(_ name: String, in thread: inout Thread) throws {
        guard !name.isEmpty, thread.members.insert(name).inserted else { return }
        try sink.emit(
            .member(Member(chatSourceId: thread.chatSourceId, sourceId: name, displayName: name, isUser: name == owner))
        )
    }

    // MARK: One message

    private static let mediaKinds: [(key: String, type: ContentType)] = [
        ("photos", .image), ("videos", .video), ("audio_files", .voice), ("gifs", .image), ("files", .file),
    ]

    private mutating func message(_ bytes: [UInt8], location: SourceLocation, thread t: inout Thread) throws {
        let m: JSONValue
        do { m = MetaMojibake.repair(try JSONParser.parse(bytes)) } catch {
            try sink.report(.skipped(location, "message is not valid JSON: \(error.message); skipped"))
            return
        }
        guard case .object = m else {
            try sink.report(.skipped(location, "message is not an object; skipped"))
            return
        }
        if let c = m["content"], c.stringValue == nil, !c.isNull {
            try sink.report(.skipped(location, "message content is not a string; skipped"))
            return
        }
        guard m["timestamp_ms"] != nil || m["sender_name"] != nil else {
            try sink.report(.skipped(location, "message has neither sender_name nor timestamp_ms; skipped"))
            return
        }
        let sender = m["sender_name"]?.stringValue ?? ""
        let text = m["content"]?.stringValue ?? ""

        let (files, mediaType, preview) = try attachments(of: m, location: location)

        let sentence = MetaSentence.classify(text, sender: sender)
        if sentence == .reactionEcho, files.isEmpty, preview == nil { return }

        // Time and key: the ordinal counts the thread's items of the same millisecond.
        let ms = JSONField.int(m["timestamp_ms"])
        let (timestamp, isTimeUnknown) = try t.clock.time(
            ms.map { Timestamp(milliseconds: $0) }, location: location, sink: sink,
            warning: "message has no readable timestamp_ms; it takes the previous message's time")
        let timeKey = ms.map { String($0) } ?? "?"
        let ordinal = t.ordinals[timeKey, default: 0]
        t.ordinals[timeKey] = ordinal + 1
        var hasher = SHA256Digest()
        hasher.update("meta-item\u{0}" + t.chatSourceId + "\u{0}" + timeKey + "\u{0}" + String(ordinal))
        let sourceId = String(SHA256Digest.hexString(hasher.finish()).prefix(32))

        var content = MessageContent(type: mediaType ?? (preview != nil ? .link : .text), text: text, preview: preview)
        var isEvent = false
        let legacyType = m["type"]?.stringValue ?? ""
        if m["call_duration"] != nil || legacyType == "Call" {
            isEvent = true
            content.type = .event
            content.duration = JSONField.int(m["call_duration"]).map { Int($0) }
            if text.isEmpty { content.text = m["missed"]?.boolValue == true ? "Missed call" : "Call" }
        } else if legacyType == "Subscribe" || legacyType == "Unsubscribe" || sentence == .event {
            isEvent = true
            content.type = .event
            if text.isEmpty {
                let users = (m["users"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }.joined(
                    separator: ", ")
                content.text = (legacyType == "Subscribe" ? "Added: " : "Left: ") + users
            }
        } else if sentence == .attachmentPlaceholder, !files.isEmpty || preview != nil {
            content.text = ""
        } else if sentence == .location, preview != nil {
            content.type = .link
        }
        if !isEvent, content.text.isEmpty, files.isEmpty, let p = content.preview {
            // A share without words shows its title (or its link) as its text, once.
            content.text = p.title.isEmpty ? p.uri : p.title
            content.preview?.title = ""
        }
        let flags = [
            ("is_taken_down", "taken down by Meta"), ("is_geoblocked_for_viewer", "not available in your region"),
            ("is_unsent_image_by_messenger_kid_parent", "removed by a parent"),
        ]
        if let flag = flags.first(where: { m[$0.0]?.boolValue == true }) {
            content.type = .unknown
            content.reason = flag.1
        }

        try member(sender, in: &t)
        let counts = try reactions(of: m, thread: &t)

        let raw: String
        if let valid = String(validating: bytes, as: UTF8.self) {
            raw = valid
        } else {
            raw = String(decoding: bytes, as: UTF8.self)
            try sink.report(.warning(location, "message contains invalid UTF-8, read as U+FFFD"))
        }
        let direction: ItemDirection = isEvent ? .event : (owner != nil && sender == owner ? .snd : .rcv)
        let item = Item(
            chatSourceId: t.chatSourceId, sourceId: sourceId, timestamp: timestamp, direction: direction,
            memberSourceId: sender.isEmpty ? nil : sender, senderName: sender.isEmpty ? nil : sender, content: content,
            markup: .plain, file: files.first, reactions: counts.map { Reaction(emoji: $0.emoji, count: $0.count) },
            isDeleted: m["is_unsent"]?.boolValue == true, raw: raw, isTimeUnknown: isTimeUnknown,
            moreFiles: Array(files.dropFirst()))
        try sink.emit(.item(item))
    }

    /// A message's reactions counted by emoji, in order of first use; their actors become
    /// members of the thread.
    private func reactions(of m: JSONValue, thread t: inout Thread) throws -> [(emoji: String, count: Int)] {
        var counts: [(emoji: String, count: Int)] = []
        for r in m["reactions"]?.arrayValue ?? [] {
            if let actor = r["actor"]?.stringValue { try member(actor, in: &t) }
            guard let emoji = r["reaction"]?.stringValue, !emoji.isEmpty else { continue }
            if let i = counts.firstIndex(where: { $0.emoji == emoji }) {
                counts[i].count += 1
            } else {
                counts.append((emoji, 1))
            }
        }
        return counts
    }

    /// A message's attachments (photos, videos, audio, gifs, files, then the sticker; the
    /// first decides the content type) and its shared link.
    private func attachments(
        of m: JSONValue, location: SourceLocation
    ) throws -> (files: [FileRef], mediaType: ContentType?, preview: LinkPreview?) {
        var files: [FileRef] = []
        var mediaType: ContentType?
        for kind in Self.mediaKinds {
            for v in m[kind.key]?.arrayValue ?? [] {
                guard let f = try fileRef(v, location: location) else { continue }
                files.append(f)
                if mediaType == nil { mediaType = kind.type }
            }
        }
        if let sticker = m["sticker"], let f = try fileRef(sticker, location: location) {
            files.append(f)
            if mediaType == nil { mediaType = .image }
        }
        var preview: LinkPreview?
        if let share = m["share"] {
            let link = share["link"]?.stringValue ?? ""
            let title = share["share_text"]?.stringValue ?? ""
            let owner = share["original_content_owner"]?.stringValue ?? ""
            if !link.isEmpty || !title.isEmpty || !owner.isEmpty {
                preview = LinkPreview(uri: link, title: title, description: owner)
            }
        }
        return (files, mediaType, preview)
    }

    /// An attachment from `{uri, …}`. Its path is the file as this container holds it (the
    /// `uri` is relative to the export's root; a thread folder given alone holds it under a
    /// shorter path); a bare file name means the file is not in the export.
    private func fileRef(_ v: JSONValue, location: SourceLocation) throws -> FileRef? {
        guard let uri = v["uri"]?.stringValue, !uri.isEmpty else { return nil }
        let name = JSONField.lastPathComponent(uri)
        let lower = uri.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
            return FileRef(name: String(name.prefix { $0 != "?" }), path: String(uri.prefix { $0 != "?" && $0 != "#" }))
        }
        guard uri.contains("/") else { return FileRef(name: name) }
        guard let rel = JSONField.relativePath(uri) else {
            try sink.report(.warning(location, "attachment path \"\(uri)\" leaves the export folder; path dropped"))
            return FileRef(name: name)
        }
        if !entrySet.contains(rel), let r = Self.rootPath(rel), let found = byRootPath[r] {
            return FileRef(name: name, size: container.size(of: found), path: found)
        }
        var candidate = Substring(rel)
        while true {
            if entrySet.contains(String(candidate)) {
                return FileRef(name: name, size: container.size(of: String(candidate)), path: String(candidate))
            }
            guard let slash = candidate.firstIndex(of: "/") else { break }
            candidate = candidate[candidate.index(after: slash)...]
        }
        return FileRef(name: name, path: rel)
    }
}
