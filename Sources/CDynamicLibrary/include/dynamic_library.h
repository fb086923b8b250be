#ifndef OOTD_DYNAMIC_LIBRARY_H
#define OOTD_DYNAMIC_LIBRARY_H

#include <pthread.h>
#include <stddef.h>

// How ootd loads a shared library on first use (libcurl, libpq: docs/decisions/dlopen.md), written
// once for both shims: the first of `names` that opens is returned and named in `*opened`; when
// none does, `error` says "NAME was not found<missing_hint>" (the library is not installed) or
// "NAME could not be loaded: REASON", NAME being the first name, and NULL is returned.
void *ootd_dl_open(const char *const *names, size_t count, const char **opened,
                   const char *missing_hint, char *error, size_t size);

// The address of `name` in `handle`; when it is missing, and `error` is still empty, `error`
// says "LIBRARY lacks the symbol NAME" (the first missing symbol is the one reported).
void *ootd_dl_symbol(void *handle, const char *library, const char *name, char *error,
                     size_t size);

// The start of a shim's load-once function: takes `lock`; when the library is already loaded
// (`*loaded`), gives the lock back and returns 1 (nothing to do), else returns 0 with the lock
// held, for the load and ootd_dl_end_load.
int ootd_dl_begin_load(pthread_mutex_t *lock, const int *loaded);

// The end of a shim's load-once function, `lock` held: keeps `handle` (sets `*loaded`) when
// `message`, the load's error, is empty, else closes it (when it opened); gives the lock back;
// copies `message` into the caller's `error` (when it has room) when the load failed. A failed
// load is not remembered: the next call tries again. Returns `*loaded`.
int ootd_dl_end_load(void *handle, const char *message, int *loaded, pthread_mutex_t *lock,
                     char *error, size_t error_size);

#endif
