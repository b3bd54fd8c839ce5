#ifndef PUSHBUTTON_CCURL_SHIM_H
#define PUSHBUTTON_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper per
// option the outbox's sender sets.

static size_t pushbutton_curl_discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

static inline CURLcode pushbutton_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pushbutton_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode pushbutton_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

// The body is not copied: it must stay valid until curl_easy_perform returns.
static inline CURLcode pushbutton_curl_set_body(CURL *handle, const void *bytes, curl_off_t count) {
    CURLcode result = curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, count);
    if (result != CURLE_OK) return result;
    return curl_easy_setopt(handle, CURLOPT_POSTFIELDS, bytes);
}

// Response bodies are not needed (the status is the answer): read and dropped.
static inline CURLcode pushbutton_curl_discard_body(CURL *handle) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, pushbutton_curl_discard);
}

static inline long pushbutton_curl_response_code(CURL *handle) {
    long code = 0;
    if (curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code) != CURLE_OK) return 0;
    return code;
}

// The status the proxy answered CONNECT with (0 when no tunnel was asked for).
static inline long pushbutton_curl_connect_code(CURL *handle) {
    long code = 0;
    if (curl_easy_getinfo(handle, CURLINFO_HTTP_CONNECTCODE, &code) != CURLE_OK) return 0;
    return code;
}

// libcurl's detailed message for the last failure goes to `buffer` (CURL_ERROR_SIZE bytes, kept by the caller).
static inline CURLcode pushbutton_curl_set_error_buffer(CURL *handle, char *buffer) {
    return curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, buffer);
}

#endif
