import ChatModel

/// Decodes SimpleX connection links (SimpleX links in <doc:MarkdownGrammar>): full invitation/contact links and
/// short links, in their `simplex:/` and `https://host/` forms.
package enum SimplexLinkDecoder {
    /// A decoded SimpleX link.
    package struct Link: Sendable, Hashable {
        /// The kind of connection the link makes.
        package var linkType: SimplexLinkType
        /// The link re-encoded in the `simplex:` scheme (approximately SimpleX's canonical form).
        package var simplexUri: String
        /// The SMP servers' hosts, in order, each server's main host then its extra hosts.
        package var smpHosts: [String]
        /// Whether this is a short link (`https://host/<t>#<key>`), not a full one.
        package var isShort: Bool

        /// Creates a decoded link.
        package init(linkType: SimplexLinkType, simplexUri: String, smpHosts: [String], isShort: Bool) {
            self.linkType = linkType
            self.simplexUri = simplexUri
            self.smpHosts = smpHosts
            self.isShort = isShort
        }
    }

    /// Decodes `text` as a whole SimpleX link; nil when it is not one.
    package static func decode(_ text: String) -> Link? {
        decode(bytes: Array(text.utf8))
    }

    /// Decodes UTF-8 bytes as a whole SimpleX link.
    static func decode(_ b: UnsafeBufferPointer<UInt8>) -> Link? {
        decode(bytes: Array(b))
    }

    private static func decode(bytes: [UInt8]) -> Link? {
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        let s = bytes[...]
        if let rest = s.dropPrefix("simplex:/") {
            return decodeShortSimplexForm(rest) ?? decodeFull(rest)
        }
        guard let afterScheme = s.dropPrefix("https://"),
            let slash = afterScheme.firstIndex(of: UInt8(ascii: "/"))
        else { return nil }
        let authority = afterScheme[..<slash]
        let rest = afterScheme[(slash + 1)...]
        guard !authority.isEmpty,
            !authority.contains(where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "@") }
            )
        else { return nil }
        return decodeShortServerForm(authority: authority, rest) ?? decodeFull(rest)
    }

    // MARK: Short links

    private static func shortLinkType(_ c: UInt8) -> SimplexLinkType? {
        switch c {
        case UInt8(ascii: "i"): .invitation
        case UInt8(ascii: "a"): .contact
        case UInt8(ascii: "g"): .group
        case UInt8(ascii: "c"): .channel
        case UInt8(ascii: "r"): .relay
        default: nil
        }
    }

    /// `<t>#[<key hash>@][<extra hosts>/]<key>` after `https://host[:port]/`.
    private static func decodeShortServerForm(authority: ArraySlice<UInt8>, _ rest: ArraySlice<UInt8>) -> Link? {
        guard rest.count >= 3, let type = shortLinkType(rest[rest.startIndex]),
            rest[rest.startIndex + 1] == UInt8(ascii: "#")
        else { return nil }
        var fragment = rest[(rest.startIndex + 2)...]
        var keyHash: ArraySlice<UInt8>?
        if let at = fragment.firstIndex(of: UInt8(ascii: "@")) {
            keyHash = fragment[..<at]
            fragment = fragment[(at + 1)...]
            guard let hash = keyHash, isBase64URL(hash), !hash.isEmpty else { return nil }
        }
        var hosts: [ArraySlice<UInt8>] = []
        let (mainHost, port) = splitPort(authority)
        guard let mainHost, isHost(mainHost) else { return nil }
        hosts.append(mainHost)
        if let slash = fragment.lastIndex(of: UInt8(ascii: "/")) {
            let extra = fragment[..<slash].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            guard extra.allSatisfy(isHost) else { return nil }
            hosts += extra
            fragment = fragment[(slash + 1)...]
        }
        guard isShortKey(fragment, type: type) else { return nil }
        var uri = "simplex:/" + string(rest[rest.startIndex...rest.startIndex]) + "#" + string(fragment)
        uri += "?h=" + hosts.map(string).joined(separator: ",")
        if let port { uri += "&p=" + string(port) }
        if let keyHash { uri += "&c=" + string(keyHash) }
        return Link(linkType: type, simplexUri: uri, smpHosts: hosts.map(string), isShort: true)
    }

    /// `<t>#<key>?h=<hosts>[&p=<port>][&c=<key hash>]` after `simplex:/`.
    private static func decodeShortSimplexForm(_ rest: ArraySlice<UInt8>) -> Link? {
        guard rest.count >= 3, let type = shortLinkType(rest[rest.startIndex]),
            rest[rest.startIndex + 1] == UInt8(ascii: "#"),
            let question = rest.firstIndex(of: UInt8(ascii: "?"))
        else { return nil }
        let key = rest[(rest.startIndex + 2)..<question]
        guard isShortKey(key, type: type) else { return nil }
        let params = queryParameters(rest[(question + 1)...])
        guard let h = params.first(where: { $0.0 == "h" })?.1 else { return nil }
        let hosts = h.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard !hosts.isEmpty, hosts.allSatisfy(isHost) else { return nil }
        if let p = params.first(where: { $0.0 == "p" })?.1 {
            guard !p.isEmpty, p.allSatisfy(MarkdownCharacters.isDigit) else { return nil }
        }
        return Link(linkType: type, simplexUri: "simplex:/" + string(rest), smpHosts: hosts.map(string), isShort: true)
    }

    /// A base64url key: 32 bytes (43 characters), or 56 bytes (75 characters, link id and key)
    /// for an invitation.
    private static func isShortKey(_ key: ArraySlice<UInt8>, type: SimplexLinkType) -> Bool {
        var key = key
        while key.last == UInt8(ascii: "=") { key = key.dropLast() }
        let expected = type == .invitation ? 75 : 43
        return key.count == expected && isBase64URL(key)
    }

    private static func isBase64URL(_ s: ArraySlice<UInt8>) -> Bool {
        s.allSatisfy { MarkdownCharacters.isAlphaNumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    // MARK: Full links

    /// `invitation#/?v=…&smp=…&e2e=…` or `contact#/?v=…&smp=…[&data=…]`.
    private static func decodeFull(_ rest: ArraySlice<UInt8>) -> Link? {
        var type: SimplexLinkType
        var s: ArraySlice<UInt8>
        if let r = rest.dropPrefix("invitation") {
            type = .invitation
            s = r
        } else if let r = rest.dropPrefix("contact") {
            type = .contact
            s = r
        } else {
            return nil
        }
        if let r = s.dropPrefix("/") { s = r }
        guard let query = s.dropPrefix("#/?") else { return nil }
        let params = queryParameters(query)
        func value(_ key: String) -> ArraySlice<UInt8>? { params.first(where: { $0.0 == key })?.1 }
        guard let v = value("v"), !v.isEmpty, let smp = value("smp"), let decodedSMP = percentDecode(smp)
        else { return nil }
        if type == .invitation {
            guard let e2e = value("e2e"), !e2e.isEmpty else { return nil }
        }
        guard let hosts = smpQueueHosts(decodedSMP), !hosts.isEmpty else { return nil }
        if type == .contact, let data = value("data"), let json = percentDecode(data), isGroupData(json) {
            type = .group
        }
        let mode = type == .invitation ? "invitation" : "contact"
        return Link(
            linkType: type, simplexUri: "simplex:/" + mode + "#/?" + string(query), smpHosts: hosts, isShort: false)
    }

    /// The hosts of every `smp://[hash@]host[,host…][:port]/queue[#/?…&srv=hosts]` queue.
    private static func smpQueueHosts(_ s: [UInt8]) -> [String]? {
        let marker = Array("smp://".utf8)
        var starts: [Int] = []
        var k = 0
        while k + marker.count <= s.count {
            if (k == 0 || s[k - 1] == UInt8(ascii: ",")) && s[k..<(k + marker.count)].elementsEqual(marker) {
                starts.append(k)
                k += marker.count
            } else {
                k += 1
            }
        }
        guard starts.first == 0 else { return nil }
        var hosts: [String] = []
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] - 1 : s.count
            let queue = s[(start + marker.count)..<end]
            guard let slash = queue.firstIndex(of: UInt8(ascii: "/")) else { return nil }
            var authority = queue[..<slash]
            if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
            let (hostList, _) = splitPort(authority)
            guard let hostList else { return nil }
            let main = hostList.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            guard !main.isEmpty, main.allSatisfy(isHost) else { return nil }
            hosts += main.map(string)
            if let question = queue.firstIndex(of: UInt8(ascii: "?")),
                let srv = queryParameters(queue[(question + 1)...]).first(where: { $0.0 == "srv" })?.1
            {
                let extra = srv.split(separator: UInt8(ascii: ","))
                guard extra.allSatisfy(isHost) else { return nil }
                hosts += extra.map(string)
            }
        }
        return hosts
    }

    /// Whether the decoded `data` JSON says `"type":"group"`.
    private static func isGroupData(_ json: [UInt8]) -> Bool {
        let key = Array("\"type\"".utf8)
        let value = Array("\"group\"".utf8)
        var k = 0
        while k + key.count <= json.count {
            if json[k..<(k + key.count)].elementsEqual(key) {
                var j = k + key.count
                while j < json.count, json[j] == 0x20 || json[j] == 0x09 || json[j] == 0x0A || json[j] == 0x0D {
                    j += 1
                }
                if j < json.count, json[j] == UInt8(ascii: ":") {
                    j += 1
                    while j < json.count, json[j] == 0x20 || json[j] == 0x09 || json[j] == 0x0A || json[j] == 0x0D {
                        j += 1
                    }
                    if j + value.count <= json.count, json[j..<(j + value.count)].elementsEqual(value) { return true }
                }
            }
            k += 1
        }
        return false
    }

    // MARK: Helpers

    /// `host[:port]` → (host, port); nil host when the port is not digits.
    private static func splitPort(_ s: ArraySlice<UInt8>) -> (ArraySlice<UInt8>?, ArraySlice<UInt8>?) {
        guard let colon = s.lastIndex(of: UInt8(ascii: ":")) else { return (s, nil) }
        let port = s[(colon + 1)...]
        guard !port.isEmpty, port.allSatisfy(MarkdownCharacters.isDigit) else { return (nil, nil) }
        return (s[..<colon], port)
    }

    /// A domain name, IPv4 address or onion host: letters, digits, `-` and `.`.
    private static func isHost(_ s: ArraySlice<UInt8>) -> Bool {
        !s.isEmpty
            && s.allSatisfy {
                MarkdownCharacters.isAlphaNumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
    }

    /// `k=v&k=v` pairs, values not decoded.
    private static func queryParameters(_ s: ArraySlice<UInt8>) -> [(String, ArraySlice<UInt8>)] {
        s.split(separator: UInt8(ascii: "&")).map { pair in
            if let eq = pair.firstIndex(of: UInt8(ascii: "=")) {
                return (string(pair[..<eq]), pair[(eq + 1)...])
            }
            return (string(pair), pair[pair.endIndex...])
        }
    }

    /// Percent-decoding; nil on a `%` without two hex digits.
    private static func percentDecode(_ s: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if c == UInt8(ascii: "%") {
                guard i + 2 < s.endIndex, let hi = hexValue(s[i + 1]), let lo = hexValue(s[i + 2]) else { return nil }
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(c)
                i += 1
            }
        }
        return out
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func string(_ s: ArraySlice<UInt8>) -> String { String(decoding: s, as: UTF8.self) }
}

extension ArraySlice where Element == UInt8 {
    /// The slice after `prefix`, or nil when it does not start with it.
    fileprivate func dropPrefix(_ prefix: StaticString) -> ArraySlice<UInt8>? {
        let n = prefix.utf8CodeUnitCount
        guard count >= n else { return nil }
        let matches = prefix.withUTF8Buffer { p in self.prefix(n).elementsEqual(p) }
        return matches ? self.dropFirst(n) : nil
    }
}
