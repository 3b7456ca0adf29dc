#ifndef LPCHECK_CSQLITE_SHIM_H
#define LPCHECK_CSQLITE_SHIM_H
// The system SQLite, for the facts cache (LivePhotoCache is its only importer).
#include <sqlite3.h>
// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type lpcheck_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
