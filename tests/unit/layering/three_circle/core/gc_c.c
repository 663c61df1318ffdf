/* gc_c imports gc_a. */
#include "core/gc_a.h"
