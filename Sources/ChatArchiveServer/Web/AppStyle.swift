extension WebAssets {
    static let appCSS = #"""
        :root {
          --bg: #ffffff; --panel: #f7f7f8; --text: #1c1c1e; --muted: #8a8a8e; --line: #e3e3e6;
          --accent: #0a84ff; --accent-text: #ffffff; --snd: #dcecff; --rcv: #f1f1f3; --mark: #ffe066;
          --selected: #e8f1ff; --event: #8a8a8e; --code: #ececef; --danger: #d83a3a;
          --font: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK JP", "Noto Sans Thai", "Noto Sans Arabic", "Noto Sans Hebrew", sans-serif;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #111113; --panel: #1a1a1d; --text: #ececef; --muted: #9a9aa0; --line: #2c2c30;
            --accent: #3b9bff; --snd: #1d3a5f; --rcv: #26262a; --mark: #8a6d00; --selected: #1f2a3a;
            --code: #2c2c30; --event: #9a9aa0;
          }
          mark { color: #fff; }
        }
        * { box-sizing: border-box; }
        html, body { height: 100%; margin: 0; }
        body { font: 15px/1.4 var(--font); color: var(--text); background: var(--bg); }
        button { font: inherit; color: inherit; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        .muted { color: var(--muted); font-size: 13px; }
        [hidden] { display: none !important; }
        #app { display: flex; height: 100vh; overflow: hidden; }
        #sidebar { width: 360px; min-width: 280px; display: flex; flex-direction: column; border-right: 1px solid var(--line); background: var(--bg); }
        main#chat { flex: 1; display: flex; flex-direction: column; min-width: 0; position: relative; background: var(--bg); }
        .bar { display: flex; align-items: center; gap: 10px; padding: 10px 14px; border-bottom: 1px solid var(--line); min-height: 56px; }
        .bar h1 { font-size: 22px; margin: 0; flex: 1; }
        .search-box { padding: 8px 12px 4px; }
        .search-box.small { padding-top: 2px; }
        input[type=search], input[type=date] {
          width: 100%; padding: 8px 12px; border-radius: 10px; border: 1px solid transparent; background: var(--panel);
          color: var(--text); font: inherit; outline: none;
        }
        input[type=search]:focus, input[type=date]:focus { border-color: var(--accent); }
        input[type=date] { width: auto; padding: 6px 8px; }
        .tabs { display: flex; gap: 6px; padding: 6px 12px; overflow-x: auto; scrollbar-width: none; flex-shrink: 0; }
        .tabs::-webkit-scrollbar { display: none; }
        .tab { border: 0; border-radius: 16px; padding: 4px 11px; background: var(--panel); cursor: pointer; white-space: nowrap; font-size: 13px; }
        .tab[aria-selected=true] { background: var(--accent); color: var(--accent-text); }
        .tab .count { opacity: .7; margin-left: 4px; }
        .chat-list, .hit-list, .item-list { list-style: none; margin: 0; padding: 0; }
        .chat-list, .search-results { flex: 1; overflow-y: auto; }
        .chat-row { display: flex; gap: 12px; align-items: center; width: 100%; padding: 9px 14px; border: 0; background: none; text-align: left; cursor: pointer; }
        .chat-row:hover { background: var(--panel); }
        .list-end { height: 1px; }
        .chat-row[aria-current=true] { background: var(--selected); }
        .avatar { width: 48px; height: 48px; border-radius: 50%; flex-shrink: 0; display: flex; align-items: center; justify-content: center;
          color: #fff; font-weight: 600; font-size: 17px; background: var(--avatar, #8e8e93); user-select: none; overflow: hidden; }
        .chat-header .avatar { width: 38px; height: 38px; font-size: 14px; }
        .row-main { flex: 1; min-width: 0; border-bottom: 1px solid var(--line); padding-bottom: 9px; margin-bottom: -9px; }
        .row-top, .row-bottom { display: flex; align-items: center; gap: 6px; min-width: 0; }
        .row-name { flex: 1; min-width: 0; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .row-time { color: var(--muted); font-size: 13px; flex-shrink: 0; }
        .row-preview { flex: 1; min-width: 0; color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; height: 2.7em; white-space: normal;
          display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; font-size: 14px; }
        .row-preview .who { color: var(--text); }
        .row-preview .draft { color: var(--danger); }
        .row-preview .placeholder { font-style: italic; }
        .badge { min-width: 20px; height: 20px; padding: 0 6px; border-radius: 10px; background: var(--accent); color: #fff; font-size: 12px; font-weight: 600;
          display: inline-flex; align-items: center; justify-content: center; flex-shrink: 0; }
        .badge.muted-badge { background: var(--muted); }
        .badge.mention { padding: 0; width: 20px; color: #fff; }
        .mark-icon { color: var(--muted); font-size: 12px; flex-shrink: 0; }
        .mark-icon.fav { color: #f5a623; }
        .empty { margin: auto; text-align: center; color: var(--muted); padding: 24px; }
        .chat-title { flex: 1; min-width: 0; }
        .chat-title h2 { margin: 0; font-size: 17px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        #chat-sub { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        #jump-date-button { display: none; }
        .icon-button { border: 0; background: none; cursor: pointer; font-size: 20px; padding: 4px 8px; border-radius: 8px; color: var(--accent); }
        .icon-button:hover { background: var(--panel); }
        .icon-button[aria-pressed=true] { background: var(--selected); }
        #back { display: none; font-size: 28px; line-height: 1; }
        .chat-search-bar { padding: 8px 14px; border-bottom: 1px solid var(--line); display: flex; flex-direction: column; gap: 6px; }
        .chat-search-bar .row { display: flex; gap: 8px; align-items: center; }
        #hit-position { white-space: nowrap; min-width: 64px; text-align: right; }
        .chips { display: flex; gap: 6px; flex-wrap: wrap; }
        .chip { border: 1px solid var(--line); border-radius: 14px; padding: 2px 10px; background: none; cursor: pointer; font-size: 13px; }
        .chip[aria-pressed=true] { background: var(--accent); border-color: var(--accent); color: #fff; }
        .messages { flex: 1; overflow-y: auto; padding: 8px 0 12px; overflow-anchor: none; }
        .sentinel { height: 1px; }
        .item-list { display: flex; flex-direction: column; padding: 0 14px; }
        .day { align-self: center; margin: 12px 0 6px; padding: 2px 10px; border-radius: 10px; background: var(--panel); color: var(--muted); font-size: 12px; }
        .new-marker { align-self: stretch; text-align: center; color: var(--accent); font-size: 13px; margin: 10px 0; border-top: 1px solid var(--accent); padding-top: 4px; }
        .item { display: flex; flex-direction: column; max-width: min(75%, 640px); margin-top: 2px; align-self: flex-start; }
        .item.snd { align-self: flex-end; align-items: flex-end; }
        .item.event { align-self: center; max-width: 90%; color: var(--event); font-size: 13px; text-align: center; margin: 6px 0; }
        .item.first { margin-top: 8px; }
        .sender { font-size: 12px; color: var(--muted); margin: 0 12px 2px; }
        .bubble { padding: 6px 12px 5px; border-radius: 18px; background: var(--rcv); overflow-wrap: anywhere; white-space: pre-wrap; unicode-bidi: isolate; max-width: 100%; }
        .item.snd .bubble { background: var(--snd); }
        .item.anchor .bubble { box-shadow: 0 0 0 2px var(--accent); }
        .item.flash .bubble { animation: flash 1.2s ease-out; }
        @keyframes flash { from { box-shadow: 0 0 0 3px var(--accent); } to { box-shadow: 0 0 0 0 transparent; } }
        .bubble .text { unicode-bidi: plaintext; }
        .deleted .text, .placeholder { font-style: italic; color: var(--muted); }
        .meta { font-size: 11px; color: var(--muted); margin-left: 10px; float: right; margin-top: 6px; white-space: nowrap; }
        .quote.missing { opacity: .6; cursor: default; }
        .quote { display: block; border-left: 3px solid var(--accent); background: rgba(127,127,127,.12); border-radius: 6px; padding: 3px 8px; margin: 2px 0 5px;
          font-size: 13px; color: var(--muted); cursor: pointer; max-height: 4.2em; overflow: hidden; white-space: normal; text-align: left; width: 100%; border-top: 0; border-right: 0; border-bottom: 0; }
        .reactions { display: flex; gap: 4px; margin: 2px 8px 0; flex-wrap: wrap; }
        .reaction { font-size: 12px; background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 0 6px; }
        .media { display: block; max-width: 100%; max-height: 320px; border-radius: 12px; margin: 4px 0; }
        audio.media { max-height: none; width: 260px; }
        .file { display: flex; gap: 8px; align-items: center; font-size: 13px; margin: 2px 0 4px; white-space: normal; }
        .file .icon { font-size: 20px; }
        .preview-card { display: block; border-left: 3px solid var(--accent); padding: 2px 8px; margin: 4px 0; font-size: 13px; white-space: normal; }
        .preview-card .title { font-weight: 600; }
        a { color: var(--accent); }
        code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; background: var(--code); border-radius: 4px; padding: 0 3px; font-size: 13px; }
        .secret { background: var(--muted); color: transparent; border-radius: 4px; cursor: pointer; }
        .secret.revealed { background: none; color: inherit; }
        .mention { color: var(--accent); font-weight: 500; }
        .c-red { color: #e5484d; } .c-green { color: #30a46c; } .c-blue { color: #0a84ff; } .c-yellow { color: #d7a000; }
        .c-cyan { color: #05a2c2; } .c-magenta { color: #d6409f; } .c-black { color: #000; } .c-white { color: #fff; }
        .more { display: block; margin-top: 6px; border: 0; background: none; color: var(--accent); cursor: pointer; padding: 0; font-size: 13px; }
        mark { background: var(--mark); color: inherit; border-radius: 3px; padding: 0 1px; }
        .summary { padding: 6px 14px; }
        .hit { padding: 9px 14px; cursor: pointer; border-bottom: 1px solid var(--line); display: block; }
        .hit:hover, .hit[aria-selected=true] { background: var(--selected); }
        .hit-top { display: flex; gap: 6px; font-size: 13px; }
        .hit-chat { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .hit-sender { color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; flex: 1; }
        .hit-time { color: var(--muted); flex-shrink: 0; }
        .hit-text { font-size: 14px; overflow-wrap: anywhere; unicode-bidi: plaintext; }
        .to-bottom { position: absolute; right: 20px; bottom: 20px; width: 40px; height: 40px; border-radius: 50%; border: 1px solid var(--line);
          background: var(--bg); color: var(--accent); font-size: 18px; cursor: pointer; box-shadow: 0 2px 8px rgba(0,0,0,.15); }
        .loading { text-align: center; color: var(--muted); font-size: 13px; padding: 6px; }
        @media (max-width: 720px) {
          #sidebar { width: 100%; border-right: 0; }
          main#chat { display: none; }
          body.chat-open #sidebar { display: none; }
          body.chat-open main#chat { display: flex; }
          #back { display: block; }
          .item { max-width: 88%; }
          /* The date field (about 130 px) left a phone's chat name a few letters: a calendar
             button opens its picker instead. */
          #jump-date { position: absolute; width: 1px; height: 1px; padding: 0; border: 0; opacity: 0; }
          #jump-date-button { display: block; }
        }
        """#
}
