/* Error codes shared by every armprof module.
 *
 * Library functions never print or exit: they return a negative enum ap_error
 * and, where a caller can use it, fill a caller-given struct with context. */
#ifndef ARMPROF_ERROR_H
#define ARMPROF_ERROR_H

#include "armprof/export.h"

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

/* A static, human-readable description of a (positive or negative) error code. */
AP_API const char *ap_errstr(int err);

#ifdef __cplusplus
}
#endif
#endif
