/* gc_c: imported by gc_b; gc_c.c imports gc_a, closing a circle of three. */
