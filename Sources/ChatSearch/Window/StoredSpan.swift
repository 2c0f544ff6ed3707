import ChatModel

/// A formatted range of an item's display text, as stored at ingest.
public struct StoredSpan: Sendable, Hashable {
    /// Start, in UTF-16 code units of the display text.
    public var start: Int
    /// End (exclusive), in UTF-16 code units.
    public var end: Int
    /// The format, as SimpleX's tagged JSON object.
    package var formatJSON: String

    /// The format (`nil` only for stored text that is not a format object, which the archive's
    /// writer never stores).
    public var format: Format? {
        (try? JSONParser.parse(Array(formatJSON.utf8))).flatMap(FormattedTextJSON.format(from:))
    }

    package init(start: Int, end: Int, formatJSON: String) {
        self.start = start
        self.end = end
        self.formatJSON = formatJSON
    }
}
