#include <sqlite3.h>

#include "csqliteshim.h"

int ootd_sqlite_disable_memstatus(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
