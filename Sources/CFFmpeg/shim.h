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
