/// Message texts in many scripts, for tests that store, compress and search text.
package enum TextSamples {
    /// One sentence each in Japanese, Chinese, Korean, Thai, Arabic, Hebrew, Hindi, Russian,
    /// German, Turkish, emoji, fullwidth Latin and a decomposed accent.
    package static let scripts = [
        "今日は東京で会議があります、明日は大阪へ行きます", "我们明天在北京见面吧，好不好", "오늘 회의는 서울에서 합니다",
        "วันนี้ฝนตกหนักมาก", "مرحبا بكم في الاجتماع", "שלום לכולם בפגישה", "आज बैठक दिल्ली में है",
        "Встреча завтра в Москве", "Grüße aus München, Straße", "İstanbul'da görüşürüz", "see you 🎉👍🏽",
        "ｆｕｌｌｗｉｄｔｈ ｔｅｘｔ", "cafe\u{301} crème",
    ]
}
