#ifndef OOTD_CSODIUMSHIM_H
#define OOTD_CSODIUMSHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// libsodium's sizes and parameters ootd uses (sodium/crypto_aead_xchacha20poly1305.h and
// sodium/crypto_pwhash_argon2id.h of libsodium 1.0.18; the library's own getters for them are
// compared with these in Tests/EncryptionTests/EnvelopeTests.swift).
#define OOTD_XCHACHA_KEYBYTES 32
#define OOTD_XCHACHA_NPUBBYTES 24
#define OOTD_XCHACHA_ABYTES 16
#define OOTD_PWHASH_ALG_ARGON2ID13 2
#define OOTD_PWHASH_SALTBYTES 16
#define OOTD_PWHASH_OPSLIMIT_MIN 1ULL
#define OOTD_PWHASH_MEMLIMIT_MIN 8192ULL
#define OOTD_PWHASH_OPSLIMIT_MODERATE 3ULL
#define OOTD_PWHASH_MEMLIMIT_MODERATE 268435456ULL

/// Loads libsodium (libsodium.so.23) with dlopen unless it is loaded already, and runs
/// sodium_init. Once loaded it serves the whole process; a failed load is retried on the next
/// call. Returns 1 when usable, else 0 with a one-line reason in `error` (naming Debian's
/// libsodium23 when the library is missing).
int ootd_sodium_load(const char *library, char *error, size_t error_size);

/// Whether libsodium is loaded in this process (tests check commands without a sync never load it).
int ootd_sodium_is_loaded(void);

/// libsodium's own values of the constants above, in the order they are defined (for the ABI
/// test): keybytes, npubbytes, abytes, alg_argon2id13, saltbytes, opslimit_min, memlimit_min,
/// opslimit_moderate, memlimit_moderate. Returns 0 when a getter is missing.
int ootd_sodium_constants(unsigned long long values[9]);

/// crypto_aead_xchacha20poly1305_ietf_encrypt: `out` has room for `length` + ABYTES bytes.
int ootd_sodium_seal(unsigned char *out, const unsigned char *message, unsigned long long length,
                     const unsigned char *ad, unsigned long long ad_length,
                     const unsigned char *nonce, const unsigned char *key);

/// crypto_aead_xchacha20poly1305_ietf_decrypt: `out` has room for `length` - ABYTES bytes.
/// Returns 0 when the ciphertext authenticates, -1 when it does not (nothing usable in `out`).
int ootd_sodium_open(unsigned char *out, const unsigned char *ciphertext, unsigned long long length,
                     const unsigned char *ad, unsigned long long ad_length,
                     const unsigned char *nonce, const unsigned char *key);

/// crypto_pwhash with Argon2id 1.3. Returns 0, or -1 (out of memory, parameters out of range).
int ootd_sodium_argon2id(unsigned char *out, unsigned long long out_length, const char *password,
                         unsigned long long password_length, const unsigned char *salt,
                         unsigned long long opslimit, size_t memlimit);

/// randombytes_buf: `size` bytes from the system's random source.
void ootd_sodium_random(void *buffer, size_t size);

/// sodium_memzero: clears `length` bytes in a way the compiler does not remove.
void ootd_sodium_memzero(void *buffer, size_t length);

#ifdef __cplusplus
}
#endif

#endif
