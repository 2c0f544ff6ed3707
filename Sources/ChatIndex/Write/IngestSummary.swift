/// What an ingest did, as the JSONOutput article of ChatArchive's documentation reports it.
package struct IngestSummary: Sendable, Hashable {
    package var chats = 0
    package var itemsAdded = 0
    package var itemsUpdated = 0
    package var itemsUnchanged = 0
    package var itemsSkipped = 0
    /// Where the ingest's time went (for the bench; no output shows it).
    package var timing = IngestTiming()
    package init() {}
}

/// Where an ingest's wall time went, between its two threads and the work after its last
/// batch, and how much it wrote to the log (<doc:WritePerformance>, "Where an ingest's time
/// goes").
package struct IngestTiming: Sendable, Hashable {
    /// Seconds the writer's thread spent writing batches (each batch's transaction and the
    /// log copy after it).
    package var writing = 0.0
    /// Seconds the caller's thread (reading and preparing items) waited for the writer to
    /// finish the batch before, so that it could hand over the next.
    package var waiting = 0.0
    /// Seconds after the last batch was written: chats keyed late, the final merge of the
    /// full-text indexes, the log copied back.
    package var finishing = 0.0
    /// Pages the writer's connection wrote to the log (commits, pages spilled from its cache,
    /// the final merge), in bytes.
    package var logBytes: Int64 = 0
    package init() {}

    /// Timings are not part of what an ingest did: two reports of the same work are equal
    /// however long each took.
    package static func == (_: IngestTiming, _: IngestTiming) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}
