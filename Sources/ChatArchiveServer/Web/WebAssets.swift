import Hummingbird

/// The app's three files, compiled into the binary: nothing to find on disk, nothing fetched
/// from a CDN, no build step. (Resource bundles were left out on purpose: on Linux a moved
/// binary loses its bundle, and `Bundle.module` then stops the process.)
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

    static let indexHTML = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>Chat archive</title>
        <link rel="preload" href="/api/chats?limit=60" as="fetch" crossorigin>
        <link rel="preload" href="/api/counts" as="fetch" crossorigin>
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <div id="app">
          <aside id="sidebar" aria-label="Chats">
            <header class="bar">
              <h1>Chats</h1>
              <span id="archive-stats" class="muted"></span>
            </header>
            <div class="search-box">
              <label for="global-search" class="visually-hidden">Search all messages</label>
              <input id="global-search" type="search" placeholder="Search messages  ( / )" autocomplete="off" spellcheck="false">
            </div>
            <nav id="filter-tabs" class="tabs" role="tablist" aria-label="Chat filters"></nav>
            <div class="search-box small">
              <label for="chat-search" class="visually-hidden">Search chat names</label>
              <input id="chat-search" type="search" placeholder="Search chats" autocomplete="off" spellcheck="false">
            </div>
            <ul id="chat-list" class="chat-list" role="list" aria-label="Chat list"></ul>
            <section id="search-results" class="search-results" hidden aria-label="Search results">
              <div id="search-summary" class="muted summary" role="status"></div>
              <ul id="hit-list" class="hit-list" role="listbox" aria-label="Messages found"></ul>
            </section>
          </aside>
          <main id="chat" aria-label="Chat">
            <div id="empty-chat" class="empty">
              <p>Choose a chat, or search all messages.</p>
              <p class="muted">/ to search · ↑ ↓ to move · Enter to open · Esc to clear</p>
            </div>
            <header id="chat-header" class="bar chat-header" hidden>
              <button id="back" class="icon-button" type="button" aria-label="Back to the chat list">‹</button>
              <div id="chat-avatar" class="avatar" aria-hidden="true"></div>
              <div class="chat-title">
                <h2 id="chat-name"></h2>
                <div id="chat-sub" class="muted"></div>
              </div>
              <label for="jump-date" class="visually-hidden">Jump to a date</label>
              <input id="jump-date" type="date" title="Jump to a date">
              <button id="jump-date-button" class="icon-button" type="button" aria-label="Jump to a date">📅</button>
              <button id="toggle-search" class="icon-button" type="button" aria-label="Search in this chat" aria-pressed="false">⌕</button>
            </header>
            <div id="chat-search-bar" class="chat-search-bar" hidden>
              <div class="row">
                <label for="in-chat-search" class="visually-hidden">Search in this chat</label>
                <input id="in-chat-search" type="search" placeholder="Search in chat" autocomplete="off" spellcheck="false">
                <span id="hit-position" class="muted" role="status" aria-live="polite"></span>
                <button id="hit-prev" class="icon-button" type="button" aria-label="Older match">▲</button>
                <button id="hit-next" class="icon-button" type="button" aria-label="Newer match">▼</button>
              </div>
              <div id="content-chips" class="chips" role="group" aria-label="Content filter"></div>
            </div>
            <div id="messages" class="messages" role="log" aria-label="Messages" tabindex="0" hidden>
              <div id="top-sentinel" class="sentinel"></div>
              <ol id="item-list" class="item-list" role="list"></ol>
              <div id="bottom-sentinel" class="sentinel"></div>
            </div>
            <button id="to-bottom" class="to-bottom" type="button" hidden aria-label="Newest messages">↓</button>
          </main>
        </div>
        </body>
        </html>
        """#
}
