/* A string dictionary for one column chunk (RLE_DICTIONARY encoding): each
 * distinct string gets the next index; the dictionary page lists them in
 * index order. Open addressing over a power-of-two table; strings live in
 * one arena. Cleared (not freed) at each row group, so a steady stream of
 * rows allocates nothing once the tables have grown to its working set. */
#ifndef AP_PARQUET_DICT_H
#define AP_PARQUET_DICT_H

#include <stddef.h>
#include <stdint.h>

#include "parquet/bytes.h"

struct dict {
	struct bytes arena;  /* the strings, back to back */
	uint32_t *start;     /* per index: offset in arena; start[n] is the end */
	uint32_t n, start_cap;
	uint32_t *slots;     /* index + 1, 0 = empty */
	uint32_t n_slots;    /* power of two */
};

/* Index of the string (added if new): >= 0, or -1 on allocation failure. */
int64_t dict_index(struct dict *d, const char *s, size_t len);
/* Bytes the strings take (arena), to bound a row group's memory. */
size_t dict_bytes(const struct dict *d);
/* The dictionary page body: each string PLAIN (4-byte LE length, bytes). */
void dict_plain(const struct dict *d, struct bytes *out);
void dict_clear(struct dict *d);
void dict_free(struct dict *d);

#endif
