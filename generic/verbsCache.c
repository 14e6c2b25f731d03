/*
 * verbsCache.c --
 *
 *	Parsed forms kept in the internal representation of Tcl values, so
 *	that what a script passes again unchanged is not parsed again:
 *	object handles (a name resolves to its object without a command
 *	lookup), work requests (a send or receive WR dict keeps its
 *	struct ibv_send_wr / ibv_recv_wr and SGEs) and attribute dicts
 *	that name no object (an ah_attr keeps its struct ibv_ah_attr).
 *
 *	A cached form holds raw object pointers; it is valid while the
 *	epoch it was made in is: the epoch moves on whenever any object
 *	command is deleted or renamed and whenever an MR is re-registered,
 *	so checking one counter proves that every object the form points
 *	at is still alive, still has its name and still has the keys and
 *	bounds the form was checked against.  A parsed attribute struct
 *	points at nothing and holds no epoch: the same dict always parses
 *	the same way.
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

static Tcl_FreeInternalRepProc	FreeSharedRep;
static Tcl_DupInternalRepProc	DupSharedRep, DupHandleRep;

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
    size_t refCount;		/* First: DupSharedRep, FreeSharedRep. */
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
    "verbs_send_wr", FreeSharedRep, DupSharedRep, NULL, NULL
#ifdef TCL_OBJTYPE_V0
    , TCL_OBJTYPE_V0
#endif
};

static const Tcl_ObjType recvWrType = {
    "verbs_recv_wr", FreeSharedRep, DupSharedRep, NULL, NULL
#ifdef TCL_OBJTYPE_V0
    , TCL_OBJTYPE_V0
#endif
};

/*
 * A parsed attribute struct: ptr1 is a StructRep shared by the values
 * duplicated from one another.  bytes holds the struct as the dict set
 * it, then one byte per byte of it: 1 where the dict wrote it (a field it
 * gives), 0 where it left what was there (a field it does not give, and
 * padding), so that applying it merges the dict over defaults as parsing
 * it does.
 */

typedef struct StructRep {
    size_t refCount;		/* First: DupSharedRep, FreeSharedRep. */
    const VerbsStruct *structPtr;	/* What it was parsed as. */
    size_t size;
    unsigned char bytes[1];	/* 2 * size of them. */
} StructRep;

static const Tcl_ObjType structType = {
    "verbs_struct", FreeSharedRep, DupSharedRep, NULL, NULL
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
 * DupHandleRep, DupSharedRep, FreeSharedRep --
 *
 *	Internal representation procs of the cached types.  A WrRep and a
 *	StructRep are shared by the values duplicated from one another;
 *	each starts with its reference count.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Reference counts of the shared reps.
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
DupSharedRep(
    Tcl_Obj *srcPtr,
    Tcl_Obj *dupPtr)
{
    size_t *refCountPtr = (size_t *) srcPtr->internalRep.twoPtrValue.ptr1;

    (*refCountPtr)++;
    dupPtr->internalRep.twoPtrValue.ptr1 = refCountPtr;
    dupPtr->internalRep.twoPtrValue.ptr2 = NULL;
    dupPtr->typePtr = srcPtr->typePtr;
}

static void
FreeSharedRep(
    Tcl_Obj *objPtr)
{
    size_t *refCountPtr = (size_t *) objPtr->internalRep.twoPtrValue.ptr1;

    if (--*refCountPtr == 0) {
	ckfree(refCountPtr);
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

/*
 *----------------------------------------------------------------------
 *
 * StructApply, VerbsDictToStructKept --
 *
 *	Attribute dicts that name no object, kept parsed: the same dict
 *	always parses the same way.  VerbsDictToStructKept parses dictObj
 *	as structPtr (size bytes) over *target, writing only the fields the
 *	dict gives, as VerbsDictToStruct does; fixProc, if any, then
 *	completes the parsed struct and which bytes it sets (is_global
 *	that a grh implies).  StructApply writes the kept form over
 *	*target, when the value holds one for that struct.
 *
 *	Which bytes a dict writes is found by parsing it twice, over zeros
 *	and over ones: a byte the two agree on was written.  That costs a
 *	parse more and the value's string, so a value is kept only when it
 *	comes a second time in a row (the thread remembers the last one by
 *	its address, which is never followed): a dict made for one call (an
 *	event's, verbs::connect's) is parsed once, as it would be without
 *	the cache.
 *
 * Results:
 *	StructApply: 1 when it applied the kept form, 0 when there is none.
 *	VerbsDictToStructKept: a standard Tcl result; what names the dict
 *	in messages.
 *
 * Side effects:
 *	Write into *target; VerbsDictToStructKept may replace the value's
 *	internal representation, and remembers its address.
 *
 *----------------------------------------------------------------------
 */

/*
 * The last value VerbsDictToStructKept parsed in this thread (per thread:
 * a Tcl_ThreadDataKey), by its address alone.
 */

static Tcl_ThreadDataKey lastParsedKey;

/* The largest struct VerbsDictToStructKept keeps. */
#define KEPT_MAX 256

static int
StructApply(
    Tcl_Obj *valueObj,
    const VerbsStruct *structPtr,
    void *target,
    size_t size)
{
    const StructRep *rep;
    unsigned char *t = (unsigned char *) target;
    size_t i;

    if (valueObj->typePtr != &structType) {
	return 0;
    }
    rep = (const StructRep *) valueObj->internalRep.twoPtrValue.ptr1;
    if (rep->structPtr != structPtr || rep->size != size) {
	return 0;
    }
    for (i = 0; i < size; i++) {
	if (rep->bytes[size + i]) {
	    t[i] = rep->bytes[i];
	}
    }
    return 1;
}

int
VerbsDictToStructKept(
    Tcl_Interp *interp,
    const VerbsStruct *structPtr,
    const char *what,
    Tcl_Obj *dictObj,
    void *target,
    size_t size,
    VerbsStructFixProc *fixProc)
{
    unsigned char zeros[KEPT_MAX], ones[KEPT_MAX];
    StructRep *rep;
    Tcl_Obj **lastPtr;
    size_t i;

    if (StructApply(dictObj, structPtr, target, size)) {
	return TCL_OK;
    }
    lastPtr = (Tcl_Obj **) Tcl_GetThreadData(&lastParsedKey,
	    sizeof(Tcl_Obj *));
    if (*lastPtr != dictObj || size > KEPT_MAX) {
	*lastPtr = dictObj;
	if (VerbsDictToStruct(interp, structPtr, what, dictObj, target,
		NULL) != TCL_OK) {
	    return TCL_ERROR;
	}
	if (fixProc) {
	    fixProc(dictObj, target, NULL);
	}
	return TCL_OK;
    }
    memset(zeros, 0, size);
    memset(ones, 0xff, size);
    if (VerbsDictToStruct(interp, structPtr, what, dictObj, zeros, NULL)
	    != TCL_OK
	    || VerbsDictToStruct(interp, structPtr, what, dictObj, ones, NULL)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    rep = (StructRep *) ckalloc(offsetof(StructRep, bytes) + 2 * size);
    rep->refCount = 1;
    rep->structPtr = structPtr;
    rep->size = size;
    memcpy(rep->bytes, zeros, size);
    for (i = 0; i < size; i++) {
	rep->bytes[size + i] = zeros[i] == ones[i];
    }
    if (fixProc) {
	fixProc(dictObj, rep->bytes, rep->bytes + size);
    }
    SetRep(dictObj, &structType, rep, NULL);
    return StructApply(dictObj, structPtr, target, size) ? TCL_OK
	    : TCL_ERROR;
}
