import ChatModel
import ChatSearch

/// A small streaming JSON writer for the CLI's few documents that are not a result type's
/// encoding (`check`, `markdown`, `serve`, errors); result types are `Encodable`.
package final class JSONOut {
    package private(set) var text = ""

    package init() {}
    private var needsComma: [Bool] = [false]

    private func separator() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }

    package func object(_ body: () -> Void) {
        separator()
        text += "{"
        needsComma.append(false)
        body()
        needsComma.removeLast()
        text += "}"
    }

    package func array(_ body: () -> Void) {
        separator()
        text += "["
        needsComma.append(false)
        body()
        needsComma.removeLast()
        text += "]"
    }

    package func key(_ k: String) {
        separator()
        JSONValue.writeString(k, to: &text)
        text += ":"
        needsComma[needsComma.count - 1] = false
    }

    package func field(_ k: String, _ v: String?) {
        key(k)
        value(v)
    }
    package func field(_ k: String, _ v: Int?) {
        key(k)
        if let v { raw(String(v)) } else { raw("null") }
    }
    package func field(_ k: String, _ v: Int64?) {
        key(k)
        if let v { raw(String(v)) } else { raw("null") }
    }
    package func field(_ k: String, _ v: Bool) {
        key(k)
        raw(v ? "true" : "false")
    }
    package func field(_ k: String, object body: () -> Void) {
        key(k)
        object(body)
    }
    package func field(_ k: String, array body: () -> Void) {
        key(k)
        array(body)
    }

    package func value(_ v: String?) {
        separator()
        if let v { JSONValue.writeString(v, to: &text) } else { text += "null" }
    }

    package func raw(_ s: String) {
        separator()
        text += s
    }
}
