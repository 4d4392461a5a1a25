/* Work, then exec another program (tests/record/record_exec.sh).
 * usage: exec_after_work self PROGRAM [ARGS...]
 *          work, then execv(PROGRAM): the process becomes PROGRAM; should
 *          the exec fail, more work, then exit 3
 *        exec_after_work child PROGRAM [ARGS...]
 *          fork; the child execs PROGRAM at once (as system() does), the
 *          parent waits for it, then works, and exits 0 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void work_before_exec(void)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < 2000000; i++)
		s += i ^ (s >> 3);
	sink = s;
}

__attribute__((noinline)) static void work_after_failed_exec(void)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < 1000000; i++)
		s += i * 7 + (s >> 5);
	sink = s;
}

__attribute__((noinline)) static void work_in_parent(void)
{
	unsigned long s = 1;
	for (unsigned long i = 0; i < 1000000; i++)
		s = s * 3 + i;
	sink = s;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: exec_after_work self|child PROGRAM [ARGS...]\n");
		return 2;
	}
	if (!strcmp(argv[1], "self")) {
		work_before_exec();
		execv(argv[2], argv + 2);
		perror("exec_after_work: execv");
		work_after_failed_exec();
		return 3;
	}
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		execv(argv[2], argv + 2);
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid)
		return 2;
	work_in_parent();
	printf("exec_after_work: child status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}
