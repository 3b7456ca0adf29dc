#ifndef LPCHECK_CFILECOPY_H
#define LPCHECK_CFILECOPY_H
#include <stddef.h>
#include <sys/types.h>

/// Copies up to `length` bytes between file descriptors inside the kernel (Linux
/// copy_file_range, which shares blocks where the file system can). Returns the bytes copied,
/// 0 at end of input, or -1 with errno set (ENOSYS where the call does not exist).
long lpcheck_copy_file_range(int input, long long *input_offset, int output, long long *output_offset, size_t length);

/// Extended attributes of an open file (Linux and macOS), for keeping them on a replacement:
/// the list of names (NUL-separated), one value, and setting one value. -1 with errno set on
/// failure (ENOTSUP where the file system has none).
long lpcheck_list_xattr(int fd, char *names, size_t size);
long lpcheck_get_xattr(int fd, const char *name, void *value, size_t size);
int lpcheck_set_xattr(int fd, const char *name, const void *value, size_t size);
#endif
