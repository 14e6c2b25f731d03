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

static VerbsMethodProc PdAdviseMr;

static const VerbsMethod pdMethods[] = {
    {"advise_mr", PdAdviseMr, 2, 4, "advice sg_list ?-flush bool?"},
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField pdCget[] = {
    VERBS_CGET_PTR("-handle", VerbsPd, pd, struct ibv_pd, handle, VF_UINT,
	    NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET("-imported", VerbsPd, imported, VF_BOOL, NULL),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc PdCreateCmd, PdImportCmd;
static int	NewPd(Tcl_Interp *interp, VerbsContext *ctx,
		    struct ibv_pd *pd, int imported, Tcl_Obj *nameObj);

static const VerbsCtor pdCtors[] = {
    {"create", PdCreateCmd}, {"import", PdImportCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * PdFree --
 *
 *	Destruction of the PD once nothing uses it (an imported PD is only
 *	unimported: its owner deallocates it).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_dealloc_pd or ibv_unimport_pd.
 *
 *----------------------------------------------------------------------
 */

static void
PdFree(
    VerbsObj *objPtr)
{
    VerbsPd *p = (VerbsPd *) objPtr;

    if (p->imported) {
	ibv_unimport_pd(p->pd);
    } else {
	ibv_dealloc_pd(p->pd);
    }
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
    return NewPd(interp, ctx, pd, 0, args.command);
}

/*
 *----------------------------------------------------------------------
 *
 * NewPd --
 *
 *	Give a PD its object under the context.
 *
 * Results:
 *	A standard Tcl result, the object's name.
 *
 * Side effects:
 *	Creates a command; frees (or unimports) the PD when that fails.
 *
 *----------------------------------------------------------------------
 */

static int
NewPd(
    Tcl_Interp *interp,
    VerbsContext *ctx,
    struct ibv_pd *pd,
    int imported,
    Tcl_Obj *nameObj)
{
    VerbsPd *p = (VerbsPd *) VerbsObjNew(&verbsPdClass);

    p->pd = pd;
    p->imported = imported;
    if (VerbsObjRegister(interp, &p->obj, &ctx->obj, nameObj) != TCL_OK) {
	PdFree(&p->obj);
	ckfree(p);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PdImportCmd --
 *
 *	verbs::pd import CONTEXT HANDLE ?-command NAME?: the PD of that
 *	kernel handle in the context (ibv_import_pd), typically one a
 *	process shared with its context's command fd (verbs::context
 *	import).  Closing it only unimports.
 *
 * Results:
 *	The pd object command's name.
 *
 * Side effects:
 *	ibv_import_pd.
 *
 *----------------------------------------------------------------------
 */

static int
PdImportCmd(
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
    uint64_t handle;
    struct ibv_pd *pd;
    VerbsContext *ctx;

    if (VerbsCreateArgs(interp, objc, objv, "context handle", options, &args,
	    &verbsContextClass) != TCL_OK
	    || VerbsGetUInt(interp, "handle", objv[2], UINT32_MAX, &handle)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    ctx = (VerbsContext *) args.parent;
    pd = ibv_import_pd(ctx->ctx, (uint32_t) handle);
    if (pd == NULL) {
	return VerbsSysError(interp, "ibv_import_pd", &ctx->obj, NULL, errno);
    }
    return NewPd(interp, ctx, pd, 1, args.command);
}

/*
 *----------------------------------------------------------------------
 *
 * PdAdviseMr --
 *
 *	$pd advise_mr ADVICE SG_LIST ?-flush BOOL?: ibv_advise_mr, advice
 *	prefetch, prefetch_write or prefetch_no_fault about ranges of the
 *	PD's on-demand-paging MRs (sg_list as in a work request); -flush
 *	waits until it is done.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	May fault pages in.
 *
 *----------------------------------------------------------------------
 */

static int
PdAdviseMr(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsEnum advices[] = {
	{"prefetch", IBV_ADVISE_MR_ADVICE_PREFETCH},
	{"prefetch_write", IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE},
	{"prefetch_no_fault", IBV_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT},
	{NULL, 0}
    };
    typedef struct {
	int flush;
    } AdviseArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(AdviseArgs, flush, VF_BOOL, NULL, "bool"),
	VERBS_FIELD_END
    };
    AdviseArgs args = {0};
    struct ibv_sge *sge = NULL;
    uint64_t advice;
    int n = 0, err;

    if ((objc % 2) != 0) {
	Tcl_WrongNumArgs(interp, 2, objv, "advice sg_list ?-flush bool?");
	return TCL_ERROR;
    }
    if (VerbsGetEnum(interp, advices, "advice", objv[2], &advice) != TCL_OK
	    || VerbsParseOptions(interp, objc, objv, 4, options, &args)
	    != TCL_OK
	    || VerbsParseSgList(interp, objv[3], &sge, &n) != TCL_OK) {
	return TCL_ERROR;
    }
    if (n == 0) {
	return VerbsArgError(interp, "sg_list", objv[3],
		"advise_mr needs at least one sge");
    }
    err = ibv_advise_mr(((VerbsPd *) objPtr)->pd,
	    (enum ibv_advise_mr_advice) advice,
	    args.flush ? IBV_ADVISE_MR_FLAG_FLUSH : 0, sge, (uint32_t) n);
    ckfree(sge);
    if (err) {
	return VerbsSysError(interp, "ibv_advise_mr", objPtr, NULL, err);
    }
    return TCL_OK;
}
