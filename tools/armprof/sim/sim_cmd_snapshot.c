/* `armprof sim` commands of the PMU and PMU snapshots (docs/sim.md,
 * docs/pc-sampling-and-snapshots.md):
 *   snapshot-request                 the external snapshot request (SS-RSCLCQ-2)
 *   expect-capture disabled|prohibited|allowed   Table D13-10 class now
 *   expect-brbe-freezes N            BRBE freeze events so far (SS-IWRNBL)
 *   pmu-event EVENT [N]              the PE reports N events (name or number)
 *   cycles N                         N processor cycles
 * The snapshot registers themselves are System registers: msr/mrs/expect. */
#include <string.h>
#include <strings.h>

#include "armprof/pmu.h"
#include "armprof/snapshot.h"
#include "sim.h"

static int cmd_snapshot_request(struct sim *s, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	ap_pe_snapshot_request(s->pe);
	return 0;
}

/* The class is computed from the same rules a Capture event uses; the
 * snapshot logic keeps its PE view current on every state change. */
static int cmd_expect_capture(struct sim *s, int argc, char **argv)
{
	(void)argc;
	static const char *const names[] = { "disabled", "prohibited", "allowed" };
	int want = -1;
	for (int i = 0; i < 3; i++)
		if (!strcasecmp(argv[1], names[i]))
			want = i;
	if (want < 0)
		return sim_error(s, "expect-capture: '%s' (disabled, prohibited, allowed)", argv[1]);
	enum ap_ss_capture got = ap_pe_snapshot_class(s->pe);
	if ((int)got != want)
		return sim_fail(s, "Capture events are %s, expected %s", names[got], names[want]);
	return 0;
}

static const struct {
	const char *name;
	uint16_t event;
} event_names[] = {
	{ "sw_incr", AP_PMU_EV_SW_INCR },
	{ "inst_retired", AP_PMU_EV_INST_RETIRED },
	{ "cpu_cycles", AP_PMU_EV_CPU_CYCLES },
	{ "br_retired", AP_PMU_EV_BR_RETIRED },
	{ "sample_pop", AP_PMU_EV_SAMPLE_POP },
	{ "sample_feed", AP_PMU_EV_SAMPLE_FEED },
	{ "sample_filtrate", AP_PMU_EV_SAMPLE_FILTRATE },
	{ "sample_collision", AP_PMU_EV_SAMPLE_COLLISION },
	{ "pmu_snapshot", AP_PMU_EV_PMU_SNAPSHOT },
};

static int cmd_pmu_event(struct sim *s, int argc, char **argv)
{
	uint64_t ev = 0, n = 1;
	bool found = false;
	for (size_t i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
		if (!strcasecmp(argv[1], event_names[i].name)) {
			ev = event_names[i].event;
			found = true;
		}
	if (!found && (sim_parse_u64(s, argv[1], &ev, "event") || ev > 0xFFFF))
		return ev > 0xFFFF ? sim_error(s, "pmu-event: event number %s is wider than 16 bits", argv[1])
		                   : SIM_EXIT_ERROR;
	if (argc == 3 && sim_parse_u64(s, argv[2], &n, "count"))
		return SIM_EXIT_ERROR;
	ap_pe_pmu_event(s->pe, (uint16_t)ev, n);
	return 0;
}

static int cmd_cycles(struct sim *s, int argc, char **argv)
{
	(void)argc;
	uint64_t n;
	if (sim_parse_u64(s, argv[1], &n, "cycles"))
		return SIM_EXIT_ERROR;
	ap_pe_cycles(s->pe, n);
	return 0;
}

static int cmd_expect_brbe_freezes(struct sim *s, int argc, char **argv)
{
	(void)argc;
	uint64_t want;
	if (sim_parse_u64(s, argv[1], &want, "count"))
		return SIM_EXIT_ERROR;
	struct ap_snapshot_stats st;
	ap_pe_snapshot_stats(s->pe, &st);
	uint64_t got = st.brbe_freezes;
	if (got != want)
		return sim_fail(s, "BRBE freeze events: %llu, expected %llu", (unsigned long long)got,
		                (unsigned long long)want);
	return 0;
}

static const struct sim_command snapshot_commands[] = {
	{ "snapshot-request", "snapshot-request", 0, 0, 0, cmd_snapshot_request },
	{ "expect-capture", "expect-capture disabled|prohibited|allowed", 0, 1, 1, cmd_expect_capture },
	{ "expect-brbe-freezes", "expect-brbe-freezes N", 0, 1, 1, cmd_expect_brbe_freezes },
	{ "pmu-event", "pmu-event EVENT [N]", 0, 1, 2, cmd_pmu_event },
	{ "cycles", "cycles N", 0, 1, 1, cmd_cycles },
};

const struct sim_module sim_module_snapshot = {
	"snapshot", snapshot_commands, sizeof(snapshot_commands) / sizeof(snapshot_commands[0]),
	NULL, NULL, NULL, NULL,
};
