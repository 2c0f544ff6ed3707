// Temporary: replaced by the markdown helper's parser on merge.
import ChatModel

public enum SimplexMarkdown {
    public static func parseMaybeMarkdownList(_ text: String) -> [FormattedText]? { nil }
}

public struct RenderedText: Sendable, Hashable {
    public var displayText: String
    public var spans: [Span]
    public var linkTargets: [String]
    public var mentionNames: [String]
}

public enum MarkdownDisplay {
    public static func render(_ pieces: [FormattedText]) -> RenderedText {
        RenderedText(displayText: pieces.map(\.shownText).joined(), spans: [], linkTargets: [], mentionNames: [])
    }
}

public enum FormattedTextJSON {
    public static func jsonText(of f: Format) -> String { "{\"type\":\"\(f.typeName)\"}" }
}
extension FormattedTextJSON {
    public static func jsonText(of pieces: [FormattedText]) -> String { "[]" }
}
