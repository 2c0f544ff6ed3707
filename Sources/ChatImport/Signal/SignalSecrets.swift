import ChatModel

/// The secrets a Signal plaintext export holds in clear (keys that decrypt media, profiles,
/// groups and sticker packs, PINs, subscriber ids), removed from records before they are
/// stored. What the importer needs from them (a group's name hash, a file's path) is
/// computed first.
enum SignalSecrets {
    static let keys: Set<String> = [
        "key", "localKey", "plaintextHash", "encryptedDigest", "digest", "incrementalMac", "transitCdnKey", "mediaName",
        "profileKey", "identityKey", "masterKey", "inviteLinkPassword", "packKey", "mediaRootBackupKey", "svrPin",
        "subscriberId", "rootKey", "adminKey", "receiptCredentialPresentation", "backupsSubscriberData",
        "donationSubscriberData", "blurHash",
    ]

    /// `v` without any member named by ``keys``, at any depth.
    static func stripped(_ v: JSONValue) -> JSONValue {
        switch v {
        case .object(let members):
            return .object(members.filter { !keys.contains($0.0) }.map { ($0.0, stripped($0.1)) })
        case .array(let a): return .array(a.map(stripped))
        default: return v
        }
    }

    /// Whether `v` holds any member named by ``keys``.
    static func contains(_ v: JSONValue) -> Bool {
        switch v {
        case .object(let members): return members.contains { keys.contains($0.0) || contains($0.1) }
        case .array(let a): return a.contains(where: contains)
        default: return false
        }
    }
}
