#ifndef LPCHECK_CMALLOCTUNING_H
#define LPCHECK_CMALLOCTUNING_H

/// Tells glibc's malloc to keep 16 MiB of headroom when a heap grows and not to give back less
/// than that when it shrinks (M_TOP_PAD). A check allocates and frees millions of small objects
/// on a few threads; glibc's defaults grew and shrank each thread's heap by a few pages at a
/// time, over a thousand mprotect calls and their page faults for 10,000 files. Returns 1 when
/// the setting was taken, 0 where there is no such setting (not glibc: nothing is done).
int lpcheck_tune_malloc(void);
#endif
