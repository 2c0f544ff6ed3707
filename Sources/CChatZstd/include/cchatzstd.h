// CChatZstd: compression of stored message text with a dictionary trained on the archive's
// own messages (zstd), and the SQL functions that read it back.
//
// zstd is loaded at run time (`libzstd.so.1`), so no zstd header or link is needed to build;
// without it every call that needs zstd fails (see `cchatzstd_available`).
//
// Only stdint types cross this header, so Swift imports it next to Foundation.
#ifndef CCHATZSTD_H
#define CCHATZSTD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when zstd's runtime library is loaded (loading it at the first call), else 0.
int32_t cchatzstd_available(void);

/// Registers `chat_text(x)` and `chat_text_bytes(x)` on `db` (an `sqlite3 *`); returns an
/// SQLite result code.
///
/// A stored text is either TEXT (as written) or a BLOB: one byte naming its dictionary (a row
/// of `textDictionary`), then a zstd frame without its magic number, holding its content size.
/// `chat_text(x)` returns TEXT for both (a BLOB decompressed with its dictionary, which each
/// connection loads once); `chat_text_bytes(x)` the text's UTF-8 length without decompressing.
/// A BLOB that does not decompress (an unknown dictionary, damage, zstd's library missing) is
/// an SQL error.
int32_t cchatzstd_register(void *db);

/// Trains a dictionary of at most `capacity` bytes on `count` samples laid end to end in
/// `samples` (lengths in `sizes`); returns its size, or a negative value when zstd cannot
/// train one (too few or too small samples, or zstd is missing).
int64_t cchatzstd_train(const uint8_t *samples, const int64_t *sizes, int32_t count, uint8_t *dict, int64_t capacity);

typedef struct cchatzstd_compressor cchatzstd_compressor;

/// A compressor for dictionary `id` (1…255) with the given bytes, at zstd level `level`;
/// NULL when zstd refuses the dictionary or is missing.
cchatzstd_compressor *cchatzstd_compressor_new(int32_t id, const uint8_t *dict, int64_t len, int32_t level);
void cchatzstd_compressor_free(cchatzstd_compressor *c);

/// The largest stored form of a text of `len` bytes.
int64_t cchatzstd_bound(int64_t len);

/// Writes the stored form of `text` (the dictionary's id byte, then the frame) to `out`
/// (`capacity` at least `cchatzstd_bound(len)`); returns its length, or a negative value.
int64_t cchatzstd_compress(cchatzstd_compressor *c, const uint8_t *text, int64_t len, uint8_t *out, int64_t capacity);

/// Decompresses a stored form written with this compressor's dictionary into `out`;
/// returns the text's length, or a negative value (for tests and the writer's own checks).
int64_t cchatzstd_decompress(cchatzstd_compressor *c, const uint8_t *stored, int64_t len, uint8_t *out, int64_t capacity);

#ifdef __cplusplus
}
#endif

#endif
