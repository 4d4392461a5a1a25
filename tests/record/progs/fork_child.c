/* fork(): the child works and exits with status 3, the parent waits for
 * it, works again and exits with status 5 (tests/record/record_fork.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long total;

__attribute__((noinline)) static void work(long n)
{
	for (long i = 0; i < n; i++)
		total += (unsigned long)i;
}

int main(void)
{
	work(300000);
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		work(200000);
		printf("child done\n");
		exit(3);
	}
	int status = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	work(100000);
	printf("parent: child exited with %d\n", WEXITSTATUS(status));
	return 5;
}
