import ChatModel

/// Readable English text for Telegram service messages (`action` + its keys).
enum TelegramServiceText {
    /// Keys every service message has, left out when an unknown action is rendered.
    private static let commonKeys: Set<String> = [
        "id", "type", "date", "date_unixtime", "actor", "actor_id", "action", "text", "text_entities", "from",
        "from_id", "edited", "edited_unixtime", "reply_to_message_id", "reply_to_peer_id",
    ]

    /// The event text of a service message.
    static func text(of m: JSONValue) -> String {
        let actor = name(m["actor"]) ?? "Deleted Account"
        let action = m["action"]?.stringValue
        let title = m["title"]?.stringValue.map { "«\($0)»" }
        let members = (m["members"]?.arrayValue ?? []).map { name($0) ?? "Deleted Account" }.joined(separator: ", ")
        let duration = JSONField.int(m["duration_seconds"]) ?? JSONField.int(m["duration"])
        switch action {
        case "pin_message"?: return "\(actor) pinned a message"
        case "phone_call"?:
            if let duration { return "phone call (\(duration) s)" }
            if let reason = m["discard_reason"]?.stringValue, !reason.isEmpty { return "phone call (\(reason))" }
            return "phone call"
        case "group_call"?:
            return duration.map { "\(actor) started a group call (\($0) s)" } ?? "\(actor) started a group call"
        case "invite_to_group_call"?: return "\(actor) invited \(members) to the group call"
        case "create_group"?: return "\(actor) created the group \(title ?? "")".trimmingTrailingSpace
        case "create_channel"?: return "\(actor) created the channel \(title ?? "")".trimmingTrailingSpace
        case "edit_group_title"?: return "\(actor) changed the title to \(title ?? "")".trimmingTrailingSpace
        case "edit_group_photo"?: return "\(actor) changed the group photo"
        case "delete_group_photo"?: return "\(actor) removed the group photo"
        case "invite_members"?: return "\(actor) added \(members)"
        case "remove_members"?: return "\(actor) removed \(members)"
        case "join_group_by_link"?: return "\(actor) joined the group via an invite link"
        case "join_group_by_request"?: return "\(actor) joined the group after a request"
        case "migrate_to_supergroup"?: return "\(actor) upgraded the group to a supergroup"
        case "migrate_from_group"?: return "\(actor) upgraded the group \(title ?? "") to a supergroup"
        case "clear_history"?, "history_clear"?: return "\(actor) cleared the history"
        case "contact_signup"?: return "\(actor) joined Telegram"
        case "screenshot_taken"?: return "\(actor) took a screenshot"
        case "score_in_game"?:
            return "\(actor) scored \(JSONField.int(m["score"]).map(String.init) ?? "?")"
        case "custom_action"?, nil:
            if let info = m["information_text"]?.stringValue { return info }
            if action == nil { return "\(actor): service message" }
        default: break
        }
        if let info = m["information_text"]?.stringValue { return info }
        // Unknown action: its name and scalar keys.
        var out = "\(actor): \((action ?? "service message").replacingUnderscores)"
        var extras: [String] = []
        if case .object(let fields) = m {
            for (k, v) in fields where !commonKeys.contains(k) {
                if let s = JSONField.scalarText(v), !s.isEmpty { extras.append("\(k.replacingUnderscores): \(s)") }
            }
        }
        if !members.isEmpty, !extras.contains(where: { $0.hasPrefix("members") }) {
            extras.append("members: \(members)")
        }
        if !extras.isEmpty { out += " (" + extras.joined(separator: ", ") + ")" }
        return out
    }

    private static func name(_ v: JSONValue?) -> String? {
        if case .string(let s)? = v, !s.isEmpty { return s }
        return nil
    }
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
    fileprivate var trimmingTrailingSpace: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
