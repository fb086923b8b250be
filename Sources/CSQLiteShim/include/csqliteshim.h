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

struct sqlite3;

/// Makes closing `db` leave its write-ahead log as it is, without the checkpoint (and the
/// removal of the `-wal`) that closing a file's last connection does otherwise
/// (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE = 1). Returns SQLITE_OK (0) or SQLite's error code.
///
/// A C function because sqlite3_db_config is variadic, which Swift cannot call.
int ootd_sqlite_no_checkpoint_on_close(struct sqlite3 *db);

#endif
