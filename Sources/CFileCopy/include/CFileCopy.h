#ifndef LPCHECK_CFILECOPY_H
#define LPCHECK_CFILECOPY_H
#include <stddef.h>
#include <sys/types.h>

/// Copies up to `length` bytes between file descriptors inside the kernel (Linux
/// copy_file_range, which shares blocks where the file system can). Returns the bytes copied,
/// 0 at end of input, or -1 with errno set (ENOSYS where the call does not exist).
long lpcheck_copy_file_range(int input, long long *input_offset, int output, long long *output_offset, size_t length);
#endif
