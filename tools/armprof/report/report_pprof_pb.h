/* The encoding of `armprof report --format pprof` (report_pprof.h): the
 * protobuf wire format (protobuf.dev/programming-guides/encoding: varints,
 * length-delimited fields, packed repeated scalars) and the gzip stream the
 * profile's bytes go through as they are encoded. The profile is written
 * while the records are read, before the output is opened (cmd_report.c
 * opens it once every input, and so every file it must not overwrite, is
 * known): the stream goes to a spool, an unlinked temporary file, until
 * the output is known, then the spool's bytes and the rest go there.
 * Private to report_pprof*.c. */
#ifndef ARMPROF_TOOL_REPORT_PPROF_PB_H
#define ARMPROF_TOOL_REPORT_PPROF_PB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "cli_output.h"

/* A protobuf message being encoded; oom: a byte could not be added. */
struct pb {
	uint8_t *p;
	size_t len, cap;
	int oom;
};

void pb_varint(struct pb *b, uint64_t v);
/* A scalar field (wire type 0); proto3 leaves zero out. */
void pb_int(struct pb *b, unsigned field, uint64_t v);
/* A length-delimited field (wire type 2): bytes, or a message. */
void pb_bytes(struct pb *b, unsigned field, const void *d, size_t n);
void pb_free(struct pb *b);

/* The profile's bytes: top holds those not yet deflated. */
struct pprof_stream {
	z_stream z;
	int z_open;
	struct pb top;
	FILE *spool;            /* the gzip stream until out is known, or NULL */
	struct cli_output *out; /* NULL until pprof_stream_to_output */
	int failed;             /* a failure, its reason printed */
};

/* A gzip stream at zlib's level 1 (runtime/pprof writes its profiles at
 * gzip.BestSpeed too): level 6 took 3.3 times the CPU for 12% less on
 * these profiles. 0, or -1 printed. */
int pprof_stream_init(struct pprof_stream *s);
/* Add field (the element in msg, emptied) to the profile; its bytes are
 * deflated once 64 KiB are pending. */
void pprof_stream_emit(struct pprof_stream *s, unsigned field, struct pb *msg);
/* Deflate what is pending (finish: and end the gzip stream) to the output,
 * or the spool before it. 0, or -1 (s->failed, printed; the output's own
 * write errors are cli_output_close's to print). */
int pprof_stream_drain(struct pprof_stream *s, int finish);
/* From now on to out: the spool's bytes first. 0, or -1 (printed). */
int pprof_stream_to_output(struct pprof_stream *s, struct cli_output *out);
void pprof_stream_fini(struct pprof_stream *s);

#endif
