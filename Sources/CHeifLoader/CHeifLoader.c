#include "CHeifLoader.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// The few parts of libheif's stable C API (1.x) that are used, declared here so that building
// lpcheck needs neither its headers nor the library.
struct lp_heif_error { int code; int subcode; const char *message; };
typedef struct lp_heif_error (*init_f)(void *);
typedef void *(*context_alloc_f)(void);
typedef void (*context_free_f)(void *);
typedef void (*context_limit_f)(void *, int);
typedef struct lp_heif_error (*read_file_f)(void *, const char *, const void *);
typedef struct lp_heif_error (*primary_f)(void *, void **);
typedef int (*thumbnail_count_f)(const void *);
typedef int (*thumbnail_ids_f)(const void *, uint32_t *, int);
typedef struct lp_heif_error (*thumbnail_f)(const void *, uint32_t, void **);
typedef void (*release_f)(const void *);
typedef struct lp_heif_error (*decode_f)(const void *, void **, int, int, const void *);
typedef int (*dimension_f)(const void *, int);
typedef struct lp_heif_error (*scale_f)(const void *, void **, int, int, const void *);
typedef const uint8_t *(*plane_f)(const void *, int, int *);

enum { colorspace_RGB = 1, chroma_interleaved_RGB = 10, channel_interleaved = 10, heif_error_Ok = 0 };

static struct {
    int loaded;
    const char *problem;
    context_alloc_f context_alloc;
    context_free_f context_free;
    context_limit_f context_limit;
    read_file_f read_file;
    primary_f primary;
    thumbnail_count_f thumbnail_count;
    thumbnail_ids_f thumbnail_ids;
    thumbnail_f thumbnail;
    release_f handle_release;
    decode_f decode;
    dimension_f image_width;
    dimension_f image_height;
    scale_f scale;
    plane_f plane;
    release_f image_release;
} heif;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
#if defined(__APPLE__)
    const char *names[] = {"libheif.1.dylib", "/opt/homebrew/lib/libheif.1.dylib", "/usr/local/lib/libheif.1.dylib", NULL};
#else
    const char *names[] = {"libheif.so.1", NULL};
#endif
    void *library = NULL;
    for (int index = 0; names[index] && !library; index++) library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
    if (!library) { heif.problem = "libheif is not installed (Debian: apt install libheif1)"; return; }
#define FIND(field, type, symbol) heif.field = (type)dlsym(library, symbol); if (!heif.field) { heif.problem = "libheif lacks " symbol; return; }
    FIND(context_alloc, context_alloc_f, "heif_context_alloc")
    FIND(context_free, context_free_f, "heif_context_free")
    FIND(context_limit, context_limit_f, "heif_context_set_maximum_image_size_limit")
    FIND(read_file, read_file_f, "heif_context_read_from_file")
    FIND(primary, primary_f, "heif_context_get_primary_image_handle")
    FIND(thumbnail_count, thumbnail_count_f, "heif_image_handle_get_number_of_thumbnails")
    FIND(thumbnail_ids, thumbnail_ids_f, "heif_image_handle_get_list_of_thumbnail_IDs")
    FIND(thumbnail, thumbnail_f, "heif_image_handle_get_thumbnail")
    FIND(handle_release, release_f, "heif_image_handle_release")
    FIND(decode, decode_f, "heif_decode_image")
    FIND(image_width, dimension_f, "heif_image_get_width")
    FIND(image_height, dimension_f, "heif_image_get_height")
    FIND(scale, scale_f, "heif_image_scale_image")
    FIND(plane, plane_f, "heif_image_get_plane_readonly")
    FIND(image_release, release_f, "heif_image_release")
#undef FIND
    init_f init = (init_f)dlsym(library, "heif_init");
    if (init) init(NULL);
    heif.loaded = 1;
}

int lpcheck_heif_available(const char **message) {
    pthread_once(&once, load);
    if (!heif.loaded && message) *message = heif.problem;
    return heif.loaded;
}

int lpcheck_heif_thumbnail(const char *path, int max_side, uint8_t **pixels, int *width, int *height, const char **message) {
    if (!lpcheck_heif_available(message)) return -1;
    void *context = heif.context_alloc();
    if (!context) { *message = "libheif: out of memory"; return -1; }
    heif.context_limit(context, 16384);
    void *primary = NULL, *handle = NULL, *image = NULL, *scaled = NULL;
    int status = -1;
    struct lp_heif_error error = heif.read_file(context, path, NULL);
    if (error.code != heif_error_Ok) { *message = "libheif cannot read the file"; goto done; }
    error = heif.primary(context, &primary);
    if (error.code != heif_error_Ok) { *message = "libheif finds no primary image"; goto done; }
    handle = primary;
    if (heif.thumbnail_count(primary) > 0) {
        uint32_t id = 0;
        void *thumbnail = NULL;
        if (heif.thumbnail_ids(primary, &id, 1) == 1 && heif.thumbnail(primary, id, &thumbnail).code == heif_error_Ok) handle = thumbnail;
    }
    error = heif.decode(handle, &image, colorspace_RGB, chroma_interleaved_RGB, NULL);
    if (error.code != heif_error_Ok) { *message = "libheif cannot decode the image"; goto done; }
    int w = heif.image_width(image, channel_interleaved), h = heif.image_height(image, channel_interleaved);
    if (w <= 0 || h <= 0) { *message = "libheif decoded an empty image"; goto done; }
    int tw = w, th = h;
    if (w > max_side || h > max_side) {
        if (w >= h) { tw = max_side; th = (int)((long)h * max_side / w); } else { th = max_side; tw = (int)((long)w * max_side / h); }
        if (tw < 1) tw = 1;
        if (th < 1) th = 1;
        error = heif.scale(image, &scaled, tw, th, NULL);
        if (error.code != heif_error_Ok) { *message = "libheif cannot scale the image"; goto done; }
    }
    const void *source = scaled ? scaled : image;
    int stride = 0;
    const uint8_t *plane = heif.plane(source, channel_interleaved, &stride);
    if (!plane || stride < tw * 3) { *message = "libheif gave no pixels"; goto done; }
    uint8_t *copy = malloc((size_t)tw * th * 3);
    if (!copy) { *message = "out of memory"; goto done; }
    for (int row = 0; row < th; row++) memcpy(copy + (size_t)row * tw * 3, plane + (size_t)row * stride, (size_t)tw * 3);
    *pixels = copy;
    *width = tw;
    *height = th;
    status = 0;
done:
    if (scaled) heif.image_release(scaled);
    if (image) heif.image_release(image);
    if (handle && handle != primary) heif.handle_release(handle);
    if (primary) heif.handle_release(primary);
    heif.context_free(context);
    return status;
}
