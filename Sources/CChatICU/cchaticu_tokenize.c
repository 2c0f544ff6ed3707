// The tokenizer: ICU word break + the token classes of the AnalyzerRules article of ChatText's documentation.
// cchaticu_tokenize and the FTS5 tokenizer both run chat_analyse.
#include "cchaticu_internal.h"
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>
#include <unicode/utf16.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define POS_MAX 32 // tokens remembered per position, for skipping colocated duplicates

struct chat_analyser {
    const chat_icu *icu;
    UBreakIterator *brk;
    UText ut;
    chat_norm norm;
    uint8_t *tok;            // scratch for composed tokens
    int32_t tokCap;
    uint8_t *keep;           // a normalised token kept while others are computed
    int32_t keepCap;
    // A chunk of a run of a script without spaces: code points, source offsets, UTF-16 form.
    UChar32 *scp;
    int32_t *soff, *su16, scap;
    UChar *ru16;
    int32_t ru16Cap;
    // Normalised forms of short clusters of runs (a character and its marks), by hash.
    struct { uint8_t inLen, outLen; UChar in[4], out[8]; } clusters[256];
    // Tokens at the current position.
    uint8_t posBuf[POS_MAX * CHAT_MAX_TOKEN];
    int32_t posLen[POS_MAX], posCount; // token k at posBuf + k * CHAT_MAX_TOKEN
    // The call in progress.
    const uint8_t *text;
    int32_t len, mode;
    void *ctx;
    cchaticu_token_fn fn;
    int32_t rc;
    // Query mode: the last unigram of a run, emitted only when another token follows.
    int pending;
    uint8_t pend[8];
    int32_t pendLen, pendS, pendE;
    int busy;
};

chat_analyser *chat_analyser_new(void) {
    const chat_icu *icu = chat_icu_get();
    if (!icu) return NULL;
    chat_analyser *A = calloc(1, sizeof *A);
    if (!A) return NULL;
    A->icu = icu;
    UErrorCode err = U_ZERO_ERROR;
    A->brk = ubrk_clone(icu->wordTemplate, &err);
    if (U_FAILURE(err) || !A->brk) { free(A); return NULL; }
    UText init = UTEXT_INITIALIZER;
    A->ut = init;
    A->norm.cache = calloc(1, sizeof *A->norm.cache); // optional
    return A;
}

void chat_analyser_free(chat_analyser *A) {
    if (!A) return;
    ubrk_close(A->brk);
    utext_close(&A->ut);
    chat_norm_free(&A->norm);
    free(A->tok);
    free(A->keep);
    free(A->scp); free(A->soff); free(A->su16);
    free(A->ru16);
    free(A);
}

// MARK: - Emitting

static void emit(chat_analyser *A, int32_t flags, const uint8_t *t, int32_t n, int32_t s, int32_t e) {
    if (A->rc) return;
    int coloc = flags & CCHATICU_TOKEN_COLOCATED;
    if (n > CHAT_MAX_TOKEN) {
        n = CHAT_MAX_TOKEN;
        while (n > 0 && (t[n] & 0xC0) == 0x80) n--;
    }
    if (n <= 0) return;
    if (coloc) {
        for (int32_t k = 0; k < A->posCount; k++)
            if (A->posLen[k] == n && memcmp(A->posBuf + k * CHAT_MAX_TOKEN, t, (size_t)n) == 0) return;
    } else {
        if (A->pending) {
            A->pending = 0;
            int32_t rc = A->fn(A->ctx, CHAT_TOKEN_NGRAM, A->pend, A->pendLen, A->pendS, A->pendE);
            if (rc) { A->rc = rc; return; }
        }
        A->posCount = 0;
    }
    if (A->posCount < POS_MAX) {
        memcpy(A->posBuf + A->posCount * CHAT_MAX_TOKEN, t, (size_t)n);
        A->posLen[A->posCount++] = n;
    }
    int32_t rc = A->fn(A->ctx, flags, t, n, s, e);
    if (rc) A->rc = rc;
}

// Normalises text[s, e) into A->norm.out; returns the length (0 when it cannot be normalised).
static int32_t norm(chat_analyser *A, int32_t s, int32_t e) {
    int32_t n = chat_norm_utf8(&A->norm, A->icu, A->text + s, e - s);
    return n < 0 ? 0 : n;
}

static int keep(chat_analyser *A, const uint8_t *t, int32_t n) {
    if (chat_grow((void **)&A->keep, &A->keepCap, n + 1, 1)) return -1;
    memcpy(A->keep, t, (size_t)n);
    return 0;
}

// MARK: - Character classes

static inline int is_separator(UChar32 c) {
    if (c < 0x80) return !((uint32_t)((c | 32) - 'a') < 26u || (uint32_t)(c - '0') < 10u);
    if (c < 0x800) return chat_cls_table[c] & CHAT_CLS_SEP;
    return chat_is_separator(c);
}

static UChar32 __attribute__((noinline)) next_cp_utf8(const uint8_t *t, int32_t *pi, int32_t n) {
    int32_t i = *pi;
    UChar32 d;
    U8_NEXT(t, i, n, d);
    *pi = i;
    return d;
}

// U8_NEXT with ASCII, two- and three-byte characters inline.
static inline UChar32 next_cp(const uint8_t *t, int32_t *pi, int32_t n) {
    int32_t i = *pi;
    uint8_t c = t[i];
    if (c < 0x80) { *pi = i + 1; return c; }
    if (c >= 0xC2 && c <= 0xDF && i + 1 < n && (t[i + 1] & 0xC0) == 0x80) {
        *pi = i + 2;
        return ((c & 0x1F) << 6) | (t[i + 1] & 0x3F);
    }
    if ((c & 0xF0) == 0xE0 && i + 2 < n && (t[i + 1] & 0xC0) == 0x80 && (t[i + 2] & 0xC0) == 0x80) {
        UChar32 d = ((c & 0x0F) << 12) | ((t[i + 1] & 0x3F) << 6) | (t[i + 2] & 0x3F);
        if (d >= 0x800 && (d < 0xD800 || d > 0xDFFF)) { // not overlong, not a surrogate
            *pi = i + 3;
            return d;
        }
    }
    return next_cp_utf8(t, pi, n);
}

static int has_word_char(const uint8_t *t, int32_t n) {
    for (int32_t i = 0; i < n;) {
        UChar32 c = next_cp(t, &i, n);
        if (c >= 0 && !is_separator(c)) return 1;
    }
    return 0;
}

// Scripts written without spaces: Han, Hiragana, Katakana, Hangul, Thai, Lao, Khmer, Myanmar.
static int is_nospace_script(UScriptCode sc) {
    switch (sc) {
    case USCRIPT_HAN: case USCRIPT_HIRAGANA: case USCRIPT_KATAKANA: case USCRIPT_HANGUL:
    case USCRIPT_THAI: case USCRIPT_LAO: case USCRIPT_KHMER: case USCRIPT_MYANMAR:
        return 1;
    default:
        return 0;
    }
}

static int is_nospace(UChar32 c) {
    if (c < 0x0E00) return 0;
    if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0x3041 && c <= 0x3096) ||
        (c >= 0x30A1 && c <= 0x30FA) || (c >= 0x0E01 && c <= 0x0E3A) || (c >= 0x3400 && c <= 0x4DBF))
        return 1;
    if (c >= 0x2000 && c <= 0x2E7F) return 0;
    if (!(U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_M_MASK | U_GC_N_MASK))) return 0;
    UErrorCode err = U_ZERO_ERROR;
    UScriptCode sc = uscript_getScript(c, &err);
    if (U_FAILURE(err)) return 0;
    if (is_nospace_script(sc)) return 1;
    if (sc != USCRIPT_COMMON && sc != USCRIPT_INHERITED) return 0;
    static const UScriptCode scripts[] = {USCRIPT_HAN, USCRIPT_HIRAGANA, USCRIPT_KATAKANA, USCRIPT_HANGUL,
                                          USCRIPT_THAI, USCRIPT_LAO, USCRIPT_KHMER, USCRIPT_MYANMAR};
    for (size_t k = 0; k < sizeof scripts / sizeof scripts[0]; k++)
        if (uscript_hasScript(c, scripts[k])) return 1;
    return 0;
}

static int is_ascii_alnum(uint8_t c) {
    return (uint32_t)((c | 32) - 'a') < 26u || (uint32_t)(c - '0') < 10u;
}

// MARK: - Words

// Emits the parts of text[s, e) between separators, co-located (only if there is a separator).
static void emit_parts(chat_analyser *A, int32_t s, int32_t e) {
    const uint8_t *t = A->text;
    int32_t ps = -1;
    int any = 0;
    for (int32_t i = s; i < e && !A->rc;) {
        int32_t cs = i;
        UChar32 c = next_cp(t, &i, e);
        if (c < 0 || is_separator(c)) {
            any = 1;
            if (ps >= 0) {
                int32_t n = norm(A, ps, cs);
                if (n && has_word_char(A->norm.out, n)) emit(A, CCHATICU_TOKEN_COLOCATED, A->norm.out, n, ps, cs);
                ps = -1;
            }
        } else if (ps < 0) ps = cs;
    }
    if (any && ps >= 0 && !A->rc) {
        int32_t n = norm(A, ps, e);
        if (n && has_word_char(A->norm.out, n)) emit(A, CCHATICU_TOKEN_COLOCATED, A->norm.out, n, ps, e);
    }
}

// process_word for an ASCII word, in one pass: normalising is lower-casing, and its parts
// are the runs of letters and digits. Returns 0 (having emitted nothing) when the word is not ASCII.
static int ascii_word(chat_analyser *A, int32_t s, int32_t e, uint8_t sigil) {
    const uint8_t *t = A->text;
    int32_t n = e - s;
    if (n + 2 > A->tokCap && chat_grow((void **)&A->tok, &A->tokCap, n + 2, 1)) return 0;
    uint8_t *w = A->tok + 1;
    uint8_t alnum = 0, sep = 0;
    for (int32_t k = 0; k < n; k++) {
        uint8_t c = t[s + k];
        if (c >= 0x80) return 0;
        uint8_t an = is_ascii_alnum(c);
        alnum |= an;
        sep |= !an;
        w[k] = (uint32_t)(c - 'A') < 26u ? c + 32 : c;
    }
    if (!alnum) return 1;
    int32_t ss = sigil ? s - 1 : s;
    A->tok[0] = sigil;
    if (A->mode == CCHATICU_MODE_QUERY) {
        if (sigil) emit(A, 0, A->tok, n + 1, ss, e);
        else emit(A, 0, w, n, s, e);
        return 1;
    }
    emit(A, 0, w, n, s, e);
    if (sigil) emit(A, CCHATICU_TOKEN_COLOCATED, A->tok, n + 1, ss, e);
    if (!sep) return 1;
    // As emit_parts: each run of letters and digits, co-located.
    for (int32_t k = 0, ps = -1; k <= n && !A->rc; k++) {
        if (k < n && is_ascii_alnum(w[k])) {
            if (ps < 0) ps = k;
        } else if (ps >= 0) {
            emit(A, CCHATICU_TOKEN_COLOCATED, w + ps, k - ps, s + ps, s + k);
            ps = -1;
        }
    }
    return 1;
}

// A word from the break iterator; `sigil` is '@' or '#' when the word is a mention or tag
// (the sigil precedes text[s]).
static void process_word(chat_analyser *A, int32_t s, int32_t e, uint8_t sigil) {
    if (ascii_word(A, s, e, sigil)) return;
    int32_t n = norm(A, s, e);
    if (!n || !has_word_char(A->norm.out, n)) return;
    int32_t ss = sigil ? s - 1 : s;
    if (sigil) {
        if (chat_grow((void **)&A->tok, &A->tokCap, n + 2, 1)) return;
        A->tok[0] = sigil;
        memcpy(A->tok + 1, A->norm.out, (size_t)n);
    }
    if (A->mode == CCHATICU_MODE_QUERY) {
        if (sigil) emit(A, 0, A->tok, n + 1, ss, e);
        else emit(A, 0, A->norm.out, n, s, e);
        return;
    }
    emit(A, 0, A->norm.out, n, s, e);
    if (sigil) emit(A, CCHATICU_TOKEN_COLOCATED, A->tok, n + 1, ss, e);
    emit_parts(A, s, e);
}

// MARK: - Emoji

static int is_emoji_segment(const uint8_t *t, int32_t n) {
    int32_t i = 0;
    UChar32 c;
    U8_NEXT(t, i, n, c);
    if (c < 0) return 0;
    if (c >= 0x1F1E6 && c <= 0x1F1FF) return 1; // regional indicators (flags)
    if (c >= 0x80 && chat_is_pictographic(c)) return 1;
    if (c == '#' || c == '*' || (c >= '0' && c <= '9')) { // keycaps
        return (n >= 4 && t[n - 3] == 0xE2 && t[n - 2] == 0x83 && t[n - 1] == 0xA3);
    }
    return 0;
}

static int is_modifier_at(const uint8_t *t, int32_t i, int32_t n) {
    return i + 4 <= n && t[i] == 0xF0 && t[i + 1] == 0x9F && t[i + 2] == 0x8F && t[i + 3] >= 0xBB && t[i + 3] <= 0xBF;
}

static int is_zwj_at(const uint8_t *t, int32_t i, int32_t n) {
    return i + 3 <= n && t[i] == 0xE2 && t[i + 1] == 0x80 && t[i + 2] == 0x8D;
}

static void process_emoji(chat_analyser *A, int32_t s, int32_t e) {
    int32_t n = norm(A, s, e);
    if (!n) return;
    emit(A, 0, A->norm.out, n, s, e);
    if (A->mode == CCHATICU_MODE_QUERY) return;
    const uint8_t *t = A->norm.out;
    int compound = 0;
    for (int32_t i = 0; i < n; i++)
        if (is_modifier_at(t, i, n) || is_zwj_at(t, i, n)) { compound = 1; break; }
    if (!compound) return;
    // The sequence without skin tones, then each component of a ZWJ sequence.
    if (chat_grow((void **)&A->tok, &A->tokCap, n + 1, 1)) return;
    int32_t m = 0;
    for (int32_t i = 0; i < n;) {
        if (is_modifier_at(t, i, n)) { i += 4; continue; }
        A->tok[m++] = t[i++];
    }
    emit(A, CCHATICU_TOKEN_COLOCATED, A->tok, m, s, e);
    int hasZwj = 0;
    for (int32_t i = 0; i < m; i++) if (is_zwj_at(A->tok, i, m)) { hasZwj = 1; break; }
    if (!hasZwj) return;
    for (int32_t i = 0, cs = 0; i <= m && !A->rc;) {
        if (i == m || is_zwj_at(A->tok, i, m)) {
            if (i > cs) emit(A, CCHATICU_TOKEN_COLOCATED, A->tok + cs, i - cs, s, e);
            if (i == m) break;
            i += 3;
            cs = i;
        } else i++;
    }
}

// MARK: - Scripts without spaces

// U8_APPEND into 4 bytes: 0 bytes for what is not a scalar value.
static inline int32_t put_utf8(uint8_t *b, UChar32 c) {
    uint32_t u = (uint32_t)c;
    if (u < 0x80) { b[0] = (uint8_t)u; return 1; }
    if (u < 0x800) { b[0] = (uint8_t)(0xC0 | (u >> 6)); b[1] = (uint8_t)(0x80 | (u & 0x3F)); return 2; }
    if (u < 0x10000) {
        if (u >= 0xD800 && u <= 0xDFFF) return 0;
        b[0] = (uint8_t)(0xE0 | (u >> 12)); b[1] = (uint8_t)(0x80 | ((u >> 6) & 0x3F));
        b[2] = (uint8_t)(0x80 | (u & 0x3F));
        return 3;
    }
    if (u > 0x10FFFF) return 0;
    b[0] = (uint8_t)(0xF0 | (u >> 18)); b[1] = (uint8_t)(0x80 | ((u >> 12) & 0x3F));
    b[2] = (uint8_t)(0x80 | ((u >> 6) & 0x3F)); b[3] = (uint8_t)(0x80 | (u & 0x3F));
    return 4;
}

// Run characters arrive one by one (after normalisation) with their source ranges. Document:
// at each character its bigram with the next one, and its unigram co-located; the last one
// alone. Query: the bigrams; the last unigram waits in `pending` and is emitted only when
// another token follows, so what follows stays aligned with the document's positions.
typedef struct {
    int32_t count;
    uint8_t prev[4]; // UTF-8 of the previous character
    int32_t prevLen, prevS, prevE;
} run_state;

static void run_feed(chat_analyser *A, run_state *R, UChar32 c, int32_t s, int32_t e) {
    uint8_t b[8];
    memcpy(b, R->prev, 4);
    int32_t n1 = R->prevLen;
    int32_t n = put_utf8(b + n1, c);
    if (R->count > 0) {
        emit(A, CHAT_TOKEN_NGRAM, b, n1 + n, R->prevS, e);
        if (A->mode == CCHATICU_MODE_DOCUMENT) emit(A, CCHATICU_TOKEN_COLOCATED | CHAT_TOKEN_NGRAM, b, n1, R->prevS, R->prevE);
    }
    R->count++;
    memcpy(R->prev, b + n1, 4);
    R->prevLen = n;
    R->prevS = s;
    R->prevE = e;
}

static void run_finish(chat_analyser *A, run_state *R) {
    if (R->count == 0 || A->rc) return;
    const uint8_t *b = R->prev;
    int32_t n = R->prevLen;
    if (A->mode == CCHATICU_MODE_DOCUMENT || R->count == 1) {
        emit(A, CHAT_TOKEN_NGRAM, b, n, R->prevS, R->prevE);
        return;
    }
    A->pending = 1;
    memcpy(A->pend, b, (size_t)n);
    A->pendLen = n;
    A->pendS = R->prevS;
    A->pendE = R->prevE;
}

// What runs need to know of a character, per BMP code point, filled on first use (threads
// computing the same entry write the same value):
// RUN_SELF: it starts a normalisation segment and normalises to itself on its own, so that in
// a run it needs no ICU call; RUN_KEEPS: chat_filter_keeps.
enum { RUN_KNOWN = 1, RUN_SELF = 2, RUN_KEEPS = 4 };
static _Atomic uint8_t g_runInfo[0x10000];

static uint8_t __attribute__((noinline)) run_info_of(chat_analyser *A, UChar32 c) {
    uint8_t v = RUN_KNOWN;
    if (c < 0) return v;
    if (chat_filter_keeps(c)) v |= RUN_KEEPS;
    if (c < 0x10000) {
        UChar u = (UChar)c;
        int32_t l = chat_norm_u16(&A->norm, A->icu, &u, 1);
        if (l == 1 && A->norm.a[0] == u && unorm2_hasBoundaryBefore(A->icu->nfkccf, c)) v |= RUN_SELF;
        atomic_store_explicit(&g_runInfo[c], v, memory_order_relaxed);
    }
    return v;
}

static inline uint8_t run_info(chat_analyser *A, UChar32 c) {
    if (c >= 0 && c < 0x10000) {
        uint8_t v = atomic_load_explicit(&g_runInfo[c], memory_order_relaxed);
        if (v) return v;
    }
    return run_info_of(A, c);
}

// chat_norm_u16 of a cluster, remembered when short (Thai and Indic syllables recur): returns
// the length of the result, left in *out.
static int32_t cluster_norm(chat_analyser *A, const UChar *in, int32_t n, const UChar **out) {
    uint32_t h = 0;
    if (n <= 4) {
        for (int32_t k = 0; k < n; k++) h = (h ^ in[k]) * 0x9E3779B1u;
        h >>= 24;
        if (A->clusters[h].inLen == n && memcmp(A->clusters[h].in, in, (size_t)n * sizeof(UChar)) == 0) {
            *out = A->clusters[h].out;
            return A->clusters[h].outLen;
        }
    }
    int32_t l = chat_norm_u16(&A->norm, A->icu, in, n);
    *out = A->norm.a;
    if (n <= 4 && l >= 0 && l <= 8) {
        A->clusters[h].inLen = (uint8_t)n;
        A->clusters[h].outLen = (uint8_t)l;
        memcpy(A->clusters[h].in, in, (size_t)n * sizeof(UChar));
        memcpy(A->clusters[h].out, A->norm.a, (size_t)l * sizeof(UChar));
    }
    return l;
}

// Normalises text[s, e) (part of a run, cut at a normalisation boundary) and feeds its characters.
static void run_chunk(chat_analyser *A, run_state *R, int32_t s, int32_t e) {
    const uint8_t *t = A->text;
    int32_t k = 0, u = 0;
    int allSelf = 1, allKeep = 1;
    // At most one character and one UTF-16 unit per byte.
    int32_t need = e - s + 2;
    if (need > A->scap) {
        int32_t c1 = A->scap, c2 = A->scap, c3 = A->scap;
        if (chat_grow((void **)&A->scp, &c1, need, sizeof(UChar32)) ||
            chat_grow((void **)&A->soff, &c2, need, sizeof(int32_t)) ||
            chat_grow((void **)&A->su16, &c3, need, sizeof(int32_t)))
            return;
        A->scap = c1 < c2 ? (c1 < c3 ? c1 : c3) : (c2 < c3 ? c2 : c3);
    }
    if (chat_grow((void **)&A->ru16, &A->ru16Cap, e - s + 3, sizeof(UChar))) return;
    for (int32_t i = s; i < e;) {
        A->soff[k] = i;
        A->su16[k] = u;
        UChar32 c = next_cp(t, &i, e);
        if (c < 0) c = 0xFFFD;
        uint8_t info = run_info(A, c);
        allSelf &= (info & RUN_SELF) != 0;
        allKeep &= (info & RUN_KEEPS) != 0;
        A->scp[k++] = c;
        U16_APPEND_UNSAFE(A->ru16, u, c);
    }
    A->soff[k] = e;
    A->su16[k] = u;
    // Every character its own segment and unchanged: both ways below feed them as they are.
    if (allSelf) {
        for (int32_t j = 0; j < k && !A->rc; j++) run_feed(A, R, A->scp[j], A->soff[j], A->soff[j + 1]);
        return;
    }
    // Normalise the whole chunk; when that changes it, normalise cluster by cluster so each
    // output character keeps the source range it came from. A chunk that passes the quick
    // checks of NFKC_Casefold and NFD, with no character the mark filter changes, is unchanged.
    int same = allKeep;
    if (same) {
        UErrorCode err = U_ZERO_ERROR;
        same = unorm2_spanQuickCheckYes(A->icu->nfkccf, A->ru16, u, &err) == u &&
               unorm2_spanQuickCheckYes(A->icu->nfd, A->ru16, u, &err) == u && U_SUCCESS(err);
    }
    if (!same) {
        int32_t len = chat_norm_u16(&A->norm, A->icu, A->ru16, u);
        same = len == u && memcmp(A->norm.a, A->ru16, (size_t)u * sizeof(UChar)) == 0;
    }
    if (same) {
        for (int32_t j = 0; j < k && !A->rc; j++) run_feed(A, R, A->scp[j], A->soff[j], A->soff[j + 1]);
        return;
    }
    for (int32_t j = 0; j < k && !A->rc;) {
        int32_t j2 = j + 1;
        while (j2 < k && !unorm2_hasBoundaryBefore(A->icu->nfkccf, A->scp[j2])) j2++;
        if (j2 == j + 1 && (run_info(A, A->scp[j]) & RUN_SELF)) {
            run_feed(A, R, A->scp[j], A->soff[j], A->soff[j2]);
            j = j2;
            continue;
        }
        const UChar *in = A->ru16 + A->su16[j];
        int32_t inLen = A->su16[j2] - A->su16[j];
        const UChar *out;
        int32_t l = cluster_norm(A, in, inLen, &out);
        for (int32_t q = 0; q < l && !A->rc;) {
            UChar32 c;
            U16_NEXT(out, q, l, c);
            run_feed(A, R, c, A->soff[j], A->soff[j2]);
        }
        j = j2;
    }
}

#ifndef RUN_CHUNK
#define RUN_CHUNK 4096 // bytes of a run normalised at once
#endif

static void process_run(chat_analyser *A, int32_t s, int32_t e) {
    run_state R = {0};
    const uint8_t *t = A->text;
    while (s < e && !A->rc) {
        int32_t ce = e;
        if (e - s > RUN_CHUNK) {
            // Cut before a character that starts a normalisation segment.
            ce = s + RUN_CHUNK;
            while (ce < e && (t[ce] & 0xC0) == 0x80) ce++;
            while (ce < e) {
                int32_t k = ce;
                UChar32 c;
                U8_NEXT(t, k, e, c);
                if (c >= 0 && unorm2_hasBoundaryBefore(A->icu->nfkccf, c)) break;
                ce = k;
            }
        }
        run_chunk(A, &R, s, ce);
        s = ce;
    }
    run_finish(A, &R);
}

// MARK: - Regions

// Word-break classes (UAX #29 as tailored by ICU's root rules, where '@' is a letter and ':'
// is not a mid-letter) of the characters our own word breaker handles; WB_UNSAFE for the
// others, whose pieces of text go to ICU.
enum { WB_OTHER = 0, WB_LETTER, WB_NUMERIC, WB_EXTEND_NUM_LET, WB_MID_NUM_LET, WB_MID_NUM, WB_EXTEND, WB_UNSAFE };

// The class of each ASCII byte (WB_OTHER = 0 for those not listed).
static const uint8_t g_asciiClass[128] = {
    ['\''] = WB_MID_NUM_LET, [','] = WB_MID_NUM, ['.'] = WB_MID_NUM_LET,
    ['0'] = WB_NUMERIC, ['1'] = WB_NUMERIC, ['2'] = WB_NUMERIC, ['3'] = WB_NUMERIC, ['4'] = WB_NUMERIC,
    ['5'] = WB_NUMERIC, ['6'] = WB_NUMERIC, ['7'] = WB_NUMERIC, ['8'] = WB_NUMERIC, ['9'] = WB_NUMERIC,
    [';'] = WB_MID_NUM, ['@'] = WB_LETTER,
    ['A'] = WB_LETTER, ['B'] = WB_LETTER, ['C'] = WB_LETTER, ['D'] = WB_LETTER, ['E'] = WB_LETTER,
    ['F'] = WB_LETTER, ['G'] = WB_LETTER, ['H'] = WB_LETTER, ['I'] = WB_LETTER, ['J'] = WB_LETTER,
    ['K'] = WB_LETTER, ['L'] = WB_LETTER, ['M'] = WB_LETTER, ['N'] = WB_LETTER, ['O'] = WB_LETTER,
    ['P'] = WB_LETTER, ['Q'] = WB_LETTER, ['R'] = WB_LETTER, ['S'] = WB_LETTER, ['T'] = WB_LETTER,
    ['U'] = WB_LETTER, ['V'] = WB_LETTER, ['W'] = WB_LETTER, ['X'] = WB_LETTER, ['Y'] = WB_LETTER,
    ['Z'] = WB_LETTER, ['_'] = WB_EXTEND_NUM_LET,
    ['a'] = WB_LETTER, ['b'] = WB_LETTER, ['c'] = WB_LETTER, ['d'] = WB_LETTER, ['e'] = WB_LETTER,
    ['f'] = WB_LETTER, ['g'] = WB_LETTER, ['h'] = WB_LETTER, ['i'] = WB_LETTER, ['j'] = WB_LETTER,
    ['k'] = WB_LETTER, ['l'] = WB_LETTER, ['m'] = WB_LETTER, ['n'] = WB_LETTER, ['o'] = WB_LETTER,
    ['p'] = WB_LETTER, ['q'] = WB_LETTER, ['r'] = WB_LETTER, ['s'] = WB_LETTER, ['t'] = WB_LETTER,
    ['u'] = WB_LETTER, ['v'] = WB_LETTER, ['w'] = WB_LETTER, ['x'] = WB_LETTER, ['y'] = WB_LETTER,
    ['z'] = WB_LETTER,
};

// The class of the character at text[i] (i < b); *next is the offset after it. Beyond ASCII
// only letters, digits, extending and format marks and plain "other" characters are ours:
// emoji, ZWJ, regional indicators, Hebrew letters, quotes and non-ASCII mid-word punctuation,
// spaces, ideographs and scripts of complex context are ICU's.
static uint8_t wb_class_of(UChar32 c) {
    if (c < 0 || chat_is_pictographic(c) || u_hasBinaryProperty(c, UCHAR_EXTENDED_PICTOGRAPHIC) ||
        u_hasBinaryProperty(c, UCHAR_IDEOGRAPHIC) || u_getIntPropertyValue(c, UCHAR_LINE_BREAK) == U_LB_COMPLEX_CONTEXT)
        return WB_UNSAFE;
    switch (u_getIntPropertyValue(c, UCHAR_WORD_BREAK)) {
    case U_WB_ALETTER: return WB_LETTER;
    case U_WB_NUMERIC: return WB_NUMERIC;
    case U_WB_EXTEND: case U_WB_FORMAT: return WB_EXTEND;
    case U_WB_OTHER: return WB_OTHER;
    default: return WB_UNSAFE;
    }
}

// wb_class_of for the BMP, filled a block of 256 code points at a time on first use (ICU's
// property lookups cost more than the word breaking itself). Threads filling the same block
// write the same bytes; the flag is published after them.
static uint8_t g_wbClass[0x10000];
static _Atomic uint8_t g_wbBlockReady[0x100];

static void __attribute__((noinline)) wb_fill_block(int32_t block) {
    for (int32_t k = 0; k < 0x100; k++) g_wbClass[(block << 8) | k] = wb_class_of((block << 8) | k);
    atomic_store_explicit(&g_wbBlockReady[block], 1, memory_order_release);
}

static inline uint8_t wb_class_bmp(UChar32 c) {
    int32_t block = c >> 8;
    if (!atomic_load_explicit(&g_wbBlockReady[block], memory_order_acquire)) wb_fill_block(block);
    return g_wbClass[c];
}

// wb_class beyond ASCII, out of line so that the ASCII case inlines into the loops.
static uint8_t __attribute__((noinline)) wb_class_utf8(const uint8_t *t, int32_t i, int32_t b, int32_t *next) {
    UChar32 c;
    U8_NEXT(t, i, b, c);
    *next = i;
    if (c < 0) return WB_UNSAFE;
    return c < 0x10000 ? wb_class_bmp(c) : wb_class_of(c);
}

static inline uint8_t wb_class(const uint8_t *t, int32_t i, int32_t b, int32_t *next) {
    uint8_t c = t[i];
    if (c < 0x80) { *next = i + 1; return g_asciiClass[c]; }
    if (c >= 0xC2 && c <= 0xDF && i + 1 < b && (t[i + 1] & 0xC0) == 0x80) { // U+0080..U+07FF
        *next = i + 2;
        return wb_class_bmp(((c & 0x1F) << 6) | (t[i + 1] & 0x3F));
    }
    return wb_class_utf8(t, i, b, next);
}

static void process_segment(chat_analyser *A, int32_t as, int32_t ae, int isWord, int32_t *hashAt, int32_t *lastWordEnd) {
    const uint8_t *t = A->text;
    if (!isWord) {
        if (ae - as == 1 && t[as] == '#') {
            if (as != *lastWordEnd) *hashAt = as;
        } else if (t[as] >= 0x80 || t[as] == '#' || t[as] == '*') {
            if (is_emoji_segment(t + as, ae - as)) process_emoji(A, as, ae);
        }
        return;
    }
    if (t[as] < 0x3A && is_emoji_segment(t + as, ae - as)) { process_emoji(A, as, ae); return; }
    uint8_t sigil = 0;
    int32_t ws = as;
    if (t[as] == '@' && ae - as > 1) { sigil = '@'; ws++; }
    else if (*hashAt >= 0 && *hashAt + 1 == as) sigil = '#';
    process_word(A, ws, ae, sigil);
    *lastWordEnd = ae;
}

// The word-break rules without ICU, for text whose pieces are all plain (piece_end): the same
// segments as ubrk, several times faster.
static void plain_words(chat_analyser *A, int32_t a, int32_t b) {
    const uint8_t *t = A->text;
    int32_t hashAt = -1, lastWordEnd = -1;
    for (int32_t i = a, next; i < b && !A->rc;) {
        uint8_t c = wb_class(t, i, b, &next);
        if (c != WB_LETTER && c != WB_NUMERIC && c != WB_EXTEND_NUM_LET) {
            // One character and the extending marks after it (a lone run of marks at the start).
            int32_t j = next, k;
            while (j < b && wb_class(t, j, b, &k) == WB_EXTEND) j = k;
            // (process_segment ignores ASCII non-words other than '#' and '*'.)
            if (t[i] >= 0x80 || t[i] == '#' || t[i] == '*') process_segment(A, i, j, 0, &hashAt, &lastWordEnd);
            i = j;
            continue;
        }
        int32_t j = next;
        uint8_t prev = c;
        while (j < b) {
            int32_t k;
            uint8_t n = wb_class(t, j, b, &k);
            if (n == WB_EXTEND) { j = k; continue; }
            if (n == WB_LETTER || n == WB_NUMERIC || n == WB_EXTEND_NUM_LET) { prev = n; j = k; continue; }
            if ((n == WB_MID_NUM_LET || n == WB_MID_NUM) && k < b && (prev == WB_LETTER || prev == WB_NUMERIC)) {
                int32_t k2;
                uint8_t n2 = wb_class(t, k, b, &k2);
                if (n2 == prev && (n == WB_MID_NUM_LET || prev == WB_NUMERIC)) { j = k2; continue; }
            }
            break;
        }
        // ICU gives a lone '_' the status of a non-word.
        process_segment(A, i, j, !(j == i + 1 && t[i] == '_'), &hashAt, &lastWordEnd);
        i = j;
    }
}


// The end of the piece starting at text[i] (up to ASCII white space) and, in *plain, whether
// our word breaker gives it the same segments as ICU: no unsafe character, no extending mark
// right after mid-word punctuation (where UAX #29 looks through the mark) or after '_' (where
// ICU 72 gives the whole word the status of a non-word).
static int32_t piece_end(const uint8_t *t, int32_t i, int32_t b, int *plain) {
    uint8_t prev = WB_OTHER;
    while (i < b) {
        uint8_t c;
        if (t[i] < 0x80) {
            if (chat_is_ascii_space(t[i])) break;
            c = g_asciiClass[t[i++]];
        } else {
            c = wb_class(t, i, b, &i);
            if (c == WB_UNSAFE) goto unsafe;
        }
        if (c == WB_EXTEND && (prev == WB_MID_NUM_LET || prev == WB_MID_NUM || prev == WB_EXTEND_NUM_LET)) goto unsafe;
        prev = c;
    }
    *plain = 1;
    return i;
unsafe:
    while (i < b && !chat_is_ascii_space(t[i])) i++;
    *plain = 0;
    return i;
}

// ICU's word-break iterator over text[a, b).
static void icu_words(chat_analyser *A, int32_t a, int32_t b) {
    const uint8_t *t = A->text;
    UErrorCode err = U_ZERO_ERROR;
    utext_openUTF8(&A->ut, (const char *)t + a, b - a, &err);
    ubrk_setUText(A->brk, &A->ut, &err);
    if (U_FAILURE(err)) return;
    int32_t s = ubrk_first(A->brk), e;
    int32_t hashAt = -1, lastWordEnd = -1;
    while (!A->rc && (e = ubrk_next(A->brk)) != UBRK_DONE) {
        int isWord = ubrk_getRuleStatus(A->brk) >= UBRK_WORD_NONE_LIMIT;
        process_segment(A, a + s, a + e, isWord, &hashAt, &lastWordEnd);
        s = e;
    }
}

// Word segments of text[a, b), which holds no character of a script without spaces (and
// only ASCII when `ascii` is set).
static void process_words(chat_analyser *A, int32_t a, int32_t b, int ascii) {
    const uint8_t *t = A->text;
    int32_t i = a;
    while (i < b && t[i] < 0x80 && !is_ascii_alnum(t[i]) && t[i] != '#' && t[i] != '@' && t[i] != '_') i++;
    if (i == b) return;
    if (ascii) { // every piece is ASCII, so one span for our word breaker
        plain_words(A, a, b);
        return;
    }
    // ASCII white space is a word boundary on both sides (UAX #29 joins nothing across it, and
    // the '#' sigil needs its word right after it), so the text splits there into spans of
    // pieces our own word breaker handles and spans of pieces given to ICU.
    int32_t spanStart = a, spanPlain = -1;
    i = a;
    while (i < b && !A->rc) {
        int plain;
        int32_t p = piece_end(t, i, b, &plain);
        int32_t q = p;
        while (q < b && chat_is_ascii_space(t[q])) q++;
        if (spanPlain >= 0 && plain != spanPlain) {
            if (spanPlain) plain_words(A, spanStart, i); else icu_words(A, spanStart, i);
            spanStart = i;
        }
        spanPlain = plain;
        i = q;
    }
    if (!A->rc && spanPlain >= 0) {
        if (spanPlain) plain_words(A, spanStart, b); else icu_words(A, spanStart, b);
    }
}

// Whether the 8 bytes at p are all ASCII.
static inline int ascii8(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return !(v & 0x8080808080808080ull);
}

// Splits text[a, b) into runs of scripts without spaces and the text between them.
static void process_region(chat_analyser *A, int32_t a, int32_t b) {
    const uint8_t *t = A->text;
    int32_t i = a, seg = a;
    int ascii = 1; // text[seg, i) is ASCII
    while (i < b && !A->rc) {
        while (i + 8 <= b && ascii8(t + i)) i += 8;
        if (i == b) break;
        if (t[i] < 0x80) { i++; continue; }
        int32_t cs = i;
        UChar32 c = next_cp(t, &i, b);
        if (c < 0 || !is_nospace(c)) { ascii = 0; continue; }
        int32_t re = i;
        while (re < b && t[re] >= 0x80) {
            int32_t k = re;
            UChar32 d = next_cp(t, &k, b);
            if (d < 0 || !is_nospace(d)) break;
            re = k;
        }
        process_words(A, seg, cs, ascii);
        if (!A->rc) process_run(A, cs, re);
        seg = i = re;
        ascii = 1;
    }
    if (!A->rc) process_words(A, seg, b, ascii);
}

// MARK: - URLs and e-mail addresses

static int is_space_or_stop(const uint8_t *t, int32_t i, int32_t len, int32_t *next) {
    uint8_t c = t[i];
    if (c < 0x80) {
        *next = i + 1;
        return c <= 0x20 || c == 0x7F || c == '<' || c == '>' || c == '"' || c == '`';
    }
    UChar32 d;
    U8_NEXT(t, i, len, d);
    *next = i;
    return d < 0 || !(U_GET_GC_MASK(d) & (U_GC_L_MASK | U_GC_M_MASK | U_GC_N_MASK));
}

// End of a URL starting at i: up to whitespace, without trailing punctuation.
static int32_t url_end(const uint8_t *t, int32_t i, int32_t len) {
    int32_t j = i, opens = 0;
    while (j < len) {
        int32_t nx;
        if (is_space_or_stop(t, j, len, &nx)) break;
        if (t[j] == '(') opens++;
        j = nx;
    }
    while (j > i) {
        uint8_t c = t[j - 1];
        if (c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == '\'' || c == '*' ||
            c == '_' || c == ']' || c == '}' || (c == ')' && !opens)) {
            j--;
            continue;
        }
        break;
    }
    return j;
}

static int is_host_byte(uint8_t c) { return is_ascii_alnum(c) || c == '-' || c == '.' || c >= 0x80; }

static int is_local_byte(uint8_t c) {
    return is_ascii_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-';
}

enum { SPAN_URL = 1, SPAN_WWW = 2, SPAN_EMAIL = 3 };

// Whether any of the 8 bytes at p is ':', '@', 'w' or 'W' (or may be: exact for "none").
static inline int may_be_special8(const uint8_t *p) {
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t v;
    memcpy(&v, p, 8);
    uint64_t a = v ^ (ones * ':'), b = v ^ (ones * '@'), c = (v | (ones * 0x20)) ^ (ones * 'w');
    return (((a - ones) & ~a) | ((b - ones) & ~b) | ((c - ones) & ~c)) & highs ? 1 : 0;
}

// Finds the next URL or e-mail address in text[from, len): returns its kind (0 when none).
static int find_special(const uint8_t *t, int32_t from, int32_t len, int32_t *ps, int32_t *pe, int32_t *pmid) {
    for (int32_t i = from; i < len; i++) {
        // Only ':', 'w', 'W' and '@' can start one: skip 8 bytes at a time while none is there.
        while (i + 8 <= len && !may_be_special8(t + i)) i += 8;
        if (i == len) break;
        uint8_t c = t[i];
        if (c == ':') {
            if (i + 3 >= len || t[i + 1] != '/' || t[i + 2] != '/' || !is_host_byte(t[i + 3]) || t[i + 3] == '.') continue;
            int32_t j = i;
            while (j > from && i - j < 32 && (is_ascii_alnum(t[j - 1]) || t[j - 1] == '+' || t[j - 1] == '.' || t[j - 1] == '-')) j--;
            while (j < i && !((uint32_t)((t[j] | 32) - 'a') < 26u)) j++;
            if (j == i) continue;
            int32_t e = url_end(t, i + 3, len);
            if (e <= i + 3) continue;
            *ps = j; *pmid = i; *pe = e;
            return SPAN_URL;
        }
        if ((c | 32) == 'w') {
            if (i + 4 >= len || (t[i + 1] | 32) != 'w' || (t[i + 2] | 32) != 'w' || t[i + 3] != '.') continue;
            if (i > from && (is_ascii_alnum(t[i - 1]) || t[i - 1] >= 0x80 || t[i - 1] == '.' || t[i - 1] == '/')) continue;
            if (!is_host_byte(t[i + 4]) || t[i + 4] == '.' || t[i + 4] == '-') continue;
            int32_t e = url_end(t, i, len);
            *ps = i; *pmid = i; *pe = e;
            return SPAN_WWW;
        }
        if (c == '@') {
            int32_t ls = i;
            while (ls > from && i - ls < 64 && is_local_byte(t[ls - 1])) ls--;
            while (ls < i && t[ls] == '.') ls++;
            if (ls == i) continue;
            int32_t de = i + 1;
            while (de < len && de - i <= 253 && (is_ascii_alnum(t[de]) || t[de] == '-' || t[de] == '.')) de++;
            while (de > i + 1 && (t[de - 1] == '.' || t[de - 1] == '-')) de--;
            if (de == i + 1 || !is_ascii_alnum(t[i + 1])) continue;
            int32_t lastDot = -1;
            for (int32_t k = i + 1; k < de; k++) if (t[k] == '.') lastDot = k;
            if (lastDot < 0 || de - lastDot - 1 < 2) continue;
            int tldAlpha = 1;
            for (int32_t k = lastDot + 1; k < de; k++) if (!((uint32_t)((t[k] | 32) - 'a') < 26u)) tldAlpha = 0;
            if (!tldAlpha) continue;
            *ps = ls; *pmid = i; *pe = de;
            return SPAN_EMAIL;
        }
    }
    return 0;
}

// Emits a host name (non-co-located when `first`), then in document mode its shorter
// suffixes and its labels (not the top-level domain, not "www"), co-located.
static void process_host(chat_analyser *A, int32_t hs, int32_t he, int first) {
    while (he > hs && A->text[he - 1] == '.') he--;
    if (he <= hs) return;
    int32_t n = norm(A, hs, he);
    if (!n) return;
    emit(A, first ? 0 : CCHATICU_TOKEN_COLOCATED, A->norm.out, n, hs, he);
    if (A->mode == CCHATICU_MODE_QUERY || A->rc) return;
    if (keep(A, A->norm.out, n)) return;
    const uint8_t *h = A->keep;
    int same = n == he - hs; // byte offsets of the normalised host match the source (ASCII host)
    for (int32_t k = 0; k < n && same; k++) if (h[k] >= 0x80) same = 0;
    int32_t lastDot = -1;
    for (int32_t k = 0; k < n; k++) if (h[k] == '.') lastDot = k;
    if (lastDot < 0 || lastDot == n - 1) return;
    if (h[lastDot + 1] >= '0' && h[lastDot + 1] <= '9') return; // an IP address
    for (int32_t k = 0; k < lastDot && !A->rc; k++) {
        if (h[k] != '.') continue;
        emit(A, CCHATICU_TOKEN_COLOCATED, h + k + 1, n - k - 1, same ? hs + k + 1 : hs, he);
    }
    for (int32_t k = 0, ls = 0; k <= lastDot && !A->rc; k++) {
        if (h[k] != '.') continue;
        if (k > ls && !(k - ls == 3 && memcmp(h + ls, "www", 3) == 0) && has_word_char(h + ls, k - ls))
            emit(A, CCHATICU_TOKEN_COLOCATED, h + ls, k - ls, same ? hs + ls : hs, same ? hs + k : he);
        ls = k + 1;
    }
}

static void process_url(chat_analyser *A, int32_t s, int32_t mid, int32_t e, int kind) {
    const uint8_t *t = A->text;
    int32_t p = s;
    if (kind == SPAN_URL) {
        int32_t n = norm(A, s, mid);
        if (n) emit(A, 0, A->norm.out, n, s, mid);
        p = mid + 3;
    }
    int32_t ae = p;
    while (ae < e && t[ae] != '/' && t[ae] != '?' && t[ae] != '#') ae++;
    int32_t hs = p, he = ae;
    for (int32_t k = p; k < ae; k++) if (t[k] == '@') hs = k + 1;
    if (hs > p) process_region(A, p, hs - 1); // user info
    if (hs < he && t[hs] == '[') { // IPv6 literal
        int32_t k = hs;
        while (k < he && t[k] != ']') k++;
        he = k < he ? k + 1 : he;
    } else {
        for (int32_t k = hs; k < he; k++) if (t[k] == ':') { he = k; break; }
    }
    if (A->rc) return;
    process_host(A, hs, he, 1);
    if (!A->rc && he < e) process_region(A, he, e);
}

static void process_email(chat_analyser *A, int32_t s, int32_t at, int32_t e) {
    int32_t n = norm(A, s, e);
    if (!n) return;
    emit(A, 0, A->norm.out, n, s, e);
    if (A->mode == CCHATICU_MODE_QUERY || A->rc) return;
    n = norm(A, s, at);
    if (n) emit(A, CCHATICU_TOKEN_COLOCATED, A->norm.out, n, s, at);
    emit_parts(A, s, at);
    if (!A->rc) process_host(A, at + 1, e, 0);
}

// MARK: - Entry points

#define KEEP_BYTES (1 << 18) // larger scratch buffers are released after each call

static void trim(void **p, int32_t *cap, size_t size) {
    if ((size_t)*cap * size <= KEEP_BYTES) return;
    free(*p);
    *p = NULL;
    *cap = 0;
}

// A huge message must not leave a huge analyser behind (one lives per thread or table).
static void trim_buffers(chat_analyser *A) {
    trim((void **)&A->norm.a, &A->norm.acap, sizeof(UChar));
    trim((void **)&A->norm.b, &A->norm.bcap, sizeof(UChar));
    trim((void **)&A->norm.in, &A->norm.inCap, sizeof(UChar));
    trim((void **)&A->norm.out, &A->norm.outCap, 1);
    trim((void **)&A->tok, &A->tokCap, 1);
    trim((void **)&A->keep, &A->keepCap, 1);
    trim((void **)&A->ru16, &A->ru16Cap, sizeof(UChar));
    if ((size_t)A->scap * sizeof(int32_t) > KEEP_BYTES) {
        free(A->scp); free(A->soff); free(A->su16);
        A->scp = NULL; A->soff = NULL; A->su16 = NULL;
        A->scap = 0;
    }
}

int32_t chat_analyse(chat_analyser *A, const uint8_t *text, int32_t len, int32_t mode, void *ctx,
                     cchaticu_token_fn fn) {
    if (!A || len < 0 || (!text && len)) return -1;
    A->text = text;
    A->len = len;
    A->mode = mode == CCHATICU_MODE_QUERY ? CCHATICU_MODE_QUERY : CCHATICU_MODE_DOCUMENT;
    A->ctx = ctx;
    A->fn = fn;
    A->rc = 0;
    A->pending = 0;
    A->posCount = 0;
    if (A->mode == CCHATICU_MODE_QUERY && len > 1 && text[0] == CCHATICU_VERBATIM) {
        // A term of the index vocabulary, quoted by the query compiler: it is one token as it
        // stands (re-analysed, `mple.x1.com` would break into `mple.x1` and `com`).
        emit(A, 0, text + 1, len - 1, 1, len);
        A->text = NULL;
        return A->rc;
    }
    int32_t pos = 0;
    while (pos < len && !A->rc) {
        int32_t s, mid, e;
        int kind = find_special(text, pos, len, &s, &e, &mid);
        if (!kind) break;
        process_region(A, pos, s);
        if (A->rc) break;
        if (kind == SPAN_EMAIL) process_email(A, s, mid, e);
        else process_url(A, s, mid, e, kind);
        pos = e;
    }
    if (!A->rc && pos < len) process_region(A, pos, len);
    A->pending = 0;
    A->text = NULL;
    trim_buffers(A);
    return A->rc;
}

// One analyser per thread for cchaticu_tokenize, freed when the thread exits.
static pthread_key_t g_key;
static pthread_once_t g_keyOnce = PTHREAD_ONCE_INIT;
static int g_keyOK;

static void free_analyser(void *p) { chat_analyser_free(p); }
static void make_key(void) { g_keyOK = pthread_key_create(&g_key, free_analyser) == 0; }

typedef struct {
    void *ctx;
    cchaticu_token_fn fn;
} public_ctx;

static int32_t public_cb(void *c, int32_t flags, const uint8_t *t, int32_t n, int32_t s, int32_t e) {
    public_ctx *pc = c;
    return pc->fn(pc->ctx, flags & CCHATICU_TOKEN_COLOCATED, t, n, s, e);
}

int32_t chat_analyse_on_thread(const uint8_t *text, int32_t len, int32_t mode, void *ctx, cchaticu_token_fn fn) {
    pthread_once(&g_keyOnce, make_key);
    chat_analyser *A = g_keyOK ? pthread_getspecific(g_key) : NULL;
    int temporary = 0;
    if (!A || A->busy) {
        A = chat_analyser_new();
        if (!A) return -1;
        if (g_keyOK && !pthread_getspecific(g_key)) pthread_setspecific(g_key, A);
        else temporary = 1;
    }
    A->busy = 1;
    int32_t rc = chat_analyse(A, text, len, mode, ctx, fn);
    A->busy = 0;
    if (temporary) chat_analyser_free(A);
    return rc;
}

int32_t cchaticu_tokenize(const uint8_t *text, int32_t len, int32_t mode, void *ctx, cchaticu_token_fn fn) {
    if (!fn) return -1;
    public_ctx pc = {ctx, fn};
    return chat_analyse_on_thread(text, len, mode, &pc, public_cb);
}
