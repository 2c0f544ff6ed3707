// CChatICU: the only code of ChatArchive that includes ICU headers.
//
// Everything here takes and returns UTF-8 bytes and stdint types, so Swift can import it
// next to Foundation (whose own ICU module clashes with the system headers).
#ifndef CCHATICU_H
#define CCHATICU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Version of the analyser (normaliser + tokenizer rules). Bump it whenever the tokens a
/// text produces change: archives built with another version rebuild their FTS indexes.
int32_t cchaticu_analyzer_version(void);

/// Normalises UTF-8 text for search: NFKC, full case folding, removal of optional marks
/// (Latin/Greek/Cyrillic accents, Hebrew points, Arabic harakat and tatweel), folding of
/// Latin letters without decomposition (ł ø đ æ œ ı þ …). Marks that are part of spelling
/// (Thai, Indic) are kept.
/// Writes a malloc'ed buffer to *out (free it with cchaticu_free) and its length to *outLen.
/// Returns 0 on success, a negative value on failure (then *out is NULL).
int32_t cchaticu_normalize(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen);

/// Loose transliteration to ASCII for name search (`Дмитрий` → `dmitrij`, `Łukasz` → `lukasz`),
/// lower-cased. Same memory rules as cchaticu_normalize.
int32_t cchaticu_transliterate(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen);

/// cchaticu_transliterate through ICU's transliterator always, never the built-in table of
/// readings (for the tests that compare the two).
int32_t cchaticu_transliterate_with_icu(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen);

/// The built-in table of readings (rows of `reading TAB characters LF`), not a copy.
int32_t cchaticu_readings(const uint8_t **rows, int32_t *len);

/// The same table as the system's ICU gives it (free it with cchaticu_free).
int32_t cchaticu_readings_from_icu(uint8_t **out, int32_t *outLen);

/// The built-in program of ICU's chains for the scripts it transliterates in context (lines of
/// steps and rule texts, see cchaticu_rules.c), not a copy.
int32_t cchaticu_rules(const uint8_t **program, int32_t *len);

/// The same program as the system's ICU gives it (free it with cchaticu_free).
int32_t cchaticu_rules_from_icu(uint8_t **out, int32_t *outLen);

void cchaticu_free(void *p);

/// Token flags passed to the callback.
enum {
    /// The token occupies the same position as the previous one (FTS5_TOKEN_COLOCATED).
    CCHATICU_TOKEN_COLOCATED = 1,
};

/// Tokenizer modes.
enum {
    /// Tokens of a document (what is indexed).
    CCHATICU_MODE_DOCUMENT = 0,
    /// Tokens of a query string (FTS5_TOKENIZE_QUERY).
    CCHATICU_MODE_QUERY = 1,
};

/// In query mode, a text starting with this byte is one token: the bytes after it, verbatim.
/// The query compiler quotes vocabulary terms this way (user text never holds control
/// characters: the query parser turns them into spaces).
#define CCHATICU_VERBATIM 0x1F

/// A document value starting with this byte (which never starts UTF-8 text) is the filter
/// tokens of an index without positions: each word after it, split at spaces, is one token,
/// written as CCHATICU_TAG_PREFIX and then the word, a name no analysed word can take (the
/// analyser never keeps a control character in a token).
#define CCHATICU_TAGS_VALUE 0xFF
/// The first byte of a filter token of an index without positions (see CCHATICU_TAGS_VALUE).
#define CCHATICU_TAG_PREFIX 0x1E

/// Receives one token: its normalised bytes and the byte range [start, end) of the source it
/// came from. Return 0 to continue, anything else to stop (the value is returned by tokenize).
typedef int32_t (*cchaticu_token_fn)(void *ctx, int32_t flags, const uint8_t *token, int32_t tokenLen,
                                     int32_t start, int32_t end);

/// Runs the analyser over UTF-8 text, exactly as the FTS5 tokenizer does.
int32_t cchaticu_tokenize(const uint8_t *text, int32_t len, int32_t mode, void *ctx, cchaticu_token_fn fn);

/// Registers the FTS5 tokenizer named "chat", the FTS5 ranking function `chat_bm25` and the SQL
/// functions `chat_short_grams` and `member_short_grams` on an sqlite3 connection (`sqlite3 *`
/// passed as void *). Returns an SQLite result code (0 = SQLITE_OK).
int32_t cchaticu_register_fts5(void *db);

/// The pieces `member_short_grams(searchKey, nameKey)` returns, without SQL: each followed by a
/// NUL, in a malloc'ed buffer (*out, free it with cchaticu_free; NULL when there are none) of
/// *outLen bytes. Returns 0, or -1 when memory runs out.
int32_t cchaticu_member_short_grams(const uint8_t *searchKey, int32_t searchLen, const uint8_t *nameKey,
                                    int32_t nameLen, uint8_t **out, int32_t *outLen);

/// A document analysed ahead of time (on any thread), so that the FTS5 tokenizer can replay
/// its tokens instead of analysing it again on the writer's thread.
typedef struct cchaticu_doc cchaticu_doc;

/// Analyses UTF-8 text as a document, exactly as the FTS5 tokenizer would, and records its
/// tokens. Returns NULL on failure. Free with cchaticu_doc_free.
cchaticu_doc *cchaticu_doc_tokenize(const uint8_t *text, int32_t len);

/// Arms up to two documents on the calling thread (NULL for none): while armed, the FTS5
/// tokenizer, asked to tokenize a document whose bytes equal an armed document's text, replays
/// its tokens instead of analysing it.
void cchaticu_doc_arm(const cchaticu_doc *first, const cchaticu_doc *second);

/// Frees a document (disarming it when armed on the calling thread).
void cchaticu_doc_free(cchaticu_doc *doc);

/// The bytes a document holds on the heap (its text and token records); 0 for NULL.
int64_t cchaticu_doc_bytes(const cchaticu_doc *doc);

/// A set of terms (whole tokens and co-located parts, never the character n-grams of scripts
/// without spaces) that remembers which ones were not drained yet. Thread-safe.
typedef struct cchaticu_vocab cchaticu_vocab;

/// The default number of terms a set remembers: when a drain leaves more, it forgets them all.
#define CCHATICU_VOCAB_SEEN_LIMIT 524288

cchaticu_vocab *cchaticu_vocab_new(void);
void cchaticu_vocab_free(cchaticu_vocab *vocab);

/// Sets how many terms the set remembers (see CCHATICU_VOCAB_SEEN_LIMIT; at least 1).
void cchaticu_vocab_set_limit(cchaticu_vocab *vocab, int32_t limit);

/// Adds the terms of a document.
void cchaticu_vocab_add_doc(cchaticu_vocab *vocab, const cchaticu_doc *doc);

/// Calls fn once per term added since the last drain and not known (start = end = 0, flags = 0),
/// then forgets them as fresh: they stay known until the set passes its limit and forgets
/// every term. Returns the number passed to fn.
int32_t cchaticu_vocab_drain(cchaticu_vocab *vocab, void *ctx, cchaticu_token_fn fn);

/// Terms to find in a document, for highlighting: whole tokens, or token prefixes.
typedef struct cchaticu_matcher cchaticu_matcher;

cchaticu_matcher *cchaticu_matcher_new(void);
void cchaticu_matcher_free(cchaticu_matcher *matcher);

/// Adds a term matching tokens equal to it or, when isPrefix is non-zero, starting with it.
void cchaticu_matcher_add(cchaticu_matcher *matcher, const uint8_t *term, int32_t len, int32_t isPrefix);

/// Adds a needle: a substring that every term of the matcher contains one of (its infix or
/// prefix expansions contain the query word). With needles, pieces of ASCII text that contain
/// none are not analysed (they cannot hold a match), and positions count only the pieces that
/// are: add no needle when positions matter (phrases). More than 32 needles, or an empty one,
/// turn the skipping off.
void cchaticu_matcher_add_needle(cchaticu_matcher *matcher, const uint8_t *needle, int32_t len);

/// 1 when the analyser turns scalar c, alone or beside others of its kind, into no ASCII letter
/// or digit (a block list the tests check scalar by scalar): with needles that are ASCII words,
/// pieces of such scalars are not analysed either.
int32_t cchaticu_scalar_yields_no_ascii(uint32_t c);

/// Analyses text as a document (as the FTS5 tokenizer does) and calls fn only for the tokens
/// that match (flags: CCHATICU_TOKEN_COLOCATED), with the source byte range of each.
int32_t cchaticu_matcher_run(const cchaticu_matcher *matcher, const uint8_t *text, int32_t len, void *ctx,
                             cchaticu_token_fn fn);

/// Receives one matching token with its position (the index of the token among the
/// document's positions, co-located tokens sharing one, as in FTS5), its normalised bytes and
/// the byte range [start, end) of the source it came from. Return 0 to continue.
typedef int32_t (*cchaticu_match_fn)(void *ctx, int32_t position, const uint8_t *token, int32_t tokenLen,
                                     int32_t start, int32_t end);

/// Like cchaticu_matcher_run, reporting each matching token's position (for phrases).
int32_t cchaticu_matcher_find(const cchaticu_matcher *matcher, const uint8_t *text, int32_t len, void *ctx,
                              cchaticu_match_fn fn);

#ifdef __cplusplus
}
#endif

#endif
