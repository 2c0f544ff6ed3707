// CChatPages: a checksum on every page of an archive file, kept in the 8 bytes SQLite reserves
// at the end of each page, written with every page and verified whenever a page is read.
//
// A VFS named "chatpages", in front of the default one, does it for the files SQLite opens
// through it (`file:PATH?vfs=chatpages`): the main database file and its write-ahead log. A
// file whose header does not reserve 8 bytes per page passes through unchanged, so archives
// made before checksums, and any other database, read and write as always. A page whose
// checksum does not match is SQLite's corruption error (SQLITE_CORRUPT).
//
// Only stdint types cross this header, so Swift imports it next to Foundation.
#ifndef CCHATPAGES_H
#define CCHATPAGES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The reserved bytes per page that carry a checksum.
#define CCHATPAGES_RESERVE 8

/// Registers the "chatpages" VFS (never as the default); returns an SQLite result code. Safe to
/// call from any thread, any number of times.
int32_t cchatpages_register(void);

/// Asks SQLite to reserve `bytes` at the end of each page of `db`'s main database (an
/// `sqlite3 *`) from its next VACUUM, or from its first page when it is still empty; returns
/// the reserve the database had, or a negative value when SQLite refuses.
int32_t cchatpages_set_reserve(void *db, int32_t bytes);

/// While `on`, every whole page `db`'s connection writes to its main database file is sealed,
/// whatever the file's header says: for the VACUUM that gives an archive its checksums, which
/// may write pages before it writes the page 1 that reserves their room. Returns an SQLite
/// result code (SQLITE_NOTFOUND when `db` does not open through the VFS).
int32_t cchatpages_set_sealing(void *db, int32_t on);

/// Whether pages of checksummed files may be read through SQLite's memory map (1, the default:
/// each is verified at its first fetch in each read transaction) or are always read into
/// SQLite's cache (0: verified once per load; see the PageChecksums article). For the bench,
/// which measures both.
void cchatpages_set_mapping(int32_t on);

/// Whether `page` (`size` bytes, its last 8 the checksum) holds a matching checksum: 1 or 0.
int32_t cchatpages_verify(const uint8_t *page, int64_t size);

/// Writes the checksum of `page`'s first `size - 8` bytes into its last 8.
void cchatpages_seal(uint8_t *page, int64_t size);

/// The number of pages whose checksum did not match since the process started (for tests and
/// the bench).
int64_t cchatpages_mismatches(void);

/// Reads the first `n` bytes of the file at `path` into `out` (zeros past its end) through the
/// default VFS, and returns the file's size, or -1 when it cannot be opened or read. Closing a
/// descriptor of a file drops every POSIX lock the process holds on it, SQLite's included; the
/// default VFS keeps a descriptor it closes open until the process's connections hold no lock
/// on the file, so a read of the header through it leaves their locks as they were.
int64_t cchatpages_read_head(const char *path, uint8_t *out, int32_t n);

/// Turns off SQLite's memory statistics (SQLITE_CONFIG_MEMSTATUS) for the whole process, so that
/// its allocations skip the process-wide mutex that counts them. Only before SQLite is first
/// used, from one thread: later SQLite refuses (SQLITE_MISUSE) and keeps counting. Returns an
/// SQLite result code. For this package's programs: a library leaves process-wide settings to
/// the app it runs in.
int32_t cchatpages_memory_statistics_off(void);

#ifdef __cplusplus
}
#endif

#endif
