import ChatModel
import ChatText

/// How spans' formats are stored: SimpleX's tagged JSON.
enum FormatCoding {
    static func json(_ f: Format) -> String { FormattedTextJSON.jsonText(f) }
}
