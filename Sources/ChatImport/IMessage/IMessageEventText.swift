/// Sentences for the group events of `message` rows whose `item_type` is not 0: members
/// added or removed (`item_type` 1, `group_action_type` 0/1, `other_handle`), renames
/// (2, `group_title`), leaving and photo changes (3), location sharing (4), an audio message
/// kept (5), FaceTime and SharePlay (6).
enum IMessageEventText {
    /// The sentence of one event; `actor` and `other` are shown names ("You" for the user).
    static func text(itemType: Int64, action: Int64, actor: String, other: String?, title: String?) -> String {
        let someone = other ?? "someone"
        switch (itemType, action) {
        case (1, 0): return other == actor ? "\(actor) changed their number" : "\(actor) added \(someone)"
        case (1, 1): return "\(actor) removed \(someone)"
        case (2, _):
            let name = title ?? ""
            return name.isEmpty ? "\(actor) removed the group name" : "\(actor) renamed the group to “\(name)”"
        case (3, 0): return "\(actor) left the group"
        case (3, 1): return "\(actor) changed the group photo"
        case (3, 2): return "\(actor) removed the group photo"
        case (3, 4), (3, 6): return "\(actor) changed the group background"
        case (4, _): return "\(actor) shared their location"
        case (5, _): return "\(actor) kept an audio message"
        case (6, _): return "\(actor) started FaceTime or SharePlay"
        default: return "\(actor) updated the conversation (item type \(itemType), action \(action))"
        }
    }
}
