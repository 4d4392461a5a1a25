/* The libFuzzer entry point every fuzz_<name>.c defines. */
#ifndef ARMPROF_FUZZ_H
#define ARMPROF_FUZZ_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
