// Loads libcurl at run time so that the ootd binary does not link it: a linked libcurl (and its
// dependency tree) costs every start of the program, although most commands need no network.
// The few types, entry points and option numbers used are declared in curl_abi.h, so building
// ootd needs no curl headers either.

#include "ccurlshim.h"
#include "curl_abi.h"
#include "dynamic_library.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
  ootd_curl_easy_init_fn easy_init;
  ootd_curl_easy_setopt_fn easy_setopt;
  ootd_curl_easy_perform_fn easy_perform;
  ootd_curl_easy_getinfo_fn easy_getinfo;
  ootd_curl_easy_cleanup_fn easy_cleanup;
  ootd_curl_easy_reset_fn easy_reset;
  ootd_curl_easy_strerror_fn easy_strerror;
  ootd_curl_slist_append_fn slist_append;
  ootd_curl_slist_free_all_fn slist_free_all;
  ootd_curl_global_init_fn global_init;
} curl;

// Guards loading. Once libcurl is loaded it serves the whole process; a failed load is not
// remembered, so the next call tries again (and reports again).
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int load_ok = 0;

#define symbol ootd_dl_symbol

// Opens `library`, or the default names when it is NULL; fills `error` when none loads.
static void *open_library(const char *library, const char **opened, char *error, size_t size) {
  // libcurl.so.4 is Debian's OpenSSL flavour; the GnuTLS flavour has the same ABI.
  const char *defaults[] = {"libcurl.so.4", "libcurl-gnutls.so.4"};
  const char *const *names = library ? &library : defaults;
  size_t count = library ? 1 : sizeof defaults / sizeof defaults[0];
  return ootd_dl_open(names, count, opened, "", error, size);
}

// Loads and initialises libcurl once; OOTD_CURL_OK when it is usable, else OOTD_CURL_UNAVAILABLE
// with `error` set.
int ootd_curl_load(const char *library, char *error, size_t error_size) {
  if (ootd_dl_begin_load(&load_lock, &load_ok)) return OOTD_CURL_OK;
  char message[400] = "";
  const size_t size = sizeof message;
  const char *name = NULL;
  void *handle = open_library(library, &name, message, size);
  if (handle != NULL) {
    curl.easy_init = (ootd_curl_easy_init_fn)symbol(handle, name, "curl_easy_init", message, size);
    curl.easy_setopt =
        (ootd_curl_easy_setopt_fn)symbol(handle, name, "curl_easy_setopt", message, size);
    curl.easy_perform =
        (ootd_curl_easy_perform_fn)symbol(handle, name, "curl_easy_perform", message, size);
    curl.easy_getinfo =
        (ootd_curl_easy_getinfo_fn)symbol(handle, name, "curl_easy_getinfo", message, size);
    curl.easy_cleanup =
        (ootd_curl_easy_cleanup_fn)symbol(handle, name, "curl_easy_cleanup", message, size);
    curl.easy_reset =
        (ootd_curl_easy_reset_fn)symbol(handle, name, "curl_easy_reset", message, size);
    curl.easy_strerror =
        (ootd_curl_easy_strerror_fn)symbol(handle, name, "curl_easy_strerror", message, size);
    curl.slist_append =
        (ootd_curl_slist_append_fn)symbol(handle, name, "curl_slist_append", message, size);
    curl.slist_free_all =
        (ootd_curl_slist_free_all_fn)symbol(handle, name, "curl_slist_free_all", message, size);
    curl.global_init =
        (ootd_curl_global_init_fn)symbol(handle, name, "curl_global_init", message, size);
    // curl_global_init is not thread-safe; the lock makes this its only call.
    if (message[0] == '\0' && curl.global_init(OOTD_CURL_GLOBAL_DEFAULT) != OOTD_CURLE_OK) {
      snprintf(message, size, "curl_global_init failed");
    }
  }
  return ootd_dl_end_load(handle, message, &load_ok, &load_lock, error, error_size) ? OOTD_CURL_OK
                                                                          : OOTD_CURL_UNAVAILABLE;
}

// A growable malloc'd buffer that libcurl's write callbacks append to, up to `limit` bytes.
typedef struct {
  char *data;
  size_t length;
  size_t capacity;
  size_t limit;
  int failed;
  int too_large;
} buffer;

static size_t append(char *chunk, size_t size, size_t count, void *context) {
  buffer *target = (buffer *)context;
  size_t added = size * count;
  if (added > target->limit - target->length) {
    target->too_large = 1;
    return 0;  // makes libcurl abort the transfer with CURLE_WRITE_ERROR
  }
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

// The most header bytes kept for one response (libcurl allows 300 KiB, redirects included).
#define MAX_HEADER_BYTES ((size_t)1 << 20)

struct ootd_curl_session {
  pthread_mutex_t lock;
  ootd_curl_easy *handle;
};

ootd_curl_session *ootd_curl_session_create(void) {
  ootd_curl_session *session = calloc(1, sizeof *session);
  if (session != NULL) pthread_mutex_init(&session->lock, NULL);
  return session;
}

void ootd_curl_session_destroy(ootd_curl_session *session) {
  if (session == NULL) return;
  if (session->handle != NULL) curl.easy_cleanup(session->handle);
  pthread_mutex_destroy(&session->lock);
  free(session);
}

// What is sent besides the URL and headers: the method and, for a write, its body.
typedef struct {
  const char *method;  // "GET", "PATCH", "POST", ...
  const char *body;    // NULL: no body
  size_t body_length;
} request_shape;

static int perform_request(ootd_curl_easy *handle, const request_shape *shape, const char *url,
                           const char *const *headers, size_t header_count,
                           long connect_timeout_seconds, long total_timeout_seconds,
                           size_t max_body_bytes, const char *ca_bundle, ootd_curl_response *out);

static int request_through(const char *library, ootd_curl_session *session,
                           const request_shape *shape, const char *url,
                           const char *const *headers, size_t header_count,
                           long connect_timeout_seconds, long total_timeout_seconds,
                           size_t max_body_bytes, const char *ca_bundle,
                           ootd_curl_response *out);

int ootd_curl_get(const char *library, ootd_curl_session *session, const char *url,
                  const char *const *headers, size_t header_count, long connect_timeout_seconds,
                  long total_timeout_seconds, size_t max_body_bytes, const char *ca_bundle,
                  ootd_curl_response *out) {
  request_shape shape = {"GET", NULL, 0};
  return request_through(library, session, &shape, url, headers, header_count,
                         connect_timeout_seconds, total_timeout_seconds, max_body_bytes,
                         ca_bundle, out);
}

int ootd_curl_request(const char *library, ootd_curl_session *session, const char *method,
                      const char *url, const char *const *headers, size_t header_count,
                      const char *body, size_t body_length, long connect_timeout_seconds,
                      long total_timeout_seconds, size_t max_body_bytes, const char *ca_bundle,
                      ootd_curl_response *out) {
  if (out == NULL) return OOTD_CURL_INTERNAL;
  // Only plain method names: the method becomes part of the request line.
  int valid = method != NULL && method[0] != '\0' && strlen(method) <= 16;
  for (const char *c = method; valid && *c; c++) valid = *c >= 'A' && *c <= 'Z';
  if (!valid || (body == NULL && body_length > 0)) {
    memset(out, 0, sizeof *out);
    set_error(out, "invalid arguments");
    return OOTD_CURL_INTERNAL;
  }
  request_shape shape = {method, body, body_length};
  return request_through(library, session, &shape, url, headers, header_count,
                         connect_timeout_seconds, total_timeout_seconds, max_body_bytes,
                         ca_bundle, out);
}

static int request_through(const char *library, ootd_curl_session *session,
                           const request_shape *shape, const char *url,
                           const char *const *headers, size_t header_count,
                           long connect_timeout_seconds, long total_timeout_seconds,
                           size_t max_body_bytes, const char *ca_bundle,
                           ootd_curl_response *out) {
  if (out == NULL) return OOTD_CURL_INTERNAL;
  memset(out, 0, sizeof *out);
  if (url == NULL || (header_count > 0 && headers == NULL)) {
    set_error(out, "invalid arguments");
    return OOTD_CURL_INTERNAL;
  }
  if (ootd_curl_load(library, out->error, sizeof out->error) != OOTD_CURL_OK) return OOTD_CURL_UNAVAILABLE;

  if (session == NULL) {
    ootd_curl_easy *handle = curl.easy_init();
    if (handle == NULL) {
      set_error(out, "curl_easy_init failed");
      return OOTD_CURL_INTERNAL;
    }
    int result = perform_request(handle, shape, url, headers, header_count,
                                 connect_timeout_seconds, total_timeout_seconds, max_body_bytes,
                                 ca_bundle, out);
    curl.easy_cleanup(handle);
    return result;
  }
  pthread_mutex_lock(&session->lock);
  if (session->handle == NULL) {
    session->handle = curl.easy_init();
  } else {
    // Forgets the options of the last request, keeps its connections and caches.
    curl.easy_reset(session->handle);
  }
  int result = OOTD_CURL_INTERNAL;
  if (session->handle == NULL) {
    set_error(out, "curl_easy_init failed");
  } else {
    result = perform_request(session->handle, shape, url, headers, header_count,
                             connect_timeout_seconds, total_timeout_seconds, max_body_bytes,
                             ca_bundle, out);
  }
  pthread_mutex_unlock(&session->lock);
  return result;
}

static int perform_request(ootd_curl_easy *handle, const request_shape *shape, const char *url,
                           const char *const *headers, size_t header_count,
                           long connect_timeout_seconds, long total_timeout_seconds,
                           size_t max_body_bytes, const char *ca_bundle, ootd_curl_response *out) {
  ootd_curl_slist *list = NULL;
  for (size_t i = 0; i < header_count; i++) {
    ootd_curl_slist *extended = curl.slist_append(list, headers[i]);
    if (extended == NULL) {
      curl.slist_free_all(list);
      set_error(out, "out of memory building request headers");
      return OOTD_CURL_INTERNAL;
    }
    list = extended;
  }

  buffer head = {.limit = MAX_HEADER_BYTES}, body = {.limit = max_body_bytes};
  char curl_error[OOTD_CURL_ERROR_SIZE] = "";
  curl.easy_setopt(handle, OOTD_CURLOPT_URL, url);
  if (strcmp(shape->method, "GET") == 0) {
    curl.easy_setopt(handle, OOTD_CURLOPT_HTTPGET, 1L);
  } else {
    // A body (possibly empty) sent as given, under the method named; libcurl never resends
    // it by itself (no redirects are followed, and a failed transfer is reported, not retried).
    curl.easy_setopt(handle, OOTD_CURLOPT_POST, 1L);
    curl.easy_setopt(handle, OOTD_CURLOPT_POSTFIELDS, shape->body ? shape->body : "");
    curl.easy_setopt(handle, OOTD_CURLOPT_POSTFIELDSIZE_LARGE, (long long)shape->body_length);
    if (strcmp(shape->method, "POST") != 0) {
      curl.easy_setopt(handle, OOTD_CURLOPT_CUSTOMREQUEST, shape->method);
    }
  }
  curl.easy_setopt(handle, OOTD_CURLOPT_HTTPHEADER, list);
  curl.easy_setopt(handle, OOTD_CURLOPT_FOLLOWLOCATION, 0L);  // redirects are handled by the caller
  curl.easy_setopt(handle, OOTD_CURLOPT_PROTOCOLS_STR, "http,https");
  curl.easy_setopt(handle, OOTD_CURLOPT_NOSIGNAL, 1L);  // no SIGALRM: safe in a threaded process
  // Loopback is never sent through a proxy (http_proxy, ALL_PROXY): plain-HTTP requests, which
  // ootd allows only to loopback, would otherwise hand the token to the proxy in clear text.
  curl.easy_setopt(handle, OOTD_CURLOPT_NOPROXY, "localhost,127.0.0.0/8,::1");
  curl.easy_setopt(handle, OOTD_CURLOPT_CONNECTTIMEOUT, connect_timeout_seconds);
  curl.easy_setopt(handle, OOTD_CURLOPT_TIMEOUT, total_timeout_seconds);
  curl.easy_setopt(handle, OOTD_CURLOPT_ACCEPT_ENCODING, "");  // gzip etc., decoded by libcurl
  if (ca_bundle != NULL) curl.easy_setopt(handle, OOTD_CURLOPT_CAINFO, ca_bundle);
  curl.easy_setopt(handle, OOTD_CURLOPT_ERRORBUFFER, curl_error);
  curl.easy_setopt(handle, OOTD_CURLOPT_WRITEFUNCTION, (ootd_curl_write_fn)append);
  curl.easy_setopt(handle, OOTD_CURLOPT_WRITEDATA, &body);
  curl.easy_setopt(handle, OOTD_CURLOPT_HEADERFUNCTION, (ootd_curl_write_fn)append);
  curl.easy_setopt(handle, OOTD_CURLOPT_HEADERDATA, &head);

  ootd_curl_code code = curl.easy_perform(handle);
  int result = OOTD_CURL_OK;
  if (code != OOTD_CURLE_OK) {
    const char *detail = curl_error[0] ? curl_error : curl.easy_strerror(code);
    snprintf(out->error, sizeof out->error, "%s", detail ? detail : "transfer failed");
    if (head.too_large || body.too_large) {
      size_t limit = head.too_large ? head.limit : body.limit;
      snprintf(out->error, sizeof out->error, "the response %s is larger than %zu %s",
               head.too_large ? "header" : "body",
               limit % (1 << 20) == 0 ? limit >> 20 : limit,
               limit % (1 << 20) == 0 ? "MiB" : "bytes");
      result = OOTD_CURL_TOO_LARGE;
    } else {
      result = (head.failed || body.failed) ? OOTD_CURL_INTERNAL : OOTD_CURL_TRANSFER_FAILED;
    }
    free(head.data);
    free(body.data);
  } else {
    long status = 0;
    curl.easy_getinfo(handle, OOTD_CURLINFO_RESPONSE_CODE, &status);
    out->status = status;
    out->headers = head.data;
    out->headers_length = head.length;
    out->body = body.data;
    out->body_length = body.length;
  }
  curl.slist_free_all(list);
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
