'use strict';
(function () {
  // Marks of the start-up timeline, for measuring the first load (performance.getEntriesByType).
  performance.mark('app-start');
  const $ = (id) => document.getElementById(id);
  // `1 message`, `2,345 messages`.
  const count = (n, noun) => n.toLocaleString() + ' ' + noun + (n === 1 ? '' : 's');
  const PAGE = 40;
  // Chat-list rows per request: enough to fill a tall window; more load as the list
  // scrolls near its end. `?pageSize=N` in the app's address sets it (5…500), for tests.
  const CHAT_PAGE = (() => {
    const n = Number(new URLSearchParams(location.search).get('pageSize'));
    return Number.isInteger(n) && n >= 5 && n <= 500 ? n : 60;
  })();
  // Asked before anything else is set up (date formats, handlers): the first page of the
  // chat list is what the user waits for. start() shows them. The page's <head> preloads
  // these two requests (chats with limit=60, the default page) while the script loads;
  // the same URLs here take the preloaded answers.
  const firstChats = api('chats', { limit: CHAT_PAGE });
  const firstCounts = api('counts');
  performance.mark('fetches-issued');
  firstChats.catch(() => {});
  const TEXT_LIMIT = 16000;
  // Items kept in the page: a long chat drops the far end as it scrolls and fetches it again on
  // the way back, so the page stays small however long the chat. `?maxItems=N` sets it (tests).
  const MAX_ITEMS = (() => {
    const n = Number(new URLSearchParams(location.search).get('maxItems'));
    return Number.isInteger(n) && n >= 2 * PAGE && n <= 100000 ? n : 1000;
  })();
  const state = {
    filter: 'all', chatQuery: '', chats: [], chatCursor: null, chat: null, items: [], loadingBefore: false, loadingAfter: false,
    hasBefore: false, hasAfter: false, inChat: { query: '', content: null, hits: [], index: -1, cursor: null, count: null },
    global: { query: '', hits: [], cursor: null, loading: false, selected: -1, seq: 0 }, marks: null, chatSeq: 0, windowSeq: 0
  };

  // ---------- helpers ----------
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  async function api(path, params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
    const res = await fetch('/api/' + path + (q.toString() ? '?' + q : ''), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    const body = await res.json().catch(() => ({ error: { code: 'bad', message: 'bad answer' } }));
    if (res.status === 401) {
      showNotice('This tab has lost its key to the archive: the server was restarted, or this tab belongs to an ' +
        'earlier run. Open the address chat-archive serve printed (the one with ?token=…) again.');
    }
    if (!res.ok) throw new Error((body.error && body.error.message) || ('HTTP ' + res.status));
    return body;
  }
  function showNotice(text) {
    const n = $('notice');
    n.textContent = text;
    n.hidden = false;
  }
  // Bidi overrides, embeddings, isolates and marks in names, file names and previews would
  // reorder what follows them ("U+202E evil" shows as "live"): they are dropped there, and names sit
  // in isolating elements (<bdi>, dir=auto).
  const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
  function clean(s) { return typeof s === 'string' ? s.replace(BIDI_CONTROLS, '') : s; }
  function debounce(fn, ms) { let t; return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); }; }
  const SAFE_SCHEMES = ['http:', 'https:', 'mailto:', 'tel:'];
  function safeHref(raw, fallbackScheme) {
    if (typeof raw !== 'string') return null;
    let s = raw.trim();
    if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s)) s = (fallbackScheme || 'https://') + s;
    try {
      const u = new URL(s);
      return SAFE_SCHEMES.includes(u.protocol) ? u.href : null;
    } catch (e) { return null; }
  }
  function link(href, text) {
    const safe = safeHref(href);
    if (!safe) return el('span', 'unsafe-link', text);
    const a = el('a', null, text);
    a.setAttribute('href', safe);
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
    return a;
  }
  function initials(name) {
    const words = (name || '?').trim().split(/\s+/).filter(Boolean);
    const chars = (w) => Array.from(w.replace(/^[^\p{L}\p{N}]+/u, '') || w);
    let s = words.length > 1 ? (chars(words[0])[0] || '') + (chars(words[1])[0] || '') : chars(words[0] || '?').slice(0, 2).join('');
    return s.toUpperCase() || '?';
  }
  const AVATAR_COLORS = ['#e5484d', '#f76b15', '#d6409f', '#8e4ec6', '#3e63dd', '#0090ff', '#12a594', '#30a46c', '#ad7f58', '#6e56cf'];
  function avatar(node, name) {
    node.textContent = initials(name);
    let h = 0;
    for (const c of name || '') h = (h * 31 + c.codePointAt(0)) >>> 0;
    node.style.setProperty('--avatar', AVATAR_COLORS[h % AVATAR_COLORS.length]);
  }
  function chatName(c) { return clean(c.localAlias || c.displayName || c.fullName || c.chatId); }
  // Made on first use: each costs the first page load tens of milliseconds.
  function lazyFormat(options) {
    let f = null;
    return { format: (d) => (f || (f = new Intl.DateTimeFormat(undefined, options))).format(d) };
  }
  const dayFmt = lazyFormat({ weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
  const timeFmt = lazyFormat({ hour: '2-digit', minute: '2-digit' });
  const shortDate = lazyFormat({ year: '2-digit', month: 'numeric', day: 'numeric' });
  const weekday = lazyFormat({ weekday: 'short' });
  function listTime(ts) {
    if (!ts) return '';
    const d = new Date(ts), now = new Date();
    if (d.toDateString() === now.toDateString()) return timeFmt.format(d);
    if (now - d < 6 * 86400000 && now > d) return weekday.format(d);
    return shortDate.format(d);
  }
  function dayKey(ts) { const d = new Date(ts); return d.getFullYear() + '-' + d.getMonth() + '-' + d.getDate(); }
  function fileSize(n) {
    if (n === null || n === undefined) return '';
    // Decimal units, as phones and file managers show a file's size.
    const u = ['B', 'kB', 'MB', 'GB']; let i = 0; let v = n;
    while (v >= 1000 && i < u.length - 1) { v /= 1000; i++; }
    return (i ? v.toFixed(1) : v) + ' ' + u[i];
  }
  const KIND = { image: '🖼 Photo', video: '🎞 Video', voice: '🎤 Voice message', file: '📎 File', link: '🔗', report: '⚑ Report', chat: '', event: '', unknown: '' };

  // ---------- chat list ----------
  const FILTERS = [['all', 'All'], ['unread', 'Unread'], ['favorites', 'Favorites'], ['contacts', 'Contacts'], ['groups', 'Groups'],
    ['business', 'Business'], ['notes', 'Notes'], ['reports', 'Reports']];
  // The tabs' counts, as the archive counts them (not from the rows loaded).
  function counts(doc) {
    return { c: doc, tags: new Map(Object.entries(doc.tags || {})) };
  }
  function renderTabs(info) {
    const nav = $('filter-tabs');
    nav.replaceChildren();
    const tabs = FILTERS.filter(([k]) => k === 'all' || info.c[k] > 0).map(([k, label]) => [k, label, info.c[k]]);
    for (const [t, n] of [...info.tags.entries()].sort()) tabs.push(['tag:' + t, '#' + t, n]);
    for (const [key, label, n] of tabs) {
      const b = el('button', 'tab', label);
      b.type = 'button';
      b.setAttribute('role', 'tab');
      b.setAttribute('aria-selected', String(state.filter === key));
      b.dataset.filter = key;
      b.append(el('span', 'count', Number(n).toLocaleString()));
      b.addEventListener('click', () => { state.filter = key; renderTabs(info); loadChats(); });
      nav.append(b);
    }
  }
  function previewNode(r) {
    const p = el('div', 'row-preview');
    const pv = r.preview || { kind: 'none' };
    if (pv.kind === 'draft') { p.append(el('span', 'draft', 'Draft: '), document.createTextNode(clean(pv.text || ''))); return p; }
    if (pv.kind === 'deleted') {
      if (pv.sender && r.type === 'group') p.append(el('span', 'who', clean(pv.sender) + ': '));
      p.append(el('span', 'placeholder', 'message deleted'));
      return p;
    }
    if (pv.kind === 'none') return p;
    if (pv.sender && (r.type === 'group' || pv.sender === 'me')) p.append(el('span', 'who', (pv.sender === 'me' ? 'You' : clean(pv.sender)) + ': '));
    const kind = KIND[pv.contentType] || '';
    if (kind) p.append(document.createTextNode(kind + ' '));
    const text = clean((pv.text || '').slice(0, 300));
    if (text.trim()) p.append(document.createTextNode(text));
    else if (!kind) p.append(el('span', 'placeholder', pv.contentType === 'unknown' ? 'Unsupported message' : 'Empty message'));
    return p;
  }
  function chatRow(r) {
    const li = el('li');
    li.setAttribute('role', 'listitem');
    const b = el('button', 'chat-row');
    b.type = 'button';
    b.dataset.chat = r.chatId;
    if (state.chat && state.chat.chatId === r.chatId) b.setAttribute('aria-current', 'true');
    const av = el('div', 'avatar'); av.setAttribute('aria-hidden', 'true'); avatar(av, chatName(r));
    const main = el('div', 'row-main');
    const top = el('div', 'row-top');
    const name = el('bdi', 'row-name', chatName(r));
    top.append(name);
    if (r.favorite) { const f = el('span', 'mark-icon fav', '★'); f.setAttribute('aria-label', 'favorite'); top.append(f); }
    if (r.muted) { const m = el('span', 'mark-icon', '🔕'); m.setAttribute('aria-label', 'muted'); top.append(m); }
    top.append(el('span', 'row-time', listTime(r.lastActivity)));
    const bottom = el('div', 'row-bottom');
    bottom.append(previewNode(r));
    if (r.unreadMentions > 0) { const m = el('span', 'badge mention', '@'); m.setAttribute('aria-label', r.unreadMentions + ' mentions'); bottom.append(m); }
    if (r.unreadCount > 0) {
      const u = el('span', 'badge' + (r.muted ? ' muted-badge' : ''), r.unreadCount > 999 ? '999+' : String(r.unreadCount));
      u.setAttribute('aria-label', r.unreadCount + ' unread');
      bottom.append(u);
    }
    main.append(top, bottom);
    b.append(av, main);
    b.setAttribute('aria-label', chatName(r) + (r.unreadCount ? ', ' + r.unreadCount + ' unread' : ''));
    b.addEventListener('click', () => openChat(r, null));
    li.append(b);
    return li;
  }
  // The chats of the current query and tab: rows as pages arrive, a sentinel after the
  // last row while more pages exist. Rows already shown are skipped (the keyset cursor
  // yields each chat once; this also keeps a chat that moved during a live ingest once).
  const chatSentinel = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) moreChats().catch(() => {});
  }, { root: $('chat-list'), rootMargin: '0px 0px 600px 0px' });
  let shownChats = new Set();
  function appendChats(rows, cursor) {
    const list = $('chat-list');
    const old = list.querySelector('.list-end');
    if (old) { chatSentinel.unobserve(old); old.remove(); }
    const frag = document.createDocumentFragment();
    for (const r of rows) {
      if (shownChats.has(r.chatId)) continue;
      shownChats.add(r.chatId);
      state.chats.push(r);
      frag.append(chatRow(r));
    }
    list.append(frag);
    state.chatCursor = cursor || null;
    if (state.chatCursor) {
      // A new sentinel each page: observing it reports at once whether it is near the view.
      const end = el('li', 'list-end');
      end.setAttribute('aria-hidden', 'true');
      list.append(end);
      chatSentinel.observe(end);
    }
  }
  function renderChats(body) {
    const list = $('chat-list');
    for (const n of list.querySelectorAll('.list-end')) chatSentinel.unobserve(n);
    list.replaceChildren();
    shownChats = new Set();
    state.chats = [];
    appendChats(body.chats, body.nextCursor);
    if (!body.chats.length) list.append(el('li', 'empty', state.chatQuery ? 'No chats match.' : 'No chats.'));
  }
  // A new query or tab starts a new sequence: answers of older ones are dropped.
  let chatsSeq = 0, chatsLoadingSeq = -1;
  async function loadChats() {
    const seq = ++chatsSeq;
    // The shown list's cursor belongs to the old query: no more pages of it.
    state.chatCursor = null;
    for (const n of $('chat-list').querySelectorAll('.list-end')) { chatSentinel.unobserve(n); n.remove(); }
    const body = await api('chats', { q: state.chatQuery, filter: state.filter, limit: CHAT_PAGE });
    if (seq !== chatsSeq) return;
    renderChats(body);
  }
  async function moreChats() {
    const seq = chatsSeq, cursor = state.chatCursor;
    if (!cursor || chatsLoadingSeq === seq) return;
    chatsLoadingSeq = seq;
    try {
      const body = await api('chats', { q: state.chatQuery, filter: state.filter, limit: CHAT_PAGE, cursor: cursor });
      if (seq !== chatsSeq || cursor !== state.chatCursor) return;
      appendChats(body.chats, body.nextCursor);
    } finally { if (chatsLoadingSeq === seq) chatsLoadingSeq = -1; }
  }
  async function start() {
    const seq = ++chatsSeq;
    // The list shows as soon as its first page comes; the tabs when their counts do.
    firstCounts.then((c) => { renderTabs(counts(c)); document.body.dataset.tabsShown = 'true'; }).catch(() => {});
    const first = await firstChats;
    performance.mark('chats-arrived');
    if (seq === chatsSeq) renderChats(first);
    window.chatListShownMs = performance.now();
    document.body.dataset.chatListShown = 'true';
    api('stats').then((s) => { $('archive-stats').textContent = count(s.items, 'message'); }).catch(() => {});
  }

  // ---------- message text ----------
  // Appends text[start, end) to parent, with the parts inside state.marks ranges of this item in <mark>.
  function appendMarked(parent, text, start, end, marks) {
    let pos = start;
    for (const [a, b] of marks || []) {
      const s = Math.max(a, pos), e = Math.min(b, end);
      if (s >= e) continue;
      if (s > pos) parent.append(document.createTextNode(text.slice(pos, s)));
      parent.append(el('mark', null, text.slice(s, e)));
      pos = e;
    }
    if (pos < end) parent.append(document.createTextNode(text.slice(pos, end)));
  }
  const COLORS = ['red', 'green', 'blue', 'yellow', 'cyan', 'magenta', 'black', 'white'];
  function formatted(fmt, text, start, end, marks) {
    const shown = text.slice(start, end);
    let node;
    switch (fmt && fmt.type) {
      case 'bold': node = el('strong'); break;
      case 'italic': node = el('em'); break;
      case 'strikeThrough': node = el('s'); break;
      case 'underline': node = el('u'); break;
      case 'small': node = el('small'); break;
      case 'snippet': node = el('code'); break;
      case 'secret':
        node = el('span', 'secret');
        node.setAttribute('role', 'button'); node.setAttribute('tabindex', '0'); node.setAttribute('aria-label', 'hidden text, activate to show');
        node.addEventListener('click', () => node.classList.toggle('revealed'));
        node.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); node.classList.toggle('revealed'); } });
        break;
      case 'colored': node = el('span', COLORS.includes(fmt.color) ? 'c-' + fmt.color : null); break;
      case 'uri': node = link(shown, ''); break;
      case 'hyperLink': node = link(fmt.linkUri, ''); break;
      case 'simplexLink': node = link(fmt.simplexUri, ''); break;
      case 'email': node = link('mailto:' + shown, ''); break;
      case 'phone': node = looksLikePhone(shown) ? link('tel:' + shown.replace(/[^0-9+]/g, ''), '') : el('span'); break;
      case 'mention': node = el('span', 'mention'); break;
      case 'hashtag': node = el('span', 'mention'); break;
      default: node = el('span');
    }
    appendMarked(node, text, start, end, marks);
    return node;
  }
  // SimpleX's parser calls any run of 7 to 22 digits and separators a phone number (dates,
  // times, postal codes too): only an international number (+ and 7 digits or more) or a run of
  // 9 digits or more that is not a date becomes a tel: link; the rest stays text.
  function looksLikePhone(s) {
    const t = s.trim(), digits = t.replace(/\D/g, '').length;
    if (t.startsWith('+')) return digits >= 7;
    if (/^\d{4}[-./]\d{1,2}[-./]\d{1,2}/.test(t) || /^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/.test(t)) return false;
    return digits >= 9;
  }
  function renderText(parent, text, spans, marks, limit) {
    const end = Math.min(text.length, limit);
    let pos = 0;
    for (const sp of spans || []) {
      if (sp.start < pos || sp.start >= end) continue;
      if (sp.start > pos) appendMarked(parent, text, pos, sp.start, marks);
      const e = Math.min(sp.end, end);
      parent.append(formatted(sp.format, text, sp.start, e, marks));
      pos = e;
    }
    if (pos < end) appendMarked(parent, text, pos, end, marks);
  }

  // ---------- chat view ----------
  function mediaNode(item, n, f) {
    const box = el('div');
    const src = '/api/media/' + encodeURIComponent(item.id) + '?n=' + n;
    const card = el('div', 'file');
    card.append(el('span', 'icon', item.contentType === 'image' ? '🖼' : item.contentType === 'video' ? '🎞' : item.contentType === 'voice' ? '🎤' : '📎'));
    const name = el('bdi', null, clean(f.name) || 'file');
    const info = el('span');
    info.append(name);
    if (f.size) info.append(el('span', 'muted', '  ' + fileSize(f.size)));
    if (item.duration) info.append(el('span', 'muted', '  ' + Math.floor(item.duration / 60) + ':' + String(item.duration % 60).padStart(2, '0')));
    card.append(info);
    if (f.path && !/^[a-z]+:/i.test(f.path)) {
      let m = null;
      if (item.contentType === 'image' && n === 0) { m = el('img', 'media'); m.setAttribute('alt', f.name || 'image'); m.setAttribute('loading', 'lazy'); }
      else if (item.contentType === 'video' && n === 0) { m = el('video', 'media'); m.setAttribute('controls', ''); m.setAttribute('preload', 'metadata'); }
      else if (item.contentType === 'voice' && n === 0) { m = el('audio', 'media'); m.setAttribute('controls', ''); m.setAttribute('preload', 'none'); }
      if (m) {
        m.addEventListener('error', () => m.remove());
        m.addEventListener('load', () => card.remove());
        m.setAttribute('src', src);
        box.append(m);
      }
      // A download link only for a file the export holds (asked with HEAD); else say so.
      const status = el('span', 'muted file-status');
      card.append(status);
      fileThere(src).then((there) => {
        if (!there) { status.textContent = 'not in the export'; card.classList.add('missing-file'); return; }
        const dl = el('a', 'muted', 'download');
        dl.setAttribute('href', src);
        dl.setAttribute('download', clean(f.name) || 'file');
        status.replaceWith(dl);
      });
    } else if (f.path) {
      card.append(link(f.path, 'open'));
    }
    box.append(card);
    return box;
  }
  const fileChecks = new Map();
  function fileThere(src) {
    if (!fileChecks.has(src)) {
      fileChecks.set(src, fetch(src, { method: 'HEAD', credentials: 'same-origin' }).then((r) => r.ok).catch(() => false));
    }
    return fileChecks.get(src);
  }
  function itemNode(item, prev) {
    const li = el('li', 'item ' + item.dir);
    li.dataset.id = item.id;
    li.dataset.source = item.sourceId;
    li.setAttribute('role', 'listitem');
    if (item.dir === 'event') {
      li.append(el('span', null, item.text || ''));
      return li;
    }
    const group = state.chat && state.chat.type === 'group';
    const sameSender = prev && prev.dir === item.dir && prev.sender === item.sender && dayKey(prev.ts) === dayKey(item.ts) && prev.dir !== 'event';
    if (!sameSender) li.classList.add('first');
    if (group && item.dir === 'rcv' && !sameSender && item.sender) li.append(el('bdi', 'sender', clean(item.sender)));
    const b = el('div', 'bubble');
    if (item.deleted) b.classList.add('deleted');
    if (item.quote && !item.deleted) {
      // A quote without text (a photo, a sticker) says what it is; one without an id cannot jump.
      const quoted = clean((item.quote.text || '').slice(0, 300));
      const q = el(item.quote.id ? 'button' : 'div', 'quote', quoted.trim() ? quoted : null);
      if (!quoted.trim()) q.append(el('span', 'placeholder', 'Reply to a message without text'));
      if (item.quote.id) {
        q.type = 'button';
        q.setAttribute('aria-label', 'Go to the quoted message');
        q.addEventListener('click', () => jumpToSource(item.quote.id, q));
      }
      b.append(q);
    }
    if (!item.deleted) {
      const files = item.file ? [item.file].concat(item.moreFiles || []) : [];
      files.forEach((f, n) => b.append(mediaNode(item, n, f)));
      if (item.preview && item.preview.uri) {
        const card = el('div', 'preview-card');
        card.append(el('div', 'title', item.preview.title || ''), el('div', 'muted', (item.preview.description || '').slice(0, 300)));
        card.append(link(item.preview.uri, item.preview.uri.slice(0, 200)));
        b.append(card);
      }
    }
    const t = el('span', 'text');
    t.setAttribute('dir', 'auto');
    const hasFiles = !!item.file;
    if (item.deleted) t.textContent = 'message deleted';
    else if (!(item.text || '').trim() && !hasFiles && !(item.preview && item.preview.uri)) {
      t.append(el('span', 'placeholder', item.contentType === 'unknown' ? 'Unsupported message (the export does not show it)' : 'Empty message'));
    }
    else {
      const marks = state.marks && state.marks.id === item.id ? state.marks.ranges : null;
      renderText(t, item.text || '', item.spans, marks, TEXT_LIMIT);
      if ((item.text || '').length > TEXT_LIMIT) {
        const more = el('button', 'more', 'Show all ' + item.text.length.toLocaleString() + ' characters');
        more.type = 'button';
        more.addEventListener('click', () => { t.replaceChildren(); renderText(t, item.text, item.spans, marks, item.text.length); more.remove(); });
        t.after(more);
        b.append(t, more);
      }
    }
    if (!b.contains(t)) b.append(t);
    const meta = el('span', 'meta');
    meta.textContent = (item.edited ? 'edited  ' : '') + timeFmt.format(new Date(item.ts)) +
      (item.dir === 'snd' && item.status ? (item.status === 'read' ? ' ✓✓' : item.status === 'delivered' ? ' ✓✓' : item.status === 'error' ? ' ⚠' : ' ✓') : '');
    meta.setAttribute('title', new Date(item.ts).toLocaleString());
    b.append(meta);
    li.append(b);
    if (item.reactions && item.reactions.length) {
      const rs = el('div', 'reactions');
      for (const r of item.reactions) rs.append(el('span', 'reaction', clean(r.emoji) + ' ' + r.count));
      li.append(rs);
    }
    return li;
  }
  function renderItems(list, items, before, newMarker) {
    // Items with their day separators and the "new messages" marker, as a fragment.
    const frag = document.createDocumentFragment();
    let prev = before;
    for (const it of items) {
      if (!prev || dayKey(prev.ts) !== dayKey(it.ts)) {
        const d = el('li', 'day', dayFmt.format(new Date(it.ts)));
        d.setAttribute('role', 'separator');
        frag.append(d);
      }
      if (newMarker && newMarker.id === it.id) {
        const m = el('li', 'new-marker', newMarker.count + ' new message' + (newMarker.count === 1 ? '' : 's'));
        m.setAttribute('role', 'separator');
        frag.append(m);
      }
      frag.append(itemNode(it, prev));
      prev = it;
    }
    return frag;
  }
  function setHeader(c) {
    $('empty-chat').hidden = true;
    $('chat-header').hidden = false;
    $('messages').hidden = false;
    $('chat-name').textContent = chatName(c);
    avatar($('chat-avatar'), chatName(c));
    $('jump-date').value = '';
    $('chat-sub').textContent = chatKind(c) + (c.itemCount ? ' · ' + count(c.itemCount, 'message') : '');
    for (const b of document.querySelectorAll('.chat-row')) b.setAttribute('aria-current', String(b.dataset.chat === c.chatId));
  }
  const CHAT_KINDS = { direct: 'contact', group: 'group', local: 'notes', contactRequest: 'contact request', contactConnection: 'pending contact' };
  function chatKind(c) { return c.business ? 'business' : (CHAT_KINDS[c.type] || c.type); }
  // Shows a window: `anchor` (an item id) is scrolled into view; else the new-messages marker or the bottom.
  function showWindow(body, anchor, newMarker) {
    state.items = body.items;
    const list = $('item-list');
    list.replaceChildren(renderItems(list, body.items, null, newMarker));
    state.hasBefore = body.items.length > 0;
    state.hasAfter = !!(body.navInfo && body.navInfo.afterTotal > 0);
    $('to-bottom').hidden = !state.hasAfter;
    const box = $('messages');
    requestAnimationFrame(() => {
      let target = anchor ? list.querySelector('[data-id="' + anchor + '"]') : null;
      if (!target && newMarker) target = list.querySelector('.new-marker');
      if (target) {
        target.scrollIntoView({ block: 'center' });
        if (anchor) { target.classList.add('anchor'); setTimeout(() => target.classList.remove('anchor'), 2500); }
      } else box.scrollTop = box.scrollHeight;
      checkEdges();
    });
  }
  // `history`: 'push' (the default) adds the place to the browser's history, 'replace' changes
  // the current entry, 'none' leaves the address (the address itself asked for this chat).
  async function openChat(c, around, marks, history) {
    const seq = ++state.chatSeq;
    const changed = !state.chat || state.chat.chatId !== c.chatId;
    state.chat = c;
    state.marks = marks || null;
    showView('chat');
    setHeader(c);
    if (changed) closeInChatSearch();
    if (changed) closeInfo();
    if (media.open) toggleMedia(false);
    if (history !== 'none') {
      navigate({ q: state.global.query, chat: c.chatId, msg: around }, history === 'replace' || history === true || (!changed && !around));
    }
    let body, marker = null;
    if (around) body = await api('items', { chat: c.chatId, around: around, count: PAGE });
    else {
      body = await api('items', { chat: c.chatId, initial: PAGE });
      const firstUnread = body.items.find((i) => i.unread && !i.deleted);
      if (firstUnread) {
        const inWindow = body.items.filter((i) => i.unread && !i.deleted && i.ts >= firstUnread.ts).length;
        marker = { id: firstUnread.id, count: inWindow + (body.navInfo ? body.navInfo.afterUnread : 0) };
      }
    }
    if (seq !== state.chatSeq) return;
    state.windowSeq++;
    showWindow(body, around, marker);
  }
  // Keeps at most MAX_ITEMS items in the page: after a page is added at one end, items at the
  // other end go (with their separators), and that end can be fetched again.
  function daySeparator(ts) {
    const d = el('li', 'day', dayFmt.format(new Date(ts)));
    d.setAttribute('role', 'separator');
    return d;
  }
  function trimItems(fromTop) {
    const excess = state.items.length - MAX_ITEMS;
    if (excess <= 0) return;
    const list = $('item-list'), box = $('messages');
    if (fromTop) {
      const keep = state.items[excess];
      const anchor = list.querySelector('.item[data-id="' + keep.id + '"]');
      if (!anchor) return;
      const before = anchor.getBoundingClientRect().top;
      while (list.firstElementChild && list.firstElementChild !== anchor) list.firstElementChild.remove();
      list.prepend(daySeparator(keep.ts));
      state.items = state.items.slice(excess);
      state.hasBefore = true;
      box.scrollTop += anchor.getBoundingClientRect().top - before;
    } else {
      const keep = state.items[state.items.length - excess - 1];
      const anchor = list.querySelector('.item[data-id="' + keep.id + '"]');
      if (!anchor) return;
      while (anchor.nextElementSibling) anchor.nextElementSibling.remove();
      state.items = state.items.slice(0, state.items.length - excess);
      state.hasAfter = true;
      $('to-bottom').hidden = false;
    }
  }
  async function loadBefore() {
    if (state.loadingBefore || !state.hasBefore || !state.items.length || !state.chat) return false;
    state.loadingBefore = true;
    const seq = state.windowSeq, chat = state.chat.chatId;
    try {
      const body = await api('items', { chat: chat, before: state.items[0].id, count: PAGE, content: state.inChat.filterWindow || '' });
      if (seq !== state.windowSeq) return false;
      if (body.items.length < PAGE) state.hasBefore = false;
      if (!body.items.length) return false;
      const box = $('messages'), list = $('item-list');
      const oldHeight = box.scrollHeight, oldTop = box.scrollTop;
      // The day separator of the old first item is redrawn if the day continues.
      const firstOld = state.items[0];
      const firstSep = list.firstElementChild;
      if (firstSep && firstSep.classList.contains('day') && dayKey(body.items[body.items.length - 1].ts) === dayKey(firstOld.ts)) firstSep.remove();
      list.prepend(renderItems(list, body.items, null, null));
      state.items = body.items.concat(state.items);
      box.scrollTop = oldTop + (box.scrollHeight - oldHeight);
      trimItems(false);
      return true;
    } finally { state.loadingBefore = false; }
  }
  async function loadAfter() {
    if (state.loadingAfter || !state.hasAfter || !state.items.length || !state.chat) return;
    state.loadingAfter = true;
    const seq = state.windowSeq, chat = state.chat.chatId;
    try {
      const body = await api('items', { chat: chat, after: state.items[state.items.length - 1].id, count: PAGE, content: state.inChat.filterWindow || '' });
      if (seq !== state.windowSeq) return;
      if (body.items.length < PAGE) state.hasAfter = false;
      $('to-bottom').hidden = !state.hasAfter;
      if (!body.items.length) return;
      $('item-list').append(renderItems($('item-list'), body.items, state.items[state.items.length - 1], null));
      state.items = state.items.concat(body.items);
      trimItems(true);
    } finally { state.loadingAfter = false; }
  }
  function checkEdges() {
    const box = $('messages');
    // Only after a page was added: at the top of the chat, re-checking would spin forever.
    if (box.scrollTop < 600) loadBefore().then((added) => { if (added && $('messages').scrollTop < 50) checkEdges(); }).catch(() => {});
    if (box.scrollHeight - box.scrollTop - box.clientHeight < 600) loadAfter().catch(() => {});
  }
  async function jumpToSource(sourceId, button) {
    const loaded = [...document.querySelectorAll('#item-list .item')].find((n) => n.dataset.source === sourceId);
    if (loaded) {
      loaded.scrollIntoView({ block: 'center' });
      loaded.classList.remove('flash'); void loaded.offsetWidth; loaded.classList.add('flash');
      return;
    }
    // Not in the loaded pages: open the window around it, however far back it is.
    const chat = state.chat;
    if (!chat) return;
    try {
      const body = await api('items', { chat: chat.chatId, aroundSource: sourceId, count: PAGE });
      if (state.chat !== chat) return;
      const target = body.items.find((i) => i.sourceId === sourceId);
      state.windowSeq++;
      showWindow(body, target ? target.id : null, null);
    } catch (e) {
      if (button) {
        button.classList.add('missing');
        button.title = 'The quoted message is not in this archive';
        if (!button.querySelector('.quote-missing')) button.append(el('span', 'quote-missing', 'The quoted message was deleted or is not in this archive.'));
      }
    }
  }

  // ---------- shared media ----------
  // The chat's images, videos, files, links and voice messages, newest first, a page at a time
  // (GET /api/chats/ID/media, the CLI's `items --media`); each entry opens its message in context.
  const MEDIA_KINDS = [['image', 'Photos'], ['video', 'Videos'], ['file', 'Files'], ['link', 'Links'], ['voice', 'Voice']];
  const media = { open: false, kind: 'image', cursor: null, seq: 0, loading: false };
  function toggleMedia(open) {
    media.open = open;
    $('media-view').hidden = !open;
    $('messages').hidden = open;
    $('media-button').setAttribute('aria-pressed', String(open));
    if (open) { $('chat-search-bar').hidden = true; $('to-bottom').hidden = true; showMediaKind(media.kind); }
    else if (state.chat) { $('chat-search-bar').hidden = !$('toggle-search').matches('[aria-pressed=true]'); }
  }
  function renderMediaTabs() {
    const box = $('media-tabs');
    box.replaceChildren();
    for (const [kind, label] of MEDIA_KINDS) {
      const b = el('button', 'tab', label);
      b.type = 'button';
      b.setAttribute('role', 'tab');
      b.setAttribute('aria-selected', String(media.kind === kind));
      b.dataset.kind = kind;
      b.addEventListener('click', () => showMediaKind(kind));
      box.append(b);
    }
  }
  async function showMediaKind(kind) {
    media.kind = kind; media.cursor = null;
    const seq = ++media.seq;
    renderMediaTabs();
    const body = $('media-body');
    body.replaceChildren(el('div', 'loading', 'Loading…'));
    const grid = kind === 'image' || kind === 'video';
    const list = el('ul', grid ? 'media-grid' : 'media-list');
    list.setAttribute('role', 'list');
    list.setAttribute('aria-label', MEDIA_KINDS.find((k) => k[0] === kind)[1]);
    await moreMedia(seq, list, true);
  }
  async function moreMedia(seq, list, first) {
    const chat = state.chat;
    if (!chat || media.loading) return;
    media.loading = true;
    try {
      const page = await api('chats/' + encodeURIComponent(chat.chatId) + '/media', { kind: media.kind, limit: 60, cursor: media.cursor });
      if (seq !== media.seq || state.chat !== chat) return;
      media.cursor = page.nextCursor;
      const body = $('media-body');
      if (first) {
        body.replaceChildren(list);
        if (!page.items.length) body.replaceChildren(el('p', 'empty', 'No ' + MEDIA_KINDS.find((k) => k[0] === media.kind)[1].toLowerCase() + ' in this chat.'));
      }
      for (const item of page.items) list.append(media.kind === 'image' || media.kind === 'video' ? mediaTile(item) : mediaRow(item));
      const old = body.querySelector('.media-more');
      if (old) old.remove();
      if (media.cursor) {
        const more = el('button', 'chip media-more', 'More');
        more.type = 'button';
        more.addEventListener('click', () => moreMedia(seq, list, false));
        body.append(more);
      }
    } catch (e) {
      if (seq === media.seq) $('media-body').replaceChildren(el('p', 'empty', 'Cannot load the media: ' + e.message));
    } finally { media.loading = false; }
  }
  function openInContext(item) {
    toggleMedia(false);
    openChat(state.chat, item.id, { id: item.id, ranges: [] }, 'push');
  }
  function mediaDate(item) { return new Date(item.ts).toLocaleDateString(); }
  // A square of the grid: the picture (the export's file through /api/media), or, for a video
  // or a file the export did not hold, an icon that says so.
  function mediaTile(item) {
    const li = el('li');
    const f = item.file || {};
    const b = el('button', 'media-tile');
    b.type = 'button';
    b.dataset.id = item.id;
    const name = clean(f.name) || (item.contentType === 'video' ? 'video' : 'image');
    b.setAttribute('aria-label', name + ', ' + mediaDate(item) + (item.sender ? ', ' + clean(item.sender) : '') + ': open in the chat');
    b.title = name;
    const icon = el('span', 'tile-icon', item.contentType === 'video' ? '🎞' : '🖼');
    icon.setAttribute('aria-hidden', 'true');
    const label = el('bdi', 'tile-label', name);
    const src = '/api/media/' + encodeURIComponent(item.id) + '?n=0';
    const missing = () => { b.classList.add('missing-file'); label.textContent = 'not in the export · ' + name; };
    if (!f.path || /^[a-z]+:/i.test(f.path)) missing();
    else if (item.contentType === 'image') {
      const img = el('img');
      img.setAttribute('alt', '');
      img.setAttribute('loading', 'lazy');
      img.addEventListener('load', () => { icon.remove(); b.classList.add('shown'); });
      img.addEventListener('error', () => { img.remove(); missing(); });
      img.setAttribute('src', src);
      b.append(img);
    } else fileThere(src).then((there) => { if (!there) missing(); });
    b.append(icon, label);
    b.addEventListener('click', () => openInContext(item));
    li.append(b);
    return li;
  }
  // The first link of an item: a preview card's, a hidden link's target, or a link in the text.
  function firstLink(item) {
    if (item.preview && item.preview.uri) return item.preview.uri;
    for (const sp of item.spans || []) {
      const f = sp.format || {};
      if (f.type === 'hyperLink') return f.linkUri;
      if (f.type === 'uri') return (item.text || '').slice(sp.start, sp.end);
    }
    return null;
  }
  // A line of the files, links or voice messages: what it is, who sent it and when; the row
  // opens the message in context, a link opens in a new tab.
  function mediaRow(item) {
    const li = el('li');
    const b = el('button', 'media-row');
    b.type = 'button';
    b.dataset.id = item.id;
    const f = item.file || {};
    const main = el('span', 'row-main');
    const when = mediaDate(item) + (item.sender ? ' · ' + clean(item.sender) : '');
    let title, icon;
    if (media.kind === 'link') {
      icon = '🔗';
      title = clean((item.preview && item.preview.title) || (item.text || '').slice(0, 200)) || firstLink(item) || 'link';
    } else if (media.kind === 'voice') {
      icon = '🎤';
      title = 'Voice message' + (item.duration ? ' · ' + Math.floor(item.duration / 60) + ':' + String(item.duration % 60).padStart(2, '0') : '');
    } else {
      icon = '📎';
      title = (clean(f.name) || 'file') + (f.size ? '  ' + fileSize(f.size) : '');
    }
    const ic = el('span', 'icon', icon);
    ic.setAttribute('aria-hidden', 'true');
    const name = el('bdi', 'media-name', title);
    name.setAttribute('dir', 'auto');
    const sub = el('span', 'muted', when);
    main.append(name, sub);
    b.append(ic, main);
    b.setAttribute('aria-label', title + ', ' + when + ': open in the chat');
    b.addEventListener('click', () => openInContext(item));
    li.append(b);
    if (media.kind === 'link') {
      const href = firstLink(item);
      if (href) { const a = link(href, href.slice(0, 200)); a.classList.add('media-url'); li.append(a); }
    } else if (media.kind !== 'voice' && f.path && !/^[a-z]+:/i.test(f.path)) {
      const src = '/api/media/' + encodeURIComponent(item.id) + '?n=0';
      fileThere(src).then((there) => { if (!there) { b.classList.add('missing-file'); sub.textContent = when + ' · not in the export'; } });
    } else if (media.kind !== 'voice' && !f.path) {
      b.classList.add('missing-file'); sub.textContent = when + ' · not in the export';
    }
    return li;
  }

  // ---------- in-chat search ----------
  const CONTENT = ['text', 'link', 'image', 'video', 'voice', 'file', 'report'];
  // The content chips of global search: one kind at a time, the search runs again.
  function renderGlobalChips() {
    const box = $('global-chips');
    box.replaceChildren();
    for (const c of CONTENT) {
      const b = el('button', 'chip', c);
      b.type = 'button';
      b.setAttribute('aria-pressed', String(state.global.content === c));
      b.addEventListener('click', () => {
        state.global.content = state.global.content === c ? null : c;
        renderGlobalChips();
        runGlobalSearch(true).catch(() => {});
      });
      box.append(b);
    }
  }
  function renderChips() {
    const box = $('content-chips');
    box.replaceChildren();
    for (const c of CONTENT) {
      const b = el('button', 'chip', c);
      b.type = 'button';
      b.setAttribute('aria-pressed', String(state.inChat.content === c));
      b.addEventListener('click', () => { state.inChat.content = state.inChat.content === c ? null : c; renderChips(); runInChatSearch(); });
      box.append(b);
    }
  }
  // Closing the bar ends its filter too: a chat left filtered would look like the whole chat.
  function closeInChatSearch() {
    const filtered = !!(state.inChat.filterWindow || state.inChat.query || state.inChat.content);
    inChatSeq++;
    state.inChat = { query: '', content: null, hits: [], index: -1, cursor: null, count: null };
    $('in-chat-search').value = '';
    $('hit-position').textContent = '';
    $('chat-search-bar').hidden = true;    $('chat-histogram').hidden = true;
    $('chat-histogram').replaceChildren();

    $('toggle-search').setAttribute('aria-pressed', 'false');
    renderChips();
    return filtered;
  }
  let inChatSeq = 0;
  async function runInChatSearch() {
    const q = $('in-chat-search').value.trim();
    state.inChat.query = q;
    const seq = ++inChatSeq;
    state.inChat.filterWindow = null;
    if (!q) { $('chat-histogram').hidden = true; $('chat-histogram').replaceChildren(); }
    else showChatHistogram(seq, state.chat).catch(() => {});
    if (!q && !state.inChat.content) { $('hit-position').textContent = ''; state.inChat.hits = []; return; }
    if (!q) {
      // A content filter alone: the chat shows only those items.
      state.inChat.filterWindow = state.inChat.content;
      const body = await api('items', { chat: state.chat.chatId, last: PAGE, content: state.inChat.content });
      if (seq !== inChatSeq) return;
      state.marks = null; state.windowSeq++;
      showWindow(body, null, null);
      state.hasAfter = false;
      $('hit-position').textContent = body.items.length + (body.items.length >= PAGE ? '+' : '') + ' ' + state.inChat.content;
      return;
    }
    // A page of hits and how many match in all ("k of N"; the archive counts up to 1,000);
    // stepping past the page loads the next one.
    const body = await api('search', { q: q, chat: state.chat.chatId, content: state.inChat.content, limit: IN_CHAT_PAGE, count: 'true' });
    if (seq !== inChatSeq) return;
    state.inChat.hits = body.hits;
    state.inChat.cursor = body.nextCursor;
    state.inChat.count = body.count || null;
    state.inChat.index = body.hits.length ? 0 : -1;
    showInChatHit();
  }
  const IN_CHAT_PAGE = 50;
  function showInChatHit() {
    const h = state.inChat.hits, i = state.inChat.index, c = state.inChat.count;
    const total = c ? c.total.toLocaleString() + (c.exact ? '' : '+') : h.length + (state.inChat.cursor ? '+' : '');
    $('hit-position').textContent = h.length ? (i + 1).toLocaleString() + ' of ' + total : 'no matches';
    if (i >= 0) openChat(state.chat, h[i].id, { id: h[i].id, ranges: h[i].ranges }, 'replace');
  }
  async function stepInChat(d) {
    if (!state.inChat.hits.length) return;
    const seq = inChatSeq;
    if (state.inChat.index + d >= state.inChat.hits.length && state.inChat.cursor) {
      // One request for the next page, however many steps wait for it.
      if (!state.inChat.loading) state.inChat.loading = moreInChatHits(seq).finally(() => { state.inChat.loading = null; });
      await state.inChat.loading;
      if (seq !== inChatSeq) return;
    }
    state.inChat.index = Math.min(state.inChat.hits.length - 1, Math.max(0, state.inChat.index + d));
    showInChatHit();
  }
  async function moreInChatHits(seq) {
    const body = await api('search', { q: state.inChat.query, chat: state.chat.chatId, content: state.inChat.content, limit: IN_CHAT_PAGE, cursor: state.inChat.cursor });
    if (seq !== inChatSeq) return;
    state.inChat.hits = state.inChat.hits.concat(body.hits);
    state.inChat.cursor = body.nextCursor;
  }

  // ---------- search across chats ----------
  function hitText(h) {
    // A bounded excerpt around the first match, with every match inside it marked.
    const text = h.text || '';
    const first = h.ranges && h.ranges.length ? h.ranges[0][0] : 0;
    const from = Math.max(0, first - 60), to = Math.min(text.length, Math.max(first + 200, 240));
    const box = el('div', 'hit-text');
    box.setAttribute('dir', 'auto');
    if (from > 0) box.append(document.createTextNode('…'));
    appendMarked(box, text, from, to, h.ranges);
    if (to < text.length) box.append(document.createTextNode('…'));
    return box;
  }
  // Rows of the chats hits are in, looked up by id whatever their place in the list.
  const hitChats = new Map();
  function lookupIds(ids) { return ids.map((id) => id.replace(/[\\,]/g, '\\$&')).join(','); }
  async function lookupChats(ids) {
    const missing = [...new Set(ids)].filter((id) => !hitChats.has(id));
    for (let k = 0; k < missing.length; k += 200) {
      const body = await api('chats', { ids: lookupIds(missing.slice(k, k + 200)) });
      for (const r of body.chats) hitChats.set(r.chatId, r);
    }
  }
  function hitNode(h, k) {
    const li = el('li', 'hit');
    li.setAttribute('role', 'option');
    li.setAttribute('aria-selected', String(k === state.global.selected));
    li.dataset.index = k;
    const top = el('div', 'hit-top');
    const toggle = el('button', 'hit-context-toggle', 'Context');
    toggle.type = 'button';
    toggle.setAttribute('aria-expanded', 'false');
    toggle.setAttribute('aria-label', 'Show the messages before and after this one');
    toggle.addEventListener('click', (e) => { e.stopPropagation(); toggleHitContext(h, li, toggle); });
    toggle.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') e.stopPropagation(); });
    top.append(el('bdi', 'hit-chat', hitChats.has(h.chatId) ? chatName(hitChats.get(h.chatId)) : h.chatId), el('bdi', 'hit-sender', clean(h.sender || '')),
      el('span', 'hit-time', listTime(h.ts)), toggle);
    li.append(top, hitText(h));
    li.addEventListener('click', () => openHit(k));
    return li;
  }
  // A few messages before and after a hit, under it, without leaving the results (the window
  // around it, GET /api/items?around=); the toggle hides them again.
  const CONTEXT_COUNT = 2;
  async function toggleHitContext(h, li, toggle) {
    const shown = li.querySelector('.hit-context');
    if (shown) { shown.remove(); toggle.setAttribute('aria-expanded', 'false'); return; }
    toggle.setAttribute('aria-expanded', 'true');
    const box = el('ol', 'hit-context');
    box.id = 'hit-context-' + h.id;
    box.setAttribute('aria-label', 'Messages around this one');
    toggle.setAttribute('aria-controls', box.id);
    box.append(el('li', 'loading', 'Loading…'));
    li.append(box);
    try {
      const body = await api('items', { chat: h.chatId, around: h.id, count: CONTEXT_COUNT });
      box.replaceChildren();
      for (const it of body.items) {
        const row = el('li', it.id === h.id ? 'ctx-hit' : null);
        row.setAttribute('dir', 'auto');
        row.append(el('bdi', 'ctx-who', (it.dir === 'snd' ? 'You' : clean(it.sender || '')) + ' · ' + timeFmt.format(new Date(it.ts))));
        const raw = (it.text || '').slice(0, 300), text = it.id === h.id ? raw : clean(raw);
        if (it.deleted) row.append(el('span', 'placeholder', 'message deleted'));
        else if (text.trim()) appendMarked(row, text, 0, text.length, it.id === h.id ? h.ranges : null);
        else row.append(el('span', 'placeholder', (KIND[it.contentType] || '').trim() || 'Empty message'));
        box.append(row);
      }
    } catch (e) {
      box.replaceChildren(el('li', 'placeholder', 'Cannot load the context: ' + e.message));
    }
  }
  async function openHit(k) {
    const h = state.global.hits[k];
    if (!h) return;
    selectHit(k);
    if (!hitChats.has(h.chatId)) await lookupChats([h.chatId]).catch(() => {});
    const c = hitChats.get(h.chatId) || state.chats.find((x) => x.chatId === h.chatId) ||
      { chatId: h.chatId, displayName: h.chatId, type: 'group' };
    openChat(c, h.id, { id: h.id, ranges: h.ranges }, 'push');
  }
  function selectHit(k) {
    state.global.selected = k;
    for (const n of $('hit-list').children) n.setAttribute('aria-selected', String(Number(n.dataset.index) === k));
    const node = $('hit-list').querySelector('[data-index="' + k + '"]');
    if (node) node.scrollIntoView({ block: 'nearest' });
  }
  // The main pane shows one of: nothing chosen, the search's results, a chat.
  function showView(view) {
    state.view = view;
    $('search-results').hidden = view !== 'results';
    const chat = view === 'chat';
    $('empty-chat').hidden = view !== 'none';
    $('chat-header').hidden = !chat;
    $('messages').hidden = !chat;
    if (!chat) { $('chat-search-bar').hidden = true; $('to-bottom').hidden = true; $('media-view').hidden = true; media.open = false; }
    else if (media.open) $('messages').hidden = true;
    document.body.classList.toggle('chat-open', view !== 'none');
  }
  // The address names the place: `?q=` a search, `?chat=` a chat, `&msg=` a message in it, so
  // that reload, Back and a bookmark return to it.
  let applyingAddress = false;
  function addressOf(place) {
    const p = new URLSearchParams();
    const here = new URLSearchParams(location.search);
    for (const k of ['pageSize', 'maxItems']) if (here.get(k)) p.set(k, here.get(k));
    if (place.q) p.set('q', place.q);
    if (place.chat) p.set('chat', place.chat);
    if (place.msg) p.set('msg', String(place.msg));
    const s = p.toString();
    return location.pathname + (s ? '?' + s : '');
  }
  function navigate(place, replace) {
    if (applyingAddress) return;
    const to = addressOf(place);
    if (to === location.pathname + location.search) return;
    if (replace) history.replaceState(place, '', to); else history.pushState(place, '', to);
  }
  async function applyAddress() {
    const p = new URLSearchParams(location.search);
    const q = p.get('q') || '', chat = p.get('chat'), msg = Number(p.get('msg')) || null;
    applyingAddress = true;
    try {
      if ($('global-search').value.trim() !== q) $('global-search').value = q;
      if (q !== state.global.query) await runGlobalSearch(true);
      if (chat) {
        if (!hitChats.has(chat)) await lookupChats([chat]).catch(() => {});
        const c = hitChats.get(chat) || state.chats.find((x) => x.chatId === chat);
        if (!c) { showNotice('This address names a chat that is not in the archive.'); showView(q ? 'results' : 'none'); return; }
        if (!state.chat || state.chat.chatId !== chat || msg || state.view !== 'chat') {
          await openChat(c, msg, msg ? { id: msg, ranges: [] } : null, 'none');
        }
      } else {
        state.chat = null;
        for (const b of document.querySelectorAll('.chat-row')) b.setAttribute('aria-current', 'false');
        showView(q ? 'results' : 'none');
      }
    } finally { applyingAddress = false; }
  }
  async function runGlobalSearch(fromAddress) {
    const q = $('global-search').value.trim();
    const g = state.global;
    const had = g.query;
    g.query = q; g.hits = []; g.cursor = null; g.selected = -1;
    const seq = ++g.seq;
    $('hit-list').replaceChildren();
    if (fromAddress !== true) {
      // Typing refines one history entry; starting or clearing a search is a step of its own.
      const place = !q && state.view === 'chat' && state.chat ? { chat: state.chat.chatId } : { q: q };
      navigate(place, !!had === !!q);
      if (q || state.view === 'results') { state.chat = null; showView(q ? 'results' : 'none'); }
    }
    if (!q) { $('global-histogram').hidden = true; $('global-histogram').replaceChildren(); return; }
    showGlobalHistogram(seq).catch(() => {});
    $('search-summary').textContent = 'Searching…';
    await moreHits(seq);
  }
  // "N messages in K chats", and the chats with the most of the loaded hits.
  function summarise() {
    const g = state.global, box = $('search-summary');
    box.replaceChildren();
    if (!g.hits.length) { box.textContent = 'No messages match.'; return; }
    const per = new Map();
    for (const h of g.hits) per.set(h.chatId, (per.get(h.chatId) || 0) + 1);
    box.append(el('strong', null, (g.cursor ? g.hits.length + '+ messages' : count(g.hits.length, 'message')) +
      ' in ' + (g.cursor ? per.size + '+ chats' : count(per.size, 'chat'))));
    const top = [...per.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6);
    const chips = el('span', 'per-chat');
    for (const [id, n] of top) {
      const c = hitChats.get(id);
      const chip = el('bdi', 'per-chat-name', c ? chatName(c) : id);
      chips.append(chip, el('span', 'muted', ' ' + n + (g.cursor ? '+' : '') + '  '));
    }
    box.append(chips);
  }
  async function moreHits(seq) {
    const g = state.global;
    if (g.loading) return;
    g.loading = true;
    try {
      const body = await api('search', { q: g.query, limit: 50, cursor: g.cursor, content: g.content });
      if (seq !== g.seq) return;
      // Hits name their chats; without the names (a failed lookup) they show the ids.
      await lookupChats(body.hits.map((h) => h.chatId)).catch(() => {});
      if (seq !== g.seq) return;
      const start = g.hits.length;
      g.hits = g.hits.concat(body.hits);
      g.cursor = body.nextCursor;
      const frag = document.createDocumentFragment();
      body.hits.forEach((h, i) => frag.append(hitNode(h, start + i)));
      $('hit-list').append(frag);
      summarise();
    } finally { g.loading = false; }
  }

  // ---------- histograms ----------
  // The query with its after:/before: replaced by one period's bounds: UTC days, `before:`
  // exclusive, as the period's own bounds are.
  function withPeriod(q, b) {
    const rest = q.replace(/(^|\s)-?(after|before):("[^"]*"|\S*)/gi, ' ').replace(/\s+/g, ' ').trim();
    return (rest ? rest + ' ' : '') + 'after:' + b.start.slice(0, 10) + ' before:' + b.end.slice(0, 10);
  }
  const monthFmt = lazyFormat({ year: 'numeric', month: 'short', timeZone: 'UTC' });
  const weekFmt = lazyFormat({ year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
  function periodLabel(doc, b) {
    const d = new Date(b.start);
    return doc.period === 'week' ? 'week of ' + weekFmt.format(d) : monthFmt.format(d);
  }
  // The bars of a `/api/histogram` document, each a button titled with its period and count;
  // an estimated count is drawn hatched and reads "about". `pick(bucket)` runs on a click.
  function renderHistogram(box, doc, pick) {
    box.replaceChildren();
    const buckets = doc.buckets || [];
    box.hidden = !buckets.length;
    if (!buckets.length) return;
    const most = Math.max(1, ...buckets.map((b) => b.count));
    box.append(el('div', 'histogram-caption muted', (doc.exact ? '' : 'about ') + count(doc.total, 'message') + ' · per ' +
      doc.period + ' (UTC)' + (doc.exact ? '' : ' · hatched bars are estimates')));
    const bars = el('div', 'period-bars');
    bars.setAttribute('role', 'group');
    bars.setAttribute('aria-label', 'Messages per ' + doc.period + '; a bar narrows to its ' + doc.period);
    for (const b of buckets) {
      const label = periodLabel(doc, b) + ': ' + (b.exact ? '' : 'about ') + count(b.count, 'message');
      const bar = el('button', 'period-bar' + (b.exact ? '' : ' estimate'));
      bar.type = 'button';
      bar.title = label;
      bar.setAttribute('aria-label', label);
      bar.dataset.start = b.start;
      bar.dataset.count = String(b.count);
      const fill = el('span', 'fill');
      fill.style.setProperty('--h', (b.count ? Math.max(4, Math.round(b.count / most * 100)) : 0) + '%');
      bar.append(fill);
      bar.addEventListener('click', () => pick(b));
      bars.append(bar);
    }
    const axis = el('div', 'axis muted');
    axis.append(el('span', null, periodLabel(doc, buckets[0])), el('span', null, periodLabel(doc, buckets[buckets.length - 1])));
    box.append(bars, axis);
  }
  // A search's histogram per month, or per week when its matches span three months or fewer.
  async function histogramOf(params) {
    const doc = await api('histogram', Object.assign({ period: 'month' }, params));
    if (doc.buckets.length > 0 && doc.buckets.length <= 3) return api('histogram', Object.assign({}, params, { period: 'week' }));
    return doc;
  }
  async function showGlobalHistogram(seq) {
    const g = state.global, box = $('global-histogram');
    const doc = await histogramOf({ q: g.query, content: g.content }).catch(() => null);
    if (seq !== g.seq) return;
    if (!doc) { box.hidden = true; return; }
    renderHistogram(box, doc, (b) => {
      const q = withPeriod(g.query, b);
      $('global-search').value = q;
      navigate({ q: q }, false);
      runGlobalSearch().catch(() => {});
    });
  }
  async function showChatHistogram(seq, chat) {
    const box = $('chat-histogram');
    const doc = await histogramOf({ q: state.inChat.query, chat: chat.chatId, content: state.inChat.content }).catch(() => null);
    if (seq !== inChatSeq || state.chat !== chat) return;
    if (!doc) { box.hidden = true; return; }
    renderHistogram(box, doc, (b) => {
      $('in-chat-search').value = withPeriod(state.inChat.query, b);
      runInChatSearch().catch(() => {});
    });
  }

  // ---------- chat info ----------
  let infoSeq = 0;
  async function openInfo() {
    const c = state.chat;
    if (!c) return;
    const seq = ++infoSeq;
    $('chat-info').hidden = false;
    $('info-button').setAttribute('aria-expanded', 'true');
    $('info-name').textContent = chatName(c);
    const facts = $('info-facts');
    facts.replaceChildren();
    const fact = (label, value) => facts.append(el('dt', null, label), el('dd', null, value));
    const box = $('info-histogram');
    box.hidden = false;
    box.replaceChildren(el('span', 'muted', 'Loading…'));
    const [members, first, last, doc] = await Promise.all([
      api('members', { chat: c.chatId, limit: 1000 }).catch(() => null),
      api('items', { chat: c.chatId, at: '1970-01-01', count: 0 }).catch(() => null),
      api('items', { chat: c.chatId, last: 1 }).catch(() => null),
      api('histogram', { chat: c.chatId, period: 'month' }).catch(() => null)]);
    if (seq !== infoSeq || state.chat !== c) return;
    fact('Type', chatKind(c));
    const people = members && members.members;
    if (people) fact('Members', people.length >= 1000 ? '1,000+' : people.length.toLocaleString());
    fact('Messages', (c.itemCount || 0).toLocaleString());
    if (first && first.items.length) fact('First message', dayFmt.format(new Date(first.items[0].ts)));
    if (last && last.items.length) fact('Last message', dayFmt.format(new Date(last.items[last.items.length - 1].ts)));
    if (!doc) { box.replaceChildren(el('span', 'muted', 'The activity could not be loaded.')); return; }
    renderHistogram(box, doc, (b) => {
      closeInfo();
      const day = b.start.slice(0, 10);
      $('jump-date').value = day;
      jumpToDate(day).catch(() => {});
    });
  }
  function closeInfo() {
    infoSeq++;
    $('chat-info').hidden = true;
    $('info-button').setAttribute('aria-expanded', 'false');
  }
  // Opens the chat around its first item at or after a day (YYYY-MM-DD); a failed answer
  // leaves the chat as it was.
  let jumpSeq = 0;
  async function jumpToDate(v) {
    const chat = state.chat;
    if (!chat || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return;
    const year = Number(v.slice(0, 4));
    if (year < 1970 || year > 2200 || isNaN(new Date(v + 'T00:00:00Z'))) return;
    const seq = ++jumpSeq;
    try {
      const body = await api('items', { chat: chat.chatId, at: v, count: PAGE });
      if (seq !== jumpSeq || state.chat !== chat) return;
      state.marks = null; state.windowSeq++;
      const first = body.items.find((i) => i.ts >= v) || body.items[body.items.length - 1];
      showWindow(body, first ? first.id : null, null);
    } catch (e) { /* a date the archive cannot read: nothing to show */ }
  }

  // ---------- wiring ----------
  function wire() {
    $('chat-search').addEventListener('input', debounce(() => { state.chatQuery = $('chat-search').value.trim(); loadChats(); }, 60));
    $('global-search').addEventListener('input', debounce(runGlobalSearch, 120));
    $('global-search').addEventListener('input', debounce(() => { updateSuggestions().catch(() => {}); }, 80));
    $('global-search').addEventListener('blur', () => setTimeout(() => {
      if (!$('suggest').contains(document.activeElement)) closeSuggest();
    }, 150));
    $('global-search').addEventListener('keydown', (e) => {
      if ($('suggest').hidden || !suggest.items.length) return;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') { e.preventDefault(); e.stopPropagation(); moveSuggestion(e.key === 'ArrowDown' ? 1 : -1); }
      else if ((e.key === 'Enter' || e.key === 'Tab') && suggest.index >= 0 && !suggest.items[suggest.index].date) { e.preventDefault(); e.stopPropagation(); takeSuggestion(suggest.index); }
      else if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); closeSuggest(); }
    });
    $('search-results').addEventListener('scroll', () => {
      const s = $('search-results');
      if (state.global.cursor && s.scrollHeight - s.scrollTop - s.clientHeight < 400) moreHits(state.global.seq);
    });
    $('messages').addEventListener('scroll', () => {
      checkEdges();
      const box = $('messages');
      $('to-bottom').hidden = !state.hasAfter && box.scrollHeight - box.scrollTop - box.clientHeight < 200;
    });
    $('to-bottom').addEventListener('click', () => { state.marks = null; openChatAtEnd(); });
    $('toggle-search').addEventListener('click', () => {
      const bar = $('chat-search-bar');
      if (bar.hidden) { bar.hidden = false; $('toggle-search').setAttribute('aria-pressed', 'true'); $('in-chat-search').focus(); }
      else { closeInChatSearch(); if (state.chat) openChat(state.chat, null, null, true); }
    });
    $('media-button').addEventListener('click', () => toggleMedia(!media.open));
    $('in-chat-search').addEventListener('input', debounce(runInChatSearch, 120));
    $('in-chat-search').addEventListener('keydown', (e) => {
      if (e.key === 'Enter') { e.preventDefault(); stepInChat(e.shiftKey ? -1 : 1).catch(() => {}); }
    });
    $('hit-prev').addEventListener('click', () => stepInChat(1).catch(() => {}));
    $('hit-next').addEventListener('click', () => stepInChat(-1).catch(() => {}));
    $('jump-date-button').addEventListener('click', () => {
      const input = $('jump-date');
      try { input.showPicker(); } catch (e) { input.focus(); }
    });
    // Typing a year sends a change per digit: only a whole, plausible date is asked for, once
    // the typing pauses, and a failed answer leaves the chat as it was.
    const jump = debounce(() => { jumpToDate($('jump-date').value).catch(() => {}); }, 450);
    $('info-button').addEventListener('click', () => { if ($('chat-info').hidden) openInfo().catch(() => {}); else closeInfo(); });
    $('chat-title').addEventListener('click', () => { openInfo().catch(() => {}); });
    $('chat-title').addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); openInfo().catch(() => {}); } });
    $('info-close').addEventListener('click', closeInfo);
    $('jump-date').addEventListener('change', jump);
    $('back').addEventListener('click', () => {
      if (state.global.query) { state.chat = null; showView('results'); navigate({ q: state.global.query }, false); }
      else { state.chat = null; showView('none'); navigate({}, false); }
    });
    $('results-back').addEventListener('click', () => { state.chat = null; showView('none'); });
    window.addEventListener('popstate', () => { applyAddress().catch(() => {}); });
    $('help-button').addEventListener('click', () => toggleHelp($('help').hidden));
    // A wheel over the tab row scrolls it sideways (the row is one line of tabs).
    $('filter-tabs').addEventListener('wheel', (e) => {
      const nav = $('filter-tabs');
      if (Math.abs(e.deltaY) > Math.abs(e.deltaX) && nav.scrollWidth > nav.clientWidth) { nav.scrollLeft += e.deltaY; e.preventDefault(); }
    }, { passive: false });
    document.addEventListener('keydown', (e) => {
      const t = e.target;
      const typing = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement;
      if (e.key === '/' && !typing) { e.preventDefault(); $('global-search').focus(); $('global-search').select(); return; }
      if (e.key === 'Escape') {
        if (t instanceof HTMLInputElement && t.type === 'search' && t.value) {
          t.value = ''; t.dispatchEvent(new Event('input'));
        } else if (!$('chat-search-bar').hidden) {
          if (closeInChatSearch() && state.chat) { state.marks = null; openChat(state.chat, null, null, true); }
        } else if (media.open) { toggleMedia(false); $('media-button').focus();
        } else if ($('help') && !$('help').hidden) { toggleHelp(false); }
        else if (!$('chat-info').hidden) { closeInfo(); }
        return;
      }
      // A focused button (a histogram's bar, a chat row) takes Enter and Space itself.
      if (t instanceof HTMLButtonElement && (e.key === 'Enter' || e.key === ' ')) return;
      const g = state.global;
      if (e.key === 'Enter' && t === $('global-search') && t.value.trim() && (!g.hits.length || g.query !== t.value.trim())) {
        // Enter before the results came: search now, then open the first.
        e.preventDefault();
        runGlobalSearch().then(() => { if (state.global.hits.length) openHit(0); }).catch(() => {});
        return;
      }
      if (g.query && g.hits.length && (t === $('global-search') || !typing)) {
        if (e.key === 'ArrowDown') { e.preventDefault(); selectHit(Math.min(g.hits.length - 1, g.selected + 1)); if (g.selected > g.hits.length - 10 && g.cursor) moreHits(g.seq); }
        else if (e.key === 'ArrowUp') { e.preventDefault(); selectHit(Math.max(0, g.selected - 1)); }
        else if (e.key === 'Enter') { e.preventDefault(); openHit(Math.max(0, g.selected)); }
        return;
      }
      if (e.key === 'Enter' && t === $('chat-search')) {
        const first = $('chat-list').querySelector('.chat-row');
        if (first) { e.preventDefault(); first.click(); }
        return;
      }
      if (!typing && (e.key === 'ArrowDown' || e.key === 'ArrowUp') && t && t.classList && t.classList.contains('chat-row')) {
        e.preventDefault();
        const li = t.parentElement;
        const next = e.key === 'ArrowDown' ? li.nextElementSibling : li.previousElementSibling;
        if (next && next.firstElementChild) next.firstElementChild.focus();
        else if (e.key === 'ArrowDown') moreChats().catch(() => {});
      }
    });
  }
  // ---------- operator autocomplete ----------
  // As the word before the caret becomes `from:`, `mentions:`, `in:`, `has:`, `before:` or
  // `after:`, a list under the search field offers its values: members (ranked by the archive's
  // mention autocomplete, of every chat or of the chat named by `in:`), chats, content kinds, a
  // calendar. ↑ ↓ choose, Enter or Tab takes one, Esc closes.
  const HAS = ['image', 'video', 'voice', 'file', 'link'];
  const suggest = { items: [], index: -1, seq: 0, token: null };
  function operatorAtCaret(input) {
    const before = input.value.slice(0, input.selectionStart === null ? input.value.length : input.selectionStart);
    const m = /(^|\s)(-?)(from|mentions|in|has|before|after):("?)([^"]*?)$/i.exec(before);
    if (!m || (!m[4] && /\s/.test(m[5]))) return null;
    // The operator's whole word (`from:"Bob M`) is replaced by the choice (`from:"Bob M"`).
    return { key: m[3].toLowerCase(), value: m[5], start: before.length - m[5].length - m[4].length - m[3].length - 1, end: before.length };
  }
  function quoted(v) { return /[\s"]/.test(v) || v === '' ? '"' + v.replace(/"/g, '') + '"' : v; }
  function closeSuggest() { $('suggest').hidden = true; $('suggest').replaceChildren(); suggest.items = []; suggest.index = -1; suggest.token = null; }
  function takeSuggestion(k) {
    const input = $('global-search'), s = suggest.items[k], tok = suggest.token;
    if (!s || !tok) return;
    const v = input.value;
    input.value = v.slice(0, tok.start) + s.insert + ' ' + v.slice(tok.end).replace(/^\S*\s?/, '');
    const caret = tok.start + s.insert.length + 1;
    input.setSelectionRange(caret, caret);
    closeSuggest();
    input.focus();
    input.dispatchEvent(new Event('input'));
  }
  function showSuggestions(rows, tok) {
    const list = $('suggest');
    suggest.items = rows; suggest.index = rows.length ? 0 : -1; suggest.token = tok;
    list.replaceChildren();
    rows.forEach((r, k) => {
      const li = el('li', 'suggestion');
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', String(k === 0));
      li.dataset.index = k;
      if (r.date) {
        // The calendar: a date field whose choice becomes the operator's value.
        li.append(el('span', null, r.label + ' '));
        const d = el('input', 'suggest-date');
        d.type = 'date';
        d.setAttribute('aria-label', r.label);
        d.addEventListener('change', () => { if (/^\d{4}-\d{2}-\d{2}$/.test(d.value)) { r.insert = tok.key + ':' + d.value; takeSuggestion(k); } });
        li.append(d);
      } else {
        li.append(el('bdi', 'suggest-value', r.label));
        if (r.note) li.append(el('span', 'muted', '  ' + r.note));
        li.addEventListener('mousedown', (e) => { e.preventDefault(); takeSuggestion(k); });
      }
      list.append(li);
    });
    list.hidden = !rows.length;
  }
  function moveSuggestion(d) {
    const n = suggest.items.length;
    if (!n) return;
    suggest.index = (suggest.index + d + n) % n;
    for (const li of $('suggest').children) li.setAttribute('aria-selected', String(Number(li.dataset.index) === suggest.index));
  }
  async function updateSuggestions() {
    const input = $('global-search');
    const tok = operatorAtCaret(input);
    const seq = ++suggest.seq;
    if (!tok) { closeSuggest(); return; }
    let rows = [];
    const v = tok.value.toLowerCase();
    if (tok.key === 'has') {
      rows = HAS.filter((h) => h.startsWith(v)).map((h) => ({ label: h, insert: 'has:' + h }));
    } else if (tok.key === 'before' || tok.key === 'after') {
      rows = [{ label: tok.key === 'before' ? 'Sent before' : 'Sent on or after', date: true, insert: '' }];
    } else if (tok.key === 'in') {
      const body = await api('chats', { q: tok.value, limit: 8 }).catch(() => ({ chats: [] }));
      rows = body.chats.map((c) => ({ label: chatName(c), note: c.type, insert: 'in:' + quoted(chatName(c)) }));
    } else {
      // The search field searches every chat: its members are offered from every chat (one row
      // per name, with its number of chats), unless `in:` names one chat.
      const inName = /(?:^|\s)in:(?:"([^"]*)"|(\S+))/i.exec(input.value);
      let chat = null;
      if (inName) {
        const name = inName[1] || inName[2];
        const body = await api('chats', { q: name, limit: 1 }).catch(() => ({ chats: [] }));
        chat = body.chats[0] || null;
      }
      if (!chat) {
        const body = await api('members', { q: tok.value, limit: 8 }).catch(() => ({ names: [] }));
        rows = (body.names || []).map((n) => {
          const name = clean(n.name);
          return { label: name, note: count(n.chats, 'chat'), insert: tok.key + ':' + quoted(name) };
        }).filter((r) => r.label);
      } else {
        const body = await api('members', { chat: chat.chatId, q: tok.value, limit: 8 }).catch(() => []);
        const people = Array.isArray(body) ? body : (body.members || []);
        rows = people.map((m) => {
          const name = clean(m.localAlias || m.displayName || m.fullName || '');
          return { label: name, note: m.fullName && m.fullName !== m.displayName ? clean(m.fullName) : '', insert: tok.key + ':' + quoted(name) };
        }).filter((r) => r.label);
      }
      if (tok.key === 'from' && 'me'.startsWith(v)) rows.push({ label: 'me', note: 'you', insert: 'from:me' });
    }
    if (seq !== suggest.seq) return;
    showSuggestions(rows, tok);
  }
  function toggleHelp(open) {
    $('help').hidden = !open;
    $('help-button').setAttribute('aria-expanded', String(open));
  }
  async function openChatAtEnd() {
    if (!state.chat) return;
    const body = await api('items', { chat: state.chat.chatId, last: PAGE });
    state.windowSeq++;
    showWindow(body, null, null);
    state.hasAfter = false;
    $('to-bottom').hidden = true;
  }
  wire();
  renderChips();
  renderGlobalChips();
  start().then(() => applyAddress()).catch((e) => { $('chat-list').replaceChildren(el('li', 'empty', 'Cannot load the chats: ' + e.message)); });
})();
