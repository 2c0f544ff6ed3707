import ChatArchive
import ChatTestSupport
import Testing

/// Relevance ranks a bounded set of the newest matches, then continues newest first: paging
/// must still return every match exactly once, whatever the page size.
@Suite struct RelevancePagingTests {
    @Test(arguments: [13, 2000, 2001, 3000])
    func relevancePagesReturnEveryMatchOnce(pageSize: Int) async throws {
        let n = MessageSearch.relevanceCandidates + 150
        var lines = [Lines.chat("g1", name: "Many")]
        for i in 0..<n {
            let minute = i % 60
            let hour = (i / 60) % 24
            let day = 1 + i / 1440
            let ts = String(format: "2024-05-%02dT%02d:%02d:00Z", day, hour, minute)
            // Some items say the word twice: they rank first among the candidates.
            let text = i % 10 == 0 ? "harvest harvest moon \(i)" : "the harvest \(i) and more words here"
            lines.append(Lines.item("g1", "\(i)", ts: ts, text: text))
        }
        let (archive, _) = try TestArchive.make(jsonl: lines.joined(separator: "\n"))
        var seen: [String] = []
        var cursor: String? = nil
        var pages = 0
        repeat {
            let page = try await archive.search(
                "harvest", options: SearchOptions(limit: pageSize, cursor: cursor, order: .relevance))
            seen += page.hits.map(\.item.sourceId)
            #expect(page.hits.count <= pageSize)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 10_000
        #expect(seen.count == n)
        #expect(Set(seen).count == n, "no duplicates")
        // The first hit is one of the strongest matches among the newest candidates.
        let first = try #require(seen.first.flatMap { Int($0) })
        #expect(first % 10 == 0)
    }
}
