/*
 * mlx5Sched.c --
 *
 *	Transmit scheduling and DevX interrupts: [mlx5::sched node create]
 *	and [mlx5::sched leaf create] (a tree of schednode and schedleaf
 *	objects: each is the child of its parent node, or of the context
 *	at the root, so that children go first), [mlx5::qp sched_elem]
 *	(mlx5dv_modify_qp_sched_elem), [mlx5::devx msi create] (an MSI-X
 *	vector) and [mlx5::devx eq create] (an event queue whose entries
 *	the script reads).
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5.h"
#include "mlx5Prm.h"
#include <errno.h>
#include <inttypes.h>
#include <string.h>

typedef struct Mlx5Sched {
    VerbsObj obj;
    void *elem;			/* struct mlx5dv_sched_node or _leaf. */
    int leaf;
    uint64_t bwShare, maxAvgBw;
} Mlx5Sched;

typedef struct Mlx5Msi {
    VerbsObj obj;
    struct mlx5dv_devx_msi_vector *msi;
} Mlx5Msi;

typedef struct Mlx5Eq {
    VerbsObj obj;
    struct mlx5dv_devx_eq *eq;
    size_t length;		/* Of its entries' memory, from its input. */
    unsigned char *out;		/* The create command's output. */
    Tcl_Size outLen;
    int hasEqn;			/* Its number is known (eqn): */
    uint32_t eqn;		/* a CQ's c_eqn names it (Mlx5EqNumber). */
} Mlx5Eq;

static VerbsMethodProc SchedModify, EqRead, EqOutput;

static const VerbsMethod schedMethods[] = {
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE,
    {"modify", SchedModify, 1, 1, "attributes"},
    {NULL, NULL, 0, 0, NULL}
};
static const VerbsMethod plainMethods[] = {
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};
static const VerbsMethod eqMethods[] = {
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE,
    {"output", EqOutput, 0, 0, NULL},
    {"read", EqRead, 2, 2, "offset length"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField schedCget[] = {
    VERBS_CGET("-bw_share", Mlx5Sched, bwShare, VF_UINT, NULL),
    VERBS_CGET("-max_avg_bw", Mlx5Sched, maxAvgBw, VF_UINT, NULL),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};
static const VerbsField msiCget[] = {
    VERBS_CGET_PTR("-vector", Mlx5Msi, msi, struct mlx5dv_devx_msi_vector,
	    vector, VF_INT, NULL),
    VERBS_CGET_PTR("-fd", Mlx5Msi, msi, struct mlx5dv_devx_msi_vector, fd,
	    VF_INT, NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};
static const VerbsField eqCget[] = {
    VERBS_CGET("-length", Mlx5Eq, length, VF_UINT, NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static void
SchedFree(
    VerbsObj *objPtr)
{
    Mlx5Sched *s = (Mlx5Sched *) objPtr;

    if (s->leaf) {
	mlx5dv_sched_leaf_destroy((struct mlx5dv_sched_leaf *) s->elem);
    } else {
	mlx5dv_sched_node_destroy((struct mlx5dv_sched_node *) s->elem);
    }
}

static void
MsiFree(
    VerbsObj *objPtr)
{
    mlx5dv_devx_free_msi_vector(((Mlx5Msi *) objPtr)->msi);
}

static void
EqFree(
    VerbsObj *objPtr)
{
    Mlx5Eq *e = (Mlx5Eq *) objPtr;

    mlx5dv_devx_destroy_eq(e->eq);
    if (e->out) {
	ckfree(e->out);
    }
}

const VerbsType verbsSchedNodeClass = {
    .name = "schednode",
    .size = sizeof(Mlx5Sched),
    .methods = schedMethods,
    .cget = schedCget,
    .freeProc = SchedFree,
};
const VerbsType verbsSchedLeafClass = {
    .name = "schedleaf",
    .size = sizeof(Mlx5Sched),
    .methods = schedMethods,
    .cget = schedCget,
    .freeProc = SchedFree,
};
const VerbsType verbsMsiClass = {
    .name = "msi",
    .size = sizeof(Mlx5Msi),
    .methods = plainMethods,
    .cget = msiCget,
    .freeProc = MsiFree,
};
const VerbsType verbsEqClass = {
    .name = "eq",
    .size = sizeof(Mlx5Eq),
    .methods = eqMethods,
    .cget = eqCget,
    .freeProc = EqFree,
};

/*
 *----------------------------------------------------------------------
 *
 * SchedCreateCmd, SchedModify --
 *
 *	mlx5::sched node create CONTEXT ?-parent NODE? ?-bw_share N?
 *		?-max_avg_bw N? ?-as NAME?
 *	mlx5::sched leaf create CONTEXT -parent NODE ?-bw_share N?
 *		?-max_avg_bw N? ?-as NAME?
 *	A scheduling element (mlx5dv_sched_node_create, _leaf_create): a
 *	node without a parent is the root of the context's tree.  Its
 *	flags are the options given (bw_share, max_avg_bw).
 *	$elem modify {?bw_share N? ?max_avg_bw N?}: mlx5dv_sched_*_modify,
 *	the flags again the keys given.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	See above.
 *
 *----------------------------------------------------------------------
 */

typedef struct SchedArgs {
    VerbsCreateHead head;
    uint64_t bw_share;		/* VERBS_NOT_GIVEN, or the value. */
    uint64_t max_avg_bw;
    VerbsObj *parent;
} SchedArgs;

#define SA_BW 1
#define SA_MAX 2

static const VerbsField schedFields[] = {
    VERBS_FIELD_MAX(SchedArgs, bw_share, VF_UINT, SA_BW, UINT32_MAX),
    VERBS_FIELD_MAX(SchedArgs, max_avg_bw, VF_UINT, SA_MAX, UINT32_MAX),
    VERBS_FIELD_END
};
static const VerbsStruct schedStruct = {"scheduling key", schedFields};

static int
SchedCreateCmd(
    ClientData clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField nodeOptions[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_MAX(SchedArgs, bw_share, UINT32_MAX, "n"),
	VERBS_OPTION_MAX(SchedArgs, max_avg_bw, UINT32_MAX, "n"),
	VERBS_OPTION(SchedArgs, parent, VF_OBJ, &verbsSchedNodeClass, "node"),
	VERBS_FIELD_END
    };
    static const VerbsField leafOptions[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_MAX(SchedArgs, bw_share, UINT32_MAX, "n"),
	VERBS_OPTION_MAX(SchedArgs, max_avg_bw, UINT32_MAX, "n"),
	VERBS_OPTION_REQUIRED(SchedArgs, parent, VF_OBJ, &verbsSchedNodeClass,
		0, "node:the node it hangs from"),
	VERBS_FIELD_END
    };
    int leaf = clientData != NULL;
    const char *call = leaf ? "mlx5dv_sched_leaf_create"
	    : "mlx5dv_sched_node_create";
    SchedArgs a;
    struct mlx5dv_sched_attr attr;
    VerbsContext *c;
    Mlx5Sched *s;
    void *elem;

    memset(&a, 0, sizeof(a));
    a.bw_share = a.max_avg_bw = VERBS_NOT_GIVEN;
    if (VerbsCreateArgs(interp, objc, objv, "context", leaf ? leafOptions
	    : nodeOptions, &a, &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) a.head.parent;
    if (a.parent && Mlx5ContextOf(a.parent) != c) {
	return VerbsArgError(interp, "-parent", NULL, "-parent is on another "
		"device context");
    }
    if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, call, c);
    }
    memset(&attr, 0, sizeof(attr));
    attr.parent = a.parent ? (struct mlx5dv_sched_node *)
	    ((Mlx5Sched *) a.parent)->elem : NULL;
    if (a.bw_share != VERBS_NOT_GIVEN) {
	attr.flags |= MLX5DV_SCHED_ELEM_ATTR_FLAGS_BW_SHARE;
    } else {
	a.bw_share = 0;
    }
    if (a.max_avg_bw != VERBS_NOT_GIVEN) {
	attr.flags |= MLX5DV_SCHED_ELEM_ATTR_FLAGS_MAX_AVG_BW;
    } else {
	a.max_avg_bw = 0;
    }
    attr.bw_share = (uint32_t) a.bw_share;
    attr.max_avg_bw = (uint32_t) a.max_avg_bw;
    elem = leaf ? (void *) mlx5dv_sched_leaf_create(c->ctx, &attr)
	    : (void *) mlx5dv_sched_node_create(c->ctx, &attr);
    if (elem == NULL) {
	return VerbsSysError(interp, call, &c->obj, NULL,
		errno ? errno : EINVAL);
    }
    s = (Mlx5Sched *) VerbsObjNew(leaf ? &verbsSchedLeafClass
	    : &verbsSchedNodeClass);
    s->elem = elem;
    s->leaf = leaf;
    s->bwShare = a.bw_share;
    s->maxAvgBw = a.max_avg_bw;
    return VerbsObjAdopt(interp, &s->obj, a.parent ? a.parent : &c->obj,
	    a.head.command);
}

static int
SchedModify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    Mlx5Sched *s = (Mlx5Sched *) objPtr;
    struct mlx5dv_sched_attr attr;
    SchedArgs a;
    uint64_t given = 0;
    int err;

    memset(&a, 0, sizeof(a));
    if (VerbsDictToStruct(interp, &schedStruct, "attributes", objv[2], &a,
	    &given) != TCL_OK) {
	return TCL_ERROR;
    }
    memset(&attr, 0, sizeof(attr));
    if (objPtr->parent->typePtr == &verbsSchedNodeClass) {
	attr.parent = (struct mlx5dv_sched_node *)
		((Mlx5Sched *) objPtr->parent)->elem;
    }
    attr.flags = ((given & SA_BW) ? MLX5DV_SCHED_ELEM_ATTR_FLAGS_BW_SHARE : 0)
	    | ((given & SA_MAX) ? MLX5DV_SCHED_ELEM_ATTR_FLAGS_MAX_AVG_BW : 0);
    attr.bw_share = (uint32_t) a.bw_share;
    attr.max_avg_bw = (uint32_t) a.max_avg_bw;
    err = s->leaf ? mlx5dv_sched_leaf_modify(
	    (struct mlx5dv_sched_leaf *) s->elem, &attr)
	    : mlx5dv_sched_node_modify((struct mlx5dv_sched_node *) s->elem,
	    &attr);
    if (err) {
	return VerbsSysError(interp, s->leaf ? "mlx5dv_sched_leaf_modify"
		: "mlx5dv_sched_node_modify", objPtr, NULL, err);
    }
    if (given & SA_BW) {
	s->bwShare = a.bw_share;
    }
    if (given & SA_MAX) {
	s->maxAvgBw = a.max_avg_bw;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * QpSchedElemCmd --
 *
 *	mlx5::qp sched_elem QP ?-requestor LEAF? ?-responder LEAF?: the
 *	leaves that schedule the QP's requests and responses
 *	(mlx5dv_modify_qp_sched_elem).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Modifies the QP.
 *
 *----------------------------------------------------------------------
 */

static int
QpSchedElemCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	VerbsObj *requestor;
	VerbsObj *responder;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION(Args, requestor, VF_OBJ, &verbsSchedLeafClass, "leaf"),
	VERBS_OPTION(Args, responder, VF_OBJ, &verbsSchedLeafClass, "leaf"),
	VERBS_FIELD_END
    };
    Args a = {{NULL, NULL}, NULL, NULL};
    VerbsQp *q;
    VerbsContext *c;
    int err;

    if (VerbsCreateArgs(interp, objc, objv, "qp", options, &a,
	    &verbsQpClass) != TCL_OK) {
	return TCL_ERROR;
    }
    q = (VerbsQp *) a.head.parent;
    c = Mlx5ContextOf(&q->obj);
    if (c && !mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_modify_qp_sched_elem", c);
    }
    if ((a.requestor && Mlx5ContextOf(a.requestor) != c)
	    || (a.responder && Mlx5ContextOf(a.responder) != c)) {
	return VerbsArgError(interp, a.requestor && Mlx5ContextOf(a.requestor)
		!= c ? "-requestor" : "-responder", NULL, "the leaf is on "
		"another device context");
    }
    err = mlx5dv_modify_qp_sched_elem(q->qp, a.requestor
	    ? (struct mlx5dv_sched_leaf *) ((Mlx5Sched *) a.requestor)->elem
	    : NULL, a.responder
	    ? (struct mlx5dv_sched_leaf *) ((Mlx5Sched *) a.responder)->elem
	    : NULL);
    return err ? VerbsSysError(interp, "mlx5dv_modify_qp_sched_elem",
	    &q->obj, NULL, err) : TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * MsiCreateCmd, EqCreateCmd, EqRead, EqOutput --
 *
 *	mlx5::devx msi create CONTEXT ?-as NAME?: an MSI-X vector
 *	(mlx5dv_devx_alloc_msi_vector); cget -vector and -fd (the
 *	eventfd it signals).
 *	mlx5::devx eq create CONTEXT IN -outlen N ?-as NAME?: an event
 *	queue (mlx5dv_devx_create_eq) made by the CREATE_EQ input IN
 *	(mlx5::prm pack create_eq_in), whose entries libmlx5 allocates:
 *	$eq read OFFSET LENGTH reads them (the length is the queue's
 *	2^log_eq_size entries of 64 bytes); $eq output is the create
 *	command's output (its eqn).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	See above.
 *
 *----------------------------------------------------------------------
 */

static int
MsiCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND, VERBS_FIELD_END
    };
    VerbsCreateHead head = {NULL, NULL};
    struct mlx5dv_devx_msi_vector *msi;
    VerbsContext *c;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &head,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) head.parent;
    if (!mlx5dv_is_supported(c->ctx->device) && !Mlx5IsVfio(c)) {
	return Mlx5NotSupported(interp, "mlx5dv_devx_alloc_msi_vector", c);
    }
    msi = mlx5dv_devx_alloc_msi_vector(c->ctx);
    if (msi == NULL) {
	return VerbsSysError(interp, "mlx5dv_devx_alloc_msi_vector", &c->obj,
		NULL, errno ? errno : EINVAL);
    }
    return VerbsObjWrap(interp, &verbsMsiClass, offsetof(Mlx5Msi, msi), msi,
	    &c->obj, head.command) ? TCL_OK : TCL_ERROR;
}

static int
EqCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	Tcl_Size outlen;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_PARSE(Args, outlen, Mlx5ParseOutLen, VF_REQUIRED,
		"bytes:the size of the command's output"),
	VERBS_FIELD_END
    };
    Args a = {{NULL, NULL}, 0};
    struct mlx5dv_devx_eq *eq;
    VerbsContext *c;
    const unsigned char *in;
    unsigned char *out;
    Tcl_Size inLen;
    Mlx5Eq *e;
    uint64_t logSize = 0;

    if (VerbsCreateArgs(interp, objc, objv, "context in", options, &a,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) a.head.parent;
    in = VerbsGetBytes(interp, "in", objv[2], &inLen);
    if (in == NULL) {
	return TCL_ERROR;
    }
    if (!mlx5dv_is_supported(c->ctx->device) && !Mlx5IsVfio(c)) {
	return Mlx5NotSupported(interp, "mlx5dv_devx_create_eq", c);
    }
    /* The entries' memory: 2^log_eq_size entries of 64 bytes. */
    if (Mlx5PrmGet("create_eq_in", "eq_context_entry.log_eq_size", in, inLen,
	    &logSize) != 0 || logSize > 24) {
	logSize = 0;
    }
    out = (unsigned char *) ckalloc((size_t) a.outlen);
    memset(out, 0, (size_t) a.outlen);
    eq = mlx5dv_devx_create_eq(c->ctx, in, (size_t) inLen, out,
	    (size_t) a.outlen);
    if (eq == NULL) {
	int err = errno ? errno : EINVAL;

	Mlx5FirmwareError(interp, "mlx5dv_devx_create_eq", &c->obj, err, in,
		inLen, out, (size_t) a.outlen);
	ckfree(out);
	return TCL_ERROR;
    }
    e = (Mlx5Eq *) VerbsObjNew(&verbsEqClass);
    e->eq = eq;
    e->out = out;
    e->outLen = a.outlen;
    e->length = (size_t) 64 << logSize;
    {
	const char *kind;
	uint32_t id;

	if (Mlx5PrmCreated(in, inLen, out, a.outlen, &kind, &id) == 0
		&& strcmp(kind, "eq") == 0) {
	    e->hasEqn = 1;
	    e->eqn = id;
	}
    }
    return VerbsObjAdopt(interp, &e->obj, &c->obj, a.head.command);
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5EqNumber --
 *
 *	The number of a DevX EQ (from its create command's output), so that
 *	a CQ created on it (create_cq_in's c_eqn_or_apu_element) holds it.
 *
 * Results:
 *	1 with *eqnPtr set for an EQ whose number is known; else 0.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5EqNumber(
    VerbsObj *objPtr,
    uint32_t *eqnPtr)
{
    Mlx5Eq *e = (Mlx5Eq *) objPtr;

    if (objPtr->typePtr != &verbsEqClass || !e->hasEqn || e->eq == NULL) {
	return 0;
    }
    *eqnPtr = e->eqn;
    return 1;
}

static int
EqRead(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    Mlx5Eq *e = (Mlx5Eq *) objPtr;
    uint64_t off, len;

    if (VerbsGetRange(interp, objPtr, e->length, objv[2], objv[3], &off,
	    &len) != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, Tcl_NewByteArrayObj(
	    (unsigned char *) e->eq->vaddr + off, (Tcl_Size) len));
    return TCL_OK;
}

static int
EqOutput(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    Mlx5Eq *e = (Mlx5Eq *) objPtr;

    Tcl_SetObjResult(interp, Tcl_NewByteArrayObj(e->out, e->outLen));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5SchedInit --
 *
 *	The commands of this file.
 *
 * Results:
 *	TCL_OK.
 *
 * Side effects:
 *	Creates commands.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5SchedInit(
    Tcl_Interp *interp)
{
    Mlx5AddCommandData(interp, "sched::node::create", SchedCreateCmd, NULL);
    Mlx5AddCommandData(interp, "sched::leaf::create", SchedCreateCmd,
	    (ClientData) 1);
    Mlx5AddCommand(interp, "qp::sched_elem", QpSchedElemCmd);
    Mlx5AddCommand(interp, "devx::msi::create", MsiCreateCmd);
    Mlx5AddCommand(interp, "devx::eq::create", EqCreateCmd);
    return TCL_OK;
}
