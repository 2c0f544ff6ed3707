import Foundation
import GRDB

/// Builds a small plaintext SimpleX chat database with the columns the importer reads.
package enum SimplexTestDatabase {
    package static let schema = """
        CREATE TABLE users(user_id INTEGER PRIMARY KEY, contact_id INTEGER, local_display_name TEXT, created_at TEXT, view_pwd_hash BLOB);
        CREATE TABLE contact_profiles(contact_profile_id INTEGER PRIMARY KEY, display_name TEXT, full_name TEXT, local_alias TEXT, user_id INTEGER);
        CREATE TABLE contacts(contact_id INTEGER PRIMARY KEY, contact_profile_id INTEGER, user_id INTEGER, local_display_name TEXT,
          is_user INTEGER, favorite INTEGER, unread_chat INTEGER, enable_ntfs INTEGER);
        CREATE TABLE group_profiles(group_profile_id INTEGER PRIMARY KEY, display_name TEXT, full_name TEXT);
        CREATE TABLE groups(group_id INTEGER PRIMARY KEY, user_id INTEGER, group_profile_id INTEGER, local_display_name TEXT,
          favorite INTEGER, unread_chat INTEGER, enable_ntfs INTEGER, business_chat TEXT);
        CREATE TABLE group_members(group_member_id INTEGER PRIMARY KEY, group_id INTEGER, member_id BLOB, member_category TEXT,
          local_display_name TEXT, member_profile_id INTEGER, contact_profile_id INTEGER, user_id INTEGER);
        CREATE TABLE note_folders(note_folder_id INTEGER PRIMARY KEY, user_id INTEGER, favorite INTEGER, unread_chat INTEGER);
        CREATE TABLE chat_items(chat_item_id INTEGER PRIMARY KEY, user_id INTEGER, contact_id INTEGER, group_id INTEGER,
          note_folder_id INTEGER, group_member_id INTEGER, item_sent INTEGER, item_ts TEXT, created_at TEXT, item_content TEXT,
          item_text TEXT, item_edited INTEGER, item_deleted INTEGER, item_status TEXT, shared_msg_id BLOB,
          quoted_shared_msg_id BLOB, quoted_content TEXT, quoted_sent INTEGER);
        CREATE TABLE files(file_id INTEGER PRIMARY KEY, chat_item_id INTEGER, file_name TEXT, file_path TEXT, file_size INTEGER,
          file_crypto_key BLOB);
        CREATE TABLE chat_item_mentions(chat_item_mention_id INTEGER PRIMARY KEY, group_id INTEGER, member_id BLOB,
          chat_item_id INTEGER, display_name TEXT);
        CREATE TABLE chat_item_reactions(chat_item_reaction_id INTEGER PRIMARY KEY, item_member_id BLOB, shared_msg_id BLOB,
          contact_id INTEGER, group_id INTEGER, group_member_id INTEGER, reaction TEXT, reaction_sent INTEGER);
        CREATE TABLE chat_tags(chat_tag_id INTEGER PRIMARY KEY, user_id INTEGER, chat_tag_text TEXT, chat_tag_emoji TEXT, tag_order INTEGER);
        CREATE TABLE chat_tags_chats(contact_id INTEGER, group_id INTEGER, chat_tag_id INTEGER);
        """

    package static let rows = """
        INSERT INTO users VALUES (1, 1, 'me', '2024-01-01 00:00:00', NULL), (2, 9, 'secret', '2024-01-02 00:00:00', x'01');
        INSERT INTO contact_profiles VALUES (1, 'me', '', '', 1), (2, 'alice', 'Alice Liddell', 'Al', 1), (3, 'bob', 'Bob Stone', '', 1),
          (9, 'hidden friend', '', '', 2);
        INSERT INTO contacts VALUES (1, 1, 1, 'me', 1, 0, 0, 1), (2, 2, 1, 'alice', 0, 1, NULL, 0), (9, 9, 2, 'hidden', 0, 0, 0, 1);
        INSERT INTO group_profiles VALUES (5, 'Climbers', 'Climbing crew');
        INSERT INTO group_profiles VALUES (6, 'Bike shop', '');
        INSERT INTO groups VALUES (7, 1, 5, 'Climbers', 1, 1, 2, NULL), (8, 1, 6, 'Bike shop', 0, 0, NULL, 'business');
        INSERT INTO group_members VALUES (11, 7, x'0A0B0C', 'user', 'me', 1, 1, 1), (12, 7, x'01020304', 'invitee', 'bob', NULL, 3, 1);
        INSERT INTO note_folders VALUES (1, 1, 0, 0);
        INSERT INTO chat_items (chat_item_id, user_id, contact_id, item_sent, item_ts, created_at, item_content, item_text,
            item_status, shared_msg_id) VALUES
          (100, 1, 2, 0, '2025-06-18 08:00:00', '2025-06-18 08:00:01',
           '{"rcvMsgContent":{"msgContent":{"type":"text","text":"hi *there*"}}}', 'hi *there*', 'rcv_read', x'AA');
        INSERT INTO chat_items (chat_item_id, user_id, contact_id, item_sent, item_ts, created_at, item_content, item_text,
            item_status, item_edited, quoted_shared_msg_id, quoted_content, quoted_sent) VALUES
          (101, 1, 2, 1, '2025-06-18 08:01:00', '2025-06-18 08:01:00',
           '{"sndMsgContent":{"msgContent":{"type":"text","text":"hello"}}}', 'hello', 'snd_rcvd ok complete', 1, x'AA',
           '{"type":"text","text":"hi *there*"}', 0);
        INSERT INTO chat_items (chat_item_id, user_id, contact_id, item_sent, item_ts, created_at, item_content, item_text) VALUES
          (102, 1, 2, 0, '2025-06-18 08:02:00', '2025-06-18 08:02:00',
           '{"rcvDirectEvent":{"rcvDirectEvent":{"type":"contactDeleted"}}}', 'contact deleted'),
          (900, 2, 9, 0, '2025-06-18 08:02:00', '2025-06-18 08:02:00',
           '{"rcvMsgContent":{"msgContent":{"type":"text","text":"hidden"}}}', 'hidden');
        INSERT INTO chat_items (chat_item_id, user_id, group_id, group_member_id, item_sent, item_ts, created_at, item_content,
            item_text, item_status, shared_msg_id, item_deleted) VALUES
          (5120, 1, 7, 12, 0, '2025-06-18 08:30:02.41', '2025-06-18 08:30:03',
           '{"rcvMsgContent":{"msgContent":{"type":"text","text":"*done*, see https://example.net @me"}}}',
           '*done*, see https://example.net @me', 'rcv_new', x'BB', 0),
          (5121, 1, 7, NULL, 1, '2025-06-18 08:31:00', '2025-06-18 08:31:00',
           '{"sndMsgContent":{"msgContent":{"type":"image","text":"summit!","image":"data:image/jpg;base64,AA=="}}}',
           'summit!', 'snd_sent complete', x'CC', 0),
          (5122, 1, 7, 12, 0, '2025-06-18 08:32:00', '2025-06-18 08:32:00',
           '{"rcvMsgContent":{"msgContent":{"type":"text","text":"oops"}}}', 'oops', 'rcv_read', x'DD', 1),
          (5123, 1, 7, 12, 0, '2025-06-18 08:34:00', '2025-06-18 08:34:00',
           '{"rcvGroupEvent":{"rcvGroupEvent":{"type":"memberAdded","groupMemberId":13,"profile":{}}}}', 'added carol',
           'rcv_read', NULL, 0),
          (5124, 1, 7, 12, 0, '2025-06-18 08:35:00', '2025-06-18 08:35:00',
           '{"rcvMsgContent":{"msgContent":{"type":"voice","text":"","duration":42}}}', 'voice message', 'rcv_read', NULL, 0),
          (5125, 1, 7, 12, 0, '2025-06-18 08:36:00', '2025-06-18 08:36:00', 'not json', 'garbled', 'rcv_read', NULL, 0),
          (5128, 1, 7, 12, 0, 'yesterday', 'yesterday',
           '{"rcvMsgContent":{"msgContent":{"type":"text","text":"when?"}}}', 'when?', 'rcv_read', NULL, 0),
          (5126, 1, 7, NULL, 0, '2025-06-18 08:20:00', '2025-06-18 08:20:00', '{"chatBanner":{}}', '', 'rcv_read', NULL, 0),
          (5127, 1, 7, 12, 0, '2025-06-18 08:29:00', '2025-06-18 08:29:00',
           '{"rcvMsgContent":{"msgContent":{"type":"link","text":"look https://x.org","preview":{"uri":"https://x.org","title":"X","description":"An example","image":"data:,"}}}}',
           'look https://x.org', 'rcv_read', NULL, 0);
        INSERT INTO chat_items (chat_item_id, user_id, note_folder_id, item_sent, item_ts, created_at, item_content, item_text) VALUES
          (200, 1, 1, 1, '2025-06-19 10:00:00', '2025-06-19 10:00:00',
           '{"sndMsgContent":{"msgContent":{"type":"text","text":"remember milk"}}}', 'remember milk');
        INSERT INTO files VALUES (3, 5121, 'photo.jpg', 'photo.jpg', 12345, NULL),
          (4, 5124, 'voice_1.m4a', 'voice_1.m4a', 2048, x'00112233');
        INSERT INTO chat_item_mentions VALUES (1, 7, x'0A0B0C', 5120, 'me');
        INSERT INTO chat_item_reactions VALUES
          (1, x'01020304', x'BB', NULL, 7, 12, '{"type":"emoji","emoji":"👍"}', 0),
          (2, x'01020304', x'BB', NULL, 7, NULL, '{"type":"emoji","emoji":"❤️"}', 1),
          (3, x'01020304', x'BB', NULL, 7, 13, '{"type":"emoji","emoji":"👍"}', 0);
        INSERT INTO chat_tags VALUES (1, 1, 'friends', NULL, 1);
        INSERT INTO chat_tags_chats VALUES (NULL, 7, 1);
        """

    /// The database's bytes.
    package static func bytes() throws -> [UInt8] {
        let dir = try TestFiles.folder()
        let path = dir + "/simplex_v1_chat.db"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: schema)
            try db.execute(sql: rows)
        }
        try queue.close()
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// An "Export database" zip holding the test database and an agent database that must not be read.
    package static func zip() throws -> String {
        var z = TestZip()
        z.add("simplex_v1_agent.db", "keys: never read")
        z.add("simplex_v1_chat.db", bytes: try bytes())
        z.add("simplex_v1_files/photo.jpg", bytes: [0xFF, 0xD8, 0xFF])
        return try z.write(named: "simplex-export.zip")
    }
}
