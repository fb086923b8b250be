#include <sqlite3.h>

#include "csqliteshim.h"

int ootd_sqlite_disable_memstatus(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

int ootd_sqlite_no_bulk_page_cache(void) { return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0); }

int ootd_sqlite_no_checkpoint_on_close(struct sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

// The full-disk seam (see csqliteshim.h): the default VFS's files, with `xShmMap` replaced.

static sqlite3_vfs *ootd_real_vfs;
static sqlite3_vfs ootd_full_disk_vfs;
static const sqlite3_io_methods *ootd_real_file_methods;
static sqlite3_io_methods ootd_full_disk_file_methods;
static int ootd_wal_index_maps;
static int ootd_wal_index_fails_from;

static int ootd_full_disk_shm_map(sqlite3_file *file, int region, int size, int extend, void volatile **pointer) {
  if (__atomic_add_fetch(&ootd_wal_index_maps, 1, __ATOMIC_SEQ_CST) < ootd_wal_index_fails_from) {
    return ootd_real_file_methods->xShmMap(file, region, size, extend, pointer);
  }
  // Opens (makes) the -shm as SQLite does, without growing it: a region it holds already maps.
  int code = ootd_real_file_methods->xShmMap(file, region, size, 0, pointer);
  if (code == SQLITE_OK && *pointer == 0 && extend) return SQLITE_IOERR_SHMSIZE;
  return code;
}

static int ootd_full_disk_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
  (void)vfs;
  int code = ootd_real_vfs->xOpen(ootd_real_vfs, name, file, flags, outFlags);
  const sqlite3_io_methods *methods = file->pMethods;
  if (code != SQLITE_OK || methods == 0 || methods->iVersion < 2 || methods->xShmMap == 0) return code;
  if (ootd_real_file_methods == 0) {
    ootd_real_file_methods = methods;
    ootd_full_disk_file_methods = *methods;
    ootd_full_disk_file_methods.xShmMap = ootd_full_disk_shm_map;
  }
  if (methods == ootd_real_file_methods) file->pMethods = &ootd_full_disk_file_methods;
  return code;
}

int ootd_sqlite_fail_wal_index_growth(int from) {
  ootd_real_vfs = sqlite3_vfs_find(0);
  if (ootd_real_vfs == 0) return SQLITE_ERROR;
  ootd_full_disk_vfs = *ootd_real_vfs;
  ootd_full_disk_vfs.zName = "ootd-full-disk";
  ootd_full_disk_vfs.xOpen = ootd_full_disk_open;
  ootd_wal_index_fails_from = from;
  return sqlite3_vfs_register(&ootd_full_disk_vfs, 1);
}
