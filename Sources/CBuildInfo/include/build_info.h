#ifndef OOTD_BUILD_INFO_H
#define OOTD_BUILD_INFO_H

// The commit ootd was built from, as `ootd --version` prints it: "unknown" here (build_info.c),
// a weak definition that scripts/build-release overrides at link time with an object file of
// its own whose strong definition returns the short hash (`git rev-parse --short=7 HEAD`, with
// "-dirty" when tracked files differ from it). Only the link changes with the commit: no module
// is compiled again, and a build without git (or a plain `swift build`) says "unknown".
const char *ootd_build_commit(void);

#endif
