/* The hand-off from the plugin to the SPE model (include/armprof/spe.h):
 * one PE per vCPU, programmed the way Linux's arm_spe_pmu driver programs
 * it for a user-space (EL0) session, and the driver's buffer handling: the
 * profiling buffer lives in plugin memory; on the buffer-full management
 * event the bytes are drained and the buffer restarted, as the kernel does
 * with the AUX area. Private to plugins/qemu. */
#ifndef ARMPROF_SPE_SINK_H
#define ARMPROF_SPE_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/spe.h"

struct plugin_options;
struct spe_sink;

int spe_sink_new(struct spe_sink **out, const struct plugin_options *o, unsigned vcpu, int64_t tid,
                 char *err, size_t errlen);
void spe_sink_free(struct spe_sink *s);
/* A new guest thread took over this vCPU: CONTEXTIDR_EL1 = its tid. */
void spe_sink_set_tid(struct spe_sink *s, int64_t tid);

/* Let up to n undescribed operations pass (ap_spe_skip); returns how many
 * passed: fewer than n means the next one is selected and must be given to
 * spe_sink_op. now is the virtual time (CNTPCT) of the first of them. */
uint64_t spe_sink_skip(struct spe_sink *s, uint64_t n, uint64_t now);
/* How many operations can pass before the next one the model selects
 * (ap_spe_until_sample; UINT64_MAX while profiling is disabled). */
uint64_t spe_sink_until_sample(struct spe_sink *s);
/* Whether the model writes previous-branch-target packets (spe.pbt,
 * LATER-PBT-2): only then does the replay follow the last taken branch. */
int spe_sink_pbt(const struct spe_sink *s);
/* Describe one operation (ap_spe_op); drains the buffer on PMBIRQ. */
void spe_sink_op(struct spe_sink *s, const struct ap_spe_op *op, uint64_t now);

/* Complete in-flight samples (PSB CSYNC) and collect the remaining bytes. */
void spe_sink_finish(struct spe_sink *s);
/* The SPE bytes collected so far (every drained buffer, in order). */
const uint8_t *spe_sink_bytes(const struct spe_sink *s, size_t *len);
/* The bytes the profiling buffer holds beyond them (none after
 * spe_sink_finish): read without draining, for a checkpoint of a run
 * that goes on. */
const uint8_t *spe_sink_buffered(const struct spe_sink *s, size_t *len);
void spe_sink_counts(struct spe_sink *s, struct ap_spe_counts *c, uint64_t *drains,
                     uint64_t *lost_bytes);

#endif
