// The libsodium entry points ootd calls, declared here so that building ootd needs no
// libsodium headers (libsodium-dev): the library is loaded with dlopen at run time, by the
// commands that sync with a server only (docs/decisions/encryption.md).
#ifndef OOTD_SODIUM_ABI_H
#define OOTD_SODIUM_ABI_H

#include <stddef.h>

typedef int (*ootd_sodium_init_fn)(void);
typedef int (*ootd_xchacha_encrypt_fn)(unsigned char *c, unsigned long long *clen_p,
                                       const unsigned char *m, unsigned long long mlen,
                                       const unsigned char *ad, unsigned long long adlen,
                                       const unsigned char *nsec, const unsigned char *npub,
                                       const unsigned char *k);
typedef int (*ootd_xchacha_decrypt_fn)(unsigned char *m, unsigned long long *mlen_p,
                                       unsigned char *nsec, const unsigned char *c,
                                       unsigned long long clen, const unsigned char *ad,
                                       unsigned long long adlen, const unsigned char *npub,
                                       const unsigned char *k);
typedef int (*ootd_pwhash_fn)(unsigned char *const out, unsigned long long outlen,
                              const char *const passwd, unsigned long long passwdlen,
                              const unsigned char *const salt, unsigned long long opslimit,
                              size_t memlimit, int alg);
typedef void (*ootd_randombytes_buf_fn)(void *const buf, const size_t size);
typedef void (*ootd_memzero_fn)(void *const pnt, const size_t len);
typedef size_t (*ootd_size_getter_fn)(void);
typedef int (*ootd_int_getter_fn)(void);
typedef unsigned long long (*ootd_ull_getter_fn)(void);

#endif
