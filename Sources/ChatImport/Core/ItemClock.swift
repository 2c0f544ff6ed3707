import ChatModel

/// The times of items read in order, with the rule every format shares for a time that
/// cannot be read (<doc:BadInput>): the item takes the previous item's time (or `start`
/// before any), is marked as of unknown time, and a warning says so.
package struct ItemClock: Sendable {
    /// The time of the last item read, nil before the first.
    package private(set) var last: Timestamp?

    /// A clock before its first item.
    package init() {}

    /// The time of the next item: `read` when it could be read, else the previous item's
    /// (`start` before any), reported to `sink` as a warning with `warning` at `location`.
    package mutating func time(
        _ read: Timestamp?, start: Timestamp = Timestamp(milliseconds: 0), location: SourceLocation,
        sink: any ImportSink, warning: @autoclosure () -> String
    ) throws -> (timestamp: Timestamp, isTimeUnknown: Bool) {
        if let read {
            last = read
            return (read, false)
        }
        let timestamp = last ?? start
        last = timestamp
        try sink.report(.warning(location, warning()))
        return (timestamp, true)
    }
}
