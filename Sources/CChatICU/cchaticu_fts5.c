// The FTS5 tokenizer "chat" (the analyser of cchaticu_tokenize), documents tokenized ahead of
// time, and the vocabulary sets used for infix and prefix search.
#include "cchaticu_internal.h"
#include <unicode/uchar.h>
#include <unicode/utf8.h>
#include <sqlite3.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Vocabulary sets

typedef struct {
    uint32_t *hash;    // 0 = empty slot
    int32_t *off;      // offset of the term in `arena` (length-prefixed)
    int32_t slots;     // power of two
    int32_t count;
    uint8_t *arena;
    int32_t arenaLen, arenaCap;
} vocab_set;

static uint32_t hash_bytes(const uint8_t *t, int32_t n) {
    uint32_t h = 2166136261u;
    for (int32_t i = 0; i < n; i++) h = (h ^ t[i]) * 16777619u;
    return h ? h : 1;
}

static void vocab_free(vocab_set *v) {
    free(v->hash);
    free(v->off);
    free(v->arena);
    memset(v, 0, sizeof *v);
}

static int vocab_rehash(vocab_set *v, int32_t slots) {
    uint32_t *hash = calloc((size_t)slots, sizeof *hash);
    int32_t *off = malloc((size_t)slots * sizeof *off);
    if (!hash || !off) { free(hash); free(off); return -1; }
    for (int32_t i = 0; i < v->slots; i++) {
        if (!v->hash[i]) continue;
        int32_t j = (int32_t)(v->hash[i] & (uint32_t)(slots - 1));
        while (hash[j]) j = (j + 1) & (slots - 1);
        hash[j] = v->hash[i];
        off[j] = v->off[i];
    }
    free(v->hash);
    free(v->off);
    v->hash = hash;
    v->off = off;
    v->slots = slots;
    return 0;
}

// Adds a term; returns its arena offset when it is new, -1 when known (or on failure).
static int32_t vocab_add(vocab_set *v, const uint8_t *t, int32_t n) {
    if (n <= 0 || n > CHAT_MAX_TOKEN) return -1;
    if ((v->count + 1) * 2 > v->slots && vocab_rehash(v, v->slots ? v->slots * 2 : 1024)) return -1;
    uint32_t h = hash_bytes(t, n);
    int32_t j = (int32_t)(h & (uint32_t)(v->slots - 1));
    while (v->hash[j]) {
        if (v->hash[j] == h) {
            const uint8_t *p = v->arena + v->off[j];
            if (p[0] == n && memcmp(p + 1, t, (size_t)n) == 0) return -1;
        }
        j = (j + 1) & (v->slots - 1);
    }
    if (chat_grow((void **)&v->arena, &v->arenaCap, v->arenaLen + n + 1, 1)) return -1;
    int32_t at = v->arenaLen;
    v->arena[at] = (uint8_t)n;
    memcpy(v->arena + at + 1, t, (size_t)n);
    v->hash[j] = h;
    v->off[j] = at;
    v->arenaLen += n + 1;
    v->count++;
    return at;
}

// The terms seen (up to a limit), and the ones not yet drained.
struct cchaticu_vocab {
    pthread_mutex_t lock;
    vocab_set seen;
    int32_t *fresh;
    int32_t nFresh, capFresh;
    int32_t seenLimit;
};

cchaticu_vocab *cchaticu_vocab_new(void) {
    cchaticu_vocab *v = calloc(1, sizeof *v);
    if (v) {
        pthread_mutex_init(&v->lock, NULL);
        v->seenLimit = CCHATICU_VOCAB_SEEN_LIMIT;
    }
    return v;
}

void cchaticu_vocab_set_limit(cchaticu_vocab *v, int32_t limit) {
    if (!v) return;
    pthread_mutex_lock(&v->lock);
    v->seenLimit = limit > 0 ? limit : 1;
    pthread_mutex_unlock(&v->lock);
}

void cchaticu_vocab_free(cchaticu_vocab *v) {
    if (!v) return;
    vocab_free(&v->seen);
    free(v->fresh);
    pthread_mutex_destroy(&v->lock);
    free(v);
}

int32_t cchaticu_vocab_drain(cchaticu_vocab *v, void *ctx, cchaticu_token_fn fn) {
    if (!v) return 0;
    pthread_mutex_lock(&v->lock);
    int32_t delivered = 0;
    for (int32_t k = 0; fn && k < v->nFresh; k++) {
        const uint8_t *p = v->seen.arena + v->fresh[k];
        if (fn(ctx, 0, p + 1, p[0], 0, 0)) break;
        delivered++;
    }
    v->nFresh = 0;
    // The set grows with the vocabulary (millions of terms in a big archive, tens of megabytes
    // with its hash table, twice that while the table doubled): past its limit it forgets every
    // term, and the terms seen again are offered again, which the vocabulary's insert skips
    // (see WritePerformance.md in ChatIndex.docc).
    if (v->seen.count > v->seenLimit) vocab_free(&v->seen);
    pthread_mutex_unlock(&v->lock);
    return delivered;
}

// MARK: - Pre-tokenized documents

// A document analysed ahead of time, on another thread: a copy of its text (to recognise it)
// and its token records. Record layout: int32 flags, start, end, n; n bytes; padding to 4.
struct cchaticu_doc {
    int32_t len;
    int32_t used, cap;
    uint8_t *buf;
};

static _Thread_local const cchaticu_doc *tl_armed[2];

static int32_t doc_token(void *c, int32_t flags, const uint8_t *t, int32_t n, int32_t s, int32_t e) {
    cchaticu_doc *d = c;
    int32_t need = d->used + 16 + ((n + 3) & ~3);
    if (chat_grow((void **)&d->buf, &d->cap, need, 1)) return -1;
    int32_t rec[4] = {flags, s, e, n};
    memcpy(d->buf + d->used, rec, sizeof rec);
    memcpy(d->buf + d->used + 16, t, (size_t)n);
    d->used = need;
    return 0;
}

cchaticu_doc *cchaticu_doc_tokenize(const uint8_t *text, int32_t len) {
    if (len < 0) return NULL;
    cchaticu_doc *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    int32_t start = (len + 3) & ~3;
    if (chat_grow((void **)&d->buf, &d->cap, start + 256, 1)) { free(d); return NULL; }
    if (len) memcpy(d->buf, text, (size_t)len);
    d->len = len;
    d->used = start;
    if (chat_analyse_on_thread(text ? text : (const uint8_t *)"", len, CCHATICU_MODE_DOCUMENT, d, doc_token) < 0) {
        cchaticu_doc_free(d);
        return NULL;
    }
    // The buffer grew by doubling; an ingest keeps two batches of documents alive, and the
    // unused halves were about a third of their memory (see WritePerformance.md in ChatIndex.docc).
    if (d->used > 0 && d->cap - d->used > 64) {
        uint8_t *q = realloc(d->buf, (size_t)d->used);
        if (q) {
            d->buf = q;
            d->cap = d->used;
        }
    }
    return d;
}

void cchaticu_vocab_add_doc(cchaticu_vocab *v, const cchaticu_doc *d) {
    if (!v || !d) return;
    pthread_mutex_lock(&v->lock);
    for (int32_t p = (d->len + 3) & ~3; p < d->used;) {
        int32_t rec[4];
        memcpy(rec, d->buf + p, sizeof rec);
        if (!(rec[0] & CHAT_TOKEN_NGRAM)) {
            int32_t at = vocab_add(&v->seen, d->buf + p + 16, rec[3]);
            if (at >= 0 && !chat_grow((void **)&v->fresh, &v->capFresh, v->nFresh + 1, sizeof *v->fresh)) {
                v->fresh[v->nFresh++] = at;
            }
        }
        p += 16 + ((rec[3] + 3) & ~3);
    }
    pthread_mutex_unlock(&v->lock);
}

void cchaticu_doc_arm(const cchaticu_doc *first, const cchaticu_doc *second) {
    tl_armed[0] = first;
    tl_armed[1] = second;
}

void cchaticu_doc_free(cchaticu_doc *d) {
    if (!d) return;
    if (tl_armed[0] == d) tl_armed[0] = NULL;
    if (tl_armed[1] == d) tl_armed[1] = NULL;
    free(d->buf);
    free(d);
}

int64_t cchaticu_doc_bytes(const cchaticu_doc *d) {
    return d ? (int64_t)sizeof *d + d->cap : 0;
}

// Replays an armed document's tokens when FTS5 asks to tokenize exactly its text.
static int doc_replay(const cchaticu_doc *d, void *ctx, int (*xToken)(void *, int, const char *, int, int, int)) {
    for (int32_t p = (d->len + 3) & ~3; p < d->used;) {
        int32_t rec[4];
        memcpy(rec, d->buf + p, sizeof rec);
        int rc = xToken(ctx, (rec[0] & CCHATICU_TOKEN_COLOCATED) ? FTS5_TOKEN_COLOCATED : 0,
                        (const char *)d->buf + p + 16, rec[3], rec[1], rec[2]);
        if (rc) return rc;
        p += 16 + ((rec[3] + 3) & ~3);
    }
    return SQLITE_OK;
}

// MARK: - FTS5 tokenizer

typedef struct {
    void *ctx;
    int (*xToken)(void *, int, const char *, int, int, int);
} fts_call;

static int32_t fts_token(void *c, int32_t flags, const uint8_t *t, int32_t n, int32_t s, int32_t e) {
    fts_call *fc = c;
    return fc->xToken(fc->ctx, (flags & CCHATICU_TOKEN_COLOCATED) ? FTS5_TOKEN_COLOCATED : 0, (const char *)t, n, s, e);
}

static int fts_create(void *user, const char **argv, int argc, Fts5Tokenizer **out) {
    (void)user; (void)argv; (void)argc;
    chat_analyser *A = chat_analyser_new();
    if (!A) return SQLITE_ERROR;
    *out = (Fts5Tokenizer *)A;
    return SQLITE_OK;
}

static void fts_delete(Fts5Tokenizer *tok) { chat_analyser_free((chat_analyser *)tok); }

// The filter tokens of a CCHATICU_TAGS_VALUE: each word after the marker byte, prefixed.
static int tags_tokenize(void *ctx, const char *text, int len,
                         int (*xToken)(void *, int, const char *, int, int, int)) {
    char buf[64];
    int i = 1;
    while (i < len) {
        while (i < len && text[i] == ' ') i++;
        int start = i;
        while (i < len && text[i] != ' ') i++;
        int n = i - start;
        if (n == 0) break;
        if (n >= (int)sizeof buf) continue; // filter tokens are short ASCII names
        buf[0] = (char)CCHATICU_TAG_PREFIX;
        memcpy(buf + 1, text + start, (size_t)n);
        int rc = xToken(ctx, 0, buf, n + 1, start, i);
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}

static int fts_tokenize(Fts5Tokenizer *tok, void *ctx, int flags, const char *text, int len,
                        int (*xToken)(void *, int, const char *, int, int, int)) {
    if ((flags & FTS5_TOKENIZE_QUERY) == 0 && len > 0 && (uint8_t)text[0] == CCHATICU_TAGS_VALUE) {
        return tags_tokenize(ctx, text, len, xToken);
    }
    if ((flags & (FTS5_TOKENIZE_QUERY | FTS5_TOKENIZE_AUX)) == 0) {
        for (int k = 0; k < 2; k++) {
            const cchaticu_doc *armed = tl_armed[k];
            if (armed && armed->len == len && (len == 0 || memcmp(armed->buf, text, (size_t)len) == 0)) {
                return doc_replay(armed, ctx, xToken);
            }
        }
    }
    fts_call fc = {ctx, xToken};
    int mode = (flags & FTS5_TOKENIZE_QUERY) ? CCHATICU_MODE_QUERY : CCHATICU_MODE_DOCUMENT;
    int32_t rc = chat_analyse((chat_analyser *)tok, (const uint8_t *)(text ? text : ""), len, mode, &fc, fts_token);
    return rc < 0 ? SQLITE_ERROR : rc;
}

// MARK: - Short pieces of chat names

typedef struct {
    const uint8_t *p;
    int32_t n;
} piece;

static int piece_cmp(const void *a, const void *b) {
    const piece *x = a, *y = b;
    int32_t n = x->n < y->n ? x->n : y->n;
    int c = memcmp(x->p, y->p, (size_t)n);
    return c ? c : (x->n > y->n) - (x->n < y->n);
}

// chat_short_grams(nameKey, translitKey): the distinct one- and two-character pieces of both
// texts, none holding a newline, as a JSON array of strings, for the chat list's index of short
// name fragments (chatNameShort). Characters are counted as SQLite's substr() and length()
// count them (a byte below 0xC0 starts one, a lead byte takes its continuation bytes along), so
// the pieces are exactly those of the SQL it replaces, which numbered positions with
// json_each over a zeroblob, which was most of a chat insert's cost in an ingest (see
// WritePerformance.md in ChatIndex.docc).
// member_short_grams(searchKey, nameKey) adds, for the first text's words (each after a
// newline), their one- and two-character starts after that newline ("\nz", "\nzo"): the pieces
// of the archive's index of short member-name fragments (memberNameShort), where a word-start
// match is one key lookup as a match inside a word is.
// The distinct pieces of texts `z[0..count)` (lengths `n`, each read up to a NUL, as length()
// counts), sorted, into *out (malloc'ed; NULL when none) and their number into *outCount: with
// `wordStarts`, also the first text's word starts. 0, or -1 when memory runs out.
static int32_t collect_pieces(const uint8_t *const *z, const int32_t *len, int texts, int wordStarts, piece **out,
                              int32_t *outCount) {
    piece *pieces = NULL;
    int32_t count = 0, cap = 0;
    for (int a = 0; a < texts; a++) {
        if (!z[a]) continue;
        const uint8_t *t = z[a];
        int32_t n = (int32_t)strnlen((const char *)t, (size_t)len[a]);
        // At each character boundary i, the last characters end there: starts[] holds where
        // the last three began (seen of them so far).
        int32_t starts[3] = {0, 0, 0}, seen = 0;
        int32_t i = 0;
        // Word starts: the first text's pieces of a newline and one or two characters.
        int widest = wordStarts && a == 0 ? 3 : 2;
        while (i <= n) {
            if (seen >= 1) {
                for (int w = 1; w <= widest && w <= seen; w++) {
                    int32_t from = starts[(seen - w) % 3];
                    const uint8_t *q = t + from;
                    int32_t plen = i - from;
                    int plain = w <= 2 && !memchr(q, '\n', (size_t)plen);
                    int start = w >= 2 && widest == 3 && q[0] == '\n' && !memchr(q + 1, '\n', (size_t)plen - 1);
                    if (!plain && !start) continue;
                    if (count == cap) {
                        int32_t ncap = cap ? cap * 2 : 64;
                        piece *np = realloc(pieces, (size_t)ncap * sizeof *np);
                        if (!np) { free(pieces); return -1; }
                        pieces = np;
                        cap = ncap;
                    }
                    pieces[count++] = (piece){q, plen};
                }
            }
            if (i == n) break;
            starts[seen % 3] = i;
            seen++;
            uint8_t c = t[i++];
            if (c >= 0xC0) {
                while (i < n && (t[i] & 0xC0) == 0x80) i++;
            }
        }
    }
    if (count) qsort(pieces, (size_t)count, sizeof *pieces, piece_cmp);
    // Distinct, in place.
    int32_t kept = 0;
    for (int32_t k = 0; k < count; k++) {
        if (kept > 0 && piece_cmp(&pieces[k], &pieces[kept - 1]) == 0) continue;
        pieces[kept++] = pieces[k];
    }
    *out = pieces;
    *outCount = kept;
    return 0;
}

static void short_grams(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    const uint8_t *z[2] = {NULL, NULL};
    int32_t len[2] = {0, 0};
    for (int a = 0; a < argc && a < 2; a++) {
        if (sqlite3_value_type(argv[a]) == SQLITE_NULL) continue;
        z[a] = sqlite3_value_text(argv[a]);
        len[a] = sqlite3_value_bytes(argv[a]);
    }
    piece *pieces = NULL;
    int32_t count = 0;
    if (collect_pieces(z, len, argc < 2 ? argc : 2, sqlite3_user_data(ctx) != NULL, &pieces, &count)) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_str *out = sqlite3_str_new(sqlite3_context_db_handle(ctx));
    sqlite3_str_appendchar(out, 1, '[');
    for (int32_t k = 0; k < count; k++) {
        if (k > 0) sqlite3_str_appendchar(out, 1, ',');
        sqlite3_str_appendchar(out, 1, '"');
        for (int32_t j = 0; j < pieces[k].n; j++) {
            uint8_t c = pieces[k].p[j];
            if (c == '"' || c == '\\') {
                sqlite3_str_appendchar(out, 1, '\\');
                sqlite3_str_appendchar(out, 1, (char)c);
            } else if (c < 0x20) {
                sqlite3_str_appendf(out, "\\u%04x", c);
            } else {
                sqlite3_str_appendchar(out, 1, (char)c);
            }
        }
        sqlite3_str_appendchar(out, 1, '"');
    }
    sqlite3_str_appendchar(out, 1, ']');
    free(pieces);
    int32_t len8 = sqlite3_str_length(out);
    char *json = sqlite3_str_finish(out);
    if (!json) { sqlite3_result_error_nomem(ctx); return; }
    sqlite3_result_text(ctx, json, len8, sqlite3_free);
}

int32_t cchaticu_member_short_grams(const uint8_t *searchKey, int32_t searchLen, const uint8_t *nameKey,
                                    int32_t nameLen, uint8_t **out, int32_t *outLen) {
    *out = NULL;
    *outLen = 0;
    const uint8_t *z[2] = {searchKey ? searchKey : (const uint8_t *)"", nameKey ? nameKey : (const uint8_t *)""};
    int32_t len[2] = {searchKey ? searchLen : 0, nameKey ? nameLen : 0};
    piece *pieces = NULL;
    int32_t count = 0;
    if (collect_pieces(z, len, 2, 1, &pieces, &count)) return -1;
    int32_t total = 0;
    for (int32_t k = 0; k < count; k++) total += pieces[k].n + 1;
    uint8_t *b = malloc((size_t)total + 1);
    if (!b) { free(pieces); return -1; }
    int32_t at = 0;
    for (int32_t k = 0; k < count; k++) {
        memcpy(b + at, pieces[k].p, (size_t)pieces[k].n);
        at += pieces[k].n;
        b[at++] = 0;
    }
    b[at] = 0;
    free(pieces);
    *out = b;
    *outLen = total;
    return 0;
}

int32_t cchaticu_register_fts5(void *db) {
    if (!db) return SQLITE_MISUSE;
    fts5_api *api = NULL;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2((sqlite3 *)db, "SELECT fts5(?1)", -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(st);
    rc = sqlite3_finalize(st);
    if (rc != SQLITE_OK) return rc;
    if (!api) return SQLITE_ERROR;
    fts5_tokenizer tok = {fts_create, fts_delete, fts_tokenize};
    rc = api->xCreateTokenizer(api, "chat", NULL, &tok, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = cchaticu_register_rank(api);
    if (rc != SQLITE_OK) return rc;
    static int wordStarts = 1;
    rc = sqlite3_create_function_v2((sqlite3 *)db, "chat_short_grams", 2,
                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL, short_grams, NULL,
                                    NULL, NULL);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_create_function_v2((sqlite3 *)db, "member_short_grams", 2,
                                      SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, &wordStarts, short_grams,
                                      NULL, NULL, NULL);
}

// MARK: - Matching tokens (highlighting)

static int vocab_contains(const vocab_set *v, const uint8_t *t, int32_t n) {
    if (!v->slots || n <= 0 || n > CHAT_MAX_TOKEN) return 0;
    uint32_t h = hash_bytes(t, n);
    int32_t j = (int32_t)(h & (uint32_t)(v->slots - 1));
    while (v->hash[j]) {
        if (v->hash[j] == h) {
            const uint8_t *p = v->arena + v->off[j];
            if (p[0] == n && memcmp(p + 1, t, (size_t)n) == 0) return 1;
        }
        j = (j + 1) & (v->slots - 1);
    }
    return 0;
}

#define MATCHER_MAX_NEEDLES 32

struct cchaticu_matcher {
    vocab_set words;
    vocab_set prefixes;
    // Substrings every term contains one of (see cchaticu_matcher_add_needle); count -1: too many.
    int32_t needleCount;
    uint8_t *needles[MATCHER_MAX_NEEDLES];
    int32_t needleLen[MATCHER_MAX_NEEDLES];
    // Every needle is ASCII with a letter or digit: a piece that cannot yield one is skipped too.
    int alnumNeedles;
};

cchaticu_matcher *cchaticu_matcher_new(void) { return calloc(1, sizeof(cchaticu_matcher)); }

void cchaticu_matcher_free(cchaticu_matcher *m) {
    if (!m) return;
    vocab_free(&m->words);
    vocab_free(&m->prefixes);
    for (int32_t k = 0; k < m->needleCount; k++) free(m->needles[k]);
    free(m);
}

void cchaticu_matcher_add_needle(cchaticu_matcher *m, const uint8_t *needle, int32_t len) {
    if (!m || m->needleCount < 0) return;
    if (!needle || len <= 0 || m->needleCount == MATCHER_MAX_NEEDLES) {
        // An empty needle is in every piece; too many cost more than they save: analyse everything.
        for (int32_t k = 0; k < m->needleCount; k++) free(m->needles[k]);
        m->needleCount = -1;
        return;
    }
    uint8_t *copy = malloc((size_t)len);
    if (!copy) { m->needleCount = -1; return; }
    memcpy(copy, needle, (size_t)len);
    int ascii = 1, alnum = 0;
    for (int32_t i = 0; i < len; i++) {
        ascii &= needle[i] < 0x80;
        alnum |= chat_is_ascii_alnum(needle[i]);
    }
    m->alnumNeedles = (m->needleCount == 0 || m->alnumNeedles) && ascii && alnum;
    m->needles[m->needleCount] = copy;
    m->needleLen[m->needleCount++] = len;
}

// Blocks of scalars that the analyser turns into no ASCII letter or digit, alone or beside
// each other (normalisation maps each scalar on its own, and composing never yields ASCII);
// `ScalarsWithoutASCIITests` checks every scalar of them. Sorted, inclusive.
static const uint32_t no_ascii_blocks[][2] = {
    {0x0370, 0x03FF},                   // Greek
    {0x0400, 0x058F},                   // Cyrillic, Armenian
    {0x0590, 0x08FF},                   // Hebrew, Arabic, Syriac, Thaana, NKo
    {0x0900, 0x0DFF},                   // the Indic scripts, Sinhala
    {0x0E00, 0x0FFF},                   // Thai, Lao, Tibetan
    {0x1000, 0x109F},                   // Myanmar
    {0x10A0, 0x10FF},                   // Georgian
    {0x1100, 0x11FF},                   // Hangul jamo
    {0x1200, 0x139F},                   // Ethiopic
    {0x1780, 0x17FF},                   // Khmer
    {0x3040, 0x30FF},                   // Kana
    {0x3130, 0x318F},                   // Hangul compatibility jamo
    {0x3400, 0x4DBF},                   // CJK extension A
    {0x4E00, 0x9FFF},                   // CJK
    {0xAC00, 0xD7AF},                   // Hangul syllables
    {0x1F300, 0x1FAFF},                 // emoji and pictographs
    {0x20000, 0x2FFFF},                 // CJK extensions
};

#define NO_ASCII_BLOCKS ((int32_t)(sizeof no_ascii_blocks / sizeof no_ascii_blocks[0]))

// The block of no_ascii_blocks that holds c, or -1.
static int32_t no_ascii_block(uint32_t c) {
    int32_t lo = 0, hi = NO_ASCII_BLOCKS - 1;
    while (lo <= hi) {
        int32_t mid = (lo + hi) / 2;
        if (c < no_ascii_blocks[mid][0]) hi = mid - 1;
        else if (c > no_ascii_blocks[mid][1]) lo = mid + 1;
        else return mid;
    }
    return -1;
}

int32_t cchaticu_scalar_yields_no_ascii(uint32_t c) { return no_ascii_block(c) >= 0; }

// Whether a run of text that starts at t (after ASCII white space) starts a word of its own: a
// letter or digit that word break does not attach to what precedes (not Extend, Format or ZWJ).
// Any other start (a mark, a joiner, a symbol) may join the token before the white space.
static int starts_word(const uint8_t *t, int32_t n) {
    int32_t i = 0;
    UChar32 c;
    U8_NEXT(t, i, n, c);
    if (c < 0 || !(U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_N_MASK))) return 0;
    switch (u_getIntPropertyValue(c, UCHAR_WORD_BREAK)) {
    case U_WB_EXTEND:
    case U_WB_FORMAT:
    case U_WB_ZWJ: return 0;
    default: return 1;
    }
}

static uint8_t ascii_lower(uint8_t c) { return (uint8_t)(c - 'A') < 26u ? (uint8_t)(c + 32) : c; }

// Whether the ASCII bytes t[0, n) hold one of the needles, ASCII case folded.
static int has_needle(const cchaticu_matcher *m, const uint8_t *t, int32_t n) {
    for (int32_t k = 0; k < m->needleCount; k++) {
        const uint8_t *nd = m->needles[k];
        int32_t l = m->needleLen[k];
        for (int32_t i = 0; i + l <= n; i++) {
            if (ascii_lower(t[i]) != nd[0]) continue;
            int32_t j = 1;
            while (j < l && ascii_lower(t[i + j]) == nd[j]) j++;
            if (j == l) return 1;
        }
    }
    return 0;
}

void cchaticu_matcher_add(cchaticu_matcher *m, const uint8_t *term, int32_t len, int32_t isPrefix) {
    if (!m || !term) return;
    vocab_add(isPrefix ? &m->prefixes : &m->words, term, len);
}

typedef struct {
    const cchaticu_matcher *m;
    void *ctx;
    cchaticu_token_fn fn;
    cchaticu_match_fn positioned;
    int32_t position;
    int32_t base; // offset of the analysed piece in the text
} match_call;

static int32_t match_token(void *c, int32_t flags, const uint8_t *t, int32_t n, int32_t s, int32_t e) {
    match_call *mc = c;
    const cchaticu_matcher *m = mc->m;
    if (!(flags & CCHATICU_TOKEN_COLOCATED)) mc->position++;
    int hit = vocab_contains(&m->words, t, n);
    for (int32_t p = 0; !hit && p < m->prefixes.arenaLen;) {
        int32_t k = m->prefixes.arena[p];
        if (k <= n && memcmp(t, m->prefixes.arena + p + 1, (size_t)k) == 0) hit = 1;
        p += k + 1;
    }
    if (!hit) return 0;
    s += mc->base;
    e += mc->base;
    if (mc->positioned) return mc->positioned(mc->ctx, mc->position < 0 ? 0 : mc->position, t, n, s, e);
    return mc->fn(mc->ctx, flags & CCHATICU_TOKEN_COLOCATED, t, n, s, e);
}

// Analyses text for the matcher. With needles, only the pieces that can hold a match: a piece is
// a run of text between ASCII white space, with the runs after it that start with a non-ASCII
// scalar other than a letter or digit that starts a word (a mark or joiner after white space can
// join the token before it). The analyser gives each piece alone exactly the tokens it gives it
// in the text (checked over the bench's texts against a full analysis, ChatSearch's
// SearchPerformance; TokenMatcherNeedleTests keeps checking random texts), and a piece of
// ASCII holds only tokens that are lower-cased substrings of it: without a needle, none can
// match. Nor can a piece that yields no ASCII letter or digit when every needle has
// one (a Latin word in a Hindi chat). Positions then count the analysed pieces only.
static int32_t matcher_analyse(const cchaticu_matcher *m, const uint8_t *text, int32_t len, match_call *mc) {
    if (m->needleCount <= 0) return chat_analyse_on_thread(text, len, CCHATICU_MODE_DOCUMENT, mc, match_token);
    int32_t rc = 0, i = 0;
    int32_t spanStart = -1, spanEnd = -1; // pieces to analyse, merged while adjacent
    while (i < len && !rc) {
        while (i < len && chat_is_ascii_space(text[i])) i++;
        if (i >= len) break;
        int32_t ps = i;
        // Whether the piece is ASCII; with alnumNeedles, whether it may yield an ASCII letter or
        // digit: it holds one, or a scalar outside no_ascii_blocks (the block of the scalar
        // before is tried first: a text's scalars mostly stay in one).
        int ascii = 1, yields = 0;
        int32_t block = 0;
        // The piece: this run and every following run that may join it (see starts_word).
        for (;;) {
            if (!m->alnumNeedles) {
                while (i < len && !chat_is_ascii_space(text[i])) { ascii &= text[i] < 0x80; i++; }
            } else {
                while (i < len && !chat_is_ascii_space(text[i])) {
                    if (text[i] < 0x80) {
                        yields |= chat_is_ascii_alnum(text[i]);
                        i++;
                        continue;
                    }
                    ascii = 0;
                    UChar32 c;
                    U8_NEXT(text, i, len, c);
                    if (c < 0) yields = 1;
                    else if ((uint32_t)c < no_ascii_blocks[block][0] || (uint32_t)c > no_ascii_blocks[block][1]) {
                        int32_t b = no_ascii_block((uint32_t)c);
                        if (b < 0) yields = 1;
                        else block = b;
                    }
                }
            }
            int32_t j = i;
            while (j < len && chat_is_ascii_space(text[j])) j++;
            if (j < len && text[j] >= 0x80 && !starts_word(text + j, len - j)) {
                i = j;
                ascii = 0;
                continue;
            }
            break;
        }
        int32_t pe = i;
        int holds = ascii ? has_needle(m, text + ps, pe - ps) : !m->alnumNeedles || yields;
        if (holds) {
            if (spanStart < 0) spanStart = ps;
            spanEnd = pe;
        } else if (spanStart >= 0) {
            mc->base = spanStart;
            rc = chat_analyse_on_thread(text + spanStart, spanEnd - spanStart, CCHATICU_MODE_DOCUMENT, mc, match_token);
            spanStart = -1;
        }
    }
    if (!rc && spanStart >= 0) {
        mc->base = spanStart;
        rc = chat_analyse_on_thread(text + spanStart, spanEnd - spanStart, CCHATICU_MODE_DOCUMENT, mc, match_token);
    }
    return rc;
}

int32_t cchaticu_matcher_run(const cchaticu_matcher *m, const uint8_t *text, int32_t len, void *ctx,
                             cchaticu_token_fn fn) {
    if (!m || !fn) return -1;
    match_call mc = {m, ctx, fn, NULL, -1, 0};
    return matcher_analyse(m, text ? text : (const uint8_t *)"", len, &mc);
}

int32_t cchaticu_matcher_find(const cchaticu_matcher *m, const uint8_t *text, int32_t len, void *ctx,
                              cchaticu_match_fn fn) {
    if (!m || !fn) return -1;
    match_call mc = {m, ctx, NULL, fn, -1, 0};
    return matcher_analyse(m, text ? text : (const uint8_t *)"", len, &mc);
}
