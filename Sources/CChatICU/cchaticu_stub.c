// Temporary ASCII-only analyser so the package builds while the ICU analyser is written.
#include "cchaticu.h"
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

int32_t cchaticu_analyzer_version(void) { return 0; }

static int32_t copy_lower(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen) {
    uint8_t *b = malloc((size_t)len + 1);
    if (!b) { *out = NULL; return -1; }
    for (int32_t i = 0; i < len; i++) b[i] = (text[i] >= 'A' && text[i] <= 'Z') ? text[i] + 32 : text[i];
    b[len] = 0;
    *out = b; *outLen = len;
    return 0;
}

int32_t cchaticu_normalize(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen) {
    return copy_lower(text, len, out, outLen);
}
int32_t cchaticu_transliterate(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen) {
    return copy_lower(text, len, out, outLen);
}
void cchaticu_free(void *p) { free(p); }

int32_t cchaticu_tokenize(const uint8_t *text, int32_t len, int32_t mode, void *ctx, cchaticu_token_fn fn) {
    (void)mode;
    uint8_t buf[256];
    int32_t i = 0;
    while (i < len) {
        while (i < len && !(text[i] >= 0x80 || (text[i] | 32) - 'a' < 26u || text[i] - '0' < 10u)) i++;
        int32_t s = i;
        while (i < len && (text[i] >= 0x80 || (text[i] | 32) - 'a' < 26u || text[i] - '0' < 10u)) i++;
        if (i > s) {
            int32_t n = i - s > 255 ? 255 : i - s;
            for (int32_t k = 0; k < n; k++) buf[k] = (text[s + k] >= 'A' && text[s + k] <= 'Z') ? text[s + k] + 32 : text[s + k];
            int32_t rc = fn(ctx, 0, buf, n, s, i);
            if (rc) return rc;
        }
    }
    return 0;
}

typedef struct { int (*x)(void *, int, const char *, int, int, int); void *ctx; } stub_ctx;
static int32_t stub_cb(void *c, int32_t flags, const uint8_t *t, int32_t n, int32_t s, int32_t e) {
    stub_ctx *sc = c;
    return sc->x(sc->ctx, flags, (const char *)t, n, s, e);
}
static int stub_create(void *u, const char **a, int n, Fts5Tokenizer **out) { (void)u; (void)a; (void)n; *out = (Fts5Tokenizer *)1; return SQLITE_OK; }
static void stub_delete(Fts5Tokenizer *t) { (void)t; }
static int stub_tokenize(Fts5Tokenizer *t, void *ctx, int flags, const char *text, int len,
                         int (*x)(void *, int, const char *, int, int, int)) {
    (void)t;
    stub_ctx sc = { x, ctx };
    return cchaticu_tokenize((const uint8_t *)text, len, (flags & FTS5_TOKENIZE_QUERY) ? 1 : 0, &sc, stub_cb);
}

int32_t cchaticu_register_fts5(void *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2((sqlite3 *)db, "SELECT fts5(?1)", -1, &st, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_pointer(st, 1, &api, "fts5_api_ptr", NULL);
    sqlite3_step(st);
    rc = sqlite3_finalize(st);
    if (rc != SQLITE_OK || !api) return rc ? rc : SQLITE_ERROR;
    fts5_tokenizer tok = { stub_create, stub_delete, stub_tokenize };
    return api->xCreateTokenizer(api, "chat", NULL, &tok, NULL);
}

int32_t cchaticu_vocab_capture(int32_t enabled) { (void)enabled; return 0; }
int32_t cchaticu_vocab_drain(void *ctx, cchaticu_token_fn fn) { (void)ctx; (void)fn; return 0; }
