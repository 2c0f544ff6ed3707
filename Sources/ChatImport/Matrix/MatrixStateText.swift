import ChatModel

/// Sentences for Matrix state and call events, which carry no text of their own.
enum MatrixStateText {
    /// The sentence for a state event (`state_key` present) or a call event of type `type`.
    ///
    /// `name` resolves a user id to the name to show; membership events prefer the
    /// `displayname` they carry for their target.
    static func sentence(type: String, event: JSONValue, name: (String) -> String) -> String {
        let content = event["content"] ?? .object([])
        let sender = event["sender"]?.stringValue ?? ""
        let actor = sender.isEmpty ? "Someone" : name(sender)
        let prev = event["unsigned"]?["prev_content"] ?? event["prev_content"]
        switch type {
        case "m.room.member":
            return membership(event: event, content: content, prev: prev, actor: actor, sender: sender, name: name)
        case "m.room.name":
            let n = content["name"]?.stringValue ?? ""
            return n.isEmpty ? "\(actor) removed the room name" : "\(actor) changed the room name to \(n)"
        case "m.room.topic":
            let t = content["topic"]?.stringValue ?? ""
            return t.isEmpty ? "\(actor) removed the topic" : "\(actor) changed the topic to \"\(t)\""
        case "m.room.avatar": return "\(actor) changed the room avatar"
        case "m.room.create": return "\(actor) created the room"
        case "m.room.encryption": return "\(actor) turned on end-to-end encryption"
        case "m.room.join_rules":
            let rule = content["join_rule"]?.stringValue ?? "?"
            return "\(actor) changed who can join this room (\(rule))"
        case "m.room.history_visibility":
            let v = content["history_visibility"]?.stringValue ?? "?"
            return "\(actor) changed who can read the history (\(v))"
        case "m.room.guest_access":
            let v = content["guest_access"]?.stringValue ?? "?"
            return "\(actor) changed guest access (\(v))"
        case "m.room.power_levels": return "\(actor) changed the power levels"
        case "m.room.pinned_events": return "\(actor) changed the pinned messages"
        case "m.room.canonical_alias":
            let alias = content["alias"]?.stringValue ?? ""
            return alias.isEmpty ? "\(actor) removed the main address" : "\(actor) set the main address to \(alias)"
        case "m.room.server_acl": return "\(actor) changed the server access list"
        case "m.room.tombstone":
            let body = content["body"]?.stringValue ?? ""
            return body.isEmpty ? "\(actor) upgraded this room" : "\(actor) upgraded this room: \(body)"
        case "m.room.third_party_invite":
            let who = content["display_name"]?.stringValue ?? "someone"
            return "\(actor) invited \(who)"
        case "m.call.invite":
            let sdp = content["offer"]?["sdp"]?.stringValue ?? ""
            return sdp.contains("m=video") ? "\(actor) started a video call" : "\(actor) started a voice call"
        case "m.call.answer": return "\(actor) answered the call"
        case "m.call.hangup", "m.call.reject": return "\(actor) ended the call"
        default: return "\(actor) changed the room state (\(type))"
        }
    }

    private static func membership(
        event: JSONValue, content: JSONValue, prev: JSONValue?, actor: String, sender: String, name: (String) -> String
    ) -> String {
        let target = event["state_key"]?.stringValue ?? sender
        let targetName = content["displayname"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? name(target)
        let now = content["membership"]?.stringValue ?? ""
        let before = prev?["membership"]?.stringValue ?? ""
        let reason = content["reason"]?.stringValue.map { $0.isEmpty ? "" : ": \($0)" } ?? ""
        let bySelf = sender == target
        switch now {
        case "join":
            guard before == "join" else { return "\(targetName) joined the room" }
            let old = prev?["displayname"]?.stringValue ?? ""
            let new = content["displayname"]?.stringValue ?? ""
            if old != new {
                if old.isEmpty { return "\(name(target)) set their display name to \(new)" }
                if new.isEmpty { return "\(old) removed their display name" }
                return "\(old) changed their display name to \(new)"
            }
            if prev?["avatar_url"] != content["avatar_url"] { return "\(targetName) changed their profile picture" }
            return "\(targetName) updated their profile"
        case "invite": return "\(actor) invited \(targetName)"
        case "leave":
            if bySelf {
                return before == "invite" ? "\(targetName) rejected the invitation" : "\(targetName) left the room"
            }
            if before == "ban" { return "\(actor) unbanned \(targetName)" }
            if before == "invite" { return "\(actor) withdrew \(targetName)'s invitation" }
            return "\(actor) removed \(targetName)\(reason)"
        case "ban": return "\(actor) banned \(targetName)\(reason)"
        case "knock": return "\(targetName) asked to join"
        case "": return "\(targetName)'s membership changed"
        default: return "\(targetName): \(now)"
        }
    }
}
