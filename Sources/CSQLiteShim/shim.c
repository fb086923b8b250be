#include <sqlite3.h>

#include "csqliteshim.h"

int ootd_sqlite_disable_memstatus(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

int ootd_sqlite_no_bulk_page_cache(void) { return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0); }

int ootd_sqlite_no_checkpoint_on_close(struct sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
