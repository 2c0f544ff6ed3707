import ChatModel
import Foundation
import Testing

/// Expects the two encodings of `value`, our streaming writer's and Foundation's `JSONEncoder`'s,
/// to be equal as JSON values (member order aside).
package func expectSameJSON<T: Encodable>(_ value: T, _ what: String) throws {
    let streamed = try JSONStreamEncoder.string(value)
    let foundation = try JSONEncoder().encode(value)
    let a = try JSONParser.parse(Array(streamed.utf8))
    let b = try JSONParser.parse(Array(foundation))
    #expect(
        sortedMembers(a) == sortedMembers(b),
        "\(what): \(streamed.prefix(300)) vs \(String(decoding: foundation.prefix(300), as: UTF8.self))")
}

/// `value` with every object's members sorted by name.
private func sortedMembers(_ value: JSONValue) -> JSONValue {
    switch value {
    case .array(let a): .array(a.map(sortedMembers))
    case .object(let o): .object(o.map { ($0.0, sortedMembers($0.1)) }.sorted { $0.0 < $1.0 })
    default: value
    }
}
