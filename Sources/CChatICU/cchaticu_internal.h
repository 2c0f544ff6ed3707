// Internal declarations shared by the CChatICU .c files. Not part of the public header:
// it includes ICU types, which Swift must never see.
#ifndef CCHATICU_INTERNAL_H
#define CCHATICU_INTERNAL_H

#include "cchaticu.h"
#include <unicode/ubrk.h>
#include <unicode/unorm2.h>
#include <unicode/utext.h>
#include <stdint.h>

/// Internal token flag: the token is a character n-gram of a script written without spaces.
/// Never passed to public callbacks (masked out); the FTS5 layer uses it for vocabulary capture.
#define CHAT_TOKEN_NGRAM 0x100

/// Registers the FTS5 ranking function `chat_bm25` (cchaticu_rank.c) with an `fts5_api *`.
int32_t cchaticu_register_rank(void *api);

/// Transliterates text whose characters are all in the built-in table of readings as ICU would
/// (cchaticu_readings.c). Returns 1 with *out set (malloc'ed), 0 when the text is ICU's to do,
/// -1 when out of memory.
int chat_table_transliterate(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen);

/// What the built-in table of readings makes of Latin letter `c` (a letter beyond ASCII that
/// "Any-Latin; Latin-ASCII; Lower" reads on its own), or NULL when the table lacks it.
const char *chat_table_latin_reading(int32_t c);

/// Transliterates text of one script that ICU transliterates in context (Greek, Armenian, Hangul,
/// kana, Indic, Thai) as ICU would, running ICU's chain from the built-in program of its rules
/// (cchaticu_rules.c). Same returns as chat_table_transliterate.
int chat_rules_transliterate(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen);

/// Longest token, in bytes (tokens are truncated at a UTF-8 boundary).
#define CHAT_MAX_TOKEN 128

/// ICU objects shared by every thread, opened once.
typedef struct {
    const UNormalizer2 *nfkccf;   // NFKC_Casefold
    const UNormalizer2 *nfkccfKeep; // NFKC_Casefold that leaves ZWJ and tag characters alone
    const UNormalizer2 *nfd;
    const UNormalizer2 *nfc;
    UBreakIterator *wordTemplate; // cloned per analyser
} chat_icu;

/// Returns the shared ICU objects, or NULL when ICU could not be initialised.
const chat_icu *chat_icu_get(void);

/// Results of chat_norm_utf8 for short texts that needed ICU, by hash (see chat_norm_utf8).
#define CHAT_NORM_CACHE 256
typedef struct {
    struct { uint8_t inLen, outLen; uint8_t in[32], out[64]; } e[CHAT_NORM_CACHE];
} chat_norm_cache;

/// Scratch buffers for normalisation, reused across calls.
typedef struct {
    UChar *a, *b, *in;
    int32_t acap, bcap, inCap;
    uint8_t *out;
    int32_t outCap;
    chat_norm_cache *cache; // optional (NULL: none); freed by chat_norm_free
} chat_norm;

void chat_norm_free(chat_norm *N);

/// Character classes of U+0000..U+07FF, filled when ICU is initialised.
#define CHAT_CLS_SEP 1  // not a letter, mark or number
#define CHAT_CLS_MARK 2 // a combining mark (Mn, Mc, Me)
extern uint8_t chat_cls_table[0x800];

/// A separator inside a word: anything that is not a letter, mark or number (and U+02BC).
int chat_is_separator(UChar32 c);

/// ASCII white space: a word boundary on both sides for the analyser (process_words), and the
/// piece boundary of the matcher's skipping (cchaticu_matcher_add_needle).
static inline int chat_is_ascii_space(uint8_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static inline int chat_is_ascii_alnum(uint8_t c) {
    return (uint8_t)(c - '0') < 10u || (uint8_t)((c | 0x20) - 'a') < 26u;
}

/// Extended_Pictographic (emoji and pictographs).
int chat_is_pictographic(UChar32 c);

/// Whether the mark filter of chat_norm_u16 copies c as it is, whatever surrounds it.
int chat_filter_keeps(UChar32 c);

/// Normalises UTF-16 text; returns the length of the result, which is left in N->a, or -1.
int32_t chat_norm_u16(chat_norm *N, const chat_icu *icu, const UChar *in, int32_t n);

/// Normalises UTF-8 text (ASCII fast path); returns the length of the result, left in N->out, or -1.
int32_t chat_norm_utf8(chat_norm *N, const chat_icu *icu, const uint8_t *s, int32_t n);

/// Grows a buffer to hold at least `need` elements of `size` bytes; returns 0 or -1.
int chat_grow(void **p, int32_t *cap, int32_t need, size_t size);

/// One analyser: a word-break iterator and reusable buffers. Not thread-safe; one per FTS5
/// tokenizer instance, one per thread for cchaticu_tokenize.
typedef struct chat_analyser chat_analyser;

chat_analyser *chat_analyser_new(void);
void chat_analyser_free(chat_analyser *A);

/// Runs the analyser. `fn` receives flags that may include CHAT_TOKEN_NGRAM.
int32_t chat_analyse(chat_analyser *A, const uint8_t *text, int32_t len, int32_t mode, void *ctx,
                     cchaticu_token_fn fn);

/// Runs chat_analyse with this thread's analyser (created on first use, freed at thread exit).
int32_t chat_analyse_on_thread(const uint8_t *text, int32_t len, int32_t mode, void *ctx, cchaticu_token_fn fn);

#endif
