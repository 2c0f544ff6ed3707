/// An export to read: a file, a folder, or an entry list of a zip.
package struct ImportSource: Sendable {
    /// Path as given by the user (used in messages).
    package var path: String
    /// Options the user gave.
    package var options: ImportOptions
    package init(path: String, options: ImportOptions = ImportOptions()) {
        self.path = path
        self.options = options
    }
}
