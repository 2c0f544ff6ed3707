import ChatModel

/// What a first pass over a Matrix export learns before any record is sent: the header, the
/// room, its members and their latest names, and the events that act on other events
/// (reactions, stray edits and redactions) so that their targets, read later in the second
/// pass, come out complete. Memory grows with members and relation events, not messages.
struct MatrixSurvey {
    /// A stray edit event (`m.relates_to.rel_type: m.replace`): the newest one per target and
    /// sender is kept (only the target's own sender may edit it).
    struct Edit {
        var timestamp: Int64
        var sender: String?
        var newContent: JSONValue
    }

    private struct Annotation {
        var eventID: String
        var target: String
        var key: String
        var sender: String
    }

    var roomName: String?
    var topic: String?
    var exportedBy: String?
    var sawMessages = false
    /// Events in `messages` (elements that are objects).
    var eventCount = 0
    /// The first `room_id` found on an event, and whether another one was seen.
    var roomID: String?
    var hasOtherRooms = false
    /// User ids in the order they first appear (senders and membership targets).
    var memberOrder: [String] = []
    /// The latest display name each user set in the file (absent when none, or removed).
    var latestName: [String: String] = [:]
    /// Every display name each user had in the file.
    var allNames: [String: Set<String>] = [:]
    /// Target → newest edit per sender.
    var edits: [String: [Edit]] = [:]
    /// The file holds the room's creation (an export "from the beginning").
    var hasCreateEvent = false
    /// A membership event says the room is a direct chat (`is_direct`).
    var isDirect = false
    /// Targets of stray redaction events.
    var redacted: Set<String> = []
    /// Ids of reaction, edit and redaction events: applied to their targets, never items.
    var relationEvents: Set<String> = []
    /// Events replied to or threaded on: their text is remembered for the quotes.
    var quoted: Set<String> = []
    /// Reaction counts per target, from `m.reaction` events (redacted ones left out).
    private(set) var reactions: [String: [Reaction]] = [:]
    private var annotations: [Annotation] = []
    private var known: Set<String> = []

    /// Reads `entry` once; a syntax error ends the survey quietly (the second pass reports it).
    static func read(_ container: any ExportContainer, entry: String) throws -> MatrixSurvey {
        var survey = MatrixSurvey()
        let reader = JSONStreamReader(try container.open(entry), elementPaths: ["messages[*]"])
        do {
            while let event = try reader.next() {
                switch event {
                case .value(let path, _, let bytes, _):
                    let s = (try? JSONParser.parse(bytes))?.stringValue
                    switch path {
                    case "room_name": survey.roomName = s
                    case "topic": survey.topic = s
                    case "exported_by": survey.exportedBy = s
                    default: break
                    }
                case .enter("messages", _, _):
                    survey.sawMessages = true
                case .element(_, _, let bytes, _):
                    guard let v = try? JSONParser.parse(bytes), case .object = v else { continue }
                    survey.add(v)
                default: continue
                }
            }
        } catch {
            // Reported with its location by the second pass.
        }
        survey.countReactions()
        return survey
    }

    private mutating func see(_ user: String) {
        guard !user.isEmpty, known.insert(user).inserted else { return }
        memberOrder.append(user)
    }

    private mutating func add(_ e: JSONValue) {
        eventCount += 1
        let id = e["event_id"]?.stringValue ?? ""
        let type = e["type"]?.stringValue ?? ""
        let sender = e["sender"]?.stringValue ?? ""
        let content = e["content"] ?? .object([])
        if let room = e["room_id"]?.stringValue, !room.isEmpty {
            if roomID == nil { roomID = room } else if room != roomID { hasOtherRooms = true }
        }
        see(sender)
        let relates = content["m.relates_to"]
        switch type {
        case "m.room.create":
            hasCreateEvent = true
        case "m.room.member":
            guard let target = e["state_key"]?.stringValue else { break }
            see(target)
            if content["is_direct"]?.boolValue == true { isDirect = true }
            let membership = content["membership"]?.stringValue ?? ""
            guard membership == "join" || membership == "invite" else { break }
            if let name = content["displayname"]?.stringValue, !name.isEmpty {
                latestName[target] = name
                allNames[target, default: []].insert(name)
            } else if membership == "join" {
                latestName[target] = nil
            }
        case "m.reaction":
            relationEvents.insert(id)
            guard e["unsigned"]?["redacted_because"] == nil, relates?["rel_type"]?.stringValue == "m.annotation",
                let target = relates?["event_id"]?.stringValue, let key = relates?["key"]?.stringValue, !key.isEmpty
            else { break }
            annotations.append(Annotation(eventID: id, target: target, key: key, sender: sender))
        case "m.room.redaction":
            relationEvents.insert(id)
            // Room version 11 moved `redacts` into the content.
            if let target = e["redacts"]?.stringValue ?? content["redacts"]?.stringValue { redacted.insert(target) }
        default:
            if relates?["rel_type"]?.stringValue == "m.replace", let target = relates?["event_id"]?.stringValue,
                !id.isEmpty
            {
                relationEvents.insert(id)
                guard let newContent = content["m.new_content"], case .object = newContent else { break }
                let ts = JSONField.int(e["origin_server_ts"]) ?? 0
                let edit = Edit(timestamp: ts, sender: sender.isEmpty ? nil : sender, newContent: newContent)
                var list = edits[target] ?? []
                if let k = list.firstIndex(where: { $0.sender == edit.sender }) {
                    if list[k].timestamp <= ts { list[k] = edit }
                } else {
                    list.append(edit)
                }
                edits[target] = list
                break
            }
            if let reply = relates?["m.in_reply_to"]?["event_id"]?.stringValue { quoted.insert(reply) }
            if relates?["rel_type"]?.stringValue == "m.thread", let root = relates?["event_id"]?.stringValue {
                quoted.insert(root)
            }
        }
    }

    /// Counts reactions per target and key, once per sender and key, leaving out redacted ones.
    private mutating func countReactions() {
        var seen: Set<[String]> = []
        for a in annotations where !redacted.contains(a.eventID) {
            guard seen.insert([a.target, a.key, a.sender]).inserted else { continue }
            var list = reactions[a.target] ?? []
            if let k = list.firstIndex(where: { $0.emoji == a.key }) {
                list[k].count += 1
            } else {
                list.append(Reaction(emoji: a.key, count: 1))
            }
            reactions[a.target] = list
        }
        annotations = []
    }
}
