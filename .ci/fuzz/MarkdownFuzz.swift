// libFuzzer entry for the SimpleX markdown parser (built into module ChatText by .ci/fuzz/run).
import ChatModel

/// Parses the input as one line and as a whole message, and renders the message. Traps when
/// the byte-scan fast path would reject a message the full parser formats, when a line
/// parses to no pieces, or when a span falls outside the display text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let line = SimplexMarkdown.parseMarkdown(text)
    require(!line.isEmpty, "parseMarkdown gave no pieces")
    guard let pieces = SimplexMarkdown.parseMaybeMarkdownList(text, usingFastPath: false) else { return 0 }
    var copy = text
    require(copy.withUTF8(SimplexMarkdown.mayContainFormat), "the fast path rejects a formatted message")
    let rendered = MarkdownDisplay.render(pieces)
    let length = rendered.displayText.utf16.count
    for span in rendered.spans {
        require(0 <= span.start && span.start <= span.end && span.end <= length, "span out of the display text")
    }
    return 0
}
