import Foundation
import PackagePlugin

/// Compiles the web app's files (`Web/index.html`, `Web/app.js`, `Web/app.css` in the target's
/// folder) into the binary: at build time each becomes a string constant of `WebAssets`, so an
/// installed or moved `chat-archive-serve` needs no file beside it (a SwiftPM resource bundle on
/// Linux is looked up beside the binary, and a missing one stops the process).
@main
struct EmbedWebAssets: BuildToolPlugin {
    /// The files, each with the name of its constant.
    static let files = [("indexHTML", "Web/index.html"), ("appJS", "Web/app.js"), ("appCSS", "Web/app.css")]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "EmbedWebAssetsTool")
        let output = context.pluginWorkDirectoryURL.appending(path: "WebAssetFiles.swift")
        let inputs = Self.files.map { target.directoryURL.appending(path: $0.1) }
        var arguments = [output.path]
        for (name, url) in zip(Self.files.map(\.0), inputs) { arguments.append("\(name)=\(url.path)") }
        return [
            .buildCommand(
                displayName: "Embedding the web app's files", executable: tool.url, arguments: arguments,
                inputFiles: inputs, outputFiles: [output])
        ]
    }
}
