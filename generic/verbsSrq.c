/*
 * verbsSrq.c --
 *
 *	Shared receive queues: [verbs::srq create PD], query and modify
 *	with attribute dicts, post_recv.  QPs created with -srq take their
 *	receives from it and keep it alive.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <string.h>

static VerbsMethodProc SrqModify, SrqPostRecv, SrqQuery;

static const VerbsMethod srqMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"modify", SrqModify, 1, 1, "attributes"},
    {"post_recv", SrqPostRecv, 1, -1, "wr ?wr ...?"},
    {"query", SrqQuery, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField srqCget[] = {
    VERBS_CGET_PTR("-handle", VerbsSrq, srq, struct ibv_srq, handle, VF_UINT,
	    NULL),
    VERBS_CGET_PARENT("-pd"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc SrqCreateCmd;

static const VerbsCtor srqCtors[] = {
    {"create", SrqCreateCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * SrqFree --
 *
 *	Destruction once no QP uses the SRQ.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_destroy_srq.
 *
 *----------------------------------------------------------------------
 */

static void
SrqFree(
    VerbsObj *objPtr)
{
    ibv_destroy_srq(((VerbsSrq *) objPtr)->srq);
}

const VerbsType verbsSrqClass = {
    "srq", sizeof(VerbsSrq), srqMethods, srqCget, SrqFree, NULL, NULL,
    srqCtors
};

/*
 *----------------------------------------------------------------------
 *
 * SrqCreateCmd --
 *
 *	verbs::srq create PD ?-max_wr N? ?-max_sge N? ?-srq_limit N?
 *		?-command NAME?
 *
 * Results:
 *	The srq object command's name.
 *
 * Side effects:
 *	ibv_create_srq.
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
    typedef struct {
	VerbsCreateHead head;
	uint32_t max_sge, max_wr, srq_limit;
    } SrqArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(SrqArgs, max_sge, VF_UINT, NULL, "n"),
	VERBS_OPTION(SrqArgs, max_wr, VF_UINT, NULL, "n"),
	VERBS_OPTION(SrqArgs, srq_limit, VF_UINT, NULL, "n"),
	VERBS_FIELD_END
    };
    SrqArgs args = {{NULL, NULL}, 1, 16, 0};
    struct ibv_srq_init_attr init;
    VerbsPd *p;
    VerbsSrq *s;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &args,
	    &verbsPdClass) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.head.parent;

    /*
     * The SRQ's context pointer is its object, so that an async event
     * (srq_limit_reached) names it.
     */

    s = (VerbsSrq *) VerbsObjNew(&verbsSrqClass);
    memset(&init, 0, sizeof(init));
    init.srq_context = s;
    init.attr.max_wr = args.max_wr;
    init.attr.max_sge = args.max_sge;
    init.attr.srq_limit = args.srq_limit;
    s->srq = ibv_create_srq(p->pd, &init);
    if (s->srq == NULL) {
	ckfree(s);
	return VerbsSysError(interp, "ibv_create_srq", &p->obj, NULL, errno);
    }
    if (VerbsObjRegister(interp, &s->obj, &p->obj, args.head.command)
	    != TCL_OK) {
	ibv_destroy_srq(s->srq);
	ckfree(s);
	return TCL_ERROR;
    }
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
