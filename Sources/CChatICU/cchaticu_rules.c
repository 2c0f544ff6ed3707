// Name search's transliteration of the scripts ICU transliterates in context (Greek, Armenian,
// Hangul, kana, Indic scripts, Thai), without ICU's registry of transliterators: building that
// registry costs a process far more than its search (ChatSearch's SearchPerformance article,
// "Name search in every script"). ICU's chain for each script is embedded as a program
// (cchaticu_rules.inc): normalisation steps, rule texts that ICU opens from rules (which needs no
// registry), and the filters of the compound transliterators that hold them.
//
// What ICU does with such a chain, and this file with it:
// - "Any-Latin" hands a text of one script, with the characters of no script around it, whole
//   to the script's transliterator; "Latin-ASCII" and "Lower" (root case mapping) follow.
// - A compound transliterator runs each step over the whole text; with a filter, it cuts the
//   text into runs of the characters its filter holds and runs every step on each run in turn,
//   the characters around the run being context that no step changes. Here each run is
//   transliterated on its own, which gives ICU's answer when the rules cannot tell the
//   characters between runs from the text's ends: the generator lists, for each filtered
//   compound, the characters for which this holds (every context element either holds the
//   character and the end of text alike, at the outer end of its context, or neither), and
//   text with any other character between runs goes through ICU.
// - A rule-based step with a filter of its own runs through ICU's filtered transliteration.
// - Any-BreakInternal (Thai) inserts a space at each word boundary of the text, from an English
//   word break iterator, between two letters or marks. The iterator reads the whole text, and a
//   mark joins the character before it: a run that starts with a mark goes through ICU.
// The generator drops a script whose rules utrans_toRules does not write back faithfully
// (Gurmukhi's hold a NUL): it stays ICU's.
// Text that mixes scripts, holds ASCII letters, or holds characters of no script that the
// script does not use goes through ICU. TransliterationTableTests checks the program and the
// results against ICU.
#include "cchaticu_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ures.h>
#include <unicode/uscript.h>
#include <unicode/uset.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>
#include <unicode/utrans.h>

#include "cchaticu_rules.inc"

// MARK: - Growable UTF-16 strings

typedef struct {
    UChar *s;
    int32_t n, cap;
} ustr;

static int ustr_reserve(ustr *u, int32_t need) { return chat_grow((void **)&u->s, &u->cap, need + 1, sizeof(UChar)); }

static int ustr_append(ustr *u, const UChar *s, int32_t n) {
    if (n < 0 || u->n > INT32_MAX / 2 - n || ustr_reserve(u, u->n + n)) return -1;
    if (n) memcpy(u->s + u->n, s, (size_t)n * sizeof(UChar));
    u->n += n;
    return 0;
}

static int ustr_append_ascii(ustr *u, const char *s) {
    for (; *s; s++) {
        UChar c = (UChar)(uint8_t)*s;
        if (ustr_append(u, &c, 1)) return -1;
    }
    return 0;
}

// MARK: - The program

// Operations of the program: one a line, a rule text's lines following its R line, each after
// a tab. `=S` starts the program of script S (ISO 15924 code) or of Latin-ASCII; `{F\tI` starts a
// compound with filter F (none when empty) whose runs may be separated by the characters of I,
// `}` ends it; `N` + nfd/nfc/nfkd/nfkc normalises; `B` inserts spaces at word boundaries; `RF`
// runs the rule text that follows, filtered by F when not empty.
enum { OP_SECTION, OP_BEGIN, OP_END, OP_NORM, OP_BREAK, OP_RULES };

typedef struct {
    uint8_t kind;
    int32_t a, b; // set or text positions in chat_rule_program
    int32_t alen, blen;
    int32_t end;   // OP_BEGIN: index of its OP_END
    int32_t cache; // index into the caches of sets and transliterators
} op;

#define MAX_OPS 512
static op g_ops[MAX_OPS];
static int32_t g_nops;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static USet *g_sets[2 * MAX_OPS];
static UTransliterator *g_trans[MAX_OPS];
static uint8_t g_failed[MAX_OPS]; // the op's ICU object could not be made: the text goes to ICU
static UBreakIterator *g_words;

static void load(void) {
    const char *p = chat_rule_program;
    int32_t len = (int32_t)(sizeof chat_rule_program - 1), i = 0, depth = 0;
    int32_t stack[32];
    while (i < len && g_nops < MAX_OPS) {
        int32_t eol = i;
        while (eol < len && p[eol] != '\n') eol++;
        op o = {0};
        o.cache = g_nops;
        char c = p[i];
        if (c == '\t') { // a line of the last rule text
            if (g_nops && g_ops[g_nops - 1].kind == OP_RULES) g_ops[g_nops - 1].blen = eol - g_ops[g_nops - 1].b;
            i = eol + 1;
            continue;
        }
        int32_t tab = i + 1;
        while (tab < eol && p[tab] != '\t') tab++;
        o.a = i + 1;
        o.alen = tab - o.a;
        o.b = tab < eol ? tab + 1 : eol;
        o.blen = eol - o.b;
        switch (c) {
        case '=': o.kind = OP_SECTION; break;
        case '{':
            o.kind = OP_BEGIN;
            if (depth == 32) return;
            stack[depth++] = g_nops;
            break;
        case '}':
            o.kind = OP_END;
            if (!depth) return;
            g_ops[stack[--depth]].end = g_nops;
            break;
        case 'N': o.kind = OP_NORM; break;
        case 'B': o.kind = OP_BREAK; break;
        case 'R':
            o.kind = OP_RULES;
            o.b = eol + 1; // its text: the tab-led lines after it
            o.blen = 0;
            break;
        default: return;
        }
        g_ops[g_nops++] = o;
        i = eol + 1;
    }
}

// The set written at [pos, pos + len) of the program (empty: none), opened once.
static USet *set_at(int32_t slot, int32_t pos, int32_t len) {
    if (!len) return NULL;
    if (!g_sets[slot]) {
        ustr u = {0};
        UErrorCode e = U_ZERO_ERROR;
        int32_t n = 0;
        if (ustr_reserve(&u, len)) return NULL;
        u_strFromUTF8(u.s, u.cap, &n, chat_rule_program + pos, len, &e);
        USet *s = U_SUCCESS(e) ? uset_openPattern(u.s, n, &e) : NULL;
        free(u.s);
        if (U_FAILURE(e)) {
            uset_close(s);
            return NULL;
        }
        uset_freeze(s);
        g_sets[slot] = s;
    }
    return g_sets[slot];
}

// The transliterator of an R op, opened from its rules once (no ::ID lines: no registry).
static UTransliterator *trans_at(const op *o) {
    if (g_trans[o->cache] || g_failed[o->cache]) return g_trans[o->cache];
    g_failed[o->cache] = 1;
    ustr rules = {0};
    for (int32_t i = o->b; i < o->b + o->blen;) { // the tab-led lines, joined by newlines
        int32_t eol = i;
        while (eol < o->b + o->blen && chat_rule_program[eol] != '\n') eol++;
        UErrorCode e = U_ZERO_ERROR;
        int32_t n = 0;
        if (ustr_reserve(&rules, rules.n + (eol - i) + 1)) break;
        u_strFromUTF8(rules.s + rules.n, rules.cap - rules.n, &n, chat_rule_program + i + 1, eol - i - 1, &e);
        if (U_FAILURE(e)) break;
        rules.n += n;
        rules.s[rules.n++] = '\n';
        i = eol + 1;
    }
    UErrorCode e = U_ZERO_ERROR;
    UParseError pe;
    UTransliterator *t = rules.n ? utrans_openU(u"Chat-Rules", -1, UTRANS_FORWARD, rules.s, rules.n, &pe, &e) : NULL;
    free(rules.s);
    if (t && o->alen) {
        ustr f = {0};
        int32_t n = 0;
        if (!ustr_reserve(&f, o->alen)) u_strFromUTF8(f.s, f.cap, &n, chat_rule_program + o->a, o->alen, &e);
        else e = U_MEMORY_ALLOCATION_ERROR;
        if (U_SUCCESS(e)) utrans_setFilter(t, f.s, n, &e);
        free(f.s);
    }
    if (U_FAILURE(e) || !t) {
        if (t) utrans_close(t);
        return NULL;
    }
    g_failed[o->cache] = 0;
    g_trans[o->cache] = t;
    return t;
}

// MARK: - Running it

static int run_ops(int32_t from, int32_t to, ustr *t);

static int run_norm(const op *o, ustr *t) {
    UErrorCode e = U_ZERO_ERROR;
    const UNormalizer2 *norm = NULL;
    const char *form = chat_rule_program + o->a;
    if (o->alen == 3 && !memcmp(form, "nfd", 3)) norm = unorm2_getNFDInstance(&e);
    else if (o->alen == 3 && !memcmp(form, "nfc", 3)) norm = unorm2_getNFCInstance(&e);
    else if (o->alen == 4 && !memcmp(form, "nfkd", 4)) norm = unorm2_getNFKDInstance(&e);
    else if (o->alen == 4 && !memcmp(form, "nfkc", 4)) norm = unorm2_getNFKCInstance(&e);
    if (!norm || U_FAILURE(e)) return 1;
    ustr out = {0};
    int32_t n = unorm2_normalize(norm, t->s, t->n, NULL, 0, &e);
    if (e != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(e)) return -1;
    e = U_ZERO_ERROR;
    if (ustr_reserve(&out, n)) return -1;
    out.n = unorm2_normalize(norm, t->s, t->n, out.s, out.cap, &e);
    if (U_FAILURE(e)) {
        free(out.s);
        return -1;
    }
    free(t->s);
    *t = out;
    return 0;
}

static int run_rules(const op *o, ustr *t) {
    UTransliterator *tr = trans_at(o);
    if (!tr) return 1;
    ustr copy = {0};
    if (ustr_append(&copy, t->s, t->n)) return -1;
    for (int32_t cap = 4 * t->n + 16; cap > 0 && cap < INT32_MAX / 8; cap *= 4) {
        if (ustr_reserve(t, cap)) break;
        memcpy(t->s, copy.s, (size_t)copy.n * sizeof(UChar));
        int32_t n = copy.n, limit = copy.n;
        UErrorCode e = U_ZERO_ERROR;
        utrans_transUChars(tr, t->s, &n, t->cap, 0, &limit, &e);
        if (e == U_BUFFER_OVERFLOW_ERROR) continue;
        free(copy.s);
        if (U_FAILURE(e)) return -1;
        t->n = n;
        return 0;
    }
    free(copy.s);
    return -1;
}

// Any-BreakInternal: a space at each word boundary between two letters or marks.
static int run_break(ustr *t) {
    UErrorCode e = U_ZERO_ERROR;
    if (!g_words) g_words = ubrk_open(UBRK_WORD, "en", NULL, 0, &e);
    if (!g_words || U_FAILURE(e)) return 1;
    ubrk_setText(g_words, t->s, t->n, &e);
    if (U_FAILURE(e)) return -1;
    ustr out = {0};
    int32_t last = 0;
    for (int32_t b = ubrk_first(g_words); b != UBRK_DONE && b < t->n; b = ubrk_next(g_words)) {
        if (b == 0) continue;
        UChar32 before, after;
        U16_GET(t->s, 0, b - 1, t->n, before);
        U16_GET(t->s, 0, b, t->n, after);
        uint32_t mask = U_GC_L_MASK | U_GC_M_MASK;
        if (!(U_GET_GC_MASK(before) & mask) || !(U_GET_GC_MASK(after) & mask)) continue;
        if (ustr_append(&out, t->s + last, b - last) || ustr_append_ascii(&out, " ")) {
            free(out.s);
            return -1;
        }
        last = b;
    }
    ubrk_setText(g_words, NULL, 0, &e);
    if (ustr_append(&out, t->s + last, t->n - last)) {
        free(out.s);
        return -1;
    }
    free(t->s);
    *t = out;
    return 0;
}

// A compound: its steps over the whole text, or over each run of its filter.
static int run_compound(const op *o, int32_t index, ustr *t) {
    USet *filter = set_at(2 * index, o->a, o->alen);
    if (o->alen && !filter) return 1;
    int32_t i = 0, outside = 0;
    while (filter && i < t->n) {
        UChar32 c;
        U16_NEXT(t->s, i, t->n, c);
        if (uset_contains(filter, c)) continue;
        USet *inert = set_at(2 * index + 1, o->b, o->blen);
        if (!inert || !uset_contains(inert, c)) return 1;
        outside = 1;
    }
    if (!outside) return run_ops(index + 1, o->end, t);
    // A word break iterator reads the whole text: a run that starts with a mark (which the
    // character before it would hold) may break otherwise on its own.
    int breaks = 0;
    for (int32_t k = index + 1; k < o->end; k++) breaks |= g_ops[k].kind == OP_BREAK;
    ustr out = {0};
    int rc = 0;
    for (i = 0; i < t->n && !rc;) {
        int32_t start = i;
        UChar32 c;
        U16_NEXT(t->s, i, t->n, c);
        int in = uset_contains(filter, c);
        while (i < t->n) {
            int32_t j = i;
            U16_NEXT(t->s, j, t->n, c);
            if (uset_contains(filter, c) != in) break;
            i = j;
        }
        if (!in) {
            rc = ustr_append(&out, t->s + start, i - start);
            continue;
        }
        UChar32 first;
        U16_GET(t->s, 0, start, t->n, first);
        if (breaks && start > 0 && (U_GET_GC_MASK(first) & U_GC_M_MASK)) rc = 1;
        ustr run = {0};
        if (!rc) rc = ustr_append(&run, t->s + start, i - start);
        if (!rc) rc = run_ops(index + 1, o->end, &run);
        if (!rc) rc = ustr_append(&out, run.s, run.n);
        free(run.s);
    }
    if (rc) {
        free(out.s);
        return rc;
    }
    free(t->s);
    *t = out;
    return 0;
}

// Runs ops [from, to) over t. Returns 0, 1 when the text is ICU's to do, -1 on failure.
static int run_ops(int32_t from, int32_t to, ustr *t) {
    for (int32_t i = from; i < to; i++) {
        const op *o = &g_ops[i];
        int rc = 0;
        switch (o->kind) {
        case OP_BEGIN:
            rc = run_compound(o, i, t);
            i = o->end;
            break;
        case OP_NORM: rc = run_norm(o, t); break;
        case OP_BREAK: rc = run_break(t); break;
        case OP_RULES: rc = run_rules(o, t); break;
        default: rc = 1;
        }
        if (rc) return rc;
    }
    return 0;
}

// The ops of the section named `name`: [*from, *to). Returns 0 when there is none.
static int section(const char *name, int32_t *from, int32_t *to) {
    size_t len = strlen(name);
    for (int32_t i = 0; i < g_nops; i++) {
        const op *o = &g_ops[i];
        if (o->kind != OP_SECTION || (size_t)o->alen != len || memcmp(chat_rule_program + o->a, name, len)) continue;
        int32_t j = i + 1;
        while (j < g_nops && g_ops[j].kind != OP_SECTION) j++;
        *from = i + 1;
        *to = j;
        return 1;
    }
    return 0;
}

// The scripts whose chains the program holds, then Latin-ASCII.
static const char *const g_scripts[] = {"Grek", "Armn", "Hang", "Hira", "Kana", "Deva", "Beng", "Guru", "Gujr",
                                        "Orya", "Taml", "Telu", "Knda", "Mlym", "Thai"};

int chat_rules_transliterate(const uint8_t *text, int32_t len, uint8_t **out, int32_t *outLen) {
    if (len <= 0) return 0;
    // One script, with ASCII that is not a letter and characters of no script that it uses.
    UScriptCode script = USCRIPT_INVALID_CODE;
    for (int32_t i = 0; i < len;) {
        UChar32 c;
        U8_NEXT(text, i, len, c);
        if (c < 0 || (c < 0x80 && (uint32_t)((c | 0x20) - 'a') < 26u)) return 0;
        if (c < 0x80) continue;
        UErrorCode e = U_ZERO_ERROR;
        UScriptCode s = uscript_getScript(c, &e);
        if (U_FAILURE(e)) return 0;
        if (s == USCRIPT_COMMON || s == USCRIPT_INHERITED) continue;
        if (script != USCRIPT_INVALID_CODE && s != script) return 0;
        script = s;
    }
    if (script == USCRIPT_INVALID_CODE) return 0;
    for (int32_t i = 0; i < len;) {
        UChar32 c;
        U8_NEXT(text, i, len, c);
        UErrorCode e = U_ZERO_ERROR;
        UScriptCode s = c < 0x80 ? USCRIPT_COMMON : uscript_getScript(c, &e);
        if (c >= 0x80 && (s == USCRIPT_COMMON || s == USCRIPT_INHERITED) && !uscript_hasScript(c, script)) return 0;
    }
    // Other scripts (the table's) never load the program.
    const char *code = uscript_getShortName(script);
    int known = 0;
    for (size_t k = 0; code && k < sizeof g_scripts / sizeof *g_scripts; k++) known |= strcmp(code, g_scripts[k]) == 0;
    if (!known) return 0;
    pthread_once(&g_once, load);
    int32_t from, to, afrom, ato;
    if (!section(uscript_getShortName(script), &from, &to) || !section("Latin-ASCII", &afrom, &ato)) return 0;
    ustr t = {0};
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = 0;
    if (ustr_reserve(&t, len)) return -1;
    u_strFromUTF8(t.s, t.cap, &n, (const char *)text, len, &e);
    if (U_FAILURE(e)) {
        free(t.s);
        return 0;
    }
    t.n = n;
    pthread_mutex_lock(&g_lock);
    int rc = run_ops(from, to, &t);
    pthread_mutex_unlock(&g_lock);
    // Latin letters the table reads, and ASCII: Latin-ASCII and Lower give the table's readings
    // (TransliterationTableTests), and a process need not open Latin-ASCII's rules.
    if (!rc) {
        int32_t size = 1, plain = 1;
        for (int32_t k = 0; k < t.n && plain;) {
            UChar32 c;
            U16_NEXT(t.s, k, t.n, c);
            const char *r = c < 0x80 ? "." : chat_table_latin_reading(c);
            if (r) size += (int32_t)strlen(r);
            else plain = 0;
        }
        uint8_t *o = plain ? malloc((size_t)size) : NULL;
        if (o) {
            int32_t m = 0;
            for (int32_t k = 0; k < t.n;) {
                UChar32 c;
                U16_NEXT(t.s, k, t.n, c);
                if (c < 0x80) {
                    o[m++] = (uint8_t)((uint32_t)(c - 'A') < 26u ? c + 32 : c);
                } else {
                    const char *r = chat_table_latin_reading(c);
                    size_t rl = strlen(r);
                    memcpy(o + m, r, rl);
                    m += (int32_t)rl;
                }
            }
            o[m] = 0;
            free(t.s);
            *out = o;
            *outLen = m;
            return 1;
        }
        if (plain) rc = -1;
    }
    if (!rc) {
        pthread_mutex_lock(&g_lock);
        rc = run_ops(afrom, ato, &t);
        pthread_mutex_unlock(&g_lock);
    }
    ustr lower = {0};
    if (!rc) {
        n = u_strToLower(NULL, 0, t.s, t.n, "", &e);
        e = U_ZERO_ERROR;
        if (ustr_reserve(&lower, n)) rc = -1;
        else lower.n = u_strToLower(lower.s, lower.cap, t.s, t.n, "", &e);
        if (U_FAILURE(e)) rc = -1;
    }
    free(t.s);
    if (!rc) {
        int32_t len8 = 0;
        u_strToUTF8(NULL, 0, &len8, lower.s, lower.n, &e);
        e = U_ZERO_ERROR;
        uint8_t *b = malloc((size_t)len8 + 1);
        if (b) u_strToUTF8((char *)b, len8 + 1, &len8, lower.s, lower.n, &e);
        if (!b || U_FAILURE(e)) {
            free(b);
            rc = -1;
        } else {
            b[len8] = 0;
            *out = b;
            *outLen = len8;
        }
    }
    free(lower.s);
    return rc == 0 ? 1 : rc > 0 ? 0 : -1;
}

// MARK: - For TransliterationTableTests: the program from the system's ICU

int32_t cchaticu_rules(const uint8_t **program, int32_t *len) {
    *program = (const uint8_t *)chat_rule_program;
    *len = (int32_t)(sizeof chat_rule_program - 1);
    return 0;
}


#define MAX_DEPTH 16
typedef struct {
    ustr out;
    USet *inert[MAX_DEPTH]; // of the compounds being written, outermost first
    int depth, failed;
} gen;

static int is_space(UChar c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The end of the set pattern starting at s[i] ('[' or a \p{...} escape), or -1.
static int32_t set_end(const UChar *s, int32_t i, int32_t n) {
    if (s[i] == '\\') {
        while (i < n && s[i] != '}') i++;
        return i < n ? i + 1 : -1;
    }
    int32_t depth = 0;
    for (; i < n; i++) {
        if (s[i] == '\\') i++; // (a quote is a character in a set)
        else if (s[i] == '[') depth++;
        else if (s[i] == ']' && --depth == 0) return i + 1;
    }
    return -1;
}

// A set with its pattern dropped, so that it prints as ranges.
static USet *explicit_set(const UChar *pattern, int32_t len) {
    UErrorCode e = U_ZERO_ERROR;
    USet *s = uset_openPattern(pattern, len, &e);
    if (U_FAILURE(e)) {
        uset_close(s);
        return NULL;
    }
    USet *x = uset_openEmpty();
    uset_addAll(x, s);
    uset_close(s);
    return x;
}

static void put_set(gen *g, const USet *s) {
    UErrorCode e = U_ZERO_ERROR;
    int32_t n = uset_toPattern(s, NULL, 0, 1, &e);
    e = U_ZERO_ERROR;
    if (ustr_reserve(&g->out, g->out.n + n)) {
        g->failed = 1;
        return;
    }
    g->out.n += uset_toPattern(s, g->out.s + g->out.n, g->out.cap - g->out.n, 1, &e);
    if (U_FAILURE(e)) g->failed = 1;
}

static void put(gen *g, const UChar *s, int32_t n) {
    if (ustr_append(&g->out, s, n)) g->failed = 1;
}

static void put_ascii(gen *g, const char *s) {
    if (ustr_append_ascii(&g->out, s)) g->failed = 1;
}

// What a context element of a rule allows between runs: a character no element holds, or one
// that the element at the outer end of its context holds, as it holds the end of text (U+FFFF).
static void constrain(gen *g, const USet *set, UChar32 literal, int outermost) {
    for (int d = 0; d < g->depth; d++) {
        if (!set) uset_remove(g->inert[d], literal);
        else if (!uset_contains(set, 0xFFFF)) uset_removeAll(g->inert[d], set);
        else if (outermost) uset_retainAll(g->inert[d], set);
        else uset_clear(g->inert[d]);
    }
}

static UChar char_at(int32_t offset, void *context) { return ((const UChar *)context)[offset]; }

enum { T_SET, T_LIT, T_OPEN, T_CLOSE, T_QUANT, T_LBRACE, T_RBRACE, T_OTHER };
typedef struct {
    int kind;
    USet *set;
    UChar32 c;
} token;

// One rule (`ante { key } post > output ;`): its property sets become variables defined
// before the rules (each set once per rule text), and its contexts constrain the compounds.
static void put_rule(gen *g, const UChar *s, int32_t n, ustr *defs, ustr *names, int32_t *vars) {
    token *tok = calloc((size_t)n + 1, sizeof *tok);
    int32_t nt = 0, i = 0;
    ustr line = {0};
    if (!tok) {
        g->failed = 1;
        return;
    }
    while (i < n && s[i] != '>') {
        UChar c = s[i];
        token t = {T_OTHER, NULL, 0};
        if (is_space(c)) {
            if (ustr_append(&line, s + i++, 1)) g->failed = 1;
            continue;
        }
        int32_t start = i;
        if (c == '\'') {
            if (i + 1 < n && s[i + 1] == '\'') {
                t = (token){T_LIT, NULL, '\''};
                i += 2;
            } else {
                for (i++; i < n; i++) { // '' inside quotes is a quote
                    if (s[i] == '\'' && !(i + 1 < n && s[i + 1] == '\'')) break;
                    if (s[i] == '\'') i++;
                    tok[nt++] = (token){T_LIT, NULL, s[i]};
                }
                i++;
                t.kind = -1;
            }
        } else if (c == '[' || (c == '\\' && i + 1 < n && (s[i + 1] == 'p' || s[i + 1] == 'P'))) {
            int32_t end = set_end(s, i, n);
            if (end < 0) {
                g->failed = 1;
                break;
            }
            t = (token){T_SET, explicit_set(s + i, end - i), 0};
            if (!t.set) g->failed = 1;
            int property = 0;
            for (int32_t k = i; k + 1 < end; k++) {
                property |= (s[k] == '[' && s[k + 1] == ':') || (s[k] == '\\' && (s[k + 1] == 'p' || s[k + 1] == 'P'));
            }
            i = end;
            if (property && t.set) {
                // The variable of this set: an earlier one with the same members, or a new one.
                ustr pat = {0};
                UErrorCode e = U_ZERO_ERROR;
                int32_t pn = uset_toPattern(t.set, NULL, 0, 1, &e);
                e = U_ZERO_ERROR;
                if (ustr_reserve(&pat, pn)) g->failed = 1;
                else pat.n = uset_toPattern(t.set, pat.s, pat.cap, 1, &e);
                int32_t v = 0, at = 0;
                for (; v < *vars; v++) {
                    int32_t len = 0;
                    while (names->s[at + len]) len++;
                    if (len == pat.n && !memcmp(names->s + at, pat.s, (size_t)len * sizeof(UChar))) break;
                    at += len + 1;
                }
                char name[16];
                snprintf(name, sizeof name, "$v%d", (int)v);
                if (v == *vars) {
                    UChar zero = 0;
                    if (ustr_append(names, pat.s, pat.n) || ustr_append(names, &zero, 1)) g->failed = 1;
                    if (ustr_append_ascii(defs, "\t") || ustr_append_ascii(defs, name) || ustr_append_ascii(defs, " = ")
                        || ustr_append(defs, pat.s, pat.n) || ustr_append_ascii(defs, ";\n"))
                        g->failed = 1;
                    (*vars)++;
                }
                free(pat.s);
                // (a space ends the name: a mark after it would extend it)
                if (ustr_append_ascii(&line, name) || ustr_append_ascii(&line, " ")) g->failed = 1;
                start = i; // copied as the variable
            }
        } else if (c == '\\') {
            int32_t at = i + 1;
            UChar32 u = u_unescapeAt(char_at, &at, n, (void *)s);
            if (u == (UChar32)0xFFFFFFFF) g->failed = 1;
            t = (token){T_LIT, NULL, u};
            i = at;
        } else {
            int kind = c == '(' ? T_OPEN : c == ')' ? T_CLOSE : c == '{' ? T_LBRACE : c == '}' ? T_RBRACE : T_OTHER;
            if (c == '*' || c == '+' || c == '?') kind = T_QUANT;
            if (kind == T_OTHER && !(c == '^' || c == '$' || c == '.' || c == '|' || c == '@' || c == '&'))
                kind = T_LIT;
            t = (token){kind, NULL, c};
            i++;
            if (c < 0x20) g->failed = 1; // (not a rule utrans_toRules writes faithfully)
            if (c == 0x2190 || c == 0x2192 || c == 0x2194) { // arrows are operators unless escaped
                char esc[8];
                snprintf(esc, sizeof esc, "\\u%04X", (unsigned)c);
                if (ustr_append_ascii(&line, esc)) g->failed = 1;
                start = i;
            }
        }
        if (t.kind >= 0) tok[nt++] = t;
        if (start < i && ustr_append(&line, s + start, i - start)) g->failed = 1;
    }
    if (i == n) g->failed = 1; // not a forward rule
    for (int32_t k = 0; k < n; k++) g->failed |= s[k] < 0x20;
    for (int quoted = 0; i < n; i++) { // the output, its unquoted arrows escaped
        UChar c = s[i];
        if (!quoted && (c == 0x2190 || c == 0x2192 || c == 0x2194)) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\u%04X", (unsigned)c);
            if (ustr_append_ascii(&line, esc)) g->failed = 1;
            continue;
        }
        if (c == '\'') quoted = !quoted;
        if (ustr_append(&line, s + i, c == '\\' && i + 1 < n ? 2 : 1)) g->failed = 1;
        if (c == '\\') i++;
    }
    // Contexts: before `{`, after `}`.
    int32_t lb = -1, rb = -1;
    for (int32_t k = 0; k < nt; k++) {
        if (tok[k].kind == T_LBRACE) lb = k;
        if (tok[k].kind == T_RBRACE) rb = k;
    }
    for (int side = 0; side < 2; side++) {
        int32_t from = side == 0 ? 0 : rb + 1, to = side == 0 ? lb : nt;
        if (side == 1 && rb < 0) continue;
        int32_t first = -1, last = -1;
        for (int32_t k = from; k < to; k++) {
            if (tok[k].kind == T_OTHER || (tok[k].kind == T_QUANT && k > 0 && tok[k - 1].kind == T_CLOSE)) {
                for (int d = 0; d < g->depth; d++) uset_clear(g->inert[d]);
            }
            if (tok[k].kind == T_SET || tok[k].kind == T_LIT) {
                if (first < 0) first = k;
                last = k;
            }
        }
        for (int32_t k = from; k < to; k++) {
            if (tok[k].kind == T_SET || tok[k].kind == T_LIT) {
                constrain(g, tok[k].set, tok[k].c, k == (side == 0 ? first : last));
            }
        }
    }
    for (int32_t k = 0; k < nt; k++) uset_close(tok[k].set);
    free(tok);
    put_ascii(g, "\t");
    put(g, line.s, line.n);
    put_ascii(g, "\n");
    free(line.s);
}

// A rule text (lines of rules, no ::ID lines), filtered by filter when not NULL.
static void put_rules(gen *g, const UChar *s, int32_t n, const USet *filter) {
    ustr defs = {0}, names = {0};
    int32_t vars = 0;
    put_ascii(g, "R");
    if (filter) put_set(g, filter);
    put_ascii(g, "\n");
    int32_t at = g->out.n;
    for (int32_t i = 0; i < n;) {
        int32_t eol = i;
        while (eol < n && s[eol] != '\n') eol++;
        if (eol > i) put_rule(g, s + i, eol - i, &defs, &names, &vars);
        i = eol + 1;
    }
    // The variables go before the rules that use them.
    if (!ustr_reserve(&g->out, g->out.n + defs.n)) {
        memmove(g->out.s + at + defs.n, g->out.s + at, (size_t)(g->out.n - at) * sizeof(UChar));
        if (defs.n) memcpy(g->out.s + at, defs.s, (size_t)defs.n * sizeof(UChar));
        g->out.n += defs.n;
    } else g->failed = 1;
    free(defs.s);
    free(names.s);
}

static int same_id(const UChar *s, int32_t n, const char *id) {
    size_t len = strlen(id);
    if ((size_t)n != len) return 0;
    for (size_t k = 0; k < len; k++) {
        if (u_tolower(s[k]) != (UChar32)(uint8_t)id[k] + (id[k] >= 'A' && id[k] <= 'Z' ? 32 : 0)) return 0;
    }
    return 1;
}

// The filter of a compound made only of ::ID lines, which utrans_toRules does not write: the
// `::[set];` that opens its rules in ICU's data (NULL when there is none). Returns -1 when its
// rules are not found.
static int raw_filter(const char *script, USet **filter) {
    *filter = NULL;
    UErrorCode e = U_ZERO_ERROR;
    UResourceBundle *root = ures_openDirect(U_ICUDATA_NAME "-translit", "root", &e);
    UResourceBundle *ids = ures_getByKey(root, "RuleBasedTransliteratorIDs", NULL, &e);
    char key[64];
    snprintf(key, sizeof key, "%s-Latn", script);
    int rc = -1;
    for (int hops = 0; hops < 4 && U_SUCCESS(e); hops++) {
        UResourceBundle *entry = ures_getByKey(ids, key, NULL, &e);
        UResourceBundle *kind = ures_getByIndex(entry, 0, NULL, &e);
        int32_t len = 0;
        if (U_SUCCESS(e) && ures_getType(kind) == URES_STRING) { // an alias
            const UChar *alias = ures_getString(kind, &len, &e);
            if (len < (int32_t)sizeof key) u_UCharsToChars(alias, key, len + 1);
            else e = U_BUFFER_OVERFLOW_ERROR;
        } else if (U_SUCCESS(e)) {
            const UChar *dir = ures_getStringByKey(kind, "direction", &len, &e);
            const UChar *rules = ures_getStringByKey(kind, "resource", &len, &e);
            if (U_SUCCESS(e) && dir[0] == 'F') {
                int32_t i = 0;
                while (i < len && is_space(rules[i])) i++;
                rc = 0;
                if (i + 2 < len && rules[i] == ':' && rules[i + 1] == ':') {
                    for (i += 2; i < len && is_space(rules[i]); i++) {}
                    int32_t end = i < len && rules[i] == '[' ? set_end(rules, i, len) : -1;
                    int32_t j = end;
                    while (j >= 0 && j < len && is_space(rules[j])) j++;
                    if (end > 0 && j < len && rules[j] == ';') {
                        *filter = explicit_set(rules + i, end - i);
                        rc = *filter ? 0 : -1;
                    }
                }
            }
            hops = 4;
        }
        ures_close(kind);
        ures_close(entry);
    }
    ures_close(ids);
    ures_close(root);
    return rc;
}

static void put_id(gen *g, const UChar *id, int32_t idLen, const USet *filter, const char *script);

// One `::[filter] ID(reverse);` line of a compound.
static void put_id_line(gen *g, const UChar *s, int32_t n) {
    int32_t i = 2, end = n;
    while (end > i && (is_space(s[end - 1]) || s[end - 1] == ';')) end--;
    while (i < end && is_space(s[i])) i++;
    USet *filter = NULL;
    if (i < end && s[i] == '[') {
        int32_t e = set_end(s, i, end);
        if (e < 0 || !(filter = explicit_set(s + i, e - i))) {
            g->failed = 1;
            return;
        }
        for (i = e; i < end && is_space(s[i]); i++) {}
    }
    int32_t idEnd = i;
    while (idEnd < end && s[idEnd] != '(') idEnd++;
    while (idEnd > i && is_space(s[idEnd - 1])) idEnd--;
    const UChar *id = s + i;
    int32_t len = idEnd - i;
    const char *op = NULL;
    if (same_id(id, len, "NFD") || same_id(id, len, "Any-NFD")) op = "Nnfd";
    else if (same_id(id, len, "NFC") || same_id(id, len, "Any-NFC")) op = "Nnfc";
    else if (same_id(id, len, "NFKD") || same_id(id, len, "Any-NFKD")) op = "Nnfkd";
    else if (same_id(id, len, "NFKC") || same_id(id, len, "Any-NFKC")) op = "Nnfkc";
    else if (same_id(id, len, "Any-BreakInternal")) op = "B";
    if (len == 0 || same_id(id, len, "Null") || same_id(id, len, "Any-Null")) {
        // Nothing forward.
    } else if (op && filter) {
        // A filtered step: a compound of one step, which no rules constrain.
        put_ascii(g, "{");
        put_set(g, filter);
        put_ascii(g, "\t[\\u0000-\\U0010FFFF]\n");
        put_ascii(g, op);
        put_ascii(g, "\n}\n");
    } else if (op) {
        put_ascii(g, op);
        put_ascii(g, "\n");
    } else {
        put_id(g, id, len, filter, NULL);
    }
    uset_close(filter);
}

// The transliterator `id` (filtered by filter when not NULL): its rules, or its compound.
// `script` names the script of a top-level chain, whose compound filter may be in ICU's data.
static void put_id(gen *g, const UChar *id, int32_t idLen, const USet *filter, const char *script) {
    UErrorCode e = U_ZERO_ERROR;
    UTransliterator *t = utrans_openU(id, idLen, UTRANS_FORWARD, NULL, 0, NULL, &e);
    ustr rules = {0};
    int32_t n = t ? utrans_toRules(t, 0, NULL, 0, &e) : 0;
    if (e == U_BUFFER_OVERFLOW_ERROR) e = U_ZERO_ERROR;
    if (U_SUCCESS(e) && !ustr_reserve(&rules, n)) rules.n = utrans_toRules(t, 0, rules.s, rules.cap, &e);
    if (t) utrans_close(t);
    if (U_FAILURE(e) || !rules.s || g->depth == MAX_DEPTH) {
        free(rules.s);
        g->failed = 1;
        return;
    }
    int ids = 0, anonymous = 0;
    for (int32_t i = 0; i < rules.n;) {
        int32_t eol = i;
        while (eol < rules.n && rules.s[eol] != '\n') eol++;
        if (eol - i >= 2 && rules.s[i] == ':' && rules.s[i + 1] == ':') ids++;
        else if (eol > i) anonymous++;
        i = eol + 1;
    }
    if (!ids) {
        put_rules(g, rules.s, rules.n, filter);
        free(rules.s);
        return;
    }
    // A compound: its filter, then its steps; the header goes in front once the steps have
    // constrained the characters between runs.
    USet *own = NULL;
    int32_t i = 0, header = g->out.n;
    if (rules.n > 3 && rules.s[0] == ':' && rules.s[1] == ':' && rules.s[2] == '[') {
        int32_t end = set_end(rules.s, 2, rules.n);
        if (end > 0 && end < rules.n && rules.s[end] == ';') {
            own = explicit_set(rules.s + 2, end - 2);
            i = end + 1;
        }
    }
    if (!own && !anonymous && script && raw_filter(script, &own) < 0) g->failed = 1;
    g->inert[g->depth++] = uset_openEmpty();
    uset_complement(g->inert[g->depth - 1]);
    while (i < rules.n) {
        while (i < rules.n && rules.s[i] == '\n') i++;
        int32_t eol = i;
        while (eol < rules.n && rules.s[eol] != '\n') eol++;
        if (eol == i) break;
        if (eol - i >= 2 && rules.s[i] == ':' && rules.s[i + 1] == ':') {
            put_id_line(g, rules.s + i, eol - i);
            i = eol + 1;
            continue;
        }
        // Rules up to the next ::ID line (a ::Null; line separates two rule texts).
        int32_t end = eol;
        while (end < rules.n) {
            int32_t next = end + 1;
            if (next + 1 < rules.n && rules.s[next] == ':' && rules.s[next + 1] == ':') break;
            while (next < rules.n && rules.s[next] != '\n') next++;
            end = next;
        }
        put_rules(g, rules.s + i, end - i, NULL);
        i = end + 1;
    }
    USet *inert = g->inert[--g->depth];
    gen h = {0};
    put_ascii(&h, "{");
    if (filter || own) put_set(&h, filter ? filter : own);
    put_ascii(&h, "\t");
    put_set(&h, inert);
    put_ascii(&h, "\n");
    if (h.failed || ustr_reserve(&g->out, g->out.n + h.out.n)) g->failed = 1;
    else {
        memmove(g->out.s + header + h.out.n, g->out.s + header, (size_t)(g->out.n - header) * sizeof(UChar));
        memcpy(g->out.s + header, h.out.s, (size_t)h.out.n * sizeof(UChar));
        g->out.n += h.out.n;
    }
    put_ascii(g, "}\n");
    free(h.out.s);
    uset_close(inert);
    uset_close(own);
    free(rules.s);
}

int32_t cchaticu_rules_from_icu(uint8_t **out, int32_t *outLen) {
    *out = NULL;
    *outLen = 0;
    gen g = {0};
    for (size_t k = 0; k <= sizeof g_scripts / sizeof *g_scripts; k++) {
        const char *script = k < sizeof g_scripts / sizeof *g_scripts ? g_scripts[k] : NULL;
        char id[32];
        snprintf(id, sizeof id, "%s", script ? script : "Latin-ASCII");
        int32_t start = g.out.n;
        put_ascii(&g, "=");
        put_ascii(&g, id);
        put_ascii(&g, "\n");
        if (script) snprintf(id, sizeof id, "%s-Latin", script);
        UChar uid[32];
        u_charsToUChars(id, uid, (int32_t)strlen(id) + 1);
        put_id(&g, uid, -1, NULL, script);
        if (g.failed && script) { // a script ICU does not transliterate this way stays ICU's
            g.out.n = start;
            g.failed = 0;
        }
    }
    UErrorCode e = U_ZERO_ERROR;
    int32_t len8 = 0;
    if (!g.failed) u_strToUTF8(NULL, 0, &len8, g.out.s, g.out.n, &e);
    e = U_ZERO_ERROR;
    uint8_t *b = g.failed ? NULL : malloc((size_t)len8 + 1);
    if (b) u_strToUTF8((char *)b, len8 + 1, &len8, g.out.s, g.out.n, &e);
    free(g.out.s);
    if (!b || U_FAILURE(e)) {
        free(b);
        return -1;
    }
    *out = b;
    *outLen = len8;
    return 0;
}
