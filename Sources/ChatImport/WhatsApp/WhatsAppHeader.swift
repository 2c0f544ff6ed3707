struct WhatsAppHeader: Sendable {
    var shape: WhatsAppHeaderShape
    /// The three date components in written order, the year already made a full year.
    var components: (Int, Int, Int)
    /// 0–23 (12-hour clocks converted), or `nil` when the value is past 23.
    var hour: Int?
    var minute: Int
    var second: Int?
    /// The header says AM or PM but its hour cannot be a 12-hour one (`23:59 PM`, `00:04 AM`,
    /// as real exports write): the hour was read as a 24-hour one and the marker ignored.
    var hourIgnoresMeridiem = false
    /// Index of the first scalar after the header (the author or system text).
    var bodyStart: Int

    /// Year, month and day under a day/month order.
    func date(order: WhatsAppDateOrder) -> (year: Int, month: Int, day: Int) {
        let (a, b, c) = components
        if shape.yearPosition == 0 { return (a, b, c) }
        switch order {
        case .monthDayYear: return (c, a, b)
        case .dayMonthYear, .yearMonthDay: return (c, b, a)
        }
    }
}
