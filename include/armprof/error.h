/* Error codes shared by every armprof module.
 *
 * Library functions never print or exit: they return a negative enum ap_error
 * and, where a caller can use it, fill a caller-given struct with context. */
#ifndef ARMPROF_ERROR_H
#define ARMPROF_ERROR_H

#include "armprof/export.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ap_error {
	AP_OK = 0,
	AP_ERR_INVALID = 1,   /* invalid argument from the caller */
	AP_ERR_NOSPACE = 2,   /* output buffer too small; nothing was written */
	AP_ERR_NEED_MORE = 3, /* input ends inside a packet */
	AP_ERR_FORMAT = 4,    /* malformed input data */
	AP_ERR_NOMEM = 5,     /* allocation failed */
	AP_ERR_IO = 6,        /* a read or write failed */
	AP_ERR_UNSUPPORTED = 7, /* valid but not supported by this build/config */
	AP_ERR_INTERNAL = 8,  /* a bug in armprof */
	AP_ERR_CALLBACK = 9,  /* a host callback asked to stop */
};

/* The context of a failure: functions that can fail on their input take a
 * `struct ap_error_ctx *err` (may be NULL) and, when they return a negative
 * enum ap_error, fill it. message always names what failed and where (it
 * is the text to show a user); the other fields give the place for a
 * program, where the input has one (else 0 / ""). Caller storage; the
 * library keeps no pointer to it. */
struct ap_error_ctx {
	char message[512];     /* "FILE: what went wrong" (NUL-terminated) */
	char where[32];        /* the part of the input: "attrs", "PERF_RECORD_AUXTRACE", ... */
	uint64_t offset;       /* byte offset in the input */
	uint64_t inner_offset; /* offset inside a compressed payload, when in_compressed */
	uint32_t line;         /* 1-based line of a text input */
	uint32_t record_type;  /* perf.data record type concerned (enum ap_perf_record_type) */
	uint8_t in_compressed; /* offset is that of the PERF_RECORD_COMPRESSED holding the data */
};

/* A static, human-readable description of a (positive or negative) error code. */
AP_API const char *ap_errstr(int err);

#ifdef __cplusplus
}
#endif
#endif
