#include "CMallocTuning.h"
// Any C library header defines __GLIBC__ under glibc (through <features.h>).
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int lpcheck_tune_malloc(void) {
#if defined(__GLIBC__)
    return mallopt(M_TOP_PAD, 16 << 20);
#else
    return 0;
#endif
}
