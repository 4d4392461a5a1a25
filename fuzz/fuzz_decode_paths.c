/* Fuzz target: the decoder's fast path (lib/decode/decoder.c fast_run and
 * fuse_after_pc, taken only when no packet callback is set) against its
 * generic path (every packet through the codec's pd_decode), on arbitrary
 * bytes. fuzz_decode sets a packet callback and so never reaches the fast
 * path; this target runs both and aborts on the first record or count in
 * which they differ (tests/decode_paths.h compares every field).
 *
 * Input: byte 0 picks the record size limit, bytes 1-4 the chunk sizes of
 * the chunked feeds, the rest is the stream. */
#include <stdio.h>
#include <stdlib.h>

#include "decode_paths.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 5)
		return 0;
	static const uint32_t limits[8] = { 0, 0, 0, 16, 40, 64, 100, 4096 };
	uint32_t limit = limits[data[0] & 7];
	uint64_t base = data[0] >> 3; /* alignment is by stream offset */
	size_t chunks[4];
	for (unsigned i = 0; i < 4; i++)
		chunks[i] = 1 + data[1 + i] % (i < 2 ? 12 : 64);
	data += 5;
	size -= 5;

	struct dp_run ref, run;
	dp_decode(&ref, data, size, 1, NULL, 0, base, limit);
	for (unsigned way = 0; way < 3; way++) {
		int generic = way == 2, chunked = way != 0;
		dp_decode(&run, data, size, generic, chunks, chunked ? 4 : 0, base, limit);
		char msg[160];
		const char *d = dp_diff(&ref, &run, msg, sizeof(msg));
		if (d) {
			fprintf(stderr, "fuzz_decode_paths: %s path%s differs from the generic path: %s\n",
			        generic ? "generic" : "fast", chunked ? " in chunks" : "", d);
			abort();
		}
		dp_free(&run);
	}
	dp_free(&ref);
	return 0;
}
