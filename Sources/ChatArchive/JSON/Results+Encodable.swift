import ChatModel

extension ArchiveStats: Encodable {
    private enum Key: String, CodingKey {
        case chats, members, items, deletedItems, unreadItems, spans, mentions, vocabularyTerms, textBytes
        case fileBytes, analyzerVersion, indexHealthy, itemsBySource, ingests
        case path, format, at
    }

    /// The `stats --json` document: counts, sizes, `indexHealthy`, items by source (sorted by
    /// name) and the ingests, oldest first.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(chats, forKey: .chats)
        try c.encode(members, forKey: .members)
        try c.encode(items, forKey: .items)
        try c.encode(deletedItems, forKey: .deletedItems)
        try c.encode(unreadItems, forKey: .unreadItems)
        try c.encode(spans, forKey: .spans)
        try c.encode(mentions, forKey: .mentions)
        try c.encode(vocabularyTerms, forKey: .vocabularyTerms)
        try c.encode(textBytes, forKey: .textBytes)
        try c.encode(fileBytes, forKey: .fileBytes)
        try c.encode(analyzerVersion, forKey: .analyzerVersion)
        try c.encode(!indexIsStale, forKey: .indexHealthy)
        var sources = c.nestedContainer(keyedBy: JSONKey.self, forKey: .itemsBySource)
        for (name, count) in itemsBySource.sorted(by: { $0.key < $1.key }) {
            try sources.encode(count, forKey: JSONKey(name))
        }
        var list = c.nestedUnkeyedContainer(forKey: .ingests)
        for ingest in ingests {
            var i = list.nestedContainer(keyedBy: Key.self)
            try i.encode(ingest.path, forKey: .path)
            try i.encode(ingest.format, forKey: .format)
            try i.encode(Timestamp(milliseconds: ingest.at).rfc3339, forKey: .at)
        }
    }
}

extension IngestReport: Encodable {
    private enum Key: String, CodingKey {
        case chats, itemsAdded, itemsUpdated, itemsUnchanged, itemsSkipped, warnings, filesStopped, errors
        case stoppedEarly, interrupted, exports, skipped
    }

    /// The `ingest --json` document.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(chats, forKey: .chats)
        try c.encode(itemsAdded, forKey: .itemsAdded)
        try c.encode(itemsUpdated, forKey: .itemsUpdated)
        try c.encode(itemsUnchanged, forKey: .itemsUnchanged)
        try c.encode(itemsSkipped, forKey: .itemsSkipped)
        try c.encode(warnings, forKey: .warnings)
        try c.encode(filesStopped, forKey: .filesStopped)
        try c.encode(errors, forKey: .errors)
        try c.encode(stoppedEarly, forKey: .stoppedEarly)
        try c.encode(interrupted, forKey: .interrupted)
        try c.encode(exports, forKey: .exports)
        try c.encode(skippedFiles, forKey: .skipped)
    }
}

extension ImportIssue: Encodable {
    private enum Key: String, CodingKey { case file, line, byteOffset, record, message, severity }

    /// `{"file", "line"?, "byteOffset"?, "record"?, "message", "severity"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(file, forKey: .file)
        try c.encodeIfPresent(line, forKey: .line)
        try c.encodeIfPresent(byteOffset, forKey: .byteOffset)
        try c.encodeIfPresent(record, forKey: .record)
        try c.encode(message, forKey: .message)
        try c.encode(severity.rawValue, forKey: .severity)
    }
}

extension IngestedExport: Encodable {
    private enum Key: String, CodingKey { case path, format, filesRead, itemsRead, skipped }

    /// `{"path", "format", "filesRead", "itemsRead", "skipped": [...]}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(path, forKey: .path)
        try c.encode(format, forKey: .format)
        try c.encode(filesRead, forKey: .filesRead)
        try c.encode(itemsRead, forKey: .itemsRead)
        try c.encode(skipped, forKey: .skipped)
    }
}

extension SkippedFile: Encodable {
    private enum Key: String, CodingKey { case file, reason }

    /// `{"file", "reason"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(path, forKey: .file)
        try c.encode(reason, forKey: .reason)
    }
}

extension SearchCount: Encodable {
    private enum Key: String, CodingKey { case total, exact, position }

    /// `{"total", "exact"}`, with `"position"` when an item's place was asked for and counted.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(total, forKey: .total)
        try c.encode(isExact, forKey: .exact)
        try c.encodeIfPresent(position, forKey: .position)
    }
}

extension SearchHistogram: Encodable {
    private enum Key: String, CodingKey {
        case period, timeZone, exact, total, estimate, buckets
        case method, countedMatches, sampledMatches, sampledSpans, matchesPerSpan
        case start, end, count
    }

    /// The `search --histogram --json` document: the period (`month` or `week`), the time zone
    /// of its bounds (always `UTC`), whether every count is exact, their sum, how they were
    /// estimated (`null` when exact), and the periods oldest first.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(period.rawValue, forKey: .period)
        try c.encode("UTC", forKey: .timeZone)
        try c.encode(isExact, forKey: .exact)
        try c.encode(total, forKey: .total)
        if let estimate {
            var e = c.nestedContainer(keyedBy: Key.self, forKey: .estimate)
            try e.encode("newestCountedOlderSampled", forKey: .method)
            try e.encode(estimate.countedMatches, forKey: .countedMatches)
            try e.encode(estimate.sampledMatches, forKey: .sampledMatches)
            try e.encode(estimate.sampledSpans, forKey: .sampledSpans)
            try e.encode(estimate.matchesPerSpan, forKey: .matchesPerSpan)
        } else {
            try c.encodeNil(forKey: .estimate)
        }
        var list = c.nestedUnkeyedContainer(forKey: .buckets)
        for bucket in buckets {
            var b = list.nestedContainer(keyedBy: Key.self)
            try b.encode(bucket.start.rfc3339, forKey: .start)
            try b.encode(bucket.end.rfc3339, forKey: .end)
            try b.encode(bucket.count, forKey: .count)
            try b.encode(bucket.isExact, forKey: .exact)
        }
    }
}
