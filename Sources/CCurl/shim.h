#ifndef REQRUN_CCURL_SHIM_H
#define REQRUN_CCURL_SHIM_H
/*
 * curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are C-variadic, which Swift cannot call.
 * One non-variadic wrapper per argument type: passing the wrong type through varargs is undefined
 * behaviour, so integers and booleans go as `long`, *_LARGE options as `curl_off_t`.
 */
#include <curl/curl.h>

static inline CURLcode reqrun_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode reqrun_easy_setopt_off_t(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode reqrun_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode reqrun_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode reqrun_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }

typedef size_t (*reqrun_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);
static inline CURLcode reqrun_easy_setopt_data_callback(CURL *h, CURLoption o, reqrun_data_callback v) { return curl_easy_setopt(h, o, v); }

typedef int (*reqrun_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata);
static inline CURLcode reqrun_easy_setopt_debug_callback(CURL *h, reqrun_debug_callback v) { return curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, v); }

typedef size_t (*reqrun_read_callback)(char *buffer, size_t size, size_t nitems, void *userdata);
static inline CURLcode reqrun_easy_setopt_read_callback(CURL *h, reqrun_read_callback v) { return curl_easy_setopt(h, CURLOPT_READFUNCTION, v); }

typedef int (*reqrun_xferinfo_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
static inline CURLcode reqrun_easy_setopt_xferinfo_callback(CURL *h, reqrun_xferinfo_callback v) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v); }

static inline CURLcode reqrun_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode reqrun_easy_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode reqrun_easy_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode reqrun_easy_getinfo_pointer(CURL *h, CURLINFO i, void **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode reqrun_easy_getinfo_socket(CURL *h, CURLINFO i, curl_socket_t *v) { return curl_easy_getinfo(h, i, v); }

/* CURLAUTH_* are cast expressions, which Swift does not import. */
static const long reqrun_auth_digest = (long)CURLAUTH_DIGEST;
static const long reqrun_auth_ntlm = (long)CURLAUTH_NTLM;

static inline CURLSHcode reqrun_share_setopt_long(CURLSH *s, CURLSHoption o, long v) { return curl_share_setopt(s, o, v); }

static inline CURLMcode reqrun_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

#endif
