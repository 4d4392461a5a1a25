/* `armprof report --html` (report_html.h): the page template with its
 * style, its script and the data document put in place. The template,
 * style and script are files of their own (tools/armprof/html/), made into
 * the C strings below at build time (cmake/embed_files.cmake). */
#include "report_html.h"

#include <stdlib.h>
#include <string.h>

/* report_html_assets.c, generated. */
extern const char report_html_template[], report_html_css[], report_html_js[];

/* Write the data document into a <script type="application/json">: JSON
 * has '<', '>' and '&' only inside strings, where \uXXXX means the same
 * character, so written so the document holds none of them and no input
 * (a symbol name, a file name) can end the element or start markup; the
 * script parses it and puts text into the page as text (textContent),
 * never as markup. */
static void write_data(FILE *out, const char *json, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = json[i];
		if (c == '<')
			fputs("\\u003c", out);
		else if (c == '>')
			fputs("\\u003e", out);
		else if (c == '&')
			fputs("\\u0026", out);
		else
			fputc(c, out);
	}
}

int report_write_html(FILE *out, const struct ap_report *r, const struct report_view *v,
                      const struct report_html_extras *x)
{
	char *json = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&json, &len);
	if (!mem)
		return -1;
	int rc = report_html_data(mem, r, v, x);
	if (fclose(mem) != 0 || rc < 0) {
		free(json);
		return -1;
	}
	/* The template's markers, in order, and what replaces each. */
	static const char *const marker[] = { "/*@CSS@*/", "/*@DATA@*/", "/*@JS@*/" };
	const char *p = report_html_template;
	for (int m = 0; m < 3; m++) {
		const char *at = strstr(p, marker[m]);
		if (!at) /* the build embeds the template checked by tests/report/report_html.sh */
			break;
		fwrite(p, 1, (size_t)(at - p), out);
		if (m == 0)
			fputs(report_html_css, out);
		else if (m == 1)
			write_data(out, json, len);
		else
			fputs(report_html_js, out);
		p = at + strlen(marker[m]);
	}
	fputs(p, out);
	free(json);
	return 0;
}
