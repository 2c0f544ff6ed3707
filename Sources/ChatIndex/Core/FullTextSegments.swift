import Foundation
import GRDB

/// The segments of the items' full-text index, read from FTS5's structure record (row 10 of
/// `itemFts_data`): how many b-trees a query term is looked up in, and whether a merge is in
/// progress. For the bench and the tests of merging; FTS5 itself offers this only in debug
/// builds (`fts5_structure`).
package struct FullTextSegments: Sendable, Equatable {
    /// Per level, the leaf pages of each segment.
    package var levels: [[Int]]
    /// Per level, the segments an incremental merge of that level has taken so far (0: none).
    package var merging: [Int]

    /// Segments in the whole index.
    package var count: Int { levels.reduce(0) { $0 + $1.count } }

    /// Reads the structure record of `table` (a full-text index); `nil` when the index has none
    /// yet or it cannot be decoded.
    package static func read(_ db: Database, of table: String = "itemFts") throws -> FullTextSegments? {
        try FullTextStructure.read(db, of: table).map(FullTextSegments.init)
    }

    init(_ structure: FullTextStructure) {
        levels = structure.levels.map { $0.segments.map(\.pages) }
        merging = structure.levels.map(\.merging)
    }

    /// Runs FTS5's incremental `'merge'` in the caller's transaction and returns whether it
    /// merged anything (FTS5 changes at least two rows when it does: a segment page and the
    /// structure record). A positive `pages` merges only a level of `usermerge` (4 unless set)
    /// or more segments, or continues a merge in progress; a negative one merges every level
    /// towards one segment. Both indexes of items are merged (see ``ChatKeys``).
    package static func merge(_ db: Database, pages: Int) throws -> Bool {
        var merged = false
        for table in try IdleMerger.itemIndexes(db) {
            let before = db.totalChangesCount
            try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('merge', ?)", arguments: [pages])
            if db.totalChangesCount - before >= 2 { merged = true }
        }
        return merged
    }

    /// Decodes a structure record (see ``FullTextStructure``).
    package static func decode(_ bytes: [UInt8]) -> FullTextSegments? {
        FullTextStructure(bytes).map(FullTextSegments.init)
    }
}

/// FTS5's structure record whole: which segments (b-trees) an index has, on which level, and
/// the merge in progress. It is where FTS5 decides what to merge next: a level that holds enough
/// segments is merged into one on the level above.
///
/// The record is a 4-byte cookie, in the second version (SQLite 3.44 and later) a 4-byte marker,
/// then varints: levels, segments, the write counter, and per level the segments being merged,
/// the segment count and each segment's id and first and last leaf page (the second version adds
/// five more per segment: its origins and tombstones).
package struct FullTextStructure: Sendable, Equatable {
    package struct Segment: Sendable, Hashable {
        package var id: UInt64
        package var firstPage: UInt64
        package var lastPage: UInt64
        /// The second version's five more fields, as read.
        package var more: [UInt64] = []

        package init(id: UInt64, firstPage: UInt64, lastPage: UInt64, more: [UInt64] = []) {
            self.id = id
            self.firstPage = firstPage
            self.lastPage = lastPage
            self.more = more
        }
        /// Leaf pages.
        package var pages: Int { Int(lastPage) - Int(firstPage) + 1 }
    }

    package struct Level: Sendable, Equatable {
        /// Segments an incremental merge of this level has taken so far (0: none).
        package var merging: Int
        package var segments: [Segment]

        package init(merging: Int, segments: [Segment]) {
            self.merging = merging
            self.segments = segments
        }
    }

    /// The cookie, and in the second version its marker.
    package var header: [UInt8]
    package var writeCounter: UInt64
    package var levels: [Level]

    package var isSecondVersion: Bool { header.count == 8 }

    /// The structure record's row in `<table>_data`.
    static let rowid = 10

    /// The segments of each items index now (see ``FullTextStructure/tiered(ratio:floor:since:)``).
    package static func segments(_ db: Database) throws -> [String: Set<Segment>] {
        var out: [String: Set<Segment>] = [:]
        for table in try IdleMerger.itemIndexes(db) {
            out[table] = Set(try read(db, of: table)?.segmentsOldestFirst ?? [])
        }
        return out
    }

    /// Reads the structure record of `table`; `nil` when there is none or it cannot be decoded.
    package static func read(_ db: Database, of table: String) throws -> FullTextStructure? {
        guard
            let blob = try Data.fetchOne(
                db, sql: "SELECT block FROM \(table)_data WHERE id = ?", arguments: [rowid])
        else { return nil }
        return FullTextStructure([UInt8](blob))
    }

    /// Decodes a record; `nil` when it is truncated or inconsistent as FTS5 would find it.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4 else { return nil }
        let v2 = bytes.count >= 8 && Array(bytes[4..<8]) == [0xff, 0, 0, 1]
        var reader = VarintReader(bytes: bytes, offset: v2 ? 8 : 4)
        header = Array(bytes[0..<(v2 ? 8 : 4)])
        guard let levelCount = reader.next(), let segmentCount = reader.next(), let counter = reader.next(),
            levelCount < 2_000
        else { return nil }
        writeCounter = counter
        levels = []
        var total: UInt64 = 0
        for _ in 0..<levelCount {
            guard let merging = reader.next(), let n = reader.next(), n < 100_000, merging <= n else { return nil }
            var segments: [Segment] = []
            for _ in 0..<n {
                guard let id = reader.next(), let first = reader.next(), let last = reader.next(), last >= first
                else { return nil }
                var segment = Segment(id: id, firstPage: first, lastPage: last)
                if v2 {
                    for _ in 0..<5 {
                        guard let v = reader.next() else { return nil }
                        segment.more.append(v)
                    }
                }
                segments.append(segment)
            }
            total += n
            if let below = levels.last, below.merging > 0, n == 0 { return nil }
            levels.append(Level(merging: Int(merging), segments: segments))
        }
        guard total == segmentCount, levels.last.map({ $0.merging == 0 }) ?? true else { return nil }
    }

    package init(header: [UInt8], writeCounter: UInt64, levels: [Level]) {
        self.header = header
        self.writeCounter = writeCounter
        self.levels = levels
    }

    /// The record's bytes, as FTS5 writes them.
    package var encoded: [UInt8] {
        var out = header
        func put(_ v: UInt64) { Self.appendVarint(v, to: &out) }
        put(UInt64(levels.count))
        put(UInt64(levels.reduce(0) { $0 + $1.segments.count }))
        put(writeCounter)
        for level in levels {
            put(UInt64(level.merging))
            put(UInt64(level.segments.count))
            for s in level.segments {
                put(s.id)
                put(s.firstPage)
                put(s.lastPage)
                for v in s.more { put(v) }
            }
        }
        return out
    }

    /// Every segment, oldest first: the highest level first, and in a level in its order. A
    /// merge in progress is two parts of the same rows: its output so far (the last segment of
    /// the level above) holds the terms before those its trimmed inputs still hold, so the
    /// output may stand before them, as FTS5's own merge of every level puts it; the trimmed
    /// inputs, small beside the big one the merge began with, are then newer than it and join
    /// the newest segments.
    package var segmentsOldestFirst: [Segment] { levels.reversed().flatMap(\.segments) }

    /// The level the oldest segment is put on by ``tiered(ratio:floor:since:)``: above any level
    /// FTS5's own merging reaches (each level is reached by merging several segments of the one
    /// below), and below FTS5's limit of 64, which its whole-index merge adds one to.
    package static let topLevel = 32

    /// The layout in which merging only the newest segments keeps every segment at least `ratio`
    /// times the size of all newer ones together; `nil` when the record is of the second version
    /// (whose segments carry origins this layout would have to keep in order too).
    ///
    /// Walking from the newest segment back, a segment smaller than `ratio` times the newer ones
    /// together, or smaller than `floor` pages, joins them; the first that is not stops the walk.
    /// With `earlier` (the segments before an ingest), every segment not among them, what the
    /// ingest wrote, joins too, with all newer ones: an ingest's own segments end as one, so a
    /// new archive is one segment, as fast to search as FTS5 makes it. The segments older than
    /// the joined ones stay as they are, each on a level of its own from ``topLevel`` down, the
    /// oldest highest; the joined ones go on one level two below the last of them, so that
    /// FTS5's merge of that level (with `usermerge` 2) writes their one segment on the level
    /// between. Their pages are returned: what that merge will write.
    ///
    /// An index that grows by ingests thus keeps a few segments, each several times the next, and
    /// an ingest rewrites what is about its own size, not the whole index; live writes' small
    /// segments merge among themselves on FTS5's low levels and never reach the big segments'
    /// levels, where FTS5's merge of a level that held one big segment and three small ones
    /// rewrote the whole index for a few hundred messages (<doc:WritePerformance>).
    package func tiered(ratio: Int = 4, floor: Int = smallSegmentPages, since earlier: Set<Segment>? = nil) -> (
        layout: FullTextStructure, mergedPages: Int
    )? {
        guard !isSecondVersion else { return nil }
        let all = segmentsOldestFirst
        guard !all.isEmpty else { return (self, 0) }
        var first = all.count - 1
        var newer = all[first].pages
        while first > 0 && all[first - 1].pages < max(ratio * newer, floor) {
            first -= 1
            newer += all[first].pages
        }
        // What the write wrote joins whole, and so does everything newer than its oldest part.
        if let earlier, let written = all.firstIndex(where: { !earlier.contains($0) }), written < first {
            first = written
        }
        let kept = all[..<first]
        let joined = all[first...]
        // Kept segments on levels topLevel, topLevel-1, …; the joined ones two below the last.
        let joinedLevel = Self.topLevel - kept.count - (joined.count > 1 ? 1 : 0)
        guard joinedLevel >= 0 else { return nil }
        var levels = [Level](repeating: Level(merging: 0, segments: []), count: Self.topLevel + 1)
        for (k, s) in kept.enumerated() { levels[Self.topLevel - k].segments = [s] }
        levels[joinedLevel].segments = Array(joined)
        let layout = FullTextStructure(header: header, writeCounter: writeCounter, levels: levels)
        return (layout, joined.count > 1 ? joined.reduce(0) { $0 + $1.pages } : 0)
    }

    /// Leaf pages under which a segment always joins the newer ones in ``tiered(ratio:floor:since:)``:
    /// merging it costs little, and live writes leave many such.
    package static let smallSegmentPages = 256

    /// SQLite's varint: 7 bits a byte, most significant first, the ninth byte whole.
    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        if value >> 56 != 0 {
            var v = value
            var bytes = [UInt8](repeating: 0, count: 9)
            bytes[8] = UInt8(v & 0xff)
            v >>= 8
            for i in stride(from: 7, through: 0, by: -1) {
                bytes[i] = UInt8(v & 0x7f) | 0x80
                v >>= 7
            }
            out += bytes
            return
        }
        var groups: [UInt8] = []
        var v = value
        repeat {
            groups.append(UInt8(v & 0x7f))
            v >>= 7
        } while v != 0
        for (i, g) in groups.reversed().enumerated() { out.append(i == groups.count - 1 ? g : g | 0x80) }
    }

    /// SQLite's big-endian varints (7 bits a byte, the ninth byte whole).
    private struct VarintReader {
        let bytes: [UInt8]
        var offset: Int

        mutating func next() -> UInt64? {
            var value: UInt64 = 0
            for k in 0..<9 {
                guard offset < bytes.count else { return nil }
                let byte = bytes[offset]
                offset += 1
                if k == 8 { return (value << 8) | UInt64(byte) }
                value = (value << 7) | UInt64(byte & 0x7f)
                if byte & 0x80 == 0 { return value }
            }
            return value
        }
    }
}
