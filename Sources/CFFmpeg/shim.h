// FFmpeg's libraries (Debian 12: 5.1), imported only by LivePhotoCodec, which only the codec
// helper (lpcheck-codec) links: lpcheck itself never loads them.
#pragma once
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

// Macros Swift does not import, as functions.
static inline int lp_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int lp_averror_eof(void) { return AVERROR_EOF; }
static inline int64_t lp_nopts(void) { return AV_NOPTS_VALUE; }
static inline int lp_qp2lambda(void) { return FF_QP2LAMBDA; }
static inline int lp_padding(void) { return AV_INPUT_BUFFER_PADDING_SIZE; }

// The helper's process: it dies with lpcheck (Linux's parent-death signal; elsewhere the
// helper's watch of its parent id does it).
#include <signal.h>
#ifdef __linux__
#include <sys/prctl.h>
static inline int lp_die_with_parent(void) { return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); }
#else
static inline int lp_die_with_parent(void) { return 0; }
#endif

// FFmpeg's log lines are not the helper's message: an error is kept (the last one, as
// "decoder: text", without the context's address) for the helper to name as the codec's reason,
// and nothing is printed. Called from one Swift file only (FFmpeg.swift): each object file that
// used these would hold its own copy of the buffer.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
static inline char *lp_log_buffer(void) {
    static char buffer[400];
    return buffer;
}
static inline void lp_log_keep(void *context, int level, const char *format, va_list arguments) {
    if (level > AV_LOG_ERROR || format == NULL) return;
    char text[320];
    vsnprintf(text, sizeof text, format, arguments);
    size_t length = strlen(text);
    while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == '\r' || text[length - 1] == ' ')) text[--length] = 0;
    if (length == 0) return;
    const char *name = NULL;
    if (context != NULL) {
        AVClass *class = *(AVClass **)context;
        if (class != NULL && class->item_name != NULL) name = class->item_name(context);
    }
    snprintf(lp_log_buffer(), 400, "%s%s%s", name ? name : "", name ? ": " : "", text);
}
static inline void lp_log_capture(void) { av_log_set_callback(lp_log_keep); }
static inline const char *lp_log_last(void) { return lp_log_buffer(); }
