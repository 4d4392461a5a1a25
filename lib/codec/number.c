/* ap_parse_u64(): the number syntax of every armprof input (see
 * include/armprof/number.h). */
#include <stdbool.h>
#include <string.h>

#include "armprof/error.h"
#include "armprof/number.h"

int ap_parse_u64(const char *text, uint64_t *out)
{
	unsigned base = 10;
	const char *p = text;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
		base = 2;
		p += 2;
	}
	uint64_t v = 0;
	bool digits = false;
	for (; *p; p++) {
		/* '_' only between two digits: "5_", "1__0", "0x10_" are typos. */
		if (*p == '_' && digits && p[1] && p[1] != '_')
			continue;
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (*p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (*p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			return -AP_ERR_INVALID;
		if (d >= base)
			return -AP_ERR_INVALID;
		if (v > (UINT64_MAX - d) / base)
			return -AP_ERR_INVALID; /* overflow */
		v = v * base + d;
		digits = true;
	}
	if (!digits)
		return -AP_ERR_INVALID;
	*out = v;
	return 0;
}

int ap_parse_u64_scaled(const char *text, uint64_t *out)
{
	size_t n = strlen(text);
	unsigned shift = 0;
	if (n > 1) {
		switch (text[n - 1]) { /* K, M, G are no digit of any base: a suffix */
		case 'K': case 'k': shift = 10; break;
		case 'M': case 'm': shift = 20; break;
		case 'G': case 'g': shift = 30; break;
		default: return ap_parse_u64(text, out);
		}
	}
	char digits[80];
	if (!shift || n - 1 >= sizeof(digits))
		return ap_parse_u64(text, out);
	memcpy(digits, text, n - 1);
	digits[n - 1] = 0;
	uint64_t v;
	if (ap_parse_u64(digits, &v) < 0 || v > (UINT64_MAX >> shift))
		return -AP_ERR_INVALID;
	*out = v << shift;
	return 0;
}
