import Foundation

// Writes a Swift file that holds files as string constants of `WebAssets`:
// `EmbedWebAssetsTool OUTPUT NAME=PATH...`. Every byte is kept: the literal escapes quotes,
// backslashes, line ends and everything outside printable ASCII, so the generated file is
// ASCII whatever the files hold.

func literal(_ text: String) -> String {
    var out = "\""
    out.reserveCapacity(text.utf8.count + text.utf8.count / 8)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case " "..."~": out.unicodeScalars.append(scalar)
        default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }
    return out + "\""
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: EmbedWebAssetsTool OUTPUT NAME=PATH...\n".utf8))
    exit(2)
}
var swift = "// Generated at build time by EmbedWebAssetsTool from Sources/ChatArchiveServer/Web: do not edit.\n"
swift += "extension WebAssets {\n"
for pair in arguments.dropFirst() {
    guard let eq = pair.firstIndex(of: "=") else { continue }
    let name = String(pair[..<eq])
    let path = String(pair[pair.index(after: eq)...])
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
        FileHandle.standardError.write(Data("EmbedWebAssetsTool: cannot read \(path) as UTF-8\n".utf8))
        exit(1)
    }
    swift += "    static let \(name) = \(literal(text))\n"
}
swift += "}\n"
do {
    try Data(swift.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("EmbedWebAssetsTool: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
