/* The profiled program for the perf.data tests: a few functions with known
 * symbols. Rebuild tiny-aarch64.elf with:
 *   aarch64-linux-gnu-gcc -O1 -nostdlib -static -no-pie -fno-asynchronous-unwind-tables \
 *       -Wl,--build-id=none -o tiny-aarch64.elf tiny.c
 * and tiny-dynamic-aarch64.elf (a PIE with an interpreter, for the ELF
 * helpers' tests and fuzz corpus) with:
 *   aarch64-linux-gnu-gcc -O1 -nostdlib -fPIE -pie -fno-asynchronous-unwind-tables \
 *       -Wl,--build-id=none -Wl,-z,max-page-size=4096 -Wl,-z,noseparate-code -s \
 *       -Wl,--dynamic-linker=/lib/ld-linux-aarch64.so.1 -o tiny-dynamic-aarch64.elf tiny.c
 * (checked in so the tests do not need the cross compiler). */
volatile long sink[64];

__attribute__((noinline)) long load_loop(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += sink[i & 63];
	return s;
}

__attribute__((noinline)) void store_loop(long n)
{
	for (long i = 0; i < n; i++)
		sink[i & 63] = i;
}

__attribute__((noinline)) long branchy(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += (i & 3) ? i : -i;
	return s;
}

void _start(void)
{
	long s = load_loop(1000) + branchy(1000);
	store_loop(s & 1023);
	for (;;)
		__asm__ volatile("mov x8, #93\n\tmov x0, #0\n\tsvc #0");
}
