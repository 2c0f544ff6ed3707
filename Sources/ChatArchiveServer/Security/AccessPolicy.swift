import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Who may talk to the server: the holder of a random token, through a `Host` the server is
/// bound to (a page of another site that rebinds its DNS name to 127.0.0.1 sends its own name).
package final class AccessPolicy: Sendable {
    /// The token every request must carry (`?token=` once, then the cookie; or `Bearer`).
    package let token: String
    private let hosts = LockedHosts()

    /// The start of the name of the cookie that carries the token; ``cookieName(port:)`` adds the port.
    package static let cookieName = "chat_archive_token"

    /// The cookie of the server on `port`: browsers share cookies across ports, so two servers
    /// (or one restarted on another port) in one browser each keep their own.
    package static func cookieName(port: Int?) -> String {
        port.map { "\(cookieName)_\($0)" } ?? cookieName
    }

    /// The name of this server's cookie, once it knows its port.
    package var cookieName: String { Self.cookieName(port: hosts.port) }

    /// A policy with a fresh random token (32 bytes from the system's generator, hex).
    package convenience init() { self.init(token: AccessPolicy.makeToken()) }

    /// A policy with a given token (tests).
    package init(token: String) { self.token = token }

    /// Allows `Host` headers naming `host` (and `localhost` when it is a loopback address) with
    /// `port`. A wildcard (`0.0.0.0`, `::`) listens on every address of the machine: then the
    /// loopback names, the machine's interface addresses and its host name are allowed, still
    /// never a name the machine does not carry (a rebound DNS name of another site).
    package func allow(host: String, port: Int) {
        var names: Set<String> = []
        func add(_ address: String) {
            let bracketed = address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address
            names.insert("\(bracketed):\(port)".lowercased())
        }
        add(host)
        if AccessPolicy.isLoopback(host) || AccessPolicy.isWildcard(host) {
            for name in ["localhost", "127.0.0.1", "::1"] { add(name) }
        }
        if AccessPolicy.isWildcard(host) {
            for address in AccessPolicy.machineAddresses(ipv6: host.contains(":")) { add(address) }
            if let name = AccessPolicy.machineName() { add(name) }
        }
        hosts.add(names, port: port)
    }

    /// Whether an address listens on every interface (`0.0.0.0`, `::`).
    package static func isWildcard(_ host: String) -> Bool {
        ["0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"].contains(host)
    }

    /// The addresses of the machine's interfaces (IPv4; IPv6 too when `ipv6`).
    static func machineAddresses(ipv6: Bool) -> [String] {
        #if canImport(Glibc)
            var list: UnsafeMutablePointer<ifaddrs>? = nil
            guard getifaddrs(&list) == 0, let first = list else { return [] }
            defer { freeifaddrs(list) }
            var out: [String] = []
            var next: UnsafeMutablePointer<ifaddrs>? = first
            while let entry = next {
                defer { next = entry.pointee.ifa_next }
                guard let address = entry.pointee.ifa_addr else { continue }
                let family = Int32(address.pointee.sa_family)
                guard family == AF_INET || (ipv6 && family == AF_INET6) else { continue }
                var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                let length = socklen_t(
                    family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
                guard
                    getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0
                else { continue }
                // A link-local IPv6 address carries its zone (`%eth0`), which no Host header does.
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                out.append(String(text.prefix { $0 != "%" }))
            }
            return out
        #else
            return []
        #endif
    }

    /// The machine's host name, when it has one.
    static func machineName() -> String? {
        let name = ProcessInfo.processInfo.hostName
        return name.isEmpty || name == "localhost" ? nil : name
    }

    /// Whether a `Host` header value names the bound address.
    package func isAllowed(host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        return hosts.contains(host.lowercased())
    }

    /// Whether `candidate` is the token, compared in constant time.
    package func matches(_ candidate: Substring?) -> Bool {
        guard let candidate else { return false }
        let a = Array(candidate.utf8)
        let b = Array(token.utf8)
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<a.count { diff |= a[i] ^ b[i] }
        return diff == 0
    }

    /// Whether an address is a loopback one (`127.0.0.0/8`, `::1`, `localhost`).
    package static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// 32 random bytes as 64 hex digits.
    static func makeToken() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }.joined()
    }
}

/// The set of allowed `Host` values and the bound port, filled once the server knows its port.
private final class LockedHosts: @unchecked Sendable {
    private let lock = NSLock()
    private var names: Set<String> = []
    private var bound: Int? = nil
    var port: Int? { lock.withLock { bound } }
    func add(_ more: Set<String>, port: Int) {
        lock.withLock {
            names.formUnion(more)
            bound = port
        }
    }
    func contains(_ name: String) -> Bool { lock.withLock { names.contains(name) } }
}
