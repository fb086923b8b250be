#define _GNU_SOURCE
#include "dynamic_library.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

void *ootd_dl_open(const char *const *names, size_t count, const char **opened,
                   const char *missing_hint, char *error, size_t size) {
  char first_reason[300] = "";
  for (size_t i = 0; i < count; i++) {
    void *handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (handle != NULL) {
      *opened = names[i];
      return handle;
    }
    const char *reason = dlerror();
    if (i == 0) snprintf(first_reason, sizeof first_reason, "%s", reason ? reason : "");
  }
  // dlerror says "NAME: cannot open shared object file: No such file or directory".
  if (strstr(first_reason, "No such file") != NULL) {
    snprintf(error, size, "%s was not found%s", names[0], missing_hint ? missing_hint : "");
  } else {
    snprintf(error, size, "%s could not be loaded: %s", names[0],
             first_reason[0] ? first_reason : "unknown dlopen error");
  }
  return NULL;
}

void *ootd_dl_symbol(void *handle, const char *library, const char *name, char *error,
                     size_t size) {
  void *address = dlsym(handle, name);
  if (address == NULL && error[0] == '\0') {
    snprintf(error, size, "%s lacks the symbol %s", library, name);
  }
  return address;
}

int ootd_dl_begin_load(pthread_mutex_t *lock, const int *loaded) {
  pthread_mutex_lock(lock);
  if (!*loaded) return 0;
  pthread_mutex_unlock(lock);
  return 1;
}

int ootd_dl_end_load(void *handle, const char *message, int *loaded, pthread_mutex_t *lock,
                     char *error, size_t error_size) {
  if (handle != NULL) {
    if (message[0] == '\0') {
      *loaded = 1;
    } else {
      dlclose(handle);
    }
  }
  int ok = *loaded;
  pthread_mutex_unlock(lock);
  if (!ok && error != NULL && error_size > 0) snprintf(error, error_size, "%s", message);
  return ok;
}
