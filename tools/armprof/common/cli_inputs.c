/* The inputs no output may overwrite: cli_inputs.h. A fixed table, filled
 * once per command run from the main thread (before any output opens). */
#include "cli_inputs.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_INPUTS 64

static struct input {
	dev_t dev;
	ino_t ino;
	char name[256]; /* as given, for the message (cut if longer) */
} inputs[MAX_INPUTS];
static size_t n_inputs;

static const struct input *find(const struct stat *st)
{
	for (size_t i = 0; i < n_inputs; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
			return &inputs[i];
	return NULL;
}

void cli_input_note(const char *path)
{
	struct stat st;
	if (!path || !path[0])
		return;
	int is_stdin = !strcmp(path, "-");
	if ((is_stdin ? fstat(STDIN_FILENO, &st) : stat(path, &st)) != 0 || find(&st) || n_inputs == MAX_INPUTS)
		return;
	struct input *in = &inputs[n_inputs++];
	in->dev = st.st_dev;
	in->ino = st.st_ino;
	snprintf(in->name, sizeof(in->name), "%s", is_stdin ? "standard input" : path);
}

int cli_output_refuse_input(const char *cmd, const char *path)
{
	/* stat follows symbolic links: a link to the input is the input */
	struct stat st;
	int is_stdout = !path || !strcmp(path, "-");
	if ((is_stdout ? fstat(STDOUT_FILENO, &st) : stat(path, &st)) != 0 || !S_ISREG(st.st_mode))
		return 0; /* a new file, a device, a FIFO: nothing to overwrite */
	const struct input *in = find(&st);
	if (!in)
		return 0;
	fprintf(stderr, "armprof %s: %s: is the input %s (the same file); not overwriting it\n", cmd,
	        is_stdout ? "standard output" : path, in->name);
	return -1;
}
