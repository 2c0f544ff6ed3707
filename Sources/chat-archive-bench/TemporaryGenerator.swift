import ChatArchive
// Temporary minimal generator; replaced by the corpus helper's CorpusGenerator on merge.
import Foundation

struct CorpusGenerator {
    struct Summary {
        var messages: Int
        var chats: Int
        var textBytes: Int
    }
    let seed: UInt64
    let messages: Int
    let chats: Int
    init(seed: UInt64, messages: Int, chats: Int) {
        self.seed = seed
        self.messages = messages
        self.chats = chats
    }

    func write(to path: String) throws -> Summary {
        var rng = SplitMix(seed: seed)
        let words = "the quick brown fox jumps over lazy dog seed speed need garden straße heinestraße café über weather meeting tomorrow coffee 東京都 北京 서울에서 привет мир ภูเขา".split(separator: " ").map(String.init)
        var out = ""
        var bytes = 0
        FileManager.default.createFile(atPath: path, contents: nil)
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        for c in 0..<chats { out += "{\"kind\":\"chat\",\"chatId\":\"c\(c)\",\"type\":\"group\",\"displayName\":\"Chat number \(c)\"}\n" }
        for m in 0..<messages {
            let c = Int(rng.next() % UInt64(chats)) % max(1, Int(rng.next() % UInt64(chats)) + 1)
            var text = ""
            for _ in 0..<(3 + Int(rng.next() % 12)) { text += words[Int(rng.next() % UInt64(words.count))] + " " }
            bytes += text.utf8.count
            out += "{\"kind\":\"item\",\"chatId\":\"c\(c)\",\"id\":\"\(m)\",\"ts\":\"\(Timestamp(milliseconds: 1_600_000_000_000 + Int64(m) * 60_000).rfc3339)\",\"dir\":\"rcv\",\"content\":{\"type\":\"text\",\"text\":\"\(text)\"}}\n"
            if out.utf8.count > 1 << 20 {
                h.write(Data(out.utf8))
                out = ""
            }
        }
        h.write(Data(out.utf8))
        try h.close()
        return Summary(messages: messages, chats: chats, textBytes: bytes)
    }
}
