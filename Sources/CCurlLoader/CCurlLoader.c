#include "CCurlLoader.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The few parts of libcurl's stable C API (7.x and 8.x) that are used, declared here so that
// building lpcheck needs neither its headers nor the library. Option numbers are curl.h's
// (CURLOPTTYPE_* + n), fixed by its ABI.
struct lp_slist;
typedef int (*global_init_f)(long);
typedef void *(*easy_init_f)(void);
typedef void (*easy_cleanup_f)(void *);
typedef int (*easy_setopt_f)(void *, int, ...);
typedef int (*easy_perform_f)(void *);
typedef int (*easy_getinfo_f)(void *, int, ...);
typedef const char *(*easy_strerror_f)(int);
typedef void (*easy_reset_f)(void *);
typedef struct lp_slist *(*slist_append_f)(struct lp_slist *, const char *);
typedef void (*slist_free_all_f)(struct lp_slist *);

enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_WRITEFUNCTION = 20011,
    OPT_USERAGENT = 10018, OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029, OPT_FOLLOWLOCATION = 52,
    OPT_HEADERFUNCTION = 20079, OPT_HTTPGET = 80, OPT_NOSIGNAL = 99, OPT_TIMEOUT_MS = 155,
    OPT_CONNECTTIMEOUT_MS = 156, OPT_PROTOCOLS = 181, OPT_PATH_AS_IS = 234,
    INFO_RESPONSE_CODE = 0x200002,
    PROTO_HTTP = 1, PROTO_HTTPS = 2, GLOBAL_ALL = 3,
    E_OK = 0, E_WRITE_ERROR = 23, E_OPERATION_TIMEDOUT = 28,
    HEADERS_MAX = 65536
};

static struct {
    int loaded;
    const char *problem;
    easy_init_f easy_init;
    easy_cleanup_f easy_cleanup;
    easy_setopt_f easy_setopt;
    easy_perform_f easy_perform;
    easy_getinfo_f easy_getinfo;
    easy_strerror_f easy_strerror;
    easy_reset_f easy_reset;
    slist_append_f slist_append;
    slist_free_all_f slist_free_all;
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
#if defined(__APPLE__)
    const char *names[] = {"libcurl.4.dylib", "/usr/lib/libcurl.4.dylib", NULL};
#else
    const char *names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", NULL};
#endif
    void *library = NULL;
    for (int index = 0; names[index] && !library; index++) library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    if (!library) { curl.problem = "libcurl is not installed (Debian: apt install libcurl4)"; return; }
#define FIND(field, type, symbol) curl.field = (type)dlsym(library, symbol); if (!curl.field) { curl.problem = "libcurl lacks " symbol; return; }
    FIND(easy_init, easy_init_f, "curl_easy_init")
    FIND(easy_cleanup, easy_cleanup_f, "curl_easy_cleanup")
    FIND(easy_setopt, easy_setopt_f, "curl_easy_setopt")
    FIND(easy_perform, easy_perform_f, "curl_easy_perform")
    FIND(easy_getinfo, easy_getinfo_f, "curl_easy_getinfo")
    FIND(easy_strerror, easy_strerror_f, "curl_easy_strerror")
    FIND(easy_reset, easy_reset_f, "curl_easy_reset")
    FIND(slist_append, slist_append_f, "curl_slist_append")
    FIND(slist_free_all, slist_free_all_f, "curl_slist_free_all")
#undef FIND
    global_init_f global_init = (global_init_f)dlsym(library, "curl_global_init");
    if (!global_init || global_init(GLOBAL_ALL) != E_OK) { curl.problem = "libcurl could not be initialised"; return; }
    curl.loaded = 1;
}

int lpcheck_curl_available(const char **message) {
    pthread_once(&once, load);
    if (!curl.loaded && message) *message = curl.problem;
    return curl.loaded;
}

void *lpcheck_curl_handle_new(void) {
    if (!lpcheck_curl_available(NULL)) return NULL;
    return curl.easy_init();
}

void lpcheck_curl_handle_free(void *handle) {
    if (handle && curl.loaded) curl.easy_cleanup(handle);
}

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    lpcheck_curl_response *response = context;
    size_t length = size * count;
    if (count != 0 && length / count != size) return 0;
    if (length > response->body_limit - response->body_count) {
        response->too_large = 1;
        return 0;  // curl ends the transfer (CURLE_WRITE_ERROR)
    }
    if (response->body_count + length > response->body_capacity) {
        size_t capacity = response->body_capacity ? response->body_capacity : 16384;
        while (capacity < response->body_count + length) capacity = capacity > response->body_limit / 2 ? response->body_limit : capacity * 2;
        unsigned char *grown = realloc(response->body, capacity);
        if (!grown) { response->too_large = 1; return 0; }
        response->body = grown;
        response->body_capacity = capacity;
    }
    memcpy(response->body + response->body_count, data, length);
    response->body_count += length;
    return length;
}

static size_t on_header(char *data, size_t size, size_t count, void *context) {
    lpcheck_curl_response *response = context;
    size_t length = size * count;
    if (count != 0 && length / count != size) return 0;
    // A new status line (after a 100 Continue) starts the block again.
    if (length >= 5 && memcmp(data, "HTTP/", 5) == 0) response->headers_count = 0;
    if (!response->headers) {
        response->headers = malloc(HEADERS_MAX);
        if (!response->headers) return 0;
    }
    if (length > HEADERS_MAX - response->headers_count) {  // a header block over 64 KiB is refused
        response->headers_too_large = 1;
        return 0;
    }
    memcpy(response->headers + response->headers_count, data, length);
    response->headers_count += length;
    return length;
}

int lpcheck_curl_get(void *handle, const char *url, const char *const *headers, int header_count,
                     size_t limit, long deadline_ms, long connect_ms, const char *user_agent,
                     lpcheck_curl_response *response) {
    memset(response, 0, sizeof *response);
    response->body_limit = limit;
    const char *problem = NULL;
    if (!lpcheck_curl_available(&problem)) {
        snprintf(response->error, sizeof response->error, "%s", problem ? problem : "libcurl is not available");
        return -1;
    }
    if (!handle) { snprintf(response->error, sizeof response->error, "no libcurl handle"); return -1; }
    struct lp_slist *list = NULL;
    for (int index = 0; index < header_count; index++) {
        struct lp_slist *next = curl.slist_append(list, headers[index]);
        if (!next) { curl.slist_free_all(list); snprintf(response->error, sizeof response->error, "out of memory"); return -1; }
        list = next;
    }
    char error[256] = {0};
    curl.easy_reset(handle);  // connections and the DNS cache are kept; options are not
    curl.easy_setopt(handle, OPT_URL, url);
    curl.easy_setopt(handle, OPT_HTTPGET, 1L);
    curl.easy_setopt(handle, OPT_HTTPHEADER, list);
    curl.easy_setopt(handle, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    curl.easy_setopt(handle, OPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, OPT_PATH_AS_IS, 1L);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, OPT_TIMEOUT_MS, deadline_ms);
    curl.easy_setopt(handle, OPT_CONNECTTIMEOUT_MS, connect_ms);
    curl.easy_setopt(handle, OPT_USERAGENT, user_agent);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, error);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(handle, OPT_WRITEDATA, (void *)response);
    curl.easy_setopt(handle, OPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(handle, OPT_HEADERDATA, (void *)response);
    int code = curl.easy_perform(handle);
    curl.easy_setopt(handle, OPT_HTTPHEADER, (void *)NULL);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, (void *)NULL);
    curl.slist_free_all(list);
    response->curl_code = code;
    if (code != E_OK) {
        response->timed_out = code == E_OPERATION_TIMEDOUT;
        snprintf(response->error, sizeof response->error, "%s", error[0] ? error : curl.easy_strerror(code));
        return -1;
    }
    long status = 0;
    curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &status);
    response->status = status;
    return 0;
}

void lpcheck_curl_response_free(lpcheck_curl_response *response) {
    free(response->body);
    free(response->headers);
    response->body = NULL;
    response->headers = NULL;
}
