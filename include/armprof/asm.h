/* The armprof SPE text format: readable lines that the project's own encoder
 * turns into SPE bytes, for golden tests and for users (as libipt's pttc).
 * The language is documented in docs/spe-text-format.md. */
#ifndef ARMPROF_ASM_H
#define ARMPROF_ASM_H

#include "armprof/export.h"

#include <stddef.h>
#include <stdint.h>

#include "armprof/error.h"

#ifdef __cplusplus
extern "C" {
#endif


/* Assemble text[0..len) into a malloc'd buffer (*out, *out_len; free with
 * free()). base_offset is the stream offset of the first byte, which the
 * `align` statement needs. Returns 0, or a negative ap_error with err filled. */
AP_API int ap_asm_assemble(const char *text, size_t len, uint64_t base_offset, uint8_t **out,
                           size_t *out_len, struct ap_error_ctx *err);

#ifdef __cplusplus
}
#endif
#endif
