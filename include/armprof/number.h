/* The one number syntax of armprof: configuration values, the SPE text
 * format, `armprof` options and scripts all read unsigned numbers with
 * ap_parse_u64(). */
#ifndef ARMPROF_NUMBER_H
#define ARMPROF_NUMBER_H

#include "armprof/export.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parse all of text as an unsigned 64-bit number: decimal, 0x hex or 0b
 * binary ("0x40", "0b10", "4096"), '_' allowed between digits
 * ("0xffff_0000"). No sign, no spaces, no octal (a leading 0 is decimal).
 * Returns 0 and sets *out, or -AP_ERR_INVALID (empty, a stray character, a
 * digit outside the base, or a value above UINT64_MAX) with *out unchanged. */
AP_API int ap_parse_u64(const char *text, uint64_t *out);
/* The same with an optional binary-multiple suffix: K (2^10), M (2^20) or G
 * (2^30), either case ("64K", "0x10M"). -AP_ERR_INVALID also when the
 * product overflows. */
AP_API int ap_parse_u64_scaled(const char *text, uint64_t *out);

#ifdef __cplusplus
}
#endif
#endif
