#!/usr/bin/env python3
"""Checks a ChatArchive JSON Lines file against the JSON Lines format (ChatArchive's JSONLinesFormat article) (and this corpus's
own promises).  Standard library only.   python3 validate_jsonl.py real-1m.jsonl"""
import datetime as dt
import json
import re
import sys
from collections import Counter

RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
CHAT_TYPES = {"direct", "group", "local", "contactRequest", "contactConnection"}
NOTIF = {"all", "mentions", "none"}
DIRS = {"snd", "rcv", "event"}
CONTENT = {"text", "link", "image", "video", "voice", "file", "report", "chat", "event", "unknown"}


def main(path):
    errors = Counter()
    examples = {}

    def bad(kind, lineno, msg):
        errors[kind] += 1
        examples.setdefault(kind, f"line {lineno}: {msg}")

    chats = {}       # chatId -> {"type", "members": set, "ids": set, "last": datetime, "speakers": set}
    kinds = Counter()
    max_bytes = 0
    text_bytes = 0
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                o = json.loads(raw.decode("utf-8"))
            except Exception as e:
                bad("unparseable", lineno, str(e))
                continue
            k = o.get("kind")
            kinds[k] += 1
            if k == "chat":
                for fld, typ in (("chatId", str), ("type", str), ("displayName", str), ("fullName", str),
                                 ("localAlias", str), ("favorite", bool), ("notifications", str),
                                 ("unreadChat", bool), ("tags", list)):
                    if not isinstance(o.get(fld), typ):
                        bad(f"chat.{fld}", lineno, repr(o.get(fld)))
                if o.get("type") not in CHAT_TYPES:
                    bad("chat.type enum", lineno, o.get("type"))
                if o.get("notifications") not in NOTIF:
                    bad("chat.notifications enum", lineno, o.get("notifications"))
                if "business" not in o or o["business"] not in (None, "business", "customer"):
                    bad("chat.business", lineno, o.get("business"))
                if not all(isinstance(t, str) for t in o.get("tags", [])):
                    bad("chat.tags", lineno, o.get("tags"))
                if o.get("chatId") in chats:
                    bad("chat.duplicate", lineno, o.get("chatId"))
                chats[o.get("chatId")] = {"type": o.get("type"), "members": set(), "ids": set(),
                                          "last": None, "speakers": set(), "items": 0}
            elif k == "member":
                c = chats.get(o.get("chatId"))
                if c is None:
                    bad("member before its chat", lineno, o.get("chatId"))
                    continue
                for fld, typ in (("memberId", str), ("displayName", str), ("fullName", str),
                                 ("localAlias", str), ("isUser", bool)):
                    if not isinstance(o.get(fld), typ):
                        bad(f"member.{fld}", lineno, repr(o.get(fld)))
                if c["items"]:
                    bad("member after items", lineno, o.get("memberId"))
                c["members"].add(o.get("memberId"))
            elif k == "item":
                c = chats.get(o.get("chatId"))
                if c is None:
                    bad("item before its chat", lineno, o.get("chatId"))
                    continue
                c["items"] += 1
                iid = o.get("id")
                if not isinstance(iid, str):
                    bad("item.id type", lineno, repr(iid))
                elif iid in c["ids"]:
                    bad("item.id duplicate", lineno, iid)
                c["ids"].add(iid)
                ts = o.get("ts")
                if not isinstance(ts, str) or not RFC3339.match(ts):
                    bad("item.ts format", lineno, repr(ts))
                else:
                    t = dt.datetime.fromisoformat(ts.replace("Z", "+00:00"))
                    if c["last"] is not None and t <= c["last"]:
                        bad("item.ts not increasing", lineno, ts)
                    c["last"] = t
                d = o.get("dir")
                if d not in DIRS:
                    bad("item.dir", lineno, d)
                mid = o.get("memberId")
                if mid is not None:
                    if mid not in c["members"]:
                        bad("item.memberId unknown", lineno, mid)
                    c["speakers"].add(mid)
                elif c["type"] == "group":
                    bad("group item without memberId", lineno, iid)
                else:
                    c["speakers"].add("(user)" if d == "snd" else "(contact)")
                ct = o.get("content")
                if not isinstance(ct, dict) or ct.get("type") not in CONTENT or not isinstance(ct.get("text"), str):
                    bad("item.content", lineno, repr(ct)[:80])
                else:
                    txt = ct["text"]
                    b = len(txt.encode())
                    text_bytes += b
                    max_bytes = max(max_bytes, b)
                    if not txt.strip():
                        bad("empty text", lineno, iid)
                    if b > 1000:
                        bad("text over 1000 bytes", lineno, b)
                    if "project gutenberg" in txt.lower():
                        bad("Gutenberg boilerplate left", lineno, txt[:80])
                    if "git-lfs" in txt:
                        bad("LFS pointer text", lineno, txt[:80])
                    if re.search(r"[\x00-\x08\x0b-\x1f\x7f]", txt):
                        bad("control character", lineno, repr(txt[:40]))
                if not isinstance(o.get("mentions"), dict):
                    bad("item.mentions", lineno, repr(o.get("mentions")))
                q = o.get("quote")
                if q is not None and (not isinstance(q, dict) or q.get("id") not in c["ids"]
                                      or not isinstance(q.get("text"), str)):
                    bad("item.quote", lineno, repr(q)[:80])
                for fld in ("edited", "deleted", "unread"):
                    if not isinstance(o.get(fld), bool):
                        bad(f"item.{fld}", lineno, repr(o.get(fld)))
                if o.get("file") is not None:
                    bad("item.file", lineno, repr(o.get("file")))
            else:
                bad("unknown kind", lineno, repr(k))
    speakers = Counter(len(c["speakers"]) for c in chats.values())
    sizes = sorted(c["items"] for c in chats.values())
    report = {
        "lines": dict(kinds), "chats": len(chats), "items": kinds["item"],
        "chat types": dict(Counter(c["type"] for c in chats.values())),
        "speakers per chat": dict(sorted(speakers.items())),
        "chat size min/median/max": [sizes[0], sizes[len(sizes) // 2], sizes[-1]] if sizes else None,
        "text bytes": text_bytes, "mean text bytes": round(text_bytes / max(1, kinds["item"]), 1),
        "max text bytes": max_bytes,
        "errors": dict(errors), "first example of each error": examples,
    }
    print(json.dumps(report, ensure_ascii=False, indent=1))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "real-1m.jsonl"))
