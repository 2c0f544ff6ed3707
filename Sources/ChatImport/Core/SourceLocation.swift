/// Where a problem in an export was found: the file (or `zip!entry`), and a line, a byte
/// offset or a record key, whichever the format has.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    package var file: String
    package var line: Int?
    package var byteOffset: Int64?
    /// A record key where lines make no sense (a SQLite table and key).
    package var record: String?

    package init(file: String, line: Int? = nil, byteOffset: Int64? = nil, record: String? = nil) {
        self.file = file
        self.line = line
        self.byteOffset = byteOffset
        self.record = record
    }

    package var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let byteOffset { s += " (byte \(byteOffset))" }
        if let record { s += " [\(record)]" }
        return s
    }
}
