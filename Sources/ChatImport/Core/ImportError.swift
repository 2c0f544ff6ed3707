/// An error that stops an import: an unrecognised file, an encrypted database, a refused zip.
package struct ImportError: Error, Sendable, CustomStringConvertible {
    package var location: SourceLocation?
    package var message: String
    package init(_ message: String, at location: SourceLocation? = nil) {
        self.location = location
        self.message = message
    }
    package var description: String { location.map { "\($0): \(message)" } ?? message }
}
