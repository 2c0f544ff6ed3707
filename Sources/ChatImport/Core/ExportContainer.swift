import Foundation

/// A set of named files an export consists of: a folder, a zip, or a single file.
///
/// Entry names are relative, `/`-separated, files only. Implementations refuse names that
/// escape the container (`..`, absolute paths) by leaving them out of ``entryNames`` and
/// reporting them through ``refusedEntries``.
package protocol ExportContainer: AnyObject {
    /// The path the user gave (for messages).
    var path: String { get }
    /// Every readable file, sorted by name.
    var entryNames: [String] { get }
    /// Entries left out, with the reason (unsafe names, unsupported compression…).
    var refusedEntries: [(name: String, reason: String)] { get }
    /// Opens one entry for sequential reading.
    func open(_ name: String) throws -> ByteStream
    /// Uncompressed size of an entry when known.
    func size(of name: String) -> Int64?
    /// How an entry is named in messages: `path/entry` for folders, `x.zip!entry` for zips.
    func displayName(of name: String) -> String
    /// The first `limit` bytes of an entry (a caching container overrides the default).
    func prefix(of name: String, limit: Int) throws -> [UInt8]
}

extension ExportContainer {
    /// Reads the first `limit` bytes of an entry (for format sniffing).
    package func prefix(of name: String, limit: Int = 64 << 10) throws -> [UInt8] {
        let s = try open(name)
        var out: [UInt8] = []
        while out.count < limit {
            let chunk = try s.read(maxLength: limit - out.count)
            if chunk.isEmpty { break }
            out += chunk
        }
        return out
    }

    /// Reads a whole entry, refusing entries larger than `limit` bytes.
    package func readAll(_ name: String, limit: Int = 512 << 20) throws -> [UInt8] {
        let s = try open(name)
        var out: [UInt8] = []
        while true {
            let chunk = try s.read(maxLength: 1 << 20)
            if chunk.isEmpty { break }
            out += chunk
            if out.count > limit {
                throw ImportError(
                    "\(displayName(of: name)) is larger than \(limit >> 20) MiB; refusing to load it whole")
            }
        }
        return out
    }
}

/// A folder on disk (recursively), or a single file presented as a one-entry container.
package final class FolderContainer: ExportContainer {
    package let path: String
    package let entryNames: [String]
    package let refusedEntries: [(name: String, reason: String)]
    private let root: String
    private let isSingleFile: Bool
    /// Whether the container is a folder (not a single file).
    package var isFolder: Bool { !isSingleFile }

    package init(path: String) throws {
        self.path = path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw ImportError("\(path): no such file or folder")
        }
        if !isDir.boolValue {
            let url = URL(fileURLWithPath: path)
            root = url.deletingLastPathComponent().path
            entryNames = [url.lastPathComponent]
            refusedEntries = []
            isSingleFile = true
            return
        }
        root = path
        isSingleFile = false
        var names: [String] = []
        var refused: [(String, String)] = []
        let rootURL = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        if let e = FileManager.default.enumerator(
            at: rootURL, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey], options: [])
        {
            for case let url as URL in e {
                let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
                let rel = String(url.standardizedFileURL.path.dropFirst(rootURL.path.count)).drop(while: { $0 == "/" })
                if values?.isSymbolicLink == true {
                    refused.append((String(rel), "symbolic link"))
                    continue
                }
                if values?.isRegularFile == true { names.append(String(rel)) }
            }
        }
        entryNames = names.sorted()
        refusedEntries = refused
    }

    package func open(_ name: String) throws -> ByteStream {
        try FileByteStream(path: root + "/" + name)
    }

    /// The path on disk of an entry.
    package func filePath(of name: String) -> String { root + "/" + name }

    package func size(of name: String) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: root + "/" + name)[.size] as? NSNumber)?.int64Value
    }

    package func displayName(of name: String) -> String {
        isSingleFile ? path : (path.hasSuffix("/") ? path + name : path + "/" + name)
    }
}
