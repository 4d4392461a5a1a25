/* Which A64 instructions announce the start of their translation block to
 * the plugin (translate.c, bench/qemu_callback_floor.c): a fact about QEMU
 * 7.2's memory callbacks, not about the architecture, so it lives here and
 * not in armprof/a64.h. */
#ifndef ARMPROF_PLUGIN_A64_TB_H
#define ARMPROF_PLUGIN_A64_TB_H

#include "armprof/a64.h"

/* Whether memory instruction c, when it is the first memory instruction of
 * its translation block, can announce that the block started: its
 * callback then fires exactly once per execution of the block, and nothing
 * before it can leave the block (a branch ends it). The plugin registers
 * no execution callback for a block that has one (and
 * bench/qemu_callback_floor.c registers what the plugin does). */
static inline int a64_announces_tb(const struct ap_a64_class *c, int first_ldst_of_tb)
{
	return first_ldst_of_tb && c->kind == AP_A64_LDST && (c->flags & AP_A64_F_ONE_ACCESS);
}

#endif
