/* The SQL leaf is allowed; a member session is not. */
#include "sql/gc_x.h"
#include "member/gc_member.h"
