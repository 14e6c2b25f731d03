/*
 * exitshim.c --
 *
 *	An LD_PRELOAD shim for faults.test: it logs every libibverbs call
 *	that destroys a resource, in order, one line each ("destroy_qp CTX",
 *	"dealloc_pd CTX", ..., CTX being the device context the resource
 *	belongs to), to the file named by $EXITSHIM_LOG, then calls the real
 *	function.  The test compiles it at test time and runs a
 *	child tclsh under it to see the order in which [exit] tears down a
 *	tree of objects.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

/*
 * Append one line to the log (no stdio: this may run in exit handlers).
 */

static void
Log(
    const char *name,
    const void *context)
{
    const char *path = getenv("EXITSHIM_LOG");
    char what[128];
    int fd;

    snprintf(what, sizeof(what), "%s %p", name, context);
    if (path == NULL) {
	return;
    }
    fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) {
	return;
    }
    if (write(fd, what, strlen(what)) < 0 || write(fd, "\n", 1) < 0) {
	/* Nothing to do: the test sees the line missing. */
    }
    close(fd);
}

/*
 * The real function of that name and version.  Tcl loads the extension,
 * and with it libibverbs, into a local scope that RTLD_NEXT does not
 * search: ask libibverbs itself.
 */

static void *
Real(
    const char *name,
    const char *version)
{
    void *lib = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_NOLOAD);
    void *fn = NULL;

    if (lib != NULL) {
	fn = dlvsym(lib, name, version);
	dlclose(lib);
    }
    if (fn == NULL) {
	fn = dlvsym(RTLD_NEXT, name, version);
    }
    if (fn == NULL) {
	abort();
    }
    return fn;
}

#define WRAP(name, type, version, line, context)		\
    int name(type *arg)						\
    {								\
	static int (*real)(type *) = NULL;			\
								\
	if (real == NULL) {					\
	    real = (int (*)(type *)) Real(#name, version);	\
	}							\
	Log(line, context);					\
	return real(arg);					\
    }

WRAP(ibv_destroy_qp, struct ibv_qp, "IBVERBS_1.1", "destroy_qp",
	arg->context)
WRAP(ibv_destroy_cq, struct ibv_cq, "IBVERBS_1.1", "destroy_cq",
	arg->context)
WRAP(ibv_destroy_srq, struct ibv_srq, "IBVERBS_1.1", "destroy_srq",
	arg->context)
WRAP(ibv_destroy_ah, struct ibv_ah, "IBVERBS_1.1", "destroy_ah",
	arg->context)
WRAP(ibv_dereg_mr, struct ibv_mr, "IBVERBS_1.1", "dereg_mr", arg->context)
WRAP(ibv_dealloc_pd, struct ibv_pd, "IBVERBS_1.1", "dealloc_pd",
	arg->context)
WRAP(ibv_destroy_comp_channel, struct ibv_comp_channel, "IBVERBS_1.0",
	"destroy_comp_channel", arg->context)
WRAP(ibv_close_device, struct ibv_context, "IBVERBS_1.1", "close_device",
	arg)
