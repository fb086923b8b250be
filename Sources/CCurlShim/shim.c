#include "ccurlshim.h"
int ootd_curl_available(void) { return 0; }
