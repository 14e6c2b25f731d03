/*
 * verbsCompCntr.c --
 *
 *	Completion counters (ibv_create_comp_cntr, rdma-core 65 and later):
 *	a pair of 64-bit counts, completions and errors, that a device adds
 *	to as the operations of the queue pairs they are attached to
 *	complete, in place of (or beside) completion queue entries.
 *	verbs::compcntr create makes one on a context; $qp
 *	attach_comp_cntr attaches it to a queue pair, which then holds it:
 *	a counter is destroyed only after every queue pair it is attached
 *	to (libibverbs refuses the reverse with EBUSY).  Built against an
 *	older libibverbs, every call checks its arguments and then refuses
 *	with EOPNOTSUPP.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <string.h>

#ifdef HAVE_IBV_CREATE_COMP_CNTR
#define ATTACH_WHY NULL
#else
#define NEEDS "needs rdma-core 65 or later"
#define ATTACH_WHY NEEDS
#endif

/*
 * A counter attached to a queue pair (VerbsQp.cntrs): the queue pair holds
 * a reference on it until the queue pair is destroyed.
 */

struct VerbsQpCntr {
    struct VerbsQpCntr *next;
    VerbsCompCntr *cntr;
    uint64_t opMask;
};

static Tcl_ObjCmdProc CompCntrCreateCmd;
static VerbsMethodProc CompCntrInc, CompCntrIncErr, CompCntrRead,
	CompCntrReadErr, CompCntrSet, CompCntrSetErr;

static const VerbsMethod compCntrMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"inc", CompCntrInc, 0, 1, "?amount?"},
    {"inc_err", CompCntrIncErr, 0, 1, "?amount?"},
    {"read", CompCntrRead, 0, 0, ""},
    {"read_err", CompCntrReadErr, 0, 0, ""},
    {"set", CompCntrSet, 1, 1, "value"},
    {"set_err", CompCntrSetErr, 1, 1, "value"},
    {NULL, NULL, 0, 0, NULL}
};

static VerbsGetProc CompCntrHandle;

static const VerbsField compCntrCget[] = {
    VERBS_CGET("-attributes", VerbsCompCntr, attrs, VF_TCLOBJ, NULL),
    VERBS_CGET_PROC("-handle", CompCntrHandle),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static const VerbsCommand compCntrCommands[] = {
    {"create", CompCntrCreateCmd}, {NULL, NULL}
};

/*
 * enum ibv_comp_cntr_type and enum ibv_qp_attach_comp_cntr_op, by value
 * (both are as new as the calls).
 */

static const VerbsEnum cntrTypes[] = {
    {"wrs", 0}, {"bytes", 1}, {NULL, 0}
};

const VerbsEnum verbsCompCntrOps[] = {
    {"send", 1 << 0},
    {"recv", 1 << 1},
    {"rdma_read", 1 << 2},
    {"remote_rdma_read", 1 << 3},
    {"rdma_write", 1 << 4},
    {"remote_rdma_write", 1 << 5},
    {NULL, 0}
};

/*
 *----------------------------------------------------------------------
 *
 * CompCntrFree --
 *
 *	Destroy the counter (ibv_destroy_comp_cntr).  Every queue pair it
 *	was attached to is gone by now: each held a reference.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Frees the counter and the attributes.
 *
 *----------------------------------------------------------------------
 */

static void
CompCntrFree(
    VerbsObj *objPtr)
{
    VerbsCompCntr *c = (VerbsCompCntr *) objPtr;

#ifdef HAVE_IBV_CREATE_COMP_CNTR
    ibv_destroy_comp_cntr(c->cntr);
#endif
    if (c->attrs) {		/* NULL when registering failed. */
	Tcl_DecrRefCount(c->attrs);
    }
}

const VerbsType verbsCompCntrClass = {
    .name = "compcntr",
    .size = sizeof(VerbsCompCntr),
    .methods = compCntrMethods,
    .cget = compCntrCget,
    .freeProc = CompCntrFree,
    .commands = compCntrCommands,
};

/*
 * The kernel's handle of the counter (struct ibv_comp_cntr's handle).
 */

static int
CompCntrHandle(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
#ifdef HAVE_IBV_CREATE_COMP_CNTR
    struct ibv_comp_cntr *cntr = ((VerbsCompCntr *) objPtr)->cntr;

    *valuePtr = Tcl_NewWideIntObj((Tcl_WideInt) cntr->handle);
#else
    (void) objPtr;
    *valuePtr = Tcl_NewObj();
#endif
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CompCntrCreateCmd --
 *
 *	verbs::compcntr create CONTEXT ?-type wrs|bytes? ?-flags N?
 *		?-as NAME?
 *
 *	What the counter counts: completed work requests (wrs, the
 *	default) or completed bytes.  -flags is the reserved field,
 *	passed on as given (libibverbs wants 0).
 *
 * Results:
 *	The compcntr object command's name.
 *
 * Side effects:
 *	ibv_create_comp_cntr.
 *
 *----------------------------------------------------------------------
 */

typedef struct {
    VerbsCreateHead head;
    uint64_t type, flags;
} CntrArgs;

static int
CompCntrCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(CntrArgs, type, VF_ENUM, cntrTypes, "wrs|bytes"),
	VERBS_OPTION_MAX(CntrArgs, flags, UINT32_MAX, "n"),
	VERBS_FIELD_END
    };
    CntrArgs args = {{NULL, NULL}, 0, 0};
    VerbsCompCntr *c;
    void *cntr;
    Tcl_Obj *attrs;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
#ifdef HAVE_IBV_CREATE_COMP_CNTR
    {
	struct ibv_comp_cntr_init_attr init;

	memset(&init, 0, sizeof(init));
	init.type = (enum ibv_comp_cntr_type) args.type;
	init.flags = (uint32_t) args.flags;
	cntr = ibv_create_comp_cntr(((VerbsContext *) args.head.parent)->ctx,
		&init);
	if (cntr == NULL) {
	    return VerbsSysError(interp, "ibv_create_comp_cntr",
		    args.head.parent, NULL, errno);
	}
    }
#else
    (void) cntr;
    return VerbsSysError(interp, "ibv_create_comp_cntr", args.head.parent,
	    NEEDS, EOPNOTSUPP);
#endif
    c = (VerbsCompCntr *) VerbsObjWrap(interp, &verbsCompCntrClass,
	    offsetof(VerbsCompCntr, cntr), cntr, args.head.parent,
	    args.head.command);
    if (c == NULL) {
	return TCL_ERROR;
    }
    attrs = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, attrs, Tcl_NewStringObj("type", -1),
	    VerbsEnumObj(cntrTypes, args.type));
    Tcl_DictObjPut(NULL, attrs, Tcl_NewStringObj("flags", -1),
	    Tcl_NewWideIntObj((Tcl_WideInt) args.flags));
    Tcl_IncrRefCount(attrs);
    c->attrs = attrs;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CountOp, CompCntrSet, CompCntrSetErr, CompCntrInc, CompCntrIncErr,
 * CompCntrRead, CompCntrReadErr --
 *
 *	$cntr set VALUE, $cntr set_err VALUE, $cntr inc ?AMOUNT?, $cntr
 *	inc_err ?AMOUNT? (an amount of 1 by default): ibv_set_comp_cntr,
 *	ibv_set_err_comp_cntr, ibv_inc_comp_cntr, ibv_inc_err_comp_cntr.
 *	$cntr read, $cntr read_err: ibv_read_comp_cntr,
 *	ibv_read_err_comp_cntr.  Each method has its own proc (a method may
 *	be given abbreviated, so its word does not say which it is), and
 *	CountOp makes the call a row of counts[] names.
 *
 * Results:
 *	Empty, or the count read.
 *
 * Side effects:
 *	Changes the count.
 *
 *----------------------------------------------------------------------
 */

typedef enum {
    COUNT_SET, COUNT_SET_ERR, COUNT_INC, COUNT_INC_ERR, COUNT_READ,
    COUNT_READ_ERR
} CountKind;

static const struct {
    const char *call;
    const char *arg;		/* The argument's name in errors. */
} counts[] = {
    {"ibv_set_comp_cntr", "value"},
    {"ibv_set_err_comp_cntr", "value"},
    {"ibv_inc_comp_cntr", "amount"},
    {"ibv_inc_err_comp_cntr", "amount"},
    {"ibv_read_comp_cntr", NULL},
    {"ibv_read_err_comp_cntr", NULL}
};

static int
CountOp(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[],
    CountKind kind)
{
    uint64_t value = 1;
    int err;

    if (objc == 3 && VerbsGetUInt(interp, counts[kind].arg, objv[2],
	    UINT64_MAX, &value) != TCL_OK) {
	return TCL_ERROR;
    }
#ifdef HAVE_IBV_CREATE_COMP_CNTR
    {
	struct ibv_comp_cntr *cntr = ((VerbsCompCntr *) objPtr)->cntr;

	switch (kind) {
	case COUNT_SET: err = ibv_set_comp_cntr(cntr, value); break;
	case COUNT_SET_ERR: err = ibv_set_err_comp_cntr(cntr, value); break;
	case COUNT_INC: err = ibv_inc_comp_cntr(cntr, value); break;
	case COUNT_INC_ERR: err = ibv_inc_err_comp_cntr(cntr, value); break;
	case COUNT_READ: err = ibv_read_comp_cntr(cntr, &value); break;
	default: err = ibv_read_err_comp_cntr(cntr, &value); break;
	}
    }
#else
    err = EOPNOTSUPP;
#endif
    if (err != 0) {
	return VerbsSysError(interp, counts[kind].call, objPtr, NULL, err);
    }
    if (kind == COUNT_READ || kind == COUNT_READ_ERR) {
	Tcl_SetObjResult(interp, VerbsU64Obj(value));
    }
    return TCL_OK;
}

#define COUNT_METHOD(name, kind) \
    static int name(Tcl_Interp *interp, VerbsObj *objPtr, int objc, \
	    Tcl_Obj *const objv[]) \
    { \
	return CountOp(interp, objPtr, objc, objv, kind); \
    }
COUNT_METHOD(CompCntrSet, COUNT_SET)
COUNT_METHOD(CompCntrSetErr, COUNT_SET_ERR)
COUNT_METHOD(CompCntrInc, COUNT_INC)
COUNT_METHOD(CompCntrIncErr, COUNT_INC_ERR)
COUNT_METHOD(CompCntrRead, COUNT_READ)
COUNT_METHOD(CompCntrReadErr, COUNT_READ_ERR)
#undef COUNT_METHOD

/*
 *----------------------------------------------------------------------
 *
 * VerbsQpAttachCompCntr --
 *
 *	$qp attach_comp_cntr CNTR OPS: ibv_qp_attach_comp_cntr, with OPS the
 *	operations whose completions the counter counts (send, recv,
 *	rdma_read, remote_rdma_read, rdma_write, remote_rdma_write).  The
 *	counter must be on the queue pair's device context; libibverbs
 *	wants the queue pair in reset or init.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Attaches the counter; the queue pair holds it until destroyed.
 *
 *----------------------------------------------------------------------
 */

int
VerbsQpAttachCompCntr(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    VerbsQp *q = (VerbsQp *) objPtr;
    VerbsObj *ctx = objPtr->parent, *cobj;
    VerbsCompCntr *c;
    struct VerbsQpCntr *a;
    uint64_t ops;
    int err;

    while (ctx->typePtr != &verbsContextClass) {
	ctx = ctx->parent;
    }
    if ((cobj = VerbsObjGet(interp, objv[2], &verbsCompCntrClass)) == NULL
	    || VerbsCheckOwner(interp, "compcntr", cobj, ctx,
		"device context than the qp") != TCL_OK
	    || VerbsGetFlags(interp, verbsCompCntrOps, "op_mask", objv[3],
		&ops) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsCompCntr *) cobj;
#ifdef HAVE_IBV_CREATE_COMP_CNTR
    {
	struct ibv_qp_attach_comp_cntr_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.op_mask = (uint32_t) ops;
	err = ibv_qp_attach_comp_cntr(q->qp, c->cntr, &attr);
    }
#else
    (void) q;
    err = EOPNOTSUPP;
#endif
    if (err != 0) {
	return VerbsSysError(interp, "ibv_qp_attach_comp_cntr", objPtr,
		ATTACH_WHY, err);
    }
    a = (struct VerbsQpCntr *) ckalloc(sizeof(*a));
    a->cntr = c;
    a->opMask = ops;
    a->next = q->cntrs;
    q->cntrs = a;
    VerbsObjRetain(&c->obj);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsQpCompCntrs, VerbsQpCompCntrsRelease --
 *
 *	The counters attached to a queue pair, as a dict of counter name
 *	to operations in the order they were attached ($qp cget
 *	-comp_cntrs; a counter whose command is gone is left out); and,
 *	once the queue pair is destroyed, the release of each.
 *
 * Results:
 *	TCL_OK and the dict; none.
 *
 * Side effects:
 *	The release may destroy counters whose commands are gone.
 *
 *----------------------------------------------------------------------
 */

int
VerbsQpCompCntrs(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    struct VerbsQpCntr *a;
    Tcl_Obj *list = Tcl_NewListObj(0, NULL);

    for (a = ((VerbsQp *) objPtr)->cntrs; a; a = a->next) {
	Tcl_Obj *pair[2];

	pair[0] = VerbsObjName(&a->cntr->obj);
	if (a->cntr->obj.token == NULL) {
	    Tcl_DecrRefCount(pair[0]);	/* Closed: left out. */
	    continue;
	}
	pair[1] = VerbsFlagsObj(verbsCompCntrOps, a->opMask);
	Tcl_ListObjReplace(NULL, list, 0, 0, 2, pair);
    }
    *valuePtr = list;
    return TCL_OK;
}

void
VerbsQpCompCntrsRelease(
    VerbsQp *q)
{
    struct VerbsQpCntr *a;

    while ((a = q->cntrs) != NULL) {
	q->cntrs = a->next;
	VerbsObjRelease(&a->cntr->obj);
	ckfree(a);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsCompCntrCaps --
 *
 *	$ctx query comp_cntr_caps: ibv_query_comp_cntr_caps, as a dict of
 *	max_value, max_counters and supported_qp_attach_ops (the operation
 *	names of attach_comp_cntr).
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
VerbsCompCntrCaps(
    Tcl_Interp *interp,
    VerbsObj *objPtr)
{
#ifdef HAVE_IBV_CREATE_COMP_CNTR
    struct ibv_comp_cntr_caps caps;
    Tcl_Obj *d;
    int err;

    memset(&caps, 0, sizeof(caps));
    err = ibv_query_comp_cntr_caps(((VerbsContext *) objPtr)->ctx, &caps);
    if (err != 0) {
	return VerbsSysError(interp, "ibv_query_comp_cntr_caps", objPtr, NULL,
		err);
    }
    d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("max_value", -1),
	    VerbsU64Obj(caps.max_value));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("max_counters", -1),
	    Tcl_NewWideIntObj((Tcl_WideInt) caps.max_counters));
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("supported_qp_attach_ops", -1),
	    VerbsFlagsObj(verbsCompCntrOps, caps.supported_qp_attach_ops));
    Tcl_SetObjResult(interp, d);
    return TCL_OK;
#else
    return VerbsSysError(interp, "ibv_query_comp_cntr_caps", objPtr, NEEDS,
	    EOPNOTSUPP);
#endif
}
