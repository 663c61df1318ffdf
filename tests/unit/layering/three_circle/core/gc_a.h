/* gc_a imports gc_b. */
#include "core/gc_b.h"
