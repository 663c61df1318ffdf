/* Another leaf's header and util: both allowed. */
#include "placement/gc_y.h"
#include "util/gc_error.h"
