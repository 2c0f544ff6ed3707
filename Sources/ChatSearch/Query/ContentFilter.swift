import ChatIndex

/// The content filter of `--content` (SimpleX's content filter).
public enum ContentFilter: String, Sendable, Hashable, CaseIterable {
    case text, link, image, video, voice, file, report

    var indexTerm: String {
        switch self {
        case .link: IndexTerms.link
        case .text: IndexTerms.content(.text)
        case .image: IndexTerms.content(.image)
        case .video: IndexTerms.content(.video)
        case .voice: IndexTerms.content(.voice)
        case .file: IndexTerms.content(.file)
        case .report: IndexTerms.content(.report)
        }
    }
}
