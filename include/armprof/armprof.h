/* armprof: Arm sample-based profiling (SPE, PC sampling, PMU snapshots).
 * Umbrella header: includes every public module header. */
#ifndef ARMPROF_ARMPROF_H
#define ARMPROF_ARMPROF_H

#include "armprof/error.h"
#include "armprof/number.h"
#include "armprof/codec.h"
#include "armprof/data_source.h"
#include "armprof/record.h"
#include "armprof/decode.h"
#include "armprof/model.h"
#include "armprof/pmu.h"
#include "armprof/pcsr.h"
#include "armprof/snapshot.h"
#include "armprof/extregs.h"
#include "armprof/spe.h"
#include "armprof/a64.h"
#include "armprof/perfdata.h"
#include "armprof/uarch.h"
#include "armprof/report.h"
#include "armprof/parquet.h"

#endif
