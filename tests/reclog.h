/*
 * reclog.h --
 *
 *	The log of the recorders (tests/mlx5rec.c, tests/cntrrec.c): Log
 *	appends one line, printf style, to the file named by the
 *	environment variable REC_LOG_ENV, which the recorder defines before
 *	it includes this; without that variable nothing is logged.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void
Log(
    const char *fmt,
    ...)
{
    const char *path = getenv(REC_LOG_ENV);
    FILE *f;
    va_list ap;

    if (path == NULL || (f = fopen(path, "a")) == NULL) {
	return;
    }
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}
