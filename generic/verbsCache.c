/*
 * verbsCache.c --
 *
 *	Parsed forms kept in the internal representation of Tcl values, so
 *	that what a script passes again unchanged is not parsed again:
 *	object handles (a name resolves to its object without a command
 *	lookup) and work requests (a send or receive WR dict keeps its
 *	struct ibv_send_wr / ibv_recv_wr and SGEs).
 *
 *	A cached form holds raw object pointers; it is valid while the
 *	epoch it was made in is: the epoch moves on whenever any object
 *	command is deleted or renamed and whenever an MR is re-registered,
 *	so checking one counter proves that every object the form points
 *	at is still alive, still has its name and still has the keys and
 *	bounds the form was checked against.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <string.h>

/*
 * The epoch.  A process-wide counter: Tcl_Objs never cross threads, but
 * objects may be deleted in any thread, so it moves atomically.
 */

static unsigned long verbsEpoch = 1;

#define EPOCH() __atomic_load_n(&verbsEpoch, __ATOMIC_RELAXED)

static Tcl_FreeInternalRepProc	FreeWrRep;
static Tcl_DupInternalRepProc	DupWrRep, DupHandleRep;

/*
 * A handle: ptr1 is the VerbsObj, ptr2 the epoch it was resolved in.
 */

static const Tcl_ObjType handleType = {
    "verbs_handle", NULL, DupHandleRep, NULL, NULL
#ifdef TCL_OBJTYPE_V0
    , TCL_OBJTYPE_V0
#endif
};

/*
 * A work request: ptr1 is a WrRep shared by the values duplicated from
 * one another.
 */

typedef struct WrRep {
    size_t refCount;
    unsigned long epoch;
    Tcl_Interp *interp;
    VerbsQp *qp;		/* Send WRs: the QP it was checked for. */
    union {
	struct ibv_send_wr send;
	struct ibv_recv_wr recv;
    } wr;
    int numSge;
    struct ibv_sge sge[1];	/* numSge of them (at least room for 1). */
} WrRep;

static const Tcl_ObjType sendWrType = {
    "verbs_send_wr", FreeWrRep, DupWrRep, NULL, NULL
#ifdef TCL_OBJTYPE_V0
    , TCL_OBJTYPE_V0
#endif
};

static const Tcl_ObjType recvWrType = {
    "verbs_recv_wr", FreeWrRep, DupWrRep, NULL, NULL
#ifdef TCL_OBJTYPE_V0
    , TCL_OBJTYPE_V0
#endif
};

/*
 *----------------------------------------------------------------------
 *
 * VerbsEpochBump --
 *
 *	Invalidate every cached form: an object command was deleted or
 *	renamed, or an MR changed its keys or memory.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Moves the epoch on.
 *
 *----------------------------------------------------------------------
 */

void
VerbsEpochBump(void)
{
    __atomic_add_fetch(&verbsEpoch, 1, __ATOMIC_RELAXED);
}

/*
 *----------------------------------------------------------------------
 *
 * SetRep --
 *
 *	Give a value a new internal representation, keeping its string
 *	(generated first from the old representation when needed).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Frees the old internal representation.
 *
 *----------------------------------------------------------------------
 */

static void
SetRep(
    Tcl_Obj *objPtr,
    const Tcl_ObjType *typePtr,
    void *ptr1,
    void *ptr2)
{
    (void) Tcl_GetString(objPtr);
    if (objPtr->typePtr && objPtr->typePtr->freeIntRepProc) {
	objPtr->typePtr->freeIntRepProc(objPtr);
    }
    objPtr->internalRep.twoPtrValue.ptr1 = ptr1;
    objPtr->internalRep.twoPtrValue.ptr2 = ptr2;
    objPtr->typePtr = typePtr;
}

/*
 *----------------------------------------------------------------------
 *
 * DupHandleRep, DupWrRep, FreeWrRep --
 *
 *	Internal representation procs of the cached types.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Reference counts of the shared WrRep.
 *
 *----------------------------------------------------------------------
 */

static void
DupHandleRep(
    Tcl_Obj *srcPtr,
    Tcl_Obj *dupPtr)
{
    dupPtr->internalRep = srcPtr->internalRep;
    dupPtr->typePtr = srcPtr->typePtr;
}

static void
DupWrRep(
    Tcl_Obj *srcPtr,
    Tcl_Obj *dupPtr)
{
    WrRep *rep = (WrRep *) srcPtr->internalRep.twoPtrValue.ptr1;

    rep->refCount++;
    dupPtr->internalRep.twoPtrValue.ptr1 = rep;
    dupPtr->internalRep.twoPtrValue.ptr2 = NULL;
    dupPtr->typePtr = srcPtr->typePtr;
}

static void
FreeWrRep(
    Tcl_Obj *objPtr)
{
    WrRep *rep = (WrRep *) objPtr->internalRep.twoPtrValue.ptr1;

    if (--rep->refCount == 0) {
	ckfree(rep);
    }
    objPtr->typePtr = NULL;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsHandleCached, VerbsHandleCache --
 *
 *	VerbsHandleCached: the object a name value was last resolved to in
 *	this interpreter, when nothing was deleted or renamed since (so the
 *	name still means it).  VerbsHandleCache remembers a resolution;
 *	only fully qualified names are kept, since a relative one depends
 *	on the namespace it is used in.
 *
 * Results:
 *	VerbsHandleCached: the object, or NULL (resolve it by name).
 *
 * Side effects:
 *	VerbsHandleCache replaces the value's internal representation.
 *
 *----------------------------------------------------------------------
 */

VerbsObj *
VerbsHandleCached(
    Tcl_Interp *interp,
    Tcl_Obj *nameObj)
{
    VerbsObj *objPtr;

    if (nameObj->typePtr != &handleType
	    || (unsigned long) (uintptr_t)
	    nameObj->internalRep.twoPtrValue.ptr2 != EPOCH()) {
	return NULL;
    }
    objPtr = (VerbsObj *) nameObj->internalRep.twoPtrValue.ptr1;
    if (objPtr->statePtr == NULL || objPtr->statePtr->interp != interp
	    || objPtr->deleting || objPtr->token == NULL) {
	return NULL;
    }
    return objPtr;
}

void
VerbsHandleCache(
    Tcl_Obj *nameObj,
    VerbsObj *objPtr)
{
    const char *name = Tcl_GetString(nameObj);

    if (name[0] != ':' || name[1] != ':') {
	return;
    }
    if (nameObj->typePtr == &handleType) {
	/*
	 * Resolved in an older epoch (or another interp): resolved again
	 * now.  Left as it was, the value would miss every time from now
	 * on, and each call would look its command up.
	 */

	nameObj->internalRep.twoPtrValue.ptr1 = objPtr;
	nameObj->internalRep.twoPtrValue.ptr2 = (void *) (uintptr_t) EPOCH();
	return;
    }
    SetRep(nameObj, &handleType, objPtr, (void *) (uintptr_t) EPOCH());
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsSendWrCached, VerbsRecvWrCached --
 *
 *	The parsed form of a work request value, when it was parsed (for
 *	the same QP, for a send) in this interpreter and epoch.
 *
 * Results:
 *	The work request, its sg_list pointing into the cache (valid while
 *	the value is), or NULL.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

const struct ibv_send_wr *
VerbsSendWrCached(
    Tcl_Interp *interp,
    VerbsQp *q,
    Tcl_Obj *wrObj)
{
    WrRep *rep;

    if (wrObj->typePtr != &sendWrType) {
	return NULL;
    }
    rep = (WrRep *) wrObj->internalRep.twoPtrValue.ptr1;
    if (rep->epoch != EPOCH() || rep->qp != q || rep->interp != interp) {
	return NULL;
    }
    rep->wr.send.sg_list = rep->numSge ? rep->sge : NULL;
    return &rep->wr.send;
}

const struct ibv_recv_wr *
VerbsRecvWrCached(
    Tcl_Interp *interp,
    Tcl_Obj *wrObj)
{
    WrRep *rep;

    if (wrObj->typePtr != &recvWrType) {
	return NULL;
    }
    rep = (WrRep *) wrObj->internalRep.twoPtrValue.ptr1;
    if (rep->epoch != EPOCH() || rep->interp != interp) {
	return NULL;
    }
    rep->wr.recv.sg_list = rep->numSge ? rep->sge : NULL;
    return &rep->wr.recv;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsSendWrCache, VerbsRecvWrCache --
 *
 *	Keep a freshly parsed work request in its value.  The caller
 *	caches only what is checked entirely from the QP and objects the
 *	epoch covers (not bind_mw, local_inv or send_with_inv, whose checks
 *	read memory window state).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Replaces the value's internal representation.
 *
 *----------------------------------------------------------------------
 */

static WrRep *
NewRep(
    Tcl_Interp *interp,
    VerbsQp *q,
    const struct ibv_sge *sge,
    int numSge)
{
    WrRep *rep = (WrRep *) ckalloc(offsetof(WrRep, sge)
	    + (numSge ? numSge : 1) * sizeof(struct ibv_sge));

    rep->refCount = 1;
    rep->epoch = EPOCH();
    rep->interp = interp;
    rep->qp = q;
    rep->numSge = numSge;
    if (numSge) {
	memcpy(rep->sge, sge, numSge * sizeof(struct ibv_sge));
    }
    return rep;
}

void
VerbsSendWrCache(
    Tcl_Interp *interp,
    VerbsQp *q,
    Tcl_Obj *wrObj,
    const struct ibv_send_wr *wr)
{
    WrRep *rep = NewRep(interp, q, wr->sg_list, wr->num_sge);

    rep->wr.send = *wr;
    rep->wr.send.next = NULL;
    rep->wr.send.sg_list = NULL;
    SetRep(wrObj, &sendWrType, rep, NULL);
}

void
VerbsRecvWrCache(
    Tcl_Interp *interp,
    Tcl_Obj *wrObj,
    const struct ibv_recv_wr *wr)
{
    WrRep *rep = NewRep(interp, NULL, wr->sg_list, wr->num_sge);

    rep->wr.recv = *wr;
    rep->wr.recv.next = NULL;
    rep->wr.recv.sg_list = NULL;
    SetRep(wrObj, &recvWrType, rep, NULL);
}
