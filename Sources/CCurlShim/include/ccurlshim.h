#ifndef OOTD_CCURLSHIM_H
#define OOTD_CCURLSHIM_H
/// Placeholder: the GitHubClient work fills this in (dlopen-based libcurl access).
int ootd_curl_available(void);
#endif
