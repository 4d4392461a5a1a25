/* A program that takes timer signals while it computes: SIGALRM every
 * millisecond from setitimer(), counted by a handler, until it has seen
 * TICKS of them (tests/record/record_signals.sh; usage: timer_signals [TICKS]). Host signals for the program must
 * reach its own threads under armprof record, not the plugin's. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

static volatile sig_atomic_t ticks;
static volatile unsigned long total;

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

int main(int argc, char **argv)
{
	int want = argc > 1 ? atoi(argv[1]) : 50;
	struct sigaction sa = { 0 };
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) != 0)
		return 1;
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
	if (setitimer(ITIMER_REAL, &it, NULL) != 0)
		return 1;
	while (ticks < want)
		for (int i = 0; i < 10000; i++)
			total += (unsigned long)i;
	printf("ticks %d\n", (int)ticks);
	return 0;
}
