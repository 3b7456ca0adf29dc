#define _GNU_SOURCE
#include "CFileCopy.h"
#include <errno.h>
#include <unistd.h>
#include <sys/xattr.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

long lpcheck_copy_file_range(int input, long long *input_offset, int output, long long *output_offset, size_t length) {
#if defined(__linux__) && defined(SYS_copy_file_range)
    loff_t in = (loff_t)*input_offset, out = (loff_t)*output_offset;
    long copied = (long)syscall(SYS_copy_file_range, input, &in, output, &out, length, 0u);
    if (copied > 0) {
        *input_offset = (long long)in;
        *output_offset = (long long)out;
    }
    return copied;
#else
    (void)input; (void)input_offset; (void)output; (void)output_offset; (void)length;
    errno = ENOSYS;
    return -1;
#endif
}

long lpcheck_list_xattr(int fd, char *names, size_t size) {
#if defined(__APPLE__)
    return (long)flistxattr(fd, names, size, 0);
#else
    return (long)flistxattr(fd, names, size);
#endif
}

long lpcheck_get_xattr(int fd, const char *name, void *value, size_t size) {
#if defined(__APPLE__)
    return (long)fgetxattr(fd, name, value, size, 0, 0);
#else
    return (long)fgetxattr(fd, name, value, size);
#endif
}

int lpcheck_set_xattr(int fd, const char *name, const void *value, size_t size) {
#if defined(__APPLE__)
    return fsetxattr(fd, name, value, size, 0, 0);
#else
    return fsetxattr(fd, name, value, size, 0);
#endif
}
