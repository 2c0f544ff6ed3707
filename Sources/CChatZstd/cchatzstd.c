// Stored message text compressed with the archive's dictionary (see cchatzstd.h).
//
// zstd is loaded at run time from its runtime library (`libzstd.so.1`, on every machine of the
// kinds we build for), so building needs no zstd header: the few declarations used are written
// below from zstd's stable ABI. Without the library, plain text is read and written as always;
// only compressed text, and compressing, need it, and they say so.
#include "cchatzstd.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

// MARK: - zstd, declared here and loaded at run time

typedef struct ZSTD_CCtx_s ZSTD_CCtx;
typedef struct ZSTD_DCtx_s ZSTD_DCtx;
typedef struct ZSTD_CDict_s ZSTD_CDict;
typedef struct ZSTD_DDict_s ZSTD_DDict;

// Parameter numbers of zstd's ABI (zstd.h, unchanged since 1.4): the frame format is an
// "experimental" parameter, exported by every shared build since then.
enum {
    ZSTD_c_contentSizeFlag = 200,
    ZSTD_c_checksumFlag = 201,
    ZSTD_c_dictIDFlag = 202,
    ZSTD_c_format = 10,   // ZSTD_c_experimentalParam2
    ZSTD_d_format = 1000, // ZSTD_d_experimentalParam1
    ZSTD_f_zstd1_magicless = 1,
};

static struct {
    size_t (*compressBound)(size_t);
    unsigned (*isError)(size_t);
    ZSTD_CCtx *(*createCCtx)(void);
    size_t (*freeCCtx)(ZSTD_CCtx *);
    ZSTD_DCtx *(*createDCtx)(void);
    size_t (*freeDCtx)(ZSTD_DCtx *);
    ZSTD_CDict *(*createCDict)(const void *, size_t, int);
    size_t (*freeCDict)(ZSTD_CDict *);
    ZSTD_DDict *(*createDDict)(const void *, size_t);
    size_t (*freeDDict)(ZSTD_DDict *);
    size_t (*cctxSetParameter)(ZSTD_CCtx *, int, int);
    size_t (*dctxSetParameter)(ZSTD_DCtx *, int, int);
    size_t (*cctxRefCDict)(ZSTD_CCtx *, const ZSTD_CDict *);
    size_t (*dctxRefDDict)(ZSTD_DCtx *, const ZSTD_DDict *);
    size_t (*compress2)(ZSTD_CCtx *, void *, size_t, const void *, size_t);
    size_t (*decompressDCtx)(ZSTD_DCtx *, void *, size_t, const void *, size_t);
    size_t (*trainFromBuffer)(void *, size_t, const void *, const size_t *, unsigned);
    unsigned (*dictIsError)(size_t);
} z;

static pthread_once_t z_once = PTHREAD_ONCE_INIT;
static int z_loaded;

#define Z_LOAD(field, name)                                                                                            \
    if (!(*(void **)&z.field = dlsym(h, name))) return;

static void z_load_once(void) {
    void *h = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libzstd.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libzstd.1.dylib", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
    Z_LOAD(compressBound, "ZSTD_compressBound")
    Z_LOAD(isError, "ZSTD_isError")
    Z_LOAD(createCCtx, "ZSTD_createCCtx")
    Z_LOAD(freeCCtx, "ZSTD_freeCCtx")
    Z_LOAD(createDCtx, "ZSTD_createDCtx")
    Z_LOAD(freeDCtx, "ZSTD_freeDCtx")
    Z_LOAD(createCDict, "ZSTD_createCDict")
    Z_LOAD(freeCDict, "ZSTD_freeCDict")
    Z_LOAD(createDDict, "ZSTD_createDDict")
    Z_LOAD(freeDDict, "ZSTD_freeDDict")
    Z_LOAD(cctxSetParameter, "ZSTD_CCtx_setParameter")
    Z_LOAD(dctxSetParameter, "ZSTD_DCtx_setParameter")
    Z_LOAD(cctxRefCDict, "ZSTD_CCtx_refCDict")
    Z_LOAD(dctxRefDDict, "ZSTD_DCtx_refDDict")
    Z_LOAD(compress2, "ZSTD_compress2")
    Z_LOAD(decompressDCtx, "ZSTD_decompressDCtx")
    Z_LOAD(trainFromBuffer, "ZDICT_trainFromBuffer")
    Z_LOAD(dictIsError, "ZDICT_isError")
    z_loaded = 1;
}

int32_t cchatzstd_available(void) {
    pthread_once(&z_once, z_load_once);
    return z_loaded;
}

static const char *const missing_message =
    "this text is compressed with zstd, and libzstd.so.1 could not be loaded (install the zstd runtime "
    "library, Debian's libzstd1)";

// MARK: - The stored form's frame header, read without zstd

/// The content size of a stored form (the dictionary byte, then a magicless zstd frame), or -1.
/// The frame header is zstd's documented format (RFC 8878, 3.1.1.1); reading it here lets
/// `chat_text_bytes` answer without the library.
static int64_t content_size(const uint8_t *b, int n) {
    if (n < 2) return -1;
    const uint8_t *p = b + 1, *end = b + n;
    uint8_t fhd = *p++;
    int fcsFlag = fhd >> 6, single = (fhd >> 5) & 1, didFlag = fhd & 3;
    if ((fhd >> 3) & 1) return -1; // reserved bit
    if (!single) p += 1;           // window descriptor
    static const int didSizes[4] = {0, 1, 2, 4};
    p += didSizes[didFlag];
    int fcsSize = fcsFlag == 0 ? (single ? 1 : 0) : (1 << fcsFlag);
    if (fcsSize == 0 || p + fcsSize > end) return -1; // size unknown: never written by us
    uint64_t v = 0;
    for (int i = fcsSize - 1; i >= 0; i--) v = (v << 8) | p[i];
    if (fcsSize == 2) v += 256;
    return v > 0x7fffffff ? -1 : (int64_t)v;
}

// MARK: - Writing

struct cchatzstd_compressor {
    int32_t id;
    ZSTD_CCtx *cctx;
    ZSTD_CDict *cdict;
    ZSTD_DCtx *dctx;
    ZSTD_DDict *ddict;
};

int64_t cchatzstd_train(const uint8_t *samples, const int64_t *sizes, int32_t count, uint8_t *dict, int64_t capacity) {
    if (count <= 0 || capacity <= 0 || !cchatzstd_available()) return -1;
    size_t *s = malloc(sizeof(size_t) * (size_t)count);
    if (!s) return -1;
    for (int32_t i = 0; i < count; i++) s[i] = (size_t)sizes[i];
    size_t n = z.trainFromBuffer(dict, (size_t)capacity, samples, s, (unsigned)count);
    free(s);
    return z.dictIsError(n) ? -1 : (int64_t)n;
}

void cchatzstd_compressor_free(cchatzstd_compressor *c) {
    if (!c) return;
    if (c->cctx) z.freeCCtx(c->cctx);
    if (c->cdict) z.freeCDict(c->cdict);
    if (c->dctx) z.freeDCtx(c->dctx);
    if (c->ddict) z.freeDDict(c->ddict);
    free(c);
}

static int set_magicless(ZSTD_DCtx *d) { return !z.isError(z.dctxSetParameter(d, ZSTD_d_format, ZSTD_f_zstd1_magicless)); }

cchatzstd_compressor *cchatzstd_compressor_new(int32_t id, const uint8_t *dict, int64_t len, int32_t level) {
    if (id < 1 || id > 255 || len <= 0 || !cchatzstd_available()) return NULL;
    cchatzstd_compressor *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->id = id;
    c->cctx = z.createCCtx();
    c->cdict = z.createCDict(dict, (size_t)len, level);
    c->dctx = z.createDCtx();
    c->ddict = z.createDDict(dict, (size_t)len);
    if (!c->cctx || !c->cdict || !c->dctx || !c->ddict ||
        z.isError(z.cctxSetParameter(c->cctx, ZSTD_c_format, ZSTD_f_zstd1_magicless)) ||
        z.isError(z.cctxSetParameter(c->cctx, ZSTD_c_checksumFlag, 0)) ||
        z.isError(z.cctxSetParameter(c->cctx, ZSTD_c_dictIDFlag, 0)) ||
        z.isError(z.cctxSetParameter(c->cctx, ZSTD_c_contentSizeFlag, 1)) ||
        z.isError(z.cctxRefCDict(c->cctx, c->cdict)) || !set_magicless(c->dctx) ||
        z.isError(z.dctxRefDDict(c->dctx, c->ddict))) {
        cchatzstd_compressor_free(c);
        return NULL;
    }
    return c;
}

int64_t cchatzstd_bound(int64_t len) {
    // zstd's own bound (ZSTD_COMPRESSBOUND), plus the dictionary byte.
    size_t n = (size_t)len;
    size_t bound = n + (n >> 8) + (n < (128 << 10) ? (((128 << 10) - n) >> 11) : 0);
    return (int64_t)bound + 1;
}

int64_t cchatzstd_compress(cchatzstd_compressor *c, const uint8_t *text, int64_t len, uint8_t *out, int64_t capacity) {
    if (!c || capacity < 2) return -1;
    out[0] = (uint8_t)c->id;
    size_t n = z.compress2(c->cctx, out + 1, (size_t)capacity - 1, text, (size_t)len);
    return z.isError(n) ? -1 : (int64_t)n + 1;
}

int64_t cchatzstd_decompress(cchatzstd_compressor *c, const uint8_t *stored, int64_t len, uint8_t *out, int64_t capacity) {
    if (!c || len < 2 || stored[0] != (uint8_t)c->id) return -1;
    size_t n = z.decompressDCtx(c->dctx, out, (size_t)capacity, stored + 1, (size_t)len - 1);
    return z.isError(n) ? -1 : (int64_t)n;
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
    if (z_loaded) {
        if (r->dctx) z.freeDCtx(r->dctx);
        for (int i = 0; i < 256; i++)
            if (r->dicts[i]) z.freeDDict(r->dicts[i]);
    }
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
        r->dicts[id] = z.createDDict(sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0));
    }
    sqlite3_finalize(st);
    return r->dicts[id];
}

static void chat_text(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc;
    if (sqlite3_value_type(argv[0]) != SQLITE_BLOB) {
        sqlite3_result_value(ctx, argv[0]);
        return;
    }
    if (!cchatzstd_available()) {
        sqlite3_result_error(ctx, missing_message, -1);
        return;
    }
    reader *r = sqlite3_user_data(ctx);
    // Made at the first compressed text: a connection that reads none (most) never pays for it.
    if (!r->dctx) {
        r->dctx = z.createDCtx();
        if (!r->dctx || !set_magicless(r->dctx)) {
            if (r->dctx) z.freeDCtx(r->dctx);
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
    size_t m = z.isError(z.dctxRefDDict(r->dctx, d)) ? (size_t)-1
                                                       : z.decompressDCtx(r->dctx, out, (size_t)size, b + 1, (size_t)n - 1);
    if (z.isError(m) || (int64_t)m != size) {
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
