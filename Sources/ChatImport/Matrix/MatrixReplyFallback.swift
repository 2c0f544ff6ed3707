/// The plain-text reply fallback older Matrix clients put at the start of a reply's `body`:
/// the quoted message as `> <@sender:server> text` lines, then an empty line.
enum MatrixReplyFallback {
    /// `body` without its reply fallback: when it starts with `> <` or `> * <` and has a line
    /// break, the leading `>` lines and one empty line after them are dropped. Anything else
    /// is returned unchanged (a fallback with nothing after it is kept, so no text is lost).
    ///
    /// Lines are split on U+000A only, with a `\r` before it dropped, never on the other
    /// characters Swift counts as newlines.
    static func strip(_ body: String) -> String {
        guard body.hasPrefix("> <") || body.hasPrefix("> * <") else { return body }
        let bytes = Array(body.utf8)
        var start = 0
        var sawBreak = false
        while start < bytes.count, bytes[start] == UInt8(ascii: ">") {
            guard let end = bytes[start...].firstIndex(of: 0x0A) else { return body }
            sawBreak = true
            start = end + 1
        }
        guard sawBreak else { return body }
        if start < bytes.count, bytes[start] == 0x0A {
            start += 1
        } else if start + 1 < bytes.count, bytes[start] == 0x0D, bytes[start + 1] == 0x0A {
            start += 2
        }
        let rest = String(decoding: bytes[start...], as: UTF8.self)
        return rest.isEmpty ? body : rest
    }
}
