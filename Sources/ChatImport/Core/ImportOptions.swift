/// Options for importers.
public struct ImportOptions: Sendable {
    /// Zone for formats with floating local times (WhatsApp, old Telegram), as seconds east of UTC
    /// or an IANA identifier resolved by the caller.
    public var timeZoneIdentifier: String?
    /// WhatsApp: the author name that is the archive's owner.
    public var ownerName: String?
    /// WhatsApp: the day/month order of the dates, when the file cannot tell (<doc:WhatsAppFormat>).
    public var dateOrder: WhatsAppDateOrder?
    /// WhatsApp: the chat key (and name) instead of the one taken from the file name; re-imports
    /// must use the same key for their ids to match.
    public var chatKey: String?
    public init(
        timeZoneIdentifier: String? = nil, ownerName: String? = nil, dateOrder: WhatsAppDateOrder? = nil,
        chatKey: String? = nil
    ) {
        self.timeZoneIdentifier = timeZoneIdentifier
        self.ownerName = ownerName
        self.dateOrder = dateOrder
        self.chatKey = chatKey
    }
}
