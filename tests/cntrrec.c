/*
 * cntrrec.c --
 *
 *	The recorder of tests/compcntr.test: an LD_PRELOAD library that
 *	stands in for libibverbs' completion counter calls (rdma-core 65),
 *	which no Soft-RoCE device runs, and logs each with what it is
 *	given, one line per call, to the file named by $CNTRREC_LOG.  The
 *	test runs one case through the verbs package and through
 *	tests/cntrrecref.c (the same case in C, written from the calls'
 *	manual pages) and compares the two logs: that proves marshalling,
 *	never a device's counting.
 *
 *	Its counters keep their two counts in memory, so that a read gives
 *	back what set and inc made of them.  It keeps the manual's one rule
 *	of lifetime: a counter attached to a queue pair is not destroyed
 *	(EBUSY, logged) until that queue pair is; ibv_destroy_qp passes
 *	through and is logged.  Counters are logged as "ccN" and queue
 *	pairs as "qpN", numbered by first appearance.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#define MAXN 64

typedef struct {
    struct ibv_comp_cntr cc;	/* First: what the caller holds. */
    int n;
    uint64_t count, errors;
} Cntr;

static struct { struct ibv_qp *qp; Cntr *cntr; } attached[MAXN];
static int nattached;
static struct ibv_qp *qps[MAXN];
static int nqps, ncntrs;

#define REC_LOG_ENV "CNTRREC_LOG"
#include "reclog.h"

/*
 * A queue pair's number by first appearance.
 */

static int
QpN(
    struct ibv_qp *qp)
{
    int i;

    for (i = 0; i < nqps; i++) {
	if (qps[i] == qp) {
	    return i + 1;
	}
    }
    if (nqps == MAXN) {
	return 0;
    }
    qps[nqps] = qp;
    return ++nqps;
}

int
_ibv_query_comp_cntr_caps(
    struct ibv_context *context,
    struct ibv_comp_cntr_caps *caps,
    size_t caps_size)
{
    (void) context;
    Log("query_comp_cntr_caps size %zu", caps_size);
    memset(caps, 0, caps_size);
    caps->max_value = (1ULL << 48) - 1;
    caps->max_counters = 16;
    caps->supported_qp_attach_ops = IBV_QP_ATTACH_COMP_CNTR_OP_SEND
	    | IBV_QP_ATTACH_COMP_CNTR_OP_RECV
	    | IBV_QP_ATTACH_COMP_CNTR_OP_RDMA_READ
	    | IBV_QP_ATTACH_COMP_CNTR_OP_RDMA_WRITE
	    | IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE;
    return 0;
}

struct ibv_comp_cntr *
ibv_create_comp_cntr(
    struct ibv_context *context,
    struct ibv_comp_cntr_init_attr *attr)
{
    Cntr *c = calloc(1, sizeof(*c));

    if (c == NULL) {
	errno = ENOMEM;
	return NULL;
    }
    c->n = ++ncntrs;
    c->cc.context = context;
    c->cc.handle = 100 + c->n;
    Log("create_comp_cntr comp_mask 0x%x type %d flags 0x%x -> cc%d",
	    attr->comp_mask, (int) attr->type, attr->flags, c->n);
    return &c->cc;
}

int
ibv_destroy_comp_cntr(
    struct ibv_comp_cntr *cc)
{
    Cntr *c = (Cntr *) cc;
    int i;

    for (i = 0; i < nattached; i++) {
	if (attached[i].cntr == c) {
	    Log("destroy_comp_cntr cc%d: EBUSY", c->n);
	    return EBUSY;
	}
    }
    Log("destroy_comp_cntr cc%d", c->n);
    free(c);
    return 0;
}

/*
 * The counts: set, increment, read.
 */

static int
Update(
    const char *call,
    struct ibv_comp_cntr *cc,
    uint64_t v,
    int err,
    int inc)
{
    Cntr *c = (Cntr *) cc;
    uint64_t *p = err ? &c->errors : &c->count;

    *p = inc ? *p + v : v;
    Log("%s cc%d %llu", call, c->n, (unsigned long long) v);
    return 0;
}

int
ibv_set_comp_cntr(
    struct ibv_comp_cntr *cc,
    uint64_t value)
{
    return Update("set_comp_cntr", cc, value, 0, 0);
}

int
ibv_set_err_comp_cntr(
    struct ibv_comp_cntr *cc,
    uint64_t value)
{
    return Update("set_err_comp_cntr", cc, value, 1, 0);
}

int
ibv_inc_comp_cntr(
    struct ibv_comp_cntr *cc,
    uint64_t amount)
{
    return Update("inc_comp_cntr", cc, amount, 0, 1);
}

int
ibv_inc_err_comp_cntr(
    struct ibv_comp_cntr *cc,
    uint64_t amount)
{
    return Update("inc_err_comp_cntr", cc, amount, 1, 1);
}

int
ibv_read_comp_cntr(
    struct ibv_comp_cntr *cc,
    uint64_t *value)
{
    Cntr *c = (Cntr *) cc;

    *value = c->count;
    Log("read_comp_cntr cc%d -> %llu", c->n, (unsigned long long) *value);
    return 0;
}

int
ibv_read_err_comp_cntr(
    struct ibv_comp_cntr *cc,
    uint64_t *value)
{
    Cntr *c = (Cntr *) cc;

    *value = c->errors;
    Log("read_err_comp_cntr cc%d -> %llu", c->n,
	    (unsigned long long) *value);
    return 0;
}

int
ibv_qp_attach_comp_cntr(
    struct ibv_qp *qp,
    struct ibv_comp_cntr *cc,
    struct ibv_qp_attach_comp_cntr_attr *attr)
{
    Cntr *c = (Cntr *) cc;

    Log("qp_attach_comp_cntr qp%d state %d cc%d comp_mask 0x%x op_mask 0x%x",
	    QpN(qp), (int) qp->state, c->n, attr->comp_mask, attr->op_mask);
    if (nattached == MAXN) {
	return ENOMEM;
    }
    attached[nattached].qp = qp;
    attached[nattached].cntr = c;
    nattached++;
    return 0;
}

/*
 * ibv_destroy_qp passes through; a destroyed queue pair lets its counters
 * go.
 */

int
ibv_destroy_qp(
    struct ibv_qp *qp)
{
    static int (*next)(struct ibv_qp *);
    int i, j, n = QpN(qp), ret;

    if (next == NULL) {
	/* The libibverbs that made the queue pair (which the extension's
	 * load may have brought in privately), and its current entry, not
	 * the IBVERBS_1.0 compatibility one. */
	void *lib = dlopen("libibverbs.so.1", RTLD_LAZY);

	next = (int (*)(struct ibv_qp *)) dlvsym(lib, "ibv_destroy_qp",
		"IBVERBS_1.1");
    }
    ret = next(qp);
    Log("destroy_qp qp%d -> %d", n, ret);
    if (ret == 0) {
	for (i = j = 0; i < nattached; i++) {
	    if (attached[i].qp != qp) {
		attached[j++] = attached[i];
	    }
	}
	nattached = j;
	qps[n - 1] = NULL;
    }
    return ret;
}
