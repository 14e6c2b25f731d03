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

static VerbsMethodProc QpDataInOrder, QpEce, QpRateLimit;
static VerbsMethodProc QpAttachMcast, QpDetachMcast;
static void	QpAttach(VerbsQp *q, struct ibv_qp *qp, VerbsCq *sendCq,
		    VerbsCq *recvCq, VerbsSrq *srq, VerbsCmId *cm);
static VerbsMethodProc QpModify, QpQuery, QpToInit, QpToRtr, QpToRts,
	QpPostSend, QpPostRecv,
	QpWrPost;

static const VerbsMethod qpMethods[] = {
    {"attach_mcast", QpAttachMcast, 2, 2, "gid lid"},
    {"bind_mw", VerbsQpBindMw, 2, 6,
	    "mw bind_info ?-wr_id n? ?-signaled bool?"},
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"data_in_order", QpDataInOrder, 0, 1, "?opcode?"},
    {"detach_mcast", QpDetachMcast, 2, 2, "gid lid"},
    {"ece", QpEce, 0, 1, "?ece?"},
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

static VerbsGetProc QpState;

static const VerbsField qpCget[] = {
    VERBS_CGET_PTR("-qp_num", VerbsQp, qp, struct ibv_qp, qp_num, VF_UINT,
	    NULL),
    VERBS_CGET_PTR("-qp_type", VerbsQp, qp, struct ibv_qp, qp_type, VF_ENUM,
	    verbsQpTypes),
    VERBS_CGET_PROC("-state", QpState),
    VERBS_CGET_PTR("-handle", VerbsQp, qp, struct ibv_qp, handle, VF_UINT,
	    NULL),
    VERBS_CGET_PARENT("-pd"),
    VERBS_CGET("-send_cq", VerbsQp, sendCq, VF_OBJ, NULL),
    VERBS_CGET("-recv_cq", VerbsQp, recvCq, VF_OBJ, NULL),
    VERBS_CGET("-srq", VerbsQp, srq, VF_OBJ, NULL),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc QpCreateCmd;

static const VerbsCtor qpCtors[] = {
    {"create", QpCreateCmd}, {NULL, NULL}
};

#define NO_SEND_OPS (~(uint64_t) 0)	/* -send_ops not given. */

/*
 * The objects of a bind_mw work request, applied once it is posted.
 */

typedef struct MwBind {
    VerbsMw *mw;
    VerbsMr *mr;
} MwBind;

/* Every attr_mask bit ibv_query_qp is asked for. */
#define QUERY_MASK ((IBV_QP_DEST_QPN << 1) - 1)

/*
 *----------------------------------------------------------------------
 *
 * QpState, QpFree --
 *
 *	The -state cget option, asked of the device (an error completion
 *	moves the QP on its own); destruction of the QP, which then lets
 *	go of its CQs.
 *
 * Results:
 *	QpState: a standard Tcl result.
 *
 * Side effects:
 *	QpFree: detaches the QP from its multicast groups (a QP still
 *	attached cannot be destroyed), ibv_destroy_qp, releases the CQ and
 *	SRQ references.
 *
 *----------------------------------------------------------------------
 */

/*
 * A multicast group a QP was attached to with attach_mcast.
 */

typedef struct VerbsQpMcast {
    struct VerbsQpMcast *next;
    union ibv_gid gid;
    uint16_t lid;
} VerbsQpMcast;

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

static void
QpFree(
    VerbsObj *objPtr)
{
    VerbsQp *q = (VerbsQp *) objPtr;
    VerbsQpMcast *m;

    while ((m = q->mcasts) != NULL) {
	q->mcasts = m->next;
	ibv_detach_mcast(q->qp, &m->gid, m->lid);
	ckfree(m);
    }
    if (q->cm) {
	/* librdmacm keeps id->qp: let it clear that as it destroys. */
	VerbsCmDetachQp(q->cm, q->qp);
	rdma_destroy_qp(q->cm->id);
	VerbsObjRelease(&q->cm->obj);
    } else {
	ibv_destroy_qp(q->qp);
    }
    VerbsObjRelease(&q->sendCq->obj);
    VerbsObjRelease(&q->recvCq->obj);
    if (q->srq) {
	VerbsObjRelease(&q->srq->obj);
    }
}

const VerbsType verbsQpClass = {
    "qp", sizeof(VerbsQp), qpMethods, qpCget, QpFree, NULL, NULL, qpCtors
};

/*
 *----------------------------------------------------------------------
 *
 * VerbsCheckQpRef --
 *
 *	A CQ or SRQ given to a new QP must belong where the QP does: a CQ
 *	to the PD's device context, an SRQ to the PD itself.
 *
 * Results:
 *	A standard Tcl result (TCL_OK for a NULL object).
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
VerbsCheckQpRef(
    Tcl_Interp *interp,
    const char *option,
    VerbsObj *objPtr,
    VerbsObj *owner,
    const char *where)
{
    Tcl_Obj *name;

    if (objPtr == NULL || objPtr->parent == owner) {
	return TCL_OK;
    }
    name = VerbsObjName(objPtr);
    VerbsArgError(interp, option, name, "%s \"%s\" is on another %s",
	    option, Tcl_GetString(name), where);
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * QpCreateCmd --
 *
 *	verbs::qp create PD -send_cq CQ ?-recv_cq CQ? ?-srq SRQ?
 *		?-type rc|uc|ud?
 *		?-cap DICT? ?-sq_sig_all BOOL? ?-command NAME?
 *
 * Results:
 *	The qp object command's name.
 *
 * Side effects:
 *	ibv_create_qp; takes references on the CQs and the SRQ.
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
    return VerbsQpCreate(interp, objc, objv, NULL);
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
 * Results:
 *	A standard Tcl result, the qp object's name.
 *
 * Side effects:
 *	Creates the QP; takes references on its CQs, SRQ and id.
 *
 *----------------------------------------------------------------------
 */

int
VerbsQpCreate(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    VerbsCmId *cm)
{
    typedef struct {
	VerbsCreateHead head;
	struct ibv_qp_cap cap;
	VerbsObj *recv_cq, *send_cq;
	uint64_t send_ops;
	int sq_sig_all;
	VerbsObj *srq;
	uint64_t type;
    } QpArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(QpArgs, cap, VF_STRUCT, &verbsQpCapStruct, "dict"),
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(QpArgs, recv_cq, VF_OBJ, &verbsCqClass, "cq"),
	VERBS_OPTION_REQUIRED(QpArgs, send_cq, VF_OBJ, &verbsCqClass, 0,
		"cq:a qp needs a completion queue"),
	VERBS_OPTION(QpArgs, send_ops, VF_FLAGS, verbsSendOps, "ops"),
	VERBS_OPTION(QpArgs, sq_sig_all, VF_BOOL, NULL, "bool"),
	VERBS_OPTION(QpArgs, srq, VF_OBJ, &verbsSrqClass, "srq"),
	VERBS_OPTION(QpArgs, type, VF_ENUM, verbsQpTypes, "type"),
	VERBS_FIELD_END
    };
    QpArgs args;
    VerbsSrq *srq;
    struct ibv_qp_init_attr init;
    struct ibv_qp *qp;
    VerbsPd *p;
    VerbsCq *sendCq, *recvCq;
    VerbsQp *q;

    memset(&args, 0, sizeof(args));
    args.cap.max_send_wr = 16;
    args.cap.max_recv_wr = 16;
    args.cap.max_send_sge = 1;
    args.cap.max_recv_sge = 1;
    args.send_ops = NO_SEND_OPS;
    args.type = IBV_QPT_RC;
    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &args,
	    &verbsPdClass) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.head.parent;
    sendCq = (VerbsCq *) args.send_cq;
    recvCq = args.recv_cq ? (VerbsCq *) args.recv_cq : sendCq;
    srq = (VerbsSrq *) args.srq;
    if (VerbsCheckQpRef(interp, "-send_cq", args.send_cq, p->obj.parent,
	    "device context than the pd") != TCL_OK
	    || VerbsCheckQpRef(interp, "-recv_cq", args.recv_cq, p->obj.parent,
	    "device context than the pd") != TCL_OK
	    || VerbsCheckQpRef(interp, "-srq", args.srq, &p->obj, "pd")
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (args.send_ops != NO_SEND_OPS && cm) {
	Tcl_Obj *ops = VerbsFlagsObj(verbsSendOps, args.send_ops);

	Tcl_IncrRefCount(ops);
	VerbsArgError(interp, "-send_ops", ops,
		"-send_ops is not for a qp made on an rdma_cm id");
	Tcl_DecrRefCount(ops);
	return TCL_ERROR;
    }

    memset(&init, 0, sizeof(init));
    init.send_cq = sendCq->cq;
    init.recv_cq = recvCq->cq;
    init.qp_type = (enum ibv_qp_type) args.type;
    init.sq_sig_all = args.sq_sig_all;
    init.srq = srq ? srq->srq : NULL;
    init.cap = args.cap;
    /*
     * The QP's context pointer is its object, so that an async event
     * names the QP it is about.
     */

    q = (VerbsQp *) VerbsObjNew(&verbsQpClass);
    init.qp_context = q;
    if (cm) {
	if (rdma_create_qp(cm->id, p->pd, &init) != 0) {
	    ckfree(q);
	    return VerbsSysError(interp, "rdma_create_qp", &cm->obj, NULL,
		    errno);
	}
	qp = cm->id->qp;
    } else if (args.send_ops != NO_SEND_OPS) {
	/*
	 * The extended QP: the same attributes, plus the send operations
	 * the ibv_wr_* API may use on it ([$qp wr_post]).
	 */

	struct ibv_qp_init_attr_ex ex;

	memset(&ex, 0, sizeof(ex));
	ex.qp_context = init.qp_context;
	ex.send_cq = init.send_cq;
	ex.recv_cq = init.recv_cq;
	ex.srq = init.srq;
	ex.cap = init.cap;
	ex.qp_type = init.qp_type;
	ex.sq_sig_all = init.sq_sig_all;
	ex.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	ex.pd = p->pd;
	ex.send_ops_flags = args.send_ops;
	qp = ibv_create_qp_ex(((VerbsContext *) p->obj.parent)->ctx, &ex);
	if (qp == NULL) {
	    ckfree(q);
	    return VerbsSysError(interp, "ibv_create_qp_ex", &p->obj, NULL,
		    errno);
	}
	q->qpx = ibv_qp_to_qp_ex(qp);
	q->sendOps = args.send_ops;
    } else {
	qp = ibv_create_qp(p->pd, &init);
    }
    if (qp == NULL) {
	ckfree(q);
	return VerbsSysError(interp, "ibv_create_qp", &p->obj, NULL, errno);
    }
    if (VerbsObjRegister(interp, &q->obj, &p->obj, args.head.command)
	    != TCL_OK) {
	if (cm) {
	    rdma_destroy_qp(cm->id);
	} else {
	    ibv_destroy_qp(qp);
	}
	ckfree(q);
	return TCL_ERROR;
    }
    QpAttach(q, qp, sendCq, recvCq, srq, cm);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * QpAttach, VerbsQpAdopt --
 *
 *	QpAttach fills a registered qp object in and takes its references.
 *	A UD QP made on an rdma_cm id got its Q_Key from librdmacm
 *	(RDMA_UDP_QKEY in the udp port space), which then is the one its
 *	sends default to.  VerbsQpAdopt wraps a QP that librdmacm made
 *	itself (rdma_create_ep, rdma_get_request) in an object under pd p;
 *	q is the object preallocated as the QP's context, or NULL.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	References the CQs, SRQ and id; VerbsQpAdopt creates a command and
 *	leaves its name in the interpreter's result.
 *
 *----------------------------------------------------------------------
 */

static void
QpAttach(
    VerbsQp *q,
    struct ibv_qp *qp,
    VerbsCq *sendCq,
    VerbsCq *recvCq,
    VerbsSrq *srq,
    VerbsCmId *cm)
{
    q->qp = qp;
    q->sendCq = sendCq;
    q->recvCq = recvCq;
    q->qpType = qp->qp_type;
    q->portNum = (cm && cm->id->port_num) ? cm->id->port_num : 1;
    q->qkey = VERBS_DEFAULT_QKEY;
    if (cm) {
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;

	if (qp->qp_type == IBV_QPT_UD
		&& ibv_query_qp(qp, &attr, IBV_QP_QKEY, &init) == 0) {
	    q->qkey = attr.qkey;
	}
	q->cm = cm;
	VerbsObjRetain(&cm->obj);
    }
    VerbsObjRetain(&sendCq->obj);
    VerbsObjRetain(&recvCq->obj);
    if (srq) {
	q->srq = srq;
	VerbsObjRetain(&srq->obj);
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
    if (q == NULL) {
	q = (VerbsQp *) VerbsObjNew(&verbsQpClass);
    }
    qp->qp_context = q;
    /* A generated name is always free. */
    VerbsObjRegister(interp, &q->obj, &p->obj, NULL);
    QpAttach(q, qp, sendCq, recvCq, srq, cm);
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
    static const char *const ahKeys[] = {"ah_attr", "alt_ah_attr"};
    int i, err;

    attr->ah_attr.port_num = q->portNum;
    attr->alt_ah_attr.port_num = q->portNum;
    if (dictObj) {
	if (VerbsDictToStruct(interp, &verbsQpAttrStruct, "attributes",
		dictObj, attr,
		&mask) != TCL_OK) {
	    return TCL_ERROR;
	}
	for (i = 0; i < 2; i++) {
	    Tcl_Obj *key = Tcl_NewStringObj(ahKeys[i], -1), *ah = NULL;

	    Tcl_IncrRefCount(key);
	    Tcl_DictObjGet(NULL, dictObj, key, &ah);
	    Tcl_DecrRefCount(key);
	    if (ah) {
		VerbsAhImplyGlobal(ah, i ? &attr->alt_ah_attr
			: &attr->ah_attr);
	    }
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
    if (q->qpType == IBV_QPT_RC || q->qpType == IBV_QPT_UC) {
	attr.path_mtu = IBV_MTU_1024;
	attr.rq_psn = 0;
	mask |= IBV_QP_PATH_MTU | IBV_QP_RQ_PSN;
    }
    if (q->qpType == IBV_QPT_RC) {
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
    if (q->qpType == IBV_QPT_RC) {
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.max_rd_atomic = 1;
	mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY
		| IBV_QP_MAX_QP_RD_ATOMIC;
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
    uint64_t len)
{
    VerbsObj *o;

    for (o = VerbsGetState(interp)->live; o; o = o->nextLive) {
	if (o->typePtr == &verbsMrClass) {
	    VerbsMr *m = (VerbsMr *) o;
	    uint64_t start = (uintptr_t) m->buf;

	    if (addr >= start && addr - start <= m->length
		    && len <= m->length - (addr - start)) {
		return 1;
	    }
	}
    }
    return 0;
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
    uint32_t imm_data, invalidate_rkey;
    VerbsObj *mw;
    uint64_t opcode, remote_addr;
    uint32_t remote_qkey, remote_qpn, rkey;
    uint64_t send_flags;
    Tcl_Obj *sg_list;
    uint64_t swap, wr_id;
} SendWrArgs;

#define WR_UD_KEY 1		/* The "mask" of remote_qpn, remote_qkey. */
#define WR_FIELD(f, kind, table) \
    VERBS_FIELD(SendWrArgs, f, kind, table, 0, 0)

static const VerbsField sendWrFields[] = {
    WR_FIELD(ah, VF_OBJ, &verbsAhClass),
    WR_FIELD(bind_info, VF_TCLOBJ, NULL),
    WR_FIELD(compare_add, VF_UINT, NULL),
    WR_FIELD(imm_data, VF_UINT, NULL),
    WR_FIELD(invalidate_rkey, VF_UINT, NULL),
    WR_FIELD(mw, VF_OBJ, &verbsMwClass),
    WR_FIELD(opcode, VF_ENUM, verbsWrOpcode),
    WR_FIELD(remote_addr, VF_UINT, NULL),
    VERBS_FIELD(SendWrArgs, remote_qkey, VF_UINT, NULL, WR_UD_KEY, 0),
    {"remote_qpn", VF_UINT, offsetof(SendWrArgs, remote_qpn),
	    sizeof(uint32_t), NULL, WR_UD_KEY, 0, 0, 0xffffff, NULL, NULL},
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
 *	against the MR's bounds) or a dict {addr A length L lkey K}.
 *
 * Results:
 *	A standard Tcl result; *sgePtr is a ckalloc'ed array (NULL when
 *	the list is empty) the caller frees.
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
    int *numPtr)
{
    Tcl_Obj **elems, **parts;
    Tcl_Size n, i, nparts;
    struct ibv_sge *sge;

    *sgePtr = NULL;
    *numPtr = 0;
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
	    VerbsMr *m = (VerbsMr *) VerbsObjGet(interp, parts[0],
		    &verbsMrClass);
	    size_t off, len = 0;

	    if (m == NULL || VerbsMrRange(interp, m, parts[1], parts[2], &off,
		    &len) != TCL_OK) {
		goto error;
	    }
	    sge[i].addr = (uintptr_t) (m->buf + off);
	    sge[i].length = (uint32_t) len;
	    sge[i].lkey = m->mr->lkey;
	} else if (nparts == 6) {
	    struct ibv_sge d = {0, 0, 0};

	    if (VerbsDictToStruct(interp, &sgeStruct, "sge", elems[i], &d,
		    NULL) != TCL_OK) {
		goto error;
	    }
	    if (!InsideSomeMr(interp, d.addr, d.length)) {
		VerbsArgError(interp, "sg_list", elems[i], "bad sge \"%s\": "
			"no memory region of this interpreter holds that range",
			Tcl_GetString(elems[i]));
		goto error;
	    }
	    sge[i] = d;
	} else {
	    VerbsArgError(interp, "sg_list", elems[i],
		    "bad sge \"%s\": must be {mr offset length} or "
		    "{addr A length L lkey K}", Tcl_GetString(elems[i]));
	    goto error;
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
 * VerbsCheckSendWr --
 *
 *	Check that a send work request fits its QP before it reaches the
 *	provider, which trusts it: the opcode is one this package can fill
 *	in (not tso), a UD QP sends only SENDs and needs an address handle
 *	of its own PD, and other QPs take no UD addressing.
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

    if (opcode == IBV_WR_TSO) {
	name = VerbsEnumObj(verbsWrOpcode, opcode);
	VerbsArgError(interp, "opcode", name, "opcode %s is not supported",
		Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
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
    VerbsObj *o;

    for (o = VerbsGetState(interp)->live; o; o = o->nextLive) {
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
 * ParseSendWr, ParseRecvWr --
 *
 *	One work request dict into its struct.  Send keys: wr_id opcode
 *	send_flags sg_list imm_data remote_addr rkey compare_add swap ah
 *	remote_qpn remote_qkey invalidate_rkey.  Receive keys: wr_id
 *	sg_list.
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
    int result = TCL_ERROR;

    memset(wr, 0, sizeof(*wr));
    memset(&a, 0, sizeof(a));
    a.opcode = IBV_WR_SEND;
    a.remote_qkey = q->qkey;
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
	    &wr->num_sge) != TCL_OK) {
	return TCL_ERROR;
    }

    if (VerbsCheckSendWr(interp, q, wr->opcode, ah, (given & WR_UD_KEY) != 0)
	    != TCL_OK) {
	goto done;
    }

    /*
     * The ud, rdma and atomic members share a union: fill the one the QP
     * type and opcode use.
     */

    if ((wr->opcode == IBV_WR_LOCAL_INV || wr->opcode == IBV_WR_SEND_WITH_INV)
	    && UnboundWindow(interp, wr->invalidate_rkey)) {
	goto done;
    }
    if (wr->opcode == IBV_WR_BIND_MW) {
	if (bind->mw == NULL || a.bind_info == NULL) {
	    VerbsArgError(interp, "mw", NULL,
		    "opcode bind_mw needs mw and bind_info");
	    goto done;
	}
	if (bind->mw->mw->type != IBV_MW_TYPE_2) {
	    VerbsArgError(interp, "mw", NULL, "a bind_mw work request binds "
		    "type 2 windows: bind a type 1 window with $qp bind_mw");
	    goto done;
	}
	if (VerbsParseBindInfo(interp, a.bind_info, &wr->bind_mw.bind_info,
		&bind->mr) != TCL_OK
		|| VerbsCheckBind(interp, bind->mw, bind->mr) != TCL_OK) {
	    goto done;
	}
	wr->bind_mw.mw = bind->mw->mw;
	wr->bind_mw.rkey = ibv_inc_rkey(bind->mw->mw->rkey);
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
    result = TCL_OK;
  done:
    return result;
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
	return VerbsParseSgList(interp, a.sg_list, &wr->sg_list, &wr->num_sge);
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
 *	Parse N send work request dicts into a chained array (with the
 *	objects of any bind_mw), and afterwards apply the binds of the
 *	first POSTED requests and free both arrays.
 *
 * Results:
 *	ParseSendWrs: a standard Tcl result; the arrays are allocated even
 *	on error, for FinishSendWrs to free.
 *
 * Side effects:
 *	Allocation; FinishSendWrs moves window references.
 *
 *----------------------------------------------------------------------
 */

static int
ParseSendWrs(
    Tcl_Interp *interp,
    VerbsQp *q,
    int n,
    Tcl_Obj *const wrObjs[],
    struct ibv_send_wr **wrsPtr,
    MwBind **bindsPtr)
{
    struct ibv_send_wr *wrs;
    MwBind *binds;
    int i;

    *wrsPtr = wrs = (struct ibv_send_wr *) ckalloc(n * sizeof(*wrs));
    memset(wrs, 0, n * sizeof(*wrs));
    *bindsPtr = binds = (MwBind *) ckalloc(n * sizeof(*binds));
    memset(binds, 0, n * sizeof(*binds));
    for (i = 0; i < n; i++) {
	if (ParseSendWr(interp, q, wrObjs[i], &wrs[i], &binds[i]) != TCL_OK) {
	    return TCL_ERROR;
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
	if (wrs[i].sg_list) {
	    ckfree(wrs[i].sg_list);
	}
    }
    ckfree(wrs);
    ckfree(binds);
}

static int
QpPostSend(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    int n = objc - 2, err, posted = 0, result = TCL_ERROR;
    struct ibv_send_wr *wrs, *bad = NULL;
    MwBind *binds;

    if (ParseSendWrs(interp, (VerbsQp *) objPtr, n, objv + 2, &wrs, &binds)
	    == TCL_OK) {
	err = ibv_post_send(((VerbsQp *) objPtr)->qp, wrs, &bad);
	posted = err ? (bad ? (int) (bad - wrs) : 0) : n;
	result = err ? PostFailed(interp, objPtr, "ibv_post_send", posted,
		err) : TCL_OK;
    }
    FinishSendWrs(wrs, binds, n, posted);
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
    int i, err, result = TCL_ERROR;
    struct ibv_recv_wr *wrs, *bad = NULL;

    wrs = (struct ibv_recv_wr *) ckalloc(n * sizeof(*wrs));
    memset(wrs, 0, n * sizeof(*wrs));
    for (i = 0; i < n; i++) {
	if (ParseRecvWr(interp, wrObjs[i], &wrs[i]) != TCL_OK) {
	    goto done;
	}
	wrs[i].next = (i + 1 < n) ? &wrs[i + 1] : NULL;
    }
    err = post(target, wrs, &bad);
    result = err ? PostFailed(interp, objPtr, call, bad ? bad - wrs : 0,
	    err) : TCL_OK;
  done:
    for (i = 0; i < n; i++) {
	if (wrs[i].sg_list) {
	    ckfree(wrs[i].sg_list);
	}
    }
    ckfree(wrs);
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
    default: return 0;		/* No builder here (tso, atomic_write). */
    }
}

static int
QpWrPost(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsQp *q = (VerbsQp *) objPtr;
    struct ibv_qp_ex *x = q->qpx;
    int n = objc - 2, i, j, err, posted = 0, result = TCL_ERROR;
    struct ibv_send_wr *wrs;
    MwBind *binds;

    if (x == NULL) {
	Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s was not created with "
		"-send_ops: use post_send", Tcl_GetString(objv[0])));
	Tcl_SetErrorCode(interp, "VERBS", "ARG", "-send_ops", "", NULL);
	return TCL_ERROR;
    }
    if (ParseSendWrs(interp, q, n, objv + 2, &wrs, &binds) != TCL_OK) {
	goto done;
    }
    for (i = 0; i < n; i++) {
	if ((q->sendOps & SendOpOf(wrs[i].opcode)) == 0) {
	    Tcl_Obj *name = VerbsEnumObj(verbsWrOpcode, wrs[i].opcode);

	    VerbsArgError(interp, "opcode", name, "%s was not created with "
		    "send op %s", Tcl_GetString(objv[0]), Tcl_GetString(name));
	    Tcl_DecrRefCount(name);
	    goto done;
	}
    }

    ibv_wr_start(x);
    for (i = 0; i < n; i++) {
	struct ibv_send_wr *w = &wrs[i];
	int hasData = 1;

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
	default:
	    break;		/* Refused above: not among verbsSendOps. */
	}
	if (q->qpType == IBV_QPT_UD) {
	    ibv_wr_set_ud_addr(x, w->wr.ud.ah, w->wr.ud.remote_qpn,
		    w->wr.ud.remote_qkey);
	}
	if (!hasData) {
	    continue;
	}
	if (w->send_flags & IBV_SEND_INLINE) {
	    /*
	     * Gathered into one buffer for ibv_wr_set_inline_data: rxe's
	     * ibv_wr_set_inline_data_list (rdma-core 44) sends no bytes.
	     * The provider copies the data at once.
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
	} else {
	    ibv_wr_set_sge_list(x, (size_t) w->num_sge, w->sg_list);
	}
    }
    err = ibv_wr_complete(x);
    if (err) {
	VerbsSysError(interp, "ibv_wr_complete", objPtr, NULL, err);
	goto done;
    }
    posted = n;
    result = TCL_OK;
  done:
    FinishSendWrs(wrs, binds, n, posted);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * QpDataInOrder, QpRateLimit, QpEce --
 *
 *	$qp data_in_order ?OPCODE?: whether the device writes the data of
 *	that operation (default rdma_write) in order
 *	(ibv_query_qp_data_in_order), 1 or 0.
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

static int
QpDataInOrder(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    uint64_t op = IBV_WR_RDMA_WRITE;

    if (objc == 3 && VerbsGetEnum(interp, verbsWrOpcode, "opcode", objv[2],
	    &op) != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, Tcl_NewIntObj(ibv_query_qp_data_in_order(
	    ((VerbsQp *) objPtr)->qp, (enum ibv_wr_opcode) op, 0) > 0));
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
	if (VerbsDictToStruct(interp, &verbsEceStruct, "ece", objv[2], &ece,
		NULL) != TCL_OK) {
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
