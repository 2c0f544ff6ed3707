import ChatModel

/// The fixed phrases WhatsApp writes into exports, per language (English, German, Spanish).
///
/// Matching is done on the parse view (bidi marks dropped, NBSP as space) and, for words,
/// case-insensitively.
enum WhatsAppPhrases {
    /// Android's placeholder for media left out of the export.
    static let mediaOmitted: Set<String> = [
        "<media omitted>", "<medien ausgeschlossen>", "<multimedia omitido>", "<archivo omitido>",
    ]

    /// Android's suffix after an attached file's name.
    static let fileAttachedSuffixes = [" (file attached)", " (datei angehängt)", " (archivo adjunto)"]

    /// iOS's `<attached: NAME>` prefixes.
    static let attachedPrefixes = ["<attached: ", "<anhang: ", "<adjunto: "]

    /// iOS's "KIND omitted" lines: the kind word (lower-cased) and its content type.
    static let omittedKinds: [(String, ContentType)] = [
        ("image omitted", .image), ("video omitted", .video), ("audio omitted", .voice), ("sticker omitted", .image),
        ("gif omitted", .video), ("contact card omitted", .file), ("document omitted", .file),
        ("bild weggelassen", .image), ("video weggelassen", .video), ("audio weggelassen", .voice),
        ("sticker weggelassen", .image), ("gif weggelassen", .video), ("kontaktkarte weggelassen", .file),
        ("dokument weggelassen", .file), ("imagen omitida", .image), ("video omitido", .video),
        ("audio omitido", .voice), ("sticker omitido", .image), ("documento omitido", .file),
    ]

    /// The edit marker at the end of an edited message.
    static let editedMarkers = [
        "<This message was edited>", "<Diese Nachricht wurde bearbeitet>", "<Se editó este mensaje.>",
    ]

    /// Whole texts that mark a deleted message (compared without a trailing period).
    static let deleted: Set<String> = [
        "this message was deleted", "you deleted this message", "diese nachricht wurde gelöscht",
        "du hast diese nachricht gelöscht", "se eliminó este mensaje", "eliminaste este mensaje",
        "this message was deleted by admin",
    ]

    /// The subset of ``deleted`` only the archive's owner sees on their own messages.
    static let deletedByYou: Set<String> = [
        "you deleted this message", "du hast diese nachricht gelöscht", "eliminaste este mensaje",
    ]

    /// Location prefixes, followed by a map URL.
    static let locationPrefixes = ["location: ", "standort: ", "ubicación: "]

    /// Android view-once media.
    static let viewOnce = "null"

    /// Phrases that, inside what looks like an author name, show a system line
    /// (`Ana changed the subject from "A: b" to "c"`).
    static let systemInAuthor = [
        "changed the subject", "changed the group name", "changed the group description", "changed this group",
        "created group", "hat den betreff", "hat den gruppennamen", "hat die gruppenbeschreibung", "hat die gruppe",
        "cambió el asunto", "cambió el nombre", "creó el grupo",
    ]

    /// Phrases of system lines that only groups have (creation, subject, membership).
    static let groupEvidence = [
        "created group", "created this group", "changed the subject", "changed the group name", " added ", " removed ",
        " left", "joined using", "hat die gruppe", "erstellt", "hinzugefügt", "entfernt", "hat den betreff",
        "ist beigetreten", "creó el grupo", "añadió", "salió", "cambió el asunto",
    ]

    /// Whether `text` (parse view) is a deletion marker.
    static func isDeletedText(_ text: String) -> Bool {
        var t = WhatsAppChars.trimmingSpaces(text).lowercased()
        if t.hasSuffix(".") { t.removeLast() }
        return deleted.contains(t)
    }

    /// Whether `text` (parse view) is a deletion marker only the owner's own messages carry.
    static func isDeletedByYou(_ text: String) -> Bool {
        var t = WhatsAppChars.trimmingSpaces(text).lowercased()
        if t.hasSuffix(".") { t.removeLast() }
        return deletedByYou.contains(t)
    }

    /// Whether a system line's text shows the chat is a group.
    static func showsGroup(_ systemText: String) -> Bool {
        let t = systemText.lowercased()
        return groupEvidence.contains { t.contains($0) } || t.hasSuffix(" left")
    }

    /// Whether a would-be author name is really the start of a system line.
    static func isSystemInAuthor(_ author: String) -> Bool {
        let t = author.lowercased()
        return systemInAuthor.contains { t.contains($0) }
    }
}
