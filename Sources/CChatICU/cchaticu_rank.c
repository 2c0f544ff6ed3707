// The FTS5 ranking function `chat_bm25`: Okapi BM25 as FTS5's own `bm25()` computes it, with the
// row's length given by the caller instead of read from the index's %_docsize table.
//
// An archive's time-ordered index (`itemFts`) is created without that table (columnsize=0):
// its rowids follow time while an ingest writes chat after chat, so each message cost a random
// page write of it. FTS5's `bm25()` then analyses each candidate's stored text again to count
// its tokens; `chat_bm25` takes the row's length relative to the average instead (the caller
// passes the UTF-8 bytes of the item's text over the archive's average), which costs nothing
// per row and orders rows nearly as `bm25()` does: bytes and tokens differ with word length
// and script (on the bench's corpus the top 50 hits of five queries were nearly all those of
// `bm25()`).
#include "cchaticu_internal.h"
#include <math.h>
#include <sqlite3.h>
#include <string.h>

typedef struct {
    int nPhrase;
    double *idf;   // inverse document frequency of each phrase
    double *freq;  // scratch: weighted occurrences of each phrase in the current row
} rank_data;

static int count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *user) {
    (void)api;
    (void)fts;
    (*(sqlite3_int64 *)user)++;
    return SQLITE_OK;
}

// The phrases' IDF, computed once per query (FTS5 keeps it as the query's auxiliary data).
static int rank_data_get(const Fts5ExtensionApi *api, Fts5Context *fts, rank_data **out) {
    rank_data *p = api->xGetAuxdata(fts, 0);
    if (p) {
        *out = p;
        return SQLITE_OK;
    }
    int nPhrase = api->xPhraseCount(fts);
    sqlite3_int64 bytes = (sqlite3_int64)sizeof *p + (sqlite3_int64)nPhrase * 2 * (sqlite3_int64)sizeof(double);
    p = sqlite3_malloc64((sqlite3_uint64)bytes);
    if (!p) return SQLITE_NOMEM;
    memset(p, 0, (size_t)bytes);
    p->nPhrase = nPhrase;
    p->idf = (double *)&p[1];
    p->freq = p->idf + nPhrase;
    sqlite3_int64 nRow = 0;
    int rc = api->xRowCount(fts, &nRow);
    for (int i = 0; rc == SQLITE_OK && i < nPhrase; i++) {
        sqlite3_int64 hits = 0;
        rc = api->xQueryPhrase(fts, i, &hits, count_row);
        if (rc == SQLITE_OK) {
            double idf = log(((double)nRow - (double)hits + 0.5) / ((double)hits + 0.5));
            p->idf[i] = idf <= 0.0 ? 1e-6 : idf;
        }
    }
    if (rc == SQLITE_OK) rc = api->xSetAuxdata(fts, p, sqlite3_free);
    else sqlite3_free(p);
    if (rc != SQLITE_OK) return rc;
    *out = p;
    return SQLITE_OK;
}

// chat_bm25(table, weight of column 0, weight of column 1, ..., relative length): the last
// argument is the row's length over the average row's (1 for an average row). Negative, like
// bm25(): the better the match, the lower the score.
static void chat_bm25(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *ctx, int nVal,
                      sqlite3_value **args) {
    const double k1 = 1.2, b = 0.75;
    if (nVal < 1) {
        sqlite3_result_error(ctx, "chat_bm25: the row's relative length is missing", -1);
        return;
    }
    double relative = sqlite3_value_double(args[nVal - 1]);
    if (!(relative >= 0.0)) relative = 1.0;  // NULL, negative or NaN: an average row
    int nWeights = nVal - 1;
    rank_data *p = NULL;
    int rc = rank_data_get(api, fts, &p);
    int nInst = 0;
    if (rc == SQLITE_OK) {
        memset(p->freq, 0, sizeof(double) * (size_t)p->nPhrase);
        rc = api->xInstCount(fts, &nInst);
    }
    for (int i = 0; rc == SQLITE_OK && i < nInst; i++) {
        int phrase = 0, column = 0, offset = 0;
        rc = api->xInst(fts, i, &phrase, &column, &offset);
        if (rc == SQLITE_OK && phrase >= 0 && phrase < p->nPhrase) {
            p->freq[phrase] += column < nWeights ? sqlite3_value_double(args[column]) : 1.0;
        }
    }
    if (rc != SQLITE_OK) {
        sqlite3_result_error_code(ctx, rc);
        return;
    }
    double score = 0.0;
    for (int i = 0; i < p->nPhrase; i++) {
        double f = p->freq[i];
        score += p->idf[i] * (f * (k1 + 1.0)) / (f + k1 * (1.0 - b + b * relative));
    }
    sqlite3_result_double(ctx, -score);
}

int32_t cchaticu_register_rank(void *api_pointer) {
    fts5_api *api = api_pointer;
    if (!api) return SQLITE_MISUSE;
    return api->xCreateFunction(api, "chat_bm25", NULL, chat_bm25, NULL);
}
