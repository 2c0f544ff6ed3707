#!/usr/bin/env python3
"""Writes the Meta (Messenger / Instagram) fixtures of this folder.

Meta's JSON writes every UTF-8 byte of a string as its own \\u00XX escape; `moji` does the
same, so the files hold the mojibake real exports hold. Strings passed through `ok` are
written correctly (they must be left alone by the importer). Run from this folder.
"""
import json, os, shutil

def moji(s):
    return s.encode("utf-8").decode("latin-1")

class OK(str):
    pass

def ok(s):
    return OK(s)

def fix(v):
    if isinstance(v, OK):
        return str(v)
    if isinstance(v, str):
        return moji(v)
    if isinstance(v, list):
        return [fix(x) for x in v]
    if isinstance(v, dict):
        return {fix(k): fix(x) for k, x in v.items()}
    return v

def write(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="ascii") as f:
        json.dump(fix(obj), f, indent=2, ensure_ascii=True)
        f.write("\n")

def touch(path, data=b"\x00fixture media\n"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)

def thread(root, folder, participants, title, messages, per_file, **extra):
    """Writes messages (given oldest first) newest first over message_1.json … message_N.json."""
    newest = list(reversed(messages))
    chunks = [newest[i:i + per_file] for i in range(0, len(newest), per_file)] or [[]]
    for n, chunk in enumerate(chunks, start=1):
        obj = {"participants": [{"name": p} for p in participants], "messages": chunk, "title": title,
               "is_still_participant": True, "thread_path": folder.split("/", 1)[1] if "/" in folder else folder}
        obj.update(extra)
        write(f"{root}/{folder}/message_{n}.json", obj)

for d in ["e2ee-secure-storage", "facebook-2024", "facebook-2024-later", "facebook-2023", "instagram-2024", "instagram-2022", "html", "instagram-old"]:
    shutil.rmtree(d, ignore_errors=True)

T0 = 1717230000000  # 2024-06-01T08:20:00Z
JO, LENA, SAM, MIA = "Jo Brändt", "Lena Ortiz", "Sam Lee", "Mia Chen"
FB = "your_facebook_activity/messages"
LT = f"{FB}/inbox/lenaortiz_10158832"

def lena_thread(renamed=False, later=False):
    lena = "Lena Ortiz-Brandt" if renamed else LENA
    ms = [
        {"sender_name": lena, "timestamp_ms": T0, "content": "Café at 8?",
         "reactions": [{"reaction": "❤", "actor": JO}, {"reaction": "❤", "actor": lena}, {"reaction": "😂", "actor": JO}]},
        {"sender_name": JO, "timestamp_ms": T0 + 60_000, "content": "Sure 👍", "is_geoblocked_for_viewer": False},
        {"sender_name": lena, "timestamp_ms": T0 + 120_000, "content": f"{lena} sent an attachment.",
         "photos": [{"uri": f"{LT}/photos/café_1.jpg", "creation_timestamp": 1717230120},
                    {"uri": f"{LT}/photos/2_second.jpg", "creation_timestamp": 1717230120}]},
        {"sender_name": lena, "timestamp_ms": T0 + 120_000, "content": "Two in one millisecond"},
        {"sender_name": JO, "timestamp_ms": T0 + 180_000, "content": "Reacted ❤ to your message"},
        {"sender_name": lena, "timestamp_ms": T0 + 240_000,
         "audio_files": [{"uri": f"{LT}/audio/audioclip_1.mp4", "creation_timestamp": 1717230240}]},
        {"sender_name": JO, "timestamp_ms": T0 + 300_000,
         "share": {"link": "https://example.com/menu", "share_text": "Menu — Café Olé"}},
        {"sender_name": lena, "timestamp_ms": T0 + 360_000, "is_unsent": True},
        {"sender_name": JO, "timestamp_ms": T0 + 420_000, "content": f"You called {lena}.", "call_duration": 125},
        {"sender_name": lena, "timestamp_ms": T0 + 480_000, "content": f"You missed a call from {lena}.",
         "call_duration": 0, "missed": True},
        {"sender_name": lena, "timestamp_ms": T0 + 540_000, "content": "Привет! 你好 مرحبا"},
        {"sender_name": lena, "timestamp_ms": T0 + 600_000, "content": ok("naïve Müller paid £5 ©")},
        {"sender_name": JO, "timestamp_ms": T0 + 660_000, "content": "Ã© is what é looks like broken"},
        {"sender_name": lena, "timestamp_ms": T0 + 720_000, "content": "", "is_taken_down": True},
        {"sender_name": lena, "timestamp_ms": T0 + 780_000,
         "sticker": {"uri": "your_facebook_activity/messages/stickers_used/369239263222822.png", "ai_stickers": []}},
        {"sender_name": JO, "timestamp_ms": T0 + 840_000,
         "videos": [{"uri": f"{LT}/videos/clip_1.mp4", "creation_timestamp": 1717230840,
                     "thumbnail": {"uri": f"{LT}/videos/thumbnails/clip_1.jpg"}}],
         "gifs": [{"uri": f"{LT}/gifs/dance.gif"}]},
        {"sender_name": lena, "timestamp_ms": T0 + 900_000,
         "files": [{"uri": f"{LT}/files/Menü.pdf", "creation_timestamp": 1717230900}]},
        {"sender_name": lena, "timestamp_ms": T0 + 960_000, "content": f"{lena} sent a location.",
         "share": {"link": "https://maps.google.com/?q=52.52,13.40"}},
    ]
    if later:
        ms[1] = {"sender_name": JO, "timestamp_ms": T0 + 60_000, "is_unsent": True}
        ms.append({"sender_name": JO, "timestamp_ms": T0 + 86_400_000, "content": "See you tomorrow 🌞"})
        ms.append({"sender_name": lena, "timestamp_ms": T0 + 86_460_000, "content": "Bis morgen!"})
    return ms, lena

for root, renamed, later, per_file in [("facebook-2024", False, False, 7), ("facebook-2024-later", True, True, 5)]:
    ms, lena = lena_thread(renamed, later)
    thread(root, LT, [lena, JO], lena, ms, per_file)
    write(f"{root}/personal_information/profile_information/profile_information.json",
          {"profile_v2": {"name": {"full_name": JO, "first_name": "Jo", "last_name": "Brändt"}}})
    for f in ["photos/café_1.jpg", "photos/2_second.jpg", "audio/audioclip_1.mp4", "videos/clip_1.mp4",
              "videos/thumbnails/clip_1.jpg", "gifs/dance.gif", "files/Menü.pdf"]:
        touch(f"{root}/{LT}/{f}")
    touch(f"{root}/{FB}/stickers_used/369239263222822.png")

# A group in archived_threads, with English event sentences and one in German (stays text).
G = T0 + 3_600_000
thread("facebook-2024", f"{FB}/archived_threads/bookclub_2345678901", [LENA, JO, SAM, MIA], "Book Club 📚", [
    {"sender_name": LENA, "timestamp_ms": G, "content": f"{LENA} created the group."},
    {"sender_name": LENA, "timestamp_ms": G + 1000, "content": f"{LENA} added {SAM} to the group."},
    {"sender_name": JO, "timestamp_ms": G + 2000, "content": f"{JO} named the group Book Club 📚."},
    {"sender_name": LENA, "timestamp_ms": G + 3000, "content": f"{LENA} changed the group photo."},
    {"sender_name": SAM, "timestamp_ms": G + 4000, "content": f"{SAM} set the nickname for {JO} to JoJo."},
    {"sender_name": MIA, "timestamp_ms": G + 5000, "content": "مرحبا بالجميع! كتاب الشهر؟"},
    {"sender_name": LENA, "timestamp_ms": G + 6000, "content": f"{LENA} hat die Gruppe verlassen."},
    {"sender_name": SAM, "timestamp_ms": G + 7000, "content": f"{SAM} left the group."},
    {"sender_name": "Facebook user", "timestamp_ms": G + 8000, "content": "I left Facebook, bye"},
], 100, joinable_mode={"mode": 1, "link": ""})

thread("facebook-2024", f"{FB}/e2ee_cutover/samlee_5550001", [SAM, JO], SAM, [
    {"sender_name": SAM, "timestamp_ms": T0 + 7_200_000, "content": "Moving this chat to encryption"},
    {"sender_name": JO, "timestamp_ms": T0 + 7_260_000, "content": "OK"},
], 100)

# Facebook until 2023: messages/ at the root, `type` on every message, 2017-era media uris.
O = 1499000000000  # 2017-07-02
thread("facebook-2023", "messages/inbox/oldfriend_77001", ["Old Friend", "Jo Brandt"], "Old Friend", [
    {"sender_name": "Old Friend", "timestamp_ms": O, "content": "Grüße aus Köln", "type": "Generic"},
    {"sender_name": "Jo Brandt", "timestamp_ms": O + 1000, "type": "Share",
     "share": {"link": "https://example.org/article"}, "content": "https://example.org/article"},
    {"sender_name": "Old Friend", "timestamp_ms": O + 2000, "type": "Generic",
     "photos": [{"uri": "https://scontent.xx.fbcdn.net/v/t1/photo_1.jpg?oh=abc&oe=5A", "creation_timestamp": 1499000002}]},
    {"sender_name": "Old Friend", "timestamp_ms": O + 3000, "type": "Generic",
     "photos": [{"uri": "10150000000000001.jpg", "creation_timestamp": 1499000003}]},
    {"sender_name": "Jo Brandt", "timestamp_ms": O + 4000, "type": "Call", "call_duration": 61,
     "content": "Old Friend called you."},
    {"sender_name": "Jo Brandt", "timestamp_ms": O + 5000, "type": "Subscribe", "content": "Jo Brandt added Ana.",
     "users": [{"name": "Ana"}]},
    {"sender_name": "Ana", "timestamp_ms": O + 6000, "type": "Unsubscribe", "users": [{"name": "Ana"}]},
    {"sender_name": "Old Friend", "timestamp_ms": O + 7000, "type": "Generic",
     "photos": [{"uri": "../../../etc/passwd"}]},
], 100, thread_type="Regular")
write("facebook-2023/profile_information/profile_information.json", {"profile_v2": {"name": {"full_name": "Jo Brandt"}}})

# Instagram 2024+: your_instagram_activity/, display names, handles in shares, reaction times.
IG = "your_instagram_activity/messages/inbox/lena.travels_17845600000000001"
I0 = 1719800000000
thread("instagram-2024", IG, ["Lena ✈️", "Jo Brändt"], "Lena ✈️", [
    {"sender_name": "Lena ✈️", "timestamp_ms": I0, "content": "你好！看这个",
     "reactions": [{"reaction": "😂", "actor": "Jo Brändt", "timestamp": 1719800005}]},
    {"sender_name": "Lena ✈️", "timestamp_ms": I0 + 1000, "content": "Lena ✈️ sent an attachment.",
     "share": {"link": "https://www.instagram.com/p/C8xyz/", "share_text": "Sunset in Lisboa 🌅",
               "original_content_owner": "lena.travels"}},
    {"sender_name": "Jo Brändt", "timestamp_ms": I0 + 2000, "content": "Liked a message"},
    {"sender_name": "Jo Brändt", "timestamp_ms": I0 + 3000, "content": "Reacted 😂 to your message"},
    {"sender_name": "Jo Brändt", "timestamp_ms": I0 + 4000, "content": "ขอบคุณครับ 🙏",
     "photos": [{"uri": f"{IG}/photos/45_sunset.jpg", "creation_timestamp": 1719800004}]},
    {"sender_name": "Lena ✈️", "timestamp_ms": I0 + 5000, "content": "שלום e\u0301 👍🏽"},
], 100)
touch(f"instagram-2024/{IG}/photos/45_sunset.jpg", b"\xff\xd8\xff sunset")
write("instagram-2024/personal_information/personal_information/personal_information.json",
      {"profile_user": [{"string_map_data": {"Name": {"value": "Jo Brändt", "timestamp": 0},
                                              "Username": {"value": "jo.brandt", "timestamp": 0}}}]})

# Instagram 2020–2023: messages/ at the root, no profile file: the owner is the one name in every thread.
thread("instagram-2022", "messages/inbox/lenaortiz_340282366841710300949128100000000001", ["Lena", "jo"], "Lena", [
    {"sender_name": "Lena", "timestamp_ms": 1650000000000, "content": "hey 😊"},
    {"sender_name": "jo", "timestamp_ms": 1650000060000, "content": "hi!"},
], 100)
thread("instagram-2022", "messages/inbox/samlee_340282366841710300949128100000000002", ["Sam", "jo"], "Sam", [
    {"sender_name": "jo", "timestamp_ms": 1650000120000, "content": "Samstag?"},
], 100)

# HTML: the default format of Download your information.
os.makedirs("html/your_facebook_activity/messages/inbox/lenaortiz_10158832", exist_ok=True)
with open("html/your_facebook_activity/messages/inbox/lenaortiz_10158832/message_1.html", "w") as f:
    f.write("<!DOCTYPE html><html><head><title>Lena Ortiz</title></head><body><div>Café at 8?</div></body></html>\n")

# Instagram before 2020: one messages.json with conversation lists.
os.makedirs("instagram-old", exist_ok=True)
with open("instagram-old/messages.json", "w") as f:
    json.dump([{"participants": ["lena.travels", "jo.brandt"],
                "conversation": [{"sender": "lena.travels", "created_at": "2018-03-01T10:00:00.000Z", "text": "hi"}]}], f)
    f.write("\n")

# The download of end-to-end encrypted chats ("secure storage"): refused for now.
os.makedirs("e2ee-secure-storage/media", exist_ok=True)
with open("e2ee-secure-storage/Lena Ortiz_1.json", "w") as f:
    json.dump({"participants": ["Jo Brändt", "Lena Ortiz"], "threadName": "Lena Ortiz", "messages": [
        {"senderName": "Lena Ortiz", "timestamp": 1720000000000, "text": "Now encrypted 🔒", "type": "text",
         "media": [], "reactions": [], "isUnsent": False}]}, f, indent=2, ensure_ascii=False)
    f.write("\n")
