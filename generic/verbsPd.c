/*
 * verbsPd.c --
 *
 *	Protection domains: [verbs::pd create] and the pd object command;
 *	with -pd, a parent domain (ibv_alloc_parent_domain) made from a
 *	protection domain and maybe a thread domain, whose buffer
 *	allocator may be a pair of Tcl commands; thread domains
 *	([verbs::td create], ibv_alloc_td).
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <string.h>

typedef struct VerbsTd {
    VerbsObj obj;
    struct ibv_td *td;
} VerbsTd;

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
    VERBS_CGET("-pd", VerbsPd, protPd, VF_OBJ, NULL),
    VERBS_CGET("-td", VerbsPd, td, VF_OBJ, NULL),
    VERBS_CGET("-alloc", VerbsPd, alloc, VF_TCLOBJ, NULL),
    VERBS_CGET("-free", VerbsPd, free, VF_TCLOBJ, NULL),
    VERBS_CGET("-pd_context", VerbsPd, pdContext, VF_TCLOBJ, NULL),
    VERBS_CGET("-imported", VerbsPd, imported, VF_BOOL, NULL),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc PdCreateCmd, PdImportCmd, TdCreateCmd;

static const VerbsCommand pdCommands[] = {
    {"create", PdCreateCmd}, {"import", PdImportCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * ResourceTypeObj --
 *
 *	The name of the buffer a provider asks a parent domain's allocator
 *	for (its resource type): from the table of the provider attached
 *	to the context, else of the first provider that names the value.
 *
 * Results:
 *	A new Tcl_Obj: the name, or the number.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static Tcl_Obj *
ResourceTypeObj(
    VerbsPd *p,
    uint64_t value)
{
    const VerbsObj *o = &p->obj;
    const VerbsContext *c;
    const VerbsProvider *const *prov;
    const VerbsEnum *e;

    while (o->typePtr != &verbsContextClass) {
	o = o->parent;
    }
    c = (const VerbsContext *) o;
    if (c->provider && c->provider->resourceTypes) {
	return VerbsEnumObj(c->provider->resourceTypes, value);
    }
    for (prov = verbsProviders; *prov; prov++) {
	for (e = (*prov)->resourceTypes; e && e->name; e++) {
	    if (e->value == value) {
		return Tcl_NewStringObj(e->name, -1);
	    }
	}
    }
    return Tcl_NewWideIntObj((Tcl_WideInt) value);
}

/*
 *----------------------------------------------------------------------
 *
 * PdFree --
 *
 *	Destruction of the PD once nothing uses it; a parent domain then
 *	lets go of its protection and thread domains and its scripts.
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
    VerbsPd *p = (VerbsPd *) objPtr;
    Tcl_Obj **scripts[] = {&p->alloc, &p->free, &p->pdContext};
    size_t i;

    if (p->imported) {
	ibv_unimport_pd(p->pd);	/* Its owner deallocates it. */
    } else {
	ibv_dealloc_pd(p->pd);
    }
    if (p->protPd) {
	VerbsObjRelease(&p->protPd->obj);
    }
    if (p->td) {
	VerbsObjRelease(p->td);
    }
    for (i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
	if (*scripts[i]) {
	    Tcl_DecrRefCount(*scripts[i]);
	}
    }
}

const VerbsType verbsPdClass = {
    .name = "pd",
    .size = sizeof(VerbsPd),
    .methods = pdMethods,
    .cget = pdCget,
    .freeProc = PdFree,
    .commands = pdCommands,
};

static const VerbsMethod tdMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField tdCget[] = {
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static const VerbsCommand tdCommands[] = {
    {"create", TdCreateCmd}, {NULL, NULL}
};

static void
TdFree(
    VerbsObj *objPtr)
{
    ibv_dealloc_td(((VerbsTd *) objPtr)->td);
}

const VerbsType verbsTdClass = {
    .name = "td",
    .size = sizeof(VerbsTd),
    .methods = tdMethods,
    .cget = tdCget,
    .freeProc = TdFree,
    .commands = tdCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * RunAllocator --
 *
 *	Run a parent domain's -alloc or -free command with the pd's name,
 *	its -pd_context value, the call's own arguments and the resource
 *	type's name appended, at global level.  The caller's interpreter
 *	state is kept (the provider calls in the middle of a command); an
 *	error goes to the background error handler.  Nothing runs in an
 *	interpreter being deleted.
 *
 * Results:
 *	A standard Tcl result; with resultPtr, TCL_OK leaves the command's
 *	result there (a new reference).
 *
 * Side effects:
 *	Whatever the command does.
 *
 *----------------------------------------------------------------------
 */

static int
RunAllocator(
    VerbsPd *p,
    Tcl_Obj *prefix,
    Tcl_Obj *arg1,
    Tcl_Obj *arg2,		/* Or NULL. */
    uint64_t resourceType,
    int (*check)(Tcl_Interp *interp, Tcl_Obj *resultObj, void *data),
				/* Checks the command's result, or NULL. */
    void *data)
{
    Tcl_Interp *interp = p->obj.statePtr ? p->obj.statePtr->interp : NULL;
    Tcl_InterpState state;
    Tcl_Obj *cmd;
    int code;

    if (interp == NULL || Tcl_InterpDeleted(interp)) {
	Tcl_DecrRefCount(arg1);
	if (arg2) {
	    Tcl_DecrRefCount(arg2);
	}
	return TCL_ERROR;
    }
    cmd = Tcl_DuplicateObj(prefix);
    Tcl_IncrRefCount(cmd);
    Tcl_ListObjAppendElement(NULL, cmd, VerbsObjName(&p->obj));
    Tcl_ListObjAppendElement(NULL, cmd,
	    p->pdContext ? p->pdContext : Tcl_NewObj());
    Tcl_ListObjAppendElement(NULL, cmd, arg1);
    if (arg2) {
	Tcl_ListObjAppendElement(NULL, cmd, arg2);
    }
    Tcl_ListObjAppendElement(NULL, cmd,
	    ResourceTypeObj(p, resourceType));
    Tcl_DecrRefCount(arg1);
    if (arg2) {
	Tcl_DecrRefCount(arg2);
    }

    Tcl_Preserve(interp);
    state = Tcl_SaveInterpState(interp, TCL_OK);
    code = Tcl_EvalObjEx(interp, cmd, TCL_EVAL_GLOBAL);
    if (code == TCL_OK && check) {
	code = check(interp, Tcl_GetObjResult(interp), data);
    }
    if (code != TCL_OK) {
	Tcl_AddErrorInfo(interp, prefix == p->alloc
		? "\n    (parent domain -alloc command)"
		: "\n    (parent domain -free command)");
	Tcl_BackgroundException(interp, code);
    }
    Tcl_RestoreInterpState(interp, state);
    Tcl_Release(interp);
    Tcl_DecrRefCount(cmd);
    return code;
}

/*
 *----------------------------------------------------------------------
 *
 * CheckAddress, ParentAlloc, ParentFree --
 *
 *	The allocator callbacks of a parent domain made with -alloc and
 *	-free.  The -alloc command gets the size and the alignment and
 *	returns "default" (the provider allocates as usual), an address
 *	aligned as asked, or 0 (the allocation fails); an error or any
 *	other answer fails the allocation too.  The -free command gets the
 *	address; its result is ignored.
 *
 * Results:
 *	ParentAlloc: the memory, IBV_ALLOCATOR_USE_DEFAULT or NULL.
 *
 * Side effects:
 *	Run the commands.
 *
 *----------------------------------------------------------------------
 */

typedef struct AllocAnswer {
    size_t alignment;
    void *ptr;
} AllocAnswer;

static int
CheckAddress(
    Tcl_Interp *interp,
    Tcl_Obj *resultObj,
    void *data)
{
    AllocAnswer *a = (AllocAnswer *) data;
    uint64_t addr;

    if (strcmp(Tcl_GetString(resultObj), "default") == 0) {
	a->ptr = IBV_ALLOCATOR_USE_DEFAULT;
	return TCL_OK;
    }
    if (VerbsGetUInt(NULL, "address", resultObj, UINTPTR_MAX, &addr)
	    != TCL_OK) {
	return VerbsArgError(interp, "address", resultObj, "bad address "
		"\"%s\" from -alloc: must be default or an address",
		Tcl_GetString(resultObj));
    }
    if (a->alignment > 1 && addr % a->alignment) {
	return VerbsArgError(interp, "address", resultObj, "address \"%s\" "
		"from -alloc is not aligned to %zu bytes",
		Tcl_GetString(resultObj), a->alignment);
    }
    a->ptr = (void *) (uintptr_t) addr;
    return TCL_OK;
}

static void *
ParentAlloc(
    struct ibv_pd *pd VERBS_UNUSED,
    void *pdContext,
    size_t size,
    size_t alignment,
    uint64_t resourceType)
{
    VerbsPd *p = (VerbsPd *) pdContext;
    AllocAnswer a = {alignment, NULL};
    Tcl_Obj *sizeObj = VerbsU64Obj(size), *alignObj = VerbsU64Obj(alignment);

    Tcl_IncrRefCount(sizeObj);
    Tcl_IncrRefCount(alignObj);
    if (RunAllocator(p, p->alloc, sizeObj, alignObj, resourceType,
	    CheckAddress, &a) != TCL_OK) {
	return NULL;
    }
    return a.ptr;
}

static void
ParentFree(
    struct ibv_pd *pd VERBS_UNUSED,
    void *pdContext,
    void *ptr,
    uint64_t resourceType)
{
    VerbsPd *p = (VerbsPd *) pdContext;
    Tcl_Obj *addrObj = VerbsU64Obj((uintptr_t) ptr);

    Tcl_IncrRefCount(addrObj);
    RunAllocator(p, p->free, addrObj, NULL, resourceType, NULL, NULL);
}

/*
 *----------------------------------------------------------------------
 *
 * PdCheckArgs --
 *
 *	The options of verbs::pd create together: those of a parent domain
 *	need -pd; its domains must be of this context, and the protection
 *	domain no parent domain itself.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

typedef struct {
    VerbsCreateHead head;
    Tcl_Obj *alloc, *free;
    VerbsObj *pd;
    Tcl_Obj *pd_context;
    VerbsObj *td;
} PdArgs;

static int
PdCheckArgs(
    Tcl_Interp *interp,
    VerbsContext *ctx,
    const PdArgs *a)
{
    const char *bad;
    Tcl_Obj *badObj;

    if (a->pd == NULL && (a->td || a->alloc || a->free || a->pd_context)) {
	bad = a->td ? "-td" : a->alloc ? "-alloc" : a->free ? "-free"
		: "-pd_context";
	return VerbsArgError(interp, bad, NULL, "%s is for a parent "
		"domain, which needs -pd", bad);
    }
    if ((a->alloc == NULL) != (a->free == NULL)) {
	return VerbsArgError(interp, a->alloc ? "-free" : "-alloc", NULL,
		"-alloc and -free go together");
    }
    if (VerbsCheckOwner(interp, "-pd", a->pd, &ctx->obj, "device context")
	    != TCL_OK || VerbsCheckOwner(interp, "-td", a->td, &ctx->obj,
	    "device context") != TCL_OK) {
	return TCL_ERROR;
    }
    if (a->pd && ((VerbsPd *) a->pd)->protPd) {
	badObj = VerbsObjName(a->pd);
	VerbsArgError(interp, "-pd", badObj, "-pd \"%s\" is a parent domain: "
		"a parent domain is made from a protection domain",
		Tcl_GetString(badObj));
	Tcl_DecrRefCount(badObj);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PdCreateCmd --
 *
 *	verbs::pd create CONTEXT ?-as NAME?
 *	verbs::pd create CONTEXT -pd PD ?-td TD? ?-alloc CMD -free CMD?
 *		?-pd_context VALUE? ?-as NAME?
 *
 * Results:
 *	The pd object command's name.
 *
 * Side effects:
 *	ibv_alloc_pd, or ibv_alloc_parent_domain, which takes references
 *	on the protection and thread domains.
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
	VERBS_OPTION(PdArgs, alloc, VF_TCLOBJ, NULL, "command"),
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(PdArgs, free, VF_TCLOBJ, NULL, "command"),
	VERBS_OPTION(PdArgs, pd, VF_OBJ, &verbsPdClass, "pd"),
	VERBS_OPTION(PdArgs, pd_context, VF_TCLOBJ, NULL, "value"),
	VERBS_OPTION(PdArgs, td, VF_OBJ, &verbsTdClass, "td"),
	VERBS_FIELD_END
    };
    PdArgs args;
    VerbsContext *ctx;
    VerbsPd *p, *prot;
    struct ibv_pd *pd;

    memset(&args, 0, sizeof(args));
    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    ctx = (VerbsContext *) args.head.parent;
    prot = (VerbsPd *) args.pd;

    if (PdCheckArgs(interp, ctx, &args) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) VerbsObjNew(&verbsPdClass);
    if (prot) {
	struct ibv_parent_domain_init_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.pd = prot->pd;
	attr.td = args.td ? ((VerbsTd *) args.td)->td : NULL;
	attr.comp_mask = IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT;
	attr.pd_context = p;
	if (args.alloc) {
	    attr.comp_mask |= IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS;
	    attr.alloc = ParentAlloc;
	    attr.free = ParentFree;
	}
	pd = ibv_alloc_parent_domain(ctx->ctx, &attr);
	if (pd == NULL) {
	    ckfree(p);
	    return VerbsSysError(interp, "ibv_alloc_parent_domain", &ctx->obj,
		    NULL, errno);
	}
    } else {
	pd = ibv_alloc_pd(ctx->ctx);
	if (pd == NULL) {
	    ckfree(p);
	    return VerbsSysError(interp, "ibv_alloc_pd", &ctx->obj, NULL,
		    errno);
	}
    }
    p->pd = pd;
    if (VerbsObjRegister(interp, &p->obj, &ctx->obj, args.head.command)
	    != TCL_OK) {
	ibv_dealloc_pd(pd);
	ckfree(p);
	return TCL_ERROR;
    }
    if (prot) {
	Tcl_Obj **keep[] = {&args.alloc, &args.free, &args.pd_context};
	size_t i;

	p->protPd = prot;
	VerbsObjRetain(&prot->obj);
	p->td = args.td;
	if (p->td) {
	    VerbsObjRetain(p->td);
	}
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
	    if (*keep[i]) {
		Tcl_IncrRefCount(*keep[i]);
	    }
	}
	p->alloc = args.alloc;
	p->free = args.free;
	p->pdContext = args.pd_context;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * TdCreateCmd --
 *
 *	verbs::td create CONTEXT ?-as NAME?
 *
 * Results:
 *	The td object command's name.
 *
 * Side effects:
 *	ibv_alloc_td.
 *
 *----------------------------------------------------------------------
 */

static int
TdCreateCmd(
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
    struct ibv_td_init_attr init;
    struct ibv_td *td;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    memset(&init, 0, sizeof(init));
    td = ibv_alloc_td(((VerbsContext *) args.parent)->ctx, &init);
    if (td == NULL) {
	return VerbsSysError(interp, "ibv_alloc_td", args.parent, NULL,
		errno);
    }
    return VerbsObjWrap(interp, &verbsTdClass, offsetof(VerbsTd, td), td,
	    args.parent, args.command) ? TCL_OK : TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * PdImportCmd --
 *
 *	verbs::pd import CONTEXT HANDLE ?-as NAME?: the PD of that
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
    VerbsCreateHead args = {NULL, NULL};
    uint32_t handle;
    struct ibv_pd *pd;
    VerbsContext *ctx;
    VerbsPd *p;

    if (VerbsImportArgs(interp, objc, objv, "context handle",
	    &verbsContextClass, &args, &handle) != TCL_OK) {
	return TCL_ERROR;
    }
    ctx = (VerbsContext *) args.parent;
    pd = ibv_import_pd(ctx->ctx, handle);
    if (pd == NULL) {
	return VerbsSysError(interp, "ibv_import_pd", &ctx->obj, NULL, errno);
    }
    p = (VerbsPd *) VerbsObjNew(&verbsPdClass);
    p->pd = pd;
    p->imported = 1;
    if (VerbsObjRegister(interp, &p->obj, &ctx->obj, args.command)
	    != TCL_OK) {
	ibv_unimport_pd(pd);
	ckfree(p);
	return TCL_ERROR;
    }
    return TCL_OK;
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
	    || VerbsParseSgList(interp, objv[3], &sge, &n, NULL) != TCL_OK) {
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
