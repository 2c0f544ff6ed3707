import ChatArchive
import Foundation
import Hummingbird
import Logging
import NIOCore

/// The local web app: the JSON API over a read-only archive and the static app that shows it,
/// behind the token and `Host` rules of ``AccessPolicy``.
package struct ArchiveServer: Sendable {
    /// The API every `/api/...` request is answered by.
    package let api: ArchiveAPI
    /// The token and the allowed `Host` names.
    package let policy: AccessPolicy
    /// Where request logs go (`nil`: nowhere).
    package let log: (@Sendable (String) -> Void)?

    /// A server over an archive opened for reading.
    package init(archive: Archive, policy: AccessPolicy = AccessPolicy(), log: (@Sendable (String) -> Void)? = nil) {
        api = ArchiveAPI(archive: archive)
        self.policy = policy
        self.log = log
    }

    /// The router: access control on every route, then the app, the API and media.
    package func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(AccessMiddleware(policy: policy, log: log))
        let api = self.api
        router.get("/") { _, _ in WebAssets.response(.html) }
        router.get("/app.js") { _, _ in WebAssets.response(.script) }
        router.get("/app.css") { _, _ in WebAssets.response(.style) }
        router.get("/api/media/:item") { request, context in
            try await Self.media(api.archive, request: request, context: context)
        }
        // HEAD: whether the attachment is there (the app shows a download link only then).
        router.head("/api/media/:item") { request, context in
            let full = try await Self.media(api.archive, request: request, context: context)
            return Response(status: full.status, headers: full.headers)
        }
        // A route with a literal first segment is matched before `:route` without falling back
        // to it: `/api/chats` is named beside `/api/chats/CHAT/media`.
        router.get("/api/chats") { request, _ in
            Self.json(await api.respond(route: "chats", query: decodeQuery(request.uri.query)))
        }
        router.get("/api/chats/:chat/media") { request, context in
            // The path segment as sent: a chat id may hold any character, percent-encoded.
            let segment = context.parameters.get("chat") ?? ""
            let chat = segment.removingPercentEncoding ?? segment
            return Self.json(await api.media(chat: chat, query: decodeQuery(request.uri.query)))
        }
        router.get("/api/:route") { request, context in
            let answer = await api.respond(
                route: context.parameters.get("route") ?? "", query: decodeQuery(request.uri.query))
            return Self.json(answer)
        }
        router.get("/**") { _, _ in Self.json(.error(404, "notFound", "no such page")) }
        return router
    }

    /// Serves on `host:port` (0: a free port) until the task is cancelled or the process gets
    /// SIGINT/SIGTERM; `onReady` gets the bound port once the server accepts connections.
    package func run(host: String, port: Int, onReady: @escaping @Sendable (Int) -> Void) async throws {
        let policy = self.policy
        // The chat list's name search transliterates a query in another script, and ICU builds
        // a script's transliterator on first use: build them while the app loads, not on the
        // user's first search in each script.
        Thread.detachNewThread { Archive.prepareNameSearch() }
        let app = Application(
            router: makeRouter(),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                policy.allow(host: host, port: bound)
                onReady(bound)
            },
            logger: Logger(label: "chat-archive.serve", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await app.runService()
    }

    static func json(_ answer: APIResponse) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(
            status: HTTPResponse.Status(code: answer.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: answer.body)))
    }

    /// `GET /api/media/ITEM?n=K`: streams the attachment from the export's folder or zip.
    static func media(_ archive: Archive, request: Request, context: BasicRequestContext) async throws -> Response {
        let query = decodeQuery(request.uri.query)
        guard let idText = context.parameters.get("item"), let id = Int64(idText) else {
            return json(.error(400, "badRequest", "the item must be an item id"))
        }
        guard let index = Int(query["n"] ?? "0"), index >= 0 else {
            return json(.error(400, "badRequest", "n must be a number from 0"))
        }
        guard let file = try? await archive.attachment(item: id, index: index) else {
            return json(
                .error(404, "notFound", "the attachment is not in the archive's exports (never exported, or moved)"))
        }
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.cacheControl] = "private, max-age=3600"
        // A file opened by itself gets no script and no same-origin rights.
        headers[.contentSecurityPolicy] =
            "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox"
        if !file.isInline {
            headers[.contentDisposition] =
                "attachment; filename*=UTF-8''" + Self.percentEncoded(file.name.isEmpty ? "file" : file.name)
        }
        let stream = UncheckedStream(file.stream)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody(contentLength: file.size.map { Int($0) }) { writer in
                while true {
                    let chunk = try stream.read()
                    if chunk.isEmpty { break }
                    try await writer.write(ByteBuffer(bytes: chunk))
                }
                try await writer.finish(nil)
            })
    }

    static func percentEncoded(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? "file"
    }
}

/// A byte stream read by one response writer at a time.
private final class UncheckedStream: @unchecked Sendable {
    private let stream: ByteStream
    init(_ stream: ByteStream) { self.stream = stream }
    func read() throws -> [UInt8] { try stream.read(maxLength: 256 << 10) }
}

/// Refuses foreign `Host` headers (403) and requests without the token (401); trades a
/// `?token=` for a cookie and a redirect; adds the security headers to every response.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: AccessPolicy
    let log: (@Sendable (String) -> Void)?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        var response = try await decide(request, context: context, next: next)
        Self.secure(&response.headers)
        if let log {
            let ms =
                Double((ContinuousClock.now - start).components.attoseconds) / 1e15
                + Double((ContinuousClock.now - start).components.seconds) * 1000
            log("\(request.method) \(request.uri.path) \(response.status.code) \(String(format: "%.2f", ms)) ms")
        }
        return response
    }

    private func decide(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws
        -> Response
    {
        let host = HeaderName.host.flatMap { request.headers[$0] } ?? request.head.authority
        guard policy.isAllowed(host: host) else {
            return ArchiveServer.json(.error(403, "forbidden", "this server answers only to the address it printed"))
        }
        let query = decodeQuery(request.uri.query)
        if let given = query["token"] {
            guard policy.matches(Substring(given)) else { return unauthorized(request) }
            // Trade the token in the address for a cookie, and drop it from the address bar.
            var rest =
                request.uri.query?.split(separator: "&").filter { !$0.hasPrefix("token=") }.joined(separator: "&") ?? ""
            if !rest.isEmpty { rest = "?" + rest }
            var headers = HTTPFields()
            headers[.location] = request.uri.path + rest
            headers[.setCookie] = "\(policy.cookieName)=\(policy.token); Path=/; HttpOnly; SameSite=Strict"
            headers[.cacheControl] = "no-store"
            return Response(status: .seeOther, headers: headers)
        }
        if let auth = request.headers[.authorization], auth.hasPrefix("Bearer "), policy.matches(auth.dropFirst(7)) {
            return try await next(request, context)
        }
        if let cookie = request.cookies[policy.cookieName], policy.matches(Substring(cookie.value)) {
            return try await next(request, context)
        }
        return unauthorized(request)
    }

    static var unauthorizedAdvice: String {
        "open the address chat-archive serve printed (it carries the token), or send Authorization: Bearer TOKEN"
    }

    /// A 401: for a page the browser navigates to, a page that says what to do; for the API
    /// and other clients, the JSON error.
    private func unauthorized(_ request: Request) -> Response {
        let accept = request.headers[.accept] ?? ""
        guard !request.uri.path.hasPrefix("/api/"), accept.contains("text/html") else {
            return ArchiveServer.json(.error(401, "unauthorized", Self.unauthorizedAdvice))
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .unauthorized, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: Self.unauthorizedPage)))
    }

    /// The page a browser shows without the token (no script, no data from the request).
    static var unauthorizedPage: String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark"><title>Chat archive: open the printed address</title></head>
        <body>
        <h1>This chat archive needs its address with the token</h1>
        <p>This browser has no valid key for this server. That happens when the server was restarted
        (each run makes a new token), or when this tab belongs to another run.</p>
        <p>Open the address <code>chat-archive serve</code> printed in its terminal, the one that ends
        in <code>?token=…</code>. Run <code>chat-archive serve</code> again if it has stopped.</p>
        <p>Scripts send the header <code>Authorization: Bearer TOKEN</code> instead.</p>
        </body></html>
        """
    }

    /// Headers on every answer: no inline script, no framing, no sniffing, no referrer.
    static func secure(_ headers: inout HTTPFields) {
        if headers[.contentSecurityPolicy] == nil {
            headers[.contentSecurityPolicy] =
                "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        }
        headers[.xContentTypeOptions] = "nosniff"
        for (name, value) in [
            (HeaderName.referrerPolicy, "no-referrer"), (HeaderName.frameOptions, "DENY"),
            (HeaderName.resourcePolicy, "same-origin"),
        ] {
            if let name { headers[name] = value }
        }
    }
}

/// Header names HTTPTypes does not predefine.
package enum HeaderName {
    package static let host = HTTPFields.Element.Name("Host")
    static let referrerPolicy = HTTPFields.Element.Name("Referrer-Policy")
    static let frameOptions = HTTPFields.Element.Name("X-Frame-Options")
    static let resourcePolicy = HTTPFields.Element.Name("Cross-Origin-Resource-Policy")
}
