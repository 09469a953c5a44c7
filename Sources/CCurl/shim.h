#ifndef USERBACKENDKIT_CCURL_SHIM_H
#define USERBACKENDKIT_CCURL_SHIM_H
#include <curl/curl.h>

// Swift cannot call C variadic functions, so the few curl_easy_setopt /
// curl_easy_getinfo / curl_multi_setopt forms the transport uses are typed here.

static inline CURLcode ubk_curl_global_init(void) {
  return curl_global_init(CURL_GLOBAL_DEFAULT);
}

static inline CURLcode ubk_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ubk_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ubk_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ubk_curl_setopt_write_function(CURL *handle, CURLoption option,
                                                      curl_write_callback callback) {
  return curl_easy_setopt(handle, option, callback);
}

static inline long ubk_curl_response_code(CURL *handle) {
  long code = 0;
  if (curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK) return 0;
  return code;
}

#endif
