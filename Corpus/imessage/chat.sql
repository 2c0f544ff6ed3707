-- An iMessage database (chat.db) written by hand: the tables and columns the importer reads,
-- as macOS 14/15 has them, and rows that hold the traps of the format.
-- Build: sqlite3 Messages/chat.db < chat.sql   (then delete any -journal file)
--
-- Times are Apple-epoch (2001-01-01T00:00:00Z) nanoseconds: 736250400000000000 is
-- 2024-05-01T10:00:00Z, and every minute adds 60000000000. The SMS chat's messages are in
-- seconds, as databases from before macOS 10.13 / iOS 11 store them.
-- attributedBody values are NeXT typedstreams (NSArchiver) of an NSMutableAttributedString
-- (one of a plain NSAttributedString); the comment above each gives its text.

PRAGMA user_version = 19000;
CREATE TABLE _SqliteDatabaseProperties (key TEXT, value TEXT, UNIQUE(key));
CREATE TABLE handle (ROWID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, id TEXT NOT NULL, country TEXT, service TEXT NOT NULL, uncanonicalized_id TEXT, person_centric_id TEXT, UNIQUE (id, service));
CREATE TABLE chat (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, style INTEGER, state INTEGER, account_id TEXT, properties BLOB, chat_identifier TEXT, service_name TEXT, room_name TEXT, account_login TEXT, is_archived INTEGER DEFAULT 0, last_addressed_handle TEXT, display_name TEXT, group_id TEXT, is_filtered INTEGER DEFAULT 0, successful_query INTEGER, engram_id TEXT, server_change_token TEXT, ck_sync_state INTEGER DEFAULT 0, original_group_id TEXT, last_read_message_timestamp INTEGER DEFAULT 0, cloudkit_record_id TEXT, last_addressed_sim_id TEXT, is_blackholed INTEGER DEFAULT 0, syndication_date INTEGER DEFAULT 0, syndication_type INTEGER DEFAULT 0, is_recovered INTEGER DEFAULT 0, is_deleting_incoming_messages INTEGER DEFAULT 0);
CREATE TABLE message (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, text TEXT, replace INTEGER DEFAULT 0, service_center TEXT, handle_id INTEGER DEFAULT 0, subject TEXT, country TEXT, attributedBody BLOB, version INTEGER DEFAULT 0, type INTEGER DEFAULT 0, service TEXT, account TEXT, account_guid TEXT, error INTEGER DEFAULT 0, date INTEGER, date_read INTEGER, date_delivered INTEGER, is_delivered INTEGER DEFAULT 0, is_finished INTEGER DEFAULT 0, is_emote INTEGER DEFAULT 0, is_from_me INTEGER DEFAULT 0, is_empty INTEGER DEFAULT 0, is_delayed INTEGER DEFAULT 0, is_auto_reply INTEGER DEFAULT 0, is_prepared INTEGER DEFAULT 0, is_read INTEGER DEFAULT 0, is_system_message INTEGER DEFAULT 0, is_sent INTEGER DEFAULT 0, has_dd_results INTEGER DEFAULT 0, is_service_message INTEGER DEFAULT 0, is_forward INTEGER DEFAULT 0, was_downgraded INTEGER DEFAULT 0, is_archive INTEGER DEFAULT 0, cache_has_attachments INTEGER DEFAULT 0, cache_roomnames TEXT, was_data_detected INTEGER DEFAULT 0, was_deduplicated INTEGER DEFAULT 0, is_audio_message INTEGER DEFAULT 0, is_played INTEGER DEFAULT 0, date_played INTEGER, item_type INTEGER DEFAULT 0, other_handle INTEGER DEFAULT 0, group_title TEXT, group_action_type INTEGER DEFAULT 0, share_status INTEGER DEFAULT 0, share_direction INTEGER DEFAULT 0, is_expirable INTEGER DEFAULT 0, expire_state INTEGER DEFAULT 0, message_action_type INTEGER DEFAULT 0, message_source INTEGER DEFAULT 0, associated_message_guid TEXT, associated_message_type INTEGER DEFAULT 0, balloon_bundle_id TEXT, payload_data BLOB, expressive_send_style_id TEXT, associated_message_range_location INTEGER DEFAULT 0, associated_message_range_length INTEGER DEFAULT 0, time_expressive_send_played INTEGER, message_summary_info BLOB, ck_sync_state INTEGER DEFAULT 0, ck_record_id TEXT, ck_record_change_tag TEXT, destination_caller_id TEXT, is_corrupt INTEGER DEFAULT 0, reply_to_guid TEXT, sort_id INTEGER, is_spam INTEGER DEFAULT 0, has_unseen_mention INTEGER DEFAULT 0, thread_originator_guid TEXT, thread_originator_part TEXT, syndication_ranges TEXT, synced_syndication_ranges TEXT, was_delivered_quietly INTEGER DEFAULT 0, did_notify_recipient INTEGER DEFAULT 0, date_retracted INTEGER, date_edited INTEGER, was_detonated INTEGER DEFAULT 0, part_count INTEGER, is_stewie INTEGER DEFAULT 0, is_kt_verified INTEGER DEFAULT 0, is_sos INTEGER DEFAULT 0, is_critical INTEGER DEFAULT 0, bia_reference_id TEXT DEFAULT NULL, fallback_hash TEXT DEFAULT NULL, associated_message_emoji TEXT DEFAULT NULL, is_pending_satellite_send INTEGER DEFAULT 0, needs_relay INTEGER DEFAULT 0, schedule_type INTEGER DEFAULT 0, schedule_state INTEGER DEFAULT 0, sent_or_received_off_grid INTEGER DEFAULT 0);
CREATE TABLE attachment (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, created_date INTEGER DEFAULT 0, start_date INTEGER DEFAULT 0, filename TEXT, uti TEXT, mime_type TEXT, transfer_state INTEGER DEFAULT 0, is_outgoing INTEGER DEFAULT 0, user_info BLOB, transfer_name TEXT, total_bytes INTEGER DEFAULT 0, is_sticker INTEGER DEFAULT 0, sticker_user_info BLOB, attribution_info BLOB, hide_attachment INTEGER DEFAULT 0, ck_sync_state INTEGER DEFAULT 0, ck_server_change_token_blob BLOB, ck_record_id TEXT, original_guid TEXT UNIQUE NOT NULL, sr_ck_sync_state INTEGER DEFAULT 0, sr_ck_server_change_token_blob BLOB, sr_ck_record_id TEXT, is_commsafety_sensitive INTEGER DEFAULT 0, emoji_image_content_identifier TEXT DEFAULT NULL, emoji_image_short_description TEXT DEFAULT NULL, preview_generation_state INTEGER DEFAULT 0);
CREATE TABLE chat_handle_join (chat_id INTEGER REFERENCES chat (ROWID) ON DELETE CASCADE, handle_id INTEGER REFERENCES handle (ROWID) ON DELETE CASCADE, UNIQUE(chat_id, handle_id));
CREATE TABLE chat_message_join (chat_id INTEGER REFERENCES chat (ROWID) ON DELETE CASCADE, message_id INTEGER REFERENCES message (ROWID) ON DELETE CASCADE, message_date INTEGER DEFAULT 0, PRIMARY KEY (chat_id, message_id));
CREATE TABLE message_attachment_join (message_id INTEGER REFERENCES message (ROWID) ON DELETE CASCADE, attachment_id INTEGER REFERENCES attachment (ROWID) ON DELETE CASCADE, UNIQUE(message_id, attachment_id));
CREATE TABLE chat_recoverable_message_join (chat_id INTEGER REFERENCES chat (ROWID) ON DELETE CASCADE, message_id INTEGER REFERENCES message (ROWID) ON DELETE CASCADE, delete_date INTEGER, ck_sync_state INTEGER DEFAULT 0, PRIMARY KEY (chat_id, message_id), CHECK (delete_date != 0));
CREATE TABLE deleted_messages (ROWID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, guid TEXT NOT NULL);
CREATE INDEX chat_message_join_idx_message_date_id_chat_id ON chat_message_join(chat_id, message_date, message_id);
CREATE INDEX message_idx_date ON message(date);
CREATE INDEX message_idx_thread_originator_guid ON message(thread_originator_guid);
INSERT INTO _SqliteDatabaseProperties VALUES ('_ClientVersion', '19000'), ('counter_in_all', '25');

-- Handles: phone numbers (E.164) and e-mail addresses; the same number twice (SMS and iMessage).
INSERT INTO handle (ROWID, id, country, service, uncanonicalized_id, person_centric_id) VALUES
  (1, '+15550001', 'us', 'iMessage', NULL, NULL),
  (2, 'zoe@example.com', 'us', 'iMessage', NULL, NULL),
  (3, '+972501234567', 'il', 'iMessage', NULL, NULL),
  (4, '+66812345678', 'th', 'iMessage', NULL, NULL),
  (5, '+4915112345678', 'de', 'SMS', NULL, 'PCID-LENA'),
  (6, '+8613800138000', 'cn', 'iMessage', NULL, NULL),
  (7, '+971501234567', 'ae', 'iMessage', NULL, NULL),
  (8, '+4915112345678', 'de', 'iMessage', NULL, 'PCID-LENA');

-- Chats: style 45 direct, 43 group; display_name set on one group only.
INSERT INTO chat (ROWID, guid, style, chat_identifier, service_name, display_name) VALUES
  (1, 'iMessage;-;+15550001', 45, '+15550001', 'iMessage', ''),
  (2, 'iMessage;+;chat493850128374651', 43, 'chat493850128374651', 'iMessage', 'Rope Team 🧗'),
  (3, 'SMS;-;+4915112345678', 45, '+4915112345678', 'SMS', NULL),
  (4, 'iMessage;+;chat777000111222333', 43, 'chat777000111222333', 'iMessage', ''),
  (5, 'iMessage;-;+4915112345678', 45, '+4915112345678', 'iMessage', '');

-- Members other than me. +66812345678 left chat 2, so it is not listed any more.
INSERT INTO chat_handle_join (chat_id, handle_id) VALUES (1, 1), (2, 2), (2, 3), (3, 5), (4, 6), (4, 7), (5, 8);

-- Direct chat with +15550001.
INSERT INTO message (ROWID, guid, text, handle_id, service, date, date_read, is_from_me, is_read, is_delivered, is_sent) VALUES
  (1, 'C0FFEE00-0000-4000-8000-000000000001', 'Are we still on for Saturday? 🧗', 1, 'iMessage', 736250400000000000, 736250460000000000, 0, 1, 1, 0);
-- Sent, text NULL: "Yes! 9:00 at the crag ☕" in attributedBody; read by the peer (date_read).
INSERT INTO message (ROWID, guid, text, attributedBody, handle_id, service, date, date_read, date_delivered, is_from_me, is_read, is_delivered, is_sent) VALUES
  (2, 'C0FFEE00-0000-4000-8000-000000000002', NULL, X'040B73747265616D747970656481E803840140848484194E534D757461626C6541747472696275746564537472696E67008484124E5341747472696275746564537472696E67008484084E534F626A6563740085928484840F4E534D757461626C65537472696E67018484084E53537472696E67019584012B195965732120393A303020617420746865206372616720E2989586840269490117928484840C4E5344696374696F6E617279009484016901928496961D5F5F6B494D4D657373616765506172744174747269627574654E616D658692848484084E534E756D626572008484074E5356616C7565009484012A84999900868686', 1, 'iMessage', 736250520000000000, 736250580000000000, 736250520000000000, 1, 0, 1, 1);
-- Tapbacks: loved by the peer (p:0/guid), liked by me (bp:guid) and the like taken back.
INSERT INTO message (ROWID, guid, text, handle_id, service, date, is_from_me, is_read, associated_message_guid, associated_message_type, associated_message_range_length) VALUES
  (3, 'C0FFEE00-0000-4000-8000-000000000003', 'Loved “Yes! 9:00 at the crag ☕”', 1, 'iMessage', 736250640000000000, 0, 1, 'p:0/C0FFEE00-0000-4000-8000-000000000002', 2000, 25),
  (4, 'C0FFEE00-0000-4000-8000-000000000004', 'Liked “Are we still on for Saturday? 🧗”', 1, 'iMessage', 736250700000000000, 1, 0, 'bp:C0FFEE00-0000-4000-8000-000000000001', 2001, 31),
  (5, 'C0FFEE00-0000-4000-8000-000000000005', 'Removed a like from “Are we still on for Saturday? 🧗”', 1, 'iMessage', 736250760000000000, 1, 0, 'bp:C0FFEE00-0000-4000-8000-000000000001', 3001, 31);
-- Edited: the text column is NULL, the latest text "Bring the blue rope, please" is in attributedBody.
INSERT INTO message (ROWID, guid, text, attributedBody, handle_id, service, date, date_edited, is_from_me, is_read, part_count) VALUES
  (6, 'C0FFEE00-0000-4000-8000-000000000006', NULL, X'040B73747265616D747970656481E803840140848484194E534D757461626C6541747472696275746564537472696E67008484124E5341747472696275746564537472696E67008484084E534F626A6563740085928484840F4E534D757461626C65537472696E67018484084E53537472696E67019584012B1B4272696E672074686520626C756520726F70652C20706C656173658684026949011B928484840C4E5344696374696F6E617279009484016901928496961D5F5F6B494D4D657373616765506172744174747269627574654E616D658692848484084E534E756D626572008484074E5356616C7565009484012A84999900868686', 1, 'iMessage', 736250820000000000, 736250940000000000, 0, 1, 1);
-- Unsent (date_retracted), and unsent on an older macOS (edited, no text left).
INSERT INTO message (ROWID, guid, text, attributedBody, handle_id, service, date, date_edited, date_retracted, is_from_me, is_delivered, is_sent) VALUES
  (7, 'C0FFEE00-0000-4000-8000-000000000007', NULL, NULL, 1, 'iMessage', 736250880000000000, 736251000000000000, 736251000000000000, 1, 1, 1),
  (17, 'C0FFEE00-0000-4000-8000-000000000017', '', NULL, 1, 'iMessage', 736251060000000000, 736251060000000000, NULL, 1, 1, 1);
-- A reply (thread_originator_guid) to message 2.
INSERT INTO message (ROWID, guid, text, handle_id, service, date, is_from_me, is_read, thread_originator_guid, thread_originator_part) VALUES
  (8, 'C0FFEE00-0000-4000-8000-000000000008', 'Perfect 👌 see you there', 1, 'iMessage', 736251120000000000, 0, 1, 'C0FFEE00-0000-4000-8000-000000000002', '0:0:25');
-- A photo with a caption: "\uFFFCView from the top 🏔️" (U+FFFC where the photo goes); the file is in Attachments/.
INSERT INTO message (ROWID, guid, text, attributedBody, handle_id, service, date, is_from_me, is_read, cache_has_attachments) VALUES
  (9, 'C0FFEE00-0000-4000-8000-000000000009', NULL, X'040B73747265616D747970656481E803840140848484194E534D757461626C6541747472696275746564537472696E67008484124E5341747472696275746564537472696E67008484084E534F626A6563740085928484840F4E534D757461626C65537472696E67018484084E53537472696E67019584012B1CEFBFBC566965772066726F6D2074686520746F7020F09F8F94EFB88F86840269490116928484840C4E5344696374696F6E617279009484016901928496961D5F5F6B494D4D657373616765506172744174747269627574654E616D658692848484084E534E756D626572008484074E5356616C7565009484012A84999900868686', 1, 'iMessage', 736251180000000000, 0, 1, 1);
-- A voice message (is_audio_message, .caf), not read yet; its file was not copied.
INSERT INTO message (ROWID, guid, text, handle_id, service, date, date_read, is_from_me, is_read, is_audio_message, cache_has_attachments) VALUES
  (10, 'C0FFEE00-0000-4000-8000-000000000010', '￼', 1, 'iMessage', 736251240000000000, 0, 0, 0, 1, 1);
-- A PDF I sent, delivered, not read; its file is offloaded to iCloud (absent).
INSERT INTO message (ROWID, guid, text, handle_id, service, date, date_delivered, is_from_me, is_delivered, is_sent, cache_has_attachments) VALUES
  (11, 'C0FFEE00-0000-4000-8000-000000000011', 'Topo for Saturday ￼', 1, 'iMessage', 736251300000000000, 736251300000000000, 1, 1, 1, 1);

-- Group chat "Rope Team 🧗": events, then messages in several scripts.
INSERT INTO message (ROWID, guid, text, handle_id, service, date, is_from_me, is_read, item_type, other_handle, group_title, group_action_type) VALUES
  (12, 'C0FFEE00-0000-4000-8000-000000000012', NULL, 0, 'iMessage', 736251600000000000, 1, 0, 2, 0, 'Rope Team 🧗', 0),
  (13, 'C0FFEE00-0000-4000-8000-000000000013', NULL, 2, 'iMessage', 736251660000000000, 0, 1, 1, 4, NULL, 0);
-- "Café" written with a combining accent (e + U+0301).
INSERT INTO message (ROWID, guid, text, handle_id, service, date, is_from_me, is_read) VALUES
  (14, 'C0FFEE00-0000-4000-8000-000000000014', 'Café at 8? Or crêpes 🥞', 2, 'iMessage', 736251720000000000, 0, 1);
-- Hebrew in a plain NSAttributedString: "שלום לכולם! נתראה בשבת 🙂".
INSERT INTO message (ROWID, guid, text, attributedBody, handle_id, service, date, is_from_me, is_read) VALUES
  (15, 'C0FFEE00-0000-4000-8000-000000000015', NULL, X'040B73747265616D747970656481E803840140848484124E5341747472696275746564537472696E67008484084E534F626A656374008592848484084E53537472696E67019484012B2DD7A9D79CD795D79D20D79CD79BD795D79CD79D2120D7A0D7AAD7A8D790D79420D791D7A9D791D7AA20F09F998286840269490119928484840C4E5344696374696F6E617279009484016901928496961D5F5F6B494D4D657373616765506172744174747269627574654E616D658692848484084E534E756D626572008484074E5356616C7565009484012A84999900868686', 3, 'iMessage', 736251780000000000, 0, 1);
-- Thai, longer than 127 bytes (its length is written 0x81 + two bytes):
-- "พรุ่งนี้เราจะไปปีนเขาที่กระบี่ ใครอยากไปด้วยบ้าง เตรียมรองเท้าให้พร้อมนะ".
INSERT INTO message (ROWID, guid, text, attributedBody, handle_id, service, date, is_from_me, is_read) VALUES
  (16, 'C0FFEE00-0000-4000-8000-000000000016', NULL, X'040B73747265616D747970656481E803840140848484194E534D757461626C6541747472696275746564537472696E67008484124E5341747472696275746564537472696E67008484084E534F626A6563740085928484840F4E534D757461626C65537472696E67018484084E53537472696E67019584012B81D400E0B89EE0B8A3E0B8B8E0B988E0B887E0B899E0B8B5E0B989E0B980E0B8A3E0B8B2E0B888E0B8B0E0B984E0B89BE0B89BE0B8B5E0B899E0B980E0B882E0B8B2E0B897E0B8B5E0B988E0B881E0B8A3E0B8B0E0B89AE0B8B5E0B98820E0B983E0B884E0B8A3E0B8ADE0B8A2E0B8B2E0B881E0B984E0B89BE0B894E0B989E0B8A7E0B8A2E0B89AE0B989E0B8B2E0B88720E0B980E0B895E0B8A3E0B8B5E0B8A2E0B8A1E0B8A3E0B8ADE0B887E0B980E0B897E0B989E0B8B2E0B983E0B8ABE0B989E0B89EE0B8A3E0B989E0B8ADE0B8A1E0B899E0B8B086840269490148928484840C4E5344696374696F6E617279009484016901928496961D5F5F6B494D4D657373616765506172744174747269627574654E616D658692848484084E534E756D626572008484074E5356616C7565009484012A84999900868686', 4, 'iMessage', 736251840000000000, 0, 1);
-- Tapbacks on message 14: a custom emoji (2006), and two laughs (2003).
INSERT INTO message (ROWID, guid, text, handle_id, service, date, is_from_me, is_read, associated_message_guid, associated_message_type, associated_message_emoji) VALUES
  (18, 'C0FFEE00-0000-4000-8000-000000000018', 'Reacted 🔥 to “Café at 8? Or crêpes 🥞”', 3, 'iMessage', 736251900000000000, 0, 1, 'p:0/C0FFEE00-0000-4000-8000-000000000014', 2006, '🔥'),
  (19, 'C0FFEE00-0000-4000-8000-000000000019', 'Laughed at “Café at 8? Or crêpes 🥞”', 4, 'iMessage', 736251960000000000, 0, 1, 'C0FFEE00-0000-4000-8000-000000000014', 2003, NULL),
  (20, 'C0FFEE00-0000-4000-8000-000000000020', 'Laughed at “Café at 8? Or crêpes 🥞”', 0, 'iMessage', 736252020000000000, 1, 0, 'p:0/C0FFEE00-0000-4000-8000-000000000014', 2003, NULL);
-- +66812345678 leaves; zoe writes an unread message.
INSERT INTO message (ROWID, guid, text, handle_id, service, date, is_from_me, is_read, item_type, group_action_type) VALUES
  (21, 'C0FFEE00-0000-4000-8000-000000000021', NULL, 4, 'iMessage', 736252080000000000, 0, 1, 3, 0);
INSERT INTO message (ROWID, guid, text, handle_id, service, date, is_from_me, is_read) VALUES
  (22, 'C0FFEE00-0000-4000-8000-000000000022', 'Anyone up for 東京 next spring?', 2, 'iMessage', 736252140000000000, 0, 0);

-- SMS chat, dates in seconds (2012-06-01T12:00:00Z and a minute later).
INSERT INTO message (ROWID, guid, text, handle_id, service, date, date_read, is_from_me, is_read, is_delivered, is_sent) VALUES
  (23, 'C0FFEE00-0000-4000-8000-000000000023', 'Hallo aus Berlin! Grüße 👋', 5, 'SMS', 360244800, 360244830, 0, 1, 1, 0),
  (24, 'C0FFEE00-0000-4000-8000-000000000024', 'Danke! مرحبا من دبي', 5, 'SMS', 360244860, 0, 1, 0, 1, 1);

-- An unnamed group: named after its members.
INSERT INTO message (ROWID, guid, text, handle_id, service, date, is_from_me, is_read) VALUES
  (25, 'C0FFEE00-0000-4000-8000-000000000025', '我们下周在上海见面吧', 6, 'iMessage', 736252200000000000, 0, 1),
  (26, 'C0FFEE00-0000-4000-8000-000000000026', 'مرحبا بالجميع، كيف حالكم؟', 7, 'iMessage', 736252260000000000, 0, 1);

-- A message no chat lists (it happens after deletions and merges).
INSERT INTO message (ROWID, guid, text, handle_id, service, date, is_from_me, is_read) VALUES
  (27, 'C0FFEE00-0000-4000-8000-000000000027', 'A message in no conversation', 1, 'iMessage', 736252320000000000, 0, 1);

INSERT INTO chat_message_join (chat_id, message_id, message_date) VALUES
  (1, 1, 736250400000000000), (1, 2, 736250520000000000), (1, 3, 736250640000000000), (1, 4, 736250700000000000), (1, 5, 736250760000000000), (1, 6, 736250820000000000), (1, 7, 736250880000000000),
  (1, 17, 736251060000000000), (1, 8, 736251120000000000), (1, 9, 736251180000000000), (1, 10, 736251240000000000), (1, 11, 736251300000000000),
  (2, 12, 736251600000000000), (2, 13, 736251660000000000), (2, 14, 736251720000000000), (2, 15, 736251780000000000), (2, 16, 736251840000000000), (2, 18, 736251900000000000),
  (2, 19, 736251960000000000), (2, 20, 736252020000000000), (2, 21, 736252080000000000), (2, 22, 736252140000000000),
  -- The SMS from Lena is in both of her chats (SMS and iMessage).
  (3, 23, 360244800), (5, 23, 360244800), (3, 24, 360244860),
  (4, 25, 736252200000000000), (4, 26, 736252260000000000);

-- Attachments: the photo is beside the database, the voice message and the PDF are not.
INSERT INTO attachment (ROWID, guid, original_guid, created_date, filename, uti, mime_type, transfer_name, total_bytes, is_outgoing) VALUES
  (1, 'B1E4C0DE-0001-4000-8000-00000000A001', 'B1E4C0DE-0001-4000-8000-00000000A001', 736251180000000000, '~/Library/Messages/Attachments/ab/12/B1E4C0DE-0001-4000-8000-00000000A001/IMG_0001.HEIC', 'public.heic', 'image/heic', 'IMG_0001.HEIC', 26, 0),
  (2, 'B1E4C0DE-0002-4000-8000-00000000A002', 'B1E4C0DE-0002-4000-8000-00000000A002', 736251240000000000, '~/Library/Messages/Attachments/cd/34/B1E4C0DE-0002-4000-8000-00000000A002/Audio Message.caf', 'com.apple.coreaudio-format', NULL, 'Audio Message.caf', 18432, 0),
  (3, 'B1E4C0DE-0003-4000-8000-00000000A003', 'B1E4C0DE-0003-4000-8000-00000000A003', 736251300000000000, '~/Library/Messages/Attachments/ef/56/B1E4C0DE-0003-4000-8000-00000000A003/Route topo.pdf', 'com.adobe.pdf', 'application/pdf', 'Route topo.pdf', 245760, 1);
INSERT INTO message_attachment_join (message_id, attachment_id) VALUES (9, 1), (10, 2), (11, 3);
