/* A leaf file that reaches up into the global connection. */
#include "sql/gc_x.h"
#include "util/gc_error.h"

#include "global/gc_global.h"
