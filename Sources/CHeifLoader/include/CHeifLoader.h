#ifndef LPCHECK_CHEIFLOADER_H
#define LPCHECK_CHEIFLOADER_H
#include <stdint.h>

// libheif, loaded at run time (dlopen) only when a thumbnail is asked for: lpcheck does not link
// it, so the binary runs where libheif is absent and only --thumbnails needs it.

/// 1 when libheif could be loaded, else 0 (and *message says why).
int lpcheck_heif_available(const char **message);

/// Decodes the file's thumbnail item (else its primary image), scaled to fit max_side, as 8-bit
/// interleaved RGB. Returns 0 and a malloc'ed buffer of width * height * 3 bytes in *pixels (the
/// caller frees it), or -1 with *message.
int lpcheck_heif_thumbnail(const char *path, int max_side, uint8_t **pixels, int *width, int *height, const char **message);
#endif
