import ChatIndex
import ChatModel

/// Live writes: what a chat app stores as messages arrive, are edited, deleted and read.
///
/// Each call is one transaction: when it returns, every read sees it (search, windows, their
/// navigation info, the chat list and its counters), and a concurrent reader sees all of it or
/// none of it. Items are matched by `(chatSourceId, sourceId)`, or named by the archive ids that
/// windows and search return (`ArchivedItem/id`), and go through the same analyser
/// and writer as ``Archive/ingest(_:options:progress:)``. An unknown chat or item throws
/// `ArchiveError` and changes nothing.
extension Archive {
    /// Adds chats, or replaces the stored fields of chats with the same source id.
    public func upsert(chats: [Chat]) async throws {
        try await write(LiveUpsert(chats: chats))
    }

    /// Adds members, or replaces the stored fields of members with the same (chat, source id).
    /// Their chats must exist.
    public func upsert(members: [Member]) async throws {
        try await write(LiveUpsert(members: members))
    }

    /// Adds new items and applies edits to stored ones (text, flags, reactions, anything the
    /// item carries), matched by `(chatSourceId, sourceId)`. Their chats must exist.
    public func upsert(items: [Item]) async throws {
        try await write(LiveUpsert(items: items))
    }

    /// Chats, members and items in one transaction (members and items may belong to the chats).
    public func upsert(chats: [Chat], members: [Member], items: [Item]) async throws {
        try await write(LiveUpsert(chats: chats, members: members, items: items))
    }

    /// SimpleX's "marked deleted": the items stay in their chat's windows as placeholders
    /// (`ArchivedItem/isDeleted`), leave searches (unless `SearchOptions/includeDeleted`)
    /// and the chat's counters. Items are named by their source ids.
    public func markDeleted(_ items: [String], in chat: String) async throws {
        try await liveWrite { db in try LiveEdits.markDeleted(chat: chat, items: items, db) }
    }

    /// `markDeleted(_:in:)` for items named by their archive ids (`ArchivedItem/id`,
    /// as windows and search return them).
    public func markDeleted(_ items: [Int64], in chat: String) async throws {
        try await liveWrite { db in
            try LiveEdits.markDeleted(chat: chat, items: LiveEdits.sourceIds(of: items, chat: chat, db), db)
        }
    }

    /// Removes items for good: gone from windows, search, navigation counts and chat counters.
    /// Items are named by their source ids.
    public func deleteItems(_ items: [String], in chat: String) async throws {
        try await liveWrite { db in try LiveEdits.delete(chat: chat, items: items, db) }
    }

    /// `deleteItems(_:in:)` for items named by their archive ids (`ArchivedItem/id`).
    public func deleteItems(_ items: [Int64], in chat: String) async throws {
        try await liveWrite { db in
            try LiveEdits.delete(chat: chat, items: LiveEdits.sourceIds(of: items, chat: chat, db), db)
        }
    }

    /// Removes a chat with its members and items.
    public func deleteChat(_ chat: String) async throws {
        try await liveWrite { db in try LiveEdits.delete(chat: chat, db) }
    }

    /// Marks read every unread item of the chat up to `item` (a source id) by `(ts, id)`, or
    /// every one when `item` is `nil`.
    ///
    /// - Complexity: O(log n) plus the unread items that stay after `item`: the chat's read
    ///   mark moves, no item is rewritten.
    public func markRead(chat: String, through item: String? = nil) async throws {
        try await liveWrite { db in try LiveEdits.markRead(chat: chat, through: item, db) }
    }

    /// `markRead(chat:through:)` up to the item with this archive id (`ArchivedItem/id`:
    /// the newest item of the window on screen).
    public func markRead(chat: String, through item: Int64) async throws {
        try await liveWrite { db in
            try LiveEdits.markRead(chat: chat, through: LiveEdits.sourceIds(of: [item], chat: chat, db)[0], db)
        }
    }

    /// Sets or clears the chat's "marked unread" flag (the unread tab lists it, even muted).
    public func setMarkedUnread(chat: String, to isMarkedUnread: Bool) async throws {
        try await liveWrite { db in try LiveEdits.setMarkedUnread(chat: chat, isMarkedUnread, db) }
    }

    /// Pins or unpins items named by their source ids (the `is:pinned` search filter follows).
    public func setPinned(_ items: [String], in chat: String, to isPinned: Bool) async throws {
        try await liveWrite { db in try LiveEdits.setPinned(chat: chat, items: items, isPinned, db) }
    }

    /// `setPinned(_:in:to:)` for items named by their archive ids (`ArchivedItem/id`).
    public func setPinned(_ items: [Int64], in chat: String, to isPinned: Bool) async throws {
        try await liveWrite { db in
            try LiveEdits.setPinned(chat: chat, items: LiveEdits.sourceIds(of: items, chat: chat, db), isPinned, db)
        }
    }

    /// Replaces the reaction counts of an item named by its source id (empty: none).
    public func setReactions(chat: String, item: String, _ reactions: [Reaction]) async throws {
        try await liveWrite { db in try LiveEdits.setReactions(chat: chat, item: item, reactions, db) }
    }

    /// `setReactions(chat:item:_:)` for an item named by its archive id (`ArchivedItem/id`).
    public func setReactions(chat: String, item: Int64, _ reactions: [Reaction]) async throws {
        try await liveWrite { db in
            try LiveEdits.setReactions(
                chat: chat, item: LiveEdits.sourceIds(of: [item], chat: chat, db)[0], reactions, db)
        }
    }

    /// Marks a chat as a favourite or not (the favorites tab).
    public func setFavorite(chat: String, to isFavorite: Bool) async throws {
        try await update(chat: chat, LiveEdits.ChatSettings(favorite: isFavorite))
    }

    /// Sets how a chat notifies; `.none` mutes it.
    public func setNotifications(chat: String, _ mode: NotificationMode) async throws {
        try await update(chat: chat, LiveEdits.ChatSettings(notifications: mode))
    }

    /// Replaces the user's tags on a chat (the `tag:NAME` tab).
    public func setTags(chat: String, _ tags: [String]) async throws {
        try await update(chat: chat, LiveEdits.ChatSettings(tags: tags))
    }

    /// Sets the user's local name for a chat (`""` clears it); chat-list search finds it.
    public func setAlias(chat: String, _ alias: String) async throws {
        try await update(chat: chat, LiveEdits.ChatSettings(localAlias: alias))
    }

    /// Saves or clears (`nil`) the chat's unsent draft, which its chat-list row then previews.
    public func setDraft(chat: String, _ draft: String?) async throws {
        try await update(chat: chat, LiveEdits.ChatSettings(draft: .some(draft)))
    }

    private func update(chat: String, _ settings: LiveEdits.ChatSettings) async throws {
        try await liveWrite { db in try LiveEdits.update(chat: chat, settings, db) }
    }

    private func write(_ upsert: LiveUpsert) async throws {
        let database = self.database
        try await liveWrite { db in try upsert.write(to: database, db) }
    }

    /// One live write: refused on a read-only or damaged archive, run in one transaction, with
    /// SQLite's failures (busy, full disk, corruption) turned into `ArchiveError` codes. The
    /// first one after a big archive's open suspends until its background check has passed.
    private func liveWrite(_ body: @escaping ArchiveDatabase.Access<Void>) async throws {
        let database = self.database
        try await database.verifyBeforeWritingSuspending()
        try await ArchiveError.mapping(path: database.path, doing: "write") { try await database.liveWrite(body) }
    }
}

// MARK: - Names before 0.2.0

extension Archive {
    /// `markDeleted(_:in:)` under its 0.1.0 name.
    @available(*, deprecated, renamed: "markDeleted(_:in:)")
    public func markDeleted(chat: String, items: [String]) async throws { try await markDeleted(items, in: chat) }

    /// `deleteItems(_:in:)` under its 0.1.0 name, which differed from ``deleteChat(_:)``
    /// only by the `items:` argument.
    @available(*, deprecated, renamed: "deleteItems(_:in:)")
    public func delete(chat: String, items: [String]) async throws { try await deleteItems(items, in: chat) }

    /// ``deleteChat(_:)`` under its 0.1.0 name.
    @available(*, deprecated, renamed: "deleteChat(_:)")
    public func delete(chat: String) async throws { try await deleteChat(chat) }

    /// ``setMarkedUnread(chat:to:)`` under its 0.1.0 name.
    @available(*, deprecated, renamed: "setMarkedUnread(chat:to:)")
    public func setMarkedUnread(chat: String, _ isMarkedUnread: Bool) async throws {
        try await setMarkedUnread(chat: chat, to: isMarkedUnread)
    }

    /// `setPinned(_:in:to:)` under its 0.1.0 name.
    @available(*, deprecated, renamed: "setPinned(_:in:to:)")
    public func setPinned(chat: String, items: [String], _ isPinned: Bool) async throws {
        try await setPinned(items, in: chat, to: isPinned)
    }

    /// ``setFavorite(chat:to:)`` under its 0.1.0 name.
    @available(*, deprecated, renamed: "setFavorite(chat:to:)")
    public func setFavorite(chat: String, _ isFavorite: Bool) async throws {
        try await setFavorite(chat: chat, to: isFavorite)
    }
}
