// Loads libcurl at run time so that the ootd binary does not link it: a linked libcurl (and its
// dependency tree) costs every start of the program, although most commands need no network.
// curl.h is used only for constants and types; no libcurl symbol is referenced at link time.

#include "ccurlshim.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef CURL *(*easy_init_fn)(void);
typedef CURLcode (*easy_setopt_fn)(CURL *, CURLoption, ...);
typedef CURLcode (*easy_perform_fn)(CURL *);
typedef CURLcode (*easy_getinfo_fn)(CURL *, CURLINFO, ...);
typedef void (*easy_cleanup_fn)(CURL *);
typedef const char *(*easy_strerror_fn)(CURLcode);
typedef struct curl_slist *(*slist_append_fn)(struct curl_slist *, const char *);
typedef void (*slist_free_all_fn)(struct curl_slist *);
typedef CURLcode (*global_init_fn)(long);

static struct {
  easy_init_fn easy_init;
  easy_setopt_fn easy_setopt;
  easy_perform_fn easy_perform;
  easy_getinfo_fn easy_getinfo;
  easy_cleanup_fn easy_cleanup;
  easy_strerror_fn easy_strerror;
  slist_append_fn slist_append;
  slist_free_all_fn slist_free_all;
  global_init_fn global_init;
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int load_ok = 0;
static char load_error[400];

static void *symbol(void *handle, const char *name) {
  void *address = dlsym(handle, name);
  if (address == NULL && load_error[0] == '\0') {
    snprintf(load_error, sizeof load_error, "libcurl lacks the symbol %s", name);
  }
  return address;
}

static void load_curl(void) {
  // libcurl.so.4 is Debian's OpenSSL flavour; the GnuTLS flavour has the same ABI.
  const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4"};
  void *handle = NULL;
  char first_error[300] = "";
  for (size_t i = 0; i < sizeof names / sizeof names[0] && handle == NULL; i++) {
    handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL && first_error[0] == '\0') {
      const char *reason = dlerror();
      snprintf(first_error, sizeof first_error, "%s", reason ? reason : "unknown dlopen error");
    }
  }
  if (handle == NULL) {
    snprintf(load_error, sizeof load_error, "cannot load libcurl.so.4 (%s)", first_error);
    return;
  }
  curl.easy_init = (easy_init_fn)symbol(handle, "curl_easy_init");
  curl.easy_setopt = (easy_setopt_fn)symbol(handle, "curl_easy_setopt");
  curl.easy_perform = (easy_perform_fn)symbol(handle, "curl_easy_perform");
  curl.easy_getinfo = (easy_getinfo_fn)symbol(handle, "curl_easy_getinfo");
  curl.easy_cleanup = (easy_cleanup_fn)symbol(handle, "curl_easy_cleanup");
  curl.easy_strerror = (easy_strerror_fn)symbol(handle, "curl_easy_strerror");
  curl.slist_append = (slist_append_fn)symbol(handle, "curl_slist_append");
  curl.slist_free_all = (slist_free_all_fn)symbol(handle, "curl_slist_free_all");
  curl.global_init = (global_init_fn)symbol(handle, "curl_global_init");
  if (load_error[0] != '\0') return;
  // curl_global_init is not thread-safe; pthread_once makes this its only call.
  if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    snprintf(load_error, sizeof load_error, "curl_global_init failed");
    return;
  }
  load_ok = 1;
}

// A growable malloc'd buffer that libcurl's write callbacks append to.
typedef struct {
  char *data;
  size_t length;
  size_t capacity;
  int failed;
} buffer;

static size_t append(char *chunk, size_t size, size_t count, void *context) {
  buffer *target = (buffer *)context;
  size_t added = size * count;
  if (target->length + added + 1 > target->capacity) {
    size_t capacity = target->capacity ? target->capacity : 16384;
    while (target->length + added + 1 > capacity) capacity *= 2;
    char *grown = realloc(target->data, capacity);
    if (grown == NULL) {
      target->failed = 1;
      return 0;  // makes libcurl abort the transfer with CURLE_WRITE_ERROR
    }
    target->data = grown;
    target->capacity = capacity;
  }
  memcpy(target->data + target->length, chunk, added);
  target->length += added;
  target->data[target->length] = '\0';
  return added;
}

static void set_error(ootd_curl_response *out, const char *message) {
  snprintf(out->error, sizeof out->error, "%s", message);
}

int ootd_curl_get(const char *url, const char *const *headers, size_t header_count,
                  long connect_timeout_seconds, long total_timeout_seconds,
                  ootd_curl_response *out) {
  if (out == NULL) return OOTD_CURL_INTERNAL;
  memset(out, 0, sizeof *out);
  if (url == NULL || (header_count > 0 && headers == NULL)) {
    set_error(out, "invalid arguments");
    return OOTD_CURL_INTERNAL;
  }
  pthread_once(&load_once, load_curl);
  if (!load_ok) {
    set_error(out, load_error);
    return OOTD_CURL_UNAVAILABLE;
  }

  CURL *handle = curl.easy_init();
  if (handle == NULL) {
    set_error(out, "curl_easy_init failed");
    return OOTD_CURL_INTERNAL;
  }
  struct curl_slist *list = NULL;
  for (size_t i = 0; i < header_count; i++) {
    struct curl_slist *extended = curl.slist_append(list, headers[i]);
    if (extended == NULL) {
      curl.slist_free_all(list);
      curl.easy_cleanup(handle);
      set_error(out, "out of memory building request headers");
      return OOTD_CURL_INTERNAL;
    }
    list = extended;
  }

  buffer head = {0}, body = {0};
  char curl_error[CURL_ERROR_SIZE] = "";
  curl.easy_setopt(handle, CURLOPT_URL, url);
  curl.easy_setopt(handle, CURLOPT_HTTPGET, 1L);
  curl.easy_setopt(handle, CURLOPT_HTTPHEADER, list);
  curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);  // redirects are handled by the caller
  curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
  curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM: safe in a threaded process
  // Loopback is never sent through a proxy (http_proxy, ALL_PROXY): plain-HTTP requests, which
  // ootd allows only to loopback, would otherwise hand the token to the proxy in clear text.
  curl.easy_setopt(handle, CURLOPT_NOPROXY, "localhost,127.0.0.0/8,::1");
  curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, connect_timeout_seconds);
  curl.easy_setopt(handle, CURLOPT_TIMEOUT, total_timeout_seconds);
  curl.easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");  // gzip etc., decoded by libcurl
  curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, curl_error);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, append);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, &body);
  curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, append);
  curl.easy_setopt(handle, CURLOPT_HEADERDATA, &head);

  CURLcode code = curl.easy_perform(handle);
  int result = OOTD_CURL_OK;
  if (code != CURLE_OK) {
    const char *detail = curl_error[0] ? curl_error : curl.easy_strerror(code);
    snprintf(out->error, sizeof out->error, "%s", detail ? detail : "transfer failed");
    result = (head.failed || body.failed) ? OOTD_CURL_INTERNAL : OOTD_CURL_TRANSFER_FAILED;
    free(head.data);
    free(body.data);
  } else {
    long status = 0;
    curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
    out->status = status;
    out->headers = head.data;
    out->headers_length = head.length;
    out->body = body.data;
    out->body_length = body.length;
  }
  curl.slist_free_all(list);
  curl.easy_cleanup(handle);
  return result;
}

void ootd_curl_response_free(ootd_curl_response *response) {
  if (response == NULL) return;
  free(response->headers);
  free(response->body);
  response->headers = NULL;
  response->body = NULL;
  response->headers_length = 0;
  response->body_length = 0;
}
