// Stored message text compressed with the archive's dictionary (see cchatzstd.h).
#define ZSTD_STATIC_LINKING_ONLY
#include "cchatzstd.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <zdict.h>
#include <zstd.h>

// MARK: - Writing

struct cchatzstd_compressor {
    int32_t id;
    ZSTD_CCtx *cctx;
    ZSTD_CDict *cdict;
    ZSTD_DCtx *dctx;
    ZSTD_DDict *ddict;
};

int64_t cchatzstd_train(const uint8_t *samples, const int64_t *sizes, int32_t count, uint8_t *dict, int64_t capacity) {
    if (count <= 0 || capacity <= 0) return -1;
    size_t *s = malloc(sizeof(size_t) * (size_t)count);
    if (!s) return -1;
    for (int32_t i = 0; i < count; i++) s[i] = (size_t)sizes[i];
    size_t n = ZDICT_trainFromBuffer(dict, (size_t)capacity, samples, s, (unsigned)count);
    free(s);
    return ZDICT_isError(n) ? -1 : (int64_t)n;
}

void cchatzstd_compressor_free(cchatzstd_compressor *c) {
    if (!c) return;
    ZSTD_freeCCtx(c->cctx);
    ZSTD_freeCDict(c->cdict);
    ZSTD_freeDCtx(c->dctx);
    ZSTD_freeDDict(c->ddict);
    free(c);
}

static int set_magicless(ZSTD_DCtx *d) {
    return !ZSTD_isError(ZSTD_DCtx_setParameter(d, ZSTD_d_format, ZSTD_f_zstd1_magicless));
}

cchatzstd_compressor *cchatzstd_compressor_new(int32_t id, const uint8_t *dict, int64_t len, int32_t level) {
    if (id < 1 || id > 255 || len <= 0) return NULL;
    cchatzstd_compressor *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->id = id;
    c->cctx = ZSTD_createCCtx();
    c->cdict = ZSTD_createCDict(dict, (size_t)len, level);
    c->dctx = ZSTD_createDCtx();
    c->ddict = ZSTD_createDDict(dict, (size_t)len);
    if (!c->cctx || !c->cdict || !c->dctx || !c->ddict ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_format, ZSTD_f_zstd1_magicless)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_checksumFlag, 0)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_dictIDFlag, 0)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_contentSizeFlag, 1)) ||
        ZSTD_isError(ZSTD_CCtx_refCDict(c->cctx, c->cdict)) || !set_magicless(c->dctx) ||
        ZSTD_isError(ZSTD_DCtx_refDDict(c->dctx, c->ddict))) {
        cchatzstd_compressor_free(c);
        return NULL;
    }
    return c;
}

int64_t cchatzstd_bound(int64_t len) { return (int64_t)ZSTD_compressBound((size_t)len) + 1; }

int64_t cchatzstd_compress(cchatzstd_compressor *c, const uint8_t *text, int64_t len, uint8_t *out, int64_t capacity) {
    if (!c || capacity < 2) return -1;
    out[0] = (uint8_t)c->id;
    size_t n = ZSTD_compress2(c->cctx, out + 1, (size_t)capacity - 1, text, (size_t)len);
    return ZSTD_isError(n) ? -1 : (int64_t)n + 1;
}

int64_t cchatzstd_decompress(cchatzstd_compressor *c, const uint8_t *stored, int64_t len, uint8_t *out, int64_t capacity) {
    if (!c || len < 2 || stored[0] != (uint8_t)c->id) return -1;
    size_t n = ZSTD_decompressDCtx(c->dctx, out, (size_t)capacity, stored + 1, (size_t)len - 1);
    return ZSTD_isError(n) ? -1 : (int64_t)n;
}

// MARK: - Reading in SQL

/// One per connection: the decompression context (made when first needed) and each
/// dictionary used so far.
typedef struct {
    ZSTD_DCtx *dctx;
    ZSTD_DDict *dicts[256];
} reader;

static void reader_free(void *p) {
    reader *r = p;
    if (!r) return;
    ZSTD_freeDCtx(r->dctx);
    for (int i = 0; i < 256; i++) ZSTD_freeDDict(r->dicts[i]);
    sqlite3_free(r);
}

/// The dictionary `id`, loaded from `textDictionary` on first use.
static ZSTD_DDict *dictionary(sqlite3_context *ctx, reader *r, int id) {
    if (r->dicts[id]) return r->dicts[id];
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(sqlite3_context_db_handle(ctx), "SELECT dict FROM main.textDictionary WHERE id = ?", -1, &st,
                           NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return NULL;
    }
    sqlite3_bind_int(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_bytes(st, 0) > 0) {
        r->dicts[id] = ZSTD_createDDict(sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0));
    }
    sqlite3_finalize(st);
    return r->dicts[id];
}

/// The content size of a stored form's frame, or -1.
static int64_t content_size(const uint8_t *b, int n) {
    if (n < 2) return -1;
    ZSTD_frameHeader h;
    if (ZSTD_getFrameHeader_advanced(&h, b + 1, (size_t)n - 1, ZSTD_f_zstd1_magicless) != 0) return -1;
    if (h.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN || h.frameContentSize == ZSTD_CONTENTSIZE_ERROR ||
        h.frameContentSize > 0x7fffffff)
        return -1;
    return (int64_t)h.frameContentSize;
}

static void chat_text(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
        sqlite3_result_value(ctx, argv[0]);
        return;
    }
    reader *r = sqlite3_user_data(ctx);
    // Made at the first compressed text: a connection that reads none (most) never pays for it.
    if (!r->dctx) {
        r->dctx = ZSTD_createDCtx();
        if (!r->dctx || !set_magicless(r->dctx)) {
            ZSTD_freeDCtx(r->dctx);
            r->dctx = NULL;
            sqlite3_result_error_nomem(ctx);
            return;
        }
    }
    const uint8_t *b = sqlite3_value_blob(argv[0]);
    int n = sqlite3_value_bytes(argv[0]);
    int64_t size = content_size(b, n);
    ZSTD_DDict *d = size >= 0 ? dictionary(ctx, r, b[0]) : NULL;
    if (!d) {
        sqlite3_result_error(ctx, "chat_text: a stored text does not decompress (unknown dictionary or damage)", -1);
        return;
    }
    char *out = sqlite3_malloc64((sqlite3_uint64)size + 1);
    if (!out) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    size_t m = ZSTD_isError(ZSTD_DCtx_refDDict(r->dctx, d))
                   ? (size_t)-1
                   : ZSTD_decompressDCtx(r->dctx, out, (size_t)size, b + 1, (size_t)n - 1);
    if (ZSTD_isError(m) || (int64_t)m != size) {
        sqlite3_free(out);
        sqlite3_result_error(ctx, "chat_text: a stored text does not decompress (unknown dictionary or damage)", -1);
        return;
    }
    sqlite3_result_text(ctx, out, (int)m, sqlite3_free);
}

static void chat_text_bytes(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    switch (sqlite3_value_type(argv[0])) {
    case SQLITE_NULL: sqlite3_result_null(ctx); return;
    case SQLITE_BLOB: {
        int64_t size = content_size(sqlite3_value_blob(argv[0]), sqlite3_value_bytes(argv[0]));
        if (size < 0) {
            sqlite3_result_error(ctx, "chat_text_bytes: a stored text is damaged", -1);
        } else {
            sqlite3_result_int64(ctx, size);
        }
        return;
    }
    default:
        (void)sqlite3_value_text(argv[0]);
        sqlite3_result_int64(ctx, sqlite3_value_bytes(argv[0]));
    }
}

int32_t cchatzstd_register(void *db) {
    reader *r = sqlite3_malloc(sizeof *r);
    if (!r) return SQLITE_NOMEM;
    memset(r, 0, sizeof *r);
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    int rc = sqlite3_create_function_v2(db, "chat_text", 1, flags, r, chat_text, NULL, NULL, reader_free);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_create_function_v2(db, "chat_text_bytes", 1, flags, NULL, chat_text_bytes, NULL, NULL, NULL);
}
