import ChatModel

/// The filter tokens stored in the FTS `tags` column of every item, so that chat, content,
/// sender, mention and state filters are answered by the full-text index itself (no
/// post-filtering, no join on a global posting list).
///
/// Every token is ASCII letters and digits, which the tokenizer keeps whole.
package enum IndexTerms {
    /// Present on every item: lets a query made only of exclusions or filters run.
    package static let all = "all"
    /// The item is deleted.
    package static let deleted = "xdel"
    /// The item is unread.
    package static let unread = "xunread"
    /// The item is pinned.
    package static let pinned = "xpin"
    /// The item has a link (a link span or a preview card).
    package static let link = "xlink"
    /// The item mentions the archive's owner.
    package static let mentionsMe = "mnme"
    /// The item was sent by the archive's owner.
    package static let fromMe = "frme"

    package static func chat(_ id: Int64) -> String { chatPrefix + String(id) }
    /// The letter before a chat's id in its token.
    package static let chatPrefix = "c"
    package static func content(_ t: ContentType) -> String { contentTokens[Int(t.code)] }
    /// Each content type's token by its code, made once (every item's tags hold one); the
    /// codes are the cases' places in `allCases`.
    private static let contentTokens = ContentType.allCases.map { "t" + $0.rawValue.lowercased() }
    package static func from(member id: Int64) -> String { memberPrefix + String(id) }
    /// The letters before a sender's member id in its token.
    package static let memberPrefix = "fr"
    package static func mentions(member id: Int64) -> String { "mn\(id)" }

    /// The first tokens of every item's tags: `all`, its chat and its content type.
    package static func head(chat id: Int64, type: ContentType) -> String {
        all + " " + chat(id) + " " + content(type)
    }

    /// The head of an item's tags in an archive whose SQL spells it (``StoredTags``): ``head(chat:type:)``
    /// and then ``sender(sentByMe:member:)``, all from the item row's own columns.
    package static func head(chat id: Int64, type: ContentType, sentByMe: Bool, member: Int64?) -> String {
        head(chat: id, type: type) + sender(sentByMe: sentByMe, member: member)
    }

    /// The sender's tokens of an item's tags (each after a space): `frme` when the owner sent
    /// it, and its member's token when it has one.
    package static func sender(sentByMe: Bool, member: Int64?) -> String {
        (sentByMe ? " " + fromMe : "") + (member.map { " " + from(member: $0) } ?? "")
    }

    /// Filter token `tag` as a query looks it up in the chat-keyed index without positions
    /// (``ChatKeys/ftsWithoutPositionsSQL``), whose tokenizer writes each filter token after
    /// the byte `CCHATICU_TAG_PREFIX` (0x1E); the leading `CCHATICU_VERBATIM` (0x1F) makes the
    /// query tokenizer take the rest as one token, as it stands.
    package static func verbatimKeyed(_ tag: String) -> String { "\u{1F}\u{1E}" + tag }
}

/// Bits of `item.flags`.
package struct ItemFlags: OptionSet, Sendable, Hashable {
    package let rawValue: Int64
    package init(rawValue: Int64) { self.rawValue = rawValue }
    package static let edited = ItemFlags(rawValue: 1)
    package static let deleted = ItemFlags(rawValue: 2)
    package static let unread = ItemFlags(rawValue: 4)
    package static let pinned = ItemFlags(rawValue: 8)
    package static let hasLink = ItemFlags(rawValue: 16)
    package static let mentionsUser = ItemFlags(rawValue: 32)
    /// The time was a zone-less wall clock placed in the zone chosen at import.
    package static let floatingTime = ItemFlags(rawValue: 64)
    /// The source's time was missing or unreadable (the previous item's time is used).
    package static let timeUnknown = ItemFlags(rawValue: 128)
}

extension ItemDirection {
    /// Compact storage code.
    package var code: Int64 {
        switch self {
        case .snd: 0
        case .rcv: 1
        case .event: 2
        }
    }
    package init(code: Int64) {
        switch code {
        case 0: self = .snd
        case 2: self = .event
        default: self = .rcv
        }
    }
}

extension ContentType {
    /// Compact storage code.
    package var code: Int64 { Int64(ContentType.allCases.firstIndex(of: self) ?? 0) }
    package init(code: Int64) {
        let all = ContentType.allCases
        self = code >= 0 && code < all.count ? all[Int(code)] : .unknown
    }
}

extension ItemFlags {
    /// The SQL condition "the flags `set` are set and the flags `clear` are not" on the flags
    /// column `column`: `flags & 38 = 36` for `set: [.unread, .mentionsUser], clear: .deleted`,
    /// written as the partial indexes' conditions are (`Migrations`), so that a query using it
    /// can use them.
    package static func sql(_ column: String = "flags", set: ItemFlags = [], clear: ItemFlags = []) -> String {
        "\(column) & \(set.union(clear).rawValue) = \(set.rawValue)"
    }
}
