#ifndef OOTD_CCURLSHIM_H
#define OOTD_CCURLSHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// The outcome codes of `ootd_curl_get`.
/// The request completed and `status`, `headers` and `body` are filled in.
#define OOTD_CURL_OK 0
/// libcurl could not be loaded with dlopen (or lacks a needed symbol); `error` says why.
#define OOTD_CURL_UNAVAILABLE 1
/// libcurl ran but the transfer failed (DNS, connect, TLS, timeout, ...); `error` says why.
#define OOTD_CURL_TRANSFER_FAILED 2
/// Memory ran out or an argument was invalid.
#define OOTD_CURL_INTERNAL 3
/// The body grew past `max_body_bytes` (or the headers past 1 MiB): the transfer was aborted.
#define OOTD_CURL_TOO_LARGE 4

/// What one GET produced. Buffers are malloc'd; release them with `ootd_curl_response_free`.
typedef struct ootd_curl_response {
  /// The HTTP status code of the (single, never followed) response.
  long status;
  /// The raw response header block(s), CRLF-separated, NUL-terminated.
  char *headers;
  size_t headers_length;
  /// The response body (NUL-terminated for convenience; may contain NULs).
  char *body;
  size_t body_length;
  /// A one-line, NUL-terminated description of what went wrong, when the result is not OK.
  char error[512];
} ootd_curl_response;

/// Loads libcurl with dlopen unless it is loaded already: `library` (a file name or path), or
/// "libcurl.so.4" then "libcurl-gnutls.so.4" when `library` is NULL. Once loaded, that library
/// serves the whole process and `library` is ignored; a failed load is retried on the next call.
///
/// Returns `OOTD_CURL_OK`, or `OOTD_CURL_UNAVAILABLE` with a one-line reason in `error`
/// (e.g. "libcurl.so.4 was not found").
int ootd_curl_load(const char *library, char *error, size_t error_size);

/// Loads libcurl as `ootd_curl_load` does and performs one HTTP GET.
///
/// Redirects are never followed (CURLOPT_FOLLOWLOCATION stays off); the caller handles them.
/// `headers` holds `header_count` "Name: value" strings. Timeouts are in seconds. A body (after
/// decompression) longer than `max_body_bytes` aborts the transfer as it arrives, so memory never
/// holds more than that.
/// Returns one of the `OOTD_CURL_*` codes; `out` is always initialised.
/// One libcurl handle kept across requests: its connection cache (keep-alive connections,
/// TLS sessions, DNS answers, the loaded CA store) serves every request made through it, one at
/// a time (a lock serialises them).
typedef struct ootd_curl_session ootd_curl_session;

ootd_curl_session *ootd_curl_session_create(void);
void ootd_curl_session_destroy(ootd_curl_session *session);

/// Performs one GET through `session` (NULL: a handle of its own). `ca_bundle` names a file of
/// CA certificates to trust instead of the system's (NULL: the system's).
int ootd_curl_get(const char *library, ootd_curl_session *session, const char *url,
                  const char *const *headers, size_t header_count, long connect_timeout_seconds,
                  long total_timeout_seconds, size_t max_body_bytes, const char *ca_bundle,
                  ootd_curl_response *out);

/// Performs one request with `method` (upper-case letters only, e.g. "PATCH") and `body`
/// (`body_length` bytes, may be NULL when 0) through `session`, as `ootd_curl_get` does. A body
/// goes out once: nothing here resends it after a timeout or a lost connection (the caller
/// decides, knowing whether the request is idempotent).
int ootd_curl_request(const char *library, ootd_curl_session *session, const char *method,
                      const char *url, const char *const *headers, size_t header_count,
                      const char *body, size_t body_length, long connect_timeout_seconds,
                      long total_timeout_seconds, size_t max_body_bytes, const char *ca_bundle,
                      ootd_curl_response *out);

/// Frees the buffers of a response filled in by `ootd_curl_get` (safe to call twice).
void ootd_curl_response_free(ootd_curl_response *response);

#ifdef __cplusplus
}
#endif

#endif
