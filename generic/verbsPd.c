/*
 * verbsPd.c --
 *
 *	Protection domains: [verbs::pd create] and the pd object command.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>

static const VerbsMethod pdMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};

static const char *const pdOptions[] = {"-handle", "-context", NULL};

/*
 *----------------------------------------------------------------------
 *
 * PdCget, PdFree --
 *
 *	cget options; destruction of the PD once nothing uses it.
 *
 * Results:
 *	PdCget: TCL_OK with *valuePtr set.
 *
 * Side effects:
 *	PdFree: ibv_dealloc_pd.
 *
 *----------------------------------------------------------------------
 */

static int
PdCget(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    int index,
    Tcl_Obj **valuePtr)
{
    VerbsPd *p = (VerbsPd *) objPtr;

    if (index == 0) {
	*valuePtr = Tcl_NewWideIntObj(p->pd->handle);
    } else {
	*valuePtr = VerbsObjName(objPtr->parent);
    }
    return TCL_OK;
}

static void
PdFree(
    VerbsObj *objPtr)
{
    ibv_dealloc_pd(((VerbsPd *) objPtr)->pd);
}

const VerbsType verbsPdClass = {
    "pd", sizeof(VerbsPd), pdMethods, pdOptions, PdCget, PdFree, NULL
};

/*
 *----------------------------------------------------------------------
 *
 * VerbsPdCreateCmd --
 *
 *	verbs::pd create CONTEXT ?-command NAME?
 *
 * Results:
 *	The pd object command's name.
 *
 * Side effects:
 *	ibv_alloc_pd.
 *
 *----------------------------------------------------------------------
 */

int
VerbsPdCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsContext *ctx;
    VerbsPd *p;
    struct ibv_pd *pd;

    static const char *const options[] = {"-command", NULL};
    Tcl_Obj *values[1] = {NULL};

    ctx = (VerbsContext *) VerbsCreateArgs(interp, objc, objv, 2,
	    "context ?-command name?", options, values, &verbsContextClass);
    if (ctx == NULL) {
	return TCL_ERROR;
    }
    pd = ibv_alloc_pd(ctx->ctx);
    if (pd == NULL) {
	return VerbsSysError(interp, "ibv_alloc_pd", &ctx->obj, NULL, errno);
    }
    p = (VerbsPd *) VerbsObjNew(&verbsPdClass);
    p->pd = pd;
    if (VerbsObjRegister(interp, &p->obj, &ctx->obj, values[0]) != TCL_OK) {
	ibv_dealloc_pd(pd);
	ckfree(p);
	return TCL_ERROR;
    }
    return TCL_OK;
}
