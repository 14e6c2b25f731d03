/*
 * verbsLat.c --
 *
 *	Ping-pong latency driven from C: [$qp latency] makes ITERS round
 *	trips of SEND/RECV or RDMA WRITE, busy-polling (completions for
 *	SEND, the last byte of the buffer for WRITE), and returns the half
 *	round trip times in microseconds: typical (median), average,
 *	minimum, maximum and the 99th and 99.9th percentiles.  With -peer
 *	both QPs are in this process and one call drives both sides;
 *	without it this process is one side and the peer runs the same
 *	command (-server 1 on one of the two sides) in another process.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#define RECV_DEPTH 16		/* Receives kept posted (SEND). */
#define SIGNAL_MAX 16		/* Signal at least every this many sends. */
#define LAT_TAG (((uint64_t) 0x4c4154) << 40)	/* wr_id tag: "LAT". */

/*
 * One side of the ping-pong: its QP, the buffer it sends from and
 * receives into, where it writes at the peer, and its queue state.
 */

typedef struct LatSide {
    VerbsQp *qp;
    struct ibv_sge sge;		/* Its buffer. */
    volatile unsigned char *last;
				/* WRITE: the buffer's last byte, polled. */
    uint64_t remoteAddr;	/* WRITE: the peer's buffer. */
    uint32_t rkey;
    int depth, signal;		/* Send queue size, signal interval. */
    uint64_t posted, completed;	/* Sends. */
    uint64_t received;		/* Receives completed (SEND). */
    uint64_t recvPosted;
} LatSide;

typedef struct Lat {
    Tcl_Interp *interp;
    int write;			/* RDMA WRITE, else SEND. */
    int inlineData;
    LatSide side[2];		/* [1] used with -peer. */
    int nsides;
    int timeout;
    struct timespec lastProgress;
    int progressed;		/* Something arrived since lastProgress. */
    unsigned spins;
} Lat;

static double
Usec(
    const struct timespec *a,
    const struct timespec *b)
{
    return (b->tv_sec - a->tv_sec) * 1e6 + (b->tv_nsec - a->tv_nsec) / 1e3;
}

/*
 *----------------------------------------------------------------------
 *
 * Stamp, Ticks --
 *
 *	A time stamp for the samples: the CPU's time stamp counter where
 *	there is one (as perftest's get_cycles), converted to microseconds
 *	by the clock over the whole run, else the monotonic clock in
 *	nanoseconds.  A round trip must not pay for the clock itself:
 *	clock_gettime is a system call where the kernel's clock source has
 *	no vDSO reading (HPET, as in the TCG VM: 0.86 us a call there,
 *	against 0.01 us for the counter).  Ticks is the time from one
 *	stamp to a later one; a negative difference (the counters of two
 *	CPUs out of step) counts as 0.
 *
 * Results:
 *	Stamp: a tick count.  Ticks: a number of ticks.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static inline double
Ticks(
    uint64_t from,
    uint64_t to)
{
    return to > from ? (double) (to - from) : 0.0;
}

static inline uint64_t
Stamp(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
#endif
}

/*
 *----------------------------------------------------------------------
 *
 * GetBuffer --
 *
 *	An {MR OFFSET LENGTH} option, parsed: the SGE, and the address of
 *	its last byte (polled for WRITE, carrying the sequence number),
 *	which must be memory of this process.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills the side.
 *
 *----------------------------------------------------------------------
 */

static int
GetBuffer(
    Tcl_Interp *interp,
    const char *option,
    const VerbsSgeArg *a,
    LatSide *s)
{
    VerbsMr *m = a->mr;

    s->sge = a->sge;
    if (s->sge.length == 0 || m->buf == NULL) {
	return VerbsArgError(interp, option, a->valueObj, "bad %s \"%s\": "
		"latency needs at least one byte of memory of this process",
		option, Tcl_GetString(a->valueObj));
    }
    s->last = m->buf + (s->sge.addr - VerbsMrBase(m)) + s->sge.length - 1;
    s->rkey = m->mr->rkey;	/* Where the peer writes, with -peer. */
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Fail --
 *
 *	A failed or foreign completion into an error.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the interp's result.
 *
 *----------------------------------------------------------------------
 */

static int
Fail(
    Lat *l,
    VerbsQp *q,
    const struct ibv_wc *wc)
{
    if (q == NULL) {
	Tcl_SetObjResult(l->interp, Tcl_ObjPrintf("latency: polled a "
		"completion of QP %u, which is not in the test (it is lost); "
		"give the QPs CQs of their own", wc->qp_num));
	Tcl_SetObjErrorCode(l->interp, Tcl_ObjPrintf("VERBS FOREIGN %u",
		wc->qp_num));
	return TCL_ERROR;
    }
    return VerbsWcError(l->interp, &q->obj, wc, wc->wr_id & ~LAT_TAG);
}

/*
 *----------------------------------------------------------------------
 *
 * Progress --
 *
 *	Poll the CQs of every side once, account for what belongs to the
 *	test (signalled sends complete every send up to their wr_id), and
 *	check the timeout every so many polls.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Consumes CQ entries.
 *
 *----------------------------------------------------------------------
 */

static int
PollOne(
    Lat *l,
    struct ibv_cq *cq)
{
    struct ibv_wc wc[8];
    int n, i, j;

    n = ibv_poll_cq(cq, 8, wc);
    if (n < 0) {
	return VerbsSysError(l->interp, "ibv_poll_cq", NULL, "latency", EIO);
    }
    for (i = 0; i < n; i++) {
	LatSide *s = NULL;

	/*
	 * QP numbers are per device: the QP is the side's whose queues use
	 * this CQ.
	 */

	for (j = 0; j < l->nsides; j++) {
	    VerbsQp *q = l->side[j].qp;

	    if (wc[i].qp_num == q->qp->qp_num && (q->sendCq->cq == cq
		    || q->recvCq->cq == cq)) {
		s = &l->side[j];
	    }
	}
	if (s == NULL || wc[i].status != IBV_WC_SUCCESS) {
	    return Fail(l, s ? s->qp : NULL, &wc[i]);
	}
	if ((wc[i].wr_id & LAT_TAG) != LAT_TAG) {
	    continue;		/* Not the test's. */
	}
	if (wc[i].opcode & IBV_WC_RECV) {
	    s->received++;
	} else {
	    s->completed = (wc[i].wr_id & ~LAT_TAG) + 1;
	}
    }
    if (n > 0) {
	l->spins = 0;
    }
    return TCL_OK;
}

static int
Progress(
    Lat *l)
{
    int j;

    for (j = 0; j < l->nsides; j++) {
	LatSide *s = &l->side[j];

	if (PollOne(l, s->qp->sendCq->cq) != TCL_OK || (s->qp->recvCq
		!= s->qp->sendCq && PollOne(l, s->qp->recvCq->cq) != TCL_OK)) {
	    return TCL_ERROR;
	}
    }
    if (++l->spins % 4096 == 0 && l->timeout >= 0) {
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (l->progressed) {
	    l->progressed = 0;
	    l->lastProgress = now;
	} else if (Usec(&l->lastProgress, &now) > l->timeout * 1000.0) {
	    Tcl_SetObjResult(l->interp, Tcl_ObjPrintf("latency: no reply for "
		    "%d ms", l->timeout));
	    VerbsTimeoutCode(l->interp, (Tcl_WideInt)
		    l->side[0].received);
	    return TCL_ERROR;
	}
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PostRecvs, Send, WaitArrival --
 *
 *	The steps of a round trip: keep receives posted (SEND), send one
 *	message carrying the sequence byte, and wait until the peer's
 *	message with the expected byte (WRITE) or its receive completion
 *	(SEND) is here.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Posts work requests, polls.
 *
 *----------------------------------------------------------------------
 */

static int
PostRecvs(
    Lat *l,
    LatSide *s)
{
    struct ibv_recv_wr wr, *bad;
    int err;

    while (s->recvPosted - s->received < RECV_DEPTH) {
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = LAT_TAG | s->recvPosted;
	wr.sg_list = &s->sge;
	wr.num_sge = 1;
	err = ibv_post_recv(s->qp->qp, &wr, &bad);
	if (err) {
	    return VerbsSysError(l->interp, "ibv_post_recv", &s->qp->obj,
		    "latency", err);
	}
	s->recvPosted++;
    }
    return TCL_OK;
}

static int
Send(
    Lat *l,
    LatSide *s,
    unsigned char seq,
    int last)			/* The last send: signal it. */
{
    struct ibv_send_wr wr, *bad;
    int err;

    while (s->posted - s->completed >= (uint64_t) s->depth) {
	if (Progress(l) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    *s->last = seq;
    memset(&wr, 0, sizeof(wr));
    wr.wr_id = LAT_TAG | s->posted;
    wr.sg_list = &s->sge;
    wr.num_sge = 1;
    wr.send_flags = l->inlineData ? IBV_SEND_INLINE : 0;
    if ((s->posted + 1) % s->signal == 0 || last) {
	wr.send_flags |= IBV_SEND_SIGNALED;
    }
    if (l->write) {
	wr.opcode = IBV_WR_RDMA_WRITE;
	wr.wr.rdma.remote_addr = s->remoteAddr;
	wr.wr.rdma.rkey = s->rkey;
    } else {
	wr.opcode = IBV_WR_SEND;
    }
    err = ibv_post_send(s->qp->qp, &wr, &bad);
    if (err) {
	return VerbsSysError(l->interp, "ibv_post_send", &s->qp->obj,
		"latency", err);
    }
    s->posted++;
    return TCL_OK;
}

static int
WaitArrival(
    Lat *l,
    LatSide *s,
    unsigned char seq,
    uint64_t n)			/* SEND: the receives expected by now. */
{
    if (l->write) {
	while (*s->last != seq) {
	    if (Progress(l) != TCL_OK) {
		return TCL_ERROR;
	    }
	}
    } else {
	while (s->received < n) {
	    if (Progress(l) != TCL_OK) {
		return TCL_ERROR;
	    }
	}
	if (PostRecvs(l, s) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    l->progressed = 1;		/* Progress reads the clock now and then. */
    return TCL_OK;
}

/*
 * The sequence bytes: the initiator's even, the responder's odd, never 0
 * (the value each side clears its byte to first).
 */

#define PING(i) ((unsigned char) (((i) % 127) * 2 + 2))
#define PONG(i) ((unsigned char) (PING(i) + 1))

static int
CompareDouble(
    const void *a,
    const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;

    return x < y ? -1 : x > y;
}

/*
 * The options of [$qp latency].
 */

typedef struct {
    int inline_;
    uint64_t iters;		/* VERBS_NOT_GIVEN: not given. */
    uint64_t opcode;
    VerbsObj *peer;
    VerbsSgeArg peer_sge;
    uint64_t remote_addr;
    uint32_t rkey;
    int server;
    VerbsSgeArg sge;
    int timeout;
} LatArgs;

static const VerbsField latOptions[] = {
    VERBS_OPTION_NAMED("-inline", LatArgs, inline_, VF_BOOL, NULL, "bool"),
    VERBS_OPTION_MAX(LatArgs, iters, 100000000, "n"),
    VERBS_OPTION(LatArgs, opcode, VF_ENUM, verbsWrOpcode, "opcode"),
    VERBS_OPTION(LatArgs, peer, VF_OBJ, &verbsQpClass, "qp"),
    VERBS_OPTION_PARSE(LatArgs, peer_sge, VerbsParseSge, 0, "sge"),
    VERBS_OPTION(LatArgs, remote_addr, VF_UINT, NULL, "addr"),
    VERBS_OPTION(LatArgs, rkey, VF_UINT, NULL, "rkey"),
    VERBS_OPTION(LatArgs, server, VF_BOOL, NULL, "bool"),
    VERBS_OPTION_PARSE(LatArgs, sge, VerbsParseSge, 0, "sge"),
    VERBS_OPTION(LatArgs, timeout, VF_TIMEOUT, NULL, "ms"),
    VERBS_FIELD_END
};

/*
 *----------------------------------------------------------------------
 *
 * LatSides --
 *
 *	The sides of a latency run: each QP must be RC or UC (and take its
 *	own receives for SEND), its buffer one of this process; each learns
 *	its send depth and where it writes.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills l's sides.
 *
 *----------------------------------------------------------------------
 */

static int
LatSides(
    Tcl_Interp *interp,
    Lat *l,
    const LatArgs *a)
{
    int j;

    for (j = 0; j < l->nsides; j++) {
	LatSide *s = &l->side[j];
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;
	int err;

	if (s->qp->qpType != IBV_QPT_RC && s->qp->qpType != IBV_QPT_UC) {
	    Tcl_Obj *name = VerbsObjName(&s->qp->obj);

	    Tcl_IncrRefCount(name);
	    VerbsArgError(interp, j ? "-peer" : "qp", name, "latency runs "
		    "over rc or uc queue pairs, and %s is not one",
		    Tcl_GetString(name));
	    Tcl_DecrRefCount(name);
	    return TCL_ERROR;
	}
	if (VerbsQpCheckCqs(interp, s->qp, j ? "-peer" : "qp", "latency")
		!= TCL_OK) {
	    return TCL_ERROR;
	}
	if (!l->write && s->qp->srq) {
	    return VerbsArgError(interp, j ? "-peer" : "qp", NULL,
		    "latency posts its receives to the queue pair, which "
		    "takes them from an srq");
	}
	if (GetBuffer(interp, j ? "-peer_sge" : "-sge", j ? &a->peer_sge
		: &a->sge, s) != TCL_OK) {
	    return TCL_ERROR;
	}
	err = ibv_query_qp(s->qp->qp, &attr, IBV_QP_CAP, &init);
	if (err) {
	    return VerbsSysError(interp, "ibv_query_qp", &s->qp->obj, NULL,
		    err);
	}
	s->depth = init.cap.max_send_wr > 0 ? (int) init.cap.max_send_wr : 1;
	s->signal = s->depth / 2 < SIGNAL_MAX ? s->depth / 2 : SIGNAL_MAX;
	if (s->signal < 1) {
	    s->signal = 1;
	}
    }
    if (a->peer) {
	uint32_t rkey0 = l->side[0].rkey;	/* Of its own buffer. */

	l->side[0].remoteAddr = l->side[1].sge.addr;
	l->side[0].rkey = l->side[1].rkey;
	l->side[1].remoteAddr = l->side[0].sge.addr;
	l->side[1].rkey = rkey0;
    } else {
	l->side[0].remoteAddr = a->remote_addr;
	l->side[0].rkey = a->rkey;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * LatRun --
 *
 *	The round trips: clear the bytes polled, post the receives, then
 *	iters messages and their replies.  The initiator times from its
 *	send to the reply; a remote responder (server) from its reply to
 *	the next message.  The samples are in stamp ticks.
 *
 * Results:
 *	A standard Tcl result; *nPtr samples in samples.
 *
 * Side effects:
 *	Moves the data.
 *
 *----------------------------------------------------------------------
 */

static int
LatRun(
    Lat *l,
    uint64_t iters,
    int server,
    double *samples,
    uint64_t *nPtr)
{
    uint64_t i, t0 = 0, t1, n = 0;
    int j;

    for (j = 0; j < l->nsides; j++) {
	if (!server) {
	    /*
	     * A remote responder's byte is left as it is: the initiator's
	     * first message may be here already.
	     */

	    *l->side[j].last = 0;
	}
	if (!l->write && PostRecvs(l, &l->side[j]) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    for (i = 0; i < iters; i++) {
	int last = i + 1 == iters;

	if (server) {
	    if (WaitArrival(l, &l->side[0], PING(i), i + 1) != TCL_OK) {
		return TCL_ERROR;
	    }
	    if (i > 0) {
		t1 = Stamp();
		samples[n++] = Ticks(t0, t1) / 2;
		*nPtr = n;
	    }
	    t0 = Stamp();
	    if (Send(l, &l->side[0], PONG(i), last) != TCL_OK) {
		return TCL_ERROR;
	    }
	    continue;
	}
	t0 = Stamp();
	if (Send(l, &l->side[0], PING(i), last) != TCL_OK) {
	    return TCL_ERROR;
	}
	if (l->nsides > 1) {
	    if (WaitArrival(l, &l->side[1], PING(i), i + 1) != TCL_OK
		    || Send(l, &l->side[1], PONG(i), last) != TCL_OK) {
		return TCL_ERROR;
	    }
	}
	if (WaitArrival(l, &l->side[0], PONG(i), i + 1) != TCL_OK) {
	    return TCL_ERROR;
	}
	t1 = Stamp();
	samples[n++] = Ticks(t0, t1) / 2;
	*nPtr = n;
    }

    /*
     * Leave nothing of the test in the CQs: the last sends were
     * signalled, and (SEND) the receives still posted stay posted.
     */

    for (j = 0; j < l->nsides; j++) {
	while (l->side[j].completed < l->side[j].posted) {
	    if (Progress(l) != TCL_OK) {
		return TCL_ERROR;
	    }
	}
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * LatResult --
 *
 *	The dict of a run: the samples (stamp ticks) into microseconds,
 *	the run's ticks over its time on the clock since c0 (at stamp s0),
 *	sorted, and their statistics.
 *
 * Results:
 *	A new dict.
 *
 * Side effects:
 *	Converts and sorts the samples (room for one more than n).
 *
 *----------------------------------------------------------------------
 */

static Tcl_Obj *
LatResult(
    const Lat *l,
    uint64_t iters,
    double *samples,
    uint64_t n,
    const struct timespec *c0,
    uint64_t s0)
{
    struct timespec c1;
    double perUsec, sum = 0;	/* Stamp ticks a microsecond. */
    uint64_t i;
    Tcl_Obj *d;

    do {
	/* A short run is timed over 10 ms at least (a coarse clock). */
	clock_gettime(CLOCK_MONOTONIC, &c1);
    } while (Usec(c0, &c1) < 10000.0);
    perUsec = Ticks(s0, Stamp()) / Usec(c0, &c1);
    if (perUsec <= 0) {
	perUsec = 1.0;		/* A counter that did not move. */
    }
    if (n == 0) {
	samples[n++] = 0;
    }
    for (i = 0; i < n; i++) {
	samples[i] /= perUsec;
	sum += samples[i];
    }
    qsort(samples, n, sizeof(double), CompareDouble);
    d = Tcl_NewDictObj();
#define PUT(k, o) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), o)
#define PCT(p) samples[(uint64_t) ((p) * (n - 1) + 0.5)]
    PUT("iters", Tcl_NewWideIntObj((Tcl_WideInt) iters));
    PUT("size", Tcl_NewWideIntObj(l->side[0].sge.length));
    PUT("typical", Tcl_NewDoubleObj(samples[n / 2]));
    PUT("average", Tcl_NewDoubleObj(sum / n));
    PUT("minimum", Tcl_NewDoubleObj(samples[0]));
    PUT("maximum", Tcl_NewDoubleObj(samples[n - 1]));
    PUT("p99", Tcl_NewDoubleObj(PCT(0.99)));
    PUT("p99.9", Tcl_NewDoubleObj(PCT(0.999)));
#undef PCT
#undef PUT
    return d;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsQpLatency --
 *
 *	$qp latency -iters N -sge {MR OFF LEN} ?-opcode send|rdma_write?
 *		?-peer QP -peer_sge {MR OFF LEN}? ?-remote_addr A -rkey K?
 *		?-server BOOL? ?-inline BOOL? ?-timeout MS?
 *
 * Results:
 *	A dict: iters size typical average minimum maximum p99 p99.9, the
 *	times in microseconds (half round trips).  A failed completion is
 *	an error {VERBS WC ...}; no reply for -timeout ms (default 5000,
 *	-1 for none) is {VERBS TIMEOUT n}.
 *
 * Side effects:
 *	Moves the data; the buffers' last bytes carry sequence numbers.
 *
 *----------------------------------------------------------------------
 */

int
VerbsQpLatency(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    LatArgs a;
    Lat l;
    uint64_t iters, nsamples = 0, s0;
    double *samples;
    struct timespec c0;		/* The clock at the start. */
    int result;

    memset(&a, 0, sizeof(a));
    a.iters = VERBS_NOT_GIVEN;
    a.opcode = IBV_WR_SEND;
    a.timeout = 5000;
    if ((objc % 2) != 0) {
	Tcl_WrongNumArgs(interp, 2, objv, "-iters n -sge {mr offset length} "
		"?option value ...?");
	return TCL_ERROR;
    }
    if (VerbsParseOptions(interp, objc, objv, 2, latOptions, &a) != TCL_OK) {
	return TCL_ERROR;
    }
    if (a.iters == VERBS_NOT_GIVEN || a.sge.mr == NULL) {
	return VerbsArgError(interp,
		a.iters != VERBS_NOT_GIVEN ? "-sge" : "-iters", NULL,
		"latency needs -iters and -sge");
    }
    iters = a.iters;
    if (iters == 0) {
	Tcl_Obj *zero = Tcl_NewIntObj(0);

	Tcl_IncrRefCount(zero);
	VerbsArgError(interp, "-iters", zero,
		"latency needs at least one iteration");
	Tcl_DecrRefCount(zero);
	return TCL_ERROR;
    }
    if (a.opcode != IBV_WR_SEND && a.opcode != IBV_WR_RDMA_WRITE) {
	Tcl_Obj *name = VerbsEnumObj(verbsWrOpcode, a.opcode);

	VerbsArgError(interp, "-opcode", name, "latency measures send or "
		"rdma_write, not %s", Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    memset(&l, 0, sizeof(l));
    l.interp = interp;
    l.write = a.opcode == IBV_WR_RDMA_WRITE;
    l.inlineData = a.inline_;
    l.timeout = a.timeout;
    l.nsides = a.peer ? 2 : 1;
    l.side[0].qp = (VerbsQp *) objPtr;
    l.side[1].qp = (VerbsQp *) a.peer;
    if (a.peer && a.server) {
	return VerbsArgError(interp, "-server", NULL,
		"-server is for a remote peer: with -peer this call drives "
		"both sides");
    }
    if (a.peer && a.peer_sge.mr == NULL) {
	return VerbsArgError(interp, "-peer_sge", NULL,
		"-peer needs -peer_sge: the peer's buffer");
    }
    if (!a.peer && l.write && a.rkey == 0 && a.remote_addr == 0) {
	return VerbsArgError(interp, "-remote_addr", NULL, "rdma_write to a "
		"remote peer needs -remote_addr and -rkey of its buffer");
    }
    if (a.inline_ && a.sge.sge.length > 0 && !VerbsMrHost(a.sge.mr)) {
	return VerbsNotHostError(interp, "-sge", 0, &a.sge.sge);
    }
    if (a.inline_ && a.peer && a.peer_sge.sge.length > 0
	    && !VerbsMrHost(a.peer_sge.mr)) {
	return VerbsNotHostError(interp, "-peer_sge", 0, &a.peer_sge.sge);
    }
    if (LatSides(interp, &l, &a) != TCL_OK) {
	return TCL_ERROR;
    }
    samples = (double *) ckalloc(iters * sizeof(double));
    clock_gettime(CLOCK_MONOTONIC, &l.lastProgress);
    c0 = l.lastProgress;
    s0 = Stamp();
    result = LatRun(&l, iters, a.server, samples, &nsamples);
    if (result == TCL_OK) {
	Tcl_SetObjResult(interp, LatResult(&l, iters, samples, nsamples,
		&c0, s0));
    }
    ckfree(samples);
    return result;
}
