#ifndef LPCHECK_CEXIF_SHIM_H
#define LPCHECK_CEXIF_SHIM_H
#include <libexif/exif-data.h>
#include <libexif/exif-content.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-ifd.h>
#include <libexif/exif-utils.h>
#endif
