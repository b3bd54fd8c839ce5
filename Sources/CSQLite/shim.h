#ifndef PUSHBUTTON_CSQLITE_SHIM_H
#define PUSHBUTTON_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import:
// these wrappers bind text and blobs that SQLite must copy before the call returns.
static inline int pushbutton_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

static inline int pushbutton_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

#endif
