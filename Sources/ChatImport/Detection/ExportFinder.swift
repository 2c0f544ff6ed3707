import Foundation

/// What a path holds: the exports found in it, and the files and folders left out, with why.
package struct ExportSearch {
    /// A file or folder left out, and why.
    package struct Skipped: Sendable, Hashable {
        /// Its path, as messages name it.
        package var path: String
        /// Why it was not read, in words a user can act on.
        package var reason: String
        /// Whether it is plainly not a chat export (nothing for the user to do about it).
        package var isNotAnExport = false
        /// How many files this entry stands for (more than 1 for the line past the listed ones).
        package var fileCount = 1
    }

    /// One export found: its detection, and the files inside it that no format reads.
    package struct Found {
        /// The export's format, container and entries.
        package var detection: Detection
        /// Files inside the export that are neither read nor media (a README, notes).
        package var skipped: [Skipped]
    }

    /// The exports, in path order.
    package var exports: [Found] = []
    /// Files and folders outside any export that hold none.
    package var skipped: [Skipped] = []
}

/// Finds the exports in a path: a file, a zip, a folder that is one export (a Slack export, a
/// Telegram export with its media), or a folder of exports side by side, split into them.
///
/// A folder is one export when at most one format recognises its files; when several do, or
/// when it holds zips, each file and subfolder in it is looked at on its own.
package enum ExportFinder {
    /// At most this many unread files are listed per export (the rest are counted).
    static let listedSkips = 20

    /// Finds the exports at `path`; `forced` (a `--format` name) reads the whole path as one
    /// export of that format.
    ///
    /// Throws the detector's error when the path is not an export and holds none.
    package static func find(path: String, forced: String? = nil) throws -> ExportSearch {
        let container = try FormatDetector.openContainer(path: path)
        var search = ExportSearch()
        guard forced == nil, let folder = container as? FolderContainer, folder.isFolder else {
            let detection = try FormatDetector.detect(in: container, forced: forced)
            search.exports.append(ExportSearch.Found(detection: detection, skipped: []))
            return search
        }
        try find(in: folder, into: &search, isTop: true)
        return search
    }

    private static func find(in folder: FolderContainer, into search: inout ExportSearch, isTop: Bool) throws {
        let sniffing = SniffingContainer(folder)
        var recognised: [(format: ImportFormat, entries: [String])] = []
        // A format that recognises a file it refuses (an HTML or encrypted export) throws: the
        // folder is then looked at file by file, so that the refusal only skips that one.
        var refusal: ImportError?
        for format in FormatRegistry.formats where !recognised.contains(where: { $0.format.name == format.name }) {
            do {
                let found = try format.recognise(sniffing)
                if !found.isEmpty { recognised.append((format, found)) }
            } catch let error as ImportError {
                refusal = refusal ?? error
            }
        }
        let children = self.children(of: folder.path)
        let holdsZips = children.contains { !$0.isFolder && isZip($0.path) }
        if refusal == nil, recognised.count == 1, let only = recognised.first,
            !holdsZips || only.entries.contains(where: { $0.contains(".zip!") })
        {
            // One export; its zips too when the format reads inside them (a download split
            // into several zips).
            let detection = Detection(format: only.format, container: folder, entries: only.entries)
            search.exports.append(
                ExportSearch.Found(detection: detection, skipped: unread(in: sniffing, besides: only.entries)))
            return
        }
        if recognised.isEmpty && !holdsZips && !children.contains(where: \.isFolder) {
            let error = refusal ?? FormatDetector.unrecognised(sniffing)
            if isTop { throw error }
            search.skipped.append(
                ExportSearch.Skipped(
                    path: folder.path, reason: reason(error, path: folder.path), isNotAnExport: error.isNotAnExport))
            return
        }
        for child in children {
            if child.isFolder {
                if let sub = try? FolderContainer(path: child.path) {
                    try find(in: sub, into: &search, isTop: false)
                }
                continue
            }
            do {
                let container = try FormatDetector.openContainer(path: child.path)
                let detection = try FormatDetector.detect(in: container)
                search.exports.append(ExportSearch.Found(detection: detection, skipped: []))
            } catch let error as ImportError {
                search.skipped.append(
                    ExportSearch.Skipped(
                        path: child.path, reason: reason(error, path: child.path), isNotAnExport: error.isNotAnExport))
            }
        }
    }

    /// The error's message without the path it starts with (the skip names the path).
    private static func reason(_ error: ImportError, path: String) -> String {
        let prefix = path + ": "
        guard error.message.hasPrefix(prefix), error.message.count > prefix.count else { return error.message }
        return String(error.message.dropFirst(prefix.count))
    }

    /// Text files of an export that no format reads (media and web assets are the export's
    /// own and not listed).
    private static func unread(in container: SniffingContainer, besides read: [String]) -> [ExportSearch.Skipped] {
        let readSet = Set(read)
        let unread = Sniff.candidates(container).filter {
            !readSet.contains($0) && !Sniff.baseName($0).hasPrefix(".")
                && Sniff.baseName($0) != SimplexImporter.agentDatabaseName
        }
        var out = unread.prefix(listedSkips).map {
            ExportSearch.Skipped(
                path: container.displayName(of: $0),
                reason: "not part of this export's chats (no format reads it); not read", isNotAnExport: true)
        }
        if unread.count > listedSkips {
            out.append(
                ExportSearch.Skipped(
                    path: container.path,
                    reason: "\(unread.count - listedSkips) more files that are not chat exports; not read",
                    isNotAnExport: true, fileCount: unread.count - listedSkips))
        }
        return out
    }

    private struct Child {
        var path: String
        var isFolder: Bool
    }

    /// The visible files and folders directly in `path`, sorted by name; symbolic links are
    /// left out, as folder containers leave them out.
    private static func children(of path: String) -> [Child] {
        let fm = FileManager.default
        let names = ((try? fm.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        let base = path.hasSuffix("/") ? path : path + "/"
        return names.compactMap { name in
            let full = base + name
            guard let attrs = try? fm.attributesOfItem(atPath: full), let type = attrs[.type] as? FileAttributeType
            else { return nil }
            switch type {
            case .typeDirectory: return Child(path: full, isFolder: true)
            case .typeRegular: return Child(path: full, isFolder: false)
            default: return nil
            }
        }
    }

    private static func isZip(_ path: String) -> Bool {
        guard let head = try? FileByteStream(path: path).read(maxLength: 4) else { return false }
        return ZipContainer.hasZipMagic(head)
    }
}
