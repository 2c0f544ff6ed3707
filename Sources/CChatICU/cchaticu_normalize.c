// The normaliser: NFKC + full case folding, removal of optional marks, Latin letter folding.
// Also the shared ICU objects and the transliterator for name search.
#include "cchaticu_internal.h"
#include <unicode/uchar.h>
#include <unicode/uset.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/utrans.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int32_t cchaticu_analyzer_version(void) { return 2; }

void cchaticu_free(void *p) { free(p); }

// MARK: - Shared ICU objects

static chat_icu g_icu;
static int g_icuOK;
static pthread_once_t g_icuOnce = PTHREAD_ONCE_INIT;

uint8_t chat_cls_table[0x800];

// Normalised form of each code point of U+0080..U+07FF that normalises the same way in any
// context (len FOLD_NONE otherwise), so that most European, Hebrew and Arabic text needs no ICU
// call. Filled on first use (see fold_len).
typedef struct {
    uint8_t len;
    uint8_t bytes[4];
} fold_entry;
static fold_entry g_fold[0x800];
enum { FOLD_NONE = 0xFF, FOLD_UNKNOWN = 0xFE, FOLD_BUSY = 0xFD };
static void fold_compute(UChar32 c, fold_entry *f);
static uint8_t fold_len(UChar32 c);

static void tables_init(void);

static void icu_init(void) {
    UErrorCode err = U_ZERO_ERROR;
    g_icu.nfkccf = unorm2_getNFKCCasefoldInstance(&err);
    g_icu.nfd = unorm2_getNFDInstance(&err);
    g_icu.nfc = unorm2_getNFCInstance(&err);
    if (U_FAILURE(err)) return;
    // ZWJ and tag characters are default-ignorable, so NFKC_Casefold would delete them; they
    // hold emoji sequences together, so this instance passes them through and the filter
    // decides (see filter_marks).
    static const UChar pattern[] = u"[^\\u200D\\U000E0020-\\U000E007F]";
    USet *set = uset_openPattern(pattern, -1, &err);
    if (U_FAILURE(err)) return;
    uset_freeze(set);
    g_icu.nfkccfKeep = unorm2_openFiltered(g_icu.nfkccf, set, &err); // keeps `set` alive
    if (U_FAILURE(err)) return;
    g_icu.wordTemplate = ubrk_open(UBRK_WORD, "", NULL, 0, &err);
    if (U_FAILURE(err)) return;
    tables_init();
    g_icuOK = 1;
}

const chat_icu *chat_icu_get(void) {
    pthread_once(&g_icuOnce, icu_init);
    return g_icuOK ? &g_icu : NULL;
}

// MARK: - Buffers

int chat_grow(void **p, int32_t *cap, int32_t need, size_t size) {
    if (need <= *cap) return 0;
    if (need > INT32_MAX / 2) return -1;
    int32_t ncap = *cap ? *cap : 64;
    while (ncap < need) ncap *= 2;
    void *q = realloc(*p, (size_t)ncap * size);
    if (!q) return -1;
    *p = q;
    *cap = ncap;
    return 0;
}

void chat_norm_free(chat_norm *N) {
    free(N->a);
    free(N->b);
    free(N->in);
    free(N->out);
    free(N->cache);
    memset(N, 0, sizeof *N);
}

// Normalises src into *dst, growing it on overflow. Returns the length or -1.
static int32_t run_norm(const UNormalizer2 *norm, const UChar *src, int32_t n, UChar **dst, int32_t *cap) {
    for (int attempt = 0; attempt < 3; attempt++) {
        UErrorCode err = U_ZERO_ERROR;
        int32_t len = unorm2_normalize(norm, src, n, *dst, *cap, &err);
        if (err == U_BUFFER_OVERFLOW_ERROR || err == U_STRING_NOT_TERMINATED_WARNING) {
            if (chat_grow((void **)dst, cap, len + 1, sizeof(UChar))) return -1;
            continue;
        }
        return U_FAILURE(err) ? -1 : len;
    }
    return -1;
}

// MARK: - Folding tables

// Latin letters (lower case, as case folding leaves them) without a decomposition.
static const char *latin_fold(UChar32 c) {
    switch (c) {
    case 0x00E6: return "ae"; case 0x00F0: return "d";  case 0x00F8: return "o";  case 0x00FE: return "th";
    case 0x0111: return "d";  case 0x0127: return "h";  case 0x0131: return "i";  case 0x0138: return "k";
    case 0x0142: return "l";  case 0x014B: return "n";  case 0x0153: return "oe"; case 0x0167: return "t";
    case 0x0180: return "b";  case 0x0183: return "b";  case 0x0188: return "c";  case 0x018C: return "d";
    case 0x0192: return "f";  case 0x0195: return "hv"; case 0x0199: return "k";  case 0x019A: return "l";
    case 0x019E: return "n";  case 0x01A5: return "p";  case 0x01AB: return "t";  case 0x01AD: return "t";
    case 0x01B4: return "y";  case 0x01B6: return "z";  case 0x01E5: return "g";  case 0x0221: return "d";
    case 0x0225: return "z";  case 0x0234: return "l";  case 0x0235: return "n";  case 0x0236: return "t";
    case 0x0237: return "j";  case 0x0238: return "db"; case 0x0239: return "qp"; case 0x023C: return "c";
    case 0x023F: return "s";  case 0x0240: return "z";  case 0x0247: return "e";  case 0x0249: return "j";
    case 0x024D: return "r";  case 0x024F: return "y";  case 0x0253: return "b";  case 0x0255: return "c";
    case 0x0256: return "d";  case 0x0257: return "d";  case 0x025B: return "e";  case 0x0260: return "g";
    case 0x0261: return "g";  case 0x0266: return "h";  case 0x0268: return "i";  case 0x026B: return "l";
    case 0x026C: return "l";  case 0x026D: return "l";  case 0x0271: return "m";  case 0x0272: return "n";
    case 0x0273: return "n";  case 0x0275: return "o";  case 0x027D: return "r";  case 0x0282: return "s";
    case 0x0288: return "t";  case 0x0289: return "u";  case 0x028B: return "v";  case 0x0290: return "z";
    case 0x0291: return "z";  case 0x029D: return "j";  case 0x02A0: return "q";
    default: return NULL;
    }
}

// Marks that are optional in their script (after NFD). `base` is the last non-mark seen.
static int is_optional_mark(UChar32 c, UChar32 base) {
    if (c < 0x0300) return 0;
    if (c <= 0x036F) {
        // The breve of й and ў is part of the letter in Cyrillic alphabets: keep it.
        return !(c == 0x0306 && base >= 0x0400 && base <= 0x04FF);
    }
    if (c >= 0x0483 && c <= 0x0489) return 1; // Cyrillic titlo and friends
    if (c >= 0x0591 && c <= 0x05C7) return u_charType(c) == U_NON_SPACING_MARK; // Hebrew points
    if (c >= 0x0610 && c <= 0x061A) return 1;                              // Arabic signs
    if ((c >= 0x064B && c <= 0x065F) || c == 0x0670 || c == 0x0640) return 1; // harakat, tatweel
    if (c >= 0x06D6 && c <= 0x06ED) return u_charType(c) == U_NON_SPACING_MARK; // Quranic marks
    if (c >= 0x08CA && c <= 0x08FF) return u_charType(c) == U_NON_SPACING_MARK;
    if (c >= 0x1AB0 && c <= 0x1AFF) return 1;
    if (c >= 0x1DC0 && c <= 0x1DFF) return 1;
    if (c == 0xFB1E) return 1;
    if (c >= 0xFE20 && c <= 0xFE2F) return 1;
    return 0;
}

static int is_mark(UChar32 c) {
    if (c < 0x0300) return 0;
    if (c < 0x800) return chat_cls_table[c] & CHAT_CLS_MARK;
    return (U_GET_GC_MASK(c) & (U_GC_MN_MASK | U_GC_ME_MASK | U_GC_MC_MASK)) != 0;
}

int chat_is_separator(UChar32 c) {
    if (c < 0x800) return c >= 0 && (chat_cls_table[c] & CHAT_CLS_SEP);
    return !(U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_M_MASK | U_GC_N_MASK));
}

int chat_is_pictographic(UChar32 c) {
    return c >= 0xA9 && u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC);
}

// Removes optional marks, folds Latin letters and apostrophes, and keeps ZWJ / tag characters
// only inside emoji sequences. in → out (out has room for 2 * n). Returns the output length;
// *changed is set when the output differs from the input.
static int32_t filter_marks(const UChar *in, int32_t n, UChar *out, int *changed) {
    int32_t o = 0;
    UChar32 base = 0, prev = 0;
    int ch = 0;
    for (int32_t i = 0; i < n;) {
        int32_t start = i;
        UChar32 c;
        U16_NEXT(in, i, n, c);
        if (c < 0x80) {
            out[o++] = (UChar)c;
            base = prev = c;
            continue;
        }
        if (is_optional_mark(c, base)) { ch = 1; continue; }
        if (c == 0x2019 || c == 0x2018 || c == 0x02BC) {
            out[o++] = '\'';
            base = prev = '\'';
            ch = 1;
            continue;
        }
        if (c == 0x200D) {
            UChar32 next = 0;
            if (i < n) { int32_t j = i; U16_NEXT(in, j, n, next); }
            int prevOK = chat_is_pictographic(prev) || (prev >= 0x1F3FB && prev <= 0x1F3FF) || prev == 0x20E3;
            if (prevOK && chat_is_pictographic(next)) { out[o++] = 0x200D; prev = c; }
            else ch = 1;
            continue;
        }
        if (c >= 0xE0020 && c <= 0xE007F) {
            if (chat_is_pictographic(base) && (prev == base || (prev >= 0xE0020 && prev <= 0xE007F))) {
                U16_APPEND_UNSAFE(out, o, c);
                prev = c;
            } else ch = 1;
            continue;
        }
        if (c >= 0xDF && c <= 0x2AF) {
            const char *f = latin_fold(c);
            if (f) {
                while (*f) out[o++] = (UChar)*f++;
                base = prev = 'a';
                ch = 1;
                continue;
            }
        }
        for (int32_t k = start; k < i; k++) out[o++] = in[k];
        if (!is_mark(c)) base = c;
        prev = c;
    }
    *changed = ch;
    return o;
}

int chat_filter_keeps(UChar32 c) {
    if (c < 0x80) return 1;
    if (is_optional_mark(c, 0) || is_optional_mark(c, 0x0400)) return 0; // (only U+0306 looks at the base)
    if (c == 0x2019 || c == 0x2018 || c == 0x02BC || c == 0x200D || (c >= 0xE0020 && c <= 0xE007F)) return 0;
    if (c >= 0xDF && c <= 0x2AF && latin_fold(c)) return 0;
    return 1;
}

// MARK: - Normalisation

int32_t chat_norm_u16(chat_norm *N, const chat_icu *icu, const UChar *in, int32_t n) {
    const UNormalizer2 *first = icu->nfkccf;
    for (int32_t i = 0; i < n; i++) {
        if (in[i] == 0x200D || in[i] == 0xDB40) { first = icu->nfkccfKeep; break; }
    }
    // NFKC + case folding: in → b.
    int32_t len = run_norm(first, in, n, &N->b, &N->bcap);
    if (len < 0) return -1;
    // Decompose (skipped when already decomposed): b → a.
    UErrorCode err = U_ZERO_ERROR;
    const UChar *src = N->b;
    int32_t dlen = len;
    if (unorm2_spanQuickCheckYes(icu->nfd, N->b, len, &err) != len || U_FAILURE(err)) {
        dlen = run_norm(icu->nfd, N->b, len, &N->a, &N->acap);
        if (dlen < 0) return -1;
        src = N->a;
    }
    // Filter: src → the other buffer; compose again when something changed.
    int changed = 0;
    UChar **dst = src == N->a ? &N->b : &N->a;
    int32_t *dcap = src == N->a ? &N->bcap : &N->acap;
    if (chat_grow((void **)dst, dcap, 2 * dlen + 1, sizeof(UChar))) return -1;
    int32_t flen = filter_marks(src, dlen, *dst, &changed);
    int decomposed = src == N->a;
    // Nothing decomposed or removed: the filter's copy (in a) of the NFKC_Casefold output is final.
    if (!changed && !decomposed) return flen;
    if (*dst == N->a) {
        // Result is in a; compose into b and swap.
        int32_t clen = run_norm(icu->nfc, N->a, flen, &N->b, &N->bcap);
        if (clen < 0) return -1;
        UChar *t = N->a; N->a = N->b; N->b = t;
        int32_t tc = N->acap; N->acap = N->bcap; N->bcap = tc;
        return clen;
    }
    return run_norm(icu->nfc, N->b, flen, &N->a, &N->acap);
}

int32_t chat_norm_utf8(chat_norm *N, const chat_icu *icu, const uint8_t *s, int32_t n) {
    if (chat_grow((void **)&N->out, &N->outCap, 2 * n + 1, 1)) return -1;
    // Fast path: ASCII and the context-free code points of U+0080..U+07FF.
    uint8_t *o = N->out;
    int32_t i = 0, k = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c < 0x80) {
            o[k++] = (uint8_t)((uint32_t)(c - 'A') < 26u ? c + 32 : c);
            i++;
            continue;
        }
        if (!icu || c < 0xC2 || c > 0xDF || i + 1 >= n || (s[i + 1] & 0xC0) != 0x80) break;
        UChar32 cp = ((c & 0x1F) << 6) | (s[i + 1] & 0x3F);
        uint8_t flen = fold_len(cp);
        if (flen > 4) break;
        for (int32_t j = 0; j < flen; j++) o[k++] = g_fold[cp].bytes[j];
        i += 2;
    }
    if (i == n) return k;
    if (!icu) return -1;
    // Words recur: a short text that needs ICU is looked up in the cache first.
    chat_norm_cache *C = n <= 32 ? N->cache : NULL;
    uint32_t h = 2166136261u;
    if (C) {
        for (int32_t j = 0; j < n; j++) h = (h ^ s[j]) * 16777619u;
        h = (h ^ (h >> 16)) % CHAT_NORM_CACHE;
        if (C->e[h].inLen == n && memcmp(C->e[h].in, s, (size_t)n) == 0) {
            memcpy(N->out, C->e[h].out, C->e[h].outLen); // cached only when it fits in 2n bytes
            return C->e[h].outLen;
        }
    }
    if (chat_grow((void **)&N->in, &N->inCap, n + 1, sizeof(UChar))) return -1;
    UErrorCode err = U_ZERO_ERROR;
    int32_t len16 = 0;
    u_strFromUTF8WithSub(N->in, N->inCap, &len16, (const char *)s, n, 0xFFFD, NULL, &err);
    if (U_FAILURE(err)) return -1;
    int32_t len = chat_norm_u16(N, icu, N->in, len16);
    if (len < 0) return -1;
    if (chat_grow((void **)&N->out, &N->outCap, 3 * len + 1, 1)) return -1;
    int32_t len8 = 0;
    err = U_ZERO_ERROR;
    u_strToUTF8WithSub((char *)N->out, N->outCap, &len8, N->a, len, 0xFFFD, NULL, &err);
    if (U_FAILURE(err)) return -1;
    if (C && len8 <= (int32_t)sizeof C->e[h].out && len8 <= 2 * n) {
        C->e[h].inLen = (uint8_t)n;
        C->e[h].outLen = (uint8_t)len8;
        memcpy(C->e[h].in, s, (size_t)n);
        memcpy(C->e[h].out, N->out, (size_t)len8);
    }
    return len8;
}

static int32_t copy_out(const uint8_t *p, int32_t len, uint8_t **out, int32_t *outLen) {
    uint8_t *b = malloc((size_t)len + 1);
    if (!b) return -1;
    if (len) memcpy(b, p, (size_t)len);
    b[len] = 0;
    *out = b;
    *outLen = len;
    return 0;
}

int32_t cchaticu_normalize(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen) {
    *out = NULL;
    *outLen = 0;
    if (len < 0 || (!text && len)) return -1;
    chat_norm N = {0};
    int32_t n = chat_norm_utf8(&N, chat_icu_get(), text ? text : (const uint8_t *)"", len);
    int32_t rc = n < 0 ? -1 : copy_out(N.out, n, out, outLen);
    chat_norm_free(&N);
    return rc;
}

// MARK: - Transliteration

static pthread_mutex_t g_transLock = PTHREAD_MUTEX_INITIALIZER;
static UTransliterator *g_trans;
static int g_transTried;

static int32_t transliterate(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen, int useTable) {
    *out = NULL;
    *outLen = 0;
    if (len < 0 || (!text && len)) return -1;
    int ascii = 1;
    for (int32_t i = 0; i < len; i++) if (text[i] >= 0x80) { ascii = 0; break; }
    if (ascii) {
        if (copy_out(text ? text : (const uint8_t *)"", len, out, outLen)) return -1;
        for (int32_t i = 0; i < len; i++) if ((uint32_t)((*out)[i] - 'A') < 26u) (*out)[i] += 32;
        return 0;
    }
    if (useTable) {
        // (The scripts of the rules first: the table is not loaded for them.)
        int handled = chat_rules_transliterate(text, len, out, outLen);
        if (!handled) handled = chat_table_transliterate(text, len, out, outLen);
        if (handled) return handled > 0 ? 0 : -1;
    }
    UErrorCode err = U_ZERO_ERROR;
    int32_t len16 = 0;
    u_strFromUTF8WithSub(NULL, 0, &len16, (const char *)text, len, 0xFFFD, NULL, &err);
    if (err != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(err)) return -1;
    int32_t cap = 4 * len16 + 16;
    UChar *buf = NULL;
    int32_t rc = -1;
    pthread_mutex_lock(&g_transLock);
    if (!g_trans && !g_transTried) {
        g_transTried = 1;
        UErrorCode e2 = U_ZERO_ERROR;
        static const UChar id[] = u"Any-Latin; Latin-ASCII; Lower";
        g_trans = utrans_openU(id, -1, UTRANS_FORWARD, NULL, 0, NULL, &e2);
        if (U_FAILURE(e2)) g_trans = NULL;
    }
    for (int attempt = 0; g_trans && attempt < 4; attempt++) {
        free(buf);
        buf = malloc((size_t)cap * sizeof(UChar));
        if (!buf) break;
        err = U_ZERO_ERROR;
        u_strFromUTF8WithSub(buf, cap, &len16, (const char *)text, len, 0xFFFD, NULL, &err);
        if (U_FAILURE(err)) break;
        int32_t textLen = len16, limit = len16;
        err = U_ZERO_ERROR;
        utrans_transUChars(g_trans, buf, &textLen, cap, 0, &limit, &err);
        if (err == U_BUFFER_OVERFLOW_ERROR) { cap *= 4; continue; }
        if (U_FAILURE(err)) break;
        len16 = textLen;
        rc = 0;
        break;
    }
    pthread_mutex_unlock(&g_transLock);
    if (rc == 0) {
        int32_t len8 = 0;
        err = U_ZERO_ERROR;
        u_strToUTF8WithSub(NULL, 0, &len8, buf, len16, 0xFFFD, NULL, &err);
        uint8_t *b = malloc((size_t)len8 + 1);
        err = U_ZERO_ERROR;
        if (b) u_strToUTF8WithSub((char *)b, len8 + 1, &len8, buf, len16, 0xFFFD, NULL, &err);
        if (!b || U_FAILURE(err)) { free(b); rc = -1; }
        else { b[len8] = 0; *out = b; *outLen = len8; }
    }
    free(buf);
    return rc;
}

int32_t cchaticu_transliterate(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen) {
    return transliterate(text, len, out, outLen, 1);
}

int32_t cchaticu_transliterate_with_icu(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen) {
    return transliterate(text, len, out, outLen, 0);
}

// MARK: - Tables

static void tables_init(void) {
    for (UChar32 c = 0; c < 0x800; c++) {
        uint32_t gc = U_GET_GC_MASK(c);
        uint8_t cls = 0;
        if (!(gc & (U_GC_L_MASK | U_GC_M_MASK | U_GC_N_MASK)) || c == 0x02BC) cls |= CHAT_CLS_SEP;
        if (gc & (U_GC_MN_MASK | U_GC_ME_MASK | U_GC_MC_MASK)) cls |= CHAT_CLS_MARK;
        chat_cls_table[c] = cls;
        g_fold[c].len = FOLD_UNKNOWN;
    }
}

// The fold entry of c (U+0080..U+07FF): its normalised UTF-8 when c normalises the same way in
// any context, else len 0xFF.
static void fold_compute(UChar32 c, fold_entry *f) {
    f->len = FOLD_NONE;
    chat_norm N = {0};
    UChar in[1] = {(UChar)c};
    if (chat_cls_table[c] & CHAT_CLS_MARK) {
        // Marks the filter always removes vanish whatever surrounds them.
        if (c != 0x0306 && is_optional_mark(c, 0) && chat_norm_u16(&N, &g_icu, in, 1) == 0) f->len = 0;
        chat_norm_free(&N);
        return;
    }
    if (!unorm2_hasBoundaryBefore(g_icu.nfc, c) || !unorm2_hasBoundaryBefore(g_icu.nfkccf, c)) return;
    int32_t len = chat_norm_u16(&N, &g_icu, in, 1);
    int ok = len >= 0;
    for (int32_t j = 0; j < len && ok; j++) {
        UChar u = N.a[j];
        if (U16_IS_SURROGATE(u) || (u >= 0x300 && u_getCombiningClass(u) != 0) || is_mark(u)) ok = 0;
        if (j == 0 && !unorm2_hasBoundaryBefore(g_icu.nfc, u)) ok = 0;
    }
    if (ok) {
        uint8_t buf[16];
        int32_t len8 = 0;
        UErrorCode err = U_ZERO_ERROR;
        u_strToUTF8((char *)buf, (int32_t)sizeof buf, &len8, N.a, len, &err);
        if (U_SUCCESS(err) && len8 <= 4) {
            memcpy(f->bytes, buf, (size_t)len8);
            f->len = (uint8_t)len8;
        }
    }
    chat_norm_free(&N);
}

// The length of c's fold entry (0...4, or FOLD_NONE and above for no fast fold), computed on
// its first use: a process pays ICU's normalisation only for the code points its texts hold
// (filling all 1,920 at start-up was a noticeable part of a CLI search's own work). Threads
// race for an entry with a compare-and-swap; one that loses while the winner computes sees
// FOLD_BUSY and takes ICU's path for this character, which gives the same result.
static uint8_t fold_len(UChar32 c) {
    fold_entry *f = &g_fold[c];
    uint8_t len = __atomic_load_n(&f->len, __ATOMIC_ACQUIRE);
    if (len != FOLD_UNKNOWN) return len;
    uint8_t expected = FOLD_UNKNOWN;
    if (!__atomic_compare_exchange_n(&f->len, &expected, FOLD_BUSY, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        return expected;
    }
    fold_entry e;
    fold_compute(c, &e);
    memcpy(f->bytes, e.bytes, sizeof e.bytes);
    __atomic_store_n(&f->len, e.len, __ATOMIC_RELEASE);
    return e.len;
}
