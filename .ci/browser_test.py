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
    return paths + [extra]


def main():
    tmp = tempfile.mkdtemp(prefix="chat-archive-browser-")
    archive = os.path.join(tmp, "archive.sqlite")
    ingest = subprocess.run([BIN, "ingest", "--archive", archive, "--json"] + corpus_paths(tmp), capture_output=True, text=True)
    check(os.path.exists(archive), "the Corpus archive is built (ingest exit %d)" % ingest.returncode)
    server = subprocess.Popen([BIN, "serve", "--archive", archive, "--json"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        first = json.loads(server.stdout.readline())
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
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,860", "--lang=en-GB"]:
        options.add_argument(a)
    if os.path.exists("/usr/bin/chromium"):
        options.binary_location = "/usr/bin/chromium"
    service = webdriver.ChromeService(executable_path="/usr/bin/chromedriver") if os.path.exists("/usr/bin/chromedriver") else None
    driver = webdriver.Chrome(options=options, service=service) if service else webdriver.Chrome(options=options)
    try:
        browse(driver, url, base, token)
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
