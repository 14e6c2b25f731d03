/*
 * verbsBurst.c --
 *
 *	Burst traffic driven from C: [$qp send_burst] posts COUNT messages
 *	in chained batches with selective signalling, polls in batches, and,
 *	with -peer, keeps the peer QP's receive queue full and counts what
 *	it receives.  One Tcl command moves a whole stream at C speed and
 *	returns counts and timings as a dict.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#define NO_QKEY (~(uint64_t) 0)	/* -remote_qkey, -remote_qpn not given. */
#define MAX_BATCH 256		/* Work requests chained per post. */
#define POLL_BATCH 32

/*
 * A work request's wr_id is the burst's tag above TAG_SHIFT and its
 * sequence number below, so that completions left over from an earlier
 * burst that failed are recognised and skipped.
 */

#define TAG_SHIFT 40
#define SEQ(wrId) ((wrId) & ((((uint64_t) 1) << TAG_SHIFT) - 1))

static unsigned burstTags;

/*
 * The state of one burst.
 */

typedef struct Burst {
    Tcl_Interp *interp;
    VerbsQp *qp;
    VerbsQp *peer;		/* Receiving QP, or NULL. */
    uint64_t count;		/* Messages to send. */
    int depth;			/* Send WRs outstanding at most. */
    int signal;			/* Signal every this many WRs. */
    int batch;			/* WRs per ibv_post_send. */
    int recvDepth;		/* Receives kept posted on the peer. */
    uint64_t posted, completed;	/* Send WRs. */
    uint64_t recvPosted, received;
    uint64_t recvBytes;
    uint64_t posts, polls;
    uint64_t tag;		/* This burst's wr_id tag, shifted. */
    struct ibv_send_wr wr[MAX_BATCH];
    struct ibv_sge sge;
    struct ibv_recv_wr rwr[MAX_BATCH];
    struct ibv_sge rsge;
} Burst;

/*
 *----------------------------------------------------------------------
 *
 * GetSge --
 *
 *	An {MR OFFSET LENGTH} option value into an SGE, checked against the
 *	MR's bounds.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills *sge.
 *
 *----------------------------------------------------------------------
 */

static int
GetSge(
    Tcl_Interp *interp,
    const char *option,
    Tcl_Obj *valueObj,
    struct ibv_sge *sge)
{
    Tcl_Obj **parts;
    Tcl_Size n;
    VerbsMr *m;
    size_t off, len = 0;

    if (Tcl_ListObjGetElements(NULL, valueObj, &n, &parts) != TCL_OK
	    || n != 3) {
	return VerbsArgError(interp, option, valueObj,
		"bad %s \"%s\": must be {mr offset length}", option,
		Tcl_GetString(valueObj));
    }
    m = (VerbsMr *) VerbsObjGet(interp, parts[0], &verbsMrClass);
    if (m == NULL || VerbsMrRange(interp, m, parts[1], parts[2], &off, &len)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    sge->addr = VerbsMrBase(m) + off;
    sge->length = (uint32_t) len;
    sge->lkey = m->mr->lkey;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PostSends, PostRecvs --
 *
 *	Post as many send WRs as depth, batch and count allow (every
 *	signal-th and the last one signalled; wr_id is the sequence
 *	number), and top the peer's receive queue up.  A UD send to the
 *	peer is only posted once a receive for it has been posted: UD has
 *	no flow control, and a message that finds the peer's receive queue
 *	empty is dropped (RC would retry after an RNR NAK), so the sender
 *	is paced to the receive queue and any loss that remains is real.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	ibv_post_send / ibv_post_recv.
 *
 *----------------------------------------------------------------------
 */

static int
PostSends(
    Burst *b)
{
    struct ibv_send_wr *bad;
    uint64_t room = (uint64_t) b->depth - (b->posted - b->completed);
    uint64_t left = b->count - b->posted;
    int n, i, err;

    if (b->peer && b->qp->qp->qp_type == IBV_QPT_UD) {
	uint64_t credit = b->recvPosted - b->posted;

	if (left > credit) {
	    left = credit;
	}
    }
    n = (int) (room < left ? room : left);
    if (n > b->batch) {
	n = b->batch;
    }
    if (n <= 0) {
	return TCL_OK;
    }
    for (i = 0; i < n; i++) {
	uint64_t seq = b->posted + i;

	b->wr[i].wr_id = b->tag | seq;
	b->wr[i].send_flags &= ~IBV_SEND_SIGNALED;
	if ((seq + 1) % b->signal == 0 || seq + 1 == b->count) {
	    b->wr[i].send_flags |= IBV_SEND_SIGNALED;
	}
	b->wr[i].next = (i + 1 < n) ? &b->wr[i + 1] : NULL;
    }
    err = ibv_post_send(b->qp->qp, b->wr, &bad);
    if (err) {
	return VerbsSysError(b->interp, "ibv_post_send", &b->qp->obj,
		"send_burst", err);
    }
    b->posted += n;
    b->posts++;
    return TCL_OK;
}

static int
PostRecvs(
    Burst *b)
{
    struct ibv_recv_wr *bad;
    uint64_t room = (uint64_t) b->recvDepth - (b->recvPosted - b->received);
    uint64_t left = b->count - b->recvPosted;
    int n, i, err;

    n = (int) (room < left ? room : left);
    if (n > MAX_BATCH) {
	n = MAX_BATCH;
    }
    if (n <= 0) {
	return TCL_OK;
    }
    for (i = 0; i < n; i++) {
	b->rwr[i].wr_id = b->tag | (b->recvPosted + i);
	b->rwr[i].next = (i + 1 < n) ? &b->rwr[i + 1] : NULL;
    }
    err = ibv_post_recv(b->peer->qp, b->rwr, &bad);
    if (err) {
	return VerbsSysError(b->interp, "ibv_post_recv", &b->peer->obj,
		"send_burst", err);
    }
    b->recvPosted += n;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PollCq, Unaccounted --
 *
 *	Poll one CQ in batches and account for what belongs to this burst:
 *	signalled sends of the QP (each completes every WR up to its
 *	wr_id) and receives of the peer.  Completions of the burst's QPs
 *	left by an earlier burst are skipped; another QP's is an error.
 *
 *	Unaccounted gives the error the completions of the batch from the
 *	failed or foreign one on, which the burst did not count, as its
 *	-completions (VerbsErrorCompletions): another QP's completion is
 *	never dropped.
 *
 * Results:
 *	The number of completions seen, or -1 with an error in interp (a
 *	failed completion, or one of neither QP).
 *
 * Side effects:
 *	Consumes CQ entries.
 *
 *----------------------------------------------------------------------
 */

static int
Unaccounted(
    Burst *b,
    const struct ibv_wc *wc,
    int n)
{
    Tcl_Obj *list = Tcl_NewObj();
    int i;

    for (i = 0; i < n; i++) {
	Tcl_ListObjAppendElement(NULL, list,
		VerbsStructToDict(&verbsWcStruct, &wc[i]));
    }
    VerbsErrorCompletions(b->interp, list);
    return -1;
}

/*
 *----------------------------------------------------------------------
 *
 * OnCq --
 *
 *	Whether CQ is one of the completion queues of the QP Q.
 *
 * Results:
 *	1 or 0.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static inline int
OnCq(
    const VerbsQp *q,
    const struct ibv_cq *cq)
{
    return q->qp->send_cq == cq || q->qp->recv_cq == cq;
}

static int
PollCq(
    Burst *b,
    struct ibv_cq *cq)
{
    struct ibv_wc wc[POLL_BATCH];
    int n, i;

    n = ibv_poll_cq(cq, POLL_BATCH, wc);
    b->polls++;
    if (n < 0) {
	VerbsSysError(b->interp, "ibv_poll_cq", NULL, "send_burst", EIO);
	return -1;
    }
    for (i = 0; i < n; i++) {
	VerbsQp *q = NULL;

	/*
	 * By QP number and CQ: the numbers of QPs on two devices can be
	 * equal (rxe0 and rxe1 both start at 17).
	 */

	if (OnCq(b->qp, cq) && wc[i].qp_num == b->qp->qp->qp_num) {
	    q = b->qp;
	} else if (b->peer && OnCq(b->peer, cq)
		&& wc[i].qp_num == b->peer->qp->qp_num) {
	    q = b->peer;
	}
	if (q == NULL) {
	    Tcl_SetObjResult(b->interp, Tcl_ObjPrintf(
		    "send_burst: polled a completion of QP %u, which is not "
		    "in the burst (see -completions); give the burst QPs CQs "
		    "of their own", wc[i].qp_num));
	    Tcl_SetErrorCode(b->interp, "VERBS", "BURST", "FOREIGN", NULL);
	    return Unaccounted(b, wc + i, n - i);
	}
	if ((wc[i].wr_id & ~SEQ(wc[i].wr_id)) != b->tag) {
	    continue;		/* An earlier burst's. */
	}
	if (wc[i].status != IBV_WC_SUCCESS) {
	    /* Failed or flushed (the opcode is undefined then). */
	    VerbsWcError(b->interp, &q->obj, &wc[i], SEQ(wc[i].wr_id));
	    return Unaccounted(b, wc + i, n - i);
	}
	if (wc[i].opcode & IBV_WC_RECV) {
	    b->received++;
	    b->recvBytes += wc[i].byte_len;
	} else {
	    b->completed = SEQ(wc[i].wr_id) + 1;
	}
    }
    return n;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsQpSendBurst --
 *
 *	$qp send_burst -count N -sge {MR OFF LEN} ?-opcode OP?
 *		?-remote_addr A -rkey K? ?-imm_data I? ?-ah AH -remote_qpn N
 *		?-remote_qkey Q?? ?-inline BOOL? ?-depth D? ?-signal S?
 *		?-batch B? ?-peer QP -peer_sge {MR OFF LEN}? ?-timeout MS?
 *
 * Results:
 *	A dict: count size bytes seconds msg_rate mib_per_sec posts polls,
 *	plus received and recv_bytes with -peer.  A failed completion is
 *	an error {VERBS WC status wr_id vendor_err}; no progress for
 *	-timeout ms (default 5000, -1 for none) is {VERBS TIMEOUT n}.
 *
 * Side effects:
 *	Moves the data.
 *
 *----------------------------------------------------------------------
 */

int
VerbsQpSendBurst(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    /*
     * -depth, -signal and -batch are limited by the QP, so they are read
     * after the parse.
     */

    typedef struct {
	VerbsObj *ah;
	Tcl_Obj *batch, *count, *depth;
	uint32_t imm_data;
	int inline_;
	uint64_t opcode;
	VerbsObj *peer;
	Tcl_Obj *peer_sge;
	uint64_t remote_addr;
	uint64_t remote_qkey, remote_qpn;
	uint32_t rkey;
	Tcl_Obj *sge, *signal;
	int timeout;
    } BurstArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(BurstArgs, ah, VF_OBJ, &verbsAhClass, "ah"),
	VERBS_OPTION(BurstArgs, batch, VF_TCLOBJ, NULL, "n"),
	VERBS_OPTION(BurstArgs, count, VF_TCLOBJ, NULL, "n"),
	VERBS_OPTION(BurstArgs, depth, VF_TCLOBJ, NULL, "n"),
	VERBS_OPTION(BurstArgs, imm_data, VF_UINT, NULL, "n"),
	{"-inline", VF_BOOL, offsetof(BurstArgs, inline_), sizeof(int), NULL,
		0, 0, 0, 0, "bool", NULL},
	VERBS_OPTION(BurstArgs, opcode, VF_ENUM, verbsWrOpcode, "opcode"),
	VERBS_OPTION(BurstArgs, peer, VF_OBJ, &verbsQpClass, "qp"),
	VERBS_OPTION(BurstArgs, peer_sge, VF_TCLOBJ, NULL, "sge"),
	VERBS_OPTION(BurstArgs, remote_addr, VF_UINT, NULL, "addr"),
	VERBS_OPTION_MAX(BurstArgs, remote_qkey, UINT32_MAX, "qkey"),
	VERBS_OPTION_MAX(BurstArgs, remote_qpn, 0xffffff, "qpn"),
	VERBS_OPTION(BurstArgs, rkey, VF_UINT, NULL, "rkey"),
	VERBS_OPTION(BurstArgs, sge, VF_TCLOBJ, NULL, "sge"),
	VERBS_OPTION(BurstArgs, signal, VF_TCLOBJ, NULL, "n"),
	VERBS_OPTION(BurstArgs, timeout, VF_TIMEOUT, NULL, "ms"),
	VERBS_FIELD_END
    };
    BurstArgs a;
    Burst *b;
    VerbsQp *q = (VerbsQp *) objPtr;
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;
    VerbsAh *ah;
    uint64_t u, opcode, remoteAddr, rkey, imm;
    uint64_t remoteQpn, remoteQkey;
    int timeout;
    int inlineData, i, result = TCL_ERROR, err;
    struct timespec t0, t1, lastProgress, now;
    uint64_t lastDone = 0;
    double secs;
    Tcl_Obj *d;

    memset(&a, 0, sizeof(a));
    a.opcode = IBV_WR_SEND;
    a.remote_qkey = NO_QKEY;
    a.remote_qpn = NO_QKEY;
    a.timeout = 5000;
    if ((objc % 2) != 0) {
	Tcl_WrongNumArgs(interp, 2, objv, "-count n -sge {mr offset length} "
		"?option value ...?");
	return TCL_ERROR;
    }
    if (VerbsParseOptions(interp, objc, objv, 2, options, &a) != TCL_OK) {
	return TCL_ERROR;
    }
    if (a.count == NULL || a.sge == NULL) {
	return VerbsArgError(interp, a.count ? "-sge" : "-count", NULL,
		"send_burst needs -count and -sge");
    }
    ah = (VerbsAh *) a.ah;
    opcode = a.opcode;
    remoteAddr = a.remote_addr;
    rkey = a.rkey;
    imm = a.imm_data;
    remoteQpn = a.remote_qpn == NO_QKEY ? 0 : a.remote_qpn;
    remoteQkey = a.remote_qkey == NO_QKEY ? q->qkey
	    : a.remote_qkey;
    timeout = a.timeout;
    inlineData = a.inline_;
    if (VerbsQpCheckQueue(interp, q, 1) != TCL_OK) {
	return TCL_ERROR;
    }
    if (q->qpType == IBV_QPT_XRC_SEND) {
	Tcl_SetObjResult(interp, Tcl_NewStringObj("send_burst names no "
		"remote_srqn: an xrc_send qp sends with post_send or wr_post",
		-1));
	Tcl_SetErrorCode(interp, "VERBS", "ARG", "-type", "xrc_send", NULL);
	return TCL_ERROR;
    }
    err = ibv_query_qp(q->qp, &attr, IBV_QP_CAP, &init);
    if (err) {
	return VerbsSysError(interp, "ibv_query_qp", objPtr, NULL, err);
    }

    b = (Burst *) ckalloc(sizeof(Burst));
    memset(b, 0, sizeof(Burst));
    b->interp = interp;
    b->qp = q;
    b->tag = ((uint64_t) (__atomic_add_fetch(&burstTags, 1, __ATOMIC_RELAXED)
	    & 0xffffff)) << TAG_SHIFT;
    b->depth = (int) init.cap.max_send_wr;
    if (VerbsGetUInt(interp, "-count", a.count, SEQ(~(uint64_t) 0),
	    &b->count)
	    != TCL_OK || GetSge(interp, "-sge", a.sge, &b->sge) != TCL_OK) {
	goto done;
    }
    if (a.depth) {
	if (VerbsGetUInt(interp, "-depth", a.depth, init.cap.max_send_wr,
		&u) != TCL_OK) {
	    goto done;
	}
	b->depth = (int) u;
    }
    if (b->depth < 1) {
	b->depth = 1;
    }
    b->signal = b->depth < 16 ? b->depth : 16;
    if (a.signal) {
	if (VerbsGetUInt(interp, "-signal", a.signal, b->depth, &u)
		!= TCL_OK) {
	    goto done;
	}
	b->signal = u ? (int) u : 1;
    }
    b->batch = b->signal;
    if (a.batch) {
	if (VerbsGetUInt(interp, "-batch", a.batch, MAX_BATCH, &u)
		!= TCL_OK) {
	    goto done;
	}
	b->batch = u ? (int) u : 1;
    }
    if (b->batch > MAX_BATCH) {
	b->batch = MAX_BATCH;
    }
    if (opcode != IBV_WR_SEND && opcode != IBV_WR_SEND_WITH_IMM
	    && opcode != IBV_WR_RDMA_WRITE && opcode != IBV_WR_RDMA_WRITE_WITH_IMM
	    && opcode != IBV_WR_RDMA_READ) {
	Tcl_Obj *name = VerbsEnumObj(verbsWrOpcode, opcode);

	VerbsArgError(interp, "-opcode", name, "send_burst sends send, "
		"send_with_imm, rdma_write, rdma_write_with_imm or rdma_read, "
		"not %s", Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	goto done;
    }
    if (VerbsCheckSendWr(interp, q, (enum ibv_wr_opcode) opcode, ah,
	    a.remote_qpn != NO_QKEY || a.remote_qkey != NO_QKEY) != TCL_OK) {
	goto done;
    }
    if (a.peer) {
	Tcl_Obj *peerName = VerbsObjName(a.peer);

	Tcl_IncrRefCount(peerName);
	b->peer = (VerbsQp *) a.peer;
	if (VerbsQpCheckQueue(interp, b->peer, 0) != TCL_OK) {
	    Tcl_DecrRefCount(peerName);
	    goto done;
	}
	if (opcode != IBV_WR_SEND && opcode != IBV_WR_SEND_WITH_IMM
		&& opcode != IBV_WR_RDMA_WRITE_WITH_IMM) {
	    VerbsArgError(interp, "-peer", peerName, "-peer is for opcodes "
		    "that consume receives: send, send_with_imm, "
		    "rdma_write_with_imm");
	    Tcl_DecrRefCount(peerName);
	    goto done;
	}
	if (b->peer->srq) {
	    VerbsArgError(interp, "-peer", peerName, "-peer %s takes its "
		    "receives from an srq: post to the srq instead",
		    Tcl_GetString(peerName));
	    Tcl_DecrRefCount(peerName);
	    goto done;
	}
	Tcl_DecrRefCount(peerName);
	if (a.peer_sge == NULL) {
	    VerbsArgError(interp, "-peer_sge", NULL,
		    "-peer needs -peer_sge: where the peer receives");
	    goto done;
	}
	if (GetSge(interp, "-peer_sge", a.peer_sge, &b->rsge) != TCL_OK) {
	    goto done;
	}
	err = ibv_query_qp(b->peer->qp, &attr, IBV_QP_CAP, &init);
	if (err) {
	    VerbsSysError(interp, "ibv_query_qp", &b->peer->obj, NULL, err);
	    goto done;
	}
	b->recvDepth = (int) init.cap.max_recv_wr;
	for (i = 0; i < MAX_BATCH; i++) {
	    b->rwr[i].sg_list = &b->rsge;
	    b->rwr[i].num_sge = 1;
	}
    }

    for (i = 0; i < MAX_BATCH; i++) {
	struct ibv_send_wr *wr = &b->wr[i];

	wr->sg_list = &b->sge;
	wr->num_sge = b->sge.length ? 1 : 0;
	wr->opcode = (enum ibv_wr_opcode) opcode;
	wr->send_flags = inlineData ? IBV_SEND_INLINE : 0;
	wr->imm_data = htonl((uint32_t) imm);
	if (q->qpType == IBV_QPT_UD) {
	    wr->wr.ud.ah = ah->ah;
	    wr->wr.ud.remote_qpn = (uint32_t) remoteQpn;
	    wr->wr.ud.remote_qkey = (uint32_t) remoteQkey;
	} else {
	    wr->wr.rdma.remote_addr = remoteAddr;
	    wr->wr.rdma.rkey = (uint32_t) rkey;
	}
    }

    clock_gettime(CLOCK_MONOTONIC, &t0);
    lastProgress = t0;
    if (b->peer && PostRecvs(b) != TCL_OK) {
	goto done;
    }
    while (b->completed < b->count
	    || (b->peer && b->received < b->count)) {
	if (PostSends(b) != TCL_OK) {
	    goto done;
	}
	if (PollCq(b, q->sendCq->cq) < 0) {
	    goto done;
	}
	if (b->peer) {
	    if (b->peer->recvCq != q->sendCq && PollCq(b,
		    b->peer->recvCq->cq) < 0) {
		goto done;
	    }
	    if (PostRecvs(b) != TCL_OK) {
		goto done;
	    }
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (b->completed + b->received != lastDone) {
	    lastDone = b->completed + b->received;
	    lastProgress = now;
	} else if ((now.tv_sec - lastProgress.tv_sec) * 1000.0
		+ (now.tv_nsec - lastProgress.tv_nsec) / 1e6 > timeout
		&& timeout >= 0) {
	    Tcl_SetObjResult(interp, Tcl_ObjPrintf(
		    "send_burst: no progress for %" TCL_LL_MODIFIER "d ms "
		    "(%" TCL_LL_MODIFIER "d of %" TCL_LL_MODIFIER "d sent, %"
		    TCL_LL_MODIFIER "d received)", (Tcl_WideInt) timeout,
		    (Tcl_WideInt) b->completed, (Tcl_WideInt) b->count,
		    (Tcl_WideInt) b->received));
	    VerbsTimeoutCode(interp, (Tcl_WideInt) b->completed);
	    goto done;
	}
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);

    secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    d = Tcl_NewDictObj();
#define PUT(k, o) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), o)
    PUT("count", Tcl_NewWideIntObj((Tcl_WideInt) b->count));
    PUT("size", Tcl_NewWideIntObj(b->sge.length));
    PUT("bytes", Tcl_NewWideIntObj((Tcl_WideInt) (b->count
	    * b->sge.length)));
    PUT("seconds", Tcl_NewDoubleObj(secs));
    PUT("msg_rate", Tcl_NewDoubleObj(secs > 0 ? b->count / secs : 0));
    PUT("mib_per_sec", Tcl_NewDoubleObj(secs > 0 ? b->count
	    * (double) b->sge.length / secs / 1048576.0 : 0));
    PUT("posts", Tcl_NewWideIntObj((Tcl_WideInt) b->posts));
    PUT("polls", Tcl_NewWideIntObj((Tcl_WideInt) b->polls));
    if (b->peer) {
	PUT("received", Tcl_NewWideIntObj((Tcl_WideInt) b->received));
	PUT("recv_bytes", Tcl_NewWideIntObj((Tcl_WideInt) b->recvBytes));
    }
#undef PUT
    Tcl_SetObjResult(interp, d);
    result = TCL_OK;

  done:
    ckfree(b);
    return result;
}
