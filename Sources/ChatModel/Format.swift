/// The colours of SimpleX's `colored` format.
public enum FormatColor: String, Sendable, Hashable, CaseIterable {
    case red, green, blue, yellow, cyan, magenta, black, white
}

/// SimpleX's SimpleX-link kinds.
public enum SimplexLinkType: String, Sendable, Hashable {
    case invitation, contact, group, channel, relay
}

/// The parsed form of a SimpleX name (`#group`, `@name.tld`).
public struct SimplexNameInfo: Sendable, Hashable {
    /// Whether the name is a public group (`#name`) or a contact (`@name`).
    public enum NameType: String, Sendable, Hashable { case publicGroup, contact }
    /// The kind of name.
    public var nameType: NameType
    /// `simplex`, `testing` or `web`.
    public var nameTLD: String
    /// The registered name, without the TLD and subdomains.
    public var domain: String
    /// Labels before the domain, nearest first.
    public var subDomain: [String]
    /// Makes a name from its parts.
    public init(nameType: NameType, nameTLD: String, domain: String, subDomain: [String]) {
        self.nameType = nameType
        self.nameTLD = nameTLD
        self.domain = domain
        self.subDomain = subDomain
    }
}

/// A span's format: SimpleX's `Format`, plus the kinds other exports have (`underline`,
/// `hashtag`, `quote`), which SimpleX's parser never produces.
public enum Format: Sendable, Hashable {
    /// Bold text (`*bold*`).
    case bold
    /// Italic text (`_italic_`).
    case italic
    /// Struck-through text (`~strike~`).
    case strikeThrough
    /// Inline code, written between backticks.
    case snippet
    /// Secret text, hidden until tapped (`#secret#`).
    case secret
    /// Small text (`!- small!`).
    case small
    /// Coloured text (`!1 red!`, `!red red!`).
    case colored(FormatColor)
    /// A bare web address.
    case uri
    /// A link written `[text](url)`; SimpleX parsing always sets `showText`, other sources may not.
    case hyperLink(showText: String?, linkUri: String)
    /// A SimpleX invitation, contact, group or channel link and its servers.
    case simplexLink(showText: String?, linkType: SimplexLinkType, simplexUri: String, smpHosts: [String])
    /// A SimpleX name (`#group.simplex`, `@name.simplex`).
    case simplexName(SimplexNameInfo)
    /// A bot command (`/help`); the associated value is the text after the `/`.
    case command(String)
    /// A mention of a member (`@name`).
    case mention(memberName: String)
    /// An email address.
    case email
    /// A phone number.
    case phone
    /// Extension (Telegram, Discord, Slack): underlined text.
    case underline
    /// Extension (Telegram, Slack): a `#hashtag`.
    case hashtag
    /// A format this version does not know, kept as its JSON.
    case unknown(JSONValue)

    /// The `type` tag of SimpleX's JSON encoding.
    public var typeName: String {
        switch self {
        case .bold: "bold"
        case .italic: "italic"
        case .strikeThrough: "strikeThrough"
        case .snippet: "snippet"
        case .secret: "secret"
        case .small: "small"
        case .colored: "colored"
        case .uri: "uri"
        case .hyperLink: "hyperLink"
        case .simplexLink: "simplexLink"
        case .simplexName: "simplexName"
        case .command: "command"
        case .mention: "mention"
        case .email: "email"
        case .phone: "phone"
        case .underline: "underline"
        case .hashtag: "hashtag"
        case .unknown: "unknown"
        }
    }

    /// Whether `has:link` counts this span (the DisplayTextAndSpans article of ChatText's documentation).
    public var isLink: Bool {
        switch self {
        case .uri, .hyperLink, .simplexLink, .simplexName: true
        default: false
        }
    }
}

/// One piece of SimpleX's `FormattedText`: text with an optional format.
public struct FormattedText: Sendable, Hashable {
    /// The piece's text as written (with markdown markers).
    public var text: String
    /// The piece's format; `nil` for plain text.
    public var format: Format?
    /// Makes a piece, plain unless a format is given.
    public init(_ text: String, _ format: Format? = nil) {
        self.text = text
        self.format = format
    }

    /// The text a reader sees for this piece (ChatText's DisplayTextAndSpans article): a hyperlink's show-text, a
    /// bracketed SimpleX link's show-text, `@name` for a mention, else the piece's text.
    public var shownText: String {
        switch format {
        case .hyperLink(let showText, _)?: return showText ?? text
        case .simplexLink(let showText?, _, _, _)?: return showText
        case .mention(let name)?: return "@" + name
        default: return text
        }
    }
}

/// A formatted range of an item's display text, in UTF-16 code units.
public struct Span: Sendable, Hashable {
    /// The first UTF-16 offset of the range in the display text.
    public var start: Int
    /// The UTF-16 offset just past the range.
    public var end: Int
    /// How the range is formatted.
    public var format: Format
    /// Makes a span over `start..<end`.
    public init(start: Int, end: Int, format: Format) {
        self.start = start
        self.end = end
        self.format = format
    }
}
