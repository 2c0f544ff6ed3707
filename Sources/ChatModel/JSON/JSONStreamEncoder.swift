/// Writes an `Encodable` value's JSON straight into a string, members in the order the value
/// encodes them, strings escaped as ``JSONValue`` writes them.
///
/// The CLI's `--json` documents and the web app's answers come from the result types'
/// `Encodable` conformances through this writer, except the three written most (chat-list
/// pages, search pages, item windows), which ``JSONBytes`` writes by hand, byte for byte the
/// same; an app's `JSONEncoder` reads the same conformances (the same keys and values;
/// `JSONEncoder` may order them differently). It streams: nothing is built in between, which
/// keeps a page of 500 hits cheap.
package enum JSONStreamEncoder {
    /// The JSON text of `value`.
    package static func string(_ value: some Encodable) throws -> String {
        let state = StreamState()
        let encoder = StreamEncoder(state, level: 0, codingPath: [])
        try value.encode(to: encoder)
        encoder.finish()
        return state.text
    }
}

/// The text written so far and the containers still open (innermost last).
private final class StreamState {
    var text = ""
    /// Open containers: whether each is an object, and whether it has a member yet.
    var open: [(isObject: Bool, hasMember: Bool)] = []

    /// Closes the containers nested deeper than `level` (a container at index `level - 1` stays):
    /// a nested container ends when its parent writes again.
    func close(above level: Int) {
        while open.count > level { text += open.removeLast().isObject ? "}" : "]" }
    }

    /// Starts a member of the container at `index`: closes deeper ones, writes the comma.
    func startMember(of index: Int) {
        close(above: index + 1)
        if open[index].hasMember { text += "," } else { open[index].hasMember = true }
    }

    func openContainer(object: Bool) {
        text += object ? "{" : "["
        open.append((object, false))
    }

    func write(_ s: String) { JSONValue.writeString(s, to: &text) }

    func write(_ d: Double) {
        if d.isFinite {
            if d == d.rounded(), abs(d) < 9.0e15 { text += String(Int64(d)) } else { text += String(d) }
        } else {
            text += "null"
        }
    }
}

/// Encodes one value that starts at `level` (the number of containers open around it).
private final class StreamEncoder: Encoder, RawJSONWriting {
    let state: StreamState
    let level: Int
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// Whether the value wrote anything (an `encode(to:)` that writes nothing leaves `{}`, as
    /// `JSONEncoder` does).
    var wrote = false
    /// The container this value opened (a value opens at most one; asking again returns it).
    var opened: Bool?

    init(_ state: StreamState, level: Int, codingPath: [any CodingKey]) {
        self.state = state
        self.level = level
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        openOnce(object: true)
        return KeyedEncodingContainer(StreamKeyed<Key>(encoder: self, index: level, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        openOnce(object: false)
        return StreamUnkeyed(encoder: self, index: level, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { StreamSingle(encoder: self) }

    func writeRawJSON(_ text: String) {
        wrote = true
        state.text += text
    }

    private func openOnce(object: Bool) {
        guard opened == nil else { return }
        opened = object
        wrote = true
        state.close(above: level)
        state.openContainer(object: object)
    }

    /// Ends the value: closes what it opened, or writes `{}` when it wrote nothing.
    func finish() {
        if !wrote { state.text += "{}" }
        state.close(above: level)
    }
}

private struct StreamKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StreamEncoder
    /// The index of this container in the open stack.
    let index: Int
    let codingPath: [any CodingKey]
    var state: StreamState { encoder.state }

    private func key(_ key: Key) {
        state.startMember(of: index)
        state.write(key.stringValue)
        state.text += ":"
    }

    mutating func encodeNil(forKey k: Key) throws {
        key(k)
        state.text += "null"
    }
    mutating func encode(_ value: Bool, forKey k: Key) throws {
        key(k)
        state.text += value ? "true" : "false"
    }
    mutating func encode(_ value: String, forKey k: Key) throws {
        key(k)
        state.write(value)
    }
    mutating func encode(_ value: Double, forKey k: Key) throws {
        key(k)
        state.write(value)
    }
    mutating func encode(_ value: Float, forKey k: Key) throws {
        key(k)
        state.write(Double(value))
    }
    mutating func encode(_ value: Int, forKey k: Key) throws {
        key(k)
        state.text += String(value)
    }
    mutating func encode(_ value: Int64, forKey k: Key) throws {
        key(k)
        state.text += String(value)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey k: Key) throws {
        key(k)
        let sub = StreamEncoder(state, level: index + 1, codingPath: codingPath + [k])
        try value.encode(to: sub)
        sub.finish()
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey k: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        key(k)
        state.openContainer(object: true)
        return KeyedEncodingContainer(
            StreamKeyed<NestedKey>(encoder: encoder, index: index + 1, codingPath: codingPath + [k]))
    }
    mutating func nestedUnkeyedContainer(forKey k: Key) -> any UnkeyedEncodingContainer {
        key(k)
        state.openContainer(object: false)
        return StreamUnkeyed(encoder: encoder, index: index + 1, codingPath: codingPath + [k])
    }
    mutating func superEncoder() -> any Encoder {
        state.startMember(of: index)
        state.write("super")
        state.text += ":"
        return DeferredEncoder(StreamEncoder(state, level: index + 1, codingPath: codingPath))
    }
    mutating func superEncoder(forKey k: Key) -> any Encoder {
        key(k)
        return DeferredEncoder(StreamEncoder(state, level: index + 1, codingPath: codingPath + [k]))
    }
}

private struct StreamUnkeyed: UnkeyedEncodingContainer {
    let encoder: StreamEncoder
    let index: Int
    let codingPath: [any CodingKey]
    private(set) var count = 0
    var state: StreamState { encoder.state }

    init(encoder: StreamEncoder, index: Int, codingPath: [any CodingKey]) {
        self.encoder = encoder
        self.index = index
        self.codingPath = codingPath
    }

    private mutating func element() {
        state.startMember(of: index)
        count += 1
    }

    mutating func encodeNil() throws {
        element()
        state.text += "null"
    }
    mutating func encode(_ value: Bool) throws {
        element()
        state.text += value ? "true" : "false"
    }
    mutating func encode(_ value: String) throws {
        element()
        state.write(value)
    }
    mutating func encode(_ value: Double) throws {
        element()
        state.write(value)
    }
    mutating func encode(_ value: Int) throws {
        element()
        state.text += String(value)
    }
    mutating func encode(_ value: Int64) throws {
        element()
        state.text += String(value)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        element()
        let sub = StreamEncoder(state, level: index + 1, codingPath: codingPath)
        try value.encode(to: sub)
        sub.finish()
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        element()
        state.openContainer(object: true)
        return KeyedEncodingContainer(
            StreamKeyed<NestedKey>(encoder: encoder, index: index + 1, codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        element()
        state.openContainer(object: false)
        return StreamUnkeyed(encoder: encoder, index: index + 1, codingPath: codingPath)
    }
    mutating func superEncoder() -> any Encoder {
        element()
        return DeferredEncoder(StreamEncoder(state, level: index + 1, codingPath: codingPath))
    }
}

private struct StreamSingle: SingleValueEncodingContainer {
    let encoder: StreamEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var state: StreamState { encoder.state }

    private func start() {
        encoder.wrote = true
        state.close(above: encoder.level)
    }

    mutating func encodeNil() throws {
        start()
        state.text += "null"
    }
    mutating func encode(_ value: Bool) throws {
        start()
        state.text += value ? "true" : "false"
    }
    mutating func encode(_ value: String) throws {
        start()
        state.write(value)
    }
    mutating func encode(_ value: Double) throws {
        start()
        state.write(value)
    }
    mutating func encode(_ value: Float) throws {
        start()
        state.write(Double(value))
    }
    mutating func encode(_ value: Int) throws {
        start()
        state.text += String(value)
    }
    mutating func encode(_ value: Int64) throws {
        start()
        state.text += String(value)
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        // The value takes this encoder's place (a wrapper encoding what it wraps).
        try value.encode(to: encoder)
    }
}

/// The encoder `superEncoder()` hands out. Its member is written at once as `{}`; used before
/// its parent writes again, it writes its value in that place instead.
private final class DeferredEncoder: Encoder {
    let base: StreamEncoder
    private let placeholderEnd: Int
    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ base: StreamEncoder) {
        self.base = base
        base.state.text += "{}"
        placeholderEnd = base.state.text.utf8.count
    }

    private func replacePlaceholder() {
        if base.state.text.utf8.count == placeholderEnd { base.state.text.removeLast(2) }
    }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        replacePlaceholder()
        return base.container(keyedBy: type)
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        replacePlaceholder()
        return base.unkeyedContainer()
    }
    func singleValueContainer() -> any SingleValueEncodingContainer {
        replacePlaceholder()
        return base.singleValueContainer()
    }
}
