import ChatTestSupport
import Testing

/// Shell completions come from swift-argument-parser's own generator, through the same binary
/// a user installs (its fast path must not swallow the option).
@Suite struct CompletionScriptTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func theBinaryPrintsACompletionScriptNamingEveryCommand(shell: String) throws {
        let r = try ChildProcess.run(ChildProcess.chatArchiveBinary, ["--generate-completion-script", shell])
        #expect(r.status == 0, "\(r.err)")
        for command in ["ingest", "search", "chats", "items", "stats", "check", "serve"] {
            #expect(r.out.contains(command), "\(shell): \(command)")
        }
        #expect(r.out.contains("archive"))
    }
}
