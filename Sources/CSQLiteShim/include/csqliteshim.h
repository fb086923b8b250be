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

#endif
