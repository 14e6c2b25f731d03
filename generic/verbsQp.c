/*
 * verbsQp.c --
 *
 *	Queue pairs: [verbs::qp create], modify/query with attribute dicts
 *	and derived attr_mask, the to_init/to_rtr/to_rts state helpers, and
 *	post_send/post_recv with work requests as dicts.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <rdma/rdma_cma.h>
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

/*
 * ------------------------------------------------------------------------
 * The names and struct tables of queue pairs and work requests: the rows
 * with which the attribute dict engine (verbsAttr.c) reads and writes
 * these C structs.
 * ------------------------------------------------------------------------
 */

#define RO VF_READONLY

const VerbsEnum verbsQpTypes[] = {
    {"rc", IBV_QPT_RC},
    {"uc", IBV_QPT_UC},
    {"ud", IBV_QPT_UD},
    {"raw_packet", IBV_QPT_RAW_PACKET},
    {"xrc_send", IBV_QPT_XRC_SEND},
    {"xrc_recv", IBV_QPT_XRC_RECV},
    {"driver", IBV_QPT_DRIVER},	/* A provider's own (mlx5's DC). */
    {NULL, 0}
};
const VerbsEnum verbsSendFlags[] = {
    {"fence", IBV_SEND_FENCE},
    {"signaled", IBV_SEND_SIGNALED},
    {"solicited", IBV_SEND_SOLICITED},
    {"inline", IBV_SEND_INLINE},
    {"ip_csum", IBV_SEND_IP_CSUM},
    {NULL, 0}
};
const VerbsEnum verbsWrOpcode[] = {
    {"rdma_write", IBV_WR_RDMA_WRITE},
    {"rdma_write_with_imm", IBV_WR_RDMA_WRITE_WITH_IMM},
    {"send", IBV_WR_SEND},
    {"send_with_imm", IBV_WR_SEND_WITH_IMM},
    {"rdma_read", IBV_WR_RDMA_READ},
    {"atomic_cmp_and_swp", IBV_WR_ATOMIC_CMP_AND_SWP},
    {"atomic_fetch_and_add", IBV_WR_ATOMIC_FETCH_AND_ADD},
    {"local_inv", IBV_WR_LOCAL_INV},
    {"bind_mw", IBV_WR_BIND_MW},
    {"send_with_inv", IBV_WR_SEND_WITH_INV},
    {"tso", IBV_WR_TSO},
    {"atomic_write", IBV_WR_ATOMIC_WRITE},
    {"flush", VERBS_WR_FLUSH},
    {NULL, 0}
};
const VerbsEnum verbsMigState[] = {
    {"migrated", IBV_MIG_MIGRATED},
    {"rearm", IBV_MIG_REARM},
    {"armed", IBV_MIG_ARMED},
    {NULL, 0}
};
const VerbsEnum verbsQpState[] = {
    {"reset", IBV_QPS_RESET},
    {"init", IBV_QPS_INIT},
    {"rtr", IBV_QPS_RTR},
    {"rts", IBV_QPS_RTS},
    {"sqd", IBV_QPS_SQD},
    {"sqe", IBV_QPS_SQE},
    {"err", IBV_QPS_ERR},
    {"unknown", IBV_QPS_UNKNOWN},
    {NULL, 0}
};

const VerbsEnum verbsRate[] = {
    {"max", IBV_RATE_MAX},
    {"2_5_gbps", IBV_RATE_2_5_GBPS},
    {"5_gbps", IBV_RATE_5_GBPS},
    {"10_gbps", IBV_RATE_10_GBPS},
    {"20_gbps", IBV_RATE_20_GBPS},
    {"30_gbps", IBV_RATE_30_GBPS},
    {"40_gbps", IBV_RATE_40_GBPS},
    {"60_gbps", IBV_RATE_60_GBPS},
    {"80_gbps", IBV_RATE_80_GBPS},
    {"120_gbps", IBV_RATE_120_GBPS},
    {"14_gbps", IBV_RATE_14_GBPS},
    {"56_gbps", IBV_RATE_56_GBPS},
    {"112_gbps", IBV_RATE_112_GBPS},
    {"168_gbps", IBV_RATE_168_GBPS},
    {"25_gbps", IBV_RATE_25_GBPS},
    {"100_gbps", IBV_RATE_100_GBPS},
    {"200_gbps", IBV_RATE_200_GBPS},
    {"300_gbps", IBV_RATE_300_GBPS},
    {"28_gbps", IBV_RATE_28_GBPS},
    {"50_gbps", IBV_RATE_50_GBPS},
    {"400_gbps", IBV_RATE_400_GBPS},
    {"600_gbps", IBV_RATE_600_GBPS},
    {"800_gbps", IBV_RATE_800_GBPS},
    {"1200_gbps", IBV_RATE_1200_GBPS},
    {NULL, 0}
};
const VerbsEnum verbsMtu[] = {
    {"256", IBV_MTU_256},
    {"512", IBV_MTU_512},
    {"1024", IBV_MTU_1024},
    {"2048", IBV_MTU_2048},
    {"4096", IBV_MTU_4096},
    {"mtu_256", IBV_MTU_256},
    {"mtu_512", IBV_MTU_512},
    {"mtu_1024", IBV_MTU_1024},
    {"mtu_2048", IBV_MTU_2048},
    {"mtu_4096", IBV_MTU_4096},
    {NULL, 0}
};

const VerbsEnum verbsSendOps[] = {
    {"rdma_write", IBV_QP_EX_WITH_RDMA_WRITE},
    {"rdma_write_with_imm", IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM},
    {"send", IBV_QP_EX_WITH_SEND},
    {"send_with_imm", IBV_QP_EX_WITH_SEND_WITH_IMM},
    {"rdma_read", IBV_QP_EX_WITH_RDMA_READ},
    {"atomic_cmp_and_swp", IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP},
    {"atomic_fetch_and_add", IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD},
    {"local_inv", IBV_QP_EX_WITH_LOCAL_INV},
    {"bind_mw", IBV_QP_EX_WITH_BIND_MW},
    {"send_with_inv", IBV_QP_EX_WITH_SEND_WITH_INV},
    {"tso", IBV_QP_EX_WITH_TSO},
    {"atomic_write", IBV_QP_EX_WITH_ATOMIC_WRITE},
    {"flush", VERBS_QP_EX_WITH_FLUSH},
    {NULL, 0}
};

#define CAP(f) VERBS_FIELD(struct ibv_qp_cap, f, VF_UINT, NULL, 0, 0)
static const VerbsField qpCapFields[] = {
    CAP(max_send_wr),
    CAP(max_recv_wr),
    CAP(max_send_sge),
    CAP(max_recv_sge),
    CAP(max_inline_data),
    VERBS_FIELD_END
};
const VerbsStruct verbsQpCapStruct = {"qp cap", qpCapFields};

#define QA(f, kind, table, mask) \
    VERBS_FIELD(struct ibv_qp_attr, f, kind, table, mask, 0)
static const VerbsField qpAttrFields[] = {
    QA(qp_state, VF_ENUM, verbsQpState, IBV_QP_STATE),
    QA(cur_qp_state, VF_ENUM, verbsQpState, IBV_QP_CUR_STATE),
    QA(path_mtu, VF_ENUM, verbsMtu, IBV_QP_PATH_MTU),
    QA(path_mig_state, VF_ENUM, verbsMigState, IBV_QP_PATH_MIG_STATE),
    QA(qkey, VF_UINT, NULL, IBV_QP_QKEY),
    QA(rq_psn, VF_UINT, NULL, IBV_QP_RQ_PSN),
    QA(sq_psn, VF_UINT, NULL, IBV_QP_SQ_PSN),
    QA(dest_qp_num, VF_UINT, NULL, IBV_QP_DEST_QPN),
    QA(qp_access_flags, VF_FLAGS, verbsAccessFlags, IBV_QP_ACCESS_FLAGS),
    QA(cap, VF_STRUCT, &verbsQpCapStruct, IBV_QP_CAP),
    VERBS_FIELD_STRUCT(struct ibv_qp_attr, ah_attr, &verbsAhAttrStruct,
	    IBV_QP_AV, VerbsSetAhAttr),
    VERBS_FIELD_STRUCT(struct ibv_qp_attr, alt_ah_attr, &verbsAhAttrStruct,
	    IBV_QP_ALT_PATH, VerbsSetAhAttr),
    QA(pkey_index, VF_UINT, NULL, IBV_QP_PKEY_INDEX),
    QA(alt_pkey_index, VF_UINT, NULL, IBV_QP_ALT_PATH),
    QA(en_sqd_async_notify, VF_UINT, NULL, IBV_QP_EN_SQD_ASYNC_NOTIFY),
    VERBS_FIELD(struct ibv_qp_attr, sq_draining, VF_UINT, NULL, 0, RO),
    QA(max_rd_atomic, VF_UINT, NULL, IBV_QP_MAX_QP_RD_ATOMIC),
    QA(max_dest_rd_atomic, VF_UINT, NULL, IBV_QP_MAX_DEST_RD_ATOMIC),
    QA(min_rnr_timer, VF_UINT, NULL, IBV_QP_MIN_RNR_TIMER),
    QA(port_num, VF_UINT, NULL, IBV_QP_PORT),
    QA(timeout, VF_UINT, NULL, IBV_QP_TIMEOUT),
    QA(retry_cnt, VF_UINT, NULL, IBV_QP_RETRY_CNT),
    QA(rnr_retry, VF_UINT, NULL, IBV_QP_RNR_RETRY),
    QA(alt_port_num, VF_UINT, NULL, IBV_QP_ALT_PATH),
    QA(alt_timeout, VF_UINT, NULL, IBV_QP_ALT_PATH),
    QA(rate_limit, VF_UINT, NULL, IBV_QP_RATE_LIMIT),
    VERBS_FIELD_END
};
const VerbsStruct verbsQpAttrStruct = {"qp attribute", qpAttrFields};

#undef RO


static VerbsMethodProc QpDataInOrder, QpEce, QpRateLimit;
static VerbsMethodProc QpAttachMcast, QpDetachMcast;
static void	QpCmDefaults(VerbsQp *q, VerbsCmId *cm);
static VerbsMethodProc QpModify, QpQuery, QpToInit, QpToRtr, QpToRts,
	QpPostSend, QpPostRecv,
	QpWrPost;

static const VerbsMethod qpMethods[] = {
    {"attach_comp_cntr", VerbsQpAttachCompCntr, 2, 2, "compcntr op_mask"},
    {"attach_mcast", QpAttachMcast, 2, 2, "gid lid"},
    {"bind_mw", VerbsQpBindMw, 2, 6,
	    "mw bind_info ?-wr_id n? ?-signaled bool?"},
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"data_in_order", QpDataInOrder, 0, 3, "?opcode? ?-flags flags?"},
    {"detach_mcast", QpDetachMcast, 2, 2, "gid lid"},
    {"ece", QpEce, 0, 1, "?ece?"},
    {"latency", VerbsQpLatency, 0, -1,
	    "-iters n -sge {mr offset length} ?option value ...?"},
    {"modify", QpModify, 1, 1, "attributes"},
    {"post_recv", QpPostRecv, 1, -1, "wr ?wr ...?"},
    {"post_send", QpPostSend, 1, -1, "wr ?wr ...?"},
    {"query", QpQuery, 0, 0, ""},
    {"rate_limit", QpRateLimit, 1, 1, "attributes"},
    {"send_burst", VerbsQpSendBurst, 0, -1,
	    "-count n -sge {mr offset length} ?option value ...?"},
    {"to_init", QpToInit, 0, 1, "?attributes?"},
    {"to_rtr", QpToRtr, 0, 1, "?attributes?"},
    {"to_rts", QpToRts, 0, 1, "?attributes?"},
    {"wr_post", QpWrPost, 1, -1, "wr ?wr ...?"},
    {NULL, NULL, 0, 0, NULL}
};

static VerbsGetProc QpState, QpPd, QpContext;

static const VerbsField qpCget[] = {
    VERBS_CGET_PTR("-qp_num", VerbsQp, qp, struct ibv_qp, qp_num, VF_UINT,
	    NULL),
    VERBS_CGET_PTR("-qp_type", VerbsQp, qp, struct ibv_qp, qp_type, VF_ENUM,
	    verbsQpTypes),
    VERBS_CGET_PROC("-state", QpState),
    VERBS_CGET_PTR("-handle", VerbsQp, qp, struct ibv_qp, handle, VF_UINT,
	    NULL),
    VERBS_CGET_PROC("-pd", QpPd),
    VERBS_CGET_PROC("-context", QpContext),
    VERBS_CGET("-send_cq", VerbsQp, sendCq, VF_OBJ, NULL),
    VERBS_CGET("-recv_cq", VerbsQp, recvCq, VF_OBJ, NULL),
    VERBS_CGET("-srq", VerbsQp, srq, VF_OBJ, NULL),
    VERBS_CGET("-xrcd", VerbsQp, xrcd, VF_OBJ, NULL),
    VERBS_CGET("-rwq_ind_table", VerbsQp, indTable, VF_OBJ, NULL),
    VERBS_CGET("-opened", VerbsQp, opened, VF_BOOL, NULL),
    VERBS_CGET_PROC("-comp_cntrs", VerbsQpCompCntrs),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc QpCreateCmd, QpOpenCmd;

static const VerbsCommand qpCommands[] = {
    {"create", QpCreateCmd}, {"open", QpOpenCmd}, {NULL, NULL}
};

#define NO_SEND_OPS (~(uint64_t) 0)	/* -send_ops not given. */

#define QP_REFS 5			/* Objects a QP may hold (QpRefs). */

/*
 * The objects of a bind_mw work request, applied once it is posted.
 */

typedef struct MwBind {
    VerbsMw *mw;
    VerbsMr *mr;
    uint64_t flushLength;	/* A flush work request's length, */
    uint8_t flushType, flushLevel; /* placement type and selectivity
				 * (wr_post: ibv_send_wr has no room). */
    Tcl_Obj *tsoHdr;		/* A tso work request's hdr, a byte string
				 * of its dict: its bytes are taken when
				 * ibv_wr_send_tso copies them. */
    int cached;			/* The WR came from its value's cache: its
				 * sg_list is the cache's, not to be freed. */
} MwBind;

static const VerbsEnum flushTypes[] = {
    {"global", VERBS_FLUSH_GLOBAL},
    {"persistent", VERBS_FLUSH_PERSISTENT},
    {NULL, 0}
};
static const VerbsEnum flushLevels[] = {
    {"range", VERBS_FLUSH_RANGE},
    {"mr", VERBS_FLUSH_MR},
    {NULL, 0}
};

/* Every attr_mask bit ibv_query_qp is asked for. */
#define QUERY_MASK ((IBV_QP_DEST_QPN << 1) - 1)

/*
 *----------------------------------------------------------------------
 *
 * QpState, QpPd, QpContext, QpRefs, QpFree --
 *
 *	The -state cget option, asked of the device (an error completion
 *	moves the QP on its own); -pd, the QP's parent when that is a PD
 *	(an xrc_recv QP has none); -context, its device context; the
 *	objects a QP holds references on (QpRefs: NULL where none);
 *	destruction of the QP (of an opened one: closing this process's
 *	handle), which then lets go of its CQs, SRQ, XRC domain or
 *	indirection table.
 *
 * Results:
 *	QpState: a standard Tcl result.  QpPd, QpContext: TCL_OK.
 *
 * Side effects:
 *	QpFree: ibv_destroy_qp, releases the references.
 *
 *----------------------------------------------------------------------
 */

static int
QpState(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;
    int err = ibv_query_qp(((VerbsQp *) objPtr)->qp, &attr, IBV_QP_STATE,
	    &init);

    if (err) {
	return VerbsSysError(interp, "ibv_query_qp", objPtr, NULL, err);
    }
    *valuePtr = VerbsEnumObj(verbsQpState, attr.qp_state);
    return TCL_OK;
}

static int
QpPd(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    VerbsObj *parent = objPtr->parent;

    *valuePtr = parent->typePtr == &verbsPdClass ? VerbsObjName(parent)
	    : Tcl_NewObj();
    return TCL_OK;
}

static int
QpContext(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    VerbsObj *o = objPtr->parent;

    while (o->typePtr != &verbsContextClass) {
	o = o->parent;
    }
    *valuePtr = VerbsObjName(o);
    return TCL_OK;
}

static void
QpRefs(
    VerbsQp *q,
    VerbsObj *refs[QP_REFS])
{
    refs[0] = (VerbsObj *) q->sendCq;
    refs[1] = (VerbsObj *) q->recvCq;
    refs[2] = (VerbsObj *) q->srq;
    refs[3] = (VerbsObj *) q->xrcd;
    refs[4] = (VerbsObj *) q->indTable;
}

/*
 * A multicast group a QP was attached to with attach_mcast: a QP still
 * attached cannot be destroyed, so QpFree detaches them first.
 */

typedef struct VerbsQpMcast {
    struct VerbsQpMcast *next;
    union ibv_gid gid;
    uint16_t lid;
} VerbsQpMcast;

/*
 *----------------------------------------------------------------------
 *
 * CmIdle --
 *
 *	A QP of an rdma_cm id on, or off, its CQs: while one is on, a
 *	wait on the CQ reads the rdma_cm channels (VerbsCmPump) of the QPs
 *	in the CQ's cmQps, and of no other object.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Sets or clears the CQs' idleProc; adds the QP to their cmQps, or
 *	takes it out.
 *
 *----------------------------------------------------------------------
 */

static void
CmIdle(
    VerbsQp *q,
    int on)
{
    VerbsCq *cqs[2];
    int i;

    cqs[0] = q->sendCq;
    cqs[1] = q->recvCq != q->sendCq ? q->recvCq : NULL;
    for (i = 0; i < 2; i++) {
	if (cqs[i] == NULL) {
	    continue;
	}
	if (on) {
	    int isNew;

	    if (cqs[i]->cmQps == NULL) {
		cqs[i]->cmQps = (Tcl_HashTable *) ckalloc(sizeof(Tcl_HashTable));
		Tcl_InitHashTable(cqs[i]->cmQps, TCL_ONE_WORD_KEYS);
	    }
	    Tcl_CreateHashEntry(cqs[i]->cmQps, (char *) q, &isNew);
	    cqs[i]->idleProc = VerbsCmPump;
	    cqs[i]->idleUsers++;
	} else {
	    Tcl_HashEntry *hPtr = Tcl_FindHashEntry(cqs[i]->cmQps, (char *) q);

	    if (hPtr) {
		Tcl_DeleteHashEntry(hPtr);
	    }
	    if (--cqs[i]->idleUsers == 0) {
		cqs[i]->idleProc = NULL;
	    }
	}
    }
}

static void
QpFree(
    VerbsObj *objPtr)
{
    VerbsQp *q = (VerbsQp *) objPtr;
    VerbsObj *refs[QP_REFS];
    VerbsQpMcast *m;
    int i;

    while ((m = q->mcasts) != NULL) {
	q->mcasts = m->next;
	ibv_detach_mcast(q->qp, &m->gid, m->lid);
	ckfree(m);
    }
    if (q->cm) {
	/* librdmacm keeps id->qp: let it clear that as it destroys. */
	CmIdle(q, 0);
	VerbsCmDetachQp(q->cm, q->qp);
	rdma_destroy_qp(q->cm->id);
	VerbsObjRelease(&q->cm->obj);
    } else {
	ibv_destroy_qp(q->qp);
    }
    if (q->providerFree) {
	q->providerFree(q->providerData);
    }
    VerbsQpCompCntrsRelease(q);
    QpRefs(q, refs);
    for (i = 0; i < QP_REFS; i++) {
	if (refs[i]) {
	    VerbsObjRelease(refs[i]);
	}
    }
}

const VerbsType verbsQpClass = {
    .name = "qp",
    .size = sizeof(VerbsQp),
    .methods = qpMethods,
    .cget = qpCget,
    .freeProc = QpFree,
    .commands = qpCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * QpCreateCmd --
 *
 *	verbs::qp create PD -send_cq CQ ?-recv_cq CQ? ?-srq SRQ?
 *		?-type rc|uc|ud|raw_packet|xrc_send? ?-cap DICT?
 *		?-sq_sig_all BOOL? ?-send_ops OPS? ?-as NAME?
 *	verbs::qp create PD -type raw_packet -rwq_ind_table TABLE
 *		-rx_hash DICT ?-as NAME?
 *	verbs::qp create CONTEXT -type xrc_recv -xrcd XRCD ?-as NAME?
 *
 * Results:
 *	The qp object command's name.
 *
 * Side effects:
 *	Creates the QP; takes references on what it uses.
 *
 *----------------------------------------------------------------------
 */

static int
QpCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsQpCreate(interp, objc, objv, NULL, NULL);
}

/*
 * The -rx_hash dict of an RSS QP: its ibv_rx_hash_conf.
 */

typedef struct RxHashArgs {
    uint64_t fields;
    uint8_t function;
    Tcl_Obj *key;
} RxHashArgs;

static const VerbsField rxHashFields[] = {
    VERBS_FIELD(RxHashArgs, fields, VF_FLAGS, verbsRxHashFields, 0, 0),
    VERBS_FIELD(RxHashArgs, function, VF_ENUM, verbsRxHashFunction, 0, 0),
    VERBS_FIELD(RxHashArgs, key, VF_TCLOBJ, NULL, 0, 0),
    VERBS_FIELD_END
};

static const VerbsStruct rxHashStruct = {"rx_hash key", rxHashFields};

/*
 * The options of [verbs::qp create].
 */

typedef struct QpArgs {
    VerbsCreateHead head;
    Tcl_Obj *cap;
    uint32_t max_tso_header;
    VerbsObj *recv_cq, *rwq_ind_table;
    Tcl_Obj *rx_hash;
    VerbsObj *send_cq;
    uint64_t send_ops;
    int sq_sig_all;
    VerbsObj *srq;
    uint64_t type;
    VerbsObj *xrcd;
} QpArgs;

/*
 * A QP being made: its options, the objects they resolved to, and the
 * init attributes built from them (VerbsQpCreate).
 */

typedef struct QpBuild {
    QpArgs args;
    VerbsObj *parent, *ctxObj;	/* The pd (or context), its context. */
    VerbsPd *p;			/* The pd, or NULL (xrc_recv). */
    VerbsCq *sendCq, *recvCq;
    VerbsSrq *srq;
    VerbsCmId *cm;		/* The rdma_cm id it is made on, or NULL. */
    struct ibv_qp_init_attr_ex init;
    int ex;			/* Made by ibv_create_qp_ex. */
} QpBuild;

static int	QpXrcRecv(Tcl_Interp *interp, QpBuild *b);
static int	QpRss(Tcl_Interp *interp, QpBuild *b);
static int	QpQueues(Tcl_Interp *interp, QpBuild *b);
static int	QpMake(Tcl_Interp *interp, QpBuild *b, VerbsCmId *cm,
		    const VerbsQpMaker *maker);

/*
 *----------------------------------------------------------------------
 *
 * NotFor, NoQueues --
 *
 *	Refuse an option a QP of some kind does not take: "-recv_cq is not
 *	for an xrc_send qp (...)".  NoQueues refuses the queue options of a
 *	QP without queues of its own (xrc_recv, RSS), cqWhy saying where
 *	its receives complete.
 *
 * Results:
 *	NotFor: TCL_ERROR.  NoQueues: a standard Tcl result.
 *
 * Side effects:
 *	Sets the result and errorCode {VERBS ARG option {}}.
 *
 *----------------------------------------------------------------------
 */

static int
NotFor(
    Tcl_Interp *interp,
    const char *option,
    const char *kind,
    const char *why)
{
    return VerbsArgError(interp, option, NULL, "%s is not for %s (%s)",
	    option, kind, why);
}

static int
NoQueues(
    Tcl_Interp *interp,
    const QpArgs *a,
    const char *kind,
    const char *cqWhy)
{
    if (a->send_cq || a->recv_cq || a->srq) {
	return NotFor(interp, a->send_cq ? "-send_cq" : a->recv_cq
		? "-recv_cq" : "-srq", kind, cqWhy);
    }
    if (a->cap || a->send_ops != NO_SEND_OPS || a->max_tso_header) {
	return NotFor(interp, a->cap ? "-cap" : a->max_tso_header
		? "-max_tso_header" : "-send_ops", kind,
		"it has no queues of its own");
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsQpCreate --
 *
 *	The work of [verbs::qp create] (objv[1] the pd, options after it)
 *	and of [$cmid create_qp], which passes its rdma_cm object: the QP
 *	is then made by rdma_create_qp on that id, and holds a reference on
 *	the id (rdma_destroy_qp needs it).
 *
 *	Three kinds of QP are made by ibv_create_qp_ex: xrc_recv QPs on a
 *	device context, in an XRC domain, with no PD, CQs or send queue;
 *	RSS QPs (-rwq_ind_table with -rx_hash), which receive through the
 *	WQs of the table and have no CQs of their own; and QPs with
 *	-send_ops or of type xrc_send.  The others are made by
 *	ibv_create_qp.
 *
 * Results:
 *	A standard Tcl result, the qp object's name.
 *
 * Side effects:
 *	Creates the QP; takes references on its CQs, SRQ, XRC domain,
 *	indirection table and id.
 *
 *----------------------------------------------------------------------
 */

int
VerbsQpCreate(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    VerbsCmId *cm,
    const VerbsQpMaker *maker)
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(QpArgs, cap, VF_TCLOBJ, NULL, "dict"),
	VERBS_OPTION_MAX(QpArgs, max_tso_header, UINT16_MAX, "bytes"),
	VERBS_OPTION(QpArgs, recv_cq, VF_OBJ, &verbsCqClass, "cq"),
	VERBS_OPTION(QpArgs, rwq_ind_table, VF_OBJ, &verbsRwqIndTableClass,
		"table"),
	VERBS_OPTION(QpArgs, rx_hash, VF_TCLOBJ, NULL, "dict"),
	VERBS_OPTION(QpArgs, send_cq, VF_OBJ, &verbsCqClass, "cq"),
	VERBS_OPTION(QpArgs, send_ops, VF_FLAGS, verbsSendOps, "ops"),
	VERBS_OPTION(QpArgs, sq_sig_all, VF_BOOL, NULL, "bool"),
	VERBS_OPTION(QpArgs, srq, VF_OBJ, &verbsSrqClass, "srq"),
	VERBS_OPTION(QpArgs, type, VF_ENUM, verbsQpTypes, "type"),
	VERBS_OPTION(QpArgs, xrcd, VF_OBJ, &verbsXrcdClass, "xrcd"),
	VERBS_FIELD_END
    };
    QpBuild b;
    VerbsObj *given;
    int result;

    /*
     * The first word is a pd, or for an xrc_recv QP a device context:
     * look at what it is to resolve it as one or the other.
     */

    given = (objc > 1 && cm == NULL) ? VerbsObjFind(interp, objv[1]) : NULL;
    memset(&b, 0, sizeof(b));
    b.args.send_ops = NO_SEND_OPS;
    b.args.type = IBV_QPT_RC;
    if (VerbsCreateArgs(interp, objc, objv, "pd|context", options, &b.args,
	    (given && given->typePtr == &verbsContextClass)
	    ? &verbsContextClass : &verbsPdClass) != TCL_OK) {
	return TCL_ERROR;
    }
    b.parent = b.args.head.parent;
    if (b.parent->typePtr == &verbsPdClass) {
	b.p = (VerbsPd *) b.parent;
	b.ctxObj = b.parent->parent;
    } else {
	b.ctxObj = b.parent;
    }
    b.sendCq = (VerbsCq *) b.args.send_cq;
    b.recvCq = b.args.recv_cq ? (VerbsCq *) b.args.recv_cq : b.sendCq;
    b.srq = (VerbsSrq *) b.args.srq;
    b.cm = cm;

    b.init.qp_type = (enum ibv_qp_type) b.args.type;
    b.init.sq_sig_all = b.args.sq_sig_all;
    b.init.cap.max_send_wr = 16;
    b.init.cap.max_recv_wr = 16;
    b.init.cap.max_send_sge = 1;
    b.init.cap.max_recv_sge = 1;
    if (b.p) {
	b.init.pd = b.p->pd;
	b.init.comp_mask = IBV_QP_INIT_ATTR_PD;
    }

    /*
     * What each kind of QP takes.
     */

    if (b.args.type == IBV_QPT_XRC_RECV) {
	result = QpXrcRecv(interp, &b);
    } else if (b.p == NULL) {
	Tcl_Obj *name = VerbsObjName(b.parent);

	Tcl_SetObjResult(interp, Tcl_ObjPrintf("\"%s\" is not a verbs pd "
		"object (only an xrc_recv qp is made on a device context)",
		Tcl_GetString(name)));
	Tcl_SetErrorCode(interp, "VERBS", "LOOKUP", "pd", Tcl_GetString(name),
		NULL);
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    } else if (b.args.xrcd) {
	return VerbsArgError(interp, "-xrcd", NULL, "-xrcd is for xrc_recv "
		"qps (an xrc srq names its domain itself)");
    } else if (b.args.rwq_ind_table || b.args.rx_hash) {
	result = QpRss(interp, &b);
    } else {
	result = QpQueues(interp, &b);
    }
    if (result != TCL_OK) {
	return TCL_ERROR;
    }
    if (b.args.send_ops != NO_SEND_OPS) {
	/*
	 * The extended QP: the same attributes, plus the send operations
	 * the ibv_wr_* API may use on it ([$qp wr_post]).
	 */

	b.init.send_ops_flags = b.args.send_ops;
	b.init.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	b.ex = 1;
    }
    if (cm && b.ex) {
	const char *option = b.args.send_ops != NO_SEND_OPS ? "-send_ops"
		: b.args.max_tso_header ? "-max_tso_header"
		: b.args.rwq_ind_table ? "-rwq_ind_table" : "-type";

	return VerbsArgError(interp, option, NULL, "%s%s is not for a qp "
		"made on an rdma_cm id", option,
		option[1] == 't' ? " xrc_send" : "");
    }
    return QpMake(interp, &b, cm, maker);
}

/*
 *----------------------------------------------------------------------
 *
 * QpXrcRecv, QpRss, QpQueues --
 *
 *	What each kind of QP takes, into the init attributes: an xrc_recv
 *	QP an XRC domain and no queues, an RSS QP an indirection table and
 *	a hash and no queues, the others (xrc_send included) their CQs,
 *	SRQ, -cap and -max_tso_header.  ex is set for the kinds
 *	ibv_create_qp_ex makes.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fill b->init.
 *
 *----------------------------------------------------------------------
 */

static int
QpXrcRecv(
    Tcl_Interp *interp,
    QpBuild *b)
{
    if (b->p) {
	Tcl_Obj *type = Tcl_NewStringObj("xrc_recv", -1);

	Tcl_IncrRefCount(type);
	VerbsArgError(interp, "-type", type, "an xrc_recv qp has no pd: "
		"make it on the device context of the pd, with -xrcd");
	Tcl_DecrRefCount(type);
	return TCL_ERROR;
    }
    if (NoQueues(interp, &b->args, "an xrc_recv qp", "its receives "
	    "complete on the cqs of the xrc srqs its senders name")
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (b->args.xrcd == NULL) {
	return VerbsArgError(interp, "-xrcd", NULL, "missing -xrcd: an "
		"xrc_recv qp lives in an xrc domain");
    }
    if (VerbsCheckOwner(interp, "-xrcd", b->args.xrcd, b->ctxObj,
	    "device context") != TCL_OK) {
	return TCL_ERROR;
    }
    memset(&b->init.cap, 0, sizeof(b->init.cap));
    b->init.xrcd = ((VerbsXrcd *) b->args.xrcd)->xrcd;
    b->init.comp_mask |= IBV_QP_INIT_ATTR_XRCD;
    b->ex = 1;
    return TCL_OK;
}

static int
QpRss(
    Tcl_Interp *interp,
    QpBuild *b)
{
    RxHashArgs rx;
    Tcl_Size keyLen = 0;
    const unsigned char *key = NULL;

    /*
     * The hash first: its dict is checked wherever it is given.
     */

    memset(&rx, 0, sizeof(rx));
    rx.function = IBV_RX_HASH_FUNC_TOEPLITZ;
    if (b->args.rx_hash) {
	if (VerbsDictToStruct(interp, &rxHashStruct, "-rx_hash",
		b->args.rx_hash, &rx, NULL) != TCL_OK) {
	    return TCL_ERROR;
	}
	if (rx.key == NULL) {
	    return VerbsArgError(interp, "-rx_hash", b->args.rx_hash,
		    "-rx_hash needs key, the bytes of the hash key");
	}
	key = VerbsGetBytes(interp, "key", rx.key, &keyLen);
	if (key == NULL) {
	    return TCL_ERROR;
	}
	if (keyLen == 0 || keyLen > UINT8_MAX) {
	    return VerbsArgError(interp, "key", rx.key, "bad key: %"
		    TCL_SIZE_MODIFIER "d bytes, must be 1 to %d", keyLen,
		    UINT8_MAX);
	}
    }
    if (b->args.rwq_ind_table == NULL || b->args.rx_hash == NULL) {
	return VerbsArgError(interp, b->args.rx_hash ? "-rwq_ind_table"
		: "-rx_hash", NULL, "an rss qp needs both -rwq_ind_table "
		"and -rx_hash");
    }
    if (NoQueues(interp, &b->args, "an rss qp", "its receives complete on "
	    "the cqs of the wqs of its -rwq_ind_table") != TCL_OK) {
	return TCL_ERROR;
    }
    if (VerbsCheckOwner(interp, "-rwq_ind_table", b->args.rwq_ind_table,
	    b->ctxObj, "device context than the pd") != TCL_OK) {
	return TCL_ERROR;
    }

    /*
     * The key's bytes belong to the -rx_hash dict, which the caller's
     * words keep alive until the QP is made.
     */

    memset(&b->init.cap, 0, sizeof(b->init.cap));
    b->init.rwq_ind_tbl = ((VerbsRwqIndTable *) b->args.rwq_ind_table)->table;
    b->init.rx_hash_conf.rx_hash_function = rx.function;
    b->init.rx_hash_conf.rx_hash_key_len = (uint8_t) keyLen;
    b->init.rx_hash_conf.rx_hash_key = (uint8_t *) key;
    b->init.rx_hash_conf.rx_hash_fields_mask = rx.fields;
    b->init.comp_mask |= IBV_QP_INIT_ATTR_IND_TABLE
	    | IBV_QP_INIT_ATTR_RX_HASH;
    b->ex = 1;
    return TCL_OK;
}

static int
QpQueues(
    Tcl_Interp *interp,
    QpBuild *b)
{
    if (b->sendCq == NULL && b->cm == NULL) {
	return VerbsArgError(interp, "-send_cq", NULL,
		"missing -send_cq: a qp needs a completion queue");
    }
    if (b->sendCq == NULL && VerbsQpCmCqs(interp, b->args.recv_cq != NULL,
	    b->args.srq != NULL) != TCL_OK) {
	return TCL_ERROR;
    }
    if (b->args.type == IBV_QPT_XRC_SEND) {
	if (b->args.recv_cq || b->args.srq) {
	    return NotFor(interp, b->args.recv_cq ? "-recv_cq" : "-srq",
		    "an xrc_send qp", "it only sends; its peer receives "
		    "into an xrc srq");
	}
	b->recvCq = NULL;
	b->init.cap.max_recv_wr = 0;
	b->init.cap.max_recv_sge = 0;
	b->ex = 1;
    }
    if (VerbsCheckOwner(interp, "-send_cq", b->args.send_cq, b->ctxObj,
	    "device context than the pd") != TCL_OK
	    || VerbsCheckOwner(interp, "-recv_cq", b->args.recv_cq, b->ctxObj,
	    "device context than the pd") != TCL_OK
	    || VerbsCheckOwner(interp, "-srq", b->args.srq, &b->p->obj, "pd")
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (b->args.srq) {
	/* Its receives go to the SRQ: none of its own, unless asked. */
	b->init.cap.max_recv_wr = 0;
	b->init.cap.max_recv_sge = 0;
    }
    if (b->args.cap && VerbsDictToStruct(interp, &verbsQpCapStruct, "-cap",
	    b->args.cap, &b->init.cap, NULL) != TCL_OK) {
	return TCL_ERROR;
    }
    b->init.send_cq = b->sendCq ? b->sendCq->cq : NULL;
    b->init.recv_cq = b->recvCq ? b->recvCq->cq : NULL;
    b->init.srq = b->srq ? b->srq->srq : NULL;
    if (b->args.max_tso_header) {
	/* The longest hdr of its tso work requests. */
	b->init.max_tso_header = (uint16_t) b->args.max_tso_header;
	b->init.comp_mask |= IBV_QP_INIT_ATTR_MAX_TSO_HEADER;
	b->ex = 1;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * QpMake --
 *
 *	Make the QP whose attributes b holds: rdma_create_qp on an id, the
 *	maker's create proc, ibv_create_qp_ex or ibv_create_qp; then its
 *	object, holding what it uses.
 *
 * Results:
 *	A standard Tcl result, the qp object's name.
 *
 * Side effects:
 *	Creates the QP; takes references on its CQs, SRQ, XRC domain,
 *	indirection table and id.
 *
 *----------------------------------------------------------------------
 */

static int
QpMake(
    Tcl_Interp *interp,
    QpBuild *b,
    VerbsCmId *cm,
    const VerbsQpMaker *maker)
{
    const char *call = b->ex ? "ibv_create_qp_ex" : "ibv_create_qp";
    VerbsObj *refs[QP_REFS], *held[7];
    struct ibv_context *ctx = ((VerbsContext *) b->ctxObj)->ctx;
    struct ibv_qp *qp;
    VerbsQp *q;
    int i;

    if (maker) {
	call = maker->call;
    }

    /*
     * The QP's context pointer is its object, so that an async event
     * names the QP it is about.
     */

    q = (VerbsQp *) VerbsObjNew(&verbsQpClass);
    b->init.qp_context = q;

    /*
     * A parent domain's allocator may run scripts during the call, which
     * might close the objects it works on: they are held until it is
     * done, and a QP made on closed ones is destroyed again.
     */

    held[0] = b->parent;
    held[1] = b->args.send_cq ? &b->sendCq->obj : NULL;
    held[2] = b->args.recv_cq;
    held[3] = b->args.srq;
    held[4] = cm ? &cm->obj : NULL;
    held[5] = b->args.xrcd;
    held[6] = b->args.rwq_ind_table;
    VerbsObjHold(held, 7);
    if (cm) {
	call = "rdma_create_qp";
	qp = rdma_create_qp(cm->id, b->p->pd,
		(struct ibv_qp_init_attr *) &b->init) == 0 ? cm->id->qp : NULL;
    } else if (maker) {
	qp = maker->create(ctx, &b->init, maker->clientData);
    } else if (b->ex) {
	qp = ibv_create_qp_ex(ctx, &b->init);
    } else {
	qp = ibv_create_qp(b->p->pd, (struct ibv_qp_init_attr *) &b->init);
    }
    if (qp == NULL) {
	VerbsSysError(interp, call, cm ? &cm->obj : b->parent, NULL, errno);
	VerbsObjUnhold(held, 7);
	ckfree(q);
	return TCL_ERROR;
    }
    q->qp = qp;
    if (b->args.send_ops != NO_SEND_OPS) {
	q->qpx = ibv_qp_to_qp_ex(qp);
	q->sendOps = b->args.send_ops;
    }
    q->qpType = b->init.qp_type;
    QpCmDefaults(q, cm);
    if (VerbsObjCheckHeld(interp, held, 7, call) != TCL_OK
	    || VerbsObjRegister(interp, &q->obj, b->parent,
	    b->args.head.command) != TCL_OK) {
	if (cm) {
	    rdma_destroy_qp(cm->id);
	} else {
	    ibv_destroy_qp(qp);
	}
	VerbsObjUnhold(held, 7);
	ckfree(q);
	return TCL_ERROR;
    }
    VerbsObjUnhold(held, 7);
    if (maker && maker->made) {
	q->providerData = maker->made(qp, maker->clientData);
	q->providerFree = maker->free;
    }
    if (cm) {
	q->cm = cm;
	VerbsObjRetain(&cm->obj);
    }
    /*
     * rdma_create_qp writes the CQs it made itself into b->init: a QP
     * made on an id without -send_cq keeps no CQ objects.
     */

    if (b->init.send_cq) {
	q->sendCq = b->sendCq;
    }
    if (b->init.recv_cq) {
	q->recvCq = b->recvCq;
    }
    q->srq = b->srq;
    q->xrcd = (VerbsXrcd *) b->args.xrcd;
    q->indTable = (VerbsRwqIndTable *) b->args.rwq_ind_table;
    if (cm) {
	CmIdle(q, 1);
    }
    QpRefs(q, refs);
    for (i = 0; i < QP_REFS; i++) {
	if (refs[i]) {
	    VerbsObjRetain(refs[i]);
	}
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * QpOpenCmd --
 *
 *	verbs::qp open CONTEXT -xrcd XRCD -qp_num N ?-as NAME?: open
 *	an xrc_recv QP that lives in XRCD (made by this or another process
 *	sharing the domain) by its number.  Closing the object closes this
 *	handle only; the QP stays as long as its creator keeps it.
 *
 * Results:
 *	The qp object command's name.
 *
 * Side effects:
 *	ibv_open_qp; takes a reference on the XRC domain.
 *
 *----------------------------------------------------------------------
 */

static int
QpOpenCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t qp_num;
	VerbsObj *xrcd;
    } OpenArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_REQUIRED(OpenArgs, qp_num, VF_UINT, NULL, 0xffffff,
		"qpn:the number of the xrc_recv qp to open"),
	VERBS_OPTION_REQUIRED(OpenArgs, xrcd, VF_OBJ, &verbsXrcdClass, 0,
		"xrcd:the xrc domain the qp lives in"),
	VERBS_FIELD_END
    };
    OpenArgs args = {{NULL, NULL}, 0, NULL};
    struct ibv_qp_open_attr attr;
    VerbsObj *ctxObj;
    VerbsQp *q;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    ctxObj = args.head.parent;
    if (VerbsCheckOwner(interp, "-xrcd", args.xrcd, ctxObj, "device context")
	    != TCL_OK) {
	return TCL_ERROR;
    }
    q = (VerbsQp *) VerbsObjNew(&verbsQpClass);
    memset(&attr, 0, sizeof(attr));
    attr.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD
	    | IBV_QP_OPEN_ATTR_CONTEXT | IBV_QP_OPEN_ATTR_TYPE;
    attr.qp_num = (uint32_t) args.qp_num;
    attr.xrcd = ((VerbsXrcd *) args.xrcd)->xrcd;
    attr.qp_context = q;
    attr.qp_type = IBV_QPT_XRC_RECV;
    q->qp = ibv_open_qp(((VerbsContext *) ctxObj)->ctx, &attr);
    if (q->qp == NULL) {
	ckfree(q);
	return VerbsSysError(interp, "ibv_open_qp", ctxObj, NULL, errno);
    }
    q->qpType = IBV_QPT_XRC_RECV;
    q->portNum = 1;
    q->opened = 1;
    if (VerbsObjRegister(interp, &q->obj, ctxObj, args.head.command)
	    != TCL_OK) {
	ibv_destroy_qp(q->qp);
	ckfree(q);
	return TCL_ERROR;
    }
    q->xrcd = (VerbsXrcd *) args.xrcd;
    VerbsObjRetain(args.xrcd);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsQpCmCqs, VerbsQpCheckCqs --
 *
 *	A QP made on an rdma_cm id without -send_cq (by create_qp or
 *	create_ep) has the CQs rdma_create_qp makes for it, which belong to
 *	librdmacm: VerbsQpCmCqs refuses the options that need CQ objects
 *	(-recv_cq alone, which would leave librdmacm's send CQ behind when
 *	it destroys the QP, and -srq, for whose QP it makes no receive CQ).
 *	VerbsQpCheckCqs refuses such a QP where a command polls the QP's CQ
 *	objects itself (send_burst, latency); option names the argument
 *	that gave the QP.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
VerbsQpCmCqs(
    Tcl_Interp *interp,
    int recvCq,			/* -recv_cq was given. */
    int srq)			/* -srq was given. */
{
    if (recvCq || srq) {
	const char *option = recvCq ? "-recv_cq" : "-srq";

	return VerbsArgError(interp, option, NULL, "%s needs -send_cq: "
		"without it librdmacm makes the qp's cqs itself", option);
    }
    return TCL_OK;
}

int
VerbsQpCheckCqs(
    Tcl_Interp *interp,
    VerbsQp *q,
    const char *option,
    const char *command)
{
    Tcl_Obj *name;

    if (q->sendCq != NULL || q->cm == NULL) {
	return TCL_OK;
    }
    name = VerbsObjName(&q->obj);
    Tcl_IncrRefCount(name);
    VerbsArgError(interp, option, name, "%s has no cq objects: its cqs are "
	    "librdmacm's (made by create_qp without -send_cq), which %s "
	    "cannot poll; wait with get_send_comp and get_recv_comp on its "
	    "id", Tcl_GetString(name), command);
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsQpCheckQueue --
 *
 *	Whether the QP has a send queue (send) or a receive queue of its
 *	own to post to: an xrc_recv QP has neither, an xrc_send QP no
 *	receive queue, an RSS QP receives through its WQs.  Posting to a
 *	queue that is not there is refused here, before the provider.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
VerbsQpCheckQueue(
    Tcl_Interp *interp,
    VerbsQp *q,
    int send)
{
    Tcl_Obj *name;
    const char *why;

    if (q->indTable) {
	why = "an rss qp: it receives through the wqs of its rwq_ind_table";
    } else if (q->qpType == IBV_QPT_XRC_RECV) {
	why = "an xrc_recv qp: it receives into the xrc srqs its senders "
		"name";
    } else if (q->qpType == IBV_QPT_XRC_SEND && !send) {
	why = "an xrc_send qp: it only sends, its peer receives into an xrc "
		"srq";
    } else {
	return TCL_OK;
    }
    name = VerbsObjName(&q->obj);
    Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s has no %s queue: it is %s",
	    Tcl_GetString(name), send ? "send" : "receive", why));
    Tcl_DecrRefCount(name);
    if (q->indTable) {
	name = VerbsObjName(&q->indTable->obj);
	Tcl_SetErrorCode(interp, "VERBS", "ARG", "-rwq_ind_table",
		Tcl_GetString(name), NULL);
	Tcl_DecrRefCount(name);
    } else {
	Tcl_SetErrorCode(interp, "VERBS", "ARG", "-type",
		q->qpType == IBV_QPT_XRC_RECV ? "xrc_recv" : "xrc_send", NULL);
    }
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * QpCmDefaults, VerbsQpAdopt --
 *
 *	QpCmDefaults sets the port and Q_Key a QP's defaults use: those of
 *	its rdma_cm id (a UD QP made there got its Q_Key from librdmacm,
 *	RDMA_UDP_QKEY in the udp port space, which its sends then default
 *	to), else port 1 and VERBS_DEFAULT_QKEY.  VerbsQpAdopt wraps a QP
 *	that librdmacm made itself (rdma_create_ep, rdma_get_request) in an
 *	object under pd p; q is the object preallocated as the QP's
 *	context, or NULL.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	VerbsQpAdopt creates a command (its name the interpreter's result)
 *	and takes the references on the CQs, SRQ and id.
 *
 *----------------------------------------------------------------------
 */

static void
QpCmDefaults(
    VerbsQp *q,
    VerbsCmId *cm)
{
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;

    q->portNum = (cm && cm->id->port_num) ? cm->id->port_num : 1;
    q->qkey = VERBS_DEFAULT_QKEY;
    if (cm && q->qp && q->qp->qp_type == IBV_QPT_UD
	    && ibv_query_qp(q->qp, &attr, IBV_QP_QKEY, &init) == 0) {
	q->qkey = attr.qkey;
    }
}

void
VerbsQpAdopt(
    Tcl_Interp *interp,
    VerbsQp *q,
    struct ibv_qp *qp,
    VerbsPd *p,
    VerbsCq *sendCq,
    VerbsCq *recvCq,
    VerbsSrq *srq,
    VerbsCmId *cm)
{
    VerbsObj *refs[QP_REFS];
    int i;

    if (q == NULL) {
	q = (VerbsQp *) VerbsObjNew(&verbsQpClass);
    }
    qp->qp_context = q;
    /* A generated name is always free. */
    VerbsObjRegister(interp, &q->obj, &p->obj, NULL);
    q->qp = qp;
    q->qpType = qp->qp_type;
    QpCmDefaults(q, cm);
    q->sendCq = sendCq;
    q->recvCq = recvCq;
    q->srq = srq;
    if (cm) {
	q->cm = cm;
	VerbsObjRetain(&cm->obj);
	CmIdle(q, 1);
    }
    QpRefs(q, refs);
    for (i = 0; i < QP_REFS; i++) {
	if (refs[i]) {
	    VerbsObjRetain(refs[i]);
	}
    }
}

/*
 *----------------------------------------------------------------------
 *
 * ModifyWith --
 *
 *	Apply a caller's attribute dict on top of defaults already in
 *	*attr/mask, and call ibv_modify_qp.  An ah_attr with a grh but no
 *	is_global is global; its port_num defaults to the QP's port.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	ibv_modify_qp; remembers the port given.
 *
 *----------------------------------------------------------------------
 */

static int
ModifyWith(
    Tcl_Interp *interp,
    VerbsQp *q,
    struct ibv_qp_attr *attr,
    uint64_t mask,
    Tcl_Obj *dictObj,
    const char *what)
{
    int err;

    attr->ah_attr.port_num = q->portNum;
    attr->alt_ah_attr.port_num = q->portNum;
    if (dictObj) {
	if (VerbsDictToStruct(interp, &verbsQpAttrStruct, "attributes",
		dictObj, attr,
		&mask) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    err = ibv_modify_qp(q->qp, attr, (int) mask);
    if (err) {
	return VerbsSysError(interp, "ibv_modify_qp", &q->obj, what, err);
    }
    if (mask & IBV_QP_PORT) {
	q->portNum = attr->port_num;
    }
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * QpModify, QpToInit, QpToRtr, QpToRts --
 *
 *	$qp modify DICT: exactly the attributes given.
 *	$qp to_init|to_rtr|to_rts ?DICT?: the state transition with the
 *	defaults an RC/UC/UD connection usually wants, overridden by DICT.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	ibv_modify_qp.
 *
 *----------------------------------------------------------------------
 */

static int
QpModify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    struct ibv_qp_attr attr;

    memset(&attr, 0, sizeof(attr));
    return ModifyWith(interp, (VerbsQp *) objPtr, &attr, 0, objv[2],
	    "modify");
}

static int
QpToInit(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsQp *q = (VerbsQp *) objPtr;
    struct ibv_qp_attr attr;
    uint64_t mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

    memset(&attr, 0, sizeof(attr));
    attr.qp_state = IBV_QPS_INIT;
    attr.port_num = q->portNum;
    switch (q->qpType) {
    case IBV_QPT_UD:
	attr.qkey = q->qkey;
	mask |= IBV_QP_QKEY;
	break;
    case IBV_QPT_RC:
    case IBV_QPT_XRC_SEND:
    case IBV_QPT_XRC_RECV:
	attr.qp_access_flags = IBV_ACCESS_LOCAL_WRITE
		| IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ
		| IBV_ACCESS_REMOTE_ATOMIC;
	mask |= IBV_QP_ACCESS_FLAGS;
	break;
    case IBV_QPT_UC:
	/* UC has no responder reads or atomics. */
	attr.qp_access_flags = IBV_ACCESS_LOCAL_WRITE
		| IBV_ACCESS_REMOTE_WRITE;
	mask |= IBV_QP_ACCESS_FLAGS;
	break;
    default:
	/* Raw packet QPs take a port only. */
	mask = IBV_QP_STATE | IBV_QP_PORT;
	break;
    }
    return ModifyWith(interp, q, &attr, mask, objc > 2 ? objv[2] : NULL,
	    "init");
}

static int
QpToRtr(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsQp *q = (VerbsQp *) objPtr;
    struct ibv_qp_attr attr;
    uint64_t mask = IBV_QP_STATE;

    memset(&attr, 0, sizeof(attr));
    attr.qp_state = IBV_QPS_RTR;
    if (q->qpType != IBV_QPT_UD && q->qpType != IBV_QPT_RAW_PACKET) {
	attr.path_mtu = IBV_MTU_1024;
	attr.rq_psn = 0;
	mask |= IBV_QP_PATH_MTU | IBV_QP_RQ_PSN;
    }
    if (q->qpType == IBV_QPT_RC || q->qpType == IBV_QPT_XRC_RECV) {
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 12;
	mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
    }
    return ModifyWith(interp, q, &attr, mask, objc > 2 ? objv[2] : NULL,
	    "rtr");
}

static int
QpToRts(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsQp *q = (VerbsQp *) objPtr;
    struct ibv_qp_attr attr;
    uint64_t mask = IBV_QP_STATE;

    memset(&attr, 0, sizeof(attr));
    attr.qp_state = IBV_QPS_RTS;
    if (q->qpType != IBV_QPT_RAW_PACKET) {
	attr.sq_psn = 0;
	mask |= IBV_QP_SQ_PSN;
    }
    if (q->qpType == IBV_QPT_RC || q->qpType == IBV_QPT_XRC_SEND) {
	/*
	 * Six transport retries, not seven: rxe counts a retry_cnt of 7
	 * as "retry for ever" (the specification gives 7 that meaning for
	 * rnr_retry alone), so a dead peer would never complete there.
	 * With 6 it ends in retry_exc_err on every device (doc/verbs.n,
	 * FAULTS).
	 */
	attr.retry_cnt = 6;
	attr.rnr_retry = 7;
	attr.max_rd_atomic = 1;
	mask |= IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
    }
    if (q->qpType == IBV_QPT_RC || q->qpType == IBV_QPT_XRC_SEND
	    || q->qpType == IBV_QPT_XRC_RECV) {
	/* An XRC target takes a timeout and sq_psn only. */
	attr.timeout = 14;
	mask |= IBV_QP_TIMEOUT;
    }
    return ModifyWith(interp, q, &attr, mask, objc > 2 ? objv[2] : NULL,
	    "rts");
}

/*
 *----------------------------------------------------------------------
 *
 * QpQuery --
 *
 *	$qp query: every ibv_qp_attr field, plus qp_type and sq_sig_all
 *	from the init attributes.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
QpQuery(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    VerbsQp *q = (VerbsQp *) objPtr;
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;
    Tcl_Obj *dict;
    int err;

    memset(&attr, 0, sizeof(attr));
    memset(&init, 0, sizeof(init));
    err = ibv_query_qp(q->qp, &attr, QUERY_MASK, &init);
    if (err) {
	return VerbsSysError(interp, "ibv_query_qp", objPtr, NULL, err);
    }
    dict = VerbsStructToDict(&verbsQpAttrStruct, &attr);
    Tcl_DictObjPut(NULL, dict, Tcl_NewStringObj("qp_type", -1),
	    VerbsEnumObj(verbsQpTypes, init.qp_type));
    Tcl_DictObjPut(NULL, dict, Tcl_NewStringObj("sq_sig_all", -1),
	    Tcl_NewIntObj(init.sq_sig_all));
    Tcl_SetObjResult(interp, dict);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * InsideSomeMr --
 *
 *	Whether [addr, addr+len) lies inside the buffer of a live MR of the
 *	interpreter.  A raw {addr A length L lkey K} SGE must, since the
 *	provider copies inline data from it without looking.
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
InsideSomeMr(
    Tcl_Interp *interp,
    uint64_t addr,
    uint64_t len,
    int host)			/* Only MRs with a host buffer count. */
{
    VerbsState *statePtr = VerbsGetState(interp);
    VerbsObj *o;

    for (o = statePtr->live; o; o = o->nextLive) {
	statePtr->work++;
	if (o->typePtr == &verbsMrClass) {
	    VerbsMr *m = (VerbsMr *) o;
	    uint64_t start = (uintptr_t) m->buf;

	    if (host && m->buf == NULL) {
		continue;
	    }
	    if (addr >= start && addr - start <= m->length
		    && len <= m->length - (addr - start)) {
		return 1;
	    }
	}
    }
    return 0;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsNotHostError --
 *
 *	Inline data (and an atomic_write's 8 bytes) is copied by the CPU
 *	(the provider's post or this package's wr_post) from each SGE's
 *	address, so such an SGE must lie in the host buffer of a live MR of
 *	the interpreter (VerbsParseSgList and VerbsMrHost tell).  The
 *	addresses of an MR registered with -iova, of a device memory,
 *	imported or null MR, and of a provider's indirect key (an mkey) are
 *	the device's alone: copying from one would read wherever that
 *	number points in this process.  This is the error that says so of
 *	SGE index.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the interp's result and errorCode.
 *
 *----------------------------------------------------------------------
 */

int
VerbsNotHostError(
    Tcl_Interp *interp,
    const char *key,		/* The option or key in errors. */
    int index,
    const struct ibv_sge *sge)
{
    return VerbsArgError(interp, key, NULL, "sge %d (address 0x%llx, %u "
	    "bytes) is not in the host buffer of a memory region of this "
	    "interpreter: the CPU copies inline data and an atomic_write's 8 "
	    "bytes (an MR made with -iova, a device memory, imported or null "
	    "MR, or an mkey, is read by the device alone)", index,
	    (unsigned long long) sge->addr, sge->length);
}

/*
 * The keys of work request dicts, read into records by VerbsDictToStruct.
 * The ud, rdma and atomic members of ibv_send_wr share a union, so the
 * send keys go into a record first and then where the opcode and the QP
 * type say.
 */

typedef struct SendWrArgs {
    VerbsObj *ah;
    Tcl_Obj *bind_info;
    uint64_t compare_add;
    uint64_t flush_level, flush_type;
    Tcl_Obj *hdr;
    uint32_t imm_data, invalidate_rkey;
    uint64_t length;
    uint32_t mss;
    VerbsObj *mw;
    uint64_t opcode, remote_addr;
    uint32_t remote_qkey, remote_qpn, remote_srqn, rkey;
    uint64_t send_flags;
    Tcl_Obj *sg_list;
    uint64_t swap, wr_id;
} SendWrArgs;

#define WR_UD_KEY 1		/* The "mask" of remote_qpn, remote_qkey. */
#define WR_XRC_KEY 2		/* The "mask" of remote_srqn. */
#define WR_HDR_KEY 4		/* The "masks" of hdr and mss, */
#define WR_MSS_KEY 8		/* the keys of tso alone. */
#define WR_FIELD(f, kind, table) \
    VERBS_FIELD(SendWrArgs, f, kind, table, 0, 0)
#define WR_QPN(f, mask) \
    VERBS_FIELD_MAX(SendWrArgs, f, VF_UINT, mask, 0xffffff) /* 24 bits. */

static const VerbsField sendWrFields[] = {
    WR_FIELD(ah, VF_OBJ, &verbsAhClass),
    WR_FIELD(bind_info, VF_TCLOBJ, NULL),
    WR_FIELD(compare_add, VF_UINT, NULL),
    WR_FIELD(flush_level, VF_ENUM, flushLevels),
    WR_FIELD(flush_type, VF_FLAGS, flushTypes),
    VERBS_FIELD(SendWrArgs, hdr, VF_TCLOBJ, NULL, WR_HDR_KEY, 0),
    WR_FIELD(imm_data, VF_UINT, NULL),
    WR_FIELD(invalidate_rkey, VF_UINT, NULL),
    WR_FIELD(length, VF_UINT, NULL),
    VERBS_FIELD_MAX(SendWrArgs, mss, VF_UINT, WR_MSS_KEY, UINT16_MAX),
    WR_FIELD(mw, VF_OBJ, &verbsMwClass),
    WR_FIELD(opcode, VF_ENUM, verbsWrOpcode),
    WR_FIELD(remote_addr, VF_UINT, NULL),
    VERBS_FIELD(SendWrArgs, remote_qkey, VF_UINT, NULL, WR_UD_KEY, 0),
    WR_QPN(remote_qpn, WR_UD_KEY),
    WR_QPN(remote_srqn, WR_XRC_KEY),
    WR_FIELD(rkey, VF_UINT, NULL),
    WR_FIELD(send_flags, VF_FLAGS, verbsSendFlags),
    WR_FIELD(sg_list, VF_TCLOBJ, NULL),
    WR_FIELD(swap, VF_UINT, NULL),
    WR_FIELD(wr_id, VF_UINT, NULL),
    VERBS_FIELD_END
};

static const VerbsStruct sendWrStruct = {"send wr key", sendWrFields};

typedef struct RecvWrArgs {
    Tcl_Obj *sg_list;
    uint64_t wr_id;
} RecvWrArgs;

static const VerbsField recvWrFields[] = {
    VERBS_FIELD(RecvWrArgs, sg_list, VF_TCLOBJ, NULL, 0, 0),
    VERBS_FIELD(RecvWrArgs, wr_id, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};

static const VerbsStruct recvWrStruct = {"recv wr key", recvWrFields};

static const VerbsField sgeFields[] = {
    VERBS_FIELD(struct ibv_sge, addr, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct ibv_sge, length, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct ibv_sge, lkey, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};

static const VerbsStruct sgeStruct = {"sge key", sgeFields};

/*
 *----------------------------------------------------------------------
 *
 * VerbsParseSgList --
 *
 *	A work request's sg_list: each element {MR OFFSET LENGTH} (checked
 *	against the MR's bounds; or a provider's key, VerbsMrSge) or a dict
 *	{addr A length L lkey K}.  With nonHostPtr, also which SGE is the
 *	first whose bytes the CPU may not read (VerbsNotHostError), known
 *	as each is parsed.
 *
 * Results:
 *	A standard Tcl result; *sgePtr is a ckalloc'ed array (NULL when
 *	the list is empty) the caller frees; *nonHostPtr that SGE's index,
 *	or -1.
 *
 * Side effects:
 *	Allocates.
 *
 *----------------------------------------------------------------------
 */

int
VerbsParseSgList(
    Tcl_Interp *interp,
    Tcl_Obj *listObj,
    struct ibv_sge **sgePtr,
    int *numPtr,
    int *nonHostPtr)		/* Or NULL. */
{
    Tcl_Obj **elems, **parts;
    Tcl_Size n, i, nparts;
    struct ibv_sge *sge;
    int host;

    *sgePtr = NULL;
    *numPtr = 0;
    if (nonHostPtr) {
	*nonHostPtr = -1;
    }
    if (Tcl_ListObjGetElements(NULL, listObj, &n, &elems) != TCL_OK) {
	return VerbsArgError(interp, "sg_list", listObj,
		"bad sg_list \"%s\": must be a list of {mr offset length}",
		Tcl_GetString(listObj));
    }
    if (n == 0) {
	return TCL_OK;
    }
    sge = (struct ibv_sge *) ckalloc(n * sizeof(struct ibv_sge));
    for (i = 0; i < n; i++) {
	if (Tcl_ListObjGetElements(NULL, elems[i], &nparts, &parts)
		!= TCL_OK) {
	    nparts = -1;
	}
	if (nparts == 3) {
	    VerbsMr *m;

	    if (VerbsMrSge(interp, parts, &sge[i], &m, 1) != TCL_OK) {
		goto error;
	    }
	    host = m && VerbsMrHost(m);
	} else if (nparts == 6) {
	    struct ibv_sge d = {0, 0, 0};

	    if (VerbsDictToStruct(interp, &sgeStruct, "sge", elems[i], &d,
		    NULL) != TCL_OK) {
		goto error;
	    }
	    if (!InsideSomeMr(interp, d.addr, d.length, 0)) {
		VerbsArgError(interp, "sg_list", elems[i], "bad sge \"%s\": "
			"no memory region of this interpreter holds that range",
			Tcl_GetString(elems[i]));
		goto error;
	    }
	    sge[i] = d;
	    host = nonHostPtr == NULL
		    || InsideSomeMr(interp, d.addr, d.length, 1);
	} else {
	    VerbsArgError(interp, "sg_list", elems[i],
		    "bad sge \"%s\": must be {mr offset length} or "
		    "{addr A length L lkey K}", Tcl_GetString(elems[i]));
	    goto error;
	}
	if (nonHostPtr && *nonHostPtr < 0 && !host && sge[i].length > 0) {
	    *nonHostPtr = (int) i;
	}
    }
    *sgePtr = sge;
    *numPtr = n;
    return TCL_OK;

  error:
    ckfree(sge);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * WrPostOnly --
 *
 *	Refuse an opcode that only wr_post builds (flush, tso): an
 *	ibv_send_wr has no room for a flush's length, type and level, and
 *	a tso's header is read when its ibv_wr_send_tso is called.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the result and errorCode {VERBS ARG opcode NAME}.
 *
 *----------------------------------------------------------------------
 */

static int
WrPostOnly(
    Tcl_Interp *interp,
    enum ibv_wr_opcode opcode)
{
    Tcl_Obj *name = VerbsEnumObj(verbsWrOpcode, opcode);

    VerbsArgError(interp, "opcode", name, "opcode %s is posted with "
	    "wr_post (%s)", Tcl_GetString(name), opcode == IBV_WR_TSO
	    ? "ibv_wr_send_tso" : "ibv_wr_flush");
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsCheckSendWr --
 *
 *	Check that a send work request fits its QP before it reaches the
 *	provider, which trusts it: the opcode is one an ibv_send_wr can
 *	carry (not flush or tso), a UD QP sends only SENDs and needs an
 *	address handle of its own PD, and other QPs take no UD addressing.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
VerbsCheckSendWr(
    Tcl_Interp *interp,
    VerbsQp *q,
    enum ibv_wr_opcode opcode,
    VerbsAh *ah,
    int udKeys)
{
    Tcl_Obj *name;

    if (opcode == IBV_WR_TSO || (int) opcode == VERBS_WR_FLUSH) {
	return WrPostOnly(interp, opcode);
    }
    if (q->qpType != IBV_QPT_UD) {
	if (ah || udKeys) {
	    return VerbsArgError(interp, "ah", NULL,
		    "ah, remote_qpn and remote_qkey are for ud qps");
	}
	return TCL_OK;
    }
    if (opcode != IBV_WR_SEND && opcode != IBV_WR_SEND_WITH_IMM) {
	name = VerbsEnumObj(verbsWrOpcode, opcode);
	VerbsArgError(interp, "opcode", name,
		"a ud qp sends only send and send_with_imm, not %s",
		Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    if (ah == NULL) {
	return VerbsArgError(interp, "ah", NULL,
		"a ud send needs ah, the address handle of its destination");
    }
    if (ah->obj.parent != q->obj.parent) {
	name = VerbsObjName(&ah->obj);
	VerbsArgError(interp, "ah", name, "ah \"%s\" is on another pd",
		Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * UnboundWindow --
 *
 *	Whether RKEY is the rkey of a memory window of this interpreter
 *	that was never bound.  Invalidating one oopses rxe in Debian 12's
 *	kernel (and means nothing anyway), so it is refused.
 *
 * Results:
 *	1 with an error in interp, or 0.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
UnboundWindow(
    Tcl_Interp *interp,
    uint32_t rkey)
{
    VerbsState *statePtr = VerbsGetState(interp);
    VerbsObj *o;

    for (o = statePtr->live; o; o = o->nextLive) {
	statePtr->work++;
	if (o->typePtr == &verbsMwClass && ((VerbsMw *) o)->mw->rkey == rkey
		&& ((VerbsMw *) o)->boundMr == NULL) {
	    Tcl_Obj *name = VerbsObjName(o), *value = Tcl_NewWideIntObj(rkey);

	    Tcl_IncrRefCount(value);
	    VerbsArgError(interp, "invalidate_rkey", value, "memory window %s "
		    "was never bound: nothing to invalidate",
		    Tcl_GetString(name));
	    Tcl_DecrRefCount(value);
	    Tcl_DecrRefCount(name);
	    return 1;
	}
    }
    return 0;
}

/*
 *----------------------------------------------------------------------
 *
 * SendWrXrc, SendWrBind, SendWrTso, ParseSendWr, ParseRecvWr --
 *
 *	One work request dict into its struct.  Send keys: wr_id opcode
 *	send_flags sg_list imm_data remote_addr rkey compare_add swap ah
 *	remote_qpn remote_qkey invalidate_rkey remote_srqn length
 *	flush_type flush_level mw bind_info hdr mss.  Receive keys: wr_id
 *	sg_list.  SendWrXrc: remote_srqn, which an xrc_send request needs
 *	and no other takes.  SendWrBind: a bind_mw request's window and
 *	bind_info.  SendWrTso: a tso request's hdr (a byte string of at
 *	most 65535 bytes, kept as the value for WrBuild) and mss, which it
 *	needs and no other takes, on a ud or raw_packet QP.
 *
 * Results:
 *	A standard Tcl result; the SGE array is stored in the WR and freed
 *	by the caller (also on error).
 *
 * Side effects:
 *	Allocates.
 *
 *----------------------------------------------------------------------
 */

static int
SendWrXrc(
    Tcl_Interp *interp,
    VerbsQp *q,
    struct ibv_send_wr *wr,
    uint32_t remoteSrqn,
    int given)			/* remote_srqn was given. */
{
    if (q->qpType == IBV_QPT_XRC_SEND && wr->opcode != IBV_WR_LOCAL_INV
	    && wr->opcode != IBV_WR_BIND_MW) {
	if (!given) {
	    return VerbsArgError(interp, "remote_srqn", NULL, "an xrc_send "
		    "work request needs remote_srqn, the srq_num of the xrc "
		    "srq it goes to");
	}
	wr->qp_type.xrc.remote_srqn = remoteSrqn;
    } else if (given) {
	return VerbsArgError(interp, "remote_srqn", NULL,
		"remote_srqn is for the sends of xrc_send qps");
    }
    return TCL_OK;
}

static int
SendWrBind(
    Tcl_Interp *interp,
    struct ibv_send_wr *wr,
    Tcl_Obj *bindInfo,
    MwBind *bind)
{
    if (bind->mw == NULL || bindInfo == NULL) {
	return VerbsArgError(interp, "mw", NULL,
		"opcode bind_mw needs mw and bind_info");
    }
    if (bind->mw->mw->type != IBV_MW_TYPE_2) {
	return VerbsArgError(interp, "mw", NULL, "a bind_mw work request "
		"binds type 2 windows: bind a type 1 window with $qp bind_mw");
    }
    if (VerbsParseBindInfo(interp, bindInfo, &wr->bind_mw.bind_info,
	    &bind->mr) != TCL_OK
	    || VerbsCheckBind(interp, bind->mw, bind->mr) != TCL_OK) {
	return TCL_ERROR;
    }
    wr->bind_mw.mw = bind->mw->mw;
    wr->bind_mw.rkey = ibv_inc_rkey(bind->mw->mw->rkey);
    return TCL_OK;
}

static int
SendWrTso(
    Tcl_Interp *interp,
    VerbsQp *q,
    struct ibv_send_wr *wr,
    const SendWrArgs *a,
    uint64_t given,
    MwBind *bind)
{
    Tcl_Size n;

    if (wr->opcode != IBV_WR_TSO) {
	if (given & (WR_HDR_KEY | WR_MSS_KEY)) {
	    return VerbsArgError(interp, (given & WR_HDR_KEY) ? "hdr"
		    : "mss", NULL, "hdr and mss are for opcode tso");
	}
	return TCL_OK;
    }
    if (q->qpType != IBV_QPT_UD && q->qpType != IBV_QPT_RAW_PACKET) {
	Tcl_Obj *name = VerbsEnumObj(verbsWrOpcode, wr->opcode);

	VerbsArgError(interp, "opcode", name, "opcode tso is for ud and "
		"raw_packet qps");
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    if ((given & (WR_HDR_KEY | WR_MSS_KEY)) != (WR_HDR_KEY | WR_MSS_KEY)) {
	return VerbsArgError(interp, (given & WR_HDR_KEY) ? "mss" : "hdr",
		NULL, "opcode tso needs hdr, the headers each segment "
		"starts with, and mss, the segment size");
    }
    if (VerbsGetBytes(interp, "hdr", a->hdr, &n) == NULL) {
	return TCL_ERROR;
    }
    if (n > UINT16_MAX) {
	return VerbsArgError(interp, "hdr", NULL, "bad hdr: %"
		TCL_SIZE_MODIFIER "d bytes, must be at most %d", n,
		UINT16_MAX);
    }
    bind->tsoHdr = a->hdr;
    wr->tso.hdr = NULL;		/* Its bytes are taken in WrBuild. */
    wr->tso.hdr_sz = (uint16_t) n;
    wr->tso.mss = (uint16_t) a->mss;
    return TCL_OK;
}

static int
ParseSendWr(
    Tcl_Interp *interp,
    VerbsQp *q,
    Tcl_Obj *dictObj,
    struct ibv_send_wr *wr,
    MwBind *bind)
{
    SendWrArgs a;
    uint64_t given = 0;
    VerbsAh *ah;
    int nonHost = -1;

    memset(wr, 0, sizeof(*wr));
    memset(&a, 0, sizeof(a));
    a.opcode = IBV_WR_SEND;
    a.remote_qkey = q->qkey;
    a.flush_type = VERBS_FLUSH_GLOBAL;
    a.flush_level = VERBS_FLUSH_RANGE;
    if (VerbsDictToStruct(interp, &sendWrStruct, "wr", dictObj, &a, &given)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    ah = (VerbsAh *) a.ah;
    bind->mw = (VerbsMw *) a.mw;
    wr->wr_id = a.wr_id;
    wr->opcode = (enum ibv_wr_opcode) a.opcode;
    wr->send_flags = (unsigned) a.send_flags;
    /* imm_data and invalidate_rkey share a union too. */
    if (wr->opcode == IBV_WR_LOCAL_INV || wr->opcode == IBV_WR_SEND_WITH_INV) {
	wr->invalidate_rkey = a.invalidate_rkey;
    } else {
	wr->imm_data = htonl(a.imm_data);
    }
    if (a.sg_list && VerbsParseSgList(interp, a.sg_list, &wr->sg_list,
	    &wr->num_sge, &nonHost) != TCL_OK) {
	return TCL_ERROR;
    }
    if (nonHost >= 0 && ((wr->send_flags & IBV_SEND_INLINE)
	    || wr->opcode == IBV_WR_ATOMIC_WRITE)) {
	/* The CPU copies these bytes: from an MR's host buffer only. */
	return VerbsNotHostError(interp, "sg_list", nonHost,
		&wr->sg_list[nonHost]);
    }

    if ((int) wr->opcode == VERBS_WR_FLUSH) {
	/*
	 * A flush (wr_post only) carries no data: the responder makes the
	 * range (or, with flush_level mr, the whole MR) under rkey
	 * visible (global) or persistent.
	 */

	if (q->qpType != IBV_QPT_RC && q->qpType != IBV_QPT_XRC_SEND) {
	    return VerbsArgError(interp, "opcode", NULL, "opcode flush is "
		    "for rc and xrc_send qps");
	}
	wr->wr.rdma.remote_addr = a.remote_addr;
	wr->wr.rdma.rkey = a.rkey;
	bind->flushLength = a.length;
	bind->flushType = (uint8_t) a.flush_type;
	bind->flushLevel = (uint8_t) a.flush_level;
	return TCL_OK;
    }
    if (SendWrTso(interp, q, wr, &a, given, bind) != TCL_OK
	    || VerbsCheckSendWr(interp, q, wr->opcode == IBV_WR_TSO
	    ? IBV_WR_SEND : wr->opcode, ah, (given & WR_UD_KEY) != 0)
	    != TCL_OK
	    || SendWrXrc(interp, q, wr, a.remote_srqn,
	    (given & WR_XRC_KEY) != 0) != TCL_OK) {
	return TCL_ERROR;
    }

    /*
     * The ud, rdma and atomic members share a union: fill the one the QP
     * type and opcode use.
     */

    if ((wr->opcode == IBV_WR_LOCAL_INV || wr->opcode == IBV_WR_SEND_WITH_INV)
	    && UnboundWindow(interp, wr->invalidate_rkey)) {
	return TCL_ERROR;
    }
    if (wr->opcode == IBV_WR_BIND_MW) {
	return SendWrBind(interp, wr, a.bind_info, bind);
    } else if (q->qpType == IBV_QPT_UD) {
	wr->wr.ud.ah = ah->ah;
	wr->wr.ud.remote_qpn = a.remote_qpn;
	wr->wr.ud.remote_qkey = a.remote_qkey;
    } else if (wr->opcode == IBV_WR_ATOMIC_CMP_AND_SWP
	    || wr->opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
	wr->wr.atomic.remote_addr = a.remote_addr;
	wr->wr.atomic.rkey = a.rkey;
	wr->wr.atomic.compare_add = a.compare_add;
	wr->wr.atomic.swap = a.swap;
    } else {
	wr->wr.rdma.remote_addr = a.remote_addr;
	wr->wr.rdma.rkey = a.rkey;
    }
    return TCL_OK;
}

static int
ParseRecvWr(
    Tcl_Interp *interp,
    Tcl_Obj *dictObj,
    struct ibv_recv_wr *wr)
{
    RecvWrArgs a = {NULL, 0};

    memset(wr, 0, sizeof(*wr));
    if (VerbsDictToStruct(interp, &recvWrStruct, "wr", dictObj, &a, NULL)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    wr->wr_id = a.wr_id;
    if (a.sg_list) {
	return VerbsParseSgList(interp, a.sg_list, &wr->sg_list,
		&wr->num_sge, NULL);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * QpPostSend, QpPostRecv --
 *
 *	$qp post_send WR ?WR ...?, $qp post_recv WR ?WR ...?: the work
 *	requests, chained, in one ibv_post_send/ibv_post_recv.
 *
 * Results:
 *	A standard Tcl result; a failing post names the index of the
 *	first work request that was not posted.
 *
 * Side effects:
 *	Posts work requests.
 *
 *----------------------------------------------------------------------
 */

static int
PostFailed(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    const char *call,
    long badIndex,
    int err)
{
    char what[32];

    snprintf(what, sizeof(what), "wr %ld", badIndex);
    return VerbsSysError(interp, call, objPtr, what, err);
}

/*
 *----------------------------------------------------------------------
 *
 * ParseSendWrs, FinishSendWrs --
 *
 *	Parse N send work request dicts into the chained array WRS (with
 *	the objects of any bind_mw in BINDS), and afterwards apply the
 *	binds of the first POSTED requests and free what the parse
 *	allocated.  A value parsed before for the same QP is not parsed
 *	again (verbsCache.c); a freshly parsed one keeps its parsed form,
 *	unless it binds or invalidates.  When every request came from a
 *	cache (*cachedPtr), there is nothing to apply or free, and a
 *	re-posted list costs no allocation: the caller's arrays are on its
 *	stack up to POST_STACK requests.
 *
 * Results:
 *	ParseSendWrs: a standard Tcl result; on error the arrays are left
 *	for FinishSendWrs to clean.
 *
 * Side effects:
 *	Allocation; FinishSendWrs moves window references.
 *
 *----------------------------------------------------------------------
 */

static inline int
Cacheable(
    enum ibv_wr_opcode opcode)
{
    /*
     * What these check reads memory window state, which the cache's
     * epoch does not cover; a flush keeps its length, type and level
     * beside the ibv_send_wr, and a tso its hdr, where the cache does
     * not.
     */

    return opcode != IBV_WR_BIND_MW && opcode != IBV_WR_LOCAL_INV
	    && opcode != IBV_WR_SEND_WITH_INV && (int) opcode != VERBS_WR_FLUSH
	    && opcode != IBV_WR_TSO;
}

#define POST_STACK 16	/* Work requests a post keeps on the stack. */

static int
ParseSendWrs(
    Tcl_Interp *interp,
    VerbsQp *q,
    int n,
    Tcl_Obj *const wrObjs[],
    struct ibv_send_wr *wrs,
    MwBind *binds,
    int *cachedPtr)
{
    int i;

    *cachedPtr = 1;
    for (i = 0; i < n; i++) {
	const struct ibv_send_wr *c;

	if (wrObjs[i] == NULL) {
	    /* A provider's own (VerbsQpWrPost). */
	    memset(&wrs[i], 0, sizeof(*wrs));
	    memset(&binds[i], 0, sizeof(MwBind));
	    binds[i].cached = 1;
	    continue;
	}
	c = VerbsSendWrCached(interp, q, wrObjs[i]);
	if (c != NULL) {
	    wrs[i] = *c;
	    binds[i].cached = 1;
	} else {
	    *cachedPtr = 0;
	    memset(&binds[i], 0, sizeof(MwBind));
	    if (ParseSendWr(interp, q, wrObjs[i], &wrs[i], &binds[i])
		    != TCL_OK) {
		/* FinishSendWrs frees what the first i + 1 hold. */
		memset(wrs + i + 1, 0, (n - i - 1) * sizeof(*wrs));
		return TCL_ERROR;
	    }
	    if (Cacheable(wrs[i].opcode)) {
		VerbsSendWrCache(interp, q, wrObjs[i], &wrs[i]);
	    }
	}
	wrs[i].next = (i + 1 < n) ? &wrs[i + 1] : NULL;
    }
    return TCL_OK;
}

static void
FinishSendWrs(
    struct ibv_send_wr *wrs,
    MwBind *binds,
    int n,
    int posted)
{
    int i;

    /*
     * A posted type 2 bind gives the window its new rkey and MR.
     */

    for (i = 0; i < posted; i++) {
	if (wrs[i].opcode == IBV_WR_BIND_MW) {
	    binds[i].mw->mw->rkey = wrs[i].bind_mw.rkey;
	    VerbsMwBound(binds[i].mw, binds[i].mr);
	}
    }
    for (i = 0; i < n; i++) {
	if (wrs[i].sg_list && !binds[i].cached) {
	    ckfree(wrs[i].sg_list);
	}
    }
}

/*
 *----------------------------------------------------------------------
 *
 * WrPostOnlyIn --
 *
 *	Refuse, for ibv_post_send, the work requests that only wr_post
 *	builds: flush and tso (WrPostOnly).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
WrPostOnlyIn(
    Tcl_Interp *interp,
    struct ibv_send_wr *wrs,
    int n)
{
    int i;

    for (i = 0; i < n; i++) {
	if ((int) wrs[i].opcode == VERBS_WR_FLUSH
		|| wrs[i].opcode == IBV_WR_TSO) {
	    return WrPostOnly(interp, wrs[i].opcode);
	}
    }
    return TCL_OK;
}

static int
QpPostSend(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    int n = objc - 2, err, posted = 0, result = TCL_ERROR, cached;
    struct ibv_send_wr wrSpace[POST_STACK], *wrs = wrSpace, *bad = NULL;
    MwBind bindSpace[POST_STACK], *binds = bindSpace;

    if (n == 1) {
	/*
	 * One work request posted before to this QP: its parsed form, on
	 * the stack (it was checked against the queue then).
	 */

	const struct ibv_send_wr *c = VerbsSendWrCached(interp,
		(VerbsQp *) objPtr, objv[2]);

	if (c != NULL) {
	    struct ibv_send_wr wr = *c;

	    err = ibv_post_send(((VerbsQp *) objPtr)->qp, &wr, &bad);
	    return err ? PostFailed(interp, objPtr, "ibv_post_send", 0, err)
		    : TCL_OK;
	}
    }
    if (VerbsQpCheckQueue(interp, (VerbsQp *) objPtr, 1) != TCL_OK) {
	return TCL_ERROR;
    }
    if (n > POST_STACK) {
	wrs = (struct ibv_send_wr *) ckalloc(n * sizeof(*wrs));
	binds = (MwBind *) ckalloc(n * sizeof(*binds));
    }
    if (ParseSendWrs(interp, (VerbsQp *) objPtr, n, objv + 2, wrs, binds,
	    &cached) == TCL_OK && WrPostOnlyIn(interp, wrs, n) == TCL_OK) {
	err = ibv_post_send(((VerbsQp *) objPtr)->qp, wrs, &bad);
	posted = err ? (bad ? (int) (bad - wrs) : 0) : n;
	result = err ? PostFailed(interp, objPtr, "ibv_post_send", posted,
		err) : TCL_OK;
    }
    if (!cached) {
	FinishSendWrs(wrs, binds, n, posted);
    }
    if (wrs != wrSpace) {
	ckfree(wrs);
	ckfree(binds);
    }
    return result;
}

static int
PostToQp(
    void *target,
    struct ibv_recv_wr *wrs,
    struct ibv_recv_wr **bad)
{
    return ibv_post_recv((struct ibv_qp *) target, wrs, bad);
}

static int
QpPostRecv(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    if (VerbsQpCheckQueue(interp, (VerbsQp *) objPtr, 0) != TCL_OK) {
	return TCL_ERROR;
    }
    return VerbsPostRecv(interp, objPtr, objc - 2, objv + 2, PostToQp,
	    ((VerbsQp *) objPtr)->qp, "ibv_post_recv");
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsPostRecv --
 *
 *	Parse receive work request dicts and post them, chained, with one
 *	call of post (ibv_post_recv on a QP, ibv_post_srq_recv on an SRQ).
 *	A value parsed before is not parsed again, a fresh one keeps its
 *	parsed form (verbsCache.c).
 *
 * Results:
 *	A standard Tcl result; a failing post names the index of the
 *	first work request that was not posted.
 *
 * Side effects:
 *	Posts work requests.
 *
 *----------------------------------------------------------------------
 */

int
VerbsPostRecv(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int n,
    Tcl_Obj *const wrObjs[],
    VerbsRecvPostProc *post,
    void *target,
    const char *call)
{
    int i, err, result = TCL_ERROR, all = 1;
    struct ibv_recv_wr wrSpace[POST_STACK], *wrs = wrSpace, *bad = NULL;
    const struct ibv_recv_wr *c;
    char cachedSpace[POST_STACK], *cached = cachedSpace;

    if (n == 1 && (c = VerbsRecvWrCached(interp, wrObjs[0])) != NULL) {
	struct ibv_recv_wr wr = *c;

	err = post(target, &wr, &bad);
	return err ? PostFailed(interp, objPtr, call, 0, err) : TCL_OK;
    }
    if (n > POST_STACK) {
	wrs = (struct ibv_recv_wr *) ckalloc(n * sizeof(*wrs));
	cached = ckalloc(n);
    }
    for (i = 0; i < n; i++) {
	if ((c = VerbsRecvWrCached(interp, wrObjs[i])) != NULL) {
	    wrs[i] = *c;
	    cached[i] = 1;
	} else {
	    all = 0;
	    cached[i] = 0;
	    if (ParseRecvWr(interp, wrObjs[i], &wrs[i]) != TCL_OK) {
		/* The clean-up below frees what the first i + 1 hold. */
		memset(wrs + i + 1, 0, (n - i - 1) * sizeof(*wrs));
		memset(cached + i + 1, 1, n - i - 1);
		goto done;
	    }
	    VerbsRecvWrCache(interp, wrObjs[i], &wrs[i]);
	}
	wrs[i].next = (i + 1 < n) ? &wrs[i + 1] : NULL;
    }
    err = post(target, wrs, &bad);
    result = err ? PostFailed(interp, objPtr, call, bad ? bad - wrs : 0,
	    err) : TCL_OK;
  done:
    for (i = 0; !all && i < n; i++) {
	if (wrs[i].sg_list && !cached[i]) {
	    ckfree(wrs[i].sg_list);
	}
    }
    if (wrs != wrSpace) {
	ckfree(wrs);
	ckfree(cached);
    }
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsQpBindMw --
 *
 *	$qp bind_mw MW BIND_INFO ?-wr_id N? ?-signaled BOOL?: bind a type 1
 *	memory window through this QP (ibv_bind_mw); the completion comes
 *	on the send CQ when signaled.
 *
 * Results:
 *	The window's new rkey.
 *
 * Side effects:
 *	Binds the window; it holds a reference on the MR.
 *
 *----------------------------------------------------------------------
 */

int
VerbsQpBindMw(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	int signaled;
	uint64_t wr_id;
    } BindArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(BindArgs, signaled, VF_BOOL, NULL, "bool"),
	VERBS_OPTION(BindArgs, wr_id, VF_UINT, NULL, "n"),
	VERBS_FIELD_END
    };
    BindArgs args = {0, 0};
    struct ibv_mw_bind bind;
    VerbsMw *w;
    VerbsMr *m;
    int err;

    if ((objc % 2) != 0) {
	Tcl_WrongNumArgs(interp, 2, objv,
		"mw bind_info ?-wr_id n? ?-signaled bool?");
	return TCL_ERROR;
    }
    if (VerbsQpCheckQueue(interp, (VerbsQp *) objPtr, 1) != TCL_OK) {
	return TCL_ERROR;
    }
    if (VerbsParseOptions(interp, objc, objv, 4, options, &args) != TCL_OK) {
	return TCL_ERROR;
    }
    w = (VerbsMw *) VerbsObjGet(interp, objv[2], &verbsMwClass);
    if (w == NULL) {
	return TCL_ERROR;
    }
    if (w->mw->type != IBV_MW_TYPE_1) {
	return VerbsArgError(interp, "mw", objv[2], "%s is a type 2 window: "
		"bind it with a bind_mw work request", Tcl_GetString(objv[2]));
    }
    memset(&bind, 0, sizeof(bind));
    if (VerbsParseBindInfo(interp, objv[3], &bind.bind_info, &m) != TCL_OK
	    || VerbsCheckBind(interp, w, m) != TCL_OK) {
	return TCL_ERROR;
    }
    bind.wr_id = args.wr_id;
    bind.send_flags = args.signaled ? IBV_SEND_SIGNALED : 0;
    err = ibv_bind_mw(((VerbsQp *) objPtr)->qp, w->mw, &bind);
    if (err) {
	return VerbsSysError(interp, "ibv_bind_mw", objPtr, NULL, err);
    }
    VerbsMwBound(w, m);
    Tcl_SetObjResult(interp, Tcl_NewWideIntObj(w->mw->rkey));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * QpWrPost --
 *
 *	$qp wr_post WR ?WR ...?: post through the extended QP API
 *	(ibv_wr_start, one ibv_wr_* builder and its data setter per work
 *	request, ibv_wr_complete).  The work requests are the dicts of
 *	post_send, parsed and checked the same way; each opcode must be
 *	among the QP's -send_ops, since the provider leaves the builders
 *	of the others unset.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Posts work requests (all or none).
 *
 *----------------------------------------------------------------------
 */

static uint64_t
SendOpOf(
    enum ibv_wr_opcode opcode)
{
    switch (opcode) {
    case IBV_WR_RDMA_WRITE: return IBV_QP_EX_WITH_RDMA_WRITE;
    case IBV_WR_RDMA_WRITE_WITH_IMM: return IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
    case IBV_WR_SEND: return IBV_QP_EX_WITH_SEND;
    case IBV_WR_SEND_WITH_IMM: return IBV_QP_EX_WITH_SEND_WITH_IMM;
    case IBV_WR_RDMA_READ: return IBV_QP_EX_WITH_RDMA_READ;
    case IBV_WR_ATOMIC_CMP_AND_SWP: return IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP;
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
	return IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
    case IBV_WR_LOCAL_INV: return IBV_QP_EX_WITH_LOCAL_INV;
    case IBV_WR_BIND_MW: return IBV_QP_EX_WITH_BIND_MW;
    case IBV_WR_SEND_WITH_INV: return IBV_QP_EX_WITH_SEND_WITH_INV;
    case IBV_WR_ATOMIC_WRITE: return IBV_QP_EX_WITH_ATOMIC_WRITE;
    case IBV_WR_TSO: return IBV_QP_EX_WITH_TSO;
    default:
	if ((int) opcode == VERBS_WR_FLUSH) {
	    return VERBS_QP_EX_WITH_FLUSH;
	}
	return 0;
    }
}

/*
 *----------------------------------------------------------------------
 *
 * WrCheckOps, WrBuild --
 *
 *	The steps of wr_post.  WrCheckOps: each work request's opcode is
 *	among the QP's -send_ops (and for tso, the provider has its
 *	builder), and an atomic_write writes the 8 bytes of one sge.
 *	WrBuild: one work request through its ibv_wr_* builder, its
 *	address (UD, XRC) and its data setter.
 *
 * Results:
 *	WrCheckOps: a standard Tcl result.  WrBuild: none.
 *
 * Side effects:
 *	WrBuild adds the work request to the QP's open batch.
 *
 *----------------------------------------------------------------------
 */

static int
WrCheckOps(
    Tcl_Interp *interp,
    VerbsQp *q,
    Tcl_Obj *qpName,
    const struct ibv_send_wr *wrs,
    Tcl_Obj *const wrObjs[],	/* NULL where a provider's own. */
    int n)
{
    int i;

    for (i = 0; i < n; i++) {
	if (wrObjs[i] == NULL) {
	    continue;
	}
	if ((q->sendOps & SendOpOf(wrs[i].opcode)) == 0) {
	    Tcl_Obj *name = VerbsEnumObj(verbsWrOpcode, wrs[i].opcode);

	    VerbsArgError(interp, "opcode", name, "%s was not created with "
		    "send op %s", Tcl_GetString(qpName), Tcl_GetString(name));
	    Tcl_DecrRefCount(name);
	    return TCL_ERROR;
	}
	if (wrs[i].opcode == IBV_WR_TSO && q->qpx->wr_send_tso == NULL) {
	    /* ibv_wr_send_tso calls it unchecked. */
	    return VerbsSysError(interp, "ibv_wr_send_tso", &q->obj, NULL,
		    EOPNOTSUPP);
	}
#ifndef HAVE_IBV_WR_FLUSH
	if ((int) wrs[i].opcode == VERBS_WR_FLUSH) {
	    /* Built against a libibverbs without ibv_wr_flush. */
	    return VerbsSysError(interp, "ibv_wr_flush", &q->obj, NULL,
		    EOPNOTSUPP);
	}
#endif
	if (wrs[i].opcode == IBV_WR_ATOMIC_WRITE && (wrs[i].num_sge != 1
		|| wrs[i].sg_list[0].length != 8)) {
	    return VerbsArgError(interp, "sg_list", NULL, "an atomic_write "
		    "work request writes the 8 bytes of one sge");
	}
    }
    return TCL_OK;
}

static void
WrBuild(
    VerbsQp *q,
    struct ibv_send_wr *w,
    const MwBind *bind,		/* Its flush or tso arguments. */
    const VerbsWrExt *ext,	/* A provider's part, or NULL, */
    int index)			/* and the work request's index for it. */
{
    struct ibv_qp_ex *x = q->qpx;
    int hasData = 1, j;

    x->wr_id = w->wr_id;
    x->wr_flags = w->send_flags;
    switch (w->opcode) {
    case IBV_WR_SEND:
	ibv_wr_send(x);
	break;
    case IBV_WR_SEND_WITH_IMM:
	ibv_wr_send_imm(x, w->imm_data);
	break;
    case IBV_WR_SEND_WITH_INV:
	ibv_wr_send_inv(x, w->invalidate_rkey);
	break;
    case IBV_WR_RDMA_WRITE:
	ibv_wr_rdma_write(x, w->wr.rdma.rkey, w->wr.rdma.remote_addr);
	break;
    case IBV_WR_RDMA_WRITE_WITH_IMM:
	ibv_wr_rdma_write_imm(x, w->wr.rdma.rkey, w->wr.rdma.remote_addr,
		w->imm_data);
	break;
    case IBV_WR_RDMA_READ:
	ibv_wr_rdma_read(x, w->wr.rdma.rkey, w->wr.rdma.remote_addr);
	break;
    case IBV_WR_ATOMIC_CMP_AND_SWP:
	ibv_wr_atomic_cmp_swp(x, w->wr.atomic.rkey,
		w->wr.atomic.remote_addr, w->wr.atomic.compare_add,
		w->wr.atomic.swap);
	break;
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
	ibv_wr_atomic_fetch_add(x, w->wr.atomic.rkey,
		w->wr.atomic.remote_addr, w->wr.atomic.compare_add);
	break;
    case IBV_WR_LOCAL_INV:
	ibv_wr_local_inv(x, w->invalidate_rkey);
	hasData = 0;
	break;
    case IBV_WR_BIND_MW:
	ibv_wr_bind_mw(x, w->bind_mw.mw, w->bind_mw.rkey,
		&w->bind_mw.bind_info);
	hasData = 0;
	break;
    case IBV_WR_ATOMIC_WRITE:
	/* The 8 bytes the sg_list holds (WrCheckOps); the provider copies
	 * them now. */
	ibv_wr_atomic_write(x, w->wr.rdma.rkey, w->wr.rdma.remote_addr,
		(const void *) (uintptr_t) w->sg_list[0].addr);
	hasData = 0;
	break;
    case IBV_WR_TSO: {
	/*
	 * The hdr's bytes (checked by SendWrTso), taken now: no parse
	 * runs between here and the provider's copy of them.
	 */

	Tcl_Size n;
	const unsigned char *hdr = VerbsGetBytes(NULL, "hdr", bind->tsoHdr,
		&n);

	ibv_wr_send_tso(x, (void *) hdr, w->tso.hdr_sz, w->tso.mss);
	break;
    }
    default:
#ifdef HAVE_IBV_WR_FLUSH
	if ((int) w->opcode == VERBS_WR_FLUSH) {
	    ibv_wr_flush(x, w->wr.rdma.rkey, w->wr.rdma.remote_addr,
		    (size_t) bind->flushLength, bind->flushType,
		    bind->flushLevel);
	    hasData = 0;
	}
#else
	(void) bind;
#endif
	break;			/* Refused by WrCheckOps otherwise. */
    }
    if (q->qpType == IBV_QPT_UD) {
	ibv_wr_set_ud_addr(x, w->wr.ud.ah, w->wr.ud.remote_qpn,
		w->wr.ud.remote_qkey);
    }
    if (q->qpType == IBV_QPT_XRC_SEND && hasData) {
	ibv_wr_set_xrc_srqn(x, w->qp_type.xrc.remote_srqn);
    }
    if (ext && ext->address) {
	ext->address(q, index, ext->clientData);
    }
    if (!hasData) {
	return;
    }
    if (w->send_flags & IBV_SEND_INLINE) {
	/*
	 * Gathered into one buffer for ibv_wr_set_inline_data: rxe's
	 * ibv_wr_set_inline_data_list (rdma-core 44) sends no bytes.  The
	 * provider copies the data at once.
	 */

	size_t total = 0;
	char *data;

	for (j = 0; j < w->num_sge; j++) {
	    total += w->sg_list[j].length;
	}
	data = ckalloc(total ? total : 1);
	for (total = 0, j = 0; j < w->num_sge; j++) {
	    memcpy(data + total, (void *) (uintptr_t) w->sg_list[j].addr,
		    w->sg_list[j].length);
	    total += w->sg_list[j].length;
	}
	ibv_wr_set_inline_data(x, data, total);
	ckfree(data);
    } else if (w->num_sge == 1) {
	ibv_wr_set_sge(x, w->sg_list[0].lkey, w->sg_list[0].addr,
		w->sg_list[0].length);
    } else {
	ibv_wr_set_sge_list(x, (size_t) w->num_sge, w->sg_list);
    }
}

static int
QpWrPost(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsQpWrPost(interp, (VerbsQp *) objPtr, objv[0], objc - 2,
	    objv + 2, NULL);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsQpWrPost --
 *
 *	The work of [$qp wr_post], for the core and for a provider's
 *	command that adds its own keys and opcodes to the work requests
 *	(ext; see VerbsWrExt in verbs.h).  qpName names the QP in errors.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Posts the n work requests (all or none).
 *
 *----------------------------------------------------------------------
 */

static void
DropRest(
    Tcl_Obj **rest,
    Tcl_Obj *const wrObjs[],
    int n)
{
    int i;

    for (i = 0; i < n; i++) {
	if (rest[i] && rest[i] != wrObjs[i]) {
	    Tcl_DecrRefCount(rest[i]);
	}
    }
}

int
VerbsQpWrPost(
    Tcl_Interp *interp,
    VerbsQp *q,
    Tcl_Obj *qpName,
    int n,
    Tcl_Obj *const wrObjs[],
    const VerbsWrExt *ext)
{
    struct ibv_qp_ex *x = q->qpx;
    int i, err, posted = 0, result = TCL_ERROR, cached, parsed = 0;
    struct ibv_send_wr wrSpace[POST_STACK], *wrs = wrSpace;
    MwBind bindSpace[POST_STACK], *binds = bindSpace;
    Tcl_Obj *restSpace[POST_STACK], **rest = (Tcl_Obj **) wrObjs;

    if (x == NULL) {
	Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s was not created with "
		"-send_ops: use post_send", Tcl_GetString(qpName)));
	Tcl_SetErrorCode(interp, "VERBS", "ARG", "-send_ops", "", NULL);
	return TCL_ERROR;
    }
    if (q->qpType == IBV_QPT_XRC_SEND && x->wr_set_xrc_srqn == NULL) {
	/* ibv_wr_set_xrc_srqn calls it unchecked. */
	return VerbsSysError(interp, "ibv_wr_set_xrc_srqn", &q->obj, NULL,
		EOPNOTSUPP);
    }
    if (n > POST_STACK) {
	wrs = (struct ibv_send_wr *) ckalloc(n * sizeof(*wrs));
	binds = (MwBind *) ckalloc(n * sizeof(*binds));
    }
    if (ext) {
	/*
	 * The provider takes its keys out first: what is left, or NULL
	 * for a work request of its own, is the verbs parser's.
	 */

	rest = (n > POST_STACK) ? (Tcl_Obj **) ckalloc(n * sizeof(Tcl_Obj *))
		: restSpace;
	memset(rest, 0, n * sizeof(Tcl_Obj *));
	for (; parsed < n; parsed++) {
	    if (ext->parse(interp, q, parsed, wrObjs[parsed], &rest[parsed],
		    ext->clientData) != TCL_OK) {
		cached = 1;
		goto done;
	    }
	    if (rest[parsed] && rest[parsed] != wrObjs[parsed]) {
		Tcl_IncrRefCount(rest[parsed]);
	    }
	}
    }
    if (ParseSendWrs(interp, q, n, rest, wrs, binds, &cached) != TCL_OK
	    || WrCheckOps(interp, q, qpName, wrs, rest, n) != TCL_OK) {
	goto done;
    }
    ibv_wr_start(x);
    for (i = 0; i < n; i++) {
	if (rest[i] == NULL) {
	    ext->build(q, i, ext->clientData);
	} else {
	    WrBuild(q, &wrs[i], &binds[i], ext, i);
	}
    }
    err = ibv_wr_complete(x);
    if (err) {
	VerbsSysError(interp, "ibv_wr_complete", &q->obj, NULL, err);
	goto done;
    }
    posted = n;
    result = TCL_OK;
  done:
    if (!cached) {
	FinishSendWrs(wrs, binds, n, posted);
    }
    if (ext) {
	DropRest(rest, wrObjs, parsed);
	if (rest != restSpace) {
	    ckfree(rest);
	}
    }
    if (wrs != wrSpace) {
	ckfree(wrs);
	ckfree(binds);
    }
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * QpDataInOrder, QpRateLimit, QpEce --
 *
 *	$qp data_in_order ?OPCODE? ?-flags FLAGS?: whether the device
 *	writes the data of that operation (default rdma_write) in order
 *	(ibv_query_qp_data_in_order), 1 or 0; with -flags return_caps (and
 *	device_only, rdma-core 46 and later) the list of how it does.
 *	$qp rate_limit {rate_limit KBPS max_burst_sz BYTES typical_pkt_sz
 *	BYTES}: packet pacing (ibv_modify_qp_rate_limit).
 *	$qp ece: the enhanced connection establishment options accepted
 *	(ibv_query_ece) as a dict {vendor_id options comp_mask}; $qp ece
 *	DICT sets the ones to offer (ibv_set_ece).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	rate_limit and ece DICT change the QP.
 *
 *----------------------------------------------------------------------
 */

static const VerbsField rateLimitFields[] = {
    VERBS_FIELD(struct ibv_qp_rate_limit_attr, rate_limit, VF_UINT, NULL, 0,
	    0),
    VERBS_FIELD(struct ibv_qp_rate_limit_attr, max_burst_sz, VF_UINT, NULL,
	    0, 0),
    VERBS_FIELD(struct ibv_qp_rate_limit_attr, typical_pkt_sz, VF_UINT, NULL,
	    0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct rateLimitStruct = {
    "rate limit attribute", rateLimitFields
};
static const VerbsField eceFields[] = {
    VERBS_FIELD(struct ibv_ece, vendor_id, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct ibv_ece, options, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct ibv_ece, comp_mask, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
const VerbsStruct verbsEceStruct = {"ece field", eceFields};

/*
 * enum ibv_query_qp_data_in_order_flags and _caps, by value (rdma-core
 * 46 added both).
 */

static const VerbsEnum dataInOrderFlags[] = {
    {"return_caps", 1}, {"device_only", 2}, {NULL, 0}
};
static const VerbsEnum dataInOrderCaps[] = {
    {"whole_msg", 1}, {"aligned_128_bytes", 2}, {NULL, 0}
};

static int
QpDataInOrder(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const char *const options[] = {"-flags", NULL};
    uint64_t op = IBV_WR_RDMA_WRITE, flags = 0;
    int index, ret;

    if (objc == 3 || objc == 5) {
	if (VerbsGetEnum(interp, verbsWrOpcode, "opcode", objv[2], &op)
		!= TCL_OK) {
	    return TCL_ERROR;
	}
    }
    if (objc >= 4) {
	if (Tcl_GetIndexFromObj(interp, objv[objc - 2], options, "option",
		0, &index) != TCL_OK
		|| VerbsGetFlags(interp, dataInOrderFlags, "-flags",
		objv[objc - 1], &flags) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
#ifndef HAVE_IBV_QUERY_QP_DATA_IN_ORDER_FLAGS
    if (flags) {
	return VerbsSysError(interp, "ibv_query_qp_data_in_order", objPtr,
		"needs rdma-core 46 or later", EOPNOTSUPP);
    }
#endif
    ret = ibv_query_qp_data_in_order(((VerbsQp *) objPtr)->qp,
	    (enum ibv_wr_opcode) op, (uint32_t) flags);
    Tcl_SetObjResult(interp, (flags & 1)
	    ? VerbsFlagsObj(dataInOrderCaps, (uint64_t) (ret > 0 ? ret : 0))
	    : Tcl_NewIntObj(ret > 0));
    return TCL_OK;
}

static int
QpRateLimit(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    struct ibv_qp_rate_limit_attr attr;
    int err;

    memset(&attr, 0, sizeof(attr));
    if (VerbsDictToStruct(interp, &rateLimitStruct, "attributes", objv[2],
	    &attr, NULL) != TCL_OK) {
	return TCL_ERROR;
    }
    if ((err = ibv_modify_qp_rate_limit(((VerbsQp *) objPtr)->qp, &attr))
	    != 0) {
	return VerbsSysError(interp, "ibv_modify_qp_rate_limit", objPtr, NULL,
		err);
    }
    return TCL_OK;
}

static int
QpEce(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    struct ibv_ece ece;
    int err;

    memset(&ece, 0, sizeof(ece));
    if (objc == 3) {
	if (VerbsDictToStruct(interp, &verbsEceStruct, "ece", objv[2], &ece, NULL)
		!= TCL_OK) {
	    return TCL_ERROR;
	}
	if ((err = ibv_set_ece(((VerbsQp *) objPtr)->qp, &ece)) != 0) {
	    return VerbsSysError(interp, "ibv_set_ece", objPtr, NULL,
		    err > 0 ? err : errno);
	}
	return TCL_OK;
    }
    if ((err = ibv_query_ece(((VerbsQp *) objPtr)->qp, &ece)) != 0) {
	return VerbsSysError(interp, "ibv_query_ece", objPtr, NULL,
		err > 0 ? err : errno);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsEceStruct, &ece));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * QpAttachMcast, QpDetachMcast --
 *
 *	$qp attach_mcast GID LID, $qp detach_mcast GID LID: a UD QP joins
 *	or leaves the receivers of a multicast group (ibv_attach_mcast,
 *	ibv_detach_mcast); on RoCE the LID is 0.  The QP remembers its
 *	groups, to detach them before it is destroyed.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Changes the QP's multicast attachments and its list of them.
 *
 *----------------------------------------------------------------------
 */

static int
McastCall(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj *const objv[],
    int attach)
{
    VerbsQp *q = (VerbsQp *) objPtr;
    const char *call = attach ? "ibv_attach_mcast" : "ibv_detach_mcast";
    VerbsQpMcast *m, **mp;
    union ibv_gid gid;
    uint64_t lid;
    int err;

    if (VerbsGetGid(interp, "gid", objv[2], &gid) != TCL_OK
	    || VerbsGetUInt(interp, "lid", objv[3], 0xffff, &lid) != TCL_OK) {
	return TCL_ERROR;
    }
    if (q->qpType != IBV_QPT_UD) {
	Tcl_Obj *name = VerbsObjName(objPtr);

	VerbsArgError(interp, "qp_type", NULL, "%s: only ud queue pairs "
		"receive multicast", Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    err = attach ? ibv_attach_mcast(q->qp, &gid, (uint16_t) lid)
	    : ibv_detach_mcast(q->qp, &gid, (uint16_t) lid);
    if (err) {
	return VerbsSysError(interp, call, objPtr, NULL, err > 0 ? err
		: errno);
    }
    for (mp = &q->mcasts; *mp; mp = &(*mp)->next) {
	if ((*mp)->lid == lid && memcmp(&(*mp)->gid, &gid, sizeof(gid)) == 0) {
	    break;
	}
    }
    if (attach && *mp == NULL) {
	m = (VerbsQpMcast *) ckalloc(sizeof(VerbsQpMcast));
	m->gid = gid;
	m->lid = (uint16_t) lid;
	m->next = q->mcasts;
	q->mcasts = m;
    } else if (!attach && *mp) {
	m = *mp;
	*mp = m->next;
	ckfree(m);
    }
    return TCL_OK;
}

static int
QpAttachMcast(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    return McastCall(interp, objPtr, objv, 1);
}

static int
QpDetachMcast(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    return McastCall(interp, objPtr, objv, 0);
}
