/* The replay hub's fork-join team (hub_team.h). */
#include "hub_team.h"
#include "thread_cpu.h"

#include <signal.h>
#include <string.h>
#include <time.h>

static int claim(struct hub_team *t, unsigned i)
{
	return !atomic_exchange_explicit(&t->claimed[i], 1, memory_order_relaxed);
}

/* Thread self's items, then any not yet started; returns how many it did. */
static unsigned work(struct hub_team *t, unsigned self, hub_team_fn fn, void *ctx, unsigned n,
                     const unsigned *owner)
{
	unsigned did = 0;
	for (unsigned i = 0; i < n; i++)
		if (owner[i] % (t->helpers + 1) == self && claim(t, i)) {
			fn(ctx, i);
			did++;
		}
	for (unsigned i = 0; i < n; i++)
		if (claim(t, i)) {
			fn(ctx, i);
			did++;
		}
	return did;
}

static void *helper(void *arg)
{
	const struct hub_team_helper *me = arg;
	struct hub_team *t = me->team;
	uint64_t seen = 0;
	pthread_mutex_lock(&t->lock);
	for (;;) {
		while (t->generation == seen && !t->stop)
			pthread_cond_wait(&t->start, &t->lock);
		if (t->stop)
			break;
		seen = t->generation;
		/* Woken late, after the run ended (the caller may be about to
		 * start the next): leave it alone. */
		if (t->finished == t->n)
			continue;
		t->active++;
		hub_team_fn fn = t->fn;
		void *ctx = t->ctx;
		unsigned n = t->n;
		const unsigned *owner = t->owner;
		pthread_mutex_unlock(&t->lock);
		uint64_t t0 = thread_cpu_ns();
		unsigned did = work(t, me->index, fn, ctx, n, owner);
		atomic_fetch_add_explicit(&t->helper_cpu_ns, thread_cpu_ns() - t0, memory_order_relaxed);
		pthread_mutex_lock(&t->lock);
		t->finished += did;
		t->active--;
		if (t->finished == t->n && !t->active)
			pthread_cond_signal(&t->done);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

unsigned hub_team_start(struct hub_team *t, unsigned helpers)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	pthread_cond_init(&t->start, NULL);
	pthread_cond_init(&t->done, NULL);
	if (helpers > HUB_TEAM_MAX_HELPERS)
		helpers = HUB_TEAM_MAX_HELPERS;
	/* The program's signals must reach its own threads (event_ring.c). */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/* t->helpers counts the started ones: none works before a run. */
	while (t->helpers < helpers) {
		t->helper[t->helpers] = (struct hub_team_helper){ t, t->helpers + 1 };
		if (pthread_create(&t->thread[t->helpers], NULL, helper, &t->helper[t->helpers]) != 0)
			break;
		t->helpers++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return t->helpers;
}

void hub_team_run(struct hub_team *t, unsigned n, hub_team_fn fn, void *ctx, const unsigned *owner)
{
	if (!n)
		return;
	pthread_mutex_lock(&t->lock);
	t->fn = fn;
	t->ctx = ctx;
	t->n = n;
	t->owner = owner;
	t->finished = 0;
	for (unsigned i = 0; i < n; i++)
		atomic_store_explicit(&t->claimed[i], 0, memory_order_relaxed);
	t->generation++;
	if (t->helpers)
		pthread_cond_broadcast(&t->start);
	pthread_mutex_unlock(&t->lock);
	unsigned did = work(t, 0, fn, ctx, n, owner);
	pthread_mutex_lock(&t->lock);
	t->finished += did;
	while (t->finished != n || t->active)
		pthread_cond_wait(&t->done, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

void hub_team_stop(struct hub_team *t)
{
	pthread_mutex_lock(&t->lock);
	t->stop = 1;
	pthread_cond_broadcast(&t->start);
	pthread_mutex_unlock(&t->lock);
	for (unsigned i = 0; i < t->helpers; i++)
		pthread_join(t->thread[i], NULL);
	t->helpers = 0;
}
