// The audit of the traps of ChatImport's format articles: for each, the Corpus fixture that holds it and the test that
// asserts the resulting values. Kept beside the tests so that a new trap gets a row and a test.
//
// # Format traps → fixtures → tests
//
// Every trap ChatImport's format articles list, the fixture under `Corpus/` that holds it, and the test that
// asserts the resulting values. `T` = `TelegramImporterTests.swift`, `TM` =
// `TelegramMoreTypesTests.swift`, `W` = `WhatsAppImporterTests.swift`, `WL` =
// `WhatsAppLocaleVariantTests.swift`, `S` = `SimplexImporterTests.swift`, `D` =
// `DiscordImporterTests.swift`, `SL` = `SlackImporterTests.swift`, `P` =
// `ChatArchiveTests/IngestPipelineTests.swift`, `F` = `FormatDetectorTests.swift`, `Z` = `ZipContainerTests.swift`,
// `SG` = `SignalImporterTests.swift`.
//
// ## Cross-format (ImportRules article)
//
// | trap | fixture | test |
// |---|---|---|
// | sniff by content, fixed order | all Corpus folders, zips built in tests | F `detects*`, `discordWinsOverTelegramInFormatOrder` |
// | refuse HTML/CSV, name the tests tried | inline | F `refusesHTMLAndCSVExports`, `unknownFilesNameEveryTestTried` |
// | raw record kept | every fixture | T `textArrayWithMentionNameAndCode`, W `multiLineMessage…`, SL `rawKeepsTheElementBytes` |
// | floating times, zone at import, wall clock kept | whatsapp/*, telegram/account, more-types | W `germanPhrasesAndBerlinTime`, T `floatingTimes…`, TM `basicGroup…`, WL `variant` (`isFloating`, `wallClock`) |
// | DST: ambiguous → first, gap → forward | whatsapp/android-de-DE | W `germanPhrasesAndBerlinTime` |
// | re-import idempotent | one sample per format | P `reimportAddsAndUpdatesNothing` (7 formats), `whatsAppIdsDoNotDependOnTheZone` |
// | SHA-256 ids, canonical equivalence | whatsapp/android-en-GB (`cafe\u0301`) | W `textTraps`, `identicalMessages…`, `sha256KnownAnswers` |
// | LF split only (CRLF, U+2028 inside text) | whatsapp/ios-en-US, android-en-GB, locale-variants/Kinds | W `multiLineWithCRLF`, `textTraps`, WL `iOSOmittedKinds…` |
//
// ## Telegram (TelegramFormat article)
//
// | trap | fixture | test |
// |---|---|---|
// | single chat / whole account, left_chats | telegram/single-chat, account | T `chatIsAPrivateSupergroup`, `everyChatIncludingLeftOnes` |
// | chat types and families | account, more-types (bot_chat, replies, private_channel, private_group) | T `everyChat…`, TM `chatTypesAndFamilies` |
// | members by latest `from`; owner; peer `user<id>` | single-chat, account | T `membersAreNamedByTheLatestFrom`, `theOwnerIsAMemberOfEveryChat` |
// | `from: null` deleted account | single-chat 312 | T `deletedAuthorRepliesWithAPhotoNotIncluded` |
// | integer `from_id`/`actor_id` (pre-2021) | account, more-types Old crew | T `oldPersonalChat…`, TM `basicGroup…` |
// | forwards (`forwarded_from` null too), `author`, `via_bot` | single-chat 324, more-types | T `captions…`, TM `bankCard…`, `unreadableTimes…` |
// | reply, reply to another chat (`reply_to_peer_id`) | single-chat 312, more-types 10 | T `deletedAuthor…`, TM `aReplyToAnotherChatHasNoLocalTarget` |
// | media kinds, file names, paths | single-chat 318–324, more-types 2–6 | T `mediaKindsAndFileNames`, TM `mediaKindsAndPaths` |
// | "not exported" placeholders (3 forms) | single-chat 312/318, more-types 4/5 | T, TM `unavailablePhoto…` |
// | path leaving the export | more-types 6 | TM `unavailablePhotoAndAPathLeavingTheExport` |
// | poll, contact, location | single-chat 322, account 5/6 | T `captions…`, `oldPersonalChat…` |
// | reactions | single-chat 320 | T `captions…` |
// | service actions, custom `information_text`, unknown action | single-chat 315–317, account, more-types migrate_* | T `serviceMessagesAreEvents`, `channelPostsAndGroupEvents`, TM `basicGroup…` |
// | text string / mixed array / `""` part; `text_entities` preferred | single-chat 311/314, more-types 1 | T `textArray…`, `entitiesBecomeFormattedPieces`, TM `bankCard…` |
// | every entity type, unknown entity | single-chat 314 | T `entitiesBecomeFormattedPieces` |
// | `date_unixtime` string or number | single-chat, more-types bot chat | T, TM `botChatWithNumericUnixTime…` |
// | `date` only (floating); unreadable → previous time, `isTimeUnknown` | account, more-types | T `floatingTimes…`, TM `unreadableTimesFallBackAndAreFlagged` |
// | edited, epoch-in-local-time "not edited" | single-chat 314, account 1/2 | T `oldPersonalChat…` |
// | migrated group: two chats, linked | more-types Old crew | TM `chatTypesAndFamilies`, `basicGroup…` |
// | `\xNN` escapes (raw keeps bytes) | single-chat 313 | T `controlCharacterEscapes…` |
// | chat exported twice in one file | account | T `theChatExportedTwiceIsDeduplicated` |
// | messages before the chat header | inline | T `messagesBeforeTheChatHeaderAreKept` |
// | truncated / syntax error / invalid UTF-8 | from single-chat, inline | T `TelegramBadInputTests` |
// | 2 GB streaming | generated (`TelegramExportGenerator`) | measured, see report |
//
// ## WhatsApp (WhatsAppFormat article)
//
// | trap | fixture | test |
// |---|---|---|
// | Android / iOS / old layouts | android-en-GB, ios-en-US, locale-variants/Old | W suites, WL `variant` |
// | zip with `_chat.txt` | built from ios-en-US in the test | P `whatsAppFromAnIOSZipMatchesTheFolder`, F `detectsWhatsAppInsideAnIOSZip` |
// | separators, 2/4-digit years, Y/M/D, `klo`, dotted times | locale-variants (Aino, Hanako), mixed-styles | WL `variant`, W `headerVariants` table |
// | AM/PM forms (`a. m.` NBSP, U+202F, Arabic ص/م, 午前/午後) | locale-variants (Lucía, Sara, Hanako), ios-en-US, android-en-US-utf16 | WL `variant`, W `twelveHourClock…`, `utf16MonthFirstDirectChat` |
// | Buddhist years | locale-variants/Somchai | WL `variant` |
// | day/month: >12 rule, decrease rule, ask + override | android-en-GB, utf16, locale-variants/Dora, inline | W, WL `variant` (Dora), W `dateOrderOverride`, P `whatsAppOptionsChatKeyAndDateOrder` |
// | second template only for its block | mixed-styles | W `secondTemplateOnlyForTheBlockItOwns` |
// | line in another date style is text | android-en-GB, mixed-styles | W `multiLineMessageKeepsALineInAnotherDateStyle` |
// | system vs author (subject with ": ", iOS LRM) | android-en-GB, ios-en-US | W `systemLines`, `systemLinesHaveTheGroupAsAuthorAndAnLRM` |
// | `~`+U+202F authors, mentions with FSI/PDI | android-en-GB, ios-en-US | W `editWithMentions`, `editMentionDeletionsLocation` |
// | media omitted / attached / caption / view once / all iOS omitted kinds | android-en-GB, ios-en-US, locale-variants/Kinds | W `attachments`, `attachedAndOmittedAreBothKept`, WL `iOSOmittedKinds…` |
// | attached media paths | android-en-GB, ios-en-US | WL `attachedMediaKeepTheirPathBesideTheText` |
// | locations, edits (Android/iOS), deletions (both forms) | android-en-GB, ios-en-US, android-de-DE | W `deletionsAndLocation`, `editMentionDeletionsLocation`, `germanPhrases…` |
// | localised phrases (de) | android-de-DE | W `germanPhrasesAndBerlinTime` |
// | item key ordinal for identical messages | android-en-GB ("ok" twice) | W `identicalMessagesInOneMinuteGetDistinctIds` |
// | invisible characters, BOM | android-en-GB, ios-en-US | W `textTraps`, `headerVariants` ("leading marks") |
// | CRLF and LF mixed | android-en-GB (one CRLF line), locale-variants/Kinds | W, WL `iOSOmittedKinds…` |
// | impossible dates re-scored, not clamped | android-en-GB line 23 | W `impossibleDateIsReportedAndSkipped…` |
// | UTF-16 | android-en-US-utf16 | W `utf16MonthFirstDirectChat` |
// | NUL, no template, contradictory D/M | inline | W `WhatsAppBadInputTests` |
//
// ## SimpleX (SimplexFormat article)
//
// | trap | fixture | test |
// |---|---|---|
// | export zip, agent DB never read, encrypted refused | database built by `SimplexTestDatabase` | S `refusesEncryptedDatabases…`, `readsChatsAndSkipsHiddenProfiles` |
// | hidden profiles, aliases, business, notes, tags, favorites, unread | same | S `readsChatsAndSkipsHiddenProfiles` |
// | own group items without member; member ids stable | same | S `readsMembersWithStableIds`, `mapsMessageFields` |
// | item order per chat kind; fraction digits | same | S `readsItemsInAppOrder`, `mapsEventsAndBadContent` |
// | quotes, mentions, reactions, files (path; encrypted → name only), link previews | same | S `mapsMessageFields` |
// | chatBanner skipped, invalid `item_content` kept, unreadable time | same | S `mapsEventsAndBadContent` |
// | columns by `PRAGMA table_info` (minimal schema) | same | S (every test) |
// | 3B tagged and single-key (`_owsf`) encodings, envelopes | simplex/android-group.json, ios-group.json | S `bothJSONEncodingsGiveTheSameRecords`, `jsonMatchesTheDatabaseImport`, `decodesJSONItemFields` |
// | STRICT tables on SQLite < 3.37 | **not tested** (needs an old SQLite) | — |
//
// ## DiscordChatExporter (DiscordFormat article)
//
// | trap | fixture | test |
// |---|---|---|
// | DM (guild "0"), guild channel | discord/dm, discord/guild | D `chatAndMembers`, `oneChatFromBothPartitions` |
// | partitions overlap, newest `exportedAt` wins, id repeated in a file | discord/guild parts 1–2 | D `overlappingMessagesComeOnceFromTheNewestExport`, `entryOrderDoesNotMatter` |
// | exporter offsets, 7 fraction digits | discord/dm | D `replyWithMention…`, `unrenderedTokens…` |
// | rendered mentions, unrendered tokens, Deleted User | discord/dm | D `replyWithMention…`, `unrenderedTokensDeletedUserAndPin` |
// | markdown markers removed | discord/guild | D `markdownMarkersAreRemoved`, `escapesSnakeCaseAndFences`, `DiscordMarkdownTests` |
// | `\` media paths converted, kept inside the export; every attachment | discord/dm, guild | D `replyWithMention…`, `repliesThreads…`, `exportRelativePaths` |
// | embeds, stickers, reactions, pinned, replies, threads, forwards, system types | discord/dm, guild | D `embedsStickersAndVoice`, `systemMessagesAreEvents`, `repliesThreadsForwardsAndBackslashPaths` |
// | `\uXXXX` surrogate pairs | discord/dm | D `escapedSurrogatePairsAndOffsets` |
// | truncated partition, bad record | from guild, dm | D `truncatedPartitionKeepsCompleteMessages`, `badRecordIsReportedAndSkipped` |
//
// ## Slack (SlackFormat article)
//
// | trap | fixture | test |
// |---|---|---|
// | channels, groups, DMs, MPIMs; folder by name or id; unlisted folder | slack/ | SL `chatsFromEveryListAndFolderByNameOrId`, `badRecordsReportedWithFileAndLine` |
// | users.json names (display/real/name), bots | slack/users.json | SL `membersNamedFromProfiles`, `subtypes` |
// | `org_users.json` (Grid) | **recognition only** (no Grid fixture) | SL `recognition` |
// | mrkdwn tokens, unescape after tokenising | slack/garden, inline table | SL `theSpecExample`, `mrkdwnTokens`, `oldStyleTokens` |
// | rich_text blocks win over text | slack/garden | SL `richTextBlocksWinOverText` |
// | threads, orphans, tombstones, edits | slack/garden | SL `theSpecExample`, `subtypes` |
// | files, hidden_by_limit, tokens never kept | slack/garden | SL `filesWithoutTokens`, `absurdNumbers…` |
// | `ts` as two integers | inline | SL `slackTimestamps`, `badSlackTimestamps` |
// | extra top folder, zip | built in tests | F `detectsSlackFoldersAndZipsWithATopFolder` |
//
// ## §10 Signal (plaintext export)
//
// | trap | fixture | test |
// |---|---|---|
// | recognise `main.jsonl` (header + frame lines), not other JSON Lines | signal/desktop, every other Corpus folder | SG `recognisesTheExportAndOnlyIt` |
// | encrypted backups refused, saying how to export in plain text | built in tests (`signal-backup-*/main`, `signal-*.backup`) | SG `encryptedBackupsAreRefusedWithHowToExportInPlainText` |
// | (1) disappearing messages left out, view-once stripped: partial exports | desktop 12, 21; later (items missing stay) | SG `stickerViewOnceDeletedAndLongText`, `aLaterExportWithOtherFileIdsUpdates…` |
// | (2) file-local recipient/chat ids | later (renumbered) | SG `aLaterExportWithOtherFileIds…`, `ingestTwiceAddsNothingAndTheLaterExportUpdates` |
// | (3) 64-bit values as strings (and a number) | desktop 14 | SG `numbersWhereStringsAreUsualAndUnreadByOmission` |
// | (4) secrets dropped from stored records; groups named by a hash of the master key | desktop (every key kind) | SG `storedRecordsHoldNoSecrets`, `chatsAreKeyedBySignalIdentities` |
// | (5) ACIs as base64 of 16 bytes | desktop recipients | SG `chatsAreKeyedBySignalIdentities`, `mentionReplacesTheObjectCharacter…` |
// | (6) omitted defaults (`read` missing = unread) | desktop 2, 14 | SG `mentionReplaces…`, `numbersWhereStrings…` |
// | (7) global interleaved order, absent quote targets | desktop | SG `quotesOfAbsentTargets`, `replyQuotesByAuthorAndSentTime` |
// | (8) unknown frames, item kinds, fields and enum numbers | desktop 29, `pinnedMessage`, styles as numbers | SG `countsAndOneWarningForTheUnknownKind`, `stylesInEveryScript` |
// | mentions (U+FFFC), styles in UTF-16 units, surrogate pairs | desktop 2, 6, 10b, 16; inline | SG `mention…`, `stylesInEveryScript`, `badLinesAreSkippedAndReadingGoesOn` |
// | edits (revisions), quotes of an edited version, deletions, read state | desktop 3, 26; later | SG `editKeepsTheFirstVersionsKey…`, `ingestTwice…` |
// | attachment paths `files/<hh>/<sha256>.<ext>`, long text, not exported | desktop 5, 10, 13, 17 | SG `attachmentsWithTheirExportedPaths`, `stickerViewOnce…` |
// | group changes, calls and updates as events | desktop 7–9, 19, 20, 24, 25 | SG `eventsForGroupChangesCallsAndUpdates` |
// | Android folder nesting | **not reproduced** (unverified): `files/` looked for beside and inside the backup folder | — |
//
// ## §7 Meta (Messenger, Instagram); `M` = `MetaImporterTests.swift`
//
// | trap | fixture | test |
// |---|---|---|
// | both layouts, FB and IG, owner from the profile or the one name in every thread | meta/facebook-2024, facebook-2023, instagram-2024, instagram-2022 | M `chatsMembersAndCounts`, `facebookUntil2023`, `instagram2024`, `instagramUntil2023…` |
// | (1) mojibake in every string (names, title, reactions, share, uris, keys); text that is not mojibake left alone | facebook-2024, instagram-2024 | M `MetaMojibakeTests`, `textTimesSendersAndReactions`, `attachments` |
// | (2) newest first over `message_N.json`; same millisecond | facebook-2024 (3 files) | M `itemsComeOldestFirstOverTheThreadFiles` |
// | (3) split request: zips in a folder, parts unzipped side by side | built from facebook-2024 | M `MetaSplitExportTests` |
// | (4) event sentences, calls, reaction echoes, attachment placeholders, other languages stay text | facebook-2024, instagram-2024 | M `sharesCallsUnsentPlaceholdersAndEvents`, `instagram2024`, `sentences` |
// | (5) names are the only identity: a rename keeps the items | facebook-2024-later | M `ingestSearchReimportAndALaterExport` |
// | (6) threads continued in the E2EE download | **not reproduced** (secure storage refused) | M `htmlOldInstagramAndSecureStorage…` |
// | (7) HTML variant, old Instagram refused | meta/html, instagram-old | M `htmlOldInstagramAndSecureStorage…` |
// | (8) unsent and share-only messages kept | facebook-2024 | M `sharesCallsUnsentPlaceholdersAndEvents` |
// | (9) IG display names, `original_content_owner` handle | instagram-2024 | M `instagram2024` |
// | CDN and bare-name uris, `..` uris, truncated file, bad records | facebook-2023, inline | M `facebookUntil2023`, `badInputKeepsWhatItCan` |
//
// ## iMessage (IMessageFormat article); `I` = `IMessageImporterTests.swift`, `ID` = `IMessageDatabaseTests.swift`
//
// The full table, trap by trap with the rows of `Corpus/imessage/chat.sql`, is in `Corpus/imessage/README.md`.
//
// | trap | fixture | test |
// |---|---|---|
// | recognised by its tables, beside other exports; other SQLite not claimed; encrypted refused | imessage/Messages, built in tests | ID `IMessageDetectionTests` |
// | text NULL → typedstream; truncated and hostile blobs | rows 2, 6, 9, 15, 16; built in tests | I `attributedBodyTextWhenTextIsNull`, `TypedStreamDecoderTests` |
// | ns vs s per value; WAL read; user's files untouched | rows 1, 23; built in tests | I `AppleTimeTests`, ID `messagesStillInTheWriteAheadLogAreRead`, `readingLeavesTheUsersFilesAlone` |
// | tapbacks → reactions; edits, unsends, replies, events, attachments | rows 3–21 | I `tapbacks…`, `editedAndUnsentMessages`, `replyQuotesItsTarget`, `groupEvents`, `attachments…` |
// | schema drift; re-import; a later copy updates | built in tests | ID `anOlderDatabase…`, `ingestTwiceAddsNothingAndALaterCopyUpdates` |
