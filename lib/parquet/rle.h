/* Parquet's RLE/bit-packing hybrid encoding (parquet-format Encodings.md,
 * "Run Length Encoding / Bit-Packing Hybrid"): definition levels and
 * dictionary indices. A run of 8 or more equal values is an RLE run (header
 * count << 1, the value in ceil(width/8) bytes LE); anything else goes in
 * bit-packed groups of 8 values (header groups << 1 | 1, then width bytes
 * per group, values packed from the least significant bit). The last group
 * is padded with zeros: readers know the value count from the page header. */
#ifndef AP_PARQUET_RLE_H
#define AP_PARQUET_RLE_H

#include <stddef.h>
#include <stdint.h>

#include "parquet/bytes.h"

/* Append the encoding of n values of elem_size bytes (1: uint8_t, 4:
 * uint32_t), each below 2^width (width 1..32). */
void rle_hybrid_encode(struct bytes *out, const void *values, int elem_size, size_t n, int width);

/* Bits needed for values 0..max_value (at least 1). */
int rle_bit_width(uint32_t max_value);

#endif
