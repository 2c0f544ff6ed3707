/// The order of day and month in numeric dates.
public enum WhatsAppDateOrder: String, Sendable, Hashable, CaseIterable {
    /// `31/12/2024` (most of the world).
    case dayMonthYear
    /// `12/31/2024` (US).
    case monthDayYear
    /// `2024-12-31`.
    case yearMonthDay
}
