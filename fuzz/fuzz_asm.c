/* Fuzz target: the SPE text-format assembler; whatever it accepts must
 * decode without the decoder failing. */
#include <stdint.h>
#include <stdlib.h>

#include "armprof/asm.h"
#include "fuzz.h"
#include "armprof/decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *out;
	size_t n;
	struct ap_error_ctx err;
	if (ap_asm_assemble((const char *)data, size, 0, &out, &n, &err) != 0) {
		if (err.line == 0)
			abort(); /* every error names its line */
		return 0;
	}
	struct ap_decoder dec;
	ap_decoder_init(&dec, NULL);
	ap_decoder_feed(&dec, out, n);
	ap_decoder_finish(&dec);
	free(out);
	return 0;
}
