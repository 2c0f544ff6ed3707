import ChatModel

/// One value an importer produces, in the order the archive must receive them: a chat
/// before its members and items.
package enum ImportRecord: Sendable {
    case chat(Chat)
    case member(Member)
    case item(Item)
}
