import ChatText
import GRDB

/// `chat_text_check(text, extra, check)`: whether an item passes a ChatText `TextCheck` (given
/// `encoded`), the SQL door through which a search in one chat of an index without positions
/// keeps only the candidates that hold its phrases (``ChatKeys/ftsWithoutPositionsSQL``).
/// Each connection registers its own, which keeps the last check it read ready.
package enum TextCheckFunction {
    package static let name = "chat_text_check"

    /// A new function for one connection (used by one thread at a time, as connections are).
    static func make() -> DatabaseFunction {
        final class Last: @unchecked Sendable {
            var encoded: String?
            var prepared: TextCheck.Prepared?
        }
        let last = Last()
        return DatabaseFunction(name, argumentCount: 3, pure: true) { values in
            guard let encoded = String.fromDatabaseValue(values[2]) else { return false }
            if last.encoded != encoded {
                last.prepared = TextCheck(encoded: encoded).map(TextCheck.Prepared.init)
                last.encoded = encoded
            }
            guard let prepared = last.prepared else { return false }
            return prepared.passes(
                text: String.fromDatabaseValue(values[0]) ?? "", extra: String.fromDatabaseValue(values[1]) ?? "")
        }
    }
}
