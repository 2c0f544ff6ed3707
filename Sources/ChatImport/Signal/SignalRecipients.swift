import ChatModel
import Foundation

/// The recipients of one Signal `main.jsonl`, keyed by their file-local ids but named by
/// Signal's own identities: `aci:<uuid>`, `e164:<digits>`, `pni:<uuid>`, `group:<hex>`,
/// `self`. The file-local ids are valid inside one file only; nothing stored uses them.
struct SignalRecipients {
    enum Kind: Equatable {
        case contact, group, me, releaseNotes
        /// Distribution lists and call links: no chats, no authors.
        case other
    }

    struct Recipient {
        var key: String
        var name: String
        var kind: Kind
        /// The ACIs of a group's members (from its snapshot).
        var memberAcis: [String] = []
    }

    /// The key of the user's own recipient.
    static let selfKey = "self"

    private(set) var byId: [String: Recipient] = [:]
    /// Contacts by lower-case ACI UUID (mentions and group updates name ACIs).
    private(set) var contactByAci: [String: Recipient] = [:]
    /// The user's own name (from the `account` frame).
    var ownName = ""

    subscript(id: String) -> Recipient? { byId[id] }

    /// Reads one `recipient` frame; returns a reason when it cannot be used.
    mutating func add(_ r: JSONValue) -> String? {
        guard let id = JSONField.idString(r["id"]) else { return "recipient without an id" }
        if let c = r["contact"] {
            let aci = Self.uuid(c["aci"])
            let pni = Self.uuid(c["pni"])
            let e164 = JSONField.idString(c["e164"]).flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
            let key: String
            if let aci {
                key = "aci:" + aci
            } else if let e164 {
                key = "e164:" + e164
            } else if let pni {
                key = "pni:" + pni
            } else {
                return "contact recipient \(id) has no ACI, phone number or PNI"
            }
            let name = Self.contactName(c, e164: e164)
            byId[id] = Recipient(key: key, name: name, kind: .contact)
            if let aci { contactByAci[aci] = byId[id] }
        } else if let g = r["group"] {
            guard let masterKey = g["masterKey"]?.stringValue.flatMap(Self.bytes), !masterKey.isEmpty else {
                return "group recipient \(id) has no master key"
            }
            // The master key is a secret: only a hash of it names the group.
            var digest = SHA256Digest()
            digest.update(masterKey)
            let key = "group:" + SHA256Digest.hexString(Array(digest.finish().prefix(16)))
            let snapshot = g["snapshot"]
            let title = snapshot?["title"]?["title"]?.stringValue ?? ""
            let members = (snapshot?["members"]?.arrayValue ?? []).compactMap { Self.uuid($0["userId"]) }
            byId[id] = Recipient(key: key, name: title.isEmpty ? "Group" : title, kind: .group, memberAcis: members)
        } else if r["self"] != nil {
            byId[id] = Recipient(key: Self.selfKey, name: ownName, kind: .me)
        } else if r["releaseNotes"] != nil {
            byId[id] = Recipient(key: "release-notes", name: "Signal", kind: .releaseNotes)
        } else {
            byId[id] = Recipient(key: "recipient-" + id, name: "", kind: .other)
        }
        return nil
    }

    /// The name a contact is shown by: nickname, then the name in the phone's contacts, then
    /// the profile name, then the number or username.
    static func contactName(_ c: JSONValue, e164: String?) -> String {
        func joined(_ a: String?, _ b: String?) -> String {
            [a, b].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        }
        let candidates = [
            joined(c["nickname"]?["given"]?.stringValue, c["nickname"]?["family"]?.stringValue),
            c["systemNickname"]?.stringValue ?? "",
            joined(c["systemGivenName"]?.stringValue, c["systemFamilyName"]?.stringValue),
            joined(c["profileGivenName"]?.stringValue, c["profileFamilyName"]?.stringValue),
            e164.map { "+" + $0 } ?? "",
            c["username"]?.stringValue ?? "",
        ]
        return candidates.first { !$0.isEmpty } ?? "Unknown contact"
    }

    /// A recipient's name, with the user's own name filled in.
    func name(of r: Recipient) -> String {
        r.kind == .me ? ownShownName : r.name
    }

    /// The name the user is shown by.
    var ownShownName: String { ownName.isEmpty ? "You" : ownName }

    /// The member key and name an ACI stands for, and whether it is the user.
    func person(aci: String) -> (key: String, name: String, isUser: Bool) {
        if let r = contactByAci[aci] { return (r.key, r.name, false) }
        if aci == selfAci { return (Self.selfKey, ownShownName, true) }
        return ("aci:" + aci, "Unknown member", false)
    }

    /// The user's ACI, which no frame names: the one ACI that is a member of every group
    /// without being a contact (``settle()`` finds it once the recipients are read).
    private(set) var selfAci: String?

    /// Guesses ``selfAci``; called when the first chat arrives (recipients come before chats).
    mutating func settle() {
        let groups = byId.values.filter { $0.kind == .group && !$0.memberAcis.isEmpty }
        guard var common = groups.first.map({ Set($0.memberAcis) }) else { return }
        for g in groups.dropFirst() { common.formIntersection(g.memberAcis) }
        let strangers = common.filter { contactByAci[$0] == nil }
        selfAci = strangers.count == 1 ? strangers.first : nil
    }

    /// A 16-byte identifier (base64, or UUID text from other writers) as lower-case UUID text.
    static func uuid(_ v: JSONValue?) -> String? {
        guard let s = v?.stringValue, !s.isEmpty else { return nil }
        if s.utf8.count == 36, s.utf8.filter({ $0 == UInt8(ascii: "-") }).count == 4,
            s.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 < 128 && Character(UnicodeScalar($0)).isHexDigit) })
        {
            return s.lowercased()
        }
        guard let b = bytes(s), b.count == 16 else { return nil }
        let hex = SHA256Digest.hexString(b)
        let u = Array(hex)
        return String(u[0..<8]) + "-" + String(u[8..<12]) + "-" + String(u[12..<16]) + "-" + String(u[16..<20]) + "-"
            + String(u[20..<32])
    }

    /// Base64 (standard or URL-safe, padding optional) as bytes.
    static func bytes(_ s: String) -> [UInt8]? {
        var t = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while t.utf8.count % 4 != 0 { t += "=" }
        return Data(base64Encoded: t).map { Array($0) }
    }
}
