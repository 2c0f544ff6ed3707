import ChatModel

/// Collects records in memory: for tests and small imports.
package final class CollectingSink: ImportSink {
    package private(set) var chats: [Chat] = []
    package private(set) var members: [Member] = []
    package private(set) var items: [Item] = []
    package private(set) var issues: [ImportIssue] = []
    package var isStrict = false
    package init() {}
    package func emit(_ record: ImportRecord) throws {
        switch record {
        case .chat(let c): chats.append(c)
        case .member(let m): members.append(m)
        case .item(let i): items.append(i)
        }
    }
    package func report(_ issue: ImportIssue) throws {
        issues.append(issue)
        if isStrict { throw issue }
    }
}
