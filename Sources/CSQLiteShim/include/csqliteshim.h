#ifndef CSQLITESHIM_H
#define CSQLITESHIM_H

/// Turns SQLite's memory statistics off for the whole process (SQLITE_CONFIG_MEMSTATUS = 0, as
/// SQLite's own list of recommended compile-time options has it: SQLITE_DEFAULT_MEMSTATUS=0).
/// With them on, every allocation and free takes a global mutex and updates counters that ootd
/// never reads. It must run before SQLite is first used; returns SQLITE_OK (0), or
/// SQLITE_MISUSE (21) when SQLite was already initialised, which changes nothing.
///
/// A C function because sqlite3_config is variadic, which Swift cannot call.
int ootd_sqlite_disable_memstatus(void);

/// Makes each page cache (every connection's, and every temporary b-tree's that a statement
/// opens for an IN list or an ORDER BY with a LIMIT) take memory one page at a time as it needs
/// it, without the first bulk allocation of 20 pages (~88 KB) that SQLite makes otherwise
/// (SQLITE_CONFIG_PAGECACHE with no buffer and N = 0: SQLITE_DEFAULT_PCACHE_INITSZ's bulk off).
/// That bulk is touched slot by slot when it is made, so each cache cost ~22 page faults even
/// when it held one page. Must run before SQLite is first used, as above.
int ootd_sqlite_no_bulk_page_cache(void);

struct sqlite3;

/// Makes closing `db` leave its write-ahead log as it is, without the checkpoint (and the
/// removal of the `-wal`) that closing a file's last connection does otherwise
/// (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE = 1). Returns SQLITE_OK (0) or SQLite's error code.
///
/// A C function because sqlite3_db_config is variadic, which Swift cannot call.
int ootd_sqlite_no_checkpoint_on_close(struct sqlite3 *db);

/// A test seam (called by debug builds only, for `OOTD_FAULT=wal-index:N:full`): makes the
/// default VFS one whose files' wal-index (`-shm`) cannot grow from the Nth time SQLite maps it
/// on, as on a full disk: SQLite makes the `-shm` (and the empty `-wal`) as usual, and the map
/// fails with SQLITE_IOERR_SHMSIZE, as when writing its pages fails with ENOSPC. A `-shm` already
/// big enough maps as before (it needs no space). Must run before the first connection opens.
/// Returns SQLITE_OK (0) or SQLite's error code.
int ootd_sqlite_fail_wal_index_growth(int from);

#endif
