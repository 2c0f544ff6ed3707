extension JSONLinesImporter: RegisteredImporter {
    /// How "Tried: …" errors describe the format.
    package static let formatDescription = "ChatArchive JSON Lines (a first line that is an object with \"kind\")"

    /// Entries whose first non-blank line is a JSON object with `kind`.
    package static func recognise(_ container: any ExportContainer) throws -> [String] {
        Sniff.candidates(container).filter { name in
            let p = Sniff.prefix(container, name)
            var start = p.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            while start < p.count {
                let end = p[start...].firstIndex(of: 0x0A) ?? p.count
                let line = p[start..<end]
                if line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
                    let s = JSONPrefixScanner.scan(line)
                    return s.root == .object && s.has("kind")
                }
                start = end + 1
            }
            return false
        }
    }

    /// Reads each entry as a JSON Lines file (the format takes no import options).
    package func read(
        _ container: any ExportContainer, entries: [String], into sink: any ImportSink, options: ImportOptions
    ) throws {
        for entry in entries {
            sink.beginEntry(entry)
            try read(container, entry: entry, into: sink)
        }
    }
}
