import ChatModel

/// SimpleX's two JSON encodings of sum types, normalised.
///
/// Android, desktop and the CLI tag constructors (`{"type":"groupRcv","groupMember":{…}}`);
/// the Apple apps use a single key (`{"groupRcv":{…}}`, sometimes with `"_owsf": true`).
enum SimplexJSON {
    /// The constructor name and the object holding its fields, in either encoding.
    static func tagged(_ value: JSONValue?) -> (tag: String, body: JSONValue)? {
        guard let value, case .object(let members) = value else { return nil }
        if let tag = value["type"]?.stringValue { return (tag, value) }
        let keys = members.filter { $0.0 != "_owsf" }
        guard keys.count == 1, let only = keys.first else { return nil }
        switch only.1 {
        case .object: return (only.0, only.1)
        default: return (only.0, .object([]))
        }
    }

    /// An integer from a JSON number or a numeric string.
    static func int(_ v: JSONValue?) -> Int64? {
        switch v {
        case .number(let d)? where d.rounded() == d && abs(d) < 9.0e15: return Int64(d)
        case .string(let s)?: return Int64(s)
        default: return nil
        }
    }

    /// A string, or an integer's decimal text (ids may come either way).
    static func idString(_ v: JSONValue?) -> String? {
        if let s = v?.stringValue { return s }
        return int(v).map { String($0) }
    }

    /// A Boolean from `true`/`false` or 0/1.
    static func bool(_ v: JSONValue?) -> Bool {
        switch v {
        case .bool(let b)?: return b
        case .number(let d)?: return d != 0
        default: return false
        }
    }

    /// Maps a `MsgContent` object (always tagged) to a ``MessageContent``.
    static func messageContent(_ mc: JSONValue?) -> MessageContent {
        guard let mc, let (tag, body) = tagged(mc) else { return MessageContent(type: .unknown, text: "") }
        let text = body["text"]?.stringValue ?? ""
        switch tag {
        case "text": return MessageContent(type: .text, text: text)
        case "link":
            let p = body["preview"]
            let preview = p.map {
                LinkPreview(
                    uri: $0["uri"]?.stringValue ?? "", title: $0["title"]?.stringValue ?? "",
                    description: $0["description"]?.stringValue ?? "")
            }
            return MessageContent(type: .link, text: text, preview: preview)
        case "image": return MessageContent(type: .image, text: text)
        case "video": return MessageContent(type: .video, text: text, duration: int(body["duration"]).map { Int($0) })
        case "voice": return MessageContent(type: .voice, text: text, duration: int(body["duration"]).map { Int($0) })
        case "file": return MessageContent(type: .file, text: text)
        case "report":
            let reason = body["reason"]?.stringValue ?? tagged(body["reason"])?.tag
            return MessageContent(type: .report, text: text, reason: reason)
        case "chat": return MessageContent(type: .chat, text: text)
        default: return MessageContent(type: .unknown, text: text)
        }
    }

    /// Aggregated reactions from a `MsgReaction` JSON (`{"type":"emoji","emoji":"👍"}`).
    static func reactionEmoji(_ v: JSONValue?) -> String? {
        guard let (tag, body) = tagged(v) else { return v?.stringValue }
        if tag == "emoji" { return body["emoji"]?.stringValue }
        return nil
    }

    /// Maps a SimpleX `CIStatus` tag to the item's read state and delivery status.
    static func status(tag: String) -> (unread: Bool, status: ItemStatus?) {
        switch tag {
        case "rcvNew", "rcv_new": return (true, nil)
        case "sndSent", "snd_sent": return (false, .sent)
        case "sndRcvd", "snd_rcvd": return (false, .delivered)
        default:
            if tag.hasPrefix("sndError") || tag.hasPrefix("snd_error") { return (false, .error) }
            return (false, nil)
        }
    }

    /// Decodes a SimpleX `Format` in either encoding; anything unknown or malformed is `.unknown`.
    static func format(_ v: JSONValue) -> Format { FormattedTextJSON.format(from: v) ?? .unknown(v) }

    /// Decodes a `formattedText` array; `nil` when it is absent or not an array.
    static func formattedText(_ v: JSONValue?) -> [FormattedText]? { v.flatMap(FormattedTextJSON.pieces(from:)) }

    /// Base64url with padding, as SimpleX writes member ids.
    static func base64url(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        return encode(bytes, table)
    }

    /// Standard base64 with padding (BLOBs in raw records).
    static func base64(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        return encode(bytes, table)
    }

    private static func encode(_ bytes: [UInt8], _ table: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], table[Int(n & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], 61, 61]
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [table[Int(n >> 18 & 63)], table[Int(n >> 12 & 63)], table[Int(n >> 6 & 63)], 61]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
