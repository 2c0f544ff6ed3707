import Hummingbird

/// The app's three files (`Web/index.html`, `Web/app.js`, `Web/app.css`), compiled into the
/// binary by the EmbedWebAssets build plugin as `indexHTML`, `appJS` and `appCSS`: nothing to
/// find on disk, nothing fetched from a CDN. (Resource bundles were left out on purpose: on
/// Linux a moved binary loses its bundle, and `Bundle.module` then stops the process.)
enum WebAssets {
    enum Asset {
        case html, script, style
    }

    static func response(_ asset: Asset) -> Response {
        let (type, text): (String, String) =
            switch asset {
            case .html: ("text/html; charset=utf-8", indexHTML)
            case .script: ("text/javascript; charset=utf-8", appJS)
            case .style: ("text/css; charset=utf-8", appCSS)
            }
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
