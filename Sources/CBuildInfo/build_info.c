#include "build_info.h"

// Weak: scripts/build-release links a strong definition in (see build_info.h).
__attribute__((weak)) const char *ootd_build_commit(void) { return "unknown"; }
