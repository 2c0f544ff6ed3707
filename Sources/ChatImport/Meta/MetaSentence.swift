/// What an English sentence in a Meta message's `content` stands for. Meta writes system
/// events, reaction echoes and attachment placeholders as ordinary messages whose text is a
/// sentence about their sender (`Lena Ortiz left the group.`); unknown sentences, and every
/// sentence in another UI language, stay text.
enum MetaSentence: Equatable {
    /// A system event (members, names, photos, nicknames, themes, calls, admins).
    case event
    /// `Reacted ❤ to your message`, `Liked a message`: a repeat of a reaction the target
    /// message already carries; no item is made for it.
    case reactionEcho
    /// `X sent an attachment.`: stands beside the real media or share; its text is dropped.
    case attachmentPlaceholder
    /// `X sent a location.`: the maps link is in the share.
    case location
    /// Anything else: the person's own words.
    case text

    /// Sentences that stand alone, without a subject.
    private static let standalone: [String] = [
        "You are now connected on Messenger", "Say hi to your new Facebook friend",
        "You can now message and call each other",
        "You can now call each other", "The video chat ended", "The call ended", "You're now friends on Facebook",
    ]

    /// What follows the subject (`Lena Ortiz ` or `You `) in an event sentence.
    private static let predicates: [String] = [
        "left the group", "named the group", "renamed the group", "changed the group name", "changed the chat name",
        "changed the group photo", "removed the group photo", "changed the group description",
        "set the nickname for ", "set his own nickname", "set her own nickname", "set their own nickname",
        "set your nickname", "cleared the nickname for ", "cleared your nickname", "cleared his own nickname",
        "cleared her own nickname", "cleared their own nickname", "changed the theme", "changed the chat theme",
        "set the theme", "set the emoji", "changed the emoji", "set the quick reaction", "changed the quick reaction",
        "created the group", "created a group", "joined the group", "joined the video chat", "started a video chat",
        "joined the call", "started a call", "started an audio call", "started a video call", "missed a call",
        "missed a video chat", "missed your call", "missed your video chat", "called you", "pinned a message",
        "unpinned a message", "turned on disappearing messages", "turned off disappearing messages",
        "changed the group settings", "started sharing video", "approved ", "joined the chat", "left the chat",
    ]

    /// Classifies `content`, a message by `sender`.
    static func classify(_ content: String, sender: String) -> MetaSentence {
        guard !content.isEmpty, content.utf8.count < 600 else { return .text }
        for s in standalone where content.hasPrefix(s) { return .event }
        var rest = Substring(content)
        var hasSubject = false
        if !sender.isEmpty, rest.hasPrefix(sender + " ") {
            rest = rest.dropFirst(sender.count + 1)
            hasSubject = true
        } else if rest.hasPrefix("You ") {
            rest = rest.dropFirst(4)
            hasSubject = true
        }
        // Reaction echoes: `Reacted 😂 to your message`, `Lena Ortiz reacted ❤ to your message`.
        if rest.hasPrefix("Reacted ") || rest.hasPrefix("reacted "),
            rest.hasSuffix(" to your message") || rest.hasSuffix(" to a message") || rest.hasSuffix(" to your message.")
        {
            return .reactionEcho
        }
        if rest == "Liked a message" || rest == "liked a message" || rest == "liked a message." { return .reactionEcho }
        guard hasSubject else { return .text }
        if rest == "sent an attachment." || rest == "sent an attachment" { return .attachmentPlaceholder }
        if rest == "sent a location." || rest == "sent a location" || rest == "shared a location." { return .location }
        if rest.hasPrefix("added "), rest.hasSuffix(" to the group.") || rest.hasSuffix(" to the group") {
            return .event
        }
        if rest.hasPrefix("removed "), rest.hasSuffix(" from the group.") || rest.hasSuffix(" from the group") {
            return .event
        }
        if rest.hasPrefix("made "), rest.hasSuffix("admin.") || rest.hasSuffix("admin") { return .event }
        if rest.hasPrefix("removed "), rest.hasSuffix(" as a group admin.") || rest.hasSuffix(" as an admin.") {
            return .event
        }
        for p in predicates where rest.hasPrefix(p) { return .event }
        return .text
    }
}
