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

    /// Reads the structure record; `nil` when the index has none yet or it cannot be decoded.
    package static func read(_ db: Database) throws -> FullTextSegments? {
        guard let blob = try Data.fetchOne(db, sql: "SELECT block FROM itemFts_data WHERE id = 10") else { return nil }
        return decode([UInt8](blob))
    }

    /// Runs FTS5's incremental `'merge'` in the caller's transaction and returns whether it
    /// merged anything (FTS5 changes at least two rows when it does: a segment page and the
    /// structure record). A positive `pages` merges only a level of 4 or more segments, or
    /// continues a merge in progress; a negative one merges every level towards one segment.
    /// Both indexes of items are merged (see ``ChatKeys``).
    package static func merge(_ db: Database, pages: Int) throws -> Bool {
        var merged = false
        for table in try IdleMerger.itemIndexes(db) {
            let before = db.totalChangesCount
            try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('merge', ?)", arguments: [pages])
            if db.totalChangesCount - before >= 2 { merged = true }
        }
        return merged
    }

    /// Decodes a structure record: a 4-byte cookie, in the second version a 4-byte marker,
    /// then varints: levels, segments, write counter, and per level the segments being merged,
    /// the segment count and each segment's id and first and last leaf page (the second version
    /// adds four more per segment).
    package static func decode(_ bytes: [UInt8]) -> FullTextSegments? {
        var reader = VarintReader(bytes: bytes, offset: 4)
        let v2 = bytes.count >= 8 && Array(bytes[4..<8]) == [0xff, 0, 0, 1]
        if v2 { reader.offset = 8 }
        guard let levelCount = reader.next(), reader.next() != nil, reader.next() != nil, levelCount < 1_000 else {
            return nil
        }
        var result = FullTextSegments(levels: [], merging: [])
        for _ in 0..<levelCount {
            guard let merging = reader.next(), let segments = reader.next(), segments < 100_000 else { return nil }
            var pages: [Int] = []
            for _ in 0..<segments {
                guard reader.next() != nil, let first = reader.next(), let last = reader.next() else { return nil }
                if v2 { for _ in 0..<4 { guard reader.next() != nil else { return nil } } }
                pages.append(Int(last) - Int(first) + 1)
            }
            result.levels.append(pages)
            result.merging.append(Int(merging))
        }
        return result
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
