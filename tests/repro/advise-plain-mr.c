/*
 * advise-plain-mr.c --
 *
 *	The C twin of tests/odp.test's odp-crash-1.1, for a kernel bug
 *	report: ibv_advise_mr (prefetch_write, flush) of MRs registered
 *	without IBV_ACCESS_ON_DEMAND.  A kernel that checks refuses each
 *	call with one and the same error.  rxe of kernel 7.2.12 reads the
 *	plain umem as an ODP one: the calls answer EINVAL or EFAULT at
 *	random, or the kernel oopses in get_pid_task (called from
 *	ib_umem_odp_map_dma_and_lock, from rxe_ib_advise_mr), killing this
 *	process.
 *
 *	    cc -o advise-plain-mr advise-plain-mr.c -libverbs
 *	    ./advise-plain-mr [DEVICE [COUNT]]
 *
 *	Prints one line a call, "N ok" or "N ERRNONAME message"; exits 0,
 *	or 1 when the device cannot be opened.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

static const char *
ErrnoName(
    int e)
{
    switch (e) {
    case EINVAL: return "EINVAL";
    case EFAULT: return "EFAULT";
    case ENOENT: return "ENOENT";
    case EPERM: return "EPERM";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    default: return "E?";
    }
}

int
main(
    int argc,
    char **argv)
{
    const char *name = argc > 1 ? argv[1] : NULL;
    int count = argc > 2 ? atoi(argv[2]) : 16;
    struct ibv_device **list = ibv_get_device_list(NULL);
    struct ibv_context *ctx = NULL;
    struct ibv_pd *pd;
    int i;

    for (i = 0; list && list[i]; i++) {
	if (name == NULL || strcmp(ibv_get_device_name(list[i]), name) == 0) {
	    ctx = ibv_open_device(list[i]);
	    break;
	}
    }
    if (ctx == NULL || (pd = ibv_alloc_pd(ctx)) == NULL) {
	fprintf(stderr, "cannot open %s\n", name ? name : "a device");
	return 1;
    }
    for (i = 0; i < count; i++) {
	static char bufs[64][64];
	struct ibv_mr *mr = ibv_reg_mr(pd, bufs[i % 64], 64,
		IBV_ACCESS_LOCAL_WRITE);
	struct ibv_sge sge;
	int rc;

	if (mr == NULL) {
	    printf("%d reg_mr %s\n", i, strerror(errno));
	    continue;
	}
	sge.addr = (uintptr_t) bufs[i % 64];
	sge.length = 64;
	sge.lkey = mr->lkey;
	rc = ibv_advise_mr(pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE,
		IBV_ADVISE_MR_FLAG_FLUSH, &sge, 1);
	if (rc == 0) {
	    printf("%d ok\n", i);
	} else {
	    printf("%d %s %s\n", i, ErrnoName(rc), strerror(rc));
	}
	fflush(stdout);
    }
    return 0;
}
