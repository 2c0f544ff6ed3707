/// Limits that protect against zip bombs.
package struct ZipLimits: Sendable {
    /// The most uncompressed bytes all entries together may declare.
    package var maxTotalUncompressedBytes: Int64
    /// The largest uncompressed/compressed ratio an entry may declare.
    package var maxRatio: Int64
    /// Entries smaller than this are not subject to ``maxRatio`` (tiny files compress absurdly well).
    package var ratioExemptBytes: Int64

    /// The limits every import uses: a total far above any real export, and a ratio per entry
    /// no real file reaches (small entries exempt).
    package static let standard = ZipLimits(
        maxTotalUncompressedBytes: 8 << 30, maxRatio: 1000, ratioExemptBytes: 64 << 10)

    /// Makes limits.
    package init(maxTotalUncompressedBytes: Int64, maxRatio: Int64, ratioExemptBytes: Int64) {
        self.maxTotalUncompressedBytes = maxTotalUncompressedBytes
        self.maxRatio = maxRatio
        self.ratioExemptBytes = ratioExemptBytes
    }
}

/// A zip file read as an ``ExportContainer``: central directory (zip64 too), stored and deflated
/// entries streamed with a CRC-32 check.
///
/// Unsafe entries are never opened: names with `..` components, absolute paths, drive letters,
/// backslashes or NUL; symbolic links; encrypted entries; unknown compression methods. They are
/// listed in ``refusedEntries``. A zip declaring more than the limits' total size, or an entry
/// over the ratio, is refused as a whole.
package final class ZipContainer: ExportContainer {
    /// One usable entry of the central directory.
    struct Entry {
        var name: String
        var method: UInt16
        var crc: UInt32
        var compressedSize: Int64
        var uncompressedSize: Int64
        var localHeaderOffset: Int64
    }

    /// The zip's path as the user gave it.
    package let path: String
    /// Every readable file entry, sorted by (normalised) name.
    package let entryNames: [String]
    /// Entries never opened: unsafe names, links, encryption, unknown methods, duplicates.
    package let refusedEntries: [(name: String, reason: String)]
    private let file: ZipFile
    private let entries: [String: Entry]

    /// Whether `prefix` starts like a zip (`PK\3\4`, or `PK\5\6` for an empty one).
    package static func hasZipMagic(_ prefix: some Collection<UInt8>) -> Bool {
        let p = Array(prefix.prefix(4))
        return p.count == 4 && p[0] == 0x50 && p[1] == 0x4B && ((p[2] == 3 && p[3] == 4) || (p[2] == 5 && p[3] == 6))
    }

    /// Opens `path` and reads its central directory.
    package init(path: String, limits: ZipLimits = .standard) throws {
        self.path = path
        do {
            file = try ZipFile(path: path)
        } catch {
            throw ImportError("\(path): \(error.message)")
        }
        let directory: [ZipDirectoryEntry]
        do {
            directory = try ZipDirectoryReader.read(file)
        } catch {
            throw ImportError("\(path): not a readable zip: \(error.message)")
        }
        var usable: [String: Entry] = [:]
        var refused: [(String, String)] = []
        var total: Int64 = 0
        for d in directory {
            if d.isDirectory { continue }
            guard let name = ZipContainer.safeName(d.name) else {
                refused.append((d.name, "unsafe path (absolute, drive letter, backslash or '..')"))
                continue
            }
            if d.isSymlink {
                refused.append((name, "symbolic link"))
                continue
            }
            if d.flags & 0x41 != 0 || d.method == 99 {
                refused.append((name, "encrypted entry"))
                continue
            }
            guard d.method == 0 || d.method == 8 else {
                refused.append((name, "unsupported compression method \(d.method)"))
                continue
            }
            if usable[name] != nil {
                refused.append((name, "duplicate entry name"))
                continue
            }
            guard d.uncompressedSize >= 0, d.compressedSize >= 0 else {
                refused.append((name, "invalid sizes in the central directory"))
                continue
            }
            if d.uncompressedSize > limits.ratioExemptBytes,
                d.uncompressedSize / max(d.compressedSize, 1) > limits.maxRatio
            {
                throw ImportError(
                    "\(path)!\(name): refusing the zip: the entry expands \(d.uncompressedSize / max(d.compressedSize, 1)):1 "
                        + "(more than \(limits.maxRatio):1), which looks like a zip bomb")
            }
            total += d.uncompressedSize
            if total > limits.maxTotalUncompressedBytes {
                throw ImportError(
                    "\(path): refusing the zip: its entries expand to more than \(limits.maxTotalUncompressedBytes >> 30) GiB"
                )
            }
            usable[name] = Entry(
                name: name, method: d.method, crc: d.crc, compressedSize: d.compressedSize,
                uncompressedSize: d.uncompressedSize, localHeaderOffset: d.localHeaderOffset)
        }
        entries = usable
        entryNames = usable.keys.sorted()
        refusedEntries = refused
    }

    /// The name with `.` and empty components removed, or `nil` when it could escape the container.
    static func safeName(_ raw: String) -> String? {
        if raw.isEmpty || raw.hasPrefix("/") || raw.contains("\\") || raw.contains("\0") { return nil }
        let u = Array(raw.utf8)
        if u.count >= 2, u[1] == UInt8(ascii: ":"), (0x41...0x5A).contains(u[0]) || (0x61...0x7A).contains(u[0]) {
            return nil
        }
        var parts: [Substring] = []
        for part in raw.split(separator: "/", omittingEmptySubsequences: true) {
            if part == ".." { return nil }
            if part == "." { continue }
            parts.append(part)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// Streams one entry; reading to the end checks its size and CRC-32.
    package func open(_ name: String) throws -> ByteStream {
        guard let entry = entries[name] else {
            throw ImportError("\(displayName(of: name)): no such entry in the zip")
        }
        do {
            return try ZipEntryStream(file: file, entry: entry, displayName: displayName(of: name))
        } catch {
            throw ImportError("\(displayName(of: name)): \(error.message)")
        }
    }

    /// The entry's declared uncompressed size.
    package func size(of name: String) -> Int64? { entries[name]?.uncompressedSize }

    /// `zip!entry`.
    package func displayName(of name: String) -> String { "\(path)!\(name)" }
}
