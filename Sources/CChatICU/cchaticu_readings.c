// Name search's transliteration from a built-in table of readings, for the scripts whose
// transliteration ICU makes character by character: a process that searches names in them
// never opens ICU's transliterator, whose registry alone costs far more than a search
// (ChatSearch's SearchPerformance article, "Name search in every script").
//
// What ICU's "Any-Latin; Latin-ASCII; Lower" does with such text, and this file with it:
// - Latin letters beyond ASCII, Cyrillic, Georgian, Hebrew and Arabic letters: each becomes
//   what it becomes on its own (the table), whatever stands around it.
// - Han ideographs: Any-Latin cuts the text into runs of one script, each with the ASCII
//   punctuation, digits and spaces around it (those before a run belong to it as well as to
//   the run before), and hands each run to its script's transliterator; Latin runs have none.
//   Han-Latin first puts a space before a letter that follows an ideograph or one of
//   `.,:;?!)]}`, and before an ideograph or one of `([{` that follows a letter, at each
//   position of a Han run (not at its end: the position after its last character belongs to
//   the next run). Then each ideograph becomes its reading as read on its own, except four
//   that read otherwise before one character, a space between them allowed (藏文 重庆 沈阳 秘鲁).
// - Latin-ASCII leaves ASCII alone, Lower lowers it.
// Text mixing ideographs with other scripts' letters, or holding anything the table lacks
// (marks, other scripts, compatibility forms), goes through ICU. TransliterationTableTests
// checks the table and this emulation against ICU.
#include "cchaticu_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>
#include <unicode/utf8.h>
#include <unicode/utrans.h>

#include "cchaticu_readings.inc"

// Readings (row index + 1) by code point: every character of the table lies in planes 0 to 3.
#define TABLE_LIMIT 0x40000
#define MAX_ROWS 4096
#define MAX_READING 15
static uint16_t *g_row;
static char g_reading[MAX_ROWS][MAX_READING + 1];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void load(void) {
    uint16_t *rows = calloc(TABLE_LIMIT, sizeof *rows);
    if (!rows) return;
    const uint8_t *p = (const uint8_t *)chat_readings;
    int32_t len = (int32_t)(sizeof chat_readings - 1), i = 0, row = 0;
    while (i < len && row < MAX_ROWS - 1) {
        int32_t n = 0;
        while (i < len && p[i] != '\t' && n < MAX_READING) g_reading[row][n++] = (char)p[i++];
        g_reading[row][n] = 0;
        if (i >= len || p[i] != '\t') break;
        i++;
        while (i < len && p[i] != '\n') {
            UChar32 c;
            U8_NEXT(p, i, len, c);
            if (c < 0) break;
            if (c < TABLE_LIMIT) rows[c] = (uint16_t)(row + 1);
        }
        i++;
        row++;
    }
    g_row = rows;
}

static const char *reading_of(int32_t c) {
    if (c < 0x80 || c >= TABLE_LIMIT || !g_row[c]) return NULL;
    return g_reading[g_row[c] - 1];
}

const char *chat_table_latin_reading(int32_t c) {
    pthread_once(&g_once, load);
    UErrorCode e = U_ZERO_ERROR;
    if (!g_row || uscript_getScript(c, &e) != USCRIPT_LATIN || U_FAILURE(e)) return NULL;
    return reading_of(c);
}

// The table's ideographs: Unicode's CJK blocks (its other letters all lie elsewhere).
static int is_ideograph(int32_t c) {
    return (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || c >= 0x20000;
}

static int is_ascii_letter(int32_t c) { return (uint32_t)((c | 0x20) - 'a') < 26u; }

int chat_table_transliterate(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen) {
    pthread_once(&g_once, load);
    if (!g_row || len <= 0) return 0;
    int32_t *cps = malloc((size_t)len * sizeof *cps);
    if (!cps) return -1;
    int32_t n = 0, ideographs = 0, others = 0;
    size_t size = 1;
    for (int32_t i = 0; i < len;) {
        UChar32 c;
        U8_NEXT(text, i, len, c);
        const char *r = c >= 0x80 ? reading_of(c) : "";
        if (c < 0 || !r) {
            free(cps);
            return 0;
        }
        if (c >= 0x80) {
            if (is_ideograph(c)) ideographs++;
            else others++;
        }
        size += strlen(r) + 2;
        cps[n++] = c;
    }
    if ((ideographs && others) || !(ideographs || others)) {
        free(cps);
        return 0;
    }
    uint8_t *inRun = calloc((size_t)n, 1);
    uint8_t *o = malloc(size);
    if (!inRun || !o) {
        free(cps);
        free(inRun);
        free(o);
        return -1;
    }
    // The positions of Han runs: from the punctuation before an ideograph to the next ASCII letter.
    for (int32_t k = 0; ideographs && k < n;) {
        int32_t h = k;
        while (h < n && cps[h] < 0x80) h++;
        if (h == n) break;
        int32_t start = h, limit = h;
        while (start > 0 && cps[start - 1] < 0x80 && !is_ascii_letter(cps[start - 1])) start--;
        while (limit < n && !is_ascii_letter(cps[limit])) limit++;
        memset(inRun + start, 1, (size_t)(limit - start));
        k = limit;
    }
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t c = cps[i];
        if (inRun[i] && i > 0) {
            int32_t prev = cps[i - 1];
            int prevLetter = prev >= 0x80 || is_ascii_letter(prev);
            int letter = c >= 0x80 || is_ascii_letter(c);
            int afterStop = prev >= 0x80 || (prev && strchr(".,:;?!)]}", (int)prev));
            int opens = c >= 0x80 || c == '(' || c == '[' || c == '{';
            if ((afterStop && letter) || (prevLetter && opens)) o[m++] = ' ';
        }
        if (c >= 0x80) {
            const char *r = reading_of(c);
            if (ideographs) {
                int32_t next = i + 1 < n ? cps[i + 1] : 0;
                if (next == ' ' && i + 2 < n) next = cps[i + 2];
                if (c == 0x85CF && next == 0x6587) r = "zang";
                else if (c == 0x91CD && next == 0x5E86) r = "chong";
                else if (c == 0x6C88 && next == 0x9633) r = "shen";
                else if (c == 0x79D8 && next == 0x9C81) r = "bi";
            }
            size_t rl = strlen(r);
            memcpy(o + m, r, rl);
            m += (int32_t)rl;
        } else {
            o[m++] = (uint8_t)((uint32_t)(c - 'A') < 26u ? c + 32 : c);
        }
    }
    o[m] = 0;
    free(cps);
    free(inRun);
    *out = o;
    *outLen = m;
    return 1;
}

// MARK: - For TransliterationTableTests

int32_t cchaticu_readings(const uint8_t **rows, int32_t *len) {
    *rows = (const uint8_t *)chat_readings;
    *len = (int32_t)(sizeof chat_readings - 1);
    return 0;
}

struct pair { const char *reading; int32_t c; };

static int by_reading(const void *a, const void *b) {
    const struct pair *x = a, *y = b;
    int r = strcmp(x->reading, y->reading);
    return r ? r : (x->c > y->c) - (x->c < y->c);
}

// Whether ICU's transliteration of `c` may come from the table: ideographs, and the letters
// of the scripts ICU transliterates character by character, without marks or compatibility
// forms (which ICU reads with their neighbours).
static int belongs(UChar32 c, const UNormalizer2 *nfkc) {
    if (u_hasBinaryProperty(c, UCHAR_IDEOGRAPHIC)) return u_charType(c) == U_OTHER_LETTER && is_ideograph(c);
    UErrorCode e = U_ZERO_ERROR;
    UScriptCode script = uscript_getScript(c, &e);
    if (U_FAILURE(e) || !u_isalpha(c) || (U_GET_GC_MASK(c) & U_GC_M_MASK)) return 0;
    if (script != USCRIPT_LATIN && script != USCRIPT_CYRILLIC && script != USCRIPT_GEORGIAN
        && script != USCRIPT_HEBREW && script != USCRIPT_ARABIC)
        return 0;
    UChar in[2], folded[8];
    int32_t inLen = 0;
    u_strFromUTF32(in, 2, &inLen, &c, 1, &e);
    int32_t n = unorm2_normalize(nfkc, in, inLen, folded, 8, &e);
    return U_SUCCESS(e) && n == inLen && memcmp(in, folded, (size_t)n * sizeof(UChar)) == 0;
}

int32_t cchaticu_readings_from_icu(uint8_t **out, int32_t *outLen) {
    *out = NULL;
    *outLen = 0;
    UErrorCode err = U_ZERO_ERROR;
    const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&err);
    UTransliterator *t = utrans_openU(u"Any-Latin; Latin-ASCII; Lower", -1, UTRANS_FORWARD, NULL, 0, NULL, &err);
    if (U_FAILURE(err)) return -1;
    char(*readings)[MAX_READING + 1] = calloc(TABLE_LIMIT, MAX_READING + 1);
    struct pair *pairs = malloc(TABLE_LIMIT * sizeof *pairs);
    int32_t n = 0;
    for (UChar32 c = 0x80; readings && pairs && c < TABLE_LIMIT; c++) {
        if (!belongs(c, nfkc)) continue;
        UChar buf[64];
        int32_t ul = 0, limit;
        UErrorCode e = U_ZERO_ERROR;
        u_strFromUTF32(buf, 64, &ul, &c, 1, &e);
        limit = ul;
        utrans_transUChars(t, buf, &ul, 64, 0, &limit, &e);
        if (U_FAILURE(e) || ul < 1 || ul > MAX_READING) continue;
        // Ideographs read as lower-case letters; other letters as printable ASCII.
        int ok = 1;
        for (int32_t k = 0; k < ul; k++) {
            ok &= is_ideograph(c) ? buf[k] >= 'a' && buf[k] <= 'z' : buf[k] >= 0x20 && buf[k] < 0x7F;
        }
        if (!ok) continue;
        for (int32_t k = 0; k < ul; k++) readings[c][k] = (char)buf[k];
        pairs[n++] = (struct pair){readings[c], c};
    }
    utrans_close(t);
    uint8_t *o = readings && pairs ? malloc((size_t)n * (MAX_READING + 6) + 1) : NULL;
    if (!o) {
        free(readings);
        free(pairs);
        return -1;
    }
    qsort(pairs, (size_t)n, sizeof *pairs, by_reading);
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        if (i == 0 || strcmp(pairs[i].reading, pairs[i - 1].reading) != 0) {
            if (i) o[m++] = '\n';
            size_t rl = strlen(pairs[i].reading);
            memcpy(o + m, pairs[i].reading, rl);
            m += (int32_t)rl;
            o[m++] = '\t';
        }
        U8_APPEND_UNSAFE(o, m, pairs[i].c);
    }
    if (n) o[m++] = '\n';
    o[m] = 0;
    free(readings);
    free(pairs);
    *out = o;
    *outLen = m;
    return 0;
}
