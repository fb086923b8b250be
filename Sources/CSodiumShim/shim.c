// Loads libsodium at run time, as CLibPQShim loads libpq: only the commands that sync with a
// server (which encrypt and decrypt the payloads) pay for it, and building ootd needs no
// libsodium headers. The entry points used are declared in sodium_abi.h.

#include "csodiumshim.h"
#include "dynamic_library.h"
#include "sodium_abi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
  void *handle;
  ootd_sodium_init_fn init;
  ootd_xchacha_encrypt_fn encrypt;
  ootd_xchacha_decrypt_fn decrypt;
  ootd_pwhash_fn pwhash;
  ootd_randombytes_buf_fn random;
  ootd_memzero_fn memzero;
} sodium;

static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int load_ok = 0;

#define LOAD(field, type, name) \
  sodium.field = (type)ootd_dl_symbol(handle, library, name, message, sizeof message)

int ootd_sodium_load(const char *library, char *error, size_t error_size) {
  if (ootd_dl_begin_load(&load_lock, &load_ok)) return 1;
  char message[400] = "";
  if (library == NULL) library = "libsodium.so.23";
  const char *opened = NULL;
  void *handle =
      ootd_dl_open(&library, 1, &opened, " (install Debian's libsodium23)", message, sizeof message);
  if (handle != NULL) {
    LOAD(init, ootd_sodium_init_fn, "sodium_init");
    LOAD(encrypt, ootd_xchacha_encrypt_fn, "crypto_aead_xchacha20poly1305_ietf_encrypt");
    LOAD(decrypt, ootd_xchacha_decrypt_fn, "crypto_aead_xchacha20poly1305_ietf_decrypt");
    LOAD(pwhash, ootd_pwhash_fn, "crypto_pwhash");
    LOAD(random, ootd_randombytes_buf_fn, "randombytes_buf");
    LOAD(memzero, ootd_memzero_fn, "sodium_memzero");
    // sodium_init returns 0 (initialised), 1 (already) or -1 (failure).
    if (message[0] == '\0' && sodium.init() < 0) {
      snprintf(message, sizeof message, "libsodium.so.23 could not be initialised (sodium_init failed)");
    }
    if (message[0] == '\0') sodium.handle = handle;
  }
  return ootd_dl_end_load(handle, message, &load_ok, &load_lock, error, error_size);
}

int ootd_sodium_is_loaded(void) {
  pthread_mutex_lock(&load_lock);
  int loaded = load_ok;
  pthread_mutex_unlock(&load_lock);
  return loaded;
}

int ootd_sodium_constants(unsigned long long values[9]) {
  if (!ootd_sodium_is_loaded()) return 0;
  static const char *const sizes[] = {
      "crypto_aead_xchacha20poly1305_ietf_keybytes", "crypto_aead_xchacha20poly1305_ietf_npubbytes",
      "crypto_aead_xchacha20poly1305_ietf_abytes"};
  for (int i = 0; i < 3; i++) {
    ootd_size_getter_fn getter = (ootd_size_getter_fn)dlsym(sodium.handle, sizes[i]);
    if (getter == NULL) return 0;
    values[i] = getter();
  }
  ootd_int_getter_fn alg = (ootd_int_getter_fn)dlsym(sodium.handle, "crypto_pwhash_alg_argon2id13");
  if (alg == NULL) return 0;
  values[3] = (unsigned long long)alg();
  static const char *const rest[] = {
      "crypto_pwhash_argon2id_saltbytes", "crypto_pwhash_argon2id_opslimit_min",
      "crypto_pwhash_argon2id_memlimit_min", "crypto_pwhash_argon2id_opslimit_moderate",
      "crypto_pwhash_argon2id_memlimit_moderate"};
  for (int i = 0; i < 5; i++) {
    ootd_size_getter_fn getter = (ootd_size_getter_fn)dlsym(sodium.handle, rest[i]);
    if (getter == NULL) return 0;
    values[4 + i] = getter();
  }
  return 1;
}

int ootd_sodium_seal(unsigned char *out, const unsigned char *message, unsigned long long length,
                     const unsigned char *ad, unsigned long long ad_length,
                     const unsigned char *nonce, const unsigned char *key) {
  unsigned long long written = 0;
  return sodium.encrypt(out, &written, message, length, ad, ad_length, NULL, nonce, key);
}

int ootd_sodium_open(unsigned char *out, const unsigned char *ciphertext, unsigned long long length,
                     const unsigned char *ad, unsigned long long ad_length,
                     const unsigned char *nonce, const unsigned char *key) {
  unsigned long long written = 0;
  if (length < OOTD_XCHACHA_ABYTES) return -1;
  return sodium.decrypt(out, &written, NULL, ciphertext, length, ad, ad_length, nonce, key);
}

int ootd_sodium_argon2id(unsigned char *out, unsigned long long out_length, const char *password,
                         unsigned long long password_length, const unsigned char *salt,
                         unsigned long long opslimit, size_t memlimit) {
  return sodium.pwhash(out, out_length, password, password_length, salt, opslimit, memlimit,
                       OOTD_PWHASH_ALG_ARGON2ID13);
}

void ootd_sodium_random(void *buffer, size_t size) { sodium.random(buffer, size); }

void ootd_sodium_memzero(void *buffer, size_t length) { sodium.memzero(buffer, length); }
