/* Two threads writing neighbouring words of one line, before and after a
 * fork(), in the parent and in the child (tests/record/record_interleave.sh):
 * the same virtual line in two processes, each shared by its own threads.
 * The parent's helper thread of the first round exits and a new one runs
 * the second: one vCPU index, two thread ids. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static struct {
	volatile uint64_t a, b;
} s __attribute__((aligned(64)));

static void *bump(void *p)
{
	volatile uint64_t *c = p;
	for (long i = 0; i < 300000; i++)
		(*c)++;
	return NULL;
}

static void pair(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, bump, (void *)&s.b) != 0)
		return;
	bump((void *)&s.a);
	pthread_join(t, NULL);
}

int main(void)
{
	pair();
	pid_t pid = fork();
	if (pid == 0) {
		pair();
		printf("child %lu %lu\n", (unsigned long)s.a, (unsigned long)s.b);
		return 0;
	}
	int st;
	waitpid(pid, &st, 0);
	pair();
	printf("parent %lu %lu\n", (unsigned long)s.a, (unsigned long)s.b);
	return 0;
}
