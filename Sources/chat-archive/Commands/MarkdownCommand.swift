import ArgumentParser
import ChatArchive
import ChatArchiveCommandLine
import Foundation

struct MarkdownCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "markdown", abstract: "Parse SimpleX markdown: styled text for people, the spans with --json.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The message text.")
    var text: String

    func run() async throws {
        let pieces = Archive.markdown(text)
        if global.json {
            let o = JSONOut()
            o.object {
                if let pieces {
                    o.key("formattedText")
                    o.raw(FormattedTextJSON.jsonText(pieces))
                }
            }
            print(o.text)
            return
        }
        guard let pieces else {
            print(Terminal.visible(text))
            return
        }
        var out = ""
        for p in pieces {
            out += HumanFormat.styled(p)
        }
        print(out)
    }
}
