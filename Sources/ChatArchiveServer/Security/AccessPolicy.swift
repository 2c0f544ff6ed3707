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

    /// The name of the cookie that carries the token.
    package static let cookieName = "chat_archive_token"

    /// A policy with a fresh random token (32 bytes from the system's generator, hex).
    package convenience init() { self.init(token: AccessPolicy.makeToken()) }

    /// A policy with a given token (tests).
    package init(token: String) { self.token = token }

    /// Allows `Host` headers naming `host` (and `localhost` when it is a loopback address) with `port`.
    package func allow(host: String, port: Int) {
        var names: Set<String> = []
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        names.insert("\(bracketed):\(port)".lowercased())
        if AccessPolicy.isLoopback(host) {
            names.insert("localhost:\(port)")
            names.insert("127.0.0.1:\(port)")
            names.insert("[::1]:\(port)")
        }
        hosts.add(names)
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

/// The set of allowed `Host` values, filled once the server knows its port.
private final class LockedHosts: @unchecked Sendable {
    private let lock = NSLock()
    private var names: Set<String> = []
    func add(_ more: Set<String>) { lock.withLock { names.formUnion(more) } }
    func contains(_ name: String) -> Bool { lock.withLock { names.contains(name) } }
}
