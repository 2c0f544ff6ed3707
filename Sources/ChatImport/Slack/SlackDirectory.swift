/// Names Slack ids resolve to: users (members) and conversations.
struct SlackDirectory {
    struct User {
        var id: String
        var name: String
        var realName: String
    }

    var users: [String: User] = [:]
    var channelNames: [String: String] = [:]
    /// User ids that are the archive's owner (from ``ImportOptions/ownerName``).
    var ownerIds: Set<String> = []

    func userName(_ id: String) -> String? { users[id]?.name }
}
