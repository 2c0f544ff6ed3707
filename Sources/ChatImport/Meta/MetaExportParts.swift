import Foundation

/// The parts of one "Download your information" request read as one export: a large
/// request arrives as several zips, and a thread's media may sit in another zip than its
/// JSON. Entry names are relative to the virtual root the parts share; the first part that
/// holds a name wins. A folder's own files (unzipped parts) are one more part.
final class MetaExportParts: ExportContainer {
    let path: String
    let entryNames: [String]
    let refusedEntries: [(name: String, reason: String)]
    private let parts: [(name: String?, container: any ExportContainer)]
    private let owner: [String: Int]

    /// The zips (and the other files) of `folder`; nil when it holds no zip.
    static func open(folder: any ExportContainer) throws -> MetaExportParts? {
        let zips = zipNames(in: folder)
        guard !zips.isEmpty, let root = folderPath(of: folder) else { return nil }
        var parts: [(String?, any ExportContainer)] = [(nil, OtherFiles(folder, excluding: Set(zips)))]
        for zip in zips {
            parts.append((zip, try ZipContainer(path: root + "/" + zip)))
        }
        return MetaExportParts(path: folder.path, parts: parts)
    }

    /// The entries of `folder` that are zips (by name; opening checks the content).
    static func zipNames(in folder: any ExportContainer) -> [String] {
        guard folderPath(of: folder) != nil else { return [] }
        return folder.entryNames.filter { $0.lowercased().hasSuffix(".zip") }
    }

    /// The folder on disk behind a container, when it is one.
    static func folderPath(of container: any ExportContainer) -> String? {
        // Detection wraps containers in a prefix cache; the folder is the one underneath.
        guard ((container as? SniffingContainer)?.base ?? container) is FolderContainer else { return nil }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: container.path, isDirectory: &isDir), isDir.boolValue else {
            return nil
        }
        return container.path
    }

    private init(path: String, parts: [(String?, any ExportContainer)]) {
        self.path = path
        self.parts = parts
        var owner: [String: Int] = [:]
        var refused: [(String, String)] = []
        for (i, part) in parts.enumerated() {
            for name in part.1.entryNames where owner[name] == nil { owner[name] = i }
            for r in part.1.refusedEntries { refused.append((part.0.map { $0 + "!" + r.name } ?? r.name, r.reason)) }
        }
        self.owner = owner
        entryNames = owner.keys.sorted()
        refusedEntries = refused
    }

    private func part(of name: String) throws -> any ExportContainer {
        guard let i = owner[name] else { throw ImportError("\(path): no entry \(name)") }
        return parts[i].container
    }

    func open(_ name: String) throws -> ByteStream { try part(of: name).open(name) }

    func size(of name: String) -> Int64? { (try? part(of: name))?.size(of: name) }

    func displayName(of name: String) -> String {
        guard let i = owner[name] else { return path + "/" + name }
        return parts[i].container.displayName(of: name)
    }

    /// A folder's files other than the given zips.
    private final class OtherFiles: ExportContainer {
        let base: any ExportContainer
        let entryNames: [String]
        var path: String { base.path }
        var refusedEntries: [(name: String, reason: String)] { base.refusedEntries }
        init(_ base: any ExportContainer, excluding: Set<String>) {
            self.base = base
            entryNames = base.entryNames.filter { !excluding.contains($0) }
        }
        func open(_ name: String) throws -> ByteStream { try base.open(name) }
        func size(of name: String) -> Int64? { base.size(of: name) }
        func displayName(of name: String) -> String { base.displayName(of: name) }
    }
}
