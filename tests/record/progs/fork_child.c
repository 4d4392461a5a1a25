/* fork(): the first child works and exits with status 3; the second
 * works and is ended by SIGTERM (raise); the parent waits for both, works
 * again and exits with status 5 (tests/record/record_fork.sh). Each has a
 * function of its own, so that the profile shows whose samples are whose. */
#include <signal.h>
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

__attribute__((noinline)) static void child_work(long n)
{
	for (long i = 0; i < n; i++)
		total += (unsigned long)i;
}

__attribute__((noinline)) static void doomed_child_work(long n)
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
		child_work(200000);
		printf("child done\n");
		exit(3);
	}
	pid_t doomed = fork();
	if (doomed < 0)
		return 1;
	if (doomed == 0) {
		doomed_child_work(100000);
		raise(SIGTERM);
		return 0;
	}
	int status = 0, doomed_status = 0;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || waitpid(doomed, &doomed_status, 0) != doomed ||
	    !WIFSIGNALED(doomed_status))
		return 1;
	work(100000);
	printf("parent: child exited with %d, the other was ended by signal %d\n", WEXITSTATUS(status),
	       WTERMSIG(doomed_status));
	return 5;
}
