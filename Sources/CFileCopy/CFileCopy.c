#define _GNU_SOURCE
#include "CFileCopy.h"
#include <errno.h>
#include <unistd.h>
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
