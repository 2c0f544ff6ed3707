import ChatModel

/// Which items of a chat to return (SimpleX's `ChatPagination`). Pages are oldest first.
public enum WindowRequest: Sendable, Hashable {
    /// The newest `count` items.
    case last(Int)
    /// `count` items strictly before the anchor by `(ts, id)`.
    case before(Int64, count: Int)
    /// `count` items strictly after the anchor.
    case after(Int64, count: Int)
    /// `count` before, the anchor (always, even when filters exclude it), `count` after.
    case around(Int64, count: Int)
    /// Around the oldest unread item (marked-deleted ones included, as SimpleX opens a chat),
    /// or `last(count)` when nothing is unread.
    case initial(Int)
    /// `count` before and after the first item at or after the time (the newest `count` when
    /// none is): jump to a date.
    case at(Timestamp, count: Int)
}
