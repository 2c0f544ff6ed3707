import ArgumentParser

/// The options of `chat-archive serve`, shared by the `serve` subcommand (help and validation)
/// and the `chat-archive-serve` program that runs the server.
package struct ServeOptions: ParsableArguments {
    @Option(help: "The port (0: a free one).") package var port = 0
    @Option(help: "The address to bind; anything but a loopback address exposes the archive to the network.")
    package var host = "127.0.0.1"
    @Flag(help: "Open the address in the default browser.") package var open = false

    package init() {}

    package func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
    }
}

/// What `chat-archive serve` is and does, for both programs' help.
package enum ServeHelp {
    package static let abstract = "The local web app over the archive: browse chats and search them in a browser."
    package static let discussion = """
        Opens the archive read-only and prints the address to open, with a fresh token; every \
        request must carry it. Binds 127.0.0.1 on a free port unless told otherwise. Stops on \
        Ctrl-C (SIGINT) or SIGTERM. The server is the program chat-archive-serve, installed \
        beside chat-archive.
        """
}
