#!/usr/bin/env python3
"""Build real-1m.jsonl: 1,000,000 chat messages of real human-written text in 2,000 chats.

Input: the UTF-8 text files under src/<group>/*.txt written by extract_sources.py (one
document per file; a blank line separates paragraphs) and src/MANIFEST.tsv.
Output: a ChatArchive JSON Lines file (ChatArchive's JSONLinesFormat article): per chat one `chat` line,
its `member` lines, then its `item` lines; chats in a shuffled order.  Plus a statistics
JSON next to it.  Standard library only; deterministic for a given src/ and seed.

    python3 make_corpus.py [--src DIR] [--out FILE] [--messages N] [--chats N] [--seed S]
"""
import argparse
import bisect
import datetime as dt
import json
import math
import os
import random
import re
import sys
import time

# ----------------------------------------------------------------------------- cleaning

GUT_START = re.compile(r"^\s*\*{3}\s*START OF (THIS|THE) PROJECT GUTENBERG.*$", re.I | re.M)
GUT_END = re.compile(r"^\s*\*{3}\s*END OF (THIS|THE) PROJECT GUTENBERG.*$", re.I | re.M)
GUT_OLD_START = re.compile(r"^\*END\*THE SMALL PRINT.*$", re.M)
GUT_OLD_END = re.compile(r"^\s*End of (the )?Project Gutenberg", re.I | re.M)
BOILER = re.compile(
    r"gutenberg|^(produced by|e-?text prepared by|transcribed by|transcriber'?s note|"
    r"this e-?book|\[illustration|updated editions will replace|\*\s*\*\s*\*)", re.I)
LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
# scripts written without spaces between words: joining wrapped lines adds no space
NOSPACE = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef\u0e00-\u0e7f]")


def strip_gutenberg(text):
    m = GUT_START.search(text)
    if m:
        text = text[m.end():]
    else:
        m = GUT_OLD_START.search(text)
        if m:
            text = text[m.end():]
    m = GUT_END.search(text)
    if m:
        text = text[:m.start()]
    else:
        m = GUT_OLD_END.search(text)
        if m:
            text = text[:m.start()]
    return text


CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f\u200b\ufeff]")


def paragraphs(text, gutenberg):
    text = CONTROL.sub("", text)
    if gutenberg:
        text = strip_gutenberg(text)
    out = []
    for para in re.split(r"\n[ \t]*\n", text):
        lines = [l.strip() for l in para.split("\n") if l.strip()]
        if not lines:
            continue
        s = lines[0]
        for l in lines[1:]:
            if NOSPACE.match(l[0]) and NOSPACE.match(s[-1]):
                s += l
            else:
                s += " " + l
        s = re.sub(r"\s+", " ", s).strip()
        if not s or not LETTER.search(s):
            continue
        if gutenberg and BOILER.search(s[:200]):
            continue
        out.append(s)
    return out


# ----------------------------------------------------------------------------- sentences

ABBREV = {"mr", "mrs", "ms", "dr", "st", "sr", "jr", "vs", "etc", "no", "mt", "capt", "col", "gen",
          "lt", "prof", "rev", "hon", "messrs", "mme", "mlle", "hr", "fr", "nr", "bzw", "ca", "z.b",
          "u.s", "i.e", "e.g", "vol", "ch", "p", "pp", "fig", "op", "ed", "sq", "sta", "sto", "sig", "ul", "g"}
END = re.compile(
    r"[.!?…]+[\"'”’»)\]]*\s+"            # Latin/Cyrillic/Greek...: punctuation then space
    r"|[。！？]+[」』”’）)\]]*\s*"         # CJK: no space needed
    r"|[؟।॥׃۔]+\s*"                      # Arabic ?, Devanagari danda, Hebrew sof pasuq, Urdu full stop
    r"|[;；]\s*(?=.{120})")               # semicolons split very long sentences only
MAX_SENT = 600       # bytes: longer sentences are cut at a soft break
WEIGHTS = (0.30, 0.40, 0.30)
SOFT = re.compile(r"[,，、;:：]\s*|\s+")


def split_long(s):
    """Cuts s into pieces of at most MAX_SENT UTF-8 bytes at soft breaks where possible."""
    out = []
    while len(s.encode()) > MAX_SENT:
        # find the last soft break within ~MAX_SENT bytes (chars ~ bytes/3 for CJK)
        limit = len(s.encode()[:MAX_SENT].decode("utf-8", "ignore"))
        cut = 0
        for m in SOFT.finditer(s, 0, limit):
            if m.end() > limit // 3:
                cut = m.end()
        if cut == 0:
            cut = limit
        out.append(s[:cut].strip())
        s = s[cut:].strip()
    if s:
        out.append(s)
    return [p for p in out if p]


def sentences(para):
    out = []
    start = 0
    for m in END.finditer(para):
        end = m.end()
        piece = para[start:end]
        if m.group(0)[0] == ".":
            w = re.search(r"(\S+)\.[\"'”’»)\]]*\s+$", piece)
            if w:
                word = w.group(1).lower().lstrip("(\"'“‘«[")
                if word in ABBREV or (len(word) == 1 and word.isalpha()):
                    continue
        out.append(piece.strip())
        start = end
    if start < len(para):
        out.append(para[start:].strip())
    res = []
    for s in out:
        if not s:
            continue
        if len(s.encode()) > MAX_SENT:
            res.extend(split_long(s))
        else:
            res.append(s)
    return res


def messages_of(paras, rng, soft_cap):
    """1-3 consecutive sentences of one paragraph per message."""
    msgs = []
    for para in paras:
        sents = sentences(para)
        i = 0
        while i < len(sents):
            want = rng.choices((1, 2, 3), WEIGHTS)[0]
            msg = sents[i]
            size = len(msg.encode())
            i += 1
            k = 1
            while k < want and i < len(sents):
                nb = len(sents[i].encode())
                if size + 1 + nb > soft_cap:
                    break
                joiner = "" if NOSPACE.match(sents[i][0]) and NOSPACE.match(msg[-1]) else " "
                msg += joiner + sents[i]
                size += len(joiner) + nb
                i += 1
                k += 1
            msgs.append(msg)
    return msgs


# ----------------------------------------------------------------------------- people

NAMES = {
    "en": ["Emma", "Oliver", "Grace", "Henry", "Lucy", "Jack", "Mia", "Noah", "Ava", "Leo", "Chloe", "Sam B",
           "Olivia Reed", "Ben", "Harper", "Ethan", "Zoe", "Max", "Lily", "Daniel", "Ruby", "Tom"],
    "de": ["Lukas", "Anna", "Jonas", "Lena", "Felix", "Marie", "Paul", "Sophie", "Jürgen", "Käthe", "Björn", "Ute"],
    "fr": ["Léa", "Hugo", "Chloé", "Lucas", "Manon", "Théo", "Camille", "Louis", "Zoé", "Élodie", "Gaël"],
    "es": ["Lucía", "Mateo", "Sofía", "Hugo", "Martina", "Pablo", "Valeria", "Álvaro", "Nuria", "Íñigo"],
    "ru": ["Алексей", "Мария", "Дмитрий", "Анна", "Иван", "Ольга", "Сергей", "Наталья", "Пётр", "Юлия"],
    "ja": ["さくら", "健太", "美咲", "翔太", "陽菜", "大輔", "ゆい", "拓也", "Aoi", "真央"],
    "zh": ["王伟", "李娜", "张敏", "刘洋", "陈静", "杨帆", "小林", "晓明", "Lin", "赵磊"],
    "ko": ["민준", "서연", "지훈", "하은", "도윤", "수아", "현우", "지민", "예린", "Minho"],
    "ar": ["أحمد", "فاطمة", "محمد", "ليلى", "يوسف", "مريم", "عمر", "سارة", "خالد", "نور"],
    "ur": ["علی", "عائشہ", "حسن", "زینب", "بلال", "صبا", "عمران", "ہما"],
    "he": ["נועה", "איתי", "תמר", "יונתן", "מאיה", "אורי", "שירה", "דניאל"],
    "hi": ["आरव", "अनन्या", "विवान", "दिया", "अर्जुन", "प्रिया", "रोहन", "सान्वी", "Rahul", "नेहा"],
    "bn": ["অর্ক", "রিয়া", "সৌরভ", "তানিয়া", "অনিক", "মিথিলা"],
    "th": ["สมชาย", "สุดา", "ณัฐ", "มาลี", "ภูมิ", "พลอย", "Beam", "แพรว"],
    "tr": ["Elif", "Mehmet", "Zeynep", "Ahmet", "Ayşe", "Mustafa", "Şule", "Çağrı", "İrem", "Oğuz"],
}
OFFSET = {"en": 0, "de": 60, "fr": 60, "es": 60, "ru": 180, "ja": 540, "zh": 480, "ko": 540, "ar": 180,
          "ur": 300, "he": 120, "hi": 330, "bn": 360, "th": 420, "tr": 180}
TAGS = ["friends", "books", "reading club", "family", "study", "work", "travel", "poetry"]


def base_lang(group):
    return group.split("-")[0]


# ----------------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser()
    here = os.getcwd()  # a work folder, never this one: the corpus is not committed
    ap.add_argument("--src", default=os.path.join(here, "src"))
    ap.add_argument("--out", default=os.path.join(here, "real-1m.jsonl"))
    ap.add_argument("--messages", type=int, default=1_000_000)
    ap.add_argument("--chats", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--soft-cap", type=int, default=460,
                    help="a 2nd/3rd sentence joins a message only while it stays under this many bytes")
    args = ap.parse_args()
    t0 = time.time()
    rng = random.Random(args.seed)

    manifest = {}
    mf = os.path.join(args.src, "MANIFEST.tsv")
    if os.path.exists(mf):
        with open(mf, encoding="utf-8") as f:
            next(f)
            for line in f:
                c = line.rstrip("\n").split("\t")
                manifest[(c[0], c[1])] = c

    # 1. documents -> messages
    groups = {}
    src_bytes = 0
    for group in sorted(os.listdir(args.src)):
        gdir = os.path.join(args.src, group)
        if not os.path.isdir(gdir):
            continue
        docs = []
        for fn in sorted(os.listdir(gdir)):
            if not fn.endswith(".txt"):
                continue
            with open(os.path.join(gdir, fn), encoding="utf-8") as f:
                text = f.read()
            src_bytes += len(text.encode())
            drng = random.Random(f"{args.seed}/{group}/{fn}")
            msgs = messages_of(paragraphs(text, gutenberg=(group == "en-gutenberg")), drng, args.soft_cap)
            if not msgs:
                continue
            lang = manifest.get((group, fn), [None] * 7)[6] or base_lang(group)
            title = re.sub(r"_+", " ", fn[:-4]).strip()
            docs.append({"file": fn, "lang": lang, "title": title, "msgs": msgs})
        if docs:
            groups[group] = docs
    total_pieces = sum(len(d["msgs"]) for docs in groups.values() for d in docs)
    distinct_bytes = sum(len(m.encode()) for docs in groups.values() for d in docs for m in d["msgs"])
    print(f"src {src_bytes / 1e6:.1f} MB in {len(groups)} groups -> {total_pieces} pieces, "
          f"{distinct_bytes / 1e6:.1f} MB of message text ({time.time() - t0:.0f}s)", file=sys.stderr)

    # 2. how many messages each group contributes; take a contiguous window of every
    #    document (scaled down), or cycle through everything when there is too little text.
    N = args.messages
    names = sorted(groups)
    pieces = {g: sum(len(d["msgs"]) for d in groups[g]) for g in names}
    repeats = N / total_pieces
    quota = {g: int(N * pieces[g] / total_pieces) for g in names}
    short = N - sum(quota.values())
    for g in sorted(names, key=lambda g: -(N * pieces[g] / total_pieces - quota[g]))[:short]:
        quota[g] += 1
    streams = {}
    used_bytes = 0
    for g in names:
        docs = groups[g]
        want = quota[g]
        stream = []  # (doc index, text)
        if want <= pieces[g]:
            f = want / pieces[g]
            takes = [int(len(d["msgs"]) * f) for d in docs]
            rem = want - sum(takes)
            order = sorted(range(len(docs)), key=lambda i: -(len(docs[i]["msgs"]) * f - takes[i]))
            for i in order[:rem]:
                takes[i] += 1
            for i, d in enumerate(docs):
                n = takes[i]
                if n == 0:
                    continue
                start = rng.randrange(0, len(d["msgs"]) - n + 1)
                for m in d["msgs"][start:start + n]:
                    stream.append((i, m))
                    used_bytes += len(m.encode())
        else:
            k = 0
            flat = [(i, m) for i, d in enumerate(docs) for m in d["msgs"]]
            used_bytes += sum(len(m.encode()) for _, m in flat)
            while len(stream) < want:
                stream.append(flat[k % len(flat)])
                k += 1
        streams[g] = stream

    # 3. chat sizes: a few very big chats, a long tail of small ones; sum exactly N.
    C = args.chats
    fixed = [50_000] * 4 + [20_000] * 6 + [8_000] * 12 + [3_000] * 30
    fixed = fixed[:C]
    rest_n = C - len(fixed)
    rest_total = N - sum(fixed)
    raw = [math.exp(rng.gauss(0, 1.3)) for _ in range(rest_n)]
    s = sum(raw)
    rest = [max(3, int(r * rest_total / s)) for r in raw]
    sizes = fixed + rest
    diff = N - sum(sizes)
    # fix rounding on the biggest tail chats
    idx = sorted(range(len(fixed), C), key=lambda i: -sizes[i])
    j = 0
    while diff != 0:
        i = idx[j % len(idx)]
        step = 1 if diff > 0 else -1
        if sizes[i] + step >= 3:
            sizes[i] += step
            diff -= step
        j += 1

    # 4. assign chats to groups (largest remaining capacity first), then make each group's
    #    chat sizes add up to its quota exactly.
    remaining = dict(quota)
    assigned = {g: [] for g in names}
    for size in sorted(sizes, reverse=True):
        g = max(names, key=lambda g: (remaining[g], g))
        assigned[g].append(size)
        remaining[g] -= size
    for g in names:
        if not assigned[g]:  # a group too small to get a chat: give it one from the biggest
            donor = max(names, key=lambda h: len(assigned[h]))
            assigned[g].append(assigned[donor].pop())
    for g in names:
        lst = assigned[g]
        tot = sum(lst)
        scaled = [max(1, int(x * quota[g] / tot)) for x in lst]
        d = quota[g] - sum(scaled)
        k = 0
        while d != 0:
            i = k % len(scaled)
            step = 1 if d > 0 else -1
            if scaled[i] + step >= 1:
                scaled[i] += step
                d -= step
            k += 1
        rng.shuffle(scaled)
        assigned[g] = scaled

    chats = []  # (group, [(doc index, text)])
    for g in names:
        pos = 0
        for size in assigned[g]:
            chats.append((g, streams[g][pos:pos + size]))
            pos += size
        assert pos == len(streams[g]), (g, pos, len(streams[g]))
    rng.shuffle(chats)

    # 5. write
    epoch0 = dt.datetime(2019, 1, 1, tzinfo=dt.timezone.utc).timestamp()
    n_items = 0
    text_bytes = 0
    chat_sizes = []
    with open(args.out, "w", encoding="utf-8", newline="\n") as out:
        def w(obj):
            out.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
            out.write("\n")

        for ci, (g, items) in enumerate(chats):
            chat_id = f"rt{ci:04d}"
            docs = groups[g]
            lang = docs[items[0][0]]["lang"]
            lang2 = lang if lang in NAMES else base_lang(g)
            pool = NAMES.get(lang2, NAMES["en"])
            size = len(items)
            if size >= 3000:
                n_people = rng.randint(6, 8)
            else:
                n_people = 2 if rng.random() < 0.35 else rng.randint(3, 8)
            n_people = min(n_people, len(pool) + 1)
            others = rng.sample(pool, n_people - 1)
            direct = n_people == 2
            title = docs[items[0][0]]["title"]
            tags = rng.sample(TAGS, rng.choice((0, 1, 1, 2)))
            w({"kind": "chat", "chatId": chat_id, "type": "direct" if direct else "group",
               "displayName": others[0] if direct else title[:60],
               "fullName": "" if direct else f"{g} · {title[:100]}",
               "localAlias": "", "favorite": rng.random() < 0.05,
               "notifications": "all" if rng.random() < 0.85 else rng.choice(("mentions", "none")),
               "unreadChat": rng.random() < 0.02, "business": None, "tags": tags})
            members = [(f"m{k + 1}", name) for k, name in enumerate(others)]
            for mid, name in members:
                w({"kind": "member", "chatId": chat_id, "memberId": mid, "displayName": name,
                   "fullName": "", "localAlias": "", "isUser": False})
            if not direct:
                w({"kind": "member", "chatId": chat_id, "memberId": "u", "displayName": "Sam",
                   "fullName": "Sam Rivera", "localAlias": "", "isUser": True})
            # timeline: start 2019-2022, span from days (tiny chats) to ~4 years
            start = epoch0 + rng.random() * 3 * 365 * 86400
            span = (rng.uniform(1, 4) * 365 * 86400 if size >= 200
                    else rng.uniform(2, 30 + size * 3) * 86400)
            short_gap = 45.0
            long_gap = max(short_gap, (span / size - 0.85 * short_gap) / 0.15)
            offset = OFFSET.get(lang2, 0)
            if lang2 == "en" and rng.random() < 0.5:
                offset = rng.choice((-300, -480, 60))
            tz = dt.timezone(dt.timedelta(minutes=offset))
            t = start
            unread_from = size - rng.randint(1, 30) if rng.random() < 0.3 else size
            weights = [1.0 / (k + 1) ** 0.7 for k in range(n_people)]  # user first
            speakers = ["u"] + [mid for mid, _ in members]
            rng.shuffle(weights)
            prev = None
            spoken = set()
            recent = []
            for k, (_, text) in enumerate(items):
                t += max(1.0, rng.expovariate(1 / short_gap) if rng.random() < 0.85
                         else rng.expovariate(1 / long_gap))
                if prev is not None and rng.random() < 0.35:
                    who = prev
                else:
                    who = rng.choices(speakers, weights)[0]
                    if who == prev and n_people > 1:
                        who = rng.choices(speakers, weights)[0]
                if k == size - 1 and size > 1 and len(spoken) == 1 and who in spoken:
                    who = rng.choice([x for x in speakers if x != who])
                spoken.add(who)
                prev = who
                ts = dt.datetime.fromtimestamp(int(t), tz).isoformat()
                if ts.endswith("+00:00"):
                    ts = ts[:-6] + "Z"
                item = {"kind": "item", "chatId": chat_id, "id": str(k + 1), "ts": ts,
                        "dir": "snd" if who == "u" else "rcv"}
                if who != "u":
                    item["memberId"] = who
                elif not direct:
                    item["memberId"] = "u"
                item["content"] = {"type": "text", "text": text}
                item["mentions"] = {}
                if recent and rng.random() < 0.03:
                    qid, qtext = rng.choice(recent)
                    item["quote"] = {"id": qid, "text": qtext}
                else:
                    item["quote"] = None
                item["edited"] = rng.random() < 0.01
                item["deleted"] = False
                item["unread"] = k >= unread_from and who != "u"
                item["file"] = None
                if who == "u":
                    item["status"] = "read"
                w(item)
                recent.append((str(k + 1), text))
                if len(recent) > 16:
                    recent.pop(0)
                n_items += 1
                text_bytes += len(text.encode())
            chat_sizes.append(size)

    # 6. statistics
    scripts = {
        "Latin": r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff]", "Cyrillic": r"[\u0400-\u052f]",
        "Greek/Coptic": r"[\u0370-\u03ff\u2c80-\u2cff]", "Han": r"[\u3400-\u9fff\uf900-\ufaff]",
        "Kana": r"[\u3040-\u30ff]", "Hangul": r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]",
        "Arabic": r"[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]", "Hebrew": r"[\u0590-\u05ff]",
        "Devanagari": r"[\u0900-\u097f]", "Bengali": r"[\u0980-\u09ff]", "Gujarati": r"[\u0a80-\u0aff]",
        "Thai": r"[\u0e00-\u0e7f]", "Armenian": r"[\u0530-\u058f]", "Syriac": r"[\u0700-\u074f]",
        "Cherokee": r"[\u13a0-\u13ff]",
    }
    letters = {k: 0 for k in scripts}
    combined = re.compile("|".join(f"(?P<s{i}>{p}+)" for i, p in enumerate(scripts.values())))
    keys = list(scripts)
    with open(args.out, encoding="utf-8") as f:
        for line in f:
            if '"kind":"item"' not in line:
                continue
            txt = json.loads(line)["content"]["text"]
            for m in combined.finditer(txt):
                k = keys[int(m.lastgroup[1:])]
                letters[k] += len(m.group(0).encode())
    lang_msgs = {}
    for g, items in chats:
        lang_msgs[g] = lang_msgs.get(g, 0) + len(items)
    cs = sorted(chat_sizes)
    stats = {
        "file": os.path.basename(args.out), "bytes": os.path.getsize(args.out),
        "chats": len(chats), "messages": n_items, "message_text_bytes": text_bytes,
        "mean_message_bytes": round(text_bytes / n_items, 1),
        "max_message_bytes": None,
        "chat_size": {"min": cs[0], "median": cs[len(cs) // 2], "max": cs[-1],
                      "chats_>=10000": sum(1 for x in cs if x >= 10000),
                      "chats_<100": sum(1 for x in cs if x < 100)},
        "src_bytes": src_bytes, "distinct_pieces": total_pieces,
        "distinct_message_text_bytes": distinct_bytes,
        "distinct_text_bytes_used": used_bytes,
        "text_repeats": round(max(1.0, repeats), 3),
        "share_of_pieces_used": round(min(1.0, 1 / repeats), 3),
        "messages_per_group": dict(sorted(lang_msgs.items(), key=lambda kv: -kv[1])),
        "utf8_bytes_per_script": dict([(k, v) for k, v in sorted(letters.items(), key=lambda kv: -kv[1]) if v]
                                      + [("other (spaces, digits, punctuation, symbols)",
                                          text_bytes - sum(letters.values()))]),
        "byte_share_per_script": dict([(k, round(v / text_bytes, 4))
                                       for k, v in sorted(letters.items(), key=lambda kv: -kv[1]) if v]
                                      + [("other", round(1 - sum(letters.values()) / text_bytes, 4))]),
        "seed": args.seed, "soft_cap": args.soft_cap, "seconds": round(time.time() - t0),
    }
    mx = 0
    with open(args.out, encoding="utf-8") as f:
        for line in f:
            if '"kind":"item"' in line:
                mx = max(mx, len(json.loads(line)["content"]["text"].encode()))
    stats["max_message_bytes"] = mx
    with open(os.path.splitext(args.out)[0] + ".stats.json", "w", encoding="utf-8") as f:
        json.dump(stats, f, ensure_ascii=False, indent=1)
    print(json.dumps(stats, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
