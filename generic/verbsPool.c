/*
 * verbsPool.c --
 *
 *	Buffer pools: [verbs::pool create PD -count N -size S] registers one
 *	MR of N slots of S bytes and hands the slots out as ready-made SGEs
 *	{MR OFFSET S}, which post_send and post_recv take as they are.  The
 *	MR is the pool's child: closing the pool closes it, and the pool
 *	goes with its PD.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <string.h>

typedef struct VerbsPool {
    VerbsObj obj;
    VerbsMr *mr;		/* The slots' MR, a child: it holds the pool,
				 * not the other way round.  Valid only while
				 * it is among the children (PoolMr). */
    uint32_t count;		/* Number of slots. */
    uint32_t size;		/* Bytes per slot. */
    uint32_t nfree;		/* Slots in the pool now. */
    uint32_t *stack;		/* The free slots' numbers, nfree of them:
				 * get takes the top one. */
    unsigned char *isFree;	/* Per slot: is it in the stack? */
} VerbsPool;

static VerbsMethodProc PoolFree, PoolGet, PoolPut;
static VerbsGetProc PoolMrCget;

static const VerbsMethod poolMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"free", PoolFree, 0, 0, ""},
    {"get", PoolGet, 0, 0, ""},
    {"put", PoolPut, 1, 1, "sge"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField poolCget[] = {
    VERBS_CGET("-count", VerbsPool, count, VF_UINT, NULL),
    VERBS_CGET("-size", VerbsPool, size, VF_UINT, NULL),
    VERBS_CGET_PROC("-mr", PoolMrCget),
    VERBS_CGET_PARENT("-pd"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc PoolCreateCmd;

static const VerbsCommand poolCommands[] = {
    {"create", PoolCreateCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * PoolDelete --
 *
 *	Destruction, after the MR (a child) is gone: the slot tables.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Frees memory.
 *
 *----------------------------------------------------------------------
 */

static void
PoolDelete(
    VerbsObj *objPtr)
{
    VerbsPool *p = (VerbsPool *) objPtr;

    if (p->stack) {
	ckfree(p->stack);
    }
    if (p->isFree) {
	ckfree(p->isFree);
    }
}

const VerbsType verbsPoolClass = {
    .name = "pool",
    .size = sizeof(VerbsPool),
    .methods = poolMethods,
    .cget = poolCget,
    .freeProc = PoolDelete,
    .commands = poolCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * PoolCreateCmd --
 *
 *	verbs::pool create PD -count N -size S ?-access FLAGS?
 *		?-as NAME?
 *
 * Results:
 *	The pool object command's name.
 *
 * Side effects:
 *	Registers the pool's MR (as a child of the pool).
 *
 *----------------------------------------------------------------------
 */

static int
PoolCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t access, count, size;
    } PoolArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(PoolArgs, access, VF_FLAGS, verbsAccessFlags, "flags"),
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_REQUIRED(PoolArgs, count, VF_UINT, NULL, INT32_MAX,
		"n:the number of buffers"),
	VERBS_OPTION_REQUIRED(PoolArgs, size, VF_UINT, NULL, INT32_MAX,
		"bytes:the size of one buffer"),
	VERBS_FIELD_END
    };
    PoolArgs args = {{NULL, NULL}, IBV_ACCESS_LOCAL_WRITE, 0, 0};
    VerbsPool *p;
    Tcl_Obj *name;
    uint32_t i;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &args,
	    &verbsPdClass) != TCL_OK
	    || VerbsCheckLength(interp, "-count", args.count) != TCL_OK
	    || VerbsCheckLength(interp, "-size", args.size) != TCL_OK) {
	return TCL_ERROR;
    }
    if (args.count * args.size > INT32_MAX) {
	Tcl_Obj *total = Tcl_NewWideIntObj(
		(Tcl_WideInt) (args.count * args.size));

	Tcl_IncrRefCount(total);
	VerbsArgError(interp, "-size", total, "a pool of %llu buffers of "
		"%llu bytes needs %s bytes: at most %d fit in one region",
		(unsigned long long) args.count,
		(unsigned long long) args.size, Tcl_GetString(total),
		INT32_MAX);
	Tcl_DecrRefCount(total);
	return TCL_ERROR;
    }
    p = (VerbsPool *) VerbsObjNew(&verbsPoolClass);
    p->count = (uint32_t) args.count;
    p->size = (uint32_t) args.size;
    p->nfree = p->count;
    p->stack = (uint32_t *) attemptckalloc(p->count * sizeof(uint32_t));
    p->isFree = (unsigned char *) attemptckalloc(p->count);
    if (p->stack == NULL || p->isFree == NULL) {
	PoolDelete(&p->obj);
	ckfree(p);
	return VerbsSysError(interp, "ckalloc", NULL, "pool slots", ENOMEM);
    }
    for (i = 0; i < p->count; i++) {
	/* Slot 0 on top: buffers come out in address order. */
	p->stack[i] = p->count - 1 - i;
	p->isFree[i] = 1;
    }
    if (VerbsObjRegister(interp, &p->obj, args.head.parent, args.head.command)
	    != TCL_OK) {
	ckfree(p->stack);
	ckfree(p->isFree);
	ckfree(p);
	return TCL_ERROR;
    }
    name = Tcl_GetObjResult(interp);
    Tcl_IncrRefCount(name);

    /*
     * The MR is made under the registered pool, so that the pool's own
     * deletion takes it along; a failure deletes the pool again.
     */

    if (VerbsMrNew(interp, (VerbsPd *) args.head.parent, &p->obj,
	    (size_t) (args.count * args.size), (int) args.access, NULL,
	    &p->mr, NO_IOVA) != TCL_OK) {
	Tcl_Obj *msg = Tcl_GetObjResult(interp);

	Tcl_IncrRefCount(msg);
	Tcl_DeleteCommandFromToken(interp, p->obj.token);
	Tcl_SetObjResult(interp, msg);
	Tcl_DecrRefCount(msg);
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, name);
    Tcl_DecrRefCount(name);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * LiveMr, PoolMrCget, PoolMr --
 *
 *	The pool's MR while its command lives (LiveMr: or NULL; the -mr
 *	cget option: or ""; PoolMr: or an error).  Once the MR's command is
 *	deleted on its own (the memory may stay while a QP uses it) nothing
 *	can name it in a work request: the pool is then of no use, and
 *	says so.
 *
 * Results:
 *	See above.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static VerbsMr *
LiveMr(
    VerbsPool *p)
{
    VerbsObj *child;

    /*
     * p->mr is compared, never dereferenced, until it is found among the
     * children: once freed it is no longer there.  (No other object is
     * ever made a child of the pool, so a reused address cannot fool
     * the comparison.)
     */

    for (child = p->obj.children; child; child = child->nextSibling) {
	if (child == &p->mr->obj && child->token != NULL) {
	    return p->mr;
	}
    }
    return NULL;
}

static int
PoolMrCget(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    VerbsMr *m = LiveMr((VerbsPool *) objPtr);

    *valuePtr = m ? VerbsObjName(&m->obj) : Tcl_NewObj();
    return TCL_OK;
}

static VerbsMr *
PoolMr(
    Tcl_Interp *interp,
    VerbsPool *p)
{
    VerbsMr *m = LiveMr(p);
    Tcl_Obj *name;

    if (m) {
	return m;
    }
    name = VerbsObjName(&p->obj);
    Tcl_SetObjResult(interp, Tcl_ObjPrintf("the mr of pool %s was closed: "
	    "close the pool too", Tcl_GetString(name)));
    Tcl_SetErrorCode(interp, "VERBS", "CLOSED", "mr", NULL);
    Tcl_DecrRefCount(name);
    return NULL;
}

/*
 *----------------------------------------------------------------------
 *
 * PoolGet, PoolPut, PoolFree --
 *
 *	$pool get: a free buffer as an SGE {MR OFFSET SIZE}.  $pool put
 *	SGE: give it back (the offset may be written any way Tcl reads an
 *	integer).  $pool free: how many are in the pool.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Moves a slot out of or into the pool.
 *
 *----------------------------------------------------------------------
 */

static int
PoolGet(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    VerbsPool *p = (VerbsPool *) objPtr;
    VerbsMr *m;
    Tcl_Obj *name;
    uint32_t slot;

    if (p->nfree == 0) {
	name = VerbsObjName(objPtr);
	Tcl_SetObjResult(interp, Tcl_ObjPrintf("pool %s has no free buffer "
		"(all %u are out)", Tcl_GetString(name), p->count));
	Tcl_SetErrorCode(interp, "VERBS", "POOL", "EMPTY", NULL);
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    m = PoolMr(interp, p);
    if (m == NULL) {
	return TCL_ERROR;
    }
    slot = p->stack[--p->nfree];
    p->isFree[slot] = 0;
    Tcl_SetObjResult(interp, Tcl_NewListObj(3, (Tcl_Obj *[]) {
	    VerbsObjName(&m->obj),
	    Tcl_NewWideIntObj((Tcl_WideInt) slot * p->size),
	    Tcl_NewWideIntObj(p->size)}));
    return TCL_OK;
}

static int
PoolPut(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    VerbsPool *p = (VerbsPool *) objPtr;
    Tcl_Obj **parts, *name;
    Tcl_WideInt off, len;
    Tcl_Size n;
    const char *problem = "bad sge \"%s\": not a buffer of pool %s";
    VerbsMr *m = PoolMr(interp, p);

    if (m == NULL) {
	return TCL_ERROR;
    }
    if (Tcl_ListObjGetElements(NULL, objv[2], &n, &parts) == TCL_OK
	    && n == 3 && VerbsObjFind(interp, parts[0]) == &m->obj
	    && Tcl_GetWideIntFromObj(NULL, parts[1], &off) == TCL_OK
	    && Tcl_GetWideIntFromObj(NULL, parts[2], &len) == TCL_OK
	    && len == p->size && off >= 0 && off % p->size == 0
	    && off / p->size < p->count) {
	uint32_t slot = (uint32_t) (off / p->size);

	if (!p->isFree[slot]) {
	    p->isFree[slot] = 1;
	    p->stack[p->nfree++] = slot;
	    return TCL_OK;
	}
	problem = "buffer \"%s\" of pool %s is already free";
    }
    name = VerbsObjName(objPtr);
    VerbsArgError(interp, "sge", objv[2], problem, Tcl_GetString(objv[2]),
	    Tcl_GetString(name));
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
}

static int
PoolFree(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    Tcl_SetObjResult(interp, Tcl_NewWideIntObj(((VerbsPool *) objPtr)->nfree));
    return TCL_OK;
}
