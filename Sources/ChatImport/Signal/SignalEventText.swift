import ChatModel
import Foundation

/// Sentences for Signal's update messages (`updateMessage`: simple updates, group changes,
/// timers, profile changes, calls), payments and gift badges.
enum SignalEventText {
    /// `name` names an ACI (base64 in the frame); `author` is the item's author.
    static func update(_ u: JSONValue, author: String, name: (JSONValue?) -> String?) -> String {
        if let s = u["simpleUpdate"] { return simple(s["type"], author: author) }
        if let g = u["groupChange"] {
            let lines = (g["updates"]?.arrayValue ?? []).map { groupChange($0, name: name) }
            return lines.isEmpty ? "The group was updated" : lines.joined(separator: "\n")
        }
        if let t = u["expirationTimerChange"] {
            let ms = JSONField.int(t["expiresInMs"]) ?? 0
            return ms == 0
                ? "\(author) turned off disappearing messages"
                : "\(author) set disappearing messages to \(duration(ms))"
        }
        if let p = u["profileChange"] {
            let old = p["previousName"]?.stringValue ?? ""
            let new = p["newName"]?.stringValue ?? ""
            return "\(old.isEmpty ? author : old) changed their name to \(new)"
        }
        if let t = u["threadMerge"] {
            let e164 = JSONField.idString(t["previousE164"]).map { " +" + $0 } ?? ""
            return "Your message history with \(author) and their number\(e164) has been merged"
        }
        if let t = u["sessionSwitchover"] {
            let e164 = JSONField.idString(t["e164"]).map { " +" + $0 } ?? ""
            return "\(author) belongs to\(e164)"
        }
        if let l = u["learnedProfileChange"] {
            let was = l["username"]?.stringValue ?? JSONField.idString(l["e164"]).map { "+" + $0 } ?? ""
            return was.isEmpty ? "\(author) is now known by their profile name" : "\(author) was previously \(was)"
        }
        if let c = u["individualCall"] { return individualCall(c) }
        if let c = u["groupCall"] { return groupCall(c, name: name) }
        return "\(author): update"
    }

    private static func simple(_ type: JSONValue?, author: String) -> String {
        switch type?.stringValue ?? JSONField.int(type).map(String.init) ?? "" {
        case "JOINED_SIGNAL", "1": "\(author) is on Signal"
        case "IDENTITY_UPDATE", "2": "Your safety number with \(author) has changed"
        case "IDENTITY_VERIFIED", "3": "You marked your safety number with \(author) verified"
        case "IDENTITY_DEFAULT", "4": "You marked your safety number with \(author) unverified"
        case "CHANGE_NUMBER", "5": "\(author) changed their phone number"
        case "RELEASE_CHANNEL_DONATION_REQUEST", "6": "Signal asked for a donation"
        case "END_SESSION", "7": "Secure session reset"
        case "CHAT_SESSION_REFRESH", "8": "Chat session refreshed"
        case "BAD_DECRYPT", "9": "A message from \(author) could not be delivered"
        case "PAYMENTS_ACTIVATED", "10": "\(author) activated payments"
        case "PAYMENT_ACTIVATION_REQUEST", "11": "\(author) asked to activate payments"
        case "UNSUPPORTED_PROTOCOL_MESSAGE", "12": "A message from \(author) needs a newer version of Signal"
        case "REPORTED_SPAM", "13": "Reported as spam"
        case "BLOCKED", "14": "You blocked \(author)"
        case "UNBLOCKED", "15": "You unblocked \(author)"
        case "MESSAGE_REQUEST_ACCEPTED", "16": "You accepted the message request"
        default: "\(author): chat update"
        }
    }

    private static func groupChange(_ u: JSONValue, name: (JSONValue?) -> String?) -> String {
        guard case .object(let members) = u, let (kind, v) = members.first else { return "The group was updated" }
        func who(_ key: String) -> String { name(v[key]) ?? "Someone" }
        switch kind {
        case "groupCreationUpdate": return "\(who("updaterAci")) created the group"
        case "groupNameUpdate":
            let title = v["newGroupName"]?.stringValue ?? ""
            return title.isEmpty
                ? "\(who("updaterAci")) removed the group name"
                : "\(who("updaterAci")) changed the group name to \(title)"
        case "groupDescriptionUpdate": return "\(who("updaterAci")) changed the group description"
        case "groupAvatarUpdate":
            return (v["wasRemoved"]?.boolValue ?? false)
                ? "\(who("updaterAci")) removed the group avatar" : "\(who("updaterAci")) changed the group avatar"
        case "groupMemberAddedUpdate": return "\(who("updaterAci")) added \(who("newMemberAci"))"
        case "groupMemberJoinedUpdate", "groupMemberJoinedByLinkUpdate":
            return "\(who("newMemberAci")) joined the group"
        case "groupMemberLeftUpdate": return "\(who("aci")) left the group"
        case "groupMemberRemovedUpdate": return "\(who("removerAci")) removed \(who("removedAci"))"
        case "groupAdminStatusUpdate":
            let granted = v["wasAdminStatusGranted"]?.boolValue ?? false
            return
                "\(who("updaterAci")) \(granted ? "made" : "revoked admin from") \(who("memberAci"))\(granted ? " an admin" : "")"
        case "groupInvitationAcceptedUpdate": return "\(who("newMemberAci")) accepted an invitation to the group"
        case "selfInvitedToGroupUpdate": return "\(who("inviterAci")) invited you to the group"
        case "groupJoinRequestUpdate": return "\(who("requestorAci")) asked to join the group"
        case "groupExpirationTimerUpdate":
            let ms = JSONField.int(v["expiresInMs"]) ?? 0
            return ms == 0
                ? "\(who("updaterAci")) turned off disappearing messages"
                : "\(who("updaterAci")) set disappearing messages to \(duration(ms))"
        case "groupV2MigrationUpdate": return "The group was upgraded to a new group"
        case "groupInviteLinkResetUpdate": return "\(who("updaterAci")) reset the group link"
        case "groupInviteLinkEnabledUpdate": return "\(who("updaterAci")) turned on the group link"
        case "groupInviteLinkDisabledUpdate": return "\(who("updaterAci")) turned off the group link"
        default:
            var words = ""
            for c in kind.replacingOccurrences(of: "Update", with: "") {
                if c.isUppercase { words += " " + c.lowercased() } else { words.append(c) }
            }
            return "Group change:" + (words.hasPrefix(" ") ? words : " " + words)
        }
    }

    private static func individualCall(_ c: JSONValue) -> String {
        let video = c["type"]?.stringValue == "VIDEO_CALL"
        let kind = video ? "video call" : "voice call"
        let outgoing = c["direction"]?.stringValue == "OUTGOING"
        switch c["state"]?.stringValue ?? "" {
        case "MISSED", "MISSED_NOTIFICATION_PROFILE": return "Missed \(kind)"
        case "NOT_ACCEPTED": return outgoing ? "Unanswered \(kind)" : "Declined \(kind)"
        default: return outgoing ? "Outgoing \(kind)" : "Incoming \(kind)"
        }
    }

    private static func groupCall(_ c: JSONValue, name: (JSONValue?) -> String?) -> String {
        var text: String
        switch c["state"]?.stringValue ?? "" {
        case "MISSED", "MISSED_NOTIFICATION_PROFILE": text = "Missed group call"
        case "DECLINED": text = "Declined group call"
        case "JOINED", "ACCEPTED": text = "You joined a group call"
        case "OUTGOING_RING": text = "You started a group call"
        default: text = "Group call"
        }
        if let start = JSONField.int(c["startedCallTimestamp"]), let end = JSONField.int(c["endedCallTimestamp"]),
            end > start
        {
            text += " (" + duration(end - start) + ")"
        }
        return text
    }

    /// `90061000` → `1 d 1 h 1 min 1 s`.
    static func duration(_ ms: Int64) -> String {
        var s = ms / 1000
        var parts: [String] = []
        for (unit, size) in [("w", Int64(604_800)), ("d", 86_400), ("h", 3_600), ("min", 60), ("s", 1)] where s >= size
        {
            parts.append("\(s / size) \(unit)")
            s %= size
        }
        return parts.isEmpty ? "\(ms) ms" : parts.joined(separator: " ")
    }
}
