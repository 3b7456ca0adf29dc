// Process start of a command, against /bin/true run alternately with it on the same machine.
// Build: cc -O2 -o start Benchmarks/start.c
// Run:   ./start 400 dist/bin/lpcheck --version
// Prints best and median wall time (ms) of each, and the command's minor page faults.
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

extern char **environ;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// One run of argv with standard output and error to /dev/null: wall time in ms, faults added.
static double run(char **argv, long *faults) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    double start = now();
    pid_t pid;
    if (posix_spawn(&pid, argv[0], &actions, NULL, argv, environ) != 0) {
        perror(argv[0]);
        exit(2);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) {
        perror("wait4");
        exit(2);
    }
    double elapsed = now() - start;
    posix_spawn_file_actions_destroy(&actions);
    if (faults) *faults = usage.ru_minflt;
    return elapsed;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s RUNS COMMAND [ARGUMENT...]\n", argv[0]);
        return 2;
    }
    int runs = atoi(argv[1]);
    if (runs < 1) runs = 1;
    double *command = calloc(runs, sizeof(double)), *baseline = calloc(runs, sizeof(double));
    char *truth[] = {"/bin/true", NULL};
    long faults = 0;
    for (int i = 0; i < runs; i++) {
        baseline[i] = run(truth, NULL);
        command[i] = run(argv + 2, &faults);
    }
    qsort(command, runs, sizeof(double), compare);
    qsort(baseline, runs, sizeof(double), compare);
    printf("/bin/true: best %.2f ms, median %.2f ms\n", baseline[0], baseline[runs / 2]);
    printf("%s: best %.2f ms, median %.2f ms, %ld minor page faults\n", argv[2], command[0], command[runs / 2], faults);
    return 0;
}
