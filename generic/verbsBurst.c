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
#define IDLE_ROUNDS 256		/* Rounds without progress between clock
				 * reads. */

/*
 * A work request's wr_id is the burst's tag above TAG_SHIFT and its
 * sequence number below, so that completions left over from an earlier
 * burst that failed are recognised and skipped.
 */

#define TAG_SHIFT 40
#define SEQ(wrId) ((wrId) & ((((uint64_t) 1) << TAG_SHIFT) - 1))

static unsigned burstTags;	/* Process-wide, moved atomically. */

/*
 * One sending queue pair of a burst, with its receiving peer (or NULL),
 * and the state of both.
 */

typedef struct BurstQp {
    VerbsQp *qp;
    VerbsQp *peer;
    uint64_t posted, completed;	/* Send WRs. */
    uint64_t recvPosted, received;
    int recvDepth;		/* Receives kept posted on the peer. */
} BurstQp;

/*
 * The state of one burst: its queue pairs, the completion queues they
 * use (each once), and one set of work requests that every queue pair
 * posts from, since only their wr_ids differ.
 */

typedef struct Burst {
    Tcl_Interp *interp;
    int nqp;
    BurstQp *q;			/* nqp of them. */
    int ncq;
    struct ibv_cq **cqs;	/* Up to 2 * nqp distinct CQs. */
    int hint;			/* Index of the last completion's QP. */
    uint64_t count;		/* Messages to send, per QP. */
    int depth;			/* Send WRs outstanding at most, per QP. */
    int signal;			/* Signal every this many WRs. */
    int batch;			/* WRs per ibv_post_send. */
    uint64_t done;		/* Completed sends and receives, all QPs. */
    uint64_t completed, received, recvBytes;	/* All QPs. */
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
 * PostSends, PostRecvs --
 *
 *	Post as many send WRs on one QP of the burst as depth, batch and
 *	count allow (every signal-th and the last one signalled; wr_id is
 *	the sequence number), and top its peer's receive queue up.  A UD
 *	send to the peer is only posted once a receive for it has been
 *	posted: UD has no flow control, and a message that finds the peer's
 *	receive queue empty is dropped (RC would retry after an RNR NAK), so
 *	the sender is paced to the receive queue and any loss that remains
 *	is real.
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
    Burst *b,
    BurstQp *bq)
{
    struct ibv_send_wr *bad;
    uint64_t room = (uint64_t) b->depth - (bq->posted - bq->completed);
    uint64_t left = b->count - bq->posted;
    int n, i, err;

    if (bq->peer && bq->qp->qp->qp_type == IBV_QPT_UD) {
	uint64_t credit = bq->recvPosted - bq->posted;

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
	uint64_t seq = bq->posted + i;

	b->wr[i].wr_id = b->tag | seq;
	b->wr[i].send_flags &= ~IBV_SEND_SIGNALED;
	if ((seq + 1) % b->signal == 0 || seq + 1 == b->count) {
	    b->wr[i].send_flags |= IBV_SEND_SIGNALED;
	}
	b->wr[i].next = (i + 1 < n) ? &b->wr[i + 1] : NULL;
    }
    err = ibv_post_send(bq->qp->qp, b->wr, &bad);
    if (err) {
	return VerbsSysError(b->interp, "ibv_post_send", &bq->qp->obj,
		"send_burst", err);
    }
    bq->posted += n;
    b->posts++;
    return TCL_OK;
}

static int
PostRecvs(
    Burst *b,
    BurstQp *bq)
{
    struct ibv_recv_wr *bad;
    uint64_t room = (uint64_t) bq->recvDepth
	    - (bq->recvPosted - bq->received);
    uint64_t left = b->count - bq->recvPosted;
    int n, i, err;

    n = (int) (room < left ? room : left);
    if (n > MAX_BATCH) {
	n = MAX_BATCH;
    }
    if (n <= 0) {
	return TCL_OK;
    }
    for (i = 0; i < n; i++) {
	b->rwr[i].wr_id = b->tag | (bq->recvPosted + i);
	b->rwr[i].next = (i + 1 < n) ? &b->rwr[i + 1] : NULL;
    }
    err = ibv_post_recv(bq->peer->qp, b->rwr, &bad);
    if (err) {
	return VerbsSysError(b->interp, "ibv_post_recv", &bq->peer->obj,
		"send_burst", err);
    }
    bq->recvPosted += n;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PollCq, Unaccounted --
 *
 *	Poll one CQ in batches and account for what belongs to this burst:
 *	signalled sends of its QPs (each completes every WR up to its
 *	wr_id) and receives of their peers.  Completions of the burst's QPs
 *	left by an earlier burst are skipped; another QP's is an error.
 *
 *	Unaccounted gives the error the completions of the batch from the
 *	failed or foreign one on, which the burst did not count, as its
 *	-completions (VerbsErrorCompletions): another QP's completion is
 *	never dropped.
 *
 * Results:
 *	The number of completions seen, or -1 with an error in interp (a
 *	failed completion, or one of no QP of the burst).
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
 * IsQp --
 *
 *	Whether the completion WC, polled from CQ, is one of the QP Q: by
 *	QP number and CQ, since the numbers of QPs on two devices can be
 *	equal (rxe0 and rxe1 both start at 17).
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
IsQp(
    const VerbsQp *q,
    const struct ibv_cq *cq,
    const struct ibv_wc *wc)
{
    return q != NULL && wc->qp_num == q->qp->qp_num
	    && (q->qp->send_cq == cq || q->qp->recv_cq == cq);
}

/*
 *----------------------------------------------------------------------
 *
 * FindQp --
 *
 *	The entry of the burst that a completion belongs to: a receive to
 *	a peer, or anything else (a send, or a failed completion, whose
 *	opcode is undefined) to a sender first, and failing that to the
 *	other role (a completion a burst QP got outside the burst, which
 *	PollCq skips by its wr_id).  The search starts at the last hit, so
 *	a burst of one QP, or QPs polled in turn, finds it at once.
 *
 * Results:
 *	The entry, or NULL; *peerPtr is 1 when the completion is the
 *	peer's.
 *
 * Side effects:
 *	Moves b->hint.
 *
 *----------------------------------------------------------------------
 */

static BurstQp *
FindQp(
    Burst *b,
    const struct ibv_cq *cq,
    const struct ibv_wc *wc,
    int *peerPtr)
{
    int recv = wc->status == IBV_WC_SUCCESS && (wc->opcode & IBV_WC_RECV);
    int pass, k;

    for (pass = 0; pass < 2; pass++) {
	int asPeer = pass ? !recv : recv;

	for (k = 0; k < b->nqp; k++) {
	    int i = (b->hint + k) % b->nqp;
	    BurstQp *bq = &b->q[i];

	    if (IsQp(asPeer ? bq->peer : bq->qp, cq, wc)) {
		b->hint = i;
		*peerPtr = asPeer;
		return bq;
	    }
	}
    }
    return NULL;
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
	int isPeer;
	BurstQp *bq = FindQp(b, cq, &wc[i], &isPeer);

	if (bq == NULL) {
	    Tcl_SetObjResult(b->interp, Tcl_ObjPrintf(
		    "send_burst: polled a completion of QP %u, which is not "
		    "in the burst (see -completions); give the burst QPs CQs "
		    "of their own", wc[i].qp_num));
	    Tcl_SetObjErrorCode(b->interp, Tcl_ObjPrintf("VERBS FOREIGN %u",
		    wc[i].qp_num));
	    return Unaccounted(b, wc + i, n - i);
	}
	if ((wc[i].wr_id & ~SEQ(wc[i].wr_id)) != b->tag) {
	    continue;		/* An earlier burst's. */
	}
	if (wc[i].status != IBV_WC_SUCCESS) {
	    VerbsWcError(b->interp, isPeer ? &bq->peer->obj : &bq->qp->obj,
		    &wc[i], SEQ(wc[i].wr_id));
	    return Unaccounted(b, wc + i, n - i);
	}
	if (isPeer) {
	    bq->received++;
	    b->received++;
	    b->recvBytes += wc[i].byte_len;
	    b->done++;
	} else {
	    uint64_t upTo = SEQ(wc[i].wr_id) + 1;

	    if (upTo > bq->completed) {
		b->completed += upTo - bq->completed;
		b->done += upTo - bq->completed;
		bq->completed = upTo;
	    }
	}
    }
    return n;
}

/*
 *----------------------------------------------------------------------
 *
 * AddCq --
 *
 *	Add a CQ to the burst's list of CQs to poll, unless it is there.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	May grow b->cqs (which has room for two per QP).
 *
 *----------------------------------------------------------------------
 */

static void
AddCq(
    Burst *b,
    struct ibv_cq *cq)
{
    int i;

    for (i = 0; i < b->ncq; i++) {
	if (b->cqs[i] == cq) {
	    return;
	}
    }
    b->cqs[b->ncq++] = cq;
}

/*
 *----------------------------------------------------------------------
 *
 * GetQps --
 *
 *	A list of QP objects into the entries of a burst (senders, or with
 *	PEER their peers), each named once.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills the qp or peer fields of b->q[0..b->nqp).
 *
 *----------------------------------------------------------------------
 */

static int
GetQps(
    Tcl_Interp *interp,
    Burst *b,
    const char *option,		/* NULL for the senders. */
    Tcl_Obj *listObj)
{
    Tcl_Obj **names;
    Tcl_Size n;
    int i, j;

    if (Tcl_ListObjGetElements(interp, listObj, &n, &names) != TCL_OK) {
	Tcl_SetErrorCode(interp, "VERBS", "ARG", option ? option : "qps",
		Tcl_GetString(listObj), NULL);
	return TCL_ERROR;
    }
    if (n != b->nqp) {
	return VerbsArgError(interp, option ? option : "qps", listObj,
		option ? "%s needs one qp for each sender: %d for %d"
		: "send_burst needs at least one qp", option,
		(int) n, b->nqp);
    }
    for (i = 0; i < n; i++) {
	VerbsQp *q = (VerbsQp *) VerbsObjGet(interp, names[i],
		&verbsQpClass);

	if (q == NULL) {
	    return TCL_ERROR;
	}
	for (j = 0; j < i; j++) {
	    if ((option ? b->q[j].peer : b->q[j].qp) == q) {
		return VerbsArgError(interp, option ? option : "qps",
			names[i], "%s is twice in the burst",
			Tcl_GetString(names[i]));
	    }
	}
	if (option) {
	    b->q[i].peer = q;
	} else {
	    b->q[i].qp = q;
	}
    }
    return TCL_OK;
}

/*
 * The options of a burst.  -depth and -signal are limited by the QPs, so
 * their limits are checked after the parse (BurstLimits); VERBS_NOT_GIVEN
 * marks an integer option that was not given.  -peer is a QP or a list of
 * them, one per sending QP (GetQps).
 */

typedef struct {
    VerbsObj *ah;
    uint64_t batch, count, depth;
    uint32_t imm_data;
    int inline_;
    uint64_t opcode;
    Tcl_Obj *peer;
    VerbsSgeArg peer_sge;
    uint64_t remote_addr;
    uint64_t remote_qkey, remote_qpn;
    uint32_t rkey;
    VerbsSgeArg sge;
    uint64_t signal;
    int timeout;
} BurstArgs;

static const VerbsField burstOptions[] = {
    VERBS_OPTION(BurstArgs, ah, VF_OBJ, &verbsAhClass, "ah"),
    VERBS_OPTION_MAX(BurstArgs, batch, MAX_BATCH, "n"),
    VERBS_OPTION_MAX(BurstArgs, count, SEQ(~(uint64_t) 0), "n"),
    VERBS_OPTION_MAX(BurstArgs, depth, UINT32_MAX, "n"),
    VERBS_OPTION(BurstArgs, imm_data, VF_UINT, NULL, "n"),
    VERBS_OPTION_NAMED("-inline", BurstArgs, inline_, VF_BOOL, NULL, "bool"),
    VERBS_OPTION(BurstArgs, opcode, VF_ENUM, verbsWrOpcode, "opcode"),
    VERBS_OPTION(BurstArgs, peer, VF_TCLOBJ, NULL, "qp"),
    VERBS_OPTION_PARSE(BurstArgs, peer_sge, VerbsParseSge, 0, "sge"),
    VERBS_OPTION(BurstArgs, remote_addr, VF_UINT, NULL, "addr"),
    VERBS_OPTION_MAX(BurstArgs, remote_qkey, UINT32_MAX, "qkey"),
    VERBS_OPTION_MAX(BurstArgs, remote_qpn, 0xffffff, "qpn"),
    VERBS_OPTION(BurstArgs, rkey, VF_UINT, NULL, "rkey"),
    VERBS_OPTION_PARSE(BurstArgs, sge, VerbsParseSge, 0, "sge"),
    VERBS_OPTION_MAX(BurstArgs, signal, UINT32_MAX, "n"),
    VERBS_OPTION(BurstArgs, timeout, VF_TIMEOUT, NULL, "ms"),
    VERBS_FIELD_END
};

/*
 *----------------------------------------------------------------------
 *
 * BurstSenders, BurstLimits, BurstPeers, BurstWrs --
 *
 *	The steps of a burst's setup.  BurstSenders: the sending QPs (ONE,
 *	or those of the list qpsObj) are sending queues that send_burst
 *	can drive, and *maxDepthPtr the smallest of their send queues.
 *	BurstLimits: -count, -sge, -depth, -signal, -batch and -opcode.
 *	BurstPeers: with -peer, the receiving QPs and -peer_sge.
 *	BurstWrs: the send WRs every post reuses, and the CQs to poll.
 *
 * Results:
 *	A standard Tcl result (BurstWrs: none).
 *
 * Side effects:
 *	Fill the burst.
 *
 *----------------------------------------------------------------------
 */

static int
BurstSenders(
    Tcl_Interp *interp,
    Burst *b,
    VerbsQp *one,
    Tcl_Obj *qpsObj,
    uint64_t *maxDepthPtr)
{
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;
    VerbsQp *q;
    int k, err;

    if (one) {
	b->q[0].qp = one;
    } else if (GetQps(interp, b, NULL, qpsObj) != TCL_OK) {
	return TCL_ERROR;
    }
    *maxDepthPtr = UINT32_MAX;
    for (k = 0; k < b->nqp; k++) {
	q = b->q[k].qp;
	if (VerbsQpCheckQueue(interp, q, 1) != TCL_OK
		|| VerbsQpCheckCqs(interp, q, "qp", "send_burst") != TCL_OK) {
	    return TCL_ERROR;
	}
	if (q->qpType == IBV_QPT_XRC_SEND) {
	    Tcl_SetObjResult(interp, Tcl_NewStringObj("send_burst names no "
		    "remote_srqn: an xrc_send qp sends with post_send or "
		    "wr_post", -1));
	    Tcl_SetErrorCode(interp, "VERBS", "ARG", "-type", "xrc_send",
		    NULL);
	    return TCL_ERROR;
	}
	err = ibv_query_qp(q->qp, &attr, IBV_QP_CAP, &init);
	if (err) {
	    return VerbsSysError(interp, "ibv_query_qp", &q->obj, NULL, err);
	}
	if (init.cap.max_send_wr < *maxDepthPtr) {
	    *maxDepthPtr = init.cap.max_send_wr;
	}
    }
    return TCL_OK;
}

static int
BurstLimits(
    Tcl_Interp *interp,
    Burst *b,
    const BurstArgs *a,
    uint64_t maxDepth)
{
    uint64_t opcode = a->opcode;
    int k;

    b->depth = (int) maxDepth;
    b->count = a->count;
    b->sge = a->sge.sge;
    if (a->depth != VERBS_NOT_GIVEN) {
	if (VerbsCheckMax(interp, "-depth", a->depth, maxDepth) != TCL_OK) {
	    return TCL_ERROR;
	}
	b->depth = (int) a->depth;
    }
    if (b->depth < 1) {
	b->depth = 1;
    }
    b->signal = b->depth < 16 ? b->depth : 16;
    if (a->signal != VERBS_NOT_GIVEN) {
	if (VerbsCheckMax(interp, "-signal", a->signal, (uint64_t) b->depth)
		!= TCL_OK) {
	    return TCL_ERROR;
	}
	b->signal = a->signal ? (int) a->signal : 1;
    }
    b->batch = b->signal;
    if (a->batch != VERBS_NOT_GIVEN) {
	b->batch = a->batch ? (int) a->batch : 1;
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
	return TCL_ERROR;
    }
    for (k = 0; k < b->nqp; k++) {
	if (VerbsCheckSendWr(interp, b->q[k].qp, (enum ibv_wr_opcode) opcode,
		(VerbsAh *) a->ah, a->remote_qpn != NO_QKEY
		|| a->remote_qkey != NO_QKEY) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    return TCL_OK;
}

static int
BurstPeers(
    Tcl_Interp *interp,
    Burst *b,
    const BurstArgs *a)
{
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;
    int i, k, err;

    if (a->opcode != IBV_WR_SEND && a->opcode != IBV_WR_SEND_WITH_IMM
	    && a->opcode != IBV_WR_RDMA_WRITE_WITH_IMM) {
	return VerbsArgError(interp, "-peer", a->peer, "-peer is for opcodes "
		"that consume receives: send, send_with_imm, "
		"rdma_write_with_imm");
    }
    if (GetQps(interp, b, "-peer", a->peer) != TCL_OK) {
	return TCL_ERROR;
    }
    for (k = 0; k < b->nqp; k++) {
	VerbsQp *p = b->q[k].peer;

	if (VerbsQpCheckQueue(interp, p, 0) != TCL_OK
		|| VerbsQpCheckCqs(interp, p, "-peer", "send_burst")
		!= TCL_OK) {
	    return TCL_ERROR;
	}
	if (p->srq) {
	    Tcl_Obj *peerName = VerbsObjName(&p->obj);

	    Tcl_IncrRefCount(peerName);
	    VerbsArgError(interp, "-peer", peerName, "-peer %s takes its "
		    "receives from an srq: post to the srq instead",
		    Tcl_GetString(peerName));
	    Tcl_DecrRefCount(peerName);
	    return TCL_ERROR;
	}
	err = ibv_query_qp(p->qp, &attr, IBV_QP_CAP, &init);
	if (err) {
	    return VerbsSysError(interp, "ibv_query_qp", &p->obj, NULL, err);
	}
	b->q[k].recvDepth = (int) init.cap.max_recv_wr;
    }
    if (a->peer_sge.mr == NULL) {
	return VerbsArgError(interp, "-peer_sge", NULL,
		"-peer needs -peer_sge: where the peer receives");
    }
    b->rsge = a->peer_sge.sge;
    for (i = 0; i < MAX_BATCH; i++) {
	b->rwr[i].sg_list = &b->rsge;
	b->rwr[i].num_sge = 1;
    }
    return TCL_OK;
}

static void
BurstWrs(
    Burst *b,
    const BurstArgs *a)
{
    VerbsQp *q = b->q[0].qp;
    VerbsAh *ah = (VerbsAh *) a->ah;
    int i, k;

    for (i = 0; i < MAX_BATCH; i++) {
	struct ibv_send_wr *wr = &b->wr[i];

	wr->sg_list = &b->sge;
	wr->num_sge = b->sge.length ? 1 : 0;
	wr->opcode = (enum ibv_wr_opcode) a->opcode;
	wr->send_flags = a->inline_ ? IBV_SEND_INLINE : 0;
	wr->imm_data = htonl(a->imm_data);
	if (q->qpType == IBV_QPT_UD) {
	    wr->wr.ud.ah = ah->ah;
	    wr->wr.ud.remote_qpn = a->remote_qpn == NO_QKEY ? 0
		    : (uint32_t) a->remote_qpn;
	    wr->wr.ud.remote_qkey = a->remote_qkey == NO_QKEY ? q->qkey
		    : (uint32_t) a->remote_qkey;
	} else {
	    wr->wr.rdma.remote_addr = a->remote_addr;
	    wr->wr.rdma.rkey = a->rkey;
	}
    }
    for (k = 0; k < b->nqp; k++) {
	AddCq(b, b->q[k].qp->sendCq->cq);
	if (b->q[k].peer) {
	    AddCq(b, b->q[k].peer->recvCq->cq);
	}
    }
}

/*
 *----------------------------------------------------------------------
 *
 * BurstRun --
 *
 *	The burst itself: rounds of posts on every QP (and receives on its
 *	peer) and a poll of every CQ, until every message has completed,
 *	or no progress for timeout ms (-1: no limit).
 *
 * Results:
 *	A standard Tcl result: {VERBS TIMEOUT n} on a timeout, or the
 *	error of a failed completion or post.
 *
 * Side effects:
 *	Moves the data.
 *
 *----------------------------------------------------------------------
 */

static int
BurstRun(
    Tcl_Interp *interp,
    Burst *b,
    int peers,			/* Receives count too. */
    int timeout)
{
    struct timespec idleSince, now;
    uint64_t lastDone = 0;
    uint64_t idle = 0;		/* Rounds without progress. */
    int i, k;

    clock_gettime(CLOCK_MONOTONIC, &idleSince);
    while (b->done < (peers ? 2 : 1) * b->count * (uint64_t) b->nqp) {
	for (k = 0; k < b->nqp; k++) {
	    if ((b->q[k].peer && PostRecvs(b, &b->q[k]) != TCL_OK)
		    || PostSends(b, &b->q[k]) != TCL_OK) {
		return TCL_ERROR;
	    }
	}
	for (i = 0; i < b->ncq; i++) {
	    if (PollCq(b, b->cqs[i]) < 0) {
		return TCL_ERROR;
	    }
	}

	/*
	 * The clock is read only after IDLE_ROUNDS rounds without progress
	 * (clock_gettime can be a system call: HPET has no vDSO reading),
	 * so the timeout counts from then.
	 */

	if (b->done != lastDone) {
	    lastDone = b->done;
	    idle = 0;
	    continue;
	}
	if (++idle % IDLE_ROUNDS != 0 || timeout < 0) {
	    continue;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (idle == IDLE_ROUNDS) {
	    idleSince = now;
	} else if ((now.tv_sec - idleSince.tv_sec) * 1000.0
		+ (now.tv_nsec - idleSince.tv_nsec) / 1e6 > timeout) {
	    Tcl_SetObjResult(interp, Tcl_ObjPrintf(
		    "send_burst: no progress for %d ms (%" TCL_LL_MODIFIER
		    "d of %.0f sent, %" TCL_LL_MODIFIER "d received)",
		    timeout, (Tcl_WideInt) b->completed,
		    (double) b->count * b->nqp, (Tcl_WideInt) b->received));
	    VerbsTimeoutCode(interp, (Tcl_WideInt) b->completed);
	    return TCL_ERROR;
	}
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * BurstResult --
 *
 *	The dict of a finished burst that took secs seconds.
 *
 * Results:
 *	A new dict.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static Tcl_Obj *
BurstResult(
    const Burst *b,
    int peers,
    double secs)
{
    double total = (double) b->count * b->nqp;
    Tcl_Obj *d = Tcl_NewDictObj();

#define PUT(k, o) Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), o)
    PUT("count", Tcl_NewWideIntObj((Tcl_WideInt) total));
    PUT("size", Tcl_NewWideIntObj(b->sge.length));
    PUT("bytes", Tcl_NewWideIntObj((Tcl_WideInt) total * b->sge.length));
    PUT("seconds", Tcl_NewDoubleObj(secs));
    PUT("msg_rate", Tcl_NewDoubleObj(secs > 0 ? total / secs : 0));
    PUT("mib_per_sec", Tcl_NewDoubleObj(secs > 0 ? total
	    * b->sge.length / secs / 1048576.0 : 0));
    PUT("posts", Tcl_NewWideIntObj((Tcl_WideInt) b->posts));
    PUT("polls", Tcl_NewWideIntObj((Tcl_WideInt) b->polls));
    PUT("qps", Tcl_NewWideIntObj(b->nqp));
    if (peers) {
	PUT("received", Tcl_NewWideIntObj((Tcl_WideInt) b->received));
	PUT("recv_bytes", Tcl_NewWideIntObj((Tcl_WideInt) b->recvBytes));
    }
#undef PUT
    return d;
}

/*
 *----------------------------------------------------------------------
 *
 * SendBurst --
 *
 *	The burst of the QP ONE, or over the QPs of the list qpsObj, with
 *	the options objv[2..objc).  Every QP
 *	sends -count messages of the same -sge; the posts go round the
 *	QPs, and each CQ they use is polled once per round.
 *
 * Results:
 *	A dict: count size bytes seconds msg_rate mib_per_sec posts polls
 *	qps, plus received and recv_bytes with -peer; count, bytes and the
 *	rates are over all the QPs.  A failed completion is an error
 *	{VERBS WC status wr_id vendor_err}; no progress for -timeout ms
 *	(default 5000, -1 for none) is {VERBS TIMEOUT n}.
 *
 * Side effects:
 *	Moves the data.
 *
 *----------------------------------------------------------------------
 */

static int
SendBurst(
    Tcl_Interp *interp,
    VerbsQp *one,		/* The QP of [$qp send_burst], or NULL. */
    Tcl_Obj *qpsObj,		/* Else a list of QPs. */
    int objc,
    Tcl_Obj *const objv[])
{
    BurstArgs a;
    Burst *b;
    uint64_t maxDepth;
    Tcl_Size nqp;
    int result = TCL_ERROR;
    struct timespec t0, t1;

    memset(&a, 0, sizeof(a));
    a.batch = a.count = a.depth = a.signal = VERBS_NOT_GIVEN;
    a.opcode = IBV_WR_SEND;
    a.remote_qkey = NO_QKEY;
    a.remote_qpn = NO_QKEY;
    a.timeout = 5000;
    if (VerbsParseOptions(interp, objc, objv, 2, burstOptions, &a)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (a.count == VERBS_NOT_GIVEN || a.sge.mr == NULL) {
	return VerbsArgError(interp,
		a.count != VERBS_NOT_GIVEN ? "-sge" : "-count", NULL,
		"send_burst needs -count and -sge");
    }
    if (a.inline_ && a.sge.sge.length > 0 && !VerbsMrHost(a.sge.mr)) {
	return VerbsNotHostError(interp, "-sge", 0, &a.sge.sge);
    }
    if (one || Tcl_ListObjLength(NULL, qpsObj, &nqp) != TCL_OK
	    || nqp < 1) {
	nqp = 1;		/* Without ONE, GetQps says what is wrong. */
    }
    if (nqp > 1 && a.ah) {
	Tcl_Obj *ahName = VerbsObjName(a.ah);

	Tcl_IncrRefCount(ahName);
	VerbsArgError(interp, "-ah", ahName, "a ud burst sends from one "
		"qp: its -remote_qpn is one peer's");
	Tcl_DecrRefCount(ahName);
	return TCL_ERROR;
    }

    b = (Burst *) ckalloc(sizeof(Burst));
    memset(b, 0, sizeof(Burst));
    b->interp = interp;
    b->nqp = (int) nqp;
    b->q = (BurstQp *) ckalloc(nqp * sizeof(BurstQp));
    memset(b->q, 0, nqp * sizeof(BurstQp));
    b->cqs = (struct ibv_cq **) ckalloc(2 * nqp * sizeof(struct ibv_cq *));
    b->tag = ((uint64_t) (__atomic_add_fetch(&burstTags, 1, __ATOMIC_RELAXED)
	    & 0xffffff)) << TAG_SHIFT;
    if (BurstSenders(interp, b, one, qpsObj, &maxDepth) != TCL_OK
	    || BurstLimits(interp, b, &a, maxDepth) != TCL_OK
	    || (a.peer && BurstPeers(interp, b, &a) != TCL_OK)) {
	goto done;
    }
    BurstWrs(b, &a);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (BurstRun(interp, b, a.peer != NULL, a.timeout) != TCL_OK) {
	goto done;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    Tcl_SetObjResult(interp, BurstResult(b, a.peer != NULL,
	    (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9));
    result = TCL_OK;

  done:
    ckfree(b->cqs);
    ckfree(b->q);
    ckfree(b);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsQpSendBurst, VerbsSendBurstCmd --
 *
 *	$qp send_burst -count N -sge {MR OFF LEN} ?-opcode OP?
 *		?-remote_addr A -rkey K? ?-imm_data I? ?-ah AH -remote_qpn N
 *		?-remote_qkey Q?? ?-inline BOOL? ?-depth D? ?-signal S?
 *		?-batch B? ?-peer QP -peer_sge {MR OFF LEN}? ?-timeout MS?
 *	verbs::send_burst QPS ?option value ...?
 *
 *	The burst of one QP, and of several at once (-peer is then a list
 *	of as many QPs).
 *
 * Results:
 *	See SendBurst.
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
    if ((objc % 2) != 0) {
	Tcl_WrongNumArgs(interp, 2, objv, "-count n -sge {mr offset length} "
		"?option value ...?");
	return TCL_ERROR;
    }
    return SendBurst(interp, (VerbsQp *) objPtr, NULL, objc, objv);
}

int
VerbsSendBurstCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    if (objc < 2 || (objc % 2) != 0) {
	Tcl_WrongNumArgs(interp, 1, objv, "qps -count n -sge "
		"{mr offset length} ?option value ...?");
	return TCL_ERROR;
    }
    return SendBurst(interp, NULL, objv[1], objc, objv);
}
