"""Drives the web app in headless Chromium; see .ci/browser-test."""
import concurrent.futures
import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import struct
import zlib

from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

BIN = sys.argv[1]
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
CORPUS = os.path.join(ROOT, "Corpus")
SHOTS = os.path.join(ROOT, ".build", "screenshots")
os.makedirs(SHOTS, exist_ok=True)
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def corpus_paths(tmp):
    paths = sorted(glob.glob(os.path.join(CORPUS, "sample", "*.jsonl")))
    paths += sorted(glob.glob(os.path.join(CORPUS, "telegram", "*")))
    paths += [p for p in sorted(glob.glob(os.path.join(CORPUS, "whatsapp", "*"))) if os.path.isdir(p)]
    paths += sorted(glob.glob(os.path.join(CORPUS, "discord", "*")))
    paths += sorted(glob.glob(os.path.join(CORPUS, "slack", "*")))
    paths += sorted(glob.glob(os.path.join(CORPUS, "simplex", "*.json")))
    paths += [os.path.join(CORPUS, "hostile", "hostile.jsonl")]
    # Generated here, not committed: a 10 MB hostile message, and a long chat to scroll.
    extra = os.path.join(tmp, "generated.jsonl")
    with open(extra, "w", encoding="utf-8") as f:
        big = ("<script>window.__pwned=1</script> <img src=x onerror=window.__pwned=1> \u202eevil\u202c " * 140000)[:10_000_000]
        f.write(json.dumps({"kind": "item", "chatId": "hostile", "id": "big", "ts": "2024-06-02T09:00:00Z", "dir": "rcv",
                            "memberId": "m1", "content": {"type": "text", "text": big}}) + "\n")
        f.write(json.dumps({"kind": "chat", "chatId": "long", "type": "group", "displayName": "Long chat", "fullName": "",
                            "localAlias": "", "favorite": False, "notifications": "all", "unreadChat": False,
                            "business": None, "tags": []}) + "\n")
        for k in range(600):
            ts = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1704067200 + k * 7200))
            f.write(json.dumps({"kind": "item", "chatId": "long", "id": "L%d" % k, "ts": ts,
                                "dir": "snd" if k % 3 == 0 else "rcv", "sender": "Ana" if k % 2 else "Ben",
                                "content": {"type": "text", "text": "message %d of the long chat" % k},
                                "unread": k >= 300}) + "\n")
    return paths + [extra, folder_of_exports(tmp)]


def png(width, height, rgb):
    """A plain PNG of one colour, for the media the folder's exports carry."""
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def folder_of_exports(tmp):
    """A folder holding two exports, each with a photo at the same relative path (issue 35, 1):
    ingested as one folder, each photo must come from its own export."""
    parent = os.path.join(tmp, "exports")
    for k, (chat, colour) in enumerate([("album-a", (220, 80, 60)), ("album-b", (60, 120, 220))]):
        folder = os.path.join(parent, "export %s" % chat)
        os.makedirs(os.path.join(folder, "photos"), exist_ok=True)
        with open(os.path.join(folder, "photos", "photo.png"), "wb") as f:
            f.write(png(160, 100, colour))
        with open(os.path.join(folder, "chat.jsonl"), "w", encoding="utf-8") as f:
            f.write(json.dumps({"kind": "chat", "chatId": chat, "type": "group", "displayName": "Album %s" % chat[-1].upper(),
                                "fullName": "", "localAlias": "", "favorite": False, "notifications": "all",
                                "unreadChat": False, "business": None, "tags": []}) + "\n")
            for n in range(6):
                item = {"kind": "item", "chatId": chat, "id": "p%d" % n, "ts": "2024-07-0%dT10:00:00Z" % (k + 1),
                        "dir": "rcv", "sender": "Ana", "content": {"type": "text", "text": "words %d" % n}}
                if n == 2:
                    item["content"] = {"type": "image", "text": "the photo"}
                    item["file"] = {"name": "photo.png", "size": 100, "path": "photos/photo.png"}
                if n == 3:
                    item["content"] = {"type": "file", "text": "gone"}
                    item["file"] = {"name": "missing.pdf", "size": 10, "path": "missing.pdf"}
                f.write(json.dumps(item) + "\n")
    return parent


def main():
    tmp = tempfile.mkdtemp(prefix="chat-archive-browser-")
    archive = os.path.join(tmp, "archive.sqlite")
    ingest = subprocess.run([BIN, "ingest", "--archive", archive, "--json"] + corpus_paths(tmp), capture_output=True, text=True)
    check(os.path.exists(archive), "the Corpus archive is built (ingest exit %d)" % ingest.returncode)
    server = subprocess.Popen([BIN, "serve", "--archive", archive, "--json"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        first = json.loads(server.stdout.readline())
        first["archive"] = archive
        run(first, tmp)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            code = None
        check(code == 0, "SIGTERM stops the server cleanly (exit %s)" % code)
    if failures:
        print("%d browser check(s) failed" % len(failures))
        sys.exit(1)
    print("browser test passed; screenshots in %s" % SHOTS)


def http(url, token=None, host=None):
    req = urllib.request.Request(url)
    if token:
        req.add_header("Authorization", "Bearer " + token)
    if host:
        req.add_header("Host", host)
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def run(info, tmp):
    url, port, token = info["url"], info["port"], info["token"]
    base = "http://127.0.0.1:%d" % port
    check(url == "%s/?token=%s" % (base, token), "the first line carries the address and the token")
    check(http(base + "/api/chats")[0] == 401, "no token: 401")
    check(http(base + "/api/chats", token, host="evil.example:%d" % port)[0] == 403, "foreign Host: 403")

    def one(k):
        paths = ["/api/chats", "/api/search?q=trip", "/api/items?chat=long&last=40", "/api/stats", "/api/chats?q=hik"]
        return http(base + paths[k % len(paths)], token)[0]
    with concurrent.futures.ThreadPoolExecutor(max_workers=200) as pool:
        statuses = list(pool.map(one, range(200)))
    check(statuses.count(200) == 200, "200 concurrent requests: %d answered 200" % statuses.count(200))

    options = webdriver.ChromeOptions()
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900", "--lang=en-GB"]:
        options.add_argument(a)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    service = webdriver.ChromeService(executable_path="/usr/bin/chromedriver") if os.path.exists("/usr/bin/chromedriver") else None
    driver = webdriver.Chrome(options=options, service=service) if service else webdriver.Chrome(options=options)
    try:
        browse(driver, url, base, token)
        round_two(driver, url, base, token, info["archive"])
        media_and_context(driver, base, token)
        pages(driver, base, token)
    finally:
        driver.quit()


def shot(driver, name):
    driver.save_screenshot(os.path.join(SHOTS, name + ".png"))


def browse(driver, url, base, token):
    # The app re-renders lists as answers arrive: an element gone meanwhile means "look again".
    wait = WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException])
    driver.get(url)
    wait.until(lambda d: d.execute_script("return document.body.dataset.chatListShown === 'true'"))
    check("token=" not in driver.current_url, "the token leaves the address bar after the redirect")
    shown = driver.execute_script("return window.chatListShownMs")
    print("chat list shown %.0f ms after navigation" % shown)
    check(shown < 3000, "the chat list shows within 3 s here (%.0f ms)" % shown)
    rows = driver.find_elements(By.CSS_SELECTOR, "#chat-list .chat-row")
    check(len(rows) >= 10, "the chat list has %d rows" % len(rows))
    wait.until(lambda d: d.execute_script("return document.body.dataset.tabsShown === 'true'"))
    tabs = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#filter-tabs .tab")]
    check(any(t.startswith("Groups") for t in tabs) and any(t.startswith("Unread") for t in tabs), "filter tabs with counts: %s" % tabs)
    # Badges are readable: their text does not take the colour of their background.
    badges = driver.execute_script("""
        return [...document.querySelectorAll('#chat-list .badge')].map(b => {
          const s = getComputedStyle(b);
          return [b.className, b.textContent, s.color, s.backgroundColor];
        });""")
    check(any("mention" in b[0] for b in badges), "a row has a mention badge")
    unreadable = [b for b in badges if b[2] == b[3] or not b[1].strip()]
    check(not unreadable, "every badge's text differs in colour from its background: %s" % unreadable[:3])
    shot(driver, "01-chat-list")

    # Chat-list search as you type.
    box = driver.find_element(By.ID, "chat-search")
    box.send_keys("hik")
    wait.until(lambda d: all("Hik" in r.text or "hik" in r.text.lower() for r in d.find_elements(By.CSS_SELECTOR, "#chat-list .row-name"))
               and len(d.find_elements(By.CSS_SELECTOR, "#chat-list .row-name")) >= 1)
    names = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#chat-list .row-name")]
    check("Hiking club" in names, "typing 'hik' keeps Hiking club: %s" % names)
    shot(driver, "02-chat-search")
    box.send_keys(Keys.ESCAPE)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#chat-list .chat-row")) >= 10)

    # Search across chats, open a hit in context, check its marks.
    query = "Heinestraße"
    status, body = http(base + "/api/search?q=" + urllib.parse.quote(query), token)
    hits = json.loads(body)["hits"]
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    ActionChains(driver).send_keys("/").perform()
    g = driver.switch_to.active_element
    check(g.get_attribute("id") == "global-search", "/ focuses the search field")
    g.send_keys(query)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#hit-list .hit")) == len(hits))
    check(len(driver.find_elements(By.CSS_SELECTOR, "#hit-list mark")) >= len(hits), "hits show their matches in <mark>")
    named = json.loads(http(base + "/api/chats?ids=" + urllib.parse.quote(",".join(
        sorted({h["chatId"].replace("\\", "\\\\").replace(",", "\\,") for h in hits}))), token)[1])["chats"]
    names = {c["chatId"]: c["localAlias"] or c["displayName"] or c["fullName"] or c["chatId"] for c in named}
    shown_names = [n.text for n in driver.find_elements(By.CSS_SELECTOR, "#hit-list .hit-chat")]
    check(shown_names == [names.get(h["chatId"]) for h in hits], "hits are named by their chats: %s" % shown_names)
    shot(driver, "03-search")
    g.send_keys(Keys.ARROW_DOWN)
    g.send_keys(Keys.ENTER)
    hit = hits[0]
    sel = "#item-list .item[data-id='%d']" % hit["id"]
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, sel + " mark")) > 0)
    got = driver.execute_script("""
        const t = document.querySelector(arguments[0] + ' .text');
        const out = [];
        for (const m of t.querySelectorAll('mark')) {
          const r = document.createRange(); r.setStart(t, 0); r.setEndBefore(m);
          const s = r.toString().length, e = s + m.textContent.length;
          if (out.length && out[out.length - 1][1] === s) out[out.length - 1][1] = e; else out.push([s, e]);
        }
        return [t.textContent, out];""", sel)
    check(got[0] == hit["text"], "the opened hit shows its text")
    check(got[1] == hit["ranges"], "the <mark>s cover exactly the hit's ranges: %s vs %s" % (got[1], hit["ranges"]))
    shot(driver, "04-hit-in-context")
    driver.execute_script("const g = document.getElementById('global-search'); g.value = ''; g.dispatchEvent(new Event('input'))")
    wait.until(lambda d: d.find_element(By.ID, "chat-list").is_displayed())

    # A long chat: opens at the oldest unread with the marker, scrolls both ways.
    driver.execute_script("document.getElementById('chat-search').value='Long'; document.getElementById('chat-search').dispatchEvent(new Event('input'))")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chat-list .chat-row[data-chat='long']"))
    time.sleep(0.4)
    driver.execute_script("document.querySelector(\"#chat-list .chat-row[data-chat='long']\").click()")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#item-list .new-marker"))
    marker = driver.find_element(By.CSS_SELECTOR, "#item-list .new-marker").text
    check(marker == "300 new messages", "the new-messages marker: %r" % marker)
    shot(driver, "05-long-chat-unread")
    ids = lambda d: [int(x) for x in d.execute_script("return [...document.querySelectorAll('#item-list .item')].map(n => n.dataset.id)")]
    start = ids(driver)
    for _ in range(20):
        driver.execute_script("document.getElementById('messages').scrollTop = 0")
        time.sleep(0.25)
    up = ids(driver)
    check(len(up) > len(start) and up[0] < start[0], "scrolling up loads older items (%d → %d)" % (len(start), len(up)))
    for _ in range(30):
        driver.execute_script("const m = document.getElementById('messages'); m.scrollTop = m.scrollHeight")
        time.sleep(0.25)
    both = ids(driver)
    check(len(both) == 600, "scrolling both ways reaches every item once: %d" % len(both))
    check(both == sorted(both) and len(set(both)) == len(both), "items stay in order, without duplicates")
    shot(driver, "06-long-chat-bottom")

    # The hostile chat renders inert and bounded.
    driver.execute_script("document.getElementById('chat-search').value='hostile'; document.getElementById('chat-search').dispatchEvent(new Event('input'))")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chat-list .chat-row[data-chat='hostile']"))
    row_name = driver.find_element(By.CSS_SELECTOR, "#chat-list .chat-row[data-chat='hostile'] .row-name").text
    check("<img" in row_name, "a hostile chat name shows as text: %r" % row_name[:40])
    time.sleep(0.4)
    driver.execute_script("document.querySelector(\"#chat-list .chat-row[data-chat='hostile']\").click()")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#item-list .item")) >= 10)
    time.sleep(1.0)
    pwned = driver.execute_script("return window.__pwned")
    check(pwned is None, "no hostile payload ran (window.__pwned is %r)" % pwned)
    hrefs = driver.execute_script("return [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))")
    check(all(h.split(":")[0] in ("http", "https", "mailto", "tel") or h.startswith("/api/media/") for h in hrefs),
          "every link is http, https, mailto, tel or media: %s" % hrefs)
    rels = driver.execute_script("return [...document.querySelectorAll('a[target=_blank]')].every(a => a.rel === 'noopener noreferrer')")
    check(rels, "links open with rel=noopener noreferrer")
    texts = driver.execute_script("return [...document.querySelectorAll('#item-list .text')].map(t => t.textContent.length)")
    check(max(texts) <= 16000, "the 10 MB message is shown bounded (longest text %d characters)" % max(texts))
    check(driver.execute_script("return document.querySelectorAll('#item-list script, #item-list img[onerror], #item-list iframe').length") == 0,
          "no element came from message text")
    shot(driver, "07-hostile-chat")

    # In-chat search: k of N, previous/next.
    driver.execute_script("document.getElementById('chat-search').value='Hiking'; document.getElementById('chat-search').dispatchEvent(new Event('input'))")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chat-list .chat-row[data-chat='g-hiking']"))
    time.sleep(0.4)
    driver.execute_script("document.querySelector(\"#chat-list .chat-row[data-chat='g-hiking']\").click()")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#item-list .item")) > 3)
    driver.find_element(By.ID, "toggle-search").click()
    driver.find_element(By.ID, "in-chat-search").send_keys("trip")
    wait.until(lambda d: " of " in d.find_element(By.ID, "hit-position").text)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#item-list mark"))
    pos = driver.find_element(By.ID, "hit-position").text
    check(pos.startswith("1 of "), "in-chat search shows k of N: %r" % pos)
    # N is the archive's count of the chat's matches (search --count), not the hits loaded.
    want = json.loads(http(base + "/api/search?q=trip&chat=g-hiking&count=true&limit=1", token)[1])["count"]
    check(pos == "1 of %s%s" % (format(want["total"], ","), "" if want["exact"] else "+"),
          "k of N counts every match: %r against %r" % (pos, want))
    driver.find_element(By.ID, "hit-prev").click()
    wait.until(lambda d: d.find_element(By.ID, "hit-position").text.startswith("2 of ") or pos.endswith(" 1"))
    shot(driver, "08-in-chat-search")

    # Dark mode and a phone-width window.
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    shot(driver, "09-dark")
    driver.set_window_size(390, 844)
    time.sleep(0.3)
    shot(driver, "10-phone-chat")
    name = driver.find_element(By.ID, "chat-name")
    check(driver.execute_script("const e = arguments[0]; return e.scrollWidth <= e.clientWidth", name),
          "on a phone the chat's name shows whole: %r" % name.text)
    check(driver.find_element(By.ID, "jump-date-button").is_displayed()
          and driver.find_element(By.ID, "jump-date").size["width"] <= 1,
          "on a phone a calendar button stands in for the date field")
    driver.find_element(By.ID, "back").click()
    time.sleep(0.3)
    shot(driver, "11-phone-list")
    check(not driver.execute_script("return window.__pwned"), "still nothing ran at the end")


def open_chat(driver, wait, chat_id, query):
    driver.execute_script("const s = document.getElementById('chat-search'); s.value = arguments[0]; s.dispatchEvent(new Event('input'))", query)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chat-list .chat-row[data-chat='%s']" % chat_id))
    time.sleep(0.4)
    driver.execute_script("document.querySelector(\"#chat-list .chat-row[data-chat='%s']\").click()" % chat_id)
    wait.until(lambda d: d.execute_script("return new URLSearchParams(location.search).get('chat')") == chat_id)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#item-list .item")) > 0)


def round_two(driver, url, base, token, archive):
    """Issue 35: media of a folder of exports, Esc, two servers, deep links, autocomplete, labels."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    driver.set_window_size(1400, 900)
    wait = WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException])
    driver.get(base + "/")
    wait.until(lambda d: d.execute_script("return document.body.dataset.chatListShown === 'true'"))

    # 1. A folder of two exports: each photo shows, from its own export; a missing file gets no link.
    for chat in ["album-a", "album-b"]:
        open_chat(driver, wait, chat, "Album")
        wait.until(lambda d: d.execute_script(
            "const i = document.querySelector('#item-list img.media'); return !!i && i.complete && i.naturalWidth === 160"))
        check(True, "%s: the photo of its own export shows (160 px wide)" % chat)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#item-list .file-status, #item-list .missing-file"))
        time.sleep(0.5)
        dead = driver.execute_script("return [...document.querySelectorAll('#item-list a[download]')].filter(a => a.getAttribute('download') === 'missing.pdf').length")
        said = driver.execute_script("return [...document.querySelectorAll('#item-list .file-status')].map(s => s.textContent)")
        check(dead == 0 and "not in the export" in said, "%s: the missing file has no download link and says so: %s" % (chat, said))
    colours = driver.execute_script("""
        const i = document.querySelector('#item-list img.media'); const c = document.createElement('canvas');
        c.width = 4; c.height = 4; const x = c.getContext('2d'); x.drawImage(i, 0, 0, 4, 4);
        return Array.from(x.getImageData(1, 1, 1, 1).data).slice(0, 3);""")
    check(colours == [60, 120, 220], "album-b's photo is its own (blue), not album-a's: %s" % colours)
    shot(driver, "13-folder-media")

    # 2. Esc after a content chip restores the whole chat.
    whole = len(driver.find_elements(By.CSS_SELECTOR, "#item-list .item"))
    driver.find_element(By.ID, "toggle-search").click()
    chip = [c for c in driver.find_elements(By.CSS_SELECTOR, "#content-chips .chip") if c.text == "image"][0]
    chip.click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#item-list .item")) == 1)
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#item-list .item")) == whole)
    check(driver.find_element(By.ID, "chat-search-bar").get_attribute("hidden") is not None,
          "Esc closes the bar and the chat shows all %d items again" % whole)

    # 7/16. A message's address survives a reload, and Back returns to the search.
    g = driver.find_element(By.ID, "global-search")
    g.clear()
    g.send_keys("Heinestraße")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#search-results .hit")) > 0)
    check(driver.execute_script("return !!document.querySelector('main #search-results') && document.getElementById('search-results').getBoundingClientRect().width > 700"),
          "global search results fill the main pane")
    check("q=Heinestra" in driver.current_url, "the address names the search: %s" % driver.current_url)
    shot(driver, "14-search-main-pane")
    g.send_keys(Keys.ENTER)
    wait.until(lambda d: "msg=" in d.current_url)
    msg = driver.execute_script("return new URLSearchParams(location.search).get('msg')")
    driver.refresh()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#item-list .item[data-id='%s']" % msg))
    check(True, "after a reload the message %s is shown again" % msg)
    driver.back()
    wait.until(lambda d: "msg=" not in d.current_url and "q=" in d.current_url)
    wait.until(lambda d: d.find_element(By.ID, "search-results").is_displayed())
    check(True, "Back returns to the search results")
    # 12. Content chips narrow a global search as the API does.
    g = driver.find_element(By.ID, "global-search")
    driver.execute_script("arguments[0].value = 'trip'; arguments[0].dispatchEvent(new Event('input'))", g)
    count = lambda content: len(json.loads(http(base + "/api/search?limit=50&q=trip&content=" + content, token)[1])["hits"])
    total = count("")
    kind, want = next(((k, n) for k, n in ((k, count(k)) for k in ["image", "video", "voice", "file", "link", "text"]) if 0 < n < total), ("text", total))
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#search-results .hit")) == total)
    chip = [c for c in driver.find_elements(By.CSS_SELECTOR, "#global-chips .chip") if c.text == kind][0]
    chip.click()
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#global-chips .chip[aria-pressed=true]"))
    time.sleep(0.8)
    shown = len(driver.find_elements(By.CSS_SELECTOR, "#search-results .hit"))
    check(shown == want and want < total, "the %s chip narrows the global search: %d shown of %d, %d from the API" % (kind, shown, total, want))
    driver.find_element(By.CSS_SELECTOR, "#global-chips .chip[aria-pressed=true]").click()
    time.sleep(0.5)
    g = driver.find_element(By.ID, "global-search")
    driver.execute_script("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input'))", g)
    time.sleep(0.4)

    # 14. A histogram of the hits above the results; clicking a bar narrows the search to its period.
    everything = len(json.loads(http(base + "/api/search?limit=1000&q=trip", token)[1])["hits"])
    driver.execute_script("arguments[0].value = 'trip'; arguments[0].dispatchEvent(new Event('input'))", g)
    wait.until(lambda d: d.find_element(By.ID, "search-results").is_displayed() and d.find_element(By.ID, "global-histogram").is_displayed())
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#search-results .hit")) == min(50, everything))
    bars = driver.execute_script(
        "return [...document.querySelectorAll('#global-histogram .period-bar')].map(b => [b.dataset.start, Number(b.dataset.count), b.title])")
    check(sum(b[1] for b in bars) == everything and all(b[2] for b in bars),
          "the histogram counts all %d hits of trip, each bar titled with its period and count: %s" % (everything, bars[:2]))
    shot(driver, "21-search-histogram")
    pick = max((b for b in bars if 0 < b[1] < everything), key=lambda b: b[1])
    driver.execute_script("document.querySelector(\"#global-histogram .period-bar[data-start='%s']\").click()" % pick[0])
    wait.until(lambda d: "after:" in d.execute_script("return document.getElementById('global-search').value"))
    narrowed = driver.execute_script("return document.getElementById('global-search').value")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#search-results .hit")) == pick[1])
    time.sleep(0.5)
    shown = len(driver.find_elements(By.CSS_SELECTOR, "#search-results .hit"))
    check("after:" + pick[0][:10] in narrowed and shown == pick[1] < everything,
          "a bar narrows the search to its period: %r shows %d of %d" % (narrowed, shown, everything))
    check("after%3A" + pick[0][:10] in driver.current_url, "the address carries the narrowed search: %s" % driver.current_url)
    shot(driver, "22-search-narrowed")
    driver.execute_script("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input'))", g)
    time.sleep(0.4)

    # In-chat search past its first page of hits: k of N from the count, the next page loaded
    # as the user steps, once, however fast the steps come.
    open_chat(driver, wait, "long", "Long chat")
    driver.find_element(By.ID, "toggle-search").click()
    driver.find_element(By.ID, "in-chat-search").send_keys("long")
    wait.until(lambda d: d.find_element(By.ID, "hit-position").text == "1 of 600")
    for _ in range(55):
        driver.find_element(By.ID, "in-chat-search").send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_element(By.ID, "hit-position").text == "56 of 600")
    wait.until(lambda d: any("message 544 of" in m.find_element(By.XPATH, "..").text
                             for m in d.find_elements(By.CSS_SELECTOR, "#item-list mark")))
    check(True, "stepping 55 hits back in a chat of 600 matches reads '56 of 600' and marks message 544")
    driver.find_element(By.ID, "in-chat-search").send_keys(Keys.ESCAPE)

    # 14. The chat info panel: facts and the chat's activity; a month's bar opens the chat there.
    open_chat(driver, wait, "long", "Long chat")
    driver.find_element(By.ID, "info-button").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#info-histogram .period-bar"))
    facts = driver.execute_script("return [...document.querySelectorAll('#info-facts dt, #info-facts dd')].map(n => n.textContent)")
    check("Messages" in facts and "600" in facts and "First message" in facts and "Members" in facts,
          "the info panel lists type, members, messages and dates: %s" % facts)
    months = driver.execute_script("return [...document.querySelectorAll('#info-histogram .period-bar')].map(b => [b.dataset.start, Number(b.dataset.count)])")
    check(sum(m[1] for m in months) == 600 and len(months) == 2, "the chat's activity per month: %s" % months)
    shot(driver, "23-chat-info")
    target = json.loads(http(base + "/api/items?chat=long&at=2024-02-01&count=0", token)[1])["items"][0]["id"]
    driver.execute_script("document.querySelector(\"#info-histogram .period-bar[data-start='2024-02-01T00:00:00Z']\").click()")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#item-list .item[data-id='%s']" % target))
    check(driver.find_element(By.ID, "chat-info").get_attribute("hidden") is not None,
          "a month's bar closes the panel and opens the chat at its first message (%s)" % target)
    # In-chat search has the histogram too.
    driver.find_element(By.ID, "toggle-search").click()
    driver.execute_script("const s = document.getElementById('in-chat-search'); s.value = 'message'; s.dispatchEvent(new Event('input'))")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chat-histogram .period-bar"))
    check(True, "in-chat search shows its histogram")
    driver.set_window_size(390, 844)
    time.sleep(0.5)
    shot(driver, "24-phone-chat-histogram")
    check(not driver.find_element(By.ID, "info-button").is_displayed(), "on a phone the chat's name opens the info (no button)")
    driver.find_element(By.ID, "chat-title").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#info-histogram .period-bar"))
    shot(driver, "25-phone-chat-info")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    driver.set_window_size(1400, 900)
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    time.sleep(0.3)

    # 13. Autocomplete for from: lists members; Enter takes one.
    open_chat(driver, wait, "g-hiking", "Hiking")
    g = driver.find_element(By.ID, "global-search")
    g.click()
    g.send_keys("trip from:")
    wait.until(lambda d: d.find_element(By.ID, "suggest").is_displayed() and d.find_elements(By.CSS_SELECTOR, "#suggest .suggestion"))
    names = [s.text for s in driver.find_elements(By.CSS_SELECTOR, "#suggest .suggestion")]
    check(len(names) >= 2, "from: offers members: %s" % names)
    shot(driver, "15-autocomplete-from")
    g.send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_element(By.ID, "suggest").get_attribute("hidden") is not None)
    taken = driver.execute_script("return document.getElementById('global-search').value")
    check(taken.startswith("trip from:") and taken.count("from:") == 1 and taken.endswith(" ") and len(taken) > len("trip from: "),
          "Enter takes the member: %r" % driver.execute_script("return document.getElementById('global-search').value"))
    driver.find_element(By.ID, "help-button").click()
    ops = driver.execute_script("return [...document.querySelectorAll('#help dt')].map(d => d.textContent)")
    check(all(any(o in x for x in ops) for o in ["from:", "in:", "has:", "before:", "after:", "mentions:", "is:", "OR", "-", '"']),
          "the help lists every operator: %s" % ops)
    shot(driver, "16-operators-help")
    driver.find_element(By.ID, "help-button").click()
    driver.execute_script("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input'))", g)

    # 6. The tab row scrolls with a wheel; 9. Slack reactions are emoji; 10. names isolated.
    scrolled = driver.execute_script("""
        const n = document.getElementById('filter-tabs');
        n.dispatchEvent(new WheelEvent('wheel', {deltaY: 400, bubbles: true, cancelable: true}));
        return [n.scrollWidth > n.clientWidth, n.scrollLeft];""")
    check(not scrolled[0] or scrolled[1] > 0, "a wheel scrolls the filter tabs: %s" % scrolled)
    names = driver.execute_script("return [...document.querySelectorAll('#chat-list .row-name')].map(n => n.textContent).join(' ')")
    check(not any(c in names for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"), "no bidi control in the chat list's names")
    slack = json.loads(http(base + "/api/chats?limit=200&q=garden", token)[1])["chats"]
    if slack:
        open_chat(driver, wait, slack[0]["chatId"], "garden")
        time.sleep(0.5)
        reactions = driver.execute_script("return [...document.querySelectorAll('#item-list .reaction')].map(r => r.textContent)")
        check(any("\U0001F44D" in r for r in reactions) and not any(r.startswith(":") for r in reactions),
              "Slack reactions show as emoji: %s" % reactions)
        shot(driver, "17-slack-emoji")

    # 11. A long chat keeps a bounded number of items in the page.
    driver.get(base + "/?maxItems=120&chat=long")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#item-list .item")) > 0)
    most = 0
    for _ in range(25):
        driver.execute_script("document.getElementById('messages').scrollTop = 0")
        time.sleep(0.25)
        most = max(most, len(driver.find_elements(By.CSS_SELECTOR, "#item-list .item")))
    first = driver.execute_script("return Number(document.querySelector('#item-list .item').dataset.id)")
    check(most <= 120 + 40, "scrolling 600 messages keeps at most %d items in the page" % most)
    for _ in range(30):
        driver.execute_script("const m = document.getElementById('messages'); m.scrollTop = m.scrollHeight")
        time.sleep(0.25)
    ids = driver.execute_script("return [...document.querySelectorAll('#item-list .item')].map(n => Number(n.dataset.id))")
    check(ids == sorted(ids) and len(set(ids)) == len(ids) and ids[0] > first, "dropped items come back in order on the way down")

    # 3. Two servers in one browser: each keeps its own cookie; a page without the key says what to do.
    second = subprocess.Popen([BIN, "serve", "--archive", archive, "--json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        info2 = json.loads(second.stdout.readline())
        driver.get(info2["url"])
        wait.until(lambda d: d.execute_script("return document.body.dataset.chatListShown === 'true'"))
        driver.get(base + "/")
        wait.until(lambda d: d.execute_script("return document.body.dataset.chatListShown === 'true'"))
        rows = driver.find_elements(By.CSS_SELECTOR, "#chat-list .chat-row")
        check(len(rows) >= 10, "after opening a second server, the first still works in the same browser (%d rows)" % len(rows))
        shot(driver, "18-two-servers")
        driver.get("http://localhost:%d/" % info2["port"])
        page = driver.find_element(By.TAG_NAME, "body").text
        check("chat-archive serve" in page and "token" in page, "a page without the key says what to do: %r" % page[:80])
        shot(driver, "19-unauthorized-page")
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=60)

    # The phone size: search results and a chat.
    driver.set_window_size(390, 844)
    driver.get(base + "/?q=trip")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#search-results .hit")) > 0)
    shot(driver, "20-phone-search")
    check(driver.find_element(By.ID, "results-back").is_displayed(), "on a phone the results have a way back")


def media_and_context(driver, base, token):
    """Issue 35, 15: a chat's shared media; 12: context around a global hit; 13: from: across chats."""
    driver.set_window_size(1400, 900)
    wait = WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException])
    driver.get(base + "/")
    wait.until(lambda d: d.execute_script("return document.body.dataset.chatListShown === 'true'"))

    # 15. The Media view of a chat of the folder of exports: its photo in the grid, the missing
    # file said to be missing, and a photo opening its message in the chat.
    open_chat(driver, wait, "album-a", "Album")
    driver.find_element(By.ID, "media-button").click()
    wait.until(lambda d: d.execute_script(
        "const i = document.querySelector('#media-view .media-tile img'); return !!i && i.complete && i.naturalWidth === 160"))
    check(driver.find_element(By.ID, "messages").get_attribute("hidden") is not None,
          "the Media view takes the place of the messages")
    tiles = driver.find_elements(By.CSS_SELECTOR, "#media-view .media-tile")
    check(len(tiles) == 1, "the Media view shows album-a's one photo as a thumbnail (%d tiles)" % len(tiles))
    shot(driver, "31-media-grid")
    [t for t in driver.find_elements(By.CSS_SELECTOR, "#media-tabs .tab") if t.text == "Files"][0].click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#media-view .media-row.missing-file"))
    said = driver.execute_script("return document.querySelector('#media-view .media-row').textContent")
    check("missing.pdf" in said and "not in the export" in said, "the Files list says the missing file is missing: %r" % said)
    shot(driver, "32-media-files")
    [t for t in driver.find_elements(By.CSS_SELECTOR, "#media-tabs .tab") if t.text == "Photos"][0].click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#media-view .media-tile"))
    tile = driver.find_element(By.CSS_SELECTOR, "#media-view .media-tile")
    item = tile.get_attribute("data-id")
    tile.click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#item-list .item.anchor[data-id='%s']" % item))
    check(driver.find_element(By.ID, "media-view").get_attribute("hidden") is not None
          and driver.execute_script("return new URLSearchParams(location.search).get('msg')") == item,
          "a photo opens its message in context (msg=%s, marked)" % item)
    # A chat of the sample export: its media are listed, and those the export did not hold say so.
    open_chat(driver, wait, "g-hiking", "Hiking")
    driver.find_element(By.ID, "media-button").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#media-view .media-tile"))
    api = json.loads(http(base + "/api/chats/g-hiking/media?kind=image&limit=60", token)[1])["items"]
    shown = driver.execute_script("return [...document.querySelectorAll('#media-view .media-tile')].map(t => Number(t.dataset.id))")
    check(shown == [i["id"] for i in api], "g-hiking's grid shows the API's images, newest first: %d" % len(shown))
    time.sleep(0.5)
    shot(driver, "33-media-hiking")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait.until(lambda d: d.find_element(By.ID, "media-view").get_attribute("hidden") is not None)
    check(driver.find_element(By.ID, "messages").is_displayed(), "Esc closes the Media view and shows the messages")

    # 12. A global hit shows the messages around it without leaving the results, by keyboard too.
    g = driver.find_element(By.ID, "global-search")
    driver.execute_script("arguments[0].value = 'Heinestraße'; arguments[0].dispatchEvent(new Event('input'))", g)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#search-results .hit .hit-context-toggle"))
    toggle = driver.find_element(By.CSS_SELECTOR, "#search-results .hit .hit-context-toggle")
    toggle.click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#search-results .hit-context .ctx-hit"))
    rows = driver.execute_script("return [...document.querySelectorAll('#search-results .hit-context li')].map(l => l.textContent)")
    check(len(rows) >= 2 and driver.find_element(By.ID, "search-results").is_displayed()
          and toggle.get_attribute("aria-expanded") == "true",
          "a hit's context shows the messages around it in the results: %s" % [r[:40] for r in rows])
    check(len(driver.find_elements(By.CSS_SELECTOR, "#search-results .hit-context mark")) > 0, "the hit itself is marked in its context")
    shot(driver, "34-hit-context")
    toggle.send_keys(Keys.ENTER)
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#search-results .hit-context"))
    check("msg=" not in driver.current_url and toggle.get_attribute("aria-expanded") == "false",
          "Enter on the toggle hides the context again and stays in the results")

    # 13. from: in global search offers members of every chat: a member of another chat than the open one.
    here = {m["displayName"] for m in json.loads(http(base + "/api/members?chat=g-hiking&limit=200", token)[1])["members"]}
    names = json.loads(http(base + "/api/members?limit=200", token)[1])["names"]
    other = next(n for n in names if n["name"] not in here and len(n["name"]) >= 3 and " " not in n["name"])
    driver.execute_script("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input'))", g)
    open_chat(driver, wait, "g-hiking", "Hiking")
    g = driver.find_element(By.ID, "global-search")
    g.click()
    g.send_keys("from:" + other["name"][:3])
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#suggest .suggestion"))
    time.sleep(0.5)
    offered = [s.text for s in driver.find_elements(By.CSS_SELECTOR, "#suggest .suggestion")]
    check(any(o.startswith(other["name"]) and "chat" in o for o in offered),
          "from: offers %s, a member of another chat, with its chat count: %s" % (other["name"], offered))
    shot(driver, "35-from-all-chats")
    driver.execute_script("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input'))", g)

    # The phone size: the Media view of the folder's chat.
    driver.set_window_size(390, 844)
    open_chat(driver, wait, "album-b", "Album")
    driver.find_element(By.ID, "media-button").click()
    wait.until(lambda d: d.execute_script(
        "const i = document.querySelector('#media-view .media-tile img'); return !!i && i.complete && i.naturalWidth === 160"))
    check(driver.find_element(By.ID, "media-button").is_displayed(), "on a phone the Media button is in the chat header")
    shot(driver, "36-phone-media")
    driver.set_window_size(1400, 900)


def pages(driver, base, token):
    """With a page of 20 rows, the chat list loads the next page as it scrolls to its end, and
    name search pages the same way: every chat once, in the API's order."""
    driver.set_window_size(1280, 860)
    # The app re-renders lists as answers arrive: an element gone meanwhile means "look again".
    wait = WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException])
    driver.get(base + "/?pageSize=20")
    wait.until(lambda d: d.execute_script("return document.body.dataset.chatListShown === 'true'"))
    shown = lambda d: d.execute_script("return [...document.querySelectorAll('#chat-list .chat-row')].map(b => b.dataset.chat)")

    def scroll_to_end(expected):
        for _ in range(60):
            if len(shown(driver)) >= len(expected):
                break
            driver.execute_script("const l = document.getElementById('chat-list'); l.scrollTop = l.scrollHeight")
            time.sleep(0.15)
        time.sleep(0.5)
        return shown(driver)

    whole = [c["chatId"] for c in json.loads(http(base + "/api/chats?limit=10000", token)[1])["chats"]]
    first = shown(driver)
    # The first page, and the next ones only when the list's end comes near the view.
    check(20 <= len(first) < len(whole) and len(whole) > 40 and first == whole[:len(first)],
          "the list starts with a page of 20 rows (%d shown of %d chats)" % (len(first), len(whole)))
    rows = scroll_to_end(whole)
    check(rows == whole, "scrolling the chat list to its end loads every page: %d of %d rows, in order, once" % (len(rows), len(whole)))
    shot(driver, "12-chat-list-paged")

    query = "a"
    matching = [c["chatId"] for c in json.loads(http(base + "/api/chats?limit=10000&q=" + query, token)[1])["chats"]]
    driver.execute_script("const s = document.getElementById('chat-search'); s.value = arguments[0]; s.dispatchEvent(new Event('input'))", query)
    wait.until(lambda d: shown(d)[:20] == matching[:20])
    rows = scroll_to_end(matching)
    check(len(matching) > 20 and rows == matching, "name search pages too: %d of %d rows" % (len(rows), len(matching)))
    # Keyboard: ↓ from the last row asks for the next page when the sentinel is its neighbour.
    driver.execute_script("const s = document.getElementById('chat-search'); s.value = ''; s.dispatchEvent(new Event('input'))")
    wait.until(lambda d: shown(d)[:20] == whole[:20])
    time.sleep(0.5)
    before = len(shown(driver))
    driver.execute_script("const r = document.querySelectorAll('#chat-list .chat-row'); r[r.length - 1].focus()")
    ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
    wait.until(lambda d: len(shown(d)) > before)
    check(len(set(shown(driver))) == len(shown(driver)), "no chat is listed twice")


if __name__ == "__main__":
    main()
