/* AP_API marks each function of armprof's public API (include/armprof/).
 *
 * The libraries are built with hidden visibility: a function is exported
 * from libarmprof-*.so only when its declaration here carries AP_API, so the
 * exported symbols are exactly the declarations of the public headers
 * (checked by the test api_exports, tests/api/). Everything else in lib/
 * stays internal to its library. */
#ifndef ARMPROF_EXPORT_H
#define ARMPROF_EXPORT_H

#if defined(__GNUC__)
#define AP_API __attribute__((visibility("default")))
#else
#define AP_API
#endif

#endif
