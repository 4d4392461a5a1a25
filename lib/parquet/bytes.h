/* A growable byte buffer: the staging area of pages and of the footer.
 * Appends fail only on allocation failure, which is sticky (checked once,
 * by bytes_failed, after a batch of appends). */
#ifndef AP_PARQUET_BYTES_H
#define AP_PARQUET_BYTES_H

#include <stddef.h>
#include <stdint.h>

struct bytes {
	uint8_t *p;
	size_t len, cap;
	int failed; /* an allocation failed: contents are incomplete */
};

/* Make room for n more bytes; 0 or -1 (and failed set). */
int bytes_reserve(struct bytes *b, size_t n);
void bytes_put(struct bytes *b, const void *src, size_t n);
void bytes_u8(struct bytes *b, uint8_t v);
void bytes_le32(struct bytes *b, uint32_t v);
void bytes_le64(struct bytes *b, uint64_t v);
/* Unsigned LEB128 (Thrift compact varint, RLE run headers). */
void bytes_uvarint(struct bytes *b, uint64_t v);
void bytes_free(struct bytes *b);

#endif
