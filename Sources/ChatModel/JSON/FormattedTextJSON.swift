/// SimpleX's tagged JSON for `FormattedText` and `Format` (ChatText's MarkdownGrammar article, "JSON").
package enum FormattedTextJSON {
    // MARK: Encoding

    /// `[{"text": …, "format": …|null}, …]`.
    package static func jsonValue(_ pieces: [FormattedText]) -> JSONValue {
        .array(pieces.map(jsonValue))
    }

    /// `{"text": …, "format": …}`, `format` null for a plain piece.
    package static func jsonValue(_ piece: FormattedText) -> JSONValue {
        .object([("text", .string(piece.text)), ("format", piece.format.map(jsonValue) ?? .null)])
    }

    /// `{"formattedText": [...]}`, or `{}` when the list is nil.
    package static func messageJSONValue(_ pieces: [FormattedText]?) -> JSONValue {
        guard let pieces else { return .object([]) }
        return .object([("formattedText", jsonValue(pieces))])
    }

    /// A format as an object tagged by `"type"`, absent optional fields omitted.
    package static func jsonValue(_ format: Format) -> JSONValue {
        var fields: [(String, JSONValue)] = [("type", .string(format.typeName))]
        switch format {
        case .bold, .italic, .strikeThrough, .snippet, .secret, .small, .uri, .email, .phone, .underline, .hashtag:
            break
        case .colored(let color):
            fields.append(("color", .string(color.rawValue)))
        case .hyperLink(let showText, let linkUri):
            if let showText { fields.append(("showText", .string(showText))) }
            fields.append(("linkUri", .string(linkUri)))
        case .simplexLink(let showText, let linkType, let simplexUri, let smpHosts):
            if let showText { fields.append(("showText", .string(showText))) }
            fields.append(("linkType", .string(linkType.rawValue)))
            fields.append(("simplexUri", .string(simplexUri)))
            fields.append(("smpHosts", .array(smpHosts.map(JSONValue.string))))
        case .simplexName(let info):
            let domain: JSONValue = .object([
                ("nameTLD", .string(info.nameTLD)), ("domain", .string(info.domain)),
                ("subDomain", .array(info.subDomain.map(JSONValue.string))),
            ])
            fields.append(
                ("nameInfo", .object([("nameType", .string(info.nameType.rawValue)), ("nameDomain", domain)])))
        case .command(let commandStr):
            fields.append(("commandStr", .string(commandStr)))
        case .mention(let memberName):
            fields.append(("memberName", .string(memberName)))
        case .unknown(let json):
            fields.append(("json", json))
        }
        return .object(fields)
    }

    /// Compact JSON text of a piece list.
    package static func jsonText(_ pieces: [FormattedText]) -> String { jsonValue(pieces).jsonText }

    /// Compact JSON text of a format.
    package static func jsonText(_ format: Format) -> String { jsonValue(format).jsonText }

    // MARK: Decoding

    /// The pieces of a JSON array (elements without a string `text` are skipped); nil when
    /// `value` is not an array.
    package static func pieces(from value: JSONValue) -> [FormattedText]? {
        guard let array = value.arrayValue else { return nil }
        return array.compactMap(piece)
    }

    /// A piece from `{"text": …, "format": …}`; a missing or null `format` means plain.
    package static func piece(from value: JSONValue) -> FormattedText? {
        guard let text = value["text"]?.stringValue else { return nil }
        return FormattedText(text, value["format"].flatMap(format))
    }

    /// A format from its JSON: nil for null (plain); anything invalid or unknown becomes
    /// `.unknown` holding the whole value. Also reads the single-key object encoding of
    /// SimpleX's Apple apps (`{"bold":{}}`, `{"colored":{"color":"red"}}`).
    package static func format(from value: JSONValue) -> Format? {
        if value.isNull { return nil }
        guard case .object(let members) = value else { return .unknown(value) }
        if let type = value["type"]?.stringValue {
            return knownFormat(type: type, value) ?? .unknown(value)
        }
        let keys = members.filter { $0.0 != "_owsf" }
        if keys.count == 1, let (key, body) = keys.first, case .object = body,
            let format = knownFormat(type: key, body)
        {
            return format
        }
        return .unknown(value)
    }

    private static func knownFormat(type: String, _ v: JSONValue) -> Format? {
        switch type {
        case "bold": return .bold
        case "italic": return .italic
        case "strikeThrough": return .strikeThrough
        case "snippet": return .snippet
        case "secret": return .secret
        case "small": return .small
        case "uri": return .uri
        case "email": return .email
        case "phone": return .phone
        case "underline": return .underline
        case "hashtag": return .hashtag
        case "colored":
            guard let color = enumName(v["color"]).flatMap(FormatColor.init(rawValue:)) else { return nil }
            return .colored(color)
        case "hyperLink":
            guard let showText = optionalString(v["showText"]), let linkUri = v["linkUri"]?.stringValue else {
                return nil
            }
            return .hyperLink(showText: showText, linkUri: linkUri)
        case "simplexLink":
            guard let showText = optionalString(v["showText"]),
                let linkType = enumName(v["linkType"]).flatMap(SimplexLinkType.init(rawValue:)),
                let simplexUri = v["simplexUri"]?.stringValue,
                let smpHosts = stringArray(v["smpHosts"]), !smpHosts.isEmpty
            else { return nil }
            return .simplexLink(showText: showText, linkType: linkType, simplexUri: simplexUri, smpHosts: smpHosts)
        case "simplexName":
            guard let info = v["nameInfo"],
                let nameType = enumName(info["nameType"]).flatMap(SimplexNameInfo.NameType.init(rawValue:)),
                let domain = info["nameDomain"],
                let tld = enumName(domain["nameTLD"]),
                let name = domain["domain"]?.stringValue,
                let subDomain = stringArray(domain["subDomain"])
            else { return nil }
            return .simplexName(SimplexNameInfo(nameType: nameType, nameTLD: tld, domain: name, subDomain: subDomain))
        case "command":
            guard let commandStr = v["commandStr"]?.stringValue else { return nil }
            return .command(commandStr)
        case "mention":
            guard let memberName = v["memberName"]?.stringValue else { return nil }
            return .mention(memberName: memberName)
        case "unknown":
            guard let json = v["json"] else { return nil }
            return .unknown(json)
        default:
            return nil
        }
    }

    /// An enum value written as a string (`"red"`) or, by the Apple apps, as a single-key
    /// object (`{"red":{}}`, maybe with `"_owsf": true`).
    private static func enumName(_ v: JSONValue?) -> String? {
        guard let v else { return nil }
        if let s = v.stringValue { return s }
        guard case .object(let members) = v else { return nil }
        let keys = members.filter { $0.0 != "_owsf" }
        return keys.count == 1 ? keys.first?.0 : nil
    }

    /// `.some(nil)` when absent or null, `.some(s)` for a string, nil for anything else.
    private static func optionalString(_ v: JSONValue?) -> String?? {
        guard let v, !v.isNull else { return .some(nil) }
        guard let s = v.stringValue else { return nil }
        return .some(s)
    }

    private static func stringArray(_ v: JSONValue?) -> [String]? {
        guard let array = v?.arrayValue else { return nil }
        var out: [String] = []
        out.reserveCapacity(array.count)
        for element in array {
            guard let s = element.stringValue else { return nil }
            out.append(s)
        }
        return out
    }
}
