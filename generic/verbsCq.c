/*
 * verbsCq.c --
 *
 *	Completion queues: [verbs::cq create], polling, and waiting for a
 *	number of completions with a timeout.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <time.h>

#define POLL_BATCH 64

static VerbsMethodProc CqPoll, CqWait;

static const VerbsMethod cqMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"poll", CqPoll, 0, 1, "?max?"},
    {"wait", CqWait, 1, 3, "count ?-timeout ms?"},
    {NULL, NULL, 0, 0, NULL}
};

static const char *const cqOptions[] = {"-cqe", "-handle", "-context", NULL};

/*
 *----------------------------------------------------------------------
 *
 * CqCget, CqFree --
 *
 *	cget options; destruction once no QP uses the CQ.
 *
 * Results:
 *	CqCget: TCL_OK with *valuePtr set.
 *
 * Side effects:
 *	CqFree: ibv_destroy_cq.
 *
 *----------------------------------------------------------------------
 */

static int
CqCget(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    int index,
    Tcl_Obj **valuePtr)
{
    VerbsCq *c = (VerbsCq *) objPtr;

    switch (index) {
    case 0: *valuePtr = Tcl_NewIntObj(c->cq->cqe); break;
    case 1: *valuePtr = Tcl_NewWideIntObj(c->cq->handle); break;
    default: *valuePtr = VerbsObjName(objPtr->parent); break;
    }
    return TCL_OK;
}

static void
CqFree(
    VerbsObj *objPtr)
{
    ibv_destroy_cq(((VerbsCq *) objPtr)->cq);
}

const VerbsType verbsCqClass = {
    "cq", sizeof(VerbsCq), cqMethods, cqOptions, CqCget, CqFree
};

/*
 *----------------------------------------------------------------------
 *
 * VerbsCqCreateCmd --
 *
 *	verbs::cq create CONTEXT ?-cqe N? ?-command NAME?
 *
 * Results:
 *	The cq object command's name.
 *
 * Side effects:
 *	ibv_create_cq.
 *
 *----------------------------------------------------------------------
 */

int
VerbsCqCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const char *const options[] = {"-command", "-cqe", NULL};
    Tcl_Obj *values[2] = {NULL, NULL};
    VerbsContext *ctx;
    VerbsCq *c;
    struct ibv_cq *cq;
    uint64_t cqe = 16;

    ctx = (VerbsContext *) VerbsCreateArgs(interp, objc, objv, 2,
	    "context ?-cqe entries? ?-command name?",
	    options, values, &verbsContextClass);
    if (ctx == NULL) {
	return TCL_ERROR;
    }
    if (values[1] && VerbsGetUInt(interp, "-cqe", values[1], INT32_MAX,
	    &cqe) != TCL_OK) {
	return TCL_ERROR;
    }
    cq = ibv_create_cq(ctx->ctx, (int) cqe, NULL, NULL, 0);
    if (cq == NULL) {
	return VerbsSysError(interp, "ibv_create_cq", &ctx->obj, NULL, errno);
    }
    c = (VerbsCq *) VerbsObjNew(&verbsCqClass);
    c->cq = cq;
    c->cqe = (int) cqe;
    if (VerbsObjRegister(interp, &c->obj, &ctx->obj, values[0]) != TCL_OK) {
	ibv_destroy_cq(cq);
	ckfree(c);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PollInto --
 *
 *	Poll up to max completions and append them as WC dicts to list.
 *
 * Results:
 *	The number polled, or -1 with an error in interp.
 *
 * Side effects:
 *	Consumes CQ entries.
 *
 *----------------------------------------------------------------------
 */

static int
PollInto(
    Tcl_Interp *interp,
    VerbsCq *c,
    int max,
    Tcl_Obj *list)
{
    struct ibv_wc wc[POLL_BATCH];
    int total = 0, n, i;

    while (total < max) {
	int want = max - total < POLL_BATCH ? max - total : POLL_BATCH;

	n = ibv_poll_cq(c->cq, want, wc);
	if (n < 0) {
	    VerbsSysError(interp, "ibv_poll_cq", &c->obj, NULL, EIO);
	    return -1;
	}
	for (i = 0; i < n; i++) {
	    Tcl_ListObjAppendElement(NULL, list,
		    VerbsStructToDict(&verbsWcStruct, &wc[i]));
	}
	total += n;
	if (n < want) {
	    break;
	}
    }
    return total;
}

/*
 *----------------------------------------------------------------------
 *
 * CqPoll --
 *
 *	$cq poll ?MAX?: the completions ready now (at most MAX, default
 *	the CQ's size), as a list of WC dicts.
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
CqPoll(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsCq *c = (VerbsCq *) objPtr;
    uint64_t max = (uint64_t) c->cq->cqe;
    Tcl_Obj *list;

    if (objc == 3 && VerbsGetUInt(interp, "max", objv[2], INT32_MAX, &max)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    list = Tcl_NewObj();
    if (PollInto(interp, c, (int) max, list) < 0) {
	Tcl_DecrRefCount(list);
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, list);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CqWait --
 *
 *	$cq wait COUNT ?-timeout MS?: poll until COUNT completions have
 *	arrived (default timeout 5000 ms).  Busy polls, yielding the CPU
 *	with a short sleep between empty polls.
 *
 * Results:
 *	The list of COUNT WC dicts.  On timeout an error with errorCode
 *	{VERBS TIMEOUT GOT} naming how many had arrived; those are lost.
 *
 * Side effects:
 *	Consumes CQ entries.
 *
 *----------------------------------------------------------------------
 */

static double
NowMs(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
CqWait(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const char *const options[] = {"-timeout", NULL};
    VerbsCq *c = (VerbsCq *) objPtr;
    Tcl_Obj *values[1] = {NULL}, *list;
    uint64_t count, timeout = 5000;
    double deadline;
    int got = 0, n;

    if (objc == 4) {
	Tcl_WrongNumArgs(interp, 2, objv, "count ?-timeout ms?");
	return TCL_ERROR;
    }
    if (VerbsGetUInt(interp, "count", objv[2], INT32_MAX, &count) != TCL_OK
	    || VerbsParseOptions(interp, objc, objv, 3, options, values)
	    != TCL_OK || (values[0] && VerbsGetUInt(interp, "-timeout",
	    values[0], INT32_MAX, &timeout) != TCL_OK)) {
	return TCL_ERROR;
    }
    list = Tcl_NewObj();
    deadline = NowMs() + (double) timeout;
    while ((uint64_t) got < count) {
	n = PollInto(interp, c, (int) count - got, list);
	if (n < 0) {
	    Tcl_DecrRefCount(list);
	    return TCL_ERROR;
	}
	got += n;
	if (n == 0) {
	    struct timespec pause = {0, 20000};

	    if (NowMs() >= deadline) {
		Tcl_Obj *name = VerbsObjName(objPtr);

		Tcl_SetObjResult(interp, Tcl_ObjPrintf(
			"timed out after %" TCL_LL_MODIFIER "d ms waiting for %"
			TCL_LL_MODIFIER "d completions on %s (got %d)",
			(Tcl_WideInt) timeout, (Tcl_WideInt) count, Tcl_GetString(name), got));
		Tcl_DecrRefCount(name);
		Tcl_SetObjErrorCode(interp, Tcl_ObjPrintf(
			"VERBS TIMEOUT %d", got));
		Tcl_DecrRefCount(list);
		return TCL_ERROR;
	    }
	    nanosleep(&pause, NULL);
	}
    }
    Tcl_SetObjResult(interp, list);
    return TCL_OK;
}
