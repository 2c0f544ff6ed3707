#!/usr/bin/env python3
"""Extract real human-written text from fetched public repositories into src/.

Reads bare git mirrors under $MIRROR (default mirrors/: one bare clone per repository, each
is the newest snapshot of a public GitHub repository) and writes plain UTF-8 text files to
$OUT (default src/)/<group>/<name>.txt plus src/MANIFEST.tsv (repo, commit, path, licence,
language, bytes).  Standard library only.  Deterministic: file choices use sorted paths and
a fixed seed.

Only format conversion happens here (XML/JSON/Shift_JIS/Aozora markup -> text); the
Gutenberg header/licence stripping, whitespace collapsing and sentence splitting happen in
make_corpus.py.  Within a file, a blank line separates paragraphs (units that never share
a message); single newlines are soft (verse lines, wrapped prose).
"""
import html
import io
import json
import os
import random
import re
import subprocess
import sys
import zipfile

MIRROR = os.environ.get("MIRROR", "mirrors")
OUT = os.environ.get("OUT", "src")
SEED = 20240501
MB = 1_000_000

manifest = []  # (group, file, repo, commit, source paths, licence, language, bytes)


class Repo:
    def __init__(self, name):
        self.name = name
        self.gitdir = os.path.join(MIRROR, name.replace("/", "+"), "repo")
        if not os.path.isdir(self.gitdir):
            sys.exit(f"missing mirror {self.gitdir}: fetch github:{name} first")
        self.commit = subprocess.check_output(
            ["git", "--git-dir", self.gitdir, "rev-parse", "HEAD"], text=True).strip()
        self._tree = None

    def tree(self):
        """path -> (blob sha, size); LFS/absent blobs excluded."""
        if self._tree is None:
            out = subprocess.check_output(
                ["git", "--git-dir", self.gitdir, "ls-tree", "-r", "-l", "-z", "HEAD"])
            t = {}
            for rec in out.split(b"\0"):
                if not rec:
                    continue
                meta, path = rec.split(b"\t", 1)
                mode, typ, sha, size = meta.split()
                if typ != b"blob" or not size.isdigit():
                    continue
                t[path.decode("utf-8", "surrogateescape")] = (sha.decode(), int(size))
            self._tree = t
        return self._tree

    def read_many(self, paths):
        """Yields (path, bytes) for blobs present in the snapshot (skips missing ones)."""
        tree = self.tree()
        paths = [p for p in paths if p in tree]
        if not paths:
            return
        proc = subprocess.Popen(["git", "--git-dir", self.gitdir, "cat-file", "--batch"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        # Feed ids in a thread-free way: small batches.
        for i in range(0, len(paths), 200):
            batch = paths[i:i + 200]
            proc.stdin.write("".join(tree[p][0] + "\n" for p in batch).encode())
            proc.stdin.flush()
            for p in batch:
                header = proc.stdout.readline().split()
                if len(header) < 3 or header[1] == b"missing":
                    continue
                n = int(header[2])
                data = proc.stdout.read(n)
                proc.stdout.read(1)
                if data.startswith(b"version https://git-lfs"):
                    continue
                yield p, data
        proc.stdin.close()
        proc.wait()

    def read(self, path):
        for _, d in self.read_many([path]):
            return d
        return None


def decode(data):
    for enc in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            pass
    return data.decode("utf-8", "replace")


def safe(name, limit=80):
    s = re.sub(r"[^\w.-]+", "_", name, flags=re.UNICODE).strip("_")
    return s[:limit] or "x"


def write(group, name, text, repo, paths, licence, lang):
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
    if len(text) < 20:
        return 0
    d = os.path.join(OUT, group)
    os.makedirs(d, exist_ok=True)
    fn = safe(name) + ".txt"
    data = text.encode("utf-8")
    with open(os.path.join(d, fn), "wb") as f:
        f.write(data)
    if isinstance(paths, str):
        paths = [paths]
    shown = paths[0] if len(paths) == 1 else f"{paths[0]} (+{len(paths) - 1} more)"
    manifest.append((group, fn, repo.name, repo.commit, shown, licence, lang, len(data)))
    return len(data)


def round_robin(groups, rng):
    """groups: dict key -> list; yields items one per key in turn (keys and lists shuffled)."""
    keys = sorted(groups)
    rng.shuffle(keys)
    lists = {k: list(groups[k]) for k in keys}
    for k in keys:
        rng.shuffle(lists[k])
    while any(lists.values()):
        for k in keys:
            if lists[k]:
                yield k, lists[k].pop()


def strip_tags(s):
    s = re.sub(r"<[^>]+>", "", s)
    return html.unescape(s)


# --------------------------------------------------------------------------- English

def gutenberg_en(budget):
    repo = Repo("rcdm-uga/Gutenberg_Text")
    by_author = {}
    for p, (sha, size) in repo.tree().items():
        if p.endswith(".txt") and "/" in p and 20_000 < size < 3_000_000:
            by_author.setdefault(p.split("/")[0], []).append(p)
    rng = random.Random(SEED)
    total = 0
    for author, p in round_robin(by_author, rng):
        if total >= budget:
            break
        raw = repo.read(p)
        text = decode(raw)
        # Only English books: skip texts whose header says another language.
        m = re.search(r"^Language:\s*(\w+)", text[:5000], re.M)
        if m and m.group(1).lower() != "english":
            continue
        title = p.split("/", 1)[1][:-4].split("\r")[0]
        total += write("en-gutenberg", f"{author[:30]}__{title}", text, repo, p,
                       "Public domain (Project Gutenberg texts; PG licence header stripped)", "en")
    return total


def nltk_en():
    repo = Repo("nltk/nltk_data")
    total = 0
    lic = {
        "nps_chat": "NPS Chat Corpus (Forsyth & Martell 2007), distributed with NLTK data; research use",
        "webtext": "NLTK webtext (Firefox forum, overheard in NY, ads, pirates script, wine reviews); NLTK data, redistributable",
        "inaugural": "US presidential inaugural addresses; public domain",
        "state_union": "US State of the Union addresses; public domain",
        "movie_reviews": "Pang & Lee polarity dataset v2.0 (IMDb reviews); distributed with NLTK data",
    }
    for corpus in ["nps_chat", "webtext", "inaugural", "state_union", "movie_reviews"]:
        zp = f"packages/corpora/{corpus}.zip"
        z = zipfile.ZipFile(io.BytesIO(repo.read(zp)))
        names = sorted(n for n in z.namelist() if not n.endswith("/") and "README" not in n
                       and not n.endswith(".pl") and "LICENSE" not in n.upper())
        if corpus == "nps_chat":
            for n in names:
                if not n.endswith(".xml"):
                    continue
                x = decode(z.read(n))
                posts = []
                for m in re.finditer(r'<Post class="(\w+)" user="[^"]*">(.*?)<terminals>', x, re.S):
                    if m.group(1) == "System":
                        continue
                    posts.append(html.unescape(m.group(2)).strip())
                total += write("en-chat", "nps_chat_" + n.split("/")[-1][:-4], "\n\n".join(posts),
                               repo, f"{zp}:{n}", lic[corpus], "en")
        elif corpus == "movie_reviews":
            # ~2,000 reviews: gather into 20 documents of 100 reviews.
            revs = [n for n in names if n.endswith(".txt")]
            rng = random.Random(SEED)
            rng.shuffle(revs)
            for k in range(0, len(revs), 100):
                parts = [decode(z.read(n)) for n in revs[k:k + 100]]
                total += write("en-reviews", f"movie_reviews_{k // 100:02d}", "\n\n".join(parts),
                               repo, f"{zp}:{revs[k]}", lic[corpus], "en")
        else:
            for n in names:
                t = decode(z.read(n))
                if corpus == "webtext":
                    t = "\n\n".join(l for l in t.split("\n"))  # one line = one unit
                total += write("en-speeches" if corpus != "webtext" else "en-web",
                               f"{corpus}_{n.split('/')[-1].rsplit('.', 1)[0]}", t,
                               repo, f"{zp}:{n}", lic[corpus], "en")
    return total


# --------------------------------------------------------------------------- Russian

def ruslit(budget):
    repo = Repo("d0rj/RusLit")
    by_author = {}
    for p, (sha, size) in repo.tree().items():
        if p.endswith(".txt") and size > 2000:
            parts = p.split("/")
            by_author.setdefault(parts[0] + "/" + parts[1], []).append(p)
    rng = random.Random(SEED)
    total = 0
    for author, p in round_robin(by_author, rng):
        if total >= budget:
            break
        t = decode(repo.read(p))
        total += write("ru-ruslit", p.replace("/", "__")[:-4], t, repo, p,
                       "Public domain (repository states all works are in the public domain)", "ru")
    return total


# --------------------------------------------------------------------------- ELTeC

def eltec(lang, code, budget):
    repo = Repo(f"COST-ELTeC/ELTeC-{lang}")
    files = sorted(p for p in repo.tree() if p.startswith("level1/") and p.endswith(".xml"))
    rng = random.Random(SEED)
    rng.shuffle(files)
    total = 0
    for p in files:
        if total >= budget:
            break
        x = decode(repo.read(p))
        m = re.search(r"<title>(.*?)</title>", x, re.S)
        title = strip_tags(m.group(1)).strip() if m else p
        body = x[x.find("<body"):]
        back = body.find("<back")
        if back > 0:
            body = body[:back]
        body = re.sub(r"<note\b.*?</note>", "", body, flags=re.S)
        paras = []
        for m in re.finditer(r"<(p|l|head)\b[^>]*>(.*?)</\1>", body, re.S):
            t = re.sub(r"\s+", " ", strip_tags(m.group(2))).strip()
            if t:
                paras.append(t)
        total += write(f"{code}-eltec", f"{p.split('/')[-1][:-4]}_{title[:50]}", "\n\n".join(paras),
                       repo, p, "Texts public domain; ELTeC markup CC BY 4.0", code)
    return total


# --------------------------------------------------------------------------- Japanese

def aozora_clean(t):
    # header: title/author lines, then the "記号について" block between dashed rules
    lines = t.split("\n")
    dash = [i for i, l in enumerate(lines[:80]) if re.match(r"^-{20,}\s*$", l)]
    if len(dash) >= 2:
        head = [l for l in lines[:dash[0]] if l.strip()]
        lines = lines[dash[1] + 1:]
    else:
        head = []
    body = "\n".join(lines)
    cut = re.search(r"^底本[：:]", body, re.M)
    if cut:
        body = body[:cut.start()]
    body = re.sub(r"［＃[^］]*］", "", body)      # editor notes
    body = re.sub(r"《[^》]*》", "", body)        # ruby readings
    body = body.replace("｜", "")
    body = re.sub(r"〔[^〕]*〕", lambda m: m.group(0), body)
    body = body.replace("\u3000", "")             # paragraph indent
    # Each source line is a paragraph in Aozora texts.
    paras = [l.strip() for l in body.split("\n") if l.strip()]
    return head, "\n\n".join(paras)


def aozora(budget):
    repo = Repo("aozorahack/aozorabunko_text")
    files = sorted(p for p, (s, size) in repo.tree().items()
                   if p.startswith("cards/") and p.endswith(".txt") and 4000 < size < 1_500_000)
    rng = random.Random(SEED)
    rng.shuffle(files)
    total = 0
    seen_cards = set()
    for p in files:
        if total >= budget:
            break
        card = p.split("/")[1]
        work = p.split("/")[3].split("_")[0]
        if (card, work) in seen_cards:
            continue
        seen_cards.add((card, work))
        raw = repo.read(p)
        try:
            t = raw.decode("cp932")
        except UnicodeDecodeError:
            continue
        head, body = aozora_clean(t)
        if len(body) < 500:
            continue
        name = f"{card}_{work}_" + (head[0] if head else "")
        total += write("ja-aozora", name, body, repo, p,
                       "Aozora Bunko: public-domain works (Japan); transcriptions by Aozora volunteers, free to use", "ja")
    return total


# --------------------------------------------------------------------------- Chinese

def chinese_poetry(budget):
    repo = Repo("chinese-poetry/chinese-poetry")
    dirs_first = ["论语", "四书五经", "诗经", "楚辞", "蒙学", "五代诗词", "元曲", "宋词",
                  "曹操诗集", "纳兰性德", "幽梦影", "水墨唐诗"]
    tree = repo.tree()
    ordered = []
    for d in dirs_first:
        ordered += sorted(p for p in tree if p.startswith(d + "/") and p.endswith(".json")
                          and "author" not in p.split("/")[-1])
    tang = sorted(p for p in tree if p.startswith("全唐诗/poet.") and p.endswith(".json"))
    rng = random.Random(SEED)
    rng.shuffle(tang)
    ordered += tang
    total = 0

    def texts(obj, out):
        if isinstance(obj, dict):
            title = obj.get("title") or obj.get("rhythmic") or obj.get("chapter") or ""
            body = None
            for k in ("paragraphs", "content", "para"):
                if k in obj:
                    body = obj[k]
                    break
            if body is not None:
                lines = []

                def flat(b):
                    if isinstance(b, str):
                        lines.append(b)
                    elif isinstance(b, list):
                        for e in b:
                            flat(e)
                    elif isinstance(b, dict):
                        for v in b.values():
                            flat(v)
                flat(body)
                if lines:
                    out.append(((title + "\n") if isinstance(title, str) and title else "") + "\n".join(lines))
                return
            for v in obj.values():
                texts(v, out)
        elif isinstance(obj, list):
            for e in obj:
                texts(e, out)

    for p in ordered:
        if total >= budget:
            break
        try:
            obj = json.loads(repo.read(p))
        except Exception:
            continue
        out = []
        texts(obj, out)
        if not out:
            continue
        total += write("zh-poetry", p.replace("/", "__")[:-5], "\n\n".join(out), repo, p,
                       "MIT (chinese-poetry); classical texts public domain", "zh")
    return total


# --------------------------------------------------------------------------- Korean

def korean_journals(budget):
    repo = Repo("yeoksayeou/yeoksayeou.github.io")
    by_issue = {}
    for p in repo.tree():
        parts = p.split("/")
        if len(parts) == 4 and parts[1] == "issues" and parts[0] in ("sam", "kb", "pgg", "tg") \
                and p.endswith(".txt"):
            by_issue.setdefault(parts[0] + "/" + parts[2], []).append(p)
    keys = sorted(by_issue)
    rng = random.Random(SEED)
    rng.shuffle(keys)
    total = 0
    for k in keys:
        if total >= budget:
            break
        arts = []
        for p, data in repo.read_many(sorted(by_issue[k])):
            t = decode(data)
            lines = t.split("\n")
            # header lines are "field<TAB>value" (magazine, date, title, type)
            i = 0
            while i < len(lines) and ("\t" in lines[i] or not lines[i].strip()):
                i += 1
            body = "\n".join(lines[i:])
            body = re.sub(r"＜\d+＞", "", body)  # page markers
            arts.append(body)
        total += write("ko-journals", k.replace("/", "__"), "\n\n".join(arts), repo,
                       sorted(by_issue[k]),
                       "Korean colonial-era journals (1920s-40s, public domain); transcriptions from the National Institute of Korean History DB via yeoksayeou.github.io", "ko")
    return total


# --------------------------------------------------------------------------- Thai, Hindi, Hebrew

def thai():
    repo = Repo("PyThaiNLP/wisesight-sentiment")
    total = 0
    for p in ["neg.txt", "neu.txt", "pos.txt", "q.txt"]:
        t = decode(repo.read(p))
        total += write("th-wisesight", "wisesight_" + p[:-4], "\n\n".join(t.split("\n")), repo, p,
                       "CC0 1.0 (Wisesight Sentiment Corpus: Thai social media posts)", "th")
    return total


def hindi():
    repo = Repo("cltk/hindi_text_ltrc")
    files = sorted(p for p in repo.tree() if (p.endswith("main.txt") or p.endswith("main.u"))
                   and not p.startswith("original_classical_hindi_data"))
    total = 0
    for p, data in repo.read_many(files):
        t = decode(data)
        if not re.search(r"[\u0900-\u097f]", t):
            continue
        total += write("hi-ltrc", p.rsplit("/", 1)[0].replace("/", "__"), t, repo, p,
                       "GPL v1 per repository COPYING (IIIT Hyderabad LTRC classical & modern Hindi literature)", "hi")
    return total


def hebrew():
    repo = Repo("openscriptures/morphhb")
    files = sorted(p for p in repo.tree() if p.startswith("wlc/") and p.endswith(".xml")
                   and p != "wlc/VerseMap.xml")
    total = 0
    for p, data in repo.read_many(files):
        x = decode(data)
        verses = []
        for m in re.finditer(r"<verse osisID=\"[^\"]+\">(.*?)</verse>", x, re.S):
            v = m.group(1)
            v = re.sub(r"<note\b.*?</note>", "", v, flags=re.S)
            words = re.findall(r"<w\b[^>]*>(.*?)</w>|<seg[^>]*>(.*?)</seg>", v, re.S)
            out = ""
            for w, seg in words:
                if w:
                    w = strip_tags(w).replace("/", "")
                    out += ("" if (not out or out.endswith("־")) else " ") + w
                else:
                    out += seg
            out = re.sub(r"[\u0591-\u05af\u05bd]", "", out)  # cantillation and meteg
            if out.strip():
                verses.append(out.strip())
        # a chapter per paragraph would be long; one verse per unit
        total += write("he-wlc", "wlc_" + p[4:-4], "\n\n".join(verses), repo, p,
                       "Westminster Leningrad Codex text public domain; OSHB markup CC BY 4.0 (cantillation marks removed)", "he")
    return total


# --------------------------------------------------------------------------- Quran (ar, tr, ur, bn, zh)

def quran():
    repo = Repo("risan/quran-json")
    total = 0
    for lang, p, field in [("ar", "dist/quran.json", "text"), ("tr", "dist/quran_tr.json", "translation"),
                           ("ur", "dist/quran_ur.json", "translation"), ("bn", "dist/quran_bn.json", "translation"),
                           ("zh", "dist/quran_zh.json", "translation")]:
        chapters = json.loads(repo.read(p))
        for half in (0, 1):
            sel = [c for c in chapters if (c["id"] <= 18) == (half == 0)]
            units = []
            for c in sel:
                for v in c["verses"]:
                    units.append(v[field].strip())
            total += write(f"{lang}-quran", f"quran_{lang}_{half + 1}", "\n\n".join(units), repo, p,
                           "CC BY-SA 4.0 (risan/quran-json; Arabic text from Tanzil, translations as credited in its README)", lang)
    return total


# --------------------------------------------------------------------------- multilingual

def tatoeba():
    repo = Repo("facebookresearch/LASER")
    files = sorted(p for p in repo.tree() if p.startswith("data/tatoeba/v1/tatoeba."))
    total = 0
    for p, data in repo.read_many(files):
        t = decode(data)
        lang = p.rsplit(".", 1)[1]
        total += write("multi-tatoeba", p.split("/")[-1], "\n\n".join(t.split("\n")), repo, p,
                       "CC BY 2.0 FR (Tatoeba sentences, as packaged in LASER's test set)", lang)
    return total


def udhr():
    repo = Repo("unicode-org/udhr")
    files = sorted(p for p in repo.tree() if re.match(r"data/udhr/udhr_.*\.xml$", p))
    total = 0
    for p, data in repo.read_many(files):
        x = decode(data)
        m = re.search(r"<udhr\b[^>]*iso639-3='([^']*)'", x)
        lang = m.group(1) if m else "?"
        units = [re.sub(r"\s+", " ", strip_tags(m.group(2))).strip()
                 for m in re.finditer(r"<(title|para)>(.*?)</\1>", x, re.S)]
        units = [u for u in units if u]
        total += write("multi-udhr", p.split("/")[-1][:-4], "\n\n".join(units), repo, p,
                       "UDHR translations (OHCHR), UDHR in Unicode project: free to use", lang)
    return total


def bible_nt(budget):
    repo = Repo("christos-c/bible-corpus")
    prefer = ["Ukranian-NT", "Swahili-NT", "Gujarati-NT", "Latvian-NT", "Basque-NT", "Zulu-NT",
              "Estonian-PART", "Armenian-PART", "Coptic-NT", "Syriac-NT", "Cherokee-NT", "Kabyle-NT",
              "Wolof-NT", "Romani-NT", "Ewe-NT", "Gaelic-PART", "Manx-PART", "Nahuatl-NT", "Quichua-NT"]
    total = 0
    for name in prefer:
        if total >= budget:
            break
        p = f"bibles/{name}.xml"
        data = repo.read(p)
        if not data:
            continue
        x = decode(data)
        m = re.search(r'<language id="([^"]*)"', x)
        lang = m.group(1) if m else name
        segs = [re.sub(r"\s+", " ", strip_tags(m.group(1))).strip()
                for m in re.finditer(r"<seg\b[^>]*>(.*?)</seg>", x, re.S)]
        segs = [s for s in segs if s]
        total += write("multi-bible", name, "\n\n".join(segs), repo, p,
                       "CC0 1.0 (christos-c/bible-corpus)", lang)
    return total


def main():
    os.makedirs(OUT, exist_ok=True)
    steps = [
        ("en-gutenberg", lambda: gutenberg_en(33 * MB)),
        ("en-nltk", nltk_en),
        ("ru", lambda: ruslit(13 * MB)),
        ("de", lambda: eltec("deu", "de", 11 * MB)),
        ("fr", lambda: eltec("fra", "fr", 9 * MB)),
        ("es", lambda: eltec("spa", "es", 8 * MB)),
        ("ja", lambda: aozora(12 * MB)),
        ("zh", lambda: chinese_poetry(9 * MB)),
        ("ko", lambda: korean_journals(10 * MB)),
        ("th", thai),
        ("hi", hindi),
        ("he", hebrew),
        ("quran", quran),
        ("tatoeba", tatoeba),
        ("udhr", udhr),
        ("bible", lambda: bible_nt(8 * MB)),
    ]
    only = set(sys.argv[1:])
    for name, fn in steps:
        if only and name not in only:
            continue
        n = fn()
        print(f"{name:14s} {n / MB:8.2f} MB", flush=True)
    mf = os.path.join(OUT, "MANIFEST.tsv")
    mode = "a" if only else "w"
    with open(mf, mode, encoding="utf-8") as f:
        if mode == "w":
            f.write("group\tfile\trepo\tcommit\tpath\tlicence\tlanguage\tbytes\n")
        for row in manifest:
            f.write("\t".join(re.sub(r"[\t\r\n]+", " ", str(c)) for c in row) + "\n")


if __name__ == "__main__":
    main()
