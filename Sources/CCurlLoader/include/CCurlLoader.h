#ifndef LPCHECK_CCURLLOADER_H
#define LPCHECK_CCURLLOADER_H
#include <stddef.h>

// libcurl, loaded at run time (dlopen) only when an s3:// path is read: lpcheck does not link
// it, so a local run loads none of libcurl's libraries (TLS, IDN, LDAP, ...) and the binary runs
// where libcurl is absent.

/// 1 when libcurl could be loaded and initialised, else 0 (and *message says why).
int lpcheck_curl_available(const char **message);

/// An easy handle (it keeps its connections for the next request), or NULL.
void *lpcheck_curl_handle_new(void);
void lpcheck_curl_handle_free(void *handle);

/// What one GET brought: the status of the last response, its header block (raw lines, at most
/// 64 KiB) and its body (at most `limit` bytes; more is cut and `too_large` set). `body` and
/// `headers` are malloc'ed: free them with lpcheck_curl_response_free.
typedef struct {
    long status;
    unsigned char *body;
    size_t body_count;
    size_t body_capacity;
    size_t body_limit;
    char *headers;
    size_t headers_count;
    int too_large;
    int headers_too_large;
    int timed_out;
    int curl_code;
    char error[256];
} lpcheck_curl_response;

/// One GET of `url`, sent exactly as given (no dot segment removed, no redirect followed, http
/// and https only), with `header_count` "Name: value" lines. The whole request, connection
/// included, ends after `deadline_ms`; connecting alone after `connect_ms`. Blocks the calling
/// thread in poll(2), never spinning. Returns 0 when an HTTP response came (any status), -1
/// with `error` set otherwise.
int lpcheck_curl_get(void *handle, const char *url, const char *const *headers, int header_count,
                     size_t limit, long deadline_ms, long connect_ms, const char *user_agent,
                     lpcheck_curl_response *response);

void lpcheck_curl_response_free(lpcheck_curl_response *response);
#endif
