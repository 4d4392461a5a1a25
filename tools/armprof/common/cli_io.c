#include "cli_io.h"
#include "cli_inputs.h"
#include "cli_stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *cli_open_input(const char *cmd, const char *path)
{
	/* An input whose magic was read already (cli_stream.h) */
	FILE *stream = cli_stream_open(path);
	cli_input_note(path); /* no output may be it */
	if (stream)
		return stream;
	if (!strcmp(path, "-"))
		return stdin;
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "armprof %s: %s: %s\n", cmd, path, strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "armprof %s: %s: is a directory\n", cmd, path);
		return NULL;
	}
	FILE *f = fopen(path, "rb");
	if (!f)
		fprintf(stderr, "armprof %s: %s: %s\n", cmd, path, strerror(errno));
	return f;
}

int cli_read_all(const char *cmd, const char *path, uint8_t **data, size_t *len)
{
	FILE *f = cli_open_input(cmd, path);
	if (!f)
		return -1;
	size_t cap = 1 << 20, n = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	int err = ferror(f);
	int e = errno;
	if (f != stdin)
		fclose(f);
	if (!buf) {
		fprintf(stderr, "armprof %s: %s: out of memory\n", cmd, path);
		return -1;
	}
	if (err) {
		fprintf(stderr, "armprof %s: %s: read error: %s\n", cmd, path, strerror(e));
		free(buf);
		return -1;
	}
	*data = buf;
	*len = n;
	return 0;
}

int cli_no_record_stop(const char *cmd, const char *path, const struct ap_decoder *dec)
{
	const struct ap_decoder_stats *st = ap_decoder_stats(dec);
	if (st->records || st->bytes < CLI_NO_RECORD_LIMIT)
		return 0;
	fprintf(stderr, "armprof %s: %s: %u MiB read and not one SPE record (padding only): not SPE data; stopping\n",
	        cmd, path, CLI_NO_RECORD_LIMIT >> 20);
	return 1;
}

int cli_not_spe_data(const char *cmd, const char *path, const struct ap_decoder *dec)
{
	const struct ap_decoder_stats *st = ap_decoder_stats(dec);
	if (!st->bytes)
		return 0;
	if (!st->records) {
		fprintf(stderr, "armprof %s: %s: %llu bytes and not one SPE record (%s): not SPE data\n", cmd, path,
		        (unsigned long long)st->bytes,
		        st->pad_bytes + st->align_bytes == st->bytes ? "padding only" : "no End or Timestamp packet");
		return 1;
	}
	if (st->records_with_errors > st->records / 2) {
		fprintf(stderr, "armprof %s: %s: %llu of its %llu records hold bytes that are no SPE packet (%llu "
		        "undefined headers, %llu reserved values, %llu records cut short): not SPE data\n", cmd, path,
		        (unsigned long long)st->records_with_errors, (unsigned long long)st->records,
		        (unsigned long long)st->unknown_packets, (unsigned long long)st->reserved_packets,
		        (unsigned long long)(st->truncated_records + st->forced_records));
		return 1;
	}
	return 0;
}
