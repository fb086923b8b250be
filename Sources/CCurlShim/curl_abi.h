// The part of libcurl's stable ABI (libcurl.so.4) that shim.c uses, declared here so that ootd
// builds without libcurl's development headers: the library is loaded with dlopen at run time
// and no curl symbol is linked. Written from libcurl's documented ABI, which has not changed
// for these names since libcurl 7.x; scripts/check-no-curl-headers compares every number with
// <curl/curl.h> when that header is installed.
//
// Private to CCurlShim (it is not under include/, so Swift never sees it).

#ifndef OOTD_CURL_ABI_H
#define OOTD_CURL_ABI_H

#include <stddef.h>

// An easy handle and a header list are opaque to the shim.
typedef void ootd_curl_easy;
typedef struct ootd_curl_slist ootd_curl_slist;

// CURLcode and CURLoption/CURLINFO are C enums: passed as int.
typedef int ootd_curl_code;
typedef int ootd_curl_option;
typedef int ootd_curl_info;

// Result codes.
#define OOTD_CURLE_OK 0
#define OOTD_CURLE_WRITE_ERROR 23

// curl_global_init flags: CURL_GLOBAL_SSL | CURL_GLOBAL_WIN32, i.e. CURL_GLOBAL_DEFAULT.
#define OOTD_CURL_GLOBAL_DEFAULT 3L

// The size CURLOPT_ERRORBUFFER must have.
#define OOTD_CURL_ERROR_SIZE 256

// Option numbers: a type base plus an index. Long options take a `long`, object options a
// pointer (string, list or user data), function options a function pointer.
#define OOTD_CURLOPTTYPE_LONG 0
#define OOTD_CURLOPTTYPE_OBJECTPOINT 10000
#define OOTD_CURLOPTTYPE_FUNCTIONPOINT 20000
#define OOTD_CURLOPTTYPE_OFF_T 30000

#define OOTD_CURLOPT_WRITEDATA (OOTD_CURLOPTTYPE_OBJECTPOINT + 1)
#define OOTD_CURLOPT_URL (OOTD_CURLOPTTYPE_OBJECTPOINT + 2)
#define OOTD_CURLOPT_ERRORBUFFER (OOTD_CURLOPTTYPE_OBJECTPOINT + 10)
#define OOTD_CURLOPT_WRITEFUNCTION (OOTD_CURLOPTTYPE_FUNCTIONPOINT + 11)
#define OOTD_CURLOPT_TIMEOUT (OOTD_CURLOPTTYPE_LONG + 13)
#define OOTD_CURLOPT_CAINFO (OOTD_CURLOPTTYPE_OBJECTPOINT + 65)
#define OOTD_CURLOPT_HTTPHEADER (OOTD_CURLOPTTYPE_OBJECTPOINT + 23)
#define OOTD_CURLOPT_HEADERDATA (OOTD_CURLOPTTYPE_OBJECTPOINT + 29)
#define OOTD_CURLOPT_FOLLOWLOCATION (OOTD_CURLOPTTYPE_LONG + 52)
#define OOTD_CURLOPT_CONNECTTIMEOUT (OOTD_CURLOPTTYPE_LONG + 78)
#define OOTD_CURLOPT_HEADERFUNCTION (OOTD_CURLOPTTYPE_FUNCTIONPOINT + 79)
#define OOTD_CURLOPT_HTTPGET (OOTD_CURLOPTTYPE_LONG + 80)
#define OOTD_CURLOPT_NOSIGNAL (OOTD_CURLOPTTYPE_LONG + 99)
#define OOTD_CURLOPT_ACCEPT_ENCODING (OOTD_CURLOPTTYPE_OBJECTPOINT + 102)
#define OOTD_CURLOPT_NOPROXY (OOTD_CURLOPTTYPE_OBJECTPOINT + 177)
#define OOTD_CURLOPT_PROTOCOLS_STR (OOTD_CURLOPTTYPE_OBJECTPOINT + 318)
#define OOTD_CURLOPT_POSTFIELDS (OOTD_CURLOPTTYPE_OBJECTPOINT + 15)
#define OOTD_CURLOPT_CUSTOMREQUEST (OOTD_CURLOPTTYPE_OBJECTPOINT + 36)
#define OOTD_CURLOPT_POST (OOTD_CURLOPTTYPE_LONG + 47)
#define OOTD_CURLOPT_POSTFIELDSIZE_LARGE (OOTD_CURLOPTTYPE_OFF_T + 120)

// Info numbers: a type base plus an index.
#define OOTD_CURLINFO_LONG 0x200000
#define OOTD_CURLINFO_RESPONSE_CODE (OOTD_CURLINFO_LONG + 2)

// The entry points, as function-pointer types for dlsym.
typedef ootd_curl_easy *(*ootd_curl_easy_init_fn)(void);
typedef ootd_curl_code (*ootd_curl_easy_setopt_fn)(ootd_curl_easy *, ootd_curl_option, ...);
typedef ootd_curl_code (*ootd_curl_easy_perform_fn)(ootd_curl_easy *);
typedef ootd_curl_code (*ootd_curl_easy_getinfo_fn)(ootd_curl_easy *, ootd_curl_info, ...);
typedef void (*ootd_curl_easy_cleanup_fn)(ootd_curl_easy *);
typedef void (*ootd_curl_easy_reset_fn)(ootd_curl_easy *);
typedef const char *(*ootd_curl_easy_strerror_fn)(ootd_curl_code);
typedef ootd_curl_slist *(*ootd_curl_slist_append_fn)(ootd_curl_slist *, const char *);
typedef void (*ootd_curl_slist_free_all_fn)(ootd_curl_slist *);
typedef ootd_curl_code (*ootd_curl_global_init_fn)(long);

// The write and header callbacks' type (curl_write_callback).
typedef size_t (*ootd_curl_write_fn)(char *, size_t, size_t, void *);

#endif
