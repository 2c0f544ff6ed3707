/// Errors a search reported before `ArchiveError` had codes (searches now throw
/// `ArchiveError/Code/unknownChat`); kept so that code catching it still compiles.
package struct SearchError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, in words.
    package var message: String
    /// The message.
    package var description: String { message }
}
