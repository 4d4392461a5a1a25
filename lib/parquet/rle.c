/* RLE/bit-packing hybrid encoder: see rle.h. */
#include "parquet/rle.h"

/* Always inlined, so that each is specialised for a constant elem_size
 * (the branch per value was most of this encoder's time). */
#define RLE_INLINE __attribute__((always_inline)) static inline

RLE_INLINE uint32_t get(const void *values, int elem_size, size_t i)
{
	return elem_size == 1 ? ((const uint8_t *)values)[i] : ((const uint32_t *)values)[i];
}

/* Length of the run of equal values starting at i, counted up to limit. */
RLE_INLINE size_t run_length(const void *values, int elem_size, size_t i, size_t n, size_t limit)
{
	uint32_t v = get(values, elem_size, i);
	size_t j = i + 1;
	while (j < n && j - i < limit && get(values, elem_size, j) == v)
		j++;
	return j - i;
}

static void put_rle_run(struct bytes *out, uint32_t v, size_t count, int width)
{
	bytes_uvarint(out, (uint64_t)count << 1);
	for (int b = 0; b < (width + 7) / 8; b++)
		bytes_u8(out, (uint8_t)(v >> (8 * b)));
}

/* values [i, i + count) as bit-packed groups; count is a multiple of 8
 * except at the end of the data, where the last group is zero-padded. */
RLE_INLINE void put_bit_packed(struct bytes *out, const void *values, int elem_size, size_t i,
                           size_t count, size_t n, int width)
{
	size_t groups = (count + 7) / 8;
	bytes_uvarint(out, (uint64_t)groups << 1 | 1);
	if (bytes_reserve(out, groups * (size_t)width) != 0)
		return;
	uint64_t acc = 0;
	int bits = 0;
	for (size_t k = 0; k < groups * 8; k++) {
		uint64_t v = (i + k < n && k < count) ? get(values, elem_size, i + k) : 0;
		acc |= v << bits;
		bits += width;
		while (bits >= 8) {
			out->p[out->len++] = (uint8_t)acc;
			acc >>= 8;
			bits -= 8;
		}
	}
	/* 8 values of width bits are exactly width bytes: nothing is left over */
}

RLE_INLINE void encode(struct bytes *out, const void *values, int elem_size, size_t n, int width)
{
	size_t i = 0;
	while (i < n) {
		size_t run = run_length(values, elem_size, i, n, SIZE_MAX);
		if (run >= 8) {
			put_rle_run(out, get(values, elem_size, i), run, width);
			i += run;
			continue;
		}
		/* Literal groups of 8 until one begins a run of 8 or the data ends. */
		size_t j = i;
		while (j < n && run_length(values, elem_size, j, n, 8) < 8)
			j += 8;
		if (j > n)
			j = n;
		put_bit_packed(out, values, elem_size, i, j - i, n, width);
		i = j;
	}
}

int rle_bit_width(uint32_t max_value)
{
	int w = 1;
	while (w < 32 && (max_value >> w) != 0)
		w++;
	return w;
}

void rle_hybrid_encode(struct bytes *out, const void *values, int elem_size, size_t n, int width)
{
	if (elem_size == 1)
		encode(out, values, 1, n, width);
	else
		encode(out, values, 4, n, width);
}
