/* Growable byte buffer: see bytes.h. */
#include <stdlib.h>
#include <string.h>

#include "parquet/bytes.h"

int bytes_reserve(struct bytes *b, size_t n)
{
	if (b->failed)
		return -1;
	if (b->cap - b->len >= n)
		return 0;
	size_t cap = b->cap ? b->cap : 256;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2) {
			b->failed = 1;
			return -1;
		}
		cap *= 2;
	}
	uint8_t *p = realloc(b->p, cap);
	if (!p) {
		b->failed = 1;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

void bytes_put(struct bytes *b, const void *src, size_t n)
{
	if (n == 0 || bytes_reserve(b, n) != 0)
		return;
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

void bytes_u8(struct bytes *b, uint8_t v)
{
	bytes_put(b, &v, 1);
}

void bytes_le32(struct bytes *b, uint32_t v)
{
	uint8_t x[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	bytes_put(b, x, 4);
}

void bytes_le64(struct bytes *b, uint64_t v)
{
	bytes_le32(b, (uint32_t)v);
	bytes_le32(b, (uint32_t)(v >> 32));
}

void bytes_uvarint(struct bytes *b, uint64_t v)
{
	uint8_t x[10];
	size_t n = 0;
	while (v >= 0x80) {
		x[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	x[n++] = (uint8_t)v;
	bytes_put(b, x, n);
}

void bytes_free(struct bytes *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
