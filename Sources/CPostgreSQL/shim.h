#ifndef PUSHBUTTON_CPOSTGRESQL_SHIM_H
#define PUSHBUTTON_CPOSTGRESQL_SHIM_H

// libpq (libpq-dev). Its API is plain functions; the only wrapper needed is for the OID constants of the
// column types the store reads and writes, which live in a server header libpq-dev does not ship.
#include <libpq-fe.h>

enum {
    PUSHBUTTON_PG_BOOL = 16,
    PUSHBUTTON_PG_BYTEA = 17,
    PUSHBUTTON_PG_INT8 = 20,
    PUSHBUTTON_PG_INT2 = 21,
    PUSHBUTTON_PG_INT4 = 23,
    PUSHBUTTON_PG_TEXT = 25,
    PUSHBUTTON_PG_FLOAT4 = 700,
    PUSHBUTTON_PG_FLOAT8 = 701,
    PUSHBUTTON_PG_VARCHAR = 1043,
    PUSHBUTTON_PG_NUMERIC = 1700,
};

#endif
