/* A parent that forks a child and waits for it, as perf's
 * test_arm_spe_fork.sh's program does, but the child spins a fixed number
 * of iterations (argv[1]) instead of forever, so a recording of it ends by
 * itself. Prints the child's PID: its records carry it in CONTEXTIDR_EL1. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long spin(unsigned long n)
{
	volatile unsigned long sum = 0; /* one load and one store per iteration */
	for (unsigned long i = 0; i < n; i++)
		sum += i;
	return sum;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	int status;
	pid_t child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0)
		return spin(n) == 1; /* never 1 for n > 2: exit status 0 */
	printf("child %d\n", (int)child);
	fflush(stdout);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "fork_spin: the child failed\n");
		return 1;
	}
	return 0;
}
