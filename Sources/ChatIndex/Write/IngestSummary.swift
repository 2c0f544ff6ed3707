/// What an ingest did, as the JSONOutput article of ChatArchive's documentation reports it.
package struct IngestSummary: Sendable, Hashable {
    package var chats = 0
    package var itemsAdded = 0
    package var itemsUpdated = 0
    package var itemsUnchanged = 0
    package var itemsSkipped = 0
    package init() {}
}
