/* File helpers shared by the subcommands: input by path or "-" and
 * whole-file reads; output files are cli_output.h's. */
#ifndef ARMPROF_TOOL_CLI_IO_H
#define ARMPROF_TOOL_CLI_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "armprof/decode.h"
#include "cli_output.h"

/* Open path for reading ("-" is stdin). On failure prints
 * "armprof CMD: PATH: reason" and returns NULL. Refuses directories. */
FILE *cli_open_input(const char *cmd, const char *path);

/* Read a whole input into a malloc'd buffer. Returns 0 or prints and
 * returns -1. */
int cli_read_all(const char *cmd, const char *path, uint8_t **data, size_t *len);

/* Raw input read this far without a single SPE record is not SPE data
 * (/dev/zero: padding only, forever): decode, report and convert stop
 * there. Any stream that holds records streams for as long as it lasts,
 * as `cat` does, in bounded memory. */
#define CLI_NO_RECORD_LIMIT (64u << 20)
/* 1 after printing "armprof CMD: PATH: 64 MiB read and not one SPE record
 * ...; stopping" when dec has read CLI_NO_RECORD_LIMIT bytes without a
 * record; else 0. Called once per chunk fed. */
int cli_no_record_stop(const char *cmd, const char *path, const struct ap_decoder *dec);
/* At the end of a raw input that is to be written as SPE data (convert):
 * 1 after printing "armprof CMD: PATH: ... not SPE data" when it is not a
 * stream of SPE records, whatever its size: bytes but not one record
 * (records end with an End or Timestamp packet, SPE-5.1.2-1: zeros are
 * Padding only), or more than half of its records holding a header byte
 * that encodes no packet (SPE-5.1.1-3, SPE-5.1.4-4), a reserved value, or
 * cut short (random bytes, text, an ELF file); else 0. An empty input is
 * left to the caller (a warning). */
int cli_not_spe_data(const char *cmd, const char *path, const struct ap_decoder *dec);

#endif
