/// An error that stops an import: an unrecognised file, an encrypted database, a refused zip.
package struct ImportError: Error, Sendable, CustomStringConvertible {
    package var location: SourceLocation?
    package var message: String
    /// Whether the input is plainly not a chat export (a README, a script, an export's own
    /// metadata), as against one the user must act on (an HTML export, an encrypted download).
    package var isNotAnExport = false
    package init(_ message: String, at location: SourceLocation? = nil, isNotAnExport: Bool = false) {
        self.location = location
        self.message = message
        self.isNotAnExport = isNotAnExport
    }
    package var description: String { location.map { "\($0): \(message)" } ?? message }
}
