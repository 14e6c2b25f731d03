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

static const char *const srqOptions[] = {"-handle", "-pd", NULL};

/*
 *----------------------------------------------------------------------
 *
 * SrqCget, SrqFree --
 *
 *	cget options; destruction once no QP uses the SRQ.
 *
 * Results:
 *	SrqCget: TCL_OK with *valuePtr set.
 *
 * Side effects:
 *	SrqFree: ibv_destroy_srq.
 *
 *----------------------------------------------------------------------
 */

static int
SrqCget(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    int index,
    Tcl_Obj **valuePtr)
{
    if (index == 0) {
	*valuePtr = Tcl_NewWideIntObj(((VerbsSrq *) objPtr)->srq->handle);
    } else {
	*valuePtr = VerbsObjName(objPtr->parent);
    }
    return TCL_OK;
}

static void
SrqFree(
    VerbsObj *objPtr)
{
    ibv_destroy_srq(((VerbsSrq *) objPtr)->srq);
}

const VerbsType verbsSrqClass = {
    "srq", sizeof(VerbsSrq), srqMethods, srqOptions, SrqCget, SrqFree, NULL
};

/*
 *----------------------------------------------------------------------
 *
 * VerbsSrqCreateCmd --
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

int
VerbsSrqCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const char *const options[] = {
	"-command", "-max_sge", "-max_wr", "-srq_limit", NULL
    };
    enum { O_COMMAND, O_MAX_SGE, O_MAX_WR, O_SRQ_LIMIT };
    Tcl_Obj *values[4] = {NULL, NULL, NULL, NULL};
    uint64_t maxWr = 16, maxSge = 1, limit = 0;
    struct ibv_srq_init_attr init;
    VerbsPd *p;
    VerbsSrq *s;

    p = (VerbsPd *) VerbsCreateArgs(interp, objc, objv, 2,
	    "pd ?-max_wr n? ?-max_sge n? ?-srq_limit n? ?-command name?",
	    options, values, &verbsPdClass);
    if (p == NULL
	    || (values[O_MAX_WR] && VerbsGetUInt(interp, "-max_wr",
	    values[O_MAX_WR], UINT32_MAX, &maxWr) != TCL_OK)
	    || (values[O_MAX_SGE] && VerbsGetUInt(interp, "-max_sge",
	    values[O_MAX_SGE], UINT32_MAX, &maxSge) != TCL_OK)
	    || (values[O_SRQ_LIMIT] && VerbsGetUInt(interp, "-srq_limit",
	    values[O_SRQ_LIMIT], UINT32_MAX, &limit) != TCL_OK)) {
	return TCL_ERROR;
    }

    /*
     * The SRQ's context pointer is its object, so that an async event
     * (srq_limit_reached) names it.
     */

    s = (VerbsSrq *) VerbsObjNew(&verbsSrqClass);
    memset(&init, 0, sizeof(init));
    init.srq_context = s;
    init.attr.max_wr = (uint32_t) maxWr;
    init.attr.max_sge = (uint32_t) maxSge;
    init.attr.srq_limit = (uint32_t) limit;
    s->srq = ibv_create_srq(p->pd, &init);
    if (s->srq == NULL) {
	ckfree(s);
	return VerbsSysError(interp, "ibv_create_srq", &p->obj, NULL, errno);
    }
    if (VerbsObjRegister(interp, &s->obj, &p->obj, values[O_COMMAND])
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
