#include "armprof/error.h"

const char *ap_errstr(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case AP_OK: return "success";
	case AP_ERR_INVALID: return "invalid argument";
	case AP_ERR_NOSPACE: return "output buffer too small";
	case AP_ERR_NEED_MORE: return "input ends inside a packet";
	case AP_ERR_FORMAT: return "malformed input";
	case AP_ERR_NOMEM: return "out of memory";
	case AP_ERR_IO: return "input/output error";
	case AP_ERR_UNSUPPORTED: return "not supported";
	case AP_ERR_INTERNAL: return "internal error";
	case AP_ERR_CALLBACK: return "stopped by callback";
	}
	return "unknown error";
}
