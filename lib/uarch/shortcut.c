/* The shortcuts' switch and count (shortcut.h), for the tests. */
#include "shortcut.h"

void uarch_core_disable_shortcuts(struct ap_uarch_core *core)
{
	core->shortcuts = 0;
}

uint64_t uarch_core_shortcut_hits(const struct ap_uarch_core *core)
{
	return core->shortcut_hits;
}
