/*
 * verbsSrq.c --
 *
 *	Shared receive queues: [verbs::srq create PD] (basic, XRC and tag
 *	matching SRQs), query and modify with attribute dicts, post_recv,
 *	and the tag list operations of post_srq_ops.  QPs created with -srq
 *	take their receives from it and keep it alive.  XRC domains:
 *	[verbs::xrcd open CONTEXT], where XRC SRQs and xrc_recv QPs live.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>

/*
 * ------------------------------------------------------------------------
 * The names and struct tables of SRQs, XRC domains and tag matching: the
 * rows with which the attribute dict engine (verbsAttr.c) reads and writes
 * these C structs.
 * ------------------------------------------------------------------------
 */

#define RO VF_READONLY

const VerbsEnum verbsSrqTypes[] = {
    {"basic", IBV_SRQT_BASIC},
    {"xrc", IBV_SRQT_XRC},
    {"tm", IBV_SRQT_TM},
    {NULL, 0}
};
const VerbsEnum verbsXrcdOflags[] = {
    {"create", O_CREAT},
    {"excl", O_EXCL},
    {NULL, 0}
};
const VerbsEnum verbsOpsOpcode[] = {
    {"add", IBV_WR_TAG_ADD},
    {"del", IBV_WR_TAG_DEL},
    {"sync", IBV_WR_TAG_SYNC},
    {NULL, 0}
};
const VerbsEnum verbsOpsFlags[] = {
    {"signaled", IBV_OPS_SIGNALED},
    {"tm_sync", IBV_OPS_TM_SYNC},
    {NULL, 0}
};

#define SA(f, mask) VERBS_FIELD(struct ibv_srq_attr, f, VF_UINT, NULL, mask, 0)
static const VerbsField srqAttrFields[] = {
    SA(max_wr, IBV_SRQ_MAX_WR),
    VERBS_FIELD(struct ibv_srq_attr, max_sge, VF_UINT, NULL, 0, RO),
    SA(srq_limit, IBV_SRQ_LIMIT),
    VERBS_FIELD_END
};
const VerbsStruct verbsSrqAttrStruct = {"srq attribute", srqAttrFields};

static const VerbsField tmCapFields[] = {
    VERBS_FIELD(struct ibv_tm_cap, max_num_tags, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct ibv_tm_cap, max_ops, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
const VerbsStruct verbsTmCapStruct = {"tm cap", tmCapFields};

#undef RO


static VerbsMethodProc SrqModify, SrqPostRecv, SrqPostOps, SrqQuery;
static VerbsGetProc SrqNum;

static const VerbsMethod srqMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"modify", SrqModify, 1, 1, "attributes"},
    {"post_recv", SrqPostRecv, 1, -1, "wr ?wr ...?"},
    {"post_srq_ops", SrqPostOps, 1, -1, "op ?op ...?"},
    {"query", SrqQuery, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField srqCget[] = {
    VERBS_CGET_PTR("-handle", VerbsSrq, srq, struct ibv_srq, handle, VF_UINT,
	    NULL),
    VERBS_CGET_PROC("-srq_num", SrqNum),
    VERBS_CGET("-srq_type", VerbsSrq, srqType, VF_ENUM, verbsSrqTypes),
    VERBS_CGET_PARENT("-pd"),
    VERBS_CGET("-xrcd", VerbsSrq, xrcd, VF_OBJ, NULL),
    VERBS_CGET("-cq", VerbsSrq, cq, VF_OBJ, NULL),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc SrqCreateCmd;

static const VerbsCommand srqCommands[] = {
    {"create", SrqCreateCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * SrqFree --
 *
 *	Destruction once no QP uses the SRQ, which then lets go of its CQ
 *	and XRC domain.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_destroy_srq, releases the CQ and XRCD references.
 *
 *----------------------------------------------------------------------
 */

static void
SrqFree(
    VerbsObj *objPtr)
{
    VerbsSrq *s = (VerbsSrq *) objPtr;

    ibv_destroy_srq(s->srq);
    if (s->cq) {
	VerbsObjRelease(&s->cq->obj);
    }
    if (s->xrcd) {
	VerbsObjRelease(&s->xrcd->obj);
    }
}

const VerbsType verbsSrqClass = {
    .name = "srq",
    .size = sizeof(VerbsSrq),
    .methods = srqMethods,
    .cget = srqCget,
    .freeProc = SrqFree,
    .commands = srqCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * OnlyFor --
 *
 *	The error for an option given where it means nothing; its value is
 *	valueObj or the name of objPtr.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the result and errorCode {VERBS ARG option value}.
 *
 *----------------------------------------------------------------------
 */

static int
OnlyFor(
    Tcl_Interp *interp,
    const char *option,
    Tcl_Obj *valueObj,
    VerbsObj *objPtr,
    const char *what)
{
    Tcl_Obj *name = objPtr ? VerbsObjName(objPtr) : NULL;

    VerbsArgError(interp, option, name ? name : valueObj, "%s is for %s",
	    option, what);
    if (name) {
	Tcl_DecrRefCount(name);
    }
    return TCL_ERROR;
}

typedef struct {
    VerbsCreateHead head;
    VerbsObj *cq;
    uint32_t max_sge, max_wr, srq_limit;
    Tcl_Obj *tm_cap;
    uint64_t type;
    VerbsObj *xrcd;
} SrqArgs;

/*
 *----------------------------------------------------------------------
 *
 * SrqKind --
 *
 *	What each kind of SRQ takes, into the init attributes: an xrc or
 *	tm SRQ its -cq (a tm one an extended CQ), an xrc one its -xrcd, a
 *	tm one its -tm_cap; each option is refused by the kinds it is not
 *	for.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills init.
 *
 *----------------------------------------------------------------------
 */

static int
SrqKind(
    Tcl_Interp *interp,
    const SrqArgs *args,
    VerbsPd *p,
    struct ibv_srq_init_attr_ex *init)
{
    VerbsCq *cq = (VerbsCq *) args->cq;

    if (args->type != IBV_SRQT_XRC && args->xrcd) {
	return OnlyFor(interp, "-xrcd", NULL, args->xrcd, "xrc srqs");
    }
    if (args->type != IBV_SRQT_TM && args->tm_cap) {
	return OnlyFor(interp, "-tm_cap", args->tm_cap, NULL, "tm srqs");
    }
    if (args->type == IBV_SRQT_BASIC && cq) {
	return OnlyFor(interp, "-cq", NULL, &cq->obj, "xrc and tm srqs");
    }
    if (args->type == IBV_SRQT_BASIC) {
	return TCL_OK;
    }
    if (cq == NULL) {
	return VerbsArgError(interp, "-cq", NULL, "missing -cq: %s "
		"srq completes its receives on a cq",
		args->type == IBV_SRQT_XRC ? "an xrc" : "a tm");
    }
    if (VerbsCheckOwner(interp, "-cq", &cq->obj, p->obj.parent,
	    "device context than the pd") != TCL_OK) {
	return TCL_ERROR;
    }
    init->cq = cq->cq;
    init->comp_mask |= IBV_SRQ_INIT_ATTR_CQ;
    if (args->type == IBV_SRQT_XRC) {
	if (args->xrcd == NULL) {
	    return VerbsArgError(interp, "-xrcd", NULL, "missing -xrcd: an "
		    "xrc srq lives in an xrc domain");
	}
	if (VerbsCheckOwner(interp, "-xrcd", args->xrcd, p->obj.parent,
		"device context than the pd") != TCL_OK) {
	    return TCL_ERROR;
	}
	init->xrcd = ((VerbsXrcd *) args->xrcd)->xrcd;
	init->comp_mask |= IBV_SRQ_INIT_ATTR_XRCD;
    }
    if (args->type == IBV_SRQT_TM) {
	if (args->tm_cap == NULL || VerbsDictToStruct(interp,
		&verbsTmCapStruct, "-tm_cap", args->tm_cap, &init->tm_cap,
		NULL) != TCL_OK) {
	    return args->tm_cap ? TCL_ERROR : VerbsArgError(interp,
		    "-tm_cap", NULL, "missing -tm_cap: a tm srq needs "
		    "max_num_tags");
	}
	if (init->tm_cap.max_num_tags == 0) {
	    return VerbsArgError(interp, "-tm_cap", args->tm_cap, "-tm_cap "
		    "max_num_tags must be at least 1");
	}
	if (cq->cqx == NULL) {
	    Tcl_Obj *name = VerbsObjName(&cq->obj);

	    VerbsArgError(interp, "-cq", name, "-cq \"%s\" is not an "
		    "extended cq: a tm srq needs one made with -wc_flags",
		    Tcl_GetString(name));
	    Tcl_DecrRefCount(name);
	    return TCL_ERROR;
	}
	init->comp_mask |= IBV_SRQ_INIT_ATTR_TM;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * SrqCreateCmd --
 *
 *	verbs::srq create PD ?-type basic|xrc|tm? ?-xrcd XRCD? ?-cq CQ?
 *		?-tm_cap DICT? ?-max_wr N? ?-max_sge N? ?-srq_limit N?
 *		?-as NAME?
 *
 *	A basic SRQ is made by ibv_create_srq; an XRC SRQ (in an XRC
 *	domain, its completions on -cq) and a tag matching SRQ (its list
 *	of -tm_cap max_num_tags tags, completions on -cq, an extended CQ)
 *	by ibv_create_srq_ex.
 *
 * Results:
 *	The srq object command's name.
 *
 * Side effects:
 *	Creates the SRQ; takes references on its CQ and XRC domain.
 *
 *----------------------------------------------------------------------
 */

static int
SrqCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(SrqArgs, cq, VF_OBJ, &verbsCqClass, "cq"),
	VERBS_OPTION(SrqArgs, max_sge, VF_UINT, NULL, "n"),
	VERBS_OPTION(SrqArgs, max_wr, VF_UINT, NULL, "n"),
	VERBS_OPTION(SrqArgs, srq_limit, VF_UINT, NULL, "n"),
	VERBS_OPTION(SrqArgs, tm_cap, VF_TCLOBJ, NULL, "dict"),
	VERBS_OPTION(SrqArgs, type, VF_ENUM, verbsSrqTypes, "type"),
	VERBS_OPTION(SrqArgs, xrcd, VF_OBJ, &verbsXrcdClass, "xrcd"),
	VERBS_FIELD_END
    };
    SrqArgs args = {{NULL, NULL}, NULL, 1, 16, 0, NULL, IBV_SRQT_BASIC,
	    NULL};
    struct ibv_srq_init_attr_ex init;
    VerbsCq *cq;
    VerbsPd *p;
    VerbsSrq *s;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &args,
	    &verbsPdClass) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.head.parent;
    cq = (VerbsCq *) args.cq;
    memset(&init, 0, sizeof(init));
    init.attr.max_wr = args.max_wr;
    init.attr.max_sge = args.max_sge;
    init.attr.srq_limit = args.srq_limit;
    init.srq_type = (enum ibv_srq_type) args.type;
    init.pd = p->pd;
    init.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD;
    if (SrqKind(interp, &args, p, &init) != TCL_OK) {
	return TCL_ERROR;
    }

    /*
     * The SRQ's context pointer is its object, so that an async event
     * (srq_limit_reached) names it.
     */

    s = (VerbsSrq *) VerbsObjNew(&verbsSrqClass);
    init.srq_context = s;
    if (args.type == IBV_SRQT_BASIC) {
	s->srq = ibv_create_srq(p->pd, (struct ibv_srq_init_attr *) &init);
    } else {
	s->srq = ibv_create_srq_ex(((VerbsContext *) p->obj.parent)->ctx,
		&init);
    }
    if (s->srq == NULL) {
	ckfree(s);
	return VerbsSysError(interp, args.type == IBV_SRQT_BASIC
		? "ibv_create_srq" : "ibv_create_srq_ex", &p->obj, NULL,
		errno);
    }
    if (VerbsObjRegister(interp, &s->obj, &p->obj, args.head.command)
	    != TCL_OK) {
	ibv_destroy_srq(s->srq);
	ckfree(s);
	return TCL_ERROR;
    }
    s->srqType = init.srq_type;
    s->maxNumTags = init.tm_cap.max_num_tags;
    if (cq) {
	s->cq = cq;
	VerbsObjRetain(&cq->obj);
    }
    if (args.xrcd) {
	s->xrcd = (VerbsXrcd *) args.xrcd;
	VerbsObjRetain(args.xrcd);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * SrqNum --
 *
 *	The -srq_num cget option: the number a sender names the SRQ by (the
 *	remote_srqn of an xrc_send work request), ibv_get_srq_num.
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
SrqNum(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    uint32_t num = 0;
    int err = ibv_get_srq_num(((VerbsSrq *) objPtr)->srq, &num);

    if (err) {
	return VerbsSysError(interp, "ibv_get_srq_num", objPtr, NULL, err);
    }
    *valuePtr = Tcl_NewWideIntObj(num);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * SrqQuery, SrqModify --
 *
 *	$srq query: {max_wr max_sge srq_limit}.  $srq modify DICT: max_wr
 *	(resize, where the device can) and srq_limit (arm the limit event),
 *	attr_mask from the keys.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	ibv_modify_srq.
 *
 *----------------------------------------------------------------------
 */

static int
SrqQuery(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    struct ibv_srq_attr attr;
    int err = ibv_query_srq(((VerbsSrq *) objPtr)->srq, &attr);

    if (err) {
	return VerbsSysError(interp, "ibv_query_srq", objPtr, NULL, err);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsSrqAttrStruct, &attr));
    return TCL_OK;
}

static int
SrqModify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    struct ibv_srq_attr attr;
    uint64_t mask = 0;
    int err;

    memset(&attr, 0, sizeof(attr));
    if (VerbsDictToStruct(interp, &verbsSrqAttrStruct, "attributes", objv[2],
	    &attr, &mask) != TCL_OK) {
	return TCL_ERROR;
    }
    err = ibv_modify_srq(((VerbsSrq *) objPtr)->srq, &attr, (int) mask);
    if (err) {
	return VerbsSysError(interp, "ibv_modify_srq", objPtr, NULL, err);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * SrqPostRecv --
 *
 *	$srq post_recv WR ?WR ...?: as $qp post_recv.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	ibv_post_srq_recv.
 *
 *----------------------------------------------------------------------
 */

static int
PostToSrq(
    void *target,
    struct ibv_recv_wr *wrs,
    struct ibv_recv_wr **bad)
{
    return ibv_post_srq_recv((struct ibv_srq *) target, wrs, bad);
}

static int
SrqPostRecv(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsPostRecv(interp, objPtr, objc - 2, objv + 2, PostToSrq,
	    ((VerbsSrq *) objPtr)->srq, "ibv_post_srq_recv");
}

/*
 *----------------------------------------------------------------------
 *
 * SrqPostOps --
 *
 *	$srq post_srq_ops OP ?OP ...?: operations on the tag list of a tag
 *	matching SRQ, chained, in one ibv_post_srq_ops.  An op is a dict:
 *	opcode add|del|sync, wr_id, flags {signaled tm_sync},
 *	unexpected_cnt, and for add tag, mask (default all ones), sg_list
 *	and recv_wr_id (the wr_id of the receive a match completes), for
 *	del the handle an add returned.
 *
 * Results:
 *	The handles of the add operations, in order.  A failing post names
 *	the index of the first op that was not posted.
 *
 * Side effects:
 *	Posts the operations.
 *
 *----------------------------------------------------------------------
 */

typedef struct OpArgs {
    uint64_t flags;
    uint32_t handle;
    uint64_t mask;
    uint64_t opcode;
    uint64_t recv_wr_id;
    Tcl_Obj *sg_list;
    uint64_t tag;
    uint32_t unexpected_cnt;
    uint64_t wr_id;
} OpArgs;

#define OP_OPCODE 1		/* Masks that say which keys were given. */
#define OP_HANDLE 2
#define OP_ADD 4		/* A key of add only. */
#define OP_FIELD(f, kind, table, mask) \
    VERBS_FIELD(OpArgs, f, kind, table, mask, 0)

static const VerbsField opFields[] = {
    OP_FIELD(flags, VF_FLAGS, verbsOpsFlags, 0),
    OP_FIELD(handle, VF_UINT, NULL, OP_HANDLE),
    OP_FIELD(mask, VF_UINT, NULL, OP_ADD),
    OP_FIELD(opcode, VF_ENUM, verbsOpsOpcode, OP_OPCODE),
    OP_FIELD(recv_wr_id, VF_UINT, NULL, OP_ADD),
    OP_FIELD(sg_list, VF_TCLOBJ, NULL, OP_ADD),
    OP_FIELD(tag, VF_UINT, NULL, OP_ADD),
    OP_FIELD(unexpected_cnt, VF_UINT, NULL, 0),
    OP_FIELD(wr_id, VF_UINT, NULL, 0),
    VERBS_FIELD_END
};

static const VerbsStruct opStruct = {"srq op key", opFields};

static int
ParseOp(
    Tcl_Interp *interp,
    VerbsSrq *s,
    Tcl_Obj *dictObj,
    struct ibv_ops_wr *op)
{
    OpArgs a;
    uint64_t given = 0;

    memset(&a, 0, sizeof(a));
    a.mask = ~(uint64_t) 0;
    if (VerbsDictToStruct(interp, &opStruct, "op", dictObj, &a, &given)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (!(given & OP_OPCODE)) {
	return VerbsArgError(interp, "opcode", NULL,
		"an srq op needs opcode: add, del or sync");
    }
    op->wr_id = a.wr_id;
    op->opcode = (enum ibv_ops_wr_opcode) a.opcode;
    op->flags = (int) a.flags;
    op->tm.unexpected_cnt = a.unexpected_cnt;
    if (a.opcode != IBV_WR_TAG_ADD && (given & OP_ADD)) {
	return VerbsArgError(interp, "opcode", NULL,
		"tag, mask, sg_list and recv_wr_id are for add");
    }
    if (a.opcode == IBV_WR_TAG_ADD) {
	if (given & OP_HANDLE) {
	    return VerbsArgError(interp, "handle", NULL,
		    "add makes the handle: it is the result of post_srq_ops");
	}
	op->tm.add.recv_wr_id = a.recv_wr_id;
	op->tm.add.tag = a.tag;
	op->tm.add.mask = a.mask;
	return a.sg_list ? VerbsParseSgList(interp, a.sg_list,
		&op->tm.add.sg_list, &op->tm.add.num_sge, NULL) : TCL_OK;
    }
    if (a.opcode == IBV_WR_TAG_DEL) {
	/*
	 * The provider indexes its tag list with the handle unchecked.
	 */

	if (!(given & OP_HANDLE) || a.handle > s->maxNumTags) {
	    Tcl_Obj *value = Tcl_NewWideIntObj(a.handle);

	    Tcl_IncrRefCount(value);
	    if (given & OP_HANDLE) {
		VerbsArgError(interp, "handle", value, "bad handle \"%u\": "
			"the tag list of %u tags has no such entry", a.handle,
			s->maxNumTags);
	    } else {
		VerbsArgError(interp, "handle", NULL,
			"del needs handle, the handle an add returned");
	    }
	    Tcl_DecrRefCount(value);
	    return TCL_ERROR;
	}
	op->tm.handle = a.handle;
    } else if (given & OP_HANDLE) {
	return VerbsArgError(interp, "handle", NULL, "handle is for del");
    }
    return TCL_OK;
}

static int
SrqPostOps(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsSrq *s = (VerbsSrq *) objPtr;
    int n = objc - 2, i, err, result = TCL_ERROR;
    struct ibv_ops_wr *ops, *bad = NULL;
    Tcl_Obj *handles;

    ops = (struct ibv_ops_wr *) ckalloc(n * sizeof(*ops));
    memset(ops, 0, n * sizeof(*ops));
    for (i = 0; i < n; i++) {
	if (ParseOp(interp, s, objv[i + 2], &ops[i]) != TCL_OK) {
	    goto done;
	}
	ops[i].next = (i + 1 < n) ? &ops[i + 1] : NULL;
    }
    if (s->srqType != IBV_SRQT_TM) {
	Tcl_Obj *type = VerbsEnumObj(verbsSrqTypes, s->srqType);
	Tcl_Obj *name = VerbsObjName(objPtr);

	Tcl_IncrRefCount(type);
	VerbsArgError(interp, "-type", type, "%s is not a tag matching srq "
		"(-type tm) but %s", Tcl_GetString(name), Tcl_GetString(type));
	Tcl_DecrRefCount(type);
	Tcl_DecrRefCount(name);
	goto done;
    }
    err = ibv_post_srq_ops(s->srq, ops, &bad);
    if (err) {
	char what[32];

	snprintf(what, sizeof(what), "op %ld", bad ? (long) (bad - ops) : 0L);
	VerbsSysError(interp, "ibv_post_srq_ops", objPtr, what, err);
	goto done;
    }
    handles = Tcl_NewObj();
    for (i = 0; i < n; i++) {
	if (ops[i].opcode == IBV_WR_TAG_ADD) {
	    Tcl_ListObjAppendElement(NULL, handles,
		    Tcl_NewWideIntObj(ops[i].tm.handle));
	}
    }
    Tcl_SetObjResult(interp, handles);
    result = TCL_OK;
  done:
    for (i = 0; i < n; i++) {
	if (ops[i].opcode == IBV_WR_TAG_ADD && ops[i].tm.add.sg_list) {
	    ckfree(ops[i].tm.add.sg_list);
	}
    }
    ckfree(ops);
    return result;
}

/*
 * ------------------------------------------------------------------------
 * XRC domains.
 * ------------------------------------------------------------------------
 */

static const VerbsMethod xrcdMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField xrcdCget[] = {
    VERBS_CGET("-fd", VerbsXrcd, fd, VF_INT, NULL),
    VERBS_CGET("-oflags", VerbsXrcd, oflags, VF_FLAGS, verbsXrcdOflags),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc XrcdOpenCmd;

static const VerbsCommand xrcdCommands[] = {
    {"open", XrcdOpenCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * XrcdFree --
 *
 *	Closing once no SRQ or QP uses the domain.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_close_xrcd.
 *
 *----------------------------------------------------------------------
 */

static void
XrcdFree(
    VerbsObj *objPtr)
{
    ibv_close_xrcd(((VerbsXrcd *) objPtr)->xrcd);
}

const VerbsType verbsXrcdClass = {
    .name = "xrcd",
    .size = sizeof(VerbsXrcd),
    .methods = xrcdMethods,
    .cget = xrcdCget,
    .freeProc = XrcdFree,
    .commands = xrcdCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * XrcdOpenCmd --
 *
 *	verbs::xrcd open CONTEXT ?-fd CHANNEL|FD? ?-oflags {create excl}?
 *		?-as NAME?
 *
 *	Without -fd a domain of this process alone; with one, the domain
 *	the file names, which other processes open through the same file
 *	(-oflags create makes it when there is none, the default; excl
 *	refuses one that exists).
 *
 * Results:
 *	The xrcd object command's name.
 *
 * Side effects:
 *	ibv_open_xrcd.
 *
 *----------------------------------------------------------------------
 */

static int
XrcdOpenCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	Tcl_Obj *fd;
	uint64_t oflags;
    } XrcdArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(XrcdArgs, fd, VF_TCLOBJ, NULL, "channel|fd"),
	VERBS_OPTION(XrcdArgs, oflags, VF_FLAGS, verbsXrcdOflags, "flags"),
	VERBS_FIELD_END
    };
    XrcdArgs args = {{NULL, NULL}, NULL, O_CREAT};
    struct ibv_xrcd_init_attr init;
    VerbsContext *ctx;
    VerbsXrcd *x;
    int fd = -1;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    ctx = (VerbsContext *) args.head.parent;
    if (args.fd) {
	Tcl_Channel chan = Tcl_GetChannel(interp, Tcl_GetString(args.fd),
		NULL);
	ClientData handle;

	if (chan && (Tcl_GetChannelHandle(chan, TCL_READABLE, &handle)
		== TCL_OK || Tcl_GetChannelHandle(chan, TCL_WRITABLE, &handle)
		== TCL_OK)) {
	    fd = (int) (intptr_t) handle;
	} else if (Tcl_GetIntFromObj(NULL, args.fd, &fd) != TCL_OK
		|| fd < 0) {
	    return VerbsArgError(interp, "-fd", args.fd, "bad -fd \"%s\": "
		    "must be an open channel with a file descriptor, or a "
		    "file descriptor", Tcl_GetString(args.fd));
	}
	Tcl_ResetResult(interp);	/* Tcl_GetChannel's message. */
    }
    memset(&init, 0, sizeof(init));
    init.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
    init.fd = fd;
    init.oflags = (int) args.oflags;
    x = (VerbsXrcd *) VerbsObjNew(&verbsXrcdClass);
    x->xrcd = ibv_open_xrcd(ctx->ctx, &init);
    if (x->xrcd == NULL) {
	ckfree(x);
	return VerbsSysError(interp, "ibv_open_xrcd", &ctx->obj, NULL, errno);
    }
    x->fd = fd;
    x->oflags = init.oflags;
    if (VerbsObjRegister(interp, &x->obj, &ctx->obj, args.head.command)
	    != TCL_OK) {
	ibv_close_xrcd(x->xrcd);
	ckfree(x);
	return TCL_ERROR;
    }
    return TCL_OK;
}
