#ifndef LPCHECK_CLIBXML2_SHIM_H
#define LPCHECK_CLIBXML2_SHIM_H
// libxml2's ICU support clashes with the ICU that Foundation carries: read the
// version header first, switch ICU off, then include what the XMP reader needs.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlmemory.h>
// xmlFree is a global function pointer, which Swift's concurrency checking rejects.
static inline void lpcheck_xml_free(void *pointer) { xmlFree(pointer); }
#endif
