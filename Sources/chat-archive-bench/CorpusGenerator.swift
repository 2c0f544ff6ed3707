import ChatModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a deterministic, multilingual ChatArchive JSON Lines corpus of any size
/// (the JSONLinesFormat article of ChatArchive's documentation) for the benchmarks.
///
/// Chat sizes follow a Zipf law (a few chats with tens of thousands of messages, most with a
/// few dozen); messages mix 15 languages in 10 scripts with emoji, SimpleX markdown,
/// mentions, links, attachments, quotes, reactions and events; timestamps rise per chat over
/// three years, some identical. Memory stays constant: one chat's members and an output
/// buffer of fixed size. The same seed, message and chat counts give the same bytes.
///
/// Query words with exactly known frequencies are planted by message number (see
/// ``queryWords(messages:)``); ``Summary/queryHits`` counts every query word as written.
struct CorpusGenerator: Sendable {
    /// What a query word exercises.
    enum QueryKind: String, Sendable, CaseIterable {
        case rare, frequent, prefix, infix, phrase, cjk, thai
    }

    /// A word or phrase for the benchmark's query mix.
    struct QueryWord: Sendable {
        let text: String
        let kind: QueryKind
        /// The exact number of (non-deleted) messages containing `text`, when known before
        /// generation (planted words); otherwise read ``Summary/queryHits``.
        let expectedMessages: Int?
    }

    /// Size classes for ``chatSourceIds(bySize:count:)``.
    enum ChatSizeClass: Sendable {
        /// The chats with the most messages.
        case largest
        /// Chats with a few dozen (24–60) messages.
        case dozens
        /// The smallest non-empty chats.
        case smallest
    }

    /// Counts of what ``write(to:)`` wrote.
    struct Summary: Sendable {
        var chats = 0
        var members = 0
        var items = 0
        /// Bytes of the JSON Lines file.
        var fileBytes = 0
        /// UTF-8 bytes of all `content.text` values.
        var textBytes = 0
        var unreadItems = 0
        var deletedItems = 0
        var editedItems = 0
        var itemsWithMentions = 0
        var itemsMentioningUser = 0
        var itemsWithMarkdown = 0
        var itemsWithURL = 0
        var itemsWithQuote = 0
        var itemsByContentType: [String: Int] = [:]
        /// For each query word: non-deleted messages whose text contains it byte for byte,
        /// or with its first ASCII letter upper-cased.
        var queryHits: [String: Int] = [:]
    }

    let seed: UInt64
    let messages: Int
    let chats: Int
    /// Messages per rank (rank 0 is the biggest chat).
    fileprivate let sizeByRank: [Int]
    /// Chat index of each rank.
    fileprivate let indexByRank: [Int]
    /// Rank of each chat index.
    fileprivate let rankByIndex: [Int]
    /// Ranks at and after this one are the empty contact-request and pending-connection chats.
    private let activeChats: Int
    private let localRank: Int?
    private let idWidth: Int

    /// Prepares a corpus of `messages` items spread over `chats` chats (at least one).
    init(seed: UInt64, messages: Int, chats: Int) {
        self.seed = seed
        self.messages = max(0, messages)
        self.chats = max(1, chats)
        let special = self.chats >= 20 ? 2 : 0
        let active = self.chats - special
        activeChats = active
        // Zipf sizes, exponent 1, every chat at least one message while there are enough.
        var harmonic = 0.0
        for r in 0..<active { harmonic += 1.0 / Double(r + 1) }
        var sizes = [Int](repeating: 0, count: self.chats)
        var total = 0
        for r in 0..<active {
            let raw = Int(Double(self.messages) / (Double(r + 1) * harmonic))
            sizes[r] = self.messages >= active ? max(1, raw) : (r < self.messages ? 1 : 0)
            total += sizes[r]
        }
        var diff = self.messages - total
        var r = 0
        while diff != 0, active > 0 {
            if diff > 0 {
                let add = max(1, diff / 4)
                sizes[r % min(active, 8)] += add
                diff -= add
            } else if sizes[r % active] > 1 {
                sizes[r % active] -= 1
                diff += 1
            }
            r += 1
        }
        sizeByRank = sizes
        var rng = CorpusRandom(seed: seed, stream: 0xC4A7)
        var perm = Array(0..<self.chats)
        if perm.count > 1 {
            for i in stride(from: perm.count - 1, to: 0, by: -1) {
                perm.swapAt(i, rng.below(i + 1))
            }
        }
        indexByRank = perm
        var rankOf = [Int](repeating: 0, count: self.chats)
        for (rank, index) in perm.enumerated() { rankOf[index] = rank }
        rankByIndex = rankOf
        localRank = active >= 40 ? 30 : nil
        idWidth = max(4, String(self.chats - 1).count)
    }

    // MARK: - Query words

    /// Words planted at fixed message numbers: message `g` (0-based, in file order) carries
    /// the word when `g % period == offset`.
    fileprivate static let planted: [(text: String, kind: QueryKind, period: Int, offset: Int)] = [
        ("zephyrine", .rare, 100_000, 12_345),
        ("quillbrook", .rare, 10_000, 4_321),
        ("marrowind", .rare, 1_000, 321),
        ("old lighthouse", .phrase, 2_000, 1_001),
    ]

    private static func plantedCount(period: Int, offset: Int, messages: Int) -> Int {
        messages > offset ? (messages - 1 - offset) / period + 1 : 0
    }

    /// The benchmark's query words: rare (planted at known rates), frequent (top of their
    /// vocabularies), prefixes, infixes, a phrase, CJK bigrams and a Thai word.
    static func queryWords(messages: Int) -> [QueryWord] {
        func count(_ text: String) -> Int? {
            planted.first(where: { $0.text == text }).map {
                plantedCount(period: $0.period, offset: $0.offset, messages: messages)
            }
        }
        return [
            QueryWord(text: "zephyrine", kind: .rare, expectedMessages: count("zephyrine")),
            QueryWord(text: "quillbrook", kind: .rare, expectedMessages: count("quillbrook")),
            QueryWord(text: "marrowind", kind: .rare, expectedMessages: count("marrowind")),
            QueryWord(text: "tomorrow", kind: .frequent, expectedMessages: nil),
            QueryWord(text: "morgen", kind: .frequent, expectedMessages: nil),
            QueryWord(text: "demain", kind: .frequent, expectedMessages: nil),
            QueryWord(text: "mañana", kind: .frequent, expectedMessages: nil),
            QueryWord(text: "завтра", kind: .frequent, expectedMessages: nil),
            QueryWord(text: "zeph", kind: .prefix, expectedMessages: count("zephyrine")),
            QueryWord(text: "quill", kind: .prefix, expectedMessages: count("quillbrook")),
            QueryWord(text: "tomor", kind: .prefix, expectedMessages: nil),
            QueryWord(text: "straße", kind: .infix, expectedMessages: nil),
            QueryWord(text: "eed", kind: .infix, expectedMessages: nil),
            QueryWord(text: "old lighthouse", kind: .phrase, expectedMessages: count("old lighthouse")),
            QueryWord(text: "北京", kind: .cjk, expectedMessages: nil),
            QueryWord(text: "東京", kind: .cjk, expectedMessages: nil),
            QueryWord(text: "ขอบคุณ", kind: .thai, expectedMessages: nil),
        ]
    }

    // MARK: - Chat sizes

    /// The id of chat number `index` (`c0000`, `c0001`, …).
    func chatSourceId(index: Int) -> String {
        let digits = String(index)
        return "c" + String(repeating: "0", count: max(0, idWidth - digits.count)) + digits
    }

    /// Messages in chat number `index`.
    func messageCount(index: Int) -> Int {
        sizeByRank[rankByIndex[index]]
    }

    /// Up to `count` chats of a size class, with their message counts.
    func chatSourceIds(bySize sizeClass: ChatSizeClass, count: Int = 1) -> [(chatSourceId: String, messages: Int)] {
        let ranks = Array(0..<activeChats).filter { sizeByRank[$0] > 0 }
        let chosen: [Int]
        switch sizeClass {
        case .largest:
            chosen = Array(ranks.prefix(count))
        case .smallest:
            chosen = Array(ranks.suffix(count).reversed())
        case .dozens:
            let inRange = ranks.filter { (24...60).contains(sizeByRank[$0]) }
            if inRange.count >= count {
                // Spread the picks over the range rather than taking the first ones.
                let step = max(1, inRange.count / max(1, count))
                chosen = (0..<count).map { inRange[min(inRange.count - 1, $0 * step)] }
            } else {
                chosen = Array(ranks.sorted { abs(sizeByRank[$0] - 36) < abs(sizeByRank[$1] - 36) }.prefix(count))
            }
        }
        return chosen.map { (chatSourceId(index: indexByRank[$0]), sizeByRank[$0]) }
    }

    // MARK: - Writing

    /// Writes the corpus to `path` (replacing it) and returns what it wrote.
    func write(to path: String) throws -> Summary {
        let sink = try JSONLSink(path: path)
        var state = GenerationState(generator: self)
        for index in 0..<chats {
            try state.writeChat(index: index, to: sink)
            try sink.flushIfNeeded()
        }
        try sink.close()
        var summary = state.summary
        summary.fileBytes = sink.bytesWritten
        for (k, name) in ContentKind.names.enumerated() where state.contentCounts[k] > 0 {
            summary.itemsByContentType[name] = state.contentCounts[k]
        }
        for (k, q) in state.queries.enumerated() {
            summary.queryHits[q.text] = state.queryCounts[k]
        }
        return summary
    }

    fileprivate func chatPlanType(rank: Int, size: Int, rng: inout CorpusRandom) -> ChatKind {
        if rank >= activeChats { return rank == activeChats ? .contactRequest : .contactConnection }
        if rank == localRank { return .local }
        if size > 2000 { return .group }
        if rng.chance(0.55) { return .direct }
        return .group
    }
}

// MARK: - Generation

private enum ChatKind: String {
    case direct, group, local, contactRequest, contactConnection
}

private enum ContentKind: Int {
    case text, link, image, video, voice, file, report, chat, event, unknown
    static let names = ["text", "link", "image", "video", "voice", "file", "report", "chat", "event", "unknown"]
    var name: String { ContentKind.names[rawValue] }
}

private final class MemberPlan {
    let id: [UInt8]
    let displayName: String
    let mentionToken: [UInt8]
    let nameKey: [UInt8]
    init(id: [UInt8], displayName: String, mentionToken: [UInt8], nameKey: [UInt8]) {
        self.id = id
        self.displayName = displayName
        self.mentionToken = mentionToken
        self.nameKey = nameKey
    }
}

/// What every item of a chat is written with: the chat's source id (UTF-8), kind, language,
/// members, the user and the chat's UTC offset in minutes.
private struct ItemChatPlan {
    let chatSourceId: [UInt8]
    let kind: ChatKind
    let language: CorpusLanguage
    let members: [MemberPlan]
    let user: MemberPlan
    let offset: Int
}

/// One item being generated: what its steps decide, in order.
private struct ItemDraft {
    var dir = ItemDirection.snd
    var sender: MemberPlan? = nil
    var content = ContentKind.text
    var mention: MemberPlan? = nil
    var hasMarkdown = false
    var hasURL = false
    var preview: (uri: [UInt8], title: String, description: String)? = nil
    var deleted = false
    var edited = false
    var unread = false
}

/// Finds which query words occur in a message in one pass: candidates are bucketed by
/// their first byte.
private struct QueryMatcher {
    private var bytes: [UInt8] = []
    private var start: [Int] = []
    private var length: [Int] = []
    private var query: [Int] = []
    /// Candidates with first byte `b` are `order[bucket[b]..<bucket[b + 1]]`.
    private var bucket = [Int](repeating: 0, count: 257)
    private var order: [Int] = []

    init(needles: [[UInt8]], queryOfNeedle: [Int]) {
        for (k, n) in needles.enumerated() where !n.isEmpty {
            start.append(bytes.count)
            length.append(n.count)
            query.append(queryOfNeedle[k])
            bytes.append(contentsOf: n)
        }
        let firsts = start.map { bytes[$0] }
        order = Array(0..<start.count).sorted { firsts[$0] < firsts[$1] || (firsts[$0] == firsts[$1] && $0 < $1) }
        var b = 0
        for (pos, c) in order.enumerated() {
            while b <= Int(firsts[c]) {
                bucket[b] = pos
                b += 1
            }
        }
        while b <= 256 {
            bucket[b] = order.count
            b += 1
        }
    }

    /// Adds one to `counts[q]` for every query `q` found in `text`.
    func count(in text: [UInt8], into counts: inout [Int]) {
        var found: UInt64 = 0
        text.withUnsafeBufferPointer { h in
            bytes.withUnsafeBufferPointer { q in
                let n = h.count
                for i in 0..<n {
                    let b = Int(h[i])
                    var c = bucket[b]
                    let end = bucket[b + 1]
                    while c < end {
                        let k = order[c]
                        let len = length[k]
                        if i + len <= n, found & (1 << UInt64(query[k])) == 0 {
                            let s = start[k]
                            var j = 1
                            while j < len, h[i + j] == q[s + j] { j += 1 }
                            if j == len { found |= 1 << UInt64(query[k]) }
                        }
                        c += 1
                    }
                }
            }
        }
        while found != 0 {
            let q = found.trailingZeroBitCount
            counts[q] += 1
            found &= found - 1
        }
    }
}

/// The mutable state of one `write(to:)` run.
private struct GenerationState {
    let generator: CorpusGenerator
    var summary = CorpusGenerator.Summary()
    var contentCounts = [Int](repeating: 0, count: ContentKind.names.count)
    let queries: [CorpusGenerator.QueryWord]
    let matcher: QueryMatcher
    var queryCounts: [Int]
    var globalIndex = 0
    var text: [UInt8] = []
    var needSpace = false
    // The last items of the current chat, for quotes.
    var ringIds = [Int](repeating: 0, count: 16)
    var ringText = [[UInt8]](repeating: [], count: 16)
    var ringCount = 0

    init(generator: CorpusGenerator) {
        self.generator = generator
        queries = CorpusGenerator.queryWords(messages: generator.messages)
        // Each query as written, plus its capitalised form when that differs.
        var needles: [[UInt8]] = []
        var queryOfNeedle: [Int] = []
        for (k, q) in queries.enumerated() {
            let b = Array(q.text.utf8)
            needles.append(b)
            queryOfNeedle.append(k)
            if let f = b.first, f >= 0x61, f <= 0x7A {
                var c = b
                c[0] -= 0x20
                needles.append(c)
                queryOfNeedle.append(k)
            }
        }
        matcher = QueryMatcher(needles: needles, queryOfNeedle: queryOfNeedle)
        queryCounts = [Int](repeating: 0, count: queries.count)
        text.reserveCapacity(8192)
    }

    // MARK: Chat

    mutating func writeChat(index: Int, to sink: JSONLSink) throws {
        let g = generator
        var rng = CorpusRandom(seed: g.seed, stream: UInt64(index) &+ 1)
        let rank = g.rankByIndex[index]
        let size = g.messageCount(index: index)
        let kind = g.chatPlanType(rank: rank, size: size, rng: &rng)
        let language = Self.pickLanguage(&rng)
        let chatSourceId = g.chatSourceId(index: index)
        let chatSourceIdBytes = Array(chatSourceId.utf8)

        let user = MemberPlan(
            id: Array("u".utf8), displayName: "Sam", mentionToken: Array("@Sam".utf8), nameKey: Array("Sam".utf8))
        let cast = Self.planMembers(kind: kind, language: language, size: size, user: user, rng: &rng)
        let members = cast.members
        writeChatLine(cast, kind: kind, index: index, chatSourceId: chatSourceIdBytes, sink: sink, rng: &rng)
        writeMemberLines(cast.memberLines, chatSourceId: chatSourceIdBytes, sink: sink)
        guard size > 0 else { return }

        // Timeline: three years from 2022-01-01, big chats spread over most of it.
        let t0 = 1_640_995_200
        let total = 3 * 365 * 86_400
        var span: Int
        if size >= 2000 {
            span = Int(Double(total) * (0.7 + 0.3 * rng.unit()))
        } else {
            let meanGaps = [120, 600, 3_600, 14_400, 86_400]
            span = min(total, max(3_600, size * rng.pick(meanGaps)))
        }
        var t = t0 + rng.below(total - span + 1)
        let meanGap = Double(span) / Double(size)
        let offset = rng.pick(language.offsets)
        let unreadTail = rng.chance(0.4) ? rng.int(in: 1...min(size, 30)) : 0
        ringCount = 0
        let plan = ItemChatPlan(
            chatSourceId: chatSourceIdBytes, kind: kind, language: language, members: members, user: user,
            offset: offset)

        for i in 0..<size {
            if i > 0 {
                if !rng.chance(0.03) {
                    t += Int(-log(1.0 - rng.unit()) * meanGap) + 1
                }
            }
            writeItem(plan, itemNumber: i + 1, time: t, unread: i >= size - unreadTail, sink: sink, rng: &rng)
            globalIndex += 1
            if (i & 255) == 255 { try sink.flushIfNeeded() }
        }
    }

    /// The members of a chat, its names and its business role, drawn before its chat line.
    private struct ChatCast {
        var members: [MemberPlan] = []
        var memberLines: [(MemberPlan, String, String, Bool)] = []
        var displayName = ""
        var fullName = ""
        var business: String? = nil
    }

    /// Draws the members and names of a chat of `kind` from `rng`, in the corpus's fixed order.
    private static func planMembers(
        kind: ChatKind, language: CorpusLanguage, size: Int, user: MemberPlan, rng: inout CorpusRandom
    ) -> ChatCast {
        var cast = ChatCast()
        switch kind {
        case .direct, .contactRequest:
            let (d, f, a) = Self.personName(language: language, rng: &rng, allowSpace: true)
            let m = Self.member(id: "m1", display: d)
            cast.members.append(m)
            cast.memberLines.append((m, f, a, false))
            cast.displayName = d
            cast.fullName = f
        case .group:
            let count = min(80, 3 + size / 400 + rng.below(6))
            // Display names are unique in a group, as SimpleX makes them (`Ruby`, `Ruby_1`).
            var used: Set<String> = ["Sam"]
            for k in 1...count {
                var (d, f, a) = Self.personName(language: language, rng: &rng, allowSpace: true)
                if used.contains(d) {
                    var n = 1
                    while used.contains(d + "_\(n)") { n += 1 }
                    d += "_\(n)"
                }
                used.insert(d)
                let m = Self.member(id: "m\(k)", display: d)
                cast.members.append(m)
                cast.memberLines.append((m, f, a, false))
            }
            cast.memberLines.append((user, "Sam Rivera", "", true))
            cast.displayName = rng.pick(language.groupNames)
            if rng.chance(0.5) { cast.displayName += " " + String(rng.int(in: 2...99)) }
            if size < 5000, rng.chance(0.04) {
                cast.business = rng.chance(0.5) ? "business" : "customer"
            }
        case .local:
            cast.displayName = "Notes"
        case .contactConnection:
            cast.displayName = ""
        }
        return cast
    }

    /// Draws a chat's alias, flags and tags from `rng` and writes its chat line.
    private mutating func writeChatLine(
        _ cast: ChatCast, kind: ChatKind, index: Int, chatSourceId chatSourceIdBytes: [UInt8], sink: JSONLSink,
        rng: inout CorpusRandom
    ) {
        let displayName = cast.displayName
        let alias = kind == .contactConnection ? "Invitation \(index)" : (rng.chance(0.05) ? displayName + " ✨" : "")
        let favorite = rng.chance(0.05)
        let notifications = rng.chance(0.85) ? "all" : (rng.chance(0.5) ? "mentions" : "none")
        let markedUnread = rng.chance(0.03)
        var tags: [String] = []
        if rng.chance(0.5) {
            let all = ["friends", "work", "family", "travel", "sport", "school", "neighbours"]
            tags.append(rng.pick(all))
            if rng.chance(0.3) {
                let t = rng.pick(all)
                if t != tags[0] { tags.append(t) }
            }
        }

        sink.raw("{\"kind\":\"chat\",\"chatId\":")
        sink.string(chatSourceIdBytes)
        sink.raw(",\"type\":\"")
        sink.rawString(kind.rawValue)
        sink.raw("\",\"displayName\":")
        sink.string(displayName)
        sink.raw(",\"fullName\":")
        sink.string(cast.fullName)
        sink.raw(",\"localAlias\":")
        sink.string(alias)
        sink.raw(favorite ? ",\"favorite\":true" : ",\"favorite\":false")
        sink.raw(",\"notifications\":\"")
        sink.rawString(notifications)
        sink.raw(markedUnread ? "\",\"unreadChat\":true" : "\",\"unreadChat\":false")
        if let business = cast.business {
            sink.raw(",\"business\":\"")
            sink.rawString(business)
            sink.raw("\"")
        } else {
            sink.raw(",\"business\":null")
        }
        sink.raw(",\"tags\":[")
        for (k, t) in tags.enumerated() {
            if k > 0 { sink.byte(UInt8(ascii: ",")) }
            sink.string(t)
        }
        sink.raw("]}\n")
        summary.chats += 1
    }

    /// Writes a chat's member lines.
    private mutating func writeMemberLines(
        _ memberLines: [(MemberPlan, String, String, Bool)], chatSourceId chatSourceIdBytes: [UInt8], sink: JSONLSink
    ) {
        for (m, full, memberAlias, isUser) in memberLines {
            sink.raw("{\"kind\":\"member\",\"chatId\":")
            sink.string(chatSourceIdBytes)
            sink.raw(",\"memberId\":")
            sink.string(m.id)
            sink.raw(",\"displayName\":")
            sink.string(m.displayName)
            sink.raw(",\"fullName\":")
            sink.string(full)
            sink.raw(",\"localAlias\":")
            sink.string(memberAlias)
            sink.raw(isUser ? ",\"isUser\":true}\n" : ",\"isUser\":false}\n")
            summary.members += 1
        }
    }

    // MARK: Item

    /// Writes one item of `chat` as a JSON line: its direction and sender, content type, text,
    /// flags and the JSON fields that follow from them, drawing from `rng` in a fixed order (the
    /// corpus of a seed never changes).
    mutating func writeItem(
        _ chat: ItemChatPlan, itemNumber: Int, time: Int, unread unreadTail: Bool, sink: JSONLSink,
        rng: inout CorpusRandom
    ) {
        let (plantedWords, plantedPhrase) = plantedMarkers()
        let isPlanted = !plantedWords.isEmpty || plantedPhrase
        var draft = Self.directionAndSender(chat, rng: &rng)
        pickContent(&draft, chat, isPlanted: isPlanted, rng: &rng)
        composeText(&draft, chat, plantedWords: plantedWords, plantedPhrase: plantedPhrase, rng: &rng)
        draft.deleted = !isPlanted && rng.chance(0.005)
        draft.edited = rng.chance(0.02)
        draft.unread = unreadTail && draft.dir == .rcv
        countItem(draft, chat)
        writeItemJSON(draft, chat, itemNumber: itemNumber, time: time, sink: sink, rng: &rng)
        rememberForQuotes(draft, itemNumber: itemNumber)
    }

    /// The words planted in the item of this global index, and whether the test phrase is.
    func plantedMarkers() -> (words: [String], phrase: Bool) {
        var plantedWords: [String] = []
        var plantedPhrase = false
        for p in CorpusGenerator.planted where globalIndex % p.period == p.offset {
            if p.kind == .phrase { plantedPhrase = true } else { plantedWords.append(p.text) }
        }
        return (plantedWords, plantedPhrase)
    }

    /// The item's direction and sender, from the chat's kind.
    static func directionAndSender(_ chat: ItemChatPlan, rng: inout CorpusRandom) -> ItemDraft {
        var draft = ItemDraft()
        switch chat.kind {
        case .local:
            draft.dir = .snd
        case .direct, .contactRequest, .contactConnection:
            draft.dir = rng.chance(0.45) ? .snd : .rcv
            if draft.dir == .rcv { draft.sender = chat.members.first }
        case .group:
            if rng.chance(0.15) {
                draft.dir = .snd
                draft.sender = chat.user
            } else {
                draft.dir = .rcv
                let u = rng.unit()
                let members = chat.members
                draft.sender = members[min(members.count - 1, Int(Double(members.count) * u * u))]
            }
        }
        return draft
    }

    /// The item's content type (text when a word is planted in it); an event has no direction
    /// (and no sender outside groups), a report is received from a random member.
    func pickContent(_ draft: inout ItemDraft, _ chat: ItemChatPlan, isPlanted: Bool, rng: inout CorpusRandom) {
        var content = ContentKind.text
        let r = rng.unit()
        if chat.kind != .local, r < 0.01 {
            content = .event
        } else if chat.kind == .group, r < 0.0105 {
            content = .report
        } else if r < 0.0107 {
            content = .chat
        } else if r < 0.0109 {
            content = .unknown
        } else {
            let a = rng.unit()
            if a < 0.05 {
                content = .image
            } else if a < 0.058 {
                content = .video
            } else if a < 0.078 {
                content = .voice
            } else if a < 0.093 {
                content = .file
            }
        }
        if isPlanted { content = .text }
        if content == .event {
            draft.dir = .event
            if chat.kind != .group { draft.sender = nil }
        } else if content == .report {
            draft.dir = .rcv
            draft.sender = chat.members[rng.below(chat.members.count)]
        }
        draft.content = content
    }

    /// Composes the item's text into `text`: an event's sentence, a caption for some media, or
    /// a message with perhaps a mention, markdown, a link (with a preview), an address, a
    /// phone number, emoji and the planted words.
    mutating func composeText(
        _ draft: inout ItemDraft, _ chat: ItemChatPlan, plantedWords: [String], plantedPhrase: Bool,
        rng: inout CorpusRandom
    ) {
        text.removeAll(keepingCapacity: true)
        needSpace = false
        let language = chat.language
        switch draft.content {
        case .event:
            var template = rng.pick(CorpusVocabulary.events)
            if chat.kind != .group, template.contains("%") { template = "missed call" }
            let name = draft.sender?.displayName ?? "Someone"
            text.append(contentsOf: template.replacingPercent(with: name).utf8)
        case .voice:
            break
        case .image, .video, .file:
            if rng.chance(0.4) { composeMessage(language: language, units: rng.int(in: 4...40), rng: &rng) }
        default:
            draft.mention = Self.pickMention(draft, chat, rng: &rng)
            let decorate = rng.chance(0.1)
            draft.hasMarkdown = decorate
            composeMessage(
                language: language, units: Self.sampleLength(&rng, language: language), rng: &rng,
                mention: draft.mention, decoration: decorate ? rng.below(9) : -1, markers: plantedWords)
            if draft.content == .text || draft.content == .link { appendLinkOrContact(&draft, rng: &rng) }
            if rng.chance(0.2) {
                let n = rng.int(in: 1...3)
                for _ in 0..<n { appendSpecial(rng.pick(CorpusVocabulary.emoji)) }
            }
            if plantedPhrase { appendSpecial(Array("meet me at the old lighthouse".utf8)) }
        }
    }

    /// The member a group message mentions (a few of them do): the user, or another member than the sender.
    static func pickMention(_ draft: ItemDraft, _ chat: ItemChatPlan, rng: inout CorpusRandom) -> MemberPlan? {
        guard chat.kind == .group, rng.chance(0.04) else { return nil }
        if draft.sender !== chat.user, rng.chance(0.25) { return chat.user }
        let members = chat.members
        var j = rng.below(members.count)
        if members[j] === draft.sender, members.count > 1 {
            j = (j + 1 + rng.below(members.count - 1)) % members.count
        }
        return members[j]
    }

    /// Perhaps appends a link (some with a preview, which makes the item a link), a bare
    /// domain, an e-mail address or a phone number.
    mutating func appendLinkOrContact(_ draft: inout ItemDraft, rng: inout CorpusRandom) {
        let l = rng.unit()
        if l < 0.05 {
            draft.hasURL = true
            let host = rng.pick(CorpusVocabulary.linkHosts)
            var uri = Array("https://".utf8) + Array(host.utf8) + [UInt8(ascii: "/")]
            Self.appendToken(&uri, rng: &rng, length: rng.int(in: 4...16))
            appendSpecial(uri)
            if rng.chance(0.4) {
                draft.content = .link
                draft.preview = (uri, rng.pick(CorpusVocabulary.previewTitles), host)
            }
        } else if l < 0.06 {
            draft.hasURL = true
            appendSpecial(Array(rng.pick(CorpusVocabulary.bareDomains).utf8))
        } else if l < 0.063 {
            appendSpecial(Array("\(rng.pick(["ana", "info", "support", "j.doe"]))@example.org".utf8))
        } else if l < 0.066 {
            appendSpecial(
                Array(
                    "+\(rng.int(in: 1...99)) \(rng.int(in: 100...999)) \(rng.int(in: 100_000...9_999_999))".utf8
                ))
        }
    }

    /// Adds the item to the summary and counts the queries its text matches.
    mutating func countItem(_ draft: ItemDraft, _ chat: ItemChatPlan) {
        summary.items += 1
        summary.textBytes += text.count
        contentCounts[draft.content.rawValue] += 1
        if draft.unread { summary.unreadItems += 1 }
        if draft.deleted { summary.deletedItems += 1 }
        if draft.edited { summary.editedItems += 1 }
        if draft.hasMarkdown { summary.itemsWithMarkdown += 1 }
        if draft.hasURL { summary.itemsWithURL += 1 }
        if let mention = draft.mention {
            summary.itemsWithMentions += 1
            if mention === chat.user { summary.itemsMentioningUser += 1 }
        }
        if !draft.deleted, !text.isEmpty { countQueries() }
    }

    /// Writes the item's JSON line, drawing the media details, quote, reactions and status.
    mutating func writeItemJSON(
        _ draft: ItemDraft, _ chat: ItemChatPlan, itemNumber: Int, time: Int, sink: JSONLSink,
        rng: inout CorpusRandom
    ) {
        let content = draft.content
        sink.raw("{\"kind\":\"item\",\"chatId\":")
        sink.string(chat.chatSourceId)
        sink.raw(",\"id\":\"")
        sink.int(itemNumber)
        sink.raw("\",\"ts\":\"")
        Self.writeTimestamp(sink, seconds: time, offsetMinutes: chat.offset)
        sink.raw("\",\"dir\":\"")
        sink.rawString(draft.dir.rawValue)
        sink.raw("\"")
        if let sender = draft.sender {
            sink.raw(",\"memberId\":")
            sink.string(sender.id)
        }
        sink.raw(",\"content\":{\"type\":\"")
        sink.rawString(content.name)
        sink.raw("\",\"text\":")
        sink.string(text)
        if let preview = draft.preview {
            sink.raw(",\"preview\":{\"uri\":")
            sink.string(preview.uri)
            sink.raw(",\"title\":")
            sink.string(preview.title)
            sink.raw(",\"description\":")
            sink.string(preview.description)
            sink.raw("}")
        }
        let file = Self.writeMediaFields(content, chat, itemNumber: itemNumber, sink: sink, rng: &rng)
        sink.raw("},\"mentions\":{")
        if let mention = draft.mention {
            sink.string(mention.nameKey)
            sink.raw(":{\"memberId\":")
            sink.string(mention.id)
            sink.raw(mention === chat.user ? ",\"userMention\":true}" : ",\"userMention\":false}")
        }
        sink.raw("}")
        writeQuote(content, sink: sink, rng: &rng)
        sink.raw(draft.edited ? ",\"edited\":true" : ",\"edited\":false")
        sink.raw(draft.deleted ? ",\"deleted\":true" : ",\"deleted\":false")
        sink.raw(draft.unread ? ",\"unread\":true" : ",\"unread\":false")
        if let file {
            sink.raw(",\"file\":{\"name\":")
            sink.string(file.name)
            sink.raw(",\"size\":")
            sink.int(file.size)
            sink.raw("}")
        } else {
            sink.raw(",\"file\":null")
        }
        if content != .event, rng.chance(0.0005) { sink.raw(",\"pinned\":true") }
        if content != .event, rng.chance(0.03) { Self.writeReactions(chat, sink: sink, rng: &rng) }
        if draft.dir == .snd, chat.kind != .local {
            let s = rng.unit()
            sink.raw(
                s < 0.9
                    ? ",\"status\":\"read\""
                    : s < 0.97
                        ? ",\"status\":\"delivered\"" : s < 0.995 ? ",\"status\":\"sent\"" : ",\"status\":\"error\"")
        }
        sink.raw("}\n")
    }

    /// Writes the content fields of media and reports (duration, reason) and returns the
    /// item's file, written later in the line.
    static func writeMediaFields(
        _ content: ContentKind, _ chat: ItemChatPlan, itemNumber: Int, sink: JSONLSink, rng: inout CorpusRandom
    ) -> (name: String, size: Int)? {
        switch content {
        case .video:
            sink.raw(",\"duration\":")
            sink.int(rng.int(in: 3...600))
            return ("VID_\(rng.int(in: 1000...9999)).mp4", rng.int(in: 1_000_000...80_000_000))
        case .voice:
            sink.raw(",\"duration\":")
            sink.int(rng.int(in: 1...180))
            return ("voice_\(itemNumber).m4a", rng.int(in: 8_000...600_000))
        case .image:
            return ("IMG_\(rng.int(in: 1000...9999)).jpg", rng.int(in: 150_000...6_000_000))
        case .file:
            return (rng.pick(chat.language.fileNames), rng.int(in: 2_000...20_000_000))
        case .report:
            sink.raw(",\"reason\":\"")
            sink.rawString(rng.pick(["spam", "content", "community", "profile", "other"]))
            sink.raw("\"")
            return nil
        default:
            return nil
        }
    }

    /// Writes a quote of one of the chat's latest items (for a few non-events), or `null`.
    mutating func writeQuote(_ content: ContentKind, sink: JSONLSink, rng: inout CorpusRandom) {
        if content != .event, ringCount > 0, rng.chance(0.04) {
            let back = rng.below(min(ringCount, 16))
            let slot = (ringCount - 1 - back) & 15
            sink.raw(",\"quote\":{\"id\":\"")
            sink.int(ringIds[slot])
            sink.raw("\",\"text\":")
            sink.string(ringText[slot])
            sink.raw("}")
            summary.itemsWithQuote += 1
        } else {
            sink.raw(",\"quote\":null")
        }
    }

    /// Writes one or two reactions.
    static func writeReactions(_ chat: ItemChatPlan, sink: JSONLSink, rng: inout CorpusRandom) {
        sink.raw(",\"reactions\":[")
        let first = rng.below(CorpusVocabulary.reactions.count)
        sink.raw("{\"emoji\":")
        sink.string(CorpusVocabulary.reactions[first])
        sink.raw(",\"count\":")
        sink.int(rng.int(in: 1...max(1, min(chat.members.count, 12))))
        sink.raw("}")
        if rng.chance(0.3) {
            sink.raw(",{\"emoji\":")
            sink.string(
                CorpusVocabulary.reactions[
                    (first + 1 + rng.below(CorpusVocabulary.reactions.count - 1)) % CorpusVocabulary.reactions.count
                ])
            sink.raw(",\"count\":1}")
        }
        sink.raw("]")
    }

    /// Keeps the item's id and the start of its text in the ring that quotes are drawn from.
    mutating func rememberForQuotes(_ draft: ItemDraft, itemNumber: Int) {
        if !text.isEmpty, draft.content != .event {
            let slot = ringCount & 15
            ringIds[slot] = itemNumber
            ringText[slot].removeAll(keepingCapacity: true)
            var end = min(text.count, 60)
            while end < text.count, end > 0, text[end] & 0xC0 == 0x80 { end -= 1 }
            ringText[slot].append(contentsOf: text[0..<end])
            ringCount += 1
        }
    }

    // MARK: Text

    /// Appends a token that must stand apart (a mention, link, marker, decorated or foreign
    /// word): a space before it unless the text is empty, and one before the next word.
    mutating func appendSpecial(_ token: [UInt8]) {
        if !text.isEmpty, text.last != UInt8(ascii: " ") { text.append(UInt8(ascii: " ")) }
        text.append(contentsOf: token)
        needSpace = true
    }

    mutating func appendWord(_ word: [UInt8], spaced: Bool, capitalize: Bool) {
        if !text.isEmpty, spaced || needSpace, text.last != UInt8(ascii: " ") { text.append(UInt8(ascii: " ")) }
        let start = text.count
        text.append(contentsOf: word)
        if capitalize, text[start] >= 0x61, text[start] <= 0x7A { text[start] -= 0x20 }
        needSpace = spaced
    }

    /// Builds a message of about `units` Unicode scalars in `language` into `text`.
    mutating func composeMessage(
        language: CorpusLanguage, units target: Int, rng: inout CorpusRandom, mention: MemberPlan? = nil,
        decoration: Int = -1,
        markers: [String] = []
    ) {
        let english = CorpusVocabulary.english
        var units = 0
        var w = 0
        var inSentence = 0
        var sentenceLength = rng.int(in: 5...14)
        let mentionAt = mention == nil ? -1 : (rng.chance(0.5) ? 0 : rng.int(in: 1...3))
        let decorationAt = decoration < 0 ? -1 : rng.below(4)
        while units < target || w == 0 {
            if w == mentionAt, let mention {
                appendSpecial(mention.mentionToken)
                units += mention.mentionToken.count
            }
            if w == 1 {
                for marker in markers { appendSpecial(Array(marker.utf8)) }
            }
            let foreign = language !== english && rng.chance(0.03)
            let lang = foreign ? english : language
            let k = lang.sample(&rng)
            if w == decorationAt {
                appendSpecial(Self.decorate(lang.words[k], kind: decoration, rng: &rng))
            } else if foreign, !language.spaced {
                appendSpecial(lang.words[k])
            } else {
                appendWord(lang.words[k], spaced: language.spaced, capitalize: inSentence == 0 && language.capitalizes)
            }
            units += lang.units[k] + 1
            w += 1
            inSentence += 1
            if inSentence >= sentenceLength, units + 8 < target {
                let ender = language.enders[rng.below(language.enders.count)]
                text.append(contentsOf: ender.isEmpty ? language.comma : ender)
                if !language.spaced { needSpace = false }
                inSentence = ender.isEmpty ? 1 : 0
                sentenceLength = rng.int(in: 5...14)
            }
        }
        if w == 1 {
            for marker in markers { appendSpecial(Array(marker.utf8)) }
        }
        if w <= mentionAt, let mention { appendSpecial(mention.mentionToken) }
        if rng.chance(0.7) { text.append(contentsOf: rng.pick(language.enders)) }
    }

    /// Wraps a word in one of nine SimpleX markdown forms.
    static func decorate(_ word: [UInt8], kind: Int, rng: inout CorpusRandom) -> [UInt8] {
        switch kind {
        case 0: return [UInt8(ascii: "*")] + word + [UInt8(ascii: "*")]
        case 1: return [UInt8(ascii: "_")] + word + [UInt8(ascii: "_")]
        case 2: return [UInt8(ascii: "~")] + word + [UInt8(ascii: "~")]
        case 3: return [UInt8(ascii: "`")] + word + [UInt8(ascii: "`")]
        case 4: return [UInt8(ascii: "#")] + word + [UInt8(ascii: "#")]
        case 5:
            let color = rng.pick(["1", "2", "3", "4", "5", "6", "r", "green", "blue", "y", "cyan", "m"])
            return Array("!\(color) ".utf8) + word + [UInt8(ascii: "!")]
        case 6: return Array("!- ".utf8) + word + [UInt8(ascii: "!")]
        case 7:
            var uri = Array("https://".utf8) + Array(rng.pick(CorpusVocabulary.linkHosts).utf8) + [UInt8(ascii: "/")]
            appendToken(&uri, rng: &rng, length: 8)
            return [UInt8(ascii: "[")] + word + Array("](".utf8) + uri + [UInt8(ascii: ")")]
        default: return Array("**".utf8) + word + Array("**".utf8)
        }
    }

    static func appendToken(_ out: inout [UInt8], rng: inout CorpusRandom, length: Int) {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for _ in 0..<length { out.append(alphabet[rng.below(alphabet.count)]) }
    }

    /// Message length in Unicode scalars: mostly 20–120, some short, some long.
    static func sampleLength(_ rng: inout CorpusRandom, language: CorpusLanguage) -> Int {
        let u = rng.unit()
        var n: Int
        if u < 0.15 {
            n = rng.int(in: 3...20)
        } else if u < 0.85 {
            n = rng.int(in: 20...120)
        } else if u < 0.96 {
            n = rng.int(in: 120...350)
        } else {
            n = rng.int(in: 350...1500)
        }
        if language.code == "zh" || language.code == "zh-Hant" || language.code == "ja" { n = max(2, n * 2 / 5) }
        return n
    }

    mutating func countQueries() {
        matcher.count(in: text, into: &queryCounts)
    }

    // MARK: Names, languages, time

    static func pickLanguage(_ rng: inout CorpusRandom) -> CorpusLanguage {
        let total = CorpusVocabulary.languages.reduce(0) { $0 + $1.weight }
        var x = rng.below(total)
        for (language, weight) in CorpusVocabulary.languages {
            if x < weight { return language }
            x -= weight
        }
        return CorpusVocabulary.english
    }

    /// A display name, full name and (sometimes) local alias, mostly in the chat's language.
    static func personName(language chatLanguage: CorpusLanguage, rng: inout CorpusRandom, allowSpace: Bool) -> (
        String, String, String
    ) {
        let language = rng.chance(0.7) ? chatLanguage : pickLanguage(&rng)
        let first = rng.pick(language.firstNames)
        let last = rng.pick(language.lastNames)
        let full = language.familyFirst ? last + language.familySeparator + first : first + " " + last
        let display =
            allowSpace && !language.familyFirst && rng.chance(0.25) ? first + " " + String(last.prefix(1)) : first
        let alias =
            rng.chance(0.1) ? first + " (" + rng.pick(["work", "gym", "neighbour", "school", "climbing"]) + ")" : ""
        return (display, full, alias)
    }

    static func member(id: String, display: String) -> MemberPlan {
        let quoted = display.contains(" ")
        let token = quoted ? "@'" + display + "'" : "@" + display
        return MemberPlan(
            id: Array(id.utf8), displayName: display, mentionToken: Array(token.utf8), nameKey: Array(display.utf8))
    }

    /// Writes `seconds` (UTC) as RFC 3339 local time at `offsetMinutes` (`Z` for zero).
    static func writeTimestamp(_ sink: JSONLSink, seconds: Int, offsetMinutes: Int) {
        let c = Timestamp(seconds: Int64(seconds + offsetMinutes * 60)).components
        let (y, m, d) = (c.year, c.month, c.day)
        let rem = c.hour * 3600 + c.minute * 60 + c.second
        sink.padded(y, 4)
        sink.byte(UInt8(ascii: "-"))
        sink.padded(m, 2)
        sink.byte(UInt8(ascii: "-"))
        sink.padded(d, 2)
        sink.byte(UInt8(ascii: "T"))
        sink.padded(rem / 3600, 2)
        sink.byte(UInt8(ascii: ":"))
        sink.padded(rem % 3600 / 60, 2)
        sink.byte(UInt8(ascii: ":"))
        sink.padded(rem % 60, 2)
        if offsetMinutes == 0 {
            sink.byte(UInt8(ascii: "Z"))
        } else {
            let a = abs(offsetMinutes)
            sink.byte(UInt8(ascii: offsetMinutes < 0 ? "-" : "+"))
            sink.padded(a / 60, 2)
            sink.byte(UInt8(ascii: ":"))
            sink.padded(a % 60, 2)
        }
    }
}

private enum ItemDirection: String {
    case snd, rcv, event
}

extension String {
    fileprivate func replacingPercent(with name: String) -> String {
        var out = ""
        for c in self { if c == "%" { out += name } else { out.append(c) } }
        return out
    }
}
