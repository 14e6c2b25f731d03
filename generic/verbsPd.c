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

static const VerbsField pdCget[] = {
    VERBS_CGET_PTR("-handle", VerbsPd, pd, struct ibv_pd, handle, VF_UINT,
	    NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc PdCreateCmd;

static const VerbsCtor pdCtors[] = {
    {"create", PdCreateCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * PdFree --
 *
 *	Destruction of the PD once nothing uses it.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_dealloc_pd.
 *
 *----------------------------------------------------------------------
 */

static void
PdFree(
    VerbsObj *objPtr)
{
    ibv_dealloc_pd(((VerbsPd *) objPtr)->pd);
}

const VerbsType verbsPdClass = {
    "pd", sizeof(VerbsPd), pdMethods, pdCget, PdFree, NULL, NULL, pdCtors
};

/*
 *----------------------------------------------------------------------
 *
 * PdCreateCmd --
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

static int
PdCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_FIELD_END
    };
    VerbsCreateHead args = {NULL, NULL};
    VerbsContext *ctx;
    VerbsPd *p;
    struct ibv_pd *pd;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    ctx = (VerbsContext *) args.parent;
    pd = ibv_alloc_pd(ctx->ctx);
    if (pd == NULL) {
	return VerbsSysError(interp, "ibv_alloc_pd", &ctx->obj, NULL, errno);
    }
    p = (VerbsPd *) VerbsObjNew(&verbsPdClass);
    p->pd = pd;
    if (VerbsObjRegister(interp, &p->obj, &ctx->obj, args.command)
	    != TCL_OK) {
	ibv_dealloc_pd(pd);
	ckfree(p);
	return TCL_ERROR;
    }
    return TCL_OK;
}
