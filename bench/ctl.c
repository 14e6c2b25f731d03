/*
 * ctl.c --
 *
 *	The control path in C, the baseline of bench/ctl.tcl (verbs) and
 *	bench/ctl_pyverbs.py (pyverbs): times N creations (or
 *	modifications, destructions) of each kind of object, all N alive at
 *	once, and prints one line an operation:
 *
 *	    c ctl_OP n N usec_per_op X
 *
 *	With -mem it prints instead the resident memory one more object
 *	costs, the growth of the resident set (Rss, see the function) over
 *	N objects divided by N:
 *
 *	    c mem_OBJ n N bytes_per_obj B
 *
 *	for OBJ qp, mr, cq and cmid (the last through librdmacm), or
 *	those -o names.
 *	bench/ctl.sh runs it in the Soft-RoCE VM; bench/README.md defines
 *	each operation.  Built by "make bench" (not by "make"):
 *
 *	    cc -O2 -o bench/ctl bench/ctl.c -libverbs -lrdmacm
 *	    bench/ctl -n N -d DEV -x GIDIDX -D PEERDEV -X PEERGIDIDX
 *		    ?-o OP,OP...? ?-mem?
 *
 *	Exits 0, 1 when an operation failed (its line is left out and the
 *	reason goes to stderr), 2 on a bad command line.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define PORT		1
#define CQE		256
#define MR_ACCESS	(IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ \
			    | IBV_ACCESS_REMOTE_WRITE)

/*
 * What the command line asked for, and the devices: dev and peer are
 * opened once (untimed), the first for the objects of every operation but
 * ctx_open and tree_close, the second only for its GID, the AHs'
 * destination.
 */

typedef struct {
    int n;			/* Objects per operation. */
    const char *devName;	/* -d */
    int gidIndex;		/* -x: the own GID of the QPs' paths. */
    const char *peerName;	/* -D */
    int peerGidIndex;		/* -X */
    const char *ops;		/* -o: NULL for every operation. */
    int mem;			/* -mem */
    struct ibv_device *dev;
    struct ibv_context *ctx;
    union ibv_gid gid;		/* dev's GID at gidIndex. */
    union ibv_gid peerGid;	/* peer's GID at peerGidIndex. */
    int failed;			/* Set by Fail. */
} Ctl;

/*
 *----------------------------------------------------------------------
 *
 * Now --
 *
 *	The monotonic clock.
 *
 * Results:
 *	Microseconds since some fixed point.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static double
Now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/*
 *----------------------------------------------------------------------
 *
 * Wanted --
 *
 *	Whether the line of operation op is asked for: -o is a list of
 *	names separated by commas or blanks.
 *
 * Results:
 *	1 or 0.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
Wanted(
    const Ctl *c,
    const char *op)
{
    const char *p = c->ops;
    size_t len = strlen(op);

    if (p == NULL) {
	return 1;
    }
    while (*p) {
	size_t word = strcspn(p, ", ");

	if (word == len && strncmp(p, op, len) == 0) {
	    return 1;
	}
	p += word;
	p += strspn(p, ", ");
    }
    return 0;
}

/*
 *----------------------------------------------------------------------
 *
 * Report --
 *
 *	Prints the line of one timed loop of c->n operations, if asked for.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Writes to stdout.
 *
 *----------------------------------------------------------------------
 */

static void
Report(
    const Ctl *c,
    const char *op,
    double usec)		/* The loop's time. */
{
    if (Wanted(c, op)) {
	printf("c ctl_%s n %d usec_per_op %.2f\n", op, c->n, usec / c->n);
	fflush(stdout);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * Fail --
 *
 *	Reports a failed call: which operation, which object of the loop
 *	and errno's message.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Writes to stderr; the exit status becomes 1.
 *
 *----------------------------------------------------------------------
 */

static void
Fail(
    Ctl *c,
    const char *op,
    const char *call,
    int i,			/* The object's index in the loop. */
    int err)
{
    fprintf(stderr, "c ctl_%s n %d: %s (object %d): %s\n", op, c->n, call,
	    i, strerror(err));
    c->failed = 1;
}

/*
 *----------------------------------------------------------------------
 *
 * Table --
 *
 *	Allocates a zeroed table of c->n pointers.
 *
 * Results:
 *	The table; exits when memory is short.
 *
 * Side effects:
 *	Allocates memory.
 *
 *----------------------------------------------------------------------
 */

static void *
Table(
    const Ctl *c)
{
    void *t = calloc(c->n, sizeof(void *));

    if (t == NULL) {
	perror("ctl: calloc");
	exit(1);
    }
    return t;
}

/*
 *----------------------------------------------------------------------
 *
 * FindDevice --
 *
 *	Looks a device up by name in the list libibverbs gives.
 *
 * Results:
 *	The device, or NULL.
 *
 * Side effects:
 *	The list is kept (the devices it holds must live on).
 *
 *----------------------------------------------------------------------
 */

static struct ibv_device *
FindDevice(
    const char *name)
{
    struct ibv_device **list = ibv_get_device_list(NULL);
    int i;

    for (i = 0; list && list[i]; i++) {
	if (strcmp(ibv_get_device_name(list[i]), name) == 0) {
	    return list[i];
	}
    }
    return NULL;
}

/*
 * The makers of the objects of ctx_open, pd, cq and ah, and their
 * destructors: MakeLoop calls them through these, arg being what the
 * maker needs besides c (the AH's PD and attributes).
 */

typedef void *(MakeProc)(Ctl *c, void *arg);
typedef void (DropProc)(void *obj);

typedef struct {
    struct ibv_pd *pd;
    struct ibv_ah_attr attr;
} AhArgs;

/*
 *----------------------------------------------------------------------
 *
 * MakeContext, MakePd, MakeCq, MakeAh, DropContext, DropPd, DropCq,
 * DropAh --
 *
 *	One object of each operation: a context of the device, a PD or a
 *	CQ of CQE entries (no channel) on the one context, an AH on arg's
 *	PD to arg's address; and its destruction.
 *
 * Results:
 *	The object, or NULL with errno set.
 *
 * Side effects:
 *	As said.
 *
 *----------------------------------------------------------------------
 */

static void *
MakeContext(
    Ctl *c,
    void *arg)
{
    (void) arg;
    return ibv_open_device(c->dev);
}

static void *
MakePd(
    Ctl *c,
    void *arg)
{
    (void) arg;
    return ibv_alloc_pd(c->ctx);
}

static void *
MakeCq(
    Ctl *c,
    void *arg)
{
    (void) arg;
    return ibv_create_cq(c->ctx, CQE, NULL, NULL, 0);
}

static void *
MakeAh(
    Ctl *c,
    void *arg)
{
    AhArgs *a = arg;

    (void) c;
    return ibv_create_ah(a->pd, &a->attr);
}

static void
DropContext(
    void *obj)
{
    ibv_close_device(obj);
}

static void
DropPd(
    void *obj)
{
    ibv_dealloc_pd(obj);
}

static void
DropCq(
    void *obj)
{
    ibv_destroy_cq(obj);
}

static void
DropAh(
    void *obj)
{
    ibv_destroy_ah(obj);
}

/*
 *----------------------------------------------------------------------
 *
 * MakeLoop --
 *
 *	The timed loop of ctx_open, pd, cq and ah: c->n objects made by
 *	make, all kept until the loop ends, then destroyed by drop
 *	(untimed).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Prints op's line, or reports the call that failed.
 *
 *----------------------------------------------------------------------
 */

static void
MakeLoop(
    Ctl *c,
    const char *op,
    const char *call,		/* The maker's library call, for Fail. */
    MakeProc *make,
    DropProc *drop,
    void *arg)
{
    void **objs = Table(c);
    double t0, t1;
    int i, n = 0;

    t0 = Now();
    for (i = 0; i < c->n; i++) {
	objs[i] = make(c, arg);
	if (objs[i] == NULL) {
	    Fail(c, op, call, i, errno);
	    break;
	}
	n++;
    }
    t1 = Now();
    if (n == c->n) {
	Report(c, op, t1 - t0);
    }
    for (i = 0; i < n; i++) {
	drop(objs[i]);
    }
    free(objs);
}

/*
 *----------------------------------------------------------------------
 *
 * QpInitAttr --
 *
 *	The attributes of the QPs of qp_create and mem_qp: RC, on cq both
 *	ways, 16 WRs and 1 SGE each way.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Fills *init.
 *
 *----------------------------------------------------------------------
 */

static void
QpInitAttr(
    struct ibv_qp_init_attr *init,
    struct ibv_cq *cq)
{
    memset(init, 0, sizeof(*init));
    init->send_cq = cq;
    init->recv_cq = cq;
    init->qp_type = IBV_QPT_RC;
    init->cap.max_send_wr = 16;
    init->cap.max_recv_wr = 16;
    init->cap.max_send_sge = 1;
    init->cap.max_recv_sge = 1;
}

/*
 *----------------------------------------------------------------------
 *
 * QpConnect --
 *
 *	Takes one RC QP from RESET to RTS, connected to itself (its own
 *	qp_num behind the device's own GID), with rc_pingpong's attributes.
 *
 * Results:
 *	0, or the errno of the modify that failed.
 *
 * Side effects:
 *	Three ibv_modify_qp calls.
 *
 *----------------------------------------------------------------------
 */

static int
QpConnect(
    const Ctl *c,
    struct ibv_qp *qp)
{
    struct ibv_qp_attr attr;

    memset(&attr, 0, sizeof(attr));
    attr.qp_state = IBV_QPS_INIT;
    attr.pkey_index = 0;
    attr.port_num = PORT;
    attr.qp_access_flags = 0;
    if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX
	    | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)) {
	return errno;
    }

    memset(&attr, 0, sizeof(attr));
    attr.qp_state = IBV_QPS_RTR;
    attr.path_mtu = IBV_MTU_1024;
    attr.dest_qp_num = qp->qp_num;
    attr.rq_psn = 0;
    attr.max_dest_rd_atomic = 1;
    attr.min_rnr_timer = 12;
    attr.ah_attr.is_global = 1;
    attr.ah_attr.grh.dgid = c->gid;
    attr.ah_attr.grh.sgid_index = c->gidIndex;
    attr.ah_attr.grh.hop_limit = 1;
    attr.ah_attr.port_num = PORT;
    if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU
	    | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC
	    | IBV_QP_MIN_RNR_TIMER)) {
	return errno;
    }

    memset(&attr, 0, sizeof(attr));
    attr.qp_state = IBV_QPS_RTS;
    attr.sq_psn = 0;
    attr.timeout = 14;
    attr.retry_cnt = 7;
    attr.rnr_retry = 7;
    attr.max_rd_atomic = 1;
    if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT
	    | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN
	    | IBV_QP_MAX_QP_RD_ATOMIC)) {
	return errno;
    }
    return 0;
}

/*
 *----------------------------------------------------------------------
 *
 * Qps --
 *
 *	qp_create, qp_to_rts and qp_destroy: c->n RC QPs on one PD, all on
 *	one send and receive CQ (16 WRs and 1 SGE each way), each then
 *	taken to RTS, then each destroyed: three timed loops.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Prints the lines.
 *
 *----------------------------------------------------------------------
 */

static void
Qps(
    Ctl *c)
{
    struct ibv_qp **qps = Table(c);
    struct ibv_qp_init_attr init;
    struct ibv_pd *pd = ibv_alloc_pd(c->ctx);
    struct ibv_cq *cq = ibv_create_cq(c->ctx, CQE, NULL, NULL, 0);
    double t0, t1;
    int i, err, n = 0, ok;

    if (pd == NULL || cq == NULL) {
	Fail(c, "qp_create", "ibv_alloc_pd or ibv_create_cq", 0, errno);
	goto done;
    }
    QpInitAttr(&init, cq);

    t0 = Now();
    for (i = 0; i < c->n; i++) {
	qps[i] = ibv_create_qp(pd, &init);
	if (qps[i] == NULL) {
	    Fail(c, "qp_create", "ibv_create_qp", i, errno);
	    break;
	}
	n++;
    }
    t1 = Now();
    if (n < c->n) {
	goto done;
    }
    Report(c, "qp_create", t1 - t0);

    ok = 1;
    t0 = Now();
    for (i = 0; i < n; i++) {
	err = QpConnect(c, qps[i]);
	if (err) {
	    Fail(c, "qp_to_rts", "ibv_modify_qp", i, err);
	    ok = 0;
	    break;
	}
    }
    t1 = Now();
    if (ok) {
	Report(c, "qp_to_rts", t1 - t0);
    }

    ok = 1;
    t0 = Now();
    for (i = 0; i < n; i++) {
	err = ibv_destroy_qp(qps[i]);
	if (err) {
	    Fail(c, "qp_destroy", "ibv_destroy_qp", i, err);
	    ok = 0;
	}
    }
    t1 = Now();
    n = 0;
    if (ok) {
	Report(c, "qp_destroy", t1 - t0);
    }

  done:
    for (i = 0; i < n; i++) {
	ibv_destroy_qp(qps[i]);
    }
    if (cq) {
	ibv_destroy_cq(cq);
    }
    if (pd) {
	ibv_dealloc_pd(pd);
    }
    free(qps);
}

/*
 *----------------------------------------------------------------------
 *
 * MrRegister --
 *
 *	Registers c->n MRs on pd, each over a zeroed page-aligned buffer
 *	of its own of size bytes, allocated in the loop as the other
 *	implementations do; the timed loop of mr_reg_4k, mr_reg_1m and
 *	tree_close's set-up.
 *
 * Results:
 *	The number registered (c->n unless a call failed); the loop's time
 *	in *usecPtr.
 *
 * Side effects:
 *	Fills mrs.
 *
 *----------------------------------------------------------------------
 */

static int
MrRegister(
    Ctl *c,
    const char *op,
    struct ibv_pd *pd,
    size_t size,
    struct ibv_mr **mrs,
    double *usecPtr)
{
    long page = sysconf(_SC_PAGESIZE);
    double t0 = Now();
    int i, err;

    for (i = 0; i < c->n; i++) {
	void *buf;

	err = posix_memalign(&buf, page, size);
	if (err) {
	    Fail(c, op, "posix_memalign", i, err);
	    break;
	}
	memset(buf, 0, size);
	mrs[i] = ibv_reg_mr(pd, buf, size, MR_ACCESS);
	if (mrs[i] == NULL) {
	    Fail(c, op, "ibv_reg_mr", i, errno);
	    free(buf);
	    break;
	}
    }
    *usecPtr = Now() - t0;
    return i;
}

/*
 *----------------------------------------------------------------------
 *
 * MrDeregister --
 *
 *	Deregisters the first n of mrs and frees their buffers.
 *
 * Results:
 *	0, or the first error of ibv_dereg_mr.
 *
 * Side effects:
 *	As said.
 *
 *----------------------------------------------------------------------
 */

static int
MrDeregister(
    struct ibv_mr **mrs,
    int n)
{
    int i, err, first = 0;

    for (i = 0; i < n; i++) {
	void *buf = mrs[i]->addr;

	err = ibv_dereg_mr(mrs[i]);
	if (err && !first) {
	    first = err;
	}
	free(buf);
    }
    return first;
}

/*
 *----------------------------------------------------------------------
 *
 * Mrs --
 *
 *	mr_reg_4k and mr_dereg (c->n 4 KiB MRs registered, then
 *	deregistered, one timed loop each), then mr_reg_1m (c->n MRs of
 *	1 MiB, deregistered untimed), all on one PD.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Prints the lines.
 *
 *----------------------------------------------------------------------
 */

static void
Mrs(
    Ctl *c)
{
    struct ibv_mr **mrs = Table(c);
    struct ibv_pd *pd = ibv_alloc_pd(c->ctx);
    double usec, t0, t1;
    int n, err;

    if (pd == NULL) {
	Fail(c, "mr_reg_4k", "ibv_alloc_pd", 0, errno);
	free(mrs);
	return;
    }
    if (Wanted(c, "mr_reg_4k") || Wanted(c, "mr_dereg")) {
	n = MrRegister(c, "mr_reg_4k", pd, 4096, mrs, &usec);
	if (n == c->n) {
	    Report(c, "mr_reg_4k", usec);
	}
	t0 = Now();
	err = MrDeregister(mrs, n);
	t1 = Now();
	if (err) {
	    Fail(c, "mr_dereg", "ibv_dereg_mr", 0, err);
	} else if (n == c->n) {
	    Report(c, "mr_dereg", t1 - t0);
	}
    }
    if (Wanted(c, "mr_reg_1m")) {
	n = MrRegister(c, "mr_reg_1m", pd, 1 << 20, mrs, &usec);
	if (n == c->n) {
	    Report(c, "mr_reg_1m", usec);
	}
	MrDeregister(mrs, n);
    }
    ibv_dealloc_pd(pd);
    free(mrs);
}

/*
 *----------------------------------------------------------------------
 *
 * Ahs --
 *
 *	ah: c->n address handles on one PD of the context to the peer
 *	device's GID, after one made and destroyed untimed (the first AH
 *	to an address waits for the kernel's neighbour resolution).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Prints the line.
 *
 *----------------------------------------------------------------------
 */

static void
Ahs(
    Ctl *c)
{
    AhArgs a;
    void *first;

    memset(&a, 0, sizeof(a));
    a.pd = ibv_alloc_pd(c->ctx);
    if (a.pd == NULL) {
	Fail(c, "ah", "ibv_alloc_pd", 0, errno);
	return;
    }
    a.attr.is_global = 1;
    a.attr.grh.dgid = c->peerGid;
    a.attr.grh.sgid_index = c->gidIndex;
    a.attr.grh.hop_limit = 1;
    a.attr.port_num = PORT;
    first = MakeAh(c, &a);
    if (first != NULL) {
	DropAh(first);
    }
    MakeLoop(c, "ah", "ibv_create_ah", MakeAh, DropAh, &a);
    ibv_dealloc_pd(a.pd);
}

/*
 *----------------------------------------------------------------------
 *
 * TreeClose --
 *
 *	tree_close: a context of its own with one PD and c->n 4 KiB MRs
 *	(untimed), then torn down as a C program does it: every MR
 *	deregistered and its buffer freed, the PD deallocated, the device
 *	closed (timed).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Prints the line.
 *
 *----------------------------------------------------------------------
 */

static void
TreeClose(
    Ctl *c)
{
    struct ibv_mr **mrs = Table(c);
    struct ibv_context *ctx = ibv_open_device(c->dev);
    struct ibv_pd *pd = ctx ? ibv_alloc_pd(ctx) : NULL;
    double usec, t0, t1;
    int n;

    if (pd == NULL) {
	Fail(c, "tree_close", "ibv_open_device or ibv_alloc_pd", 0, errno);
	if (ctx) {
	    ibv_close_device(ctx);
	}
	free(mrs);
	return;
    }
    n = MrRegister(c, "tree_close", pd, 4096, mrs, &usec);
    t0 = Now();
    MrDeregister(mrs, n);
    ibv_dealloc_pd(pd);
    ibv_close_device(ctx);
    t1 = Now();
    if (n == c->n) {
	Report(c, "tree_close", t1 - t0);
    }
    free(mrs);
}

/*
 *----------------------------------------------------------------------
 *
 * Rss --
 *
 *	The process's resident set: Rss of /proc/self/smaps_rollup, which
 *	the kernel counts from the page tables when it is read.  (VmRSS of
 *	/proc/self/status lags on kernels before 6.2: their counters are
 *	kept per thread and folded into the process's every 64 page
 *	faults, and rxe maps a queue's pages into the process in the mmap
 *	call, with no fault: 1000 CQs of 256 entries, 68 MiB by the page
 *	tables, showed as 33 MiB of VmRSS.)  VmRSS where there is no
 *	smaps_rollup.
 *
 * Results:
 *	KiB, or -1 when neither can be read.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static long
Rss(void)
{
    static const char *const sources[][2] = {
	{"/proc/self/smaps_rollup", "Rss: %ld"},
	{"/proc/self/status", "VmRSS: %ld"}
    };
    char line[256];
    long kib = -1;
    size_t i;

    for (i = 0; i < sizeof(sources) / sizeof(sources[0]) && kib < 0; i++) {
	FILE *f = fopen(sources[i][0], "r");

	while (f && fgets(line, sizeof(line), f)) {
	    if (sscanf(line, sources[i][1], &kib) == 1) {
		break;
	    }
	}
	if (f) {
	    fclose(f);
	}
    }
    return kib;
}

/*
 *----------------------------------------------------------------------
 *
 * MemReport --
 *
 *	Prints a mem_ line: the growth of the resident set (Rss) since
 *	rss0 over c->n objects.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Writes to stdout.
 *
 *----------------------------------------------------------------------
 */

static void
MemReport(
    const Ctl *c,
    const char *obj,
    long rss0)
{
    printf("c mem_%s n %d bytes_per_obj %.0f\n", obj, c->n,
	    (Rss() - rss0) * 1024.0 / c->n);
    fflush(stdout);
}

/*
 *----------------------------------------------------------------------
 *
 * Mem --
 *
 *	-mem: for each kind of object asked for (-o: qp, mr, cq, cmid; all
 *	without -o), one made first (so that what is measured is what one
 *	more costs), then c->n: RC QPs as qp_create makes them, 4 KiB MRs,
 *	CQs of CQE entries, ids of the tcp port space on one event channel.
 *	All stay alive until the end.  bench/ctl.sh asks for one kind a
 *	process, so that none fills the holes another left in the heap.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Prints the mem_ lines.
 *
 *----------------------------------------------------------------------
 */

static void
Mem(
    Ctl *c)
{
    struct ibv_pd *pd = ibv_alloc_pd(c->ctx);
    struct ibv_cq *cq = ibv_create_cq(c->ctx, CQE, NULL, NULL, 0);
    struct ibv_qp **qps = Table(c);
    struct ibv_mr **mrs = Table(c);
    struct ibv_cq **cqs = Table(c);
    struct rdma_cm_id **ids = Table(c);
    struct rdma_event_channel *ch = rdma_create_event_channel();
    struct rdma_cm_id *id0 = NULL;
    struct ibv_qp_init_attr init;
    struct ibv_qp *qp0 = NULL;
    struct ibv_mr *mr0 = NULL;
    struct ibv_cq *cq0 = NULL;
    double usec;
    long rss0;
    int i, nq = 0, nm = 0, nc = 0, ni = 0;

    if (pd == NULL || cq == NULL || ch == NULL) {
	Fail(c, "mem", "ibv_alloc_pd, ibv_create_cq or "
		"rdma_create_event_channel", 0, errno);
	goto done;
    }
    QpInitAttr(&init, cq);

    if (Wanted(c, "qp")) {
	qp0 = ibv_create_qp(pd, &init);
	if (qp0 == NULL) {
	    Fail(c, "mem_qp", "ibv_create_qp", 0, errno);
	    goto done;
	}
	rss0 = Rss();
	for (nq = 0; nq < c->n; nq++) {
	    qps[nq] = ibv_create_qp(pd, &init);
	    if (qps[nq] == NULL) {
		Fail(c, "mem_qp", "ibv_create_qp", nq, errno);
		goto done;
	    }
	}
	MemReport(c, "qp", rss0);
    }

    if (Wanted(c, "mr")) {
	/* The first MR goes through the same code as the others. */
	Ctl one = *c;

	one.n = 1;
	if (MrRegister(&one, "mem_mr", pd, 4096, &mr0, &usec) != 1) {
	    c->failed = 1;
	    goto done;
	}
	rss0 = Rss();
	nm = MrRegister(c, "mem_mr", pd, 4096, mrs, &usec);
	if (nm < c->n) {
	    goto done;
	}
	MemReport(c, "mr", rss0);
    }

    if (Wanted(c, "cq")) {
	cq0 = ibv_create_cq(c->ctx, CQE, NULL, NULL, 0);
	if (cq0 == NULL) {
	    Fail(c, "mem_cq", "ibv_create_cq", 0, errno);
	    goto done;
	}
	rss0 = Rss();
	for (nc = 0; nc < c->n; nc++) {
	    cqs[nc] = ibv_create_cq(c->ctx, CQE, NULL, NULL, 0);
	    if (cqs[nc] == NULL) {
		Fail(c, "mem_cq", "ibv_create_cq", nc, errno);
		goto done;
	    }
	}
	MemReport(c, "cq", rss0);
    }

    if (Wanted(c, "cmid")) {
	if (rdma_create_id(ch, &id0, NULL, RDMA_PS_TCP)) {
	    id0 = NULL;
	    Fail(c, "mem_cmid", "rdma_create_id", 0, errno);
	    goto done;
	}
	rss0 = Rss();
	for (ni = 0; ni < c->n; ni++) {
	    if (rdma_create_id(ch, &ids[ni], NULL, RDMA_PS_TCP)) {
		Fail(c, "mem_cmid", "rdma_create_id", ni, errno);
		goto done;
	    }
	}
	MemReport(c, "cmid", rss0);
    }

  done:
    for (i = 0; i < ni; i++) {
	rdma_destroy_id(ids[i]);
    }
    for (i = 0; i < nc; i++) {
	ibv_destroy_cq(cqs[i]);
    }
    MrDeregister(mrs, nm);
    for (i = 0; i < nq; i++) {
	ibv_destroy_qp(qps[i]);
    }
    if (id0) {
	rdma_destroy_id(id0);
    }
    if (ch) {
	rdma_destroy_event_channel(ch);
    }
    if (mr0) {
	MrDeregister(&mr0, 1);
    }
    if (cq0) {
	ibv_destroy_cq(cq0);
    }
    if (qp0) {
	ibv_destroy_qp(qp0);
    }
    if (cq) {
	ibv_destroy_cq(cq);
    }
    if (pd) {
	ibv_dealloc_pd(pd);
    }
    free(qps);
    free(mrs);
    free(cqs);
    free(ids);
}

/*
 *----------------------------------------------------------------------
 *
 * Usage --
 *
 *	The command line's synopsis.
 *
 * Results:
 *	Does not return: exits 2.
 *
 * Side effects:
 *	Writes to stderr.
 *
 *----------------------------------------------------------------------
 */

static void
Usage(void)
{
    fprintf(stderr, "usage: ctl -n N -d DEV -x GIDIDX -D PEERDEV"
	    " -X PEERGIDIDX ?-o OP,OP...? ?-mem?\n");
    exit(2);
}

/*
 *----------------------------------------------------------------------
 *
 * QueryGid --
 *
 *	The GID at index of port PORT of the named device, from a context
 *	opened for the purpose.
 *
 * Results:
 *	0, or -1 with the reason on stderr.
 *
 * Side effects:
 *	Fills *gid.
 *
 *----------------------------------------------------------------------
 */

static int
QueryGid(
    const char *name,
    int index,
    union ibv_gid *gid)
{
    struct ibv_device *dev = FindDevice(name);
    struct ibv_context *ctx = dev ? ibv_open_device(dev) : NULL;
    int rc;

    if (ctx == NULL) {
	fprintf(stderr, "ctl: cannot open device %s\n", name);
	return -1;
    }
    rc = ibv_query_gid(ctx, PORT, index, gid);
    ibv_close_device(ctx);
    if (rc) {
	fprintf(stderr, "ctl: ibv_query_gid %s %d: %s\n", name, index,
		strerror(rc < 0 ? errno : rc));
	return -1;
    }
    return 0;
}

/*
 *----------------------------------------------------------------------
 *
 * main --
 *
 *	Parses the command line, opens the device, and runs the operations
 *	asked for (or the memory measures) in the order of bench/README.md.
 *
 * Results:
 *	The exit status: 0, 1 when an operation failed, 2 on a bad command
 *	line.
 *
 * Side effects:
 *	Prints the lines.
 *
 *----------------------------------------------------------------------
 */

int
main(
    int argc,
    char **argv)
{
    Ctl c;
    int i;

    memset(&c, 0, sizeof(c));
    c.gidIndex = c.peerGidIndex = -1;
    for (i = 1; i < argc; i++) {
	const char *opt = argv[i];

	if (strcmp(opt, "-mem") == 0) {
	    c.mem = 1;
	    continue;
	}
	if (i + 1 >= argc) {
	    Usage();
	}
	if (strcmp(opt, "-n") == 0) {
	    c.n = atoi(argv[++i]);
	} else if (strcmp(opt, "-d") == 0) {
	    c.devName = argv[++i];
	} else if (strcmp(opt, "-x") == 0) {
	    c.gidIndex = atoi(argv[++i]);
	} else if (strcmp(opt, "-D") == 0) {
	    c.peerName = argv[++i];
	} else if (strcmp(opt, "-X") == 0) {
	    c.peerGidIndex = atoi(argv[++i]);
	} else if (strcmp(opt, "-o") == 0) {
	    c.ops = argv[++i];
	} else {
	    Usage();
	}
    }
    if (c.n <= 0 || c.devName == NULL || c.gidIndex < 0
	    || c.peerName == NULL || c.peerGidIndex < 0) {
	Usage();
    }

    c.dev = FindDevice(c.devName);
    if (c.dev == NULL || (c.ctx = ibv_open_device(c.dev)) == NULL) {
	fprintf(stderr, "ctl: cannot open device %s\n", c.devName);
	return 1;
    }
    if (QueryGid(c.devName, c.gidIndex, &c.gid) != 0
	    || QueryGid(c.peerName, c.peerGidIndex, &c.peerGid) != 0) {
	return 1;
    }

    if (c.mem) {
	Mem(&c);
    } else {
	if (Wanted(&c, "ctx_open")) {
	    MakeLoop(&c, "ctx_open", "ibv_open_device", MakeContext,
		    DropContext, NULL);
	}
	if (Wanted(&c, "pd")) {
	    MakeLoop(&c, "pd", "ibv_alloc_pd", MakePd, DropPd, NULL);
	}
	if (Wanted(&c, "cq")) {
	    MakeLoop(&c, "cq", "ibv_create_cq", MakeCq, DropCq, NULL);
	}
	if (Wanted(&c, "qp_create") || Wanted(&c, "qp_to_rts")
		|| Wanted(&c, "qp_destroy")) {
	    Qps(&c);
	}
	if (Wanted(&c, "mr_reg_4k") || Wanted(&c, "mr_dereg")
		|| Wanted(&c, "mr_reg_1m")) {
	    Mrs(&c);
	}
	if (Wanted(&c, "ah")) {
	    Ahs(&c);
	}
	if (Wanted(&c, "tree_close")) {
	    TreeClose(&c);
	}
    }
    ibv_close_device(c.ctx);
    return c.failed;
}
