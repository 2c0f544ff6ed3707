#!/usr/bin/env python3
"""Writes the WhatsApp fixtures. Invisible characters are spelled out here so the files'
traps are reviewable: LRM U+200E, RLM U+200F, FSI U+2068, PDI U+2069, NNBSP U+202F,
NBSP U+00A0, LS U+2028, BOM U+FEFF."""
import os

LRM, FSI, PDI, NNBSP, NBSP, LS, BOM = "\u200e", "\u2068", "\u2069", "\u202f", "\u00a0", "\u2028", "\ufeff"
here = os.path.dirname(os.path.abspath(__file__))

def write(rel, lines, newline="\n", encoding="utf-8", bom=False, trailing=True):
    path = os.path.join(here, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = newline.join(lines) + (newline if trailing else "")
    data = text.encode(encoding)
    if bom and encoding == "utf-8":
        data = BOM.encode("utf-8") + data
    with open(path, "wb") as f:
        f.write(data)

# 1. Android, en-GB, group, LF (one CRLF line), D/M/Y 24h.
android = [
    "03/07/2024, 18:01 - Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them. Tap to learn more.",
    '03/07/2024, 18:02 - Ana created group "Allotment"',
    "03/07/2024, 18:02 - Ana added Ben",
    "03/07/2024, 18:03 - Ana added ~" + NNBSP + "Cal",
    "03/07/2024, 18:04 - Ben: me, sorry",
    "2024-06-02 10:00 rota moved, bringing it Saturday",
    "03/07/2024, 18:05 - Ben: <Media omitted>",
    "03/07/2024, 18:06 - Ana: IMG-20240703-WA0001.jpg (file attached)",
    "first *tomatoes* of the _year_",
    "03/07/2024, 18:07 - Ana changed the subject from \"Plots\" to \"Allotment: 2024\"",
    "03/07/2024, 18:08 - ~" + NNBSP + "Cal: PTT-20240703-WA0002.opus (file attached)",
    "03/07/2024, 18:09 - Ana: thanks @" + FSI + "~" + NNBSP + "Cal" + PDI + " and @" + FSI + "Ben" + PDI + " <This message was edited>",
    "03/07/2024, 18:10 - Ben: This message was deleted",
    "03/07/2024, 18:11 - Ana: You deleted this message",
    "03/07/2024, 18:12 - Ben: null",
    "03/07/2024, 18:13 - Ben: location: https://maps.google.com/?q=51.5007,-0.1246",
    "03/07/2024, 18:14 - Ben: ok",
    "03/07/2024, 18:14 - Ben: ok",
    "03/07/2024, 18:15 - Ana: list for Saturday:",
    "",
    "- spade" + LS + "- ~rake~ hoe",
    "13/07/2024, 09:30 - Ana: Seed catalogue.pdf" + NBSP + "(1).pdf (file attached)",
    "30/02/2024, 10:00 - Ben: this date cannot exist",
    "and this continuation goes with it",
    "13/07/2024, 09:31 - Ben: VID-20240713-WA0004.mp4 (file attached)\r",
    "13/07/2024, 09:32 - Ana: \U0001F468\u200D\U0001F469\u200D\U0001F467 family day, cafe\u0301 after",
    "14/07/2024, 20:00 - ~" + NNBSP + "Cal left",
    "14/07/2024, 20:01 - Your security code with Ben changed. Tap to learn more.",
    "14/07/2024, 20:02 - Ana turned on disappearing messages. New messages will disappear from this chat 7 days after they're sent.",
]
write("android-en-GB/WhatsApp Chat with Allotment.txt", android)

# 2. iOS, en-US, group, CRLF, leading BOM, M/D/YY 12h with NNBSP before AM/PM, LRM marks.
ios = [
    "[7/3/24, 6:01:00" + NNBSP + "PM] Allotment: " + LRM + "Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them.",
    "[7/3/24, 6:02:11" + NNBSP + "PM] Allotment: " + LRM + "Ana created this group",
    "[7/3/24, 6:02:30" + NNBSP + "PM] Allotment: " + LRM + "Ana added ~" + NNBSP + "Ben",
    "[7/3/24, 6:04:02" + NNBSP + "PM] ~" + NNBSP + "Ben: me, sorry",
    "bringing it Saturday",
    LRM + "[7/3/24, 6:05:17" + NNBSP + "PM] ~" + NNBSP + "Ben: " + LRM + "<attached: 00000021-PHOTO-2024-07-03-18-05-17.jpg>",
    "[7/3/24, 6:05:17" + NNBSP + "PM] ~" + NNBSP + "Ben: " + LRM + "image omitted",
    "[7/3/24, 6:09:40" + NNBSP + "PM] Ana: thanks @" + FSI + "~" + NNBSP + "Ben" + PDI + " " + LRM + "<This message was edited>",
    "[7/3/24, 6:10:00" + NNBSP + "PM] ~" + NNBSP + "Ben: " + LRM + "This message was deleted.",
    "[7/3/24, 6:11:00" + NNBSP + "PM] Ana: " + LRM + "You deleted this message.",
    "[7/3/24, 6:12:00" + NNBSP + "PM] Ana: " + LRM + "audio omitted",
    "[7/3/24, 6:13:00" + NNBSP + "PM] Ana: " + LRM + "Plot rules.pdf • " + LRM + "3 pages " + LRM + "document omitted",
    "[7/3/24, 6:14:00" + NNBSP + "PM] ~" + NNBSP + "Ben: " + LRM + "Location: https://maps.google.com/?q=40.7128,-74.0060",
    "[7/13/24, 12:15:00" + NNBSP + "AM] Ana: late night *watering*",
    "[7/13/24, 12:30:05" + NNBSP + "PM] Ana: " + LRM + "<attached: 00000022-AUDIO-2024-07-13-12-30-05.opus>",
    "[7/13/24, 12:31:00" + NNBSP + "PM] Allotment: " + LRM + "Ana changed the group name to \"Allotment 2024\"",
]
write("ios-en-US/WhatsApp Chat - Allotment/_chat.txt", ios, newline="\r\n", bom=True)

# 3. German Android: 24h, dotted 2-digit-year dates, German phrases; DST edges for Europe/Berlin.
german = [
    "31.03.24, 01:59 - Nachrichten und Anrufe sind Ende-zu-Ende-verschlüsselt. Niemand außerhalb dieses Chats kann sie lesen oder anhören.",
    "31.03.24, 02:30 - Ana hat die Gruppe „Gartenfreunde“ erstellt.",
    "31.03.24, 03:00 - Ana hat Ben hinzugefügt.",
    "31.03.24, 03:01 - Ben: IMG-20240331-WA0001.jpg (Datei angehängt)",
    "Gießkanne",
    "31.03.24, 03:02 - Ben: <Medien ausgeschlossen>",
    "01.04.24, 08:00 - Ana: Diese Nachricht wurde gelöscht",
    "01.04.24, 08:01 - Ben: Erdbeeren sind reif <Diese Nachricht wurde bearbeitet>",
    "01.04.24, 08:02 - Ana: Standort: https://maps.google.com/?q=52.52,13.405",
    "27.10.24, 02:30 - Ben: Uhr umgestellt?",
    "27.10.24, 03:30 - Ana: ja",
]
write("android-de-DE/WhatsApp Chat mit Gartenfreunde.txt", german)

# 4. Android en-US: M/D/YY 12-hour clock, a direct chat, encoded as UTF-16LE with a BOM.
us = [
    "7/3/24, 6:01 PM - Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them. Tap to learn more.",
    "7/3/24, 6:02 PM - Sam: are you at the plot?",
    "7/3/24, 6:03 PM - Dee: yes, by the shed",
    "7/3/24, 11:59 PM - Missed voice call",
    "7/13/24, 12:05 AM - Dee: Missed voice call? that was me typing",
    "7/13/24, 12:30 PM - Sam: DOC-20240713-WA0007.docx (file attached)",
    "minutes attached",
    "",
    "see you",
    "7/13/24, 12:31 PM - Your security code with Sam changed. Tap to learn more.",
]
write("android-en-US-utf16/WhatsApp Chat with Sam.txt", us, encoding="utf-16")

# 5. Two date styles in contiguous blocks (the phone's region changed mid-history).
mixed = [
    "03/07/2024, 18:02 - Ana: in the first style",
    "13/07/2024, 18:03 - Ben: still first",
    "13/07/2024, 18:04 - Ana: 2024-06-02 10:00 inside the text stays text",
    "[14.07.24, 09:00:00] Ana: now the second style",
    "[14.07.24, 09:01:30] Ben: and again",
    "[15.07.24, 10:00:00] Ana: last",
]
write("mixed-styles/WhatsApp Chat with Ben.txt", mixed)

# 6. Locale variants, one small chat each (ChatImport's WhatsAppFormat article, "The line grammar"), and the day/month rules.
V = "locale-variants/"
write(V + "WhatsApp Chat with Old.txt", [
    "03/07/2012 18:02: Ana: old phones wrote this",
    "03/07/2012 18:03: Ben: with a colon after the time",
    "14/07/2012 09:00: Ana: day first",
])
write(V + "WhatsApp Chat with Aino.txt", [
    "3.7.2024 klo 18.02 - Aino: hei",
    "3.7.2024 klo 18.05 - Eero: moi",
    "13.7.2024 klo 9.00 - Aino: huomenta",
])
write(V + "WhatsApp Chat with Lucía.txt", [
    "3/7/24, 9:05" + NBSP + "a." + NBSP + "m. - Lucía: buenos días",
    "3/7/24, 9:10" + NBSP + "p." + NBSP + "m. - Pablo: buenas noches",
    "13/7/24, 12:00" + NBSP + "p." + NBSP + "m. - Lucía: mediodía",
])
RLM = "\u200f"
def arabic(s):
    return "".join(chr(0x660 + int(c)) if c.isdigit() else c for c in s)
write(V + "WhatsApp Chat with Sara.txt", [
    arabic("3") + RLM + "/" + arabic("7") + RLM + "/" + arabic("2024") + "\u060c " + arabic("6:02") + " \u0645 - سارة: مرحبا",
    arabic("3") + RLM + "/" + arabic("7") + RLM + "/" + arabic("2024") + "\u060c " + arabic("7:15") + " \u0635 - عمر: صباح الخير",
    arabic("13") + RLM + "/" + arabic("7") + RLM + "/" + arabic("2024") + "\u060c " + arabic("9:00") + " \u0645 - سارة: تصبح على خير",
])
write(V + "WhatsApp Chat with Hanako.txt", [
    "2024/07/03 午後6:02 - 花子: こんにちは",
    "2024/07/03 午前9:15 - 太郎: おはよう",
    "2024/07/13 午後12:30 - 花子: お昼",
])
write(V + "WhatsApp Chat with Somchai.txt", [
    "3/7/2567 18:02 - สมชาย: สวัสดี",
    "13/7/2567 09:00 - มานี: ผัดไทย",
])
# No component over 12: the first one goes down (12 -> 01) while the second goes up, so it is the day.
write(V + "WhatsApp Chat with Dora.txt", [
    "11/01/2024, 10:00 - Dora: a",
    "12/01/2024, 10:00 - Ed: b",
    "01/02/2024, 10:00 - Dora: c",
])
# iOS omitted kinds, with CRLF and LF line ends mixed in one file.
kinds = [
    "[03/07/2024, 18:02:11] Ana: " + LRM + "video omitted",
    "[03/07/2024, 18:02:12] Ana: " + LRM + "sticker omitted",
    "[03/07/2024, 18:02:13] Ben: " + LRM + "GIF omitted",
    "[13/07/2024, 18:02:14] Ben: " + LRM + "Contact card omitted",
]
path = os.path.join(here, V + "WhatsApp Chat - Kinds/_chat.txt")
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path, "wb") as f:
    f.write((kinds[0] + "\r\n" + kinds[1] + "\n" + kinds[2] + "\r\n" + kinds[3] + "\n").encode("utf-8"))
# Real 12-hour exports that write some hours on a 24-hour clock with AM/PM appended
# (`23:59 PM`, `00:04 AM`): those messages are kept, read as 24-hour times.
write("android-en-US-24h-meridiem/WhatsApp Chat with Bob.txt", [
    "1/29/18, 11:58 PM - Bob: almost midnight",
    "1/29/18, 23:59 PM - Bob: one minute to go 🎉",
    "1/30/18, 00:04 AM - Bob: after midnight: 你好 สวัสดี مرحبا שלום",
    "continued on a second line",
    "1/30/18, 12:10 AM - Ann: go to sleep",
    "1/30/18, 13:15 PM - Ann: lunch at 13:15 PM, café",
    "1/30/18, 1:20 PM - Bob: ok",
    "1/30/18, 25:00 PM - Bob: no such hour",
])
