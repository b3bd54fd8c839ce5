#ifndef PUSHBUTTON_CCURL_SHIM_H
#define PUSHBUTTON_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
// one typed wrapper per kind of argument.

typedef size_t (*pushbutton_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode pushbutton_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pushbutton_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pushbutton_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pushbutton_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pushbutton_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pushbutton_curl_easy_setopt_callback(CURL *handle, CURLoption option, pushbutton_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pushbutton_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode pushbutton_curl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode pushbutton_curl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return curl_multi_setopt(handle, option, value);
}

// CURLVERSION_NOW is a macro naming the newest struct version this header knows.
static inline curl_version_info_data *pushbutton_curl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}

#endif
