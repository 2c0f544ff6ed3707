#!/usr/bin/env python3
"""Writes the hand-written Signal plaintext exports of this folder (see README.md).

The frames are written out by hand below; this script only fills in what must be computed
(base64 of ACIs and keys, the SHA-256 names of the files under files/) and writes the files.
Run it from anywhere: python3 Corpus/signal/make_fixtures.py
"""
import base64, hashlib, json, os, shutil, uuid

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1767225000000  # 2025-12-31T23:50:00Z


def b64(b):
    return base64.b64encode(b).decode()


def aci(text):
    return b64(uuid.UUID(text).bytes)


def secret(label, n=32):
    """Deterministic fake key material; its base64 text is what the tests look for."""
    out = b""
    while len(out) < n:
        out += hashlib.sha256((label + str(len(out))).encode()).digest()
    return out[:n]


ACI = {
    "me": "0f0e0d0c-0b0a-4908-8706-050403020100",
    "jo": "abcdef12-3456-7890-1234-567890123456",
    "ken": "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d",
    "yael": "9d8c7b6a-5f4e-4d3c-9b2a-1f0e9d8c7b6a",
    "somchai": "5b5b5b5b-1111-4222-8333-444455556666",
}


def pointer(label, content_type, file_name=None, exported=True, body=b"", size=None):
    """A FilePointer; with `exported`, also the file's bytes and its path under files/."""
    plaintext_hash = secret(label + "-hash")
    local_key = secret(label + "-local", 64)
    loc = {"key": b64(secret(label + "-key", 64)), "size": size if size is not None else len(body),
           "transitCdnKey": "cdn-" + label, "transitCdnNumber": 3}
    if exported:
        loc["plaintextHash"] = b64(plaintext_hash)
        loc["localKey"] = b64(local_key)
    else:
        loc["encryptedDigest"] = b64(secret(label + "-digest"))
    p = {"locatorInfo": loc, "contentType": content_type}
    if file_name:
        p["fileName"] = file_name
    path = None
    if exported:
        n = hashlib.sha256(plaintext_hash + local_key).hexdigest()
        ext = os.path.splitext(file_name)[1][1:].lower() if file_name and "." in file_name else \
            {"text/x-signal-plain": "txt"}.get(content_type, content_type.split("/")[1].removeprefix("x-"))
        path = "files/%s/%s%s" % (n[:2], n, "." + ext if ext else "")
    return p, path, body


def write_export(folder, stamp, frames, files):
    export = os.path.join(HERE, folder, "signal-export-" + stamp)
    shutil.rmtree(os.path.join(HERE, folder), ignore_errors=True)
    backup = os.path.join(export, "signal-backup-" + stamp)
    os.makedirs(backup)
    with open(os.path.join(backup, "main.jsonl"), "w", encoding="utf-8") as f:
        for frame in frames:
            if isinstance(frame, str):
                f.write(frame + "\n")  # written as it stands (a number where a string is usual…)
            else:
                f.write(json.dumps(frame, ensure_ascii=False, separators=(",", ":")) + "\n")
    with open(os.path.join(backup, "metadata.json"), "w") as f:
        f.write('{"version":1}\n')
    for path, body in files:
        full = os.path.join(export, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(body)


def item(chat, author, sent, body=None, **kw):
    ci = {"chatId": str(chat), "authorId": str(author), "dateSent": str(sent)}
    ci.update(kw)
    return {"chatItem": ci}


def incoming(sent, read=True):
    d = {"dateReceived": str(sent + 1500), "dateServerSent": str(sent + 900)}
    if read:
        d["read"] = True  # omitted when false: a missing "read" means unread
    return d


def outgoing(sent, state="read", recipients=("2",)):
    return {"dateReceived": str(sent), "sendStatus": [
        {"recipientId": r, "timestamp": str(sent + 2000), state: {} if state != "sent" else {"sealedSender": True}}
        for r in recipients]}


def text(body, ranges=None):
    t = {"body": body}
    if ranges:
        t["bodyRanges"] = ranges
    return t


def utf16(s):
    return len(s.encode("utf-16-le")) // 2


def header():
    return {"version": "1", "backupTimeMs": "1767225600000", "mediaRootBackupKey": b64(secret("media-root")),
            "currentAppVersion": "Desktop 7.80.0", "firstAppVersion": "Desktop 7.40.0"}


def account():
    return {"account": {"profileKey": b64(secret("account-profile")), "username": "lena.42", "givenName": "Lena",
                        "familyName": "Vogel", "svrPin": "1234", "backupsSubscriberData": {
                            "subscriberId": b64(secret("subscriber")), "currencyCode": "EUR"},
                        "accountSettings": {"readReceipts": True, "typingIndicators": True}}}


def recipients(ids):
    """The recipient frames, numbered by `ids` (file-local: the later export renumbers them)."""
    r = []
    for who in ["me", "jo", "ken", "noor", "dana", "yael", "somchai", "group", "notes", "list"]:
        rid = ids[who]
        if who == "me":
            r.append({"recipient": {"id": rid, "self": {"avatarColor": "A100"}}})
        elif who == "jo":
            r.append({"recipient": {"id": rid, "contact": {
                "aci": aci(ACI["jo"]), "pni": b64(uuid.UUID("11111111-2222-4333-8444-555555555555").bytes),
                "e164": "4915200000001", "profileKey": b64(secret("jo-profile")), "identityKey": b64(secret("jo-identity", 33)),
                "profileGivenName": "Jo", "systemGivenName": "Johanna", "systemFamilyName": "Berg",
                "registered": {}, "profileSharing": True, "identityState": "VERIFIED"}}})
        elif who == "ken":
            r.append({"recipient": {"id": rid, "contact": {
                "aci": aci(ACI["ken"]), "profileGivenName": "健一", "profileFamilyName": "佐藤",
                "nickname": {"given": "Ken"}, "profileKey": b64(secret("ken-profile")), "registered": {}}}})
        elif who == "noor":
            # No ACI: keyed by the phone number (a 64-bit value, written as a string).
            r.append({"recipient": {"id": rid, "contact": {"e164": "971501234567", "profileGivenName": "نور",
                                                         "notRegistered": {"unregisteredTimestamp": "1760000000000"}}}})
        elif who == "dana":
            r.append({"recipient": {"id": rid, "contact": {
                "pni": b64(uuid.UUID("7e7e7e7e-0000-4000-8000-000000000abc").bytes), "username": "dana.01"}}})
        elif who == "yael":
            r.append({"recipient": {"id": rid, "contact": {"aci": aci(ACI["yael"]), "profileGivenName": "יעל",
                                                         "futureField": {"x": 1}}}})
        elif who == "somchai":
            r.append({"recipient": {"id": rid, "contact": {"aci": aci(ACI["somchai"]), "profileGivenName": "สมชาย"}}})
        elif who == "group":
            r.append({"recipient": {"id": rid, "group": {
                "masterKey": b64(secret("group-master")), "whitelisted": True, "storySendMode": "DEFAULT",
                "snapshot": {"title": {"title": "Rope Team 🧗"}, "description": {"descriptionText": "Crag days"},
                             "inviteLinkPassword": b64(secret("group-invite")), "version": 7,
                             "members": [{"userId": aci(ACI[m]), "role": "ADMINISTRATOR" if m == "me" else "DEFAULT",
                                          "joinedAtVersion": 0}
                                         for m in ["me", "jo", "ken", "yael", "somchai"]]}}}})
        elif who == "notes":
            r.append({"recipient": {"id": rid, "releaseNotes": {}}})
        elif who == "list":
            r.append({"recipient": {"id": rid, "distributionList": {"distributionId": b64(secret("list", 16)),
                                                                  "distributionList": {"name": "My Story"}}}})
    return r


def T(k):
    return T0 + k * 60000


def export(ids, chat_ids, later=False):
    R, C = ids, chat_ids
    files = []

    def attach(label, content_type, file_name=None, exported=True, body=b"", size=None):
        p, path, data = pointer(label, content_type, file_name, exported, body, size)
        if path:
            files.append((path, data))
        return p

    frames = [header(), account()] + recipients(R)
    chats = [
        {"chat": {"id": C["jo"], "recipientId": R["jo"], "muteUntilMs": "9223372036854775807", "expirationTimerMs": "604800000"}},
        {"chat": {"id": C["group"], "recipientId": R["group"], "pinnedOrder": 1}},
        {"chat": {"id": C["self"], "recipientId": R["me"]}},
        {"chat": {"id": C["noor"], "recipientId": R["noor"], "markedUnread": True}},
        {"chat": {"id": C["ken"], "recipientId": R["ken"], "archived": True}},
        {"chat": {"id": C["notes"], "recipientId": R["notes"]}},
        {"chat": {"id": C["dana"], "recipientId": R["dana"]}},
    ]
    if later:
        chats.reverse()
    frames += chats
    frames.append({"stickerPack": {"packId": b64(secret("pack", 16)), "packKey": b64(secret("pack-key"))}})
    frames.append({"notificationProfile": {"name": "Climbing", "emoji": "🧗", "color": 4278190335}})
    frames.append({"chatFolder": {"name": "Crew", "folderType": "CUSTOM", "includedRecipientIds": [R["group"]]}})
    frames.append({"adHocCall": {"callId": "77", "recipientId": R["list"], "state": "GENERIC", "callTimestamp": str(T(-5))}})

    g, jo, ken, me = C["group"], C["jo"], C["ken"], C["self"]
    items = []
    # 0: the example of the format's documentation; a later export has it deleted by Jo.
    if later:
        items.append(item(jo, R["jo"], T(0), incoming=incoming(T(0)), remoteDeletedMessage={}))
    else:
        items.append(item(jo, R["jo"], T(0), incoming=incoming(T(0)), standardMessage={
            "text": text("rope check?"),
            "reactions": [{"emoji": "👍", "authorId": R["me"], "sentTimestamp": str(T(0) + 5000), "sortOrder": "1"}]}))
    # 1: my reply quoting it.
    items.append(item(jo, R["me"], T(1), outgoing=outgoing(T(1), "read", [R["jo"]]), standardMessage={
        "quote": {"targetSentTimestamp": str(T(0)), "authorId": R["jo"], "text": text("rope check?"), "type": "NORMAL"},
        "text": text("Checked ✓ — all good")}))
    # 2: a mention (U+FFFC in the body) and bold after an emoji (UTF-16 offsets); unread, then read later.
    body = "\ufffc can you bring the 🧗 rope? tomorrow"
    items.append(item(g, R["jo"], T(2), incoming=incoming(T(2), read=later), standardMessage={"text": text(body, [
        {"start": 0, "length": 1, "mentionAci": aci(ACI["ken"])},
        {"start": utf16(body) - len("tomorrow"), "length": len("tomorrow"), "style": "BOLD"}])}))
    # 3: edited (revisions oldest first; the frame holds the final text); edited again later.
    rev1 = {"chatId": g, "authorId": R["ken"], "dateSent": str(T(3)), "incoming": incoming(T(3)),
            "standardMessage": {"text": text("I can bring it")}}
    rev2 = {"chatId": g, "authorId": R["ken"], "dateSent": str(T(3) + 90000), "incoming": incoming(T(3) + 90000),
            "standardMessage": {"text": text("I can bring two ropes 日本語テスト")}}
    if later:
        items.append(item(g, R["ken"], T(3) + 300000, incoming=incoming(T(3) + 300000), revisions=[rev1, rev2],
                          standardMessage={"text": text("I can bring three ropes 日本語テスト")}))
    else:
        items.append(item(g, R["ken"], T(3) + 90000, incoming=incoming(T(3) + 90000), revisions=[rev1],
                          standardMessage={"text": text("I can bring two ropes 日本語テスト")}))
    # 5: two attachments: a photo with its name, a voice note named from its content type.
    items.append(item(g, R["me"], T(5), outgoing=outgoing(T(5), "delivered", [R["jo"], R["ken"]]), standardMessage={
        "text": text("Photos from the crag 📸"),
        "attachments": [
            {"pointer": dict(attach("crag", "image/jpeg", "crag.jpg", body=b"\xff\xd8\xff\xe0 fake jpeg"), width=640, height=480),
             "wasDownloaded": True, "clientUuid": b64(secret("crag-uuid", 16))},
            {"pointer": attach("voice", "audio/aac", body=b"fake aac"), "flag": "VOICE_MESSAGE", "wasDownloaded": True}]}))
    if not later:
        body = "שלום לכולם \ufffc!"
        # 6: Hebrew, mentioning me (my ACI is in the group's member list only).
        items.append(item(g, R["yael"], T(6), incoming=incoming(T(6)), standardMessage={"text": text(body, [
            {"start": utf16("שלום לכולם "), "length": 1, "mentionAci": aci(ACI["me"])}])}))
        # 7: two group changes at the same time by the same author.
        items.append(item(g, R["jo"], T(7), directionless={}, updateMessage={"groupChange": {"updates": [
            {"groupMemberAddedUpdate": {"updaterAci": aci(ACI["jo"]), "newMemberAci": aci(ACI["somchai"])}},
            {"groupNameUpdate": {"updaterAci": aci(ACI["jo"]), "newGroupName": "Rope Team 🧗"}}]}}))
        items.append(item(g, R["jo"], T(7), directionless={}, updateMessage={"groupChange": {"updates": [
            {"groupDescriptionUpdate": {"updaterAci": aci(ACI["jo"]), "newDescription": "Crag days"}}]}}))
        # 8, 9: calls.
        items.append(item(g, R["jo"], T(8), directionless={}, updateMessage={"groupCall": {
            "callId": "9001", "state": "MISSED", "ringerRecipientId": R["jo"], "startedCallRecipientId": R["jo"],
            "startedCallTimestamp": str(T(8)), "endedCallTimestamp": str(T(8) + 330000), "read": True}}))
        items.append(item(jo, R["jo"], T(9), directionless={}, updateMessage={"individualCall": {
            "callId": "9002", "type": "AUDIO_CALL", "direction": "INCOMING", "state": "MISSED",
            "startedCallTimestamp": str(T(9))}}))
        # 10: a sticker (its pack key is a secret), then Thai with an italic range.
        items.append(item(g, R["somchai"], T(10), incoming=incoming(T(10)), stickerMessage={"sticker": {
            "packId": b64(secret("pack", 16)), "packKey": b64(secret("pack-key")), "stickerId": 3, "emoji": "🧗",
            "data": attach("sticker", "image/webp", body=b"RIFF fake webp")}}))
        body = "สวัสดีครับ ไปปีนเขากันไหม"
        items.append(item(g, R["somchai"], T(10) + 30000, incoming=incoming(T(10) + 30000), standardMessage={"text": text(body, [
            {"start": utf16("สวัสดีครับ "), "length": utf16("ไปปีนเขา"), "style": "ITALIC"}])}))
        # 11: deleted for everyone; 12: view-once (the exporter strips its attachment).
        items.append(item(g, R["jo"], T(11), incoming=incoming(T(11)), remoteDeletedMessage={}))
        items.append(item(g, R["ken"], T(12), incoming=incoming(T(12)), viewOnceMessage={
            "reactions": [{"emoji": "❤️", "authorId": R["jo"], "sentTimestamp": str(T(12) + 1000)}]}))
    # 13: a long message: the body is cut, the full text is the .txt attachment.
    full = "Long story short: the route is open again. الطريق مفتوح. เส้นทางเปิดแล้ว"
    items.append(item(ken, R["ken"], T(13), incoming=incoming(T(13)), standardMessage={
        "text": text("Long story short: the route is"),
        "longText": attach("long", "text/x-signal-plain", body=full.encode())}))
    if not later:
        # 14: dateSent as a number (64-bit values are usually strings); no "read": unread.
        items.append('{"chatItem":{"chatId":"%s","authorId":"%s","dateSent":%d,"incoming":{"dateReceived":"%d"},'
                     '"standardMessage":{"text":{"body":"مرحبا! هل أنت بخير؟"}}}}' % (C["noor"], R["noor"], T(14), T(14) + 800))
        # 15: a link preview.
        items.append(item(C["noor"], R["me"], T(15), outgoing=outgoing(T(15), "sent", [R["noor"]]), standardMessage={
            "text": text("https://example.org/route see this"),
            "linkPreview": [{"url": "https://example.org/route", "title": "Route guide", "description": "Grades and topo",
                             "date": str(T(15) - 1000)}]}))
        # 16: Note to Self, every style (one as a number), a combining accent.
        body = "spoiler code strike cafe\u0301 italic"
        items.append(item(me, R["me"], T(16), outgoing={}, standardMessage={"text": text(body, [
            {"start": 0, "length": 7, "style": "SPOILER"}, {"start": 8, "length": 4, "style": 5},
            {"start": 13, "length": 6, "style": "STRIKETHROUGH"}, {"start": 26, "length": 6, "style": "ITALIC"},
            {"start": 26, "length": 6, "style": "BOLD"}])}))
        # 17: an attachment that was not exported (no localKey): name and size only.
        items.append(item(me, R["me"], T(17), outgoing={}, standardMessage={"attachments": [
            {"pointer": attach("topo", "application/pdf", "topo.pdf", exported=False, size=48213)}]}))
        # 18: release notes.
        items.append(item(C["notes"], R["notes"], T(18), incoming=incoming(T(18)), standardMessage={
            "text": text("Signal 7.80: export your chats in plain text")}))
        # 19-21: a simple update (enum as a number), a timer change, a disappearing message.
        items.append(item(jo, R["jo"], T(19), directionless={}, updateMessage={"simpleUpdate": {"type": 2}}))
        items.append(item(jo, R["me"], T(20), directionless={}, updateMessage={"expirationTimerChange": {"expiresInMs": "604800000"}}))
        items.append(item(jo, R["jo"], T(21), expiresInMs="604800000", expireStartDate=str(T(21) + 2000),
                          incoming=incoming(T(21)), standardMessage={"text": text("this one disappears in a week")}))
        # 22: a poll; 23: a contact card; 24, 25: a payment, a gift badge.
        items.append(item(g, R["jo"], T(22), incoming=incoming(T(22)), poll={"question": "Which crag?", "options": [
            {"option": "Frankenjura", "votes": [{"voterId": R["me"], "voteCount": 1}, {"voterId": R["ken"], "voteCount": 1}]},
            {"option": "Elbsandstein"}]}))
        items.append(item(ken, R["ken"], T(23), incoming=incoming(T(23)), contactMessage={"contact": {
            "name": {"givenName": "Mia", "familyName": "Schulz"}, "number": [{"value": "+49 151 000000", "type": "MOBILE"}],
            "email": [{"value": "mia@example.org"}]}}))
        items.append(item(jo, R["jo"], T(24), incoming=incoming(T(24)), paymentNotification={
            "amountMob": "1.5", "feeMob": "0.01", "note": "for the rope"}))
        items.append(item(jo, R["jo"], T(25), incoming=incoming(T(25)), giftBadge={
            "receiptCredentialPresentation": b64(secret("gift")), "state": "REDEEMED"}))
        # 26-28: quotes of an edited version, of a message older than the export, and without a target.
        items.append(item(g, R["yael"], T(26), incoming=incoming(T(26)), standardMessage={
            "quote": {"targetSentTimestamp": str(T(3) + 90000), "authorId": R["ken"], "text": text("I can bring two ropes")},
            "text": text("Two? Great")}))
        items.append(item(g, R["yael"], T(27), incoming=incoming(T(27)), standardMessage={
            "quote": {"targetSentTimestamp": str(T(0) - 30 * 86400000), "authorId": R["jo"], "text": text("old plan")},
            "text": text("Like the old plan")}))
        items.append(item(g, R["somchai"], T(28), incoming=incoming(T(28)), standardMessage={
            "quote": {"authorId": R["jo"], "text": text("?")}, "text": text("ok 👍")}))
        # 29: a kind of item this version does not know; a frame of a kind it does not know.
        items.append(item(g, R["jo"], T(29), incoming=incoming(T(29)), adminDeletedMessage={"adminId": R["jo"]}))
        items.append({"pinnedMessage": {"chatId": g, "targetSentTimestamp": str(T(22))}})
        # 30: a contact known by PNI and username only; 31: a story reply.
        items.append(item(C["dana"], R["dana"], T(30), incoming=incoming(T(30)), standardMessage={"text": text("hi from dana")}))
        items.append(item(ken, R["ken"], T(31), incoming=incoming(T(31)), directStoryReplyMessage={"emoji": "🔥"}))
    else:
        items.append(item(g, R["jo"], T(40), incoming=incoming(T(40)), standardMessage={"text": text("see you at 8 — ok?")}))
    frames += items
    return frames, files


FIRST_IDS = {"me": "1", "jo": "2", "ken": "3", "noor": "4", "dana": "5", "yael": "6", "somchai": "7", "group": "8",
             "notes": "9", "list": "10"}
FIRST_CHATS = {"jo": "1", "group": "2", "self": "3", "noor": "4", "ken": "5", "notes": "6", "dana": "7"}
LATER_IDS = {"me": "5", "jo": "9", "ken": "2", "noor": "7", "dana": "1", "yael": "3", "somchai": "4", "group": "6",
             "notes": "8", "list": "10"}
LATER_CHATS = {"jo": "3", "group": "1", "self": "7", "noor": "2", "ken": "6", "notes": "4", "dana": "5"}

if __name__ == "__main__":
    frames, files = export(FIRST_IDS, FIRST_CHATS)
    write_export("desktop", "2026-01-01-00-00-00", frames, files)
    frames, files = export(LATER_IDS, LATER_CHATS, later=True)
    frames[0]["backupTimeMs"] = "1767312000000"
    write_export("later", "2026-01-02-00-00-00", frames, files)
