// Page checksums in the pages' reserved bytes, kept by a VFS shim (see cchatpages.h).
//
// What the shim sees of SQLite's I/O, and what it does with it:
// - The main database file: page 1's header (page size at bytes 16-17, reserved bytes at 20)
//   says whether the file carries checksums; it is read when the file is opened and again
//   whenever page 1 is read or written. In such a file every whole page read (`xRead`) or
//   mapped (`xFetch`) is verified, and every whole page written gets its checksum first.
// - The write-ahead log: a frame is a 24-byte header then a page. A page read from a frame is
//   verified like a page of the file. A page appended is sealed before it is written; as the
//   frame's header, which SQLite writes just before it, holds SQLite's running checksum over
//   the page's bytes without the seal, that header is held back and written together with
//   the page, with the running checksum over the bytes as stored (continuing the one of the
//   frame before), so that the log still recovers after a crash. The checksum of the frame
//   before is remembered from the last frame this connection wrote while it held the log's
//   write lock, and read from the log otherwise, so that a frame costs one write (the
//   PageChecksums article). Frames rewritten in place within a transaction are
//   re-summed by SQLite itself from the bytes in the log before the commit; their headers
//   pass through at once.
// - Every other file (journals, temporary files) passes through untouched.
#include "cchatpages.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stddef.h>
#include <string.h>

#define VFS_NAME "chatpages"
#define WAL_HEADER 32
#define FRAME_HEADER 24
// Our file control (far above SQLite's own numbers): turns `sealing` on or off.
#define FCNTL_SEALING 0x43500001

// MARK: - The checksum

// Four independent lanes, each a sum and a sum of sums over 64-bit little-endian words, so a
// change is seen wherever it lies and whatever its position; the lanes are then mixed into 64
// bits. Independent lanes keep the processor busy: the sum costs little next to a page read.
static uint64_t load64le(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

// The checksum of `n` bytes (a multiple of 8).
static uint64_t page_sum(const uint8_t *p, size_t n) {
    uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        a0 += load64le(p + i);
        a1 += load64le(p + i + 8);
        a2 += load64le(p + i + 16);
        a3 += load64le(p + i + 24);
        b0 += a0;
        b1 += a1;
        b2 += a2;
        b3 += a3;
    }
    // The tail (a page less its reserve is 24 bytes past a multiple of 32).
    if (i + 8 <= n) { a0 += load64le(p + i); b0 += a0; i += 8; }
    if (i + 8 <= n) { a1 += load64le(p + i); b1 += a1; i += 8; }
    if (i + 8 <= n) { a2 += load64le(p + i); b2 += a2; i += 8; }
    // A nonzero start: a page of zeros (a block the disk lost) does not match.
    uint64_t h = 0x6368617470616765ULL ^ (uint64_t)n;
    h = mix64(h ^ a0); h = mix64(h ^ b0);
    h = mix64(h ^ a1); h = mix64(h ^ b1);
    h = mix64(h ^ a2); h = mix64(h ^ b2);
    h = mix64(h ^ a3); h = mix64(h ^ b3);
    return h;
}

static void store64le(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void cchatpages_seal(uint8_t *page, int64_t size) {
    if (size < 16 || size % 8 != 0) return;
    store64le(page + size - 8, page_sum(page, (size_t)size - 8));
}

int32_t cchatpages_verify(const uint8_t *page, int64_t size) {
    if (size < 16 || size % 8 != 0) return 0;
    return load64le(page + size - 8) == page_sum(page, (size_t)size - 8);
}

static sqlite3_int64 mismatches;

int64_t cchatpages_mismatches(void) { return __atomic_load_n(&mismatches, __ATOMIC_RELAXED); }

static int mismatch(void) {
    __atomic_add_fetch(&mismatches, 1, __ATOMIC_RELAXED);
    return SQLITE_CORRUPT;
}

// MARK: - Files

enum { KIND_MAIN = 1, KIND_WAL = 2 };

typedef struct PagesFile PagesFile;
struct PagesFile {
    sqlite3_file base;
    sqlite3_file *real;  // the default VFS's file, allocated right after this struct
    int kind;
    PagesFile *db;       // a log's main database file (NULL when unknown); a main file's itself
    // Main file: from page 1's header.
    int checksummed;
    // Main file: seal every whole page written, whatever the header says (while a VACUUM gives
    // an archive its checksums: pages may be written before the new page 1).
    int sealing;
    uint32_t pageSize;
    // Writes: a sealed copy of the page (SQLite's buffer is not ours to change).
    uint8_t *scratch;
    uint32_t scratchSize;
    // Log: the frame header SQLite wrote last, until its page follows (0: none), and whether
    // it is held back (not yet in the file: it goes out with its page).
    sqlite3_int64 pendingOffset;
    uint8_t pendingHeader[FRAME_HEADER];
    int pendingHeld;
    // Log, while this connection holds the write lock (`writeEpoch` of its main file): the
    // running checksum `sum` that the frame whose header is at `sumNext` continues (0: not
    // known), the log header's byte order, and where the frames this connection appended end
    // (0: not known), past which a frame header is an append rather than a rewrite.
    uint32_t sumEpoch;
    sqlite3_int64 sumNext;
    uint32_t sum[2];
    int bigEndian;
    sqlite3_int64 logEnd;
    // Main file: advanced each time this connection takes the log's write lock, when another
    // connection may have written the log since.
    uint32_t writeEpoch;
    // Main file, mapped pages: the pages verified in the current read transaction (`epoch`,
    // advanced each time the connection takes a read lock; 0 before any), so that a page
    // SQLite fetches again and again within one query is verified once.
    uint32_t epoch;
    struct verified { uint32_t page, epoch; } *verified;
};

// Slots of a connection's memo of verified mapped pages (direct-mapped by page number).
#define VERIFIED_SLOTS 4096

// The real file follows the struct, aligned for any type.
#define REAL_OFFSET ((sizeof(PagesFile) + 15) & ~(size_t)15)
#define REAL(p) ((p)->real)

static const sqlite3_io_methods pages_methods;

static int is_power_of_two_page(uint32_t n) { return n >= 512 && n <= 65536 && (n & (n - 1)) == 0; }

// Learns the page size and the reserve from page 1's header, when `h` is one.
static void learn_header(PagesFile *p, const uint8_t *h) {
    if (memcmp(h, "SQLite format 3", 16) != 0) return;
    uint32_t size = ((uint32_t)h[16] << 8) | h[17];
    if (size == 1) size = 65536;
    if (!is_power_of_two_page(size)) return;
    p->pageSize = size;
    p->checksummed = h[20] == CCHATPAGES_RESERVE;
}

// The page size of a file whose pages carry checksums, else 0.
static uint32_t checked_page_size(PagesFile *p) {
    PagesFile *db = p->kind == KIND_MAIN ? p : p->db;
    return db && db->checksummed ? db->pageSize : 0;
}

// The page size of a file whose pages are sealed as they are written, else 0.
static uint32_t sealed_page_size(PagesFile *p) {
    PagesFile *db = p->kind == KIND_MAIN ? p : p->db;
    return db && (db->checksummed || db->sealing) ? db->pageSize : 0;
}

// A sealed copy of the page `buf`, `FRAME_HEADER` bytes into the scratch buffer (room for a
// log frame's header in front of it).
static uint8_t *sealed_copy(PagesFile *p, const void *buf, int amt) {
    uint32_t need = (uint32_t)amt + FRAME_HEADER;
    if (p->scratchSize < need) {
        sqlite3_free(p->scratch);
        p->scratch = sqlite3_malloc((int)need);
        p->scratchSize = p->scratch ? need : 0;
        if (!p->scratch) return NULL;
    }
    uint8_t *page = p->scratch + FRAME_HEADER;
    memcpy(page, buf, (size_t)amt);
    cchatpages_seal(page, amt);
    return page;
}

static uint32_t get32be(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static void put32be(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

// The log's running checksum (its file format, public): over pairs of 32-bit words, in the
// byte order the log header's magic number names.
static void wal_sum(int bigEndian, const uint8_t *d, size_t n, uint32_t s[2]) {
    uint32_t s1 = s[0], s2 = s[1];
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint32_t x0, x1;
        if (bigEndian) {
            x0 = get32be(d + i);
            x1 = get32be(d + i + 4);
        } else {
            x0 = (uint32_t)d[i] | ((uint32_t)d[i + 1] << 8) | ((uint32_t)d[i + 2] << 16) | ((uint32_t)d[i + 3] << 24);
            x1 = (uint32_t)d[i + 4] | ((uint32_t)d[i + 5] << 8) | ((uint32_t)d[i + 6] << 16) | ((uint32_t)d[i + 7] << 24);
        }
        s1 += x0 + s2;
        s2 += x1 + s1;
    }
    s[0] = s1;
    s[1] = s2;
}

// The log's write lock (WAL_WRITE_LOCK in SQLite's wal.c, part of its file format): a
// connection holds it exclusively while it appends frames.
#define WRITE_LOCK 0

// Forgets the log's running checksum and end when another connection may have written the log
// since they were learned (this connection has taken the write lock again since).
static void check_sum_epoch(PagesFile *p) {
    uint32_t epoch = p->db ? p->db->writeEpoch : 0;
    if (p->sumEpoch != epoch || epoch == 0) {
        p->sumEpoch = epoch;
        p->sumNext = 0;
        p->logEnd = 0;
    }
}

// Remembers the running checksum stored big-endian at `at` (a frame's or the log header's)
// as the one that the frame at header offset `next` continues.
static void remember_sum(PagesFile *p, sqlite3_int64 next, const uint8_t *at) {
    p->sumNext = next;
    p->sum[0] = get32be(at);
    p->sum[1] = get32be(at + 4);
}

// Fills in the checksum of the frame header pending at `offset - 24` over `page` as stored,
// continuing from the frame before it (or the log's header): remembered, or read from the log.
static int sum_frame(PagesFile *p, const uint8_t *page, uint32_t size, sqlite3_int64 offset) {
    sqlite3_file *real = REAL(p);
    sqlite3_int64 header = offset - FRAME_HEADER;
    uint32_t s[2];
    check_sum_epoch(p);
    if (p->sumNext != header) {
        uint8_t magic[4], prev[8];
        int rc = real->pMethods->xRead(real, magic, 4, 0);
        if (rc != SQLITE_OK) return rc;
        sqlite3_int64 before = header == WAL_HEADER ? 24 : header - (sqlite3_int64)size - FRAME_HEADER + 16;
        rc = real->pMethods->xRead(real, prev, 8, before);
        if (rc != SQLITE_OK) return rc;
        p->bigEndian = get32be(magic) & 1;
        s[0] = get32be(prev);
        s[1] = get32be(prev + 4);
    } else {
        s[0] = p->sum[0];
        s[1] = p->sum[1];
    }
    wal_sum(p->bigEndian, p->pendingHeader, 8, s);
    wal_sum(p->bigEndian, page, size, s);
    put32be(p->pendingHeader + 16, s[0]);
    put32be(p->pendingHeader + 20, s[1]);
    remember_sum(p, offset + size, p->pendingHeader + 16);
    if (offset + size > p->logEnd) p->logEnd = offset + size;
    return SQLITE_OK;
}

// Writes a frame header held back for its page as SQLite wrote it (before anything else
// touches the log; its page, if it comes, then rewrites it).
static int write_held_header(PagesFile *p) {
    if (p->kind != KIND_WAL || !p->pendingHeld) return SQLITE_OK;
    p->pendingHeld = 0;
    sqlite3_file *real = REAL(p);
    return real->pMethods->xWrite(real, p->pendingHeader, FRAME_HEADER, p->pendingOffset);
}

// The first of the log index's read-mark locks (WAL_READ_LOCK(0) in SQLite's wal.c, part of
// its file format): a connection takes one of them shared to begin each read transaction.
#define FIRST_READ_LOCK 3

// A new read transaction: what was verified in the last one is verified again when fetched.
static void next_epoch(PagesFile *p) {
    if (++p->epoch == 0) {
        if (p->verified) memset(p->verified, 0, VERIFIED_SLOTS * sizeof *p->verified);
        p->epoch = 1;
    }
}

static int pages_close(sqlite3_file *f) {
    PagesFile *p = (PagesFile *)f;
    int held = write_held_header(p);
    sqlite3_free(p->scratch);
    p->scratch = NULL;
    sqlite3_free(p->verified);
    p->verified = NULL;
    int rc = REAL(p)->pMethods->xClose(REAL(p));
    return held != SQLITE_OK ? held : rc;
}

static int pages_read(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off) {
    PagesFile *p = (PagesFile *)f;
    int rc = write_held_header(p);
    if (rc != SQLITE_OK) return rc;
    rc = REAL(p)->pMethods->xRead(REAL(p), buf, amt, off);
    if (rc != SQLITE_OK) return rc;  // a short read is zeros past the end: nothing to verify
    if (p->kind == KIND_MAIN && off == 0 && amt >= 100) learn_header(p, buf);
    uint32_t size = checked_page_size(p);
    if (size == 0 || (uint32_t)amt != size) return SQLITE_OK;
    int isPage = p->kind == KIND_MAIN
                     ? off % size == 0
                     : off >= WAL_HEADER + FRAME_HEADER && (off - WAL_HEADER) % (size + FRAME_HEADER) == FRAME_HEADER;
    if (isPage && !cchatpages_verify(buf, amt)) return mismatch();
    return SQLITE_OK;
}

static int pages_write(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off) {
    PagesFile *p = (PagesFile *)f;
    sqlite3_file *real = REAL(p);
    if (p->kind == KIND_MAIN) {
        if (off == 0 && amt >= 100) learn_header(p, buf);
        uint32_t size = sealed_page_size(p);
        if (p->verified && size != 0) p->verified[(uint32_t)(off / size) % VERIFIED_SLOTS].epoch = 0;
        if (size != 0 && (uint32_t)amt == size && off % size == 0) {
            buf = sealed_copy(p, buf, amt);
            if (!buf) return SQLITE_IOERR_NOMEM;
        }
        return real->pMethods->xWrite(real, buf, amt, off);
    }
    if (p->kind == KIND_WAL) {
        uint32_t size = sealed_page_size(p);
        int isHeader = size != 0 && amt == FRAME_HEADER && off >= WAL_HEADER && (off - WAL_HEADER) % (size + FRAME_HEADER) == 0;
        int isPage = size != 0 && (uint32_t)amt == size && off >= WAL_HEADER + FRAME_HEADER
                     && (off - WAL_HEADER) % (size + FRAME_HEADER) == FRAME_HEADER;
        if (isPage && p->pendingHeld && p->pendingOffset == off - FRAME_HEADER) {
            // The page of the header held back: both in one write.
            uint8_t *page = sealed_copy(p, buf, amt);
            if (!page) return SQLITE_IOERR_NOMEM;
            p->pendingHeld = 0;
            p->pendingOffset = 0;
            int rc = sum_frame(p, page, size, off);
            if (rc != SQLITE_OK) return rc;
            memcpy(page - FRAME_HEADER, p->pendingHeader, FRAME_HEADER);
            return real->pMethods->xWrite(real, page - FRAME_HEADER, amt + FRAME_HEADER, off - FRAME_HEADER);
        }
        int rc = write_held_header(p);
        if (rc != SQLITE_OK) return rc;
        if (size != 0 && off == 0 && amt >= WAL_HEADER) {
            // A new log header: frames start over after it, from its checksum.
            check_sum_epoch(p);
            p->bigEndian = get32be(buf) & 1;
            remember_sum(p, WAL_HEADER, (const uint8_t *)buf + 24);
            p->logEnd = WAL_HEADER;
            p->pendingOffset = 0;
        } else if (isHeader) {
            check_sum_epoch(p);
            memcpy(p->pendingHeader, buf, FRAME_HEADER);
            p->pendingOffset = off;
            if (p->sumEpoch != 0 && off >= p->logEnd) {
                // An appended frame's header (SQLite rewrites only frames its transaction
                // appended, under the same write lock): its page follows at once, in the same
                // call of SQLite's, and takes it along.
                p->pendingHeld = 1;
                return SQLITE_OK;
            }
            // A header SQLite rewrote in place (summed over the page as stored): as it is.
            remember_sum(p, off + FRAME_HEADER + size, p->pendingHeader + 16);
        } else if (isPage) {
            const uint8_t *page = sealed_copy(p, buf, amt);
            if (!page) return SQLITE_IOERR_NOMEM;
            if (p->pendingOffset == off - FRAME_HEADER) {
                // Its header went out alone before it: written again with the right checksum.
                p->pendingOffset = 0;
                rc = sum_frame(p, page, size, off);
                if (rc == SQLITE_OK)
                    rc = real->pMethods->xWrite(real, p->pendingHeader, FRAME_HEADER, off - FRAME_HEADER);
                if (rc != SQLITE_OK) return rc;
            }
            return real->pMethods->xWrite(real, page, amt, off);
        }
    }
    return real->pMethods->xWrite(real, buf, amt, off);
}

static int pages_truncate(sqlite3_file *f, sqlite3_int64 size) {
    PagesFile *p = (PagesFile *)f;
    int rc = write_held_header(p);
    if (rc != SQLITE_OK) return rc;
    p->pendingOffset = 0;
    p->sumNext = 0;
    p->logEnd = 0;
    return REAL(p)->pMethods->xTruncate(REAL(p), size);
}
static int pages_sync(sqlite3_file *f, int flags) {
    PagesFile *p = (PagesFile *)f;
    int rc = write_held_header(p);
    return rc != SQLITE_OK ? rc : REAL(p)->pMethods->xSync(REAL(p), flags);
}
static int pages_file_size(sqlite3_file *f, sqlite3_int64 *size) {
    PagesFile *p = (PagesFile *)f;
    int rc = write_held_header(p);
    return rc != SQLITE_OK ? rc : REAL(p)->pMethods->xFileSize(REAL(p), size);
}
static int pages_lock(sqlite3_file *f, int level) {
    PagesFile *p = (PagesFile *)f;
    int rc = REAL(p)->pMethods->xLock(REAL(p), level);
    // Without a log, a read transaction begins with the shared lock on the file.
    if (rc == SQLITE_OK && level == SQLITE_LOCK_SHARED) next_epoch(p);
    return rc;
}
static int pages_unlock(sqlite3_file *f, int level) {
    return REAL((PagesFile *)f)->pMethods->xUnlock(REAL((PagesFile *)f), level);
}
static int pages_check_reserved_lock(sqlite3_file *f, int *out) {
    return REAL((PagesFile *)f)->pMethods->xCheckReservedLock(REAL((PagesFile *)f), out);
}
static int pages_file_control(sqlite3_file *f, int op, void *arg) {
    PagesFile *p = (PagesFile *)f;
    if (op == FCNTL_SEALING) {
        if (p->kind != KIND_MAIN) return SQLITE_NOTFOUND;
        p->sealing = *(int *)arg != 0;
        return SQLITE_OK;
    }
    int rc = write_held_header(p);
    if (rc != SQLITE_OK) return rc;
    rc = REAL(p)->pMethods->xFileControl(REAL(p), op, arg);
    if (op == SQLITE_FCNTL_VFSNAME && rc == SQLITE_OK) {
        char *below = *(char **)arg;
        *(char **)arg = below ? sqlite3_mprintf(VFS_NAME "/%z", below) : sqlite3_mprintf(VFS_NAME);
    }
    return rc;
}
static int pages_sector_size(sqlite3_file *f) { return REAL((PagesFile *)f)->pMethods->xSectorSize(REAL((PagesFile *)f)); }
static int pages_device_characteristics(sqlite3_file *f) {
    return REAL((PagesFile *)f)->pMethods->xDeviceCharacteristics(REAL((PagesFile *)f));
}
static int pages_shm_map(sqlite3_file *f, int region, int size, int extend, void volatile **pp) {
    sqlite3_file *real = REAL((PagesFile *)f);
    if (real->pMethods->iVersion < 2 || !real->pMethods->xShmMap) return SQLITE_IOERR_SHMMAP;
    return real->pMethods->xShmMap(real, region, size, extend, pp);
}
static int pages_shm_lock(sqlite3_file *f, int offset, int n, int flags) {
    PagesFile *p = (PagesFile *)f;
    sqlite3_file *real = REAL(p);
    if (real->pMethods->iVersion < 2 || !real->pMethods->xShmLock) return SQLITE_IOERR_SHMLOCK;
    int rc = real->pMethods->xShmLock(real, offset, n, flags);
    if (rc == SQLITE_OK && offset <= WRITE_LOCK && WRITE_LOCK < offset + n && (flags & SQLITE_SHM_LOCK)
        && (flags & SQLITE_SHM_EXCLUSIVE) && ++p->writeEpoch == 0) {
        p->writeEpoch = 1;
    }
    if (rc == SQLITE_OK && offset >= FIRST_READ_LOCK && (flags & SQLITE_SHM_LOCK) && (flags & SQLITE_SHM_SHARED)) {
        next_epoch(p);
    }
    return rc;
}
static void pages_shm_barrier(sqlite3_file *f) {
    sqlite3_file *real = REAL((PagesFile *)f);
    if (real->pMethods->iVersion >= 2 && real->pMethods->xShmBarrier) real->pMethods->xShmBarrier(real);
}
static int pages_shm_unmap(sqlite3_file *f, int deleteFlag) {
    sqlite3_file *real = REAL((PagesFile *)f);
    if (real->pMethods->iVersion < 2 || !real->pMethods->xShmUnmap) return SQLITE_OK;
    return real->pMethods->xShmUnmap(real, deleteFlag);
}
static int maps_checked_pages = 1;

void cchatpages_set_mapping(int32_t on) { __atomic_store_n(&maps_checked_pages, on != 0, __ATOMIC_RELAXED); }

static int pages_fetch(sqlite3_file *f, sqlite3_int64 off, int amt, void **pp) {
    PagesFile *p = (PagesFile *)f;
    sqlite3_file *real = REAL(p);
    *pp = NULL;
    if (real->pMethods->iVersion < 3 || !real->pMethods->xFetch) return SQLITE_OK;
    // No map: SQLite reads the page into its cache instead, verified once per load.
    if (checked_page_size(p) != 0 && !__atomic_load_n(&maps_checked_pages, __ATOMIC_RELAXED)) return SQLITE_OK;
    int rc = real->pMethods->xFetch(real, off, amt, pp);
    if (rc != SQLITE_OK || !*pp) return rc;
    if (p->kind == KIND_MAIN && off == 0 && amt >= 100) learn_header(p, *pp);
    uint32_t size = checked_page_size(p);
    if (size == 0 || (uint32_t)amt != size || off % size != 0) return SQLITE_OK;
    // SQLite fetches a mapped page each time it needs it: a page is verified at its first
    // fetch in each read transaction (while one lasts, no other connection may change a page
    // of the file that it reads), and at every fetch when no transaction is known (a file
    // opened without locks, whose epoch stays 0).
    uint32_t page = (uint32_t)(off / size);
    struct verified *slot = NULL;
    if (p->epoch != 0) {
        if (!p->verified) {
            p->verified = sqlite3_malloc(VERIFIED_SLOTS * sizeof *p->verified);
            if (p->verified) memset(p->verified, 0, VERIFIED_SLOTS * sizeof *p->verified);
        }
        slot = p->verified ? &p->verified[page % VERIFIED_SLOTS] : NULL;
        if (slot && slot->epoch == p->epoch && slot->page == page) return SQLITE_OK;
    }
    if (!cchatpages_verify(*pp, amt)) {
        real->pMethods->xUnfetch(real, off, *pp);
        *pp = NULL;
        return mismatch();
    }
    if (slot) *slot = (struct verified){page, p->epoch};
    return SQLITE_OK;
}
static int pages_unfetch(sqlite3_file *f, sqlite3_int64 off, void *page) {
    sqlite3_file *real = REAL((PagesFile *)f);
    if (real->pMethods->iVersion < 3 || !real->pMethods->xUnfetch) return SQLITE_OK;
    return real->pMethods->xUnfetch(real, off, page);
}

static const sqlite3_io_methods pages_methods = {
    3,
    pages_close,
    pages_read,
    pages_write,
    pages_truncate,
    pages_sync,
    pages_file_size,
    pages_lock,
    pages_unlock,
    pages_check_reserved_lock,
    pages_file_control,
    pages_sector_size,
    pages_device_characteristics,
    pages_shm_map,
    pages_shm_lock,
    pages_shm_barrier,
    pages_shm_unmap,
    pages_fetch,
    pages_unfetch,
};

// MARK: - The VFS

static int pages_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *outFlags) {
    sqlite3_vfs *root = (sqlite3_vfs *)vfs->pAppData;
    // Journals and temporary files: the default VFS's own file in our space.
    if (!(flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL))) return root->xOpen(root, name, f, flags, outFlags);
    PagesFile *p = (PagesFile *)f;
    memset(p, 0, sizeof(*p));
    p->real = (sqlite3_file *)((uint8_t *)f + REAL_OFFSET);
    int rc = root->xOpen(root, name, p->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        // SQLite calls xClose only on what we set up: close what the default VFS left open.
        if (p->real->pMethods) p->real->pMethods->xClose(p->real);
        return rc;
    }
    if (flags & SQLITE_OPEN_MAIN_DB) {
        p->kind = KIND_MAIN;
        p->db = p;
        uint8_t header[100];
        if (p->real->pMethods->xRead(p->real, header, sizeof header, 0) == SQLITE_OK) learn_header(p, header);
    } else {
        p->kind = KIND_WAL;
        sqlite3_file *main = name ? sqlite3_database_file_object(name) : NULL;
        if (main && main->pMethods == &pages_methods) p->db = (PagesFile *)main;
    }
    p->base.pMethods = &pages_methods;
    return SQLITE_OK;
}

#define ROOT(vfs) ((sqlite3_vfs *)(vfs)->pAppData)
static int pages_delete(sqlite3_vfs *v, const char *name, int sync) { return ROOT(v)->xDelete(ROOT(v), name, sync); }
static int pages_access(sqlite3_vfs *v, const char *name, int flags, int *out) {
    return ROOT(v)->xAccess(ROOT(v), name, flags, out);
}
static int pages_full_pathname(sqlite3_vfs *v, const char *name, int n, char *out) {
    return ROOT(v)->xFullPathname(ROOT(v), name, n, out);
}
static void *pages_dl_open(sqlite3_vfs *v, const char *path) { return ROOT(v)->xDlOpen(ROOT(v), path); }
static void pages_dl_error(sqlite3_vfs *v, int n, char *msg) { ROOT(v)->xDlError(ROOT(v), n, msg); }
static void (*pages_dl_sym(sqlite3_vfs *v, void *h, const char *sym))(void) { return ROOT(v)->xDlSym(ROOT(v), h, sym); }
static void pages_dl_close(sqlite3_vfs *v, void *h) { ROOT(v)->xDlClose(ROOT(v), h); }
static int pages_randomness(sqlite3_vfs *v, int n, char *out) { return ROOT(v)->xRandomness(ROOT(v), n, out); }
static int pages_sleep(sqlite3_vfs *v, int us) { return ROOT(v)->xSleep(ROOT(v), us); }
static int pages_current_time(sqlite3_vfs *v, double *t) { return ROOT(v)->xCurrentTime(ROOT(v), t); }
static int pages_get_last_error(sqlite3_vfs *v, int n, char *msg) {
    return ROOT(v)->xGetLastError ? ROOT(v)->xGetLastError(ROOT(v), n, msg) : 0;
}
static int pages_current_time_int64(sqlite3_vfs *v, sqlite3_int64 *t) {
    sqlite3_vfs *root = ROOT(v);
    if (root->iVersion >= 2 && root->xCurrentTimeInt64) return root->xCurrentTimeInt64(root, t);
    double d;
    int rc = root->xCurrentTime(root, &d);
    *t = (sqlite3_int64)(d * 86400000.0);
    return rc;
}

static sqlite3_vfs pages_vfs = {
    2,
    0,
    1024,
    NULL,
    VFS_NAME,
    NULL,
    pages_open,
    pages_delete,
    pages_access,
    pages_full_pathname,
    pages_dl_open,
    pages_dl_error,
    pages_dl_sym,
    pages_dl_close,
    pages_randomness,
    pages_sleep,
    pages_current_time,
    pages_get_last_error,
    pages_current_time_int64,
    NULL,
    NULL,
    NULL,
};

static int registered = SQLITE_ERROR;

static void register_once(void) {
    if (sqlite3_initialize() != SQLITE_OK) return;
    sqlite3_vfs *root = sqlite3_vfs_find(NULL);
    if (!root) return;
    pages_vfs.pAppData = root;
    pages_vfs.szOsFile = (int)(REAL_OFFSET + (size_t)root->szOsFile);
    pages_vfs.mxPathname = root->mxPathname;
    registered = sqlite3_vfs_register(&pages_vfs, 0);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

int32_t cchatpages_register(void) {
    pthread_once(&once, register_once);
    return registered;
}

int32_t cchatpages_set_reserve(void *db, int32_t bytes) {
    int n = bytes;
    int rc = sqlite3_file_control((sqlite3 *)db, "main", SQLITE_FCNTL_RESERVE_BYTES, &n);
    return rc == SQLITE_OK ? n : -1;
}

int32_t cchatpages_set_sealing(void *db, int32_t on) {
    int flag = on;
    return sqlite3_file_control((sqlite3 *)db, "main", FCNTL_SEALING, &flag);
}

int32_t cchatpages_memory_statistics_off(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

int64_t cchatpages_read_head(const char *path, uint8_t *out, int32_t n) {
    if (sqlite3_initialize() != SQLITE_OK || n < 0) return -1;
    sqlite3_vfs *root = sqlite3_vfs_find(NULL);
    if (!root || !path) return -1;
    char *full = sqlite3_malloc(root->mxPathname + 1);
    sqlite3_file *f = sqlite3_malloc(root->szOsFile);
    int64_t size = -1;
    if (full && f && root->xFullPathname(root, path, root->mxPathname + 1, full) == SQLITE_OK) {
        memset(f, 0, (size_t)root->szOsFile);
        int outFlags = 0;
        // As a main database file: the one kind whose descriptor the default VFS keeps while
        // the process holds locks on the file.
        int rc = root->xOpen(root, full, f, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &outFlags);
        if (rc == SQLITE_OK) {
            sqlite3_int64 s = 0;
            if (f->pMethods->xFileSize(f, &s) == SQLITE_OK) {
                rc = n > 0 ? f->pMethods->xRead(f, out, n, 0) : SQLITE_OK;
                if (rc == SQLITE_OK || rc == SQLITE_IOERR_SHORT_READ) size = s;
            }
        }
        if (f->pMethods) f->pMethods->xClose(f);
    }
    sqlite3_free(f);
    sqlite3_free(full);
    return size;
}
