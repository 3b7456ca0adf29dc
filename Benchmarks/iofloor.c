/* The I/O floor for a Live Photo check: reads only the bytes a checker must read and parses
 * nothing beyond box and segment headers. JPEG: segment headers up to the APP1 Exif segment, and
 * that segment. QuickTime/ISO: every top-level box header, and the whole moov (movies) or meta
 * (HEIF). Prints files, bytes read and seconds. Usage: iofloor FILE... (or a list on stdin). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static long long total;
static unsigned char buffer[64 << 20];

static ssize_t readat(int fd, void *to, size_t count, off_t at) {
    ssize_t got = pread(fd, to, count, at);
    if (got > 0) total += got;
    return got;
}

static void one(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return;
    struct stat info;
    fstat(fd, &info);
    unsigned char head[32];
    if (readat(fd, head, 32, 0) < 8) { close(fd); return; }
    if (head[0] == 0xFF && head[1] == 0xD8) {
        off_t at = 2;
        unsigned char h[4];
        while (readat(fd, h, 4, at) == 4 && h[0] == 0xFF) {
            size_t length = ((size_t)h[2] << 8) | h[3];
            if (h[1] == 0xE1) { readat(fd, buffer, length - 2, at + 4); break; }
            if (h[1] == 0xDA) break;
            at += 2 + length;
        }
    } else {
        off_t at = 0;
        while (at + 8 <= info.st_size) {
            unsigned char h[16];
            if (readat(fd, h, 8, at) != 8) break;
            uint64_t size = ((uint64_t)h[0] << 24) | (h[1] << 16) | (h[2] << 8) | h[3];
            if (size == 1) { readat(fd, h + 8, 8, at + 8); size = 0; for (int i = 8; i < 16; i++) size = size << 8 | h[i]; }
            if (size == 0) size = info.st_size - at;
            if (size < 8) break;
            if ((!memcmp(h + 4, "moov", 4) || !memcmp(h + 4, "meta", 4)) && size <= sizeof buffer) readat(fd, buffer, size - 8, at + 8);
            at += size;
        }
    }
    close(fd);
}

int main(int argc, char **argv) {
    struct timespec start, end;
    long files = 0;
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (argc > 1) {
        for (int i = 1; i < argc; i++) { one(argv[i]); files++; }
    } else {
        char line[4096];
        while (fgets(line, sizeof line, stdin)) { line[strcspn(line, "\n")] = 0; one(line); files++; }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    printf("%ld files, %lld bytes read, %.3f s\n", files, total, seconds);
    return 0;
}
