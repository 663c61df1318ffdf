/* gc_b imports gc_c. */
#include "core/gc_c.h"
