import ChatModel

/// Objects and arrays written member by member, with the commas placed for the caller: the
/// CLI's few documents that are not a result type's (`check`, `markdown`, `serve`, errors).
/// It writes through ``JSONBytes``, the package's one JSON writer.
package final class JSONOut {
    private var out = JSONBytes(capacity: 256)
    private var needsComma: [Bool] = [false]

    package init() {}

    /// The document written so far.
    package var text: String { out.text }

    private func separator() {
        if needsComma[needsComma.count - 1] { out.raw(",") }
        needsComma[needsComma.count - 1] = true
    }

    package func object(_ body: () -> Void) {
        separator()
        out.raw("{")
        needsComma.append(false)
        body()
        needsComma.removeLast()
        out.raw("}")
    }

    package func array(_ body: () -> Void) {
        separator()
        out.raw("[")
        needsComma.append(false)
        body()
        needsComma.removeLast()
        out.raw("]")
    }

    package func key(_ k: String) {
        separator()
        out.string(k)
        out.raw(":")
        needsComma[needsComma.count - 1] = false
    }

    package func field(_ k: String, _ v: String?) {
        key(k)
        value(v)
    }
    package func field(_ k: String, _ v: Int?) {
        key(k)
        separator()
        out.int(v)
    }
    package func field(_ k: String, _ v: Int64?) {
        key(k)
        separator()
        out.int(v)
    }
    package func field(_ k: String, _ v: Bool) {
        key(k)
        separator()
        out.bool(v)
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
        out.string(v)
    }

    /// Appends JSON text written elsewhere (a value's own `jsonText`).
    package func raw(_ s: String) {
        separator()
        out.json(s)
    }
}
