#ifndef OOTD_DYNAMIC_LIBRARY_H
#define OOTD_DYNAMIC_LIBRARY_H

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

#endif
