/*
 * verbsObj.c --
 *
 *	The object registry: object commands, their subcommand dispatch,
 *	reference counted lifetime (children first), typed handle lookup and
 *	[verbs::objects].
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <string.h>

#define STATE_KEY "verbs"
#define OBJ_NS "::verbs::obj"		/* Where generated names live. */

/*
 * An object command may be called from its own delete proc (a child's
 * delete trace calling its dying parent, objects-2.6a).  Tcl 9 runs one
 * of its two kinds of commands through a wrapper whose record is gone by
 * then, and such a call returns a garbage code or crashes: in Tcl 9.0 the
 * Tcl_CreateObjCommand2 kind, in Tcl 9.1 the Tcl_CreateObjCommand (int
 * objc) kind.  So the command is of the kind the running Tcl calls
 * directly: ObjectCmd under Tcl 8 and 9.0, ObjectCmd2 from 9.1 on (an
 * extension built against 9.0 loads into 9.1).
 */
static Tcl_ObjCmdProc		ObjectCmd;
#if TCL_MAJOR_VERSION > 8
static Tcl_ObjCmdProc2		ObjectCmd2;
#endif
static Tcl_Command	CreateObjectCommand(Tcl_Interp *interp,
			    const char *name, VerbsObj *objPtr);
static VerbsObj *	CommandObject(const Tcl_CmdInfo *infoPtr);
static int		ObjectCall(VerbsObj *objPtr, Tcl_Interp *interp,
			    int objc, Tcl_Obj *const objv[]);
static Tcl_CmdDeleteProc	ObjectDeleted;
static Tcl_InterpDeleteProc	StateDeleted;
static Tcl_ExitProc		FinalizeThread;
static void			TrackState(VerbsState *statePtr, int add);

/*
 * The states of one thread's interpreters, so that process exit (which
 * deletes no interpreter) and thread exit can finalise their objects.
 */

typedef struct ThreadStates {
    VerbsState *first;
    VerbsFrame *frames;		/* Innermost first. */
    int handler;		/* The thread exit handler is registered. */
} ThreadStates;

static Tcl_ThreadDataKey statesKey;	/* Per thread: ThreadStates. */
static int exitHandler;		/* The process exit handler is registered;
				 * read and set under exitMutex. */
TCL_DECLARE_MUTEX(exitMutex)
static Tcl_CommandTraceProc	ObjectRenamed;
static Tcl_NamespaceDeleteProc	ObjNamespaceDeleted;
static void		ForgetName(VerbsObj *objPtr);
static int		GeneratedName(char *buf, const char *type, size_t n);
static Tcl_Obj *	OldestFirst(Tcl_Obj *list);

/*
 *----------------------------------------------------------------------
 *
 * VerbsStateInit, VerbsGetState --
 *
 *	Create and fetch the per-interpreter state.
 *
 * Results:
 *	VerbsGetState returns the state of the interpreter.
 *
 * Side effects:
 *	VerbsStateInit registers the assoc data on first use.
 *
 *----------------------------------------------------------------------
 */

void
VerbsStateInit(
    Tcl_Interp *interp)
{
    VerbsState *statePtr;

    if (Tcl_GetAssocData(interp, STATE_KEY, NULL) != NULL) {
	return;
    }
    statePtr = (VerbsState *) ckalloc(sizeof(VerbsState));
    memset(statePtr, 0, sizeof(VerbsState));
    statePtr->interp = interp;
    Tcl_InitHashTable(&statePtr->counters, TCL_ONE_WORD_KEYS);
    Tcl_InitHashTable(&statePtr->borrowed, TCL_ONE_WORD_KEYS);
    Tcl_SetAssocData(interp, STATE_KEY, StateDeleted, statePtr);
    TrackState(statePtr, 1);
}

/*
 *----------------------------------------------------------------------
 *
 * TrackState --
 *
 *	Add a state to (add true) or remove it from its thread's list.
 *	The first state of a thread registers the thread exit handler, the
 *	first of the process the process exit handler; both run
 *	FinalizeThread.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Links or unlinks the state; may register exit handlers.
 *
 *----------------------------------------------------------------------
 */

static void
TrackState(
    VerbsState *statePtr,
    int add)
{
    ThreadStates *tsPtr = (ThreadStates *)
	    Tcl_GetThreadData(&statesKey, sizeof(ThreadStates));

    if (!add) {
	if (statePtr->prevState) {
	    statePtr->prevState->nextState = statePtr->nextState;
	} else if (tsPtr->first == statePtr) {
	    tsPtr->first = statePtr->nextState;
	}
	if (statePtr->nextState) {
	    statePtr->nextState->prevState = statePtr->prevState;
	}
	statePtr->nextState = statePtr->prevState = NULL;
	return;
    }
    statePtr->prevState = NULL;
    statePtr->nextState = tsPtr->first;
    if (tsPtr->first) {
	tsPtr->first->prevState = statePtr;
    }
    tsPtr->first = statePtr;
    if (!tsPtr->handler) {
	tsPtr->handler = 1;
	Tcl_CreateThreadExitHandler(FinalizeThread, NULL);
    }
    Tcl_MutexLock(&exitMutex);
    if (!exitHandler) {
	exitHandler = 1;
	Tcl_CreateExitHandler(FinalizeThread, NULL);
    }
    Tcl_MutexUnlock(&exitMutex);
}

/*
 *----------------------------------------------------------------------
 *
 * FinalizeThread --
 *
 *	Exit handler (process and thread): [exit] deletes no interpreter,
 *	so the objects of this thread's interpreters that are still alive
 *	are deleted here, each root with its tree, children first, exactly
 *	as [$ctx close] would: queue pairs before their CQs, regions before
 *	their PD, everything before its context.  Interpreters already
 *	deleted have left the list; one being deleted is left to its own
 *	teardown.  Objects of other threads are theirs (a thread that
 *	exits finalises its own); the process exit handler runs in the
 *	thread that calls exit.  Last, the references of C frames that ran
 *	the script which exited are dropped (VerbsFramePush).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Destroys RDMA resources; object delete traces run.
 *
 *----------------------------------------------------------------------
 */

static void
FinalizeThread(
    ClientData clientData VERBS_UNUSED)
{
    ThreadStates *tsPtr = (ThreadStates *)
	    Tcl_GetThreadData(&statesKey, sizeof(ThreadStates));
    VerbsState *statePtr;

    while ((statePtr = tsPtr->first) != NULL) {
	Tcl_Interp *interp = statePtr->interp;

	TrackState(statePtr, 0);
	if (Tcl_InterpDeleted(interp)) {
	    continue;
	}
	Tcl_Preserve(interp);
	while (statePtr->live != NULL) {
	    VerbsObj *objPtr = statePtr->live;

	    /* A root: the object whose parent is gone or was none. */
	    while (objPtr->parent && objPtr->parent->token) {
		objPtr = objPtr->parent;
	    }
	    if (objPtr->token == NULL) {
		break;			/* Cannot happen: live means a token. */
	    }
	    Tcl_DeleteCommandFromToken(interp, objPtr->token);
	}
	Tcl_Release(interp);
    }

    /*
     * Exit from a script that a C frame runs (a notify callback) never
     * returns to that frame: its reference goes now, so that the object
     * (its command is gone) and its ancestors are destroyed too.
     */

    while (tsPtr->frames != NULL) {
	VerbsFrame *framePtr = tsPtr->frames;

	tsPtr->frames = framePtr->next;
	framePtr->dropped = 1;
	VerbsObjRelease(framePtr->objPtr);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsFramePush, VerbsFramePop --
 *
 *	A C frame about to run a script takes a reference on an object
 *	(Push) and gives it back when the script returns (Pop), unless the
 *	exit handler did (the script exited).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Reference counting; Pop may destroy the object.
 *
 *----------------------------------------------------------------------
 */

void
VerbsFramePush(
    VerbsFrame *framePtr,
    VerbsObj *objPtr)
{
    ThreadStates *tsPtr = (ThreadStates *)
	    Tcl_GetThreadData(&statesKey, sizeof(ThreadStates));

    VerbsObjRetain(objPtr);
    framePtr->objPtr = objPtr;
    framePtr->dropped = 0;
    framePtr->next = tsPtr->frames;
    tsPtr->frames = framePtr;
}

void
VerbsFramePop(
    VerbsFrame *framePtr)
{
    ThreadStates *tsPtr = (ThreadStates *)
	    Tcl_GetThreadData(&statesKey, sizeof(ThreadStates));
    VerbsFrame **linkPtr;

    if (framePtr->dropped) {
	return;
    }
    for (linkPtr = &tsPtr->frames; *linkPtr; linkPtr = &(*linkPtr)->next) {
	if (*linkPtr == framePtr) {
	    *linkPtr = framePtr->next;
	    break;
	}
    }
    VerbsObjRelease(framePtr->objPtr);
}

VerbsState *
VerbsGetState(
    Tcl_Interp *interp)
{
    return (VerbsState *) Tcl_GetAssocData(interp, STATE_KEY, NULL);
}

/*
 *----------------------------------------------------------------------
 *
 * StateDeleted --
 *
 *	Assoc data delete proc.  Tcl tears down all namespaces, and with
 *	them every object command, before it deletes assoc data, so by now
 *	every object is gone; objects in the live list would be a bug, and
 *	are detached so that nothing points at freed state.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Frees the state.
 *
 *----------------------------------------------------------------------
 */

static void
StateDeleted(
    ClientData clientData,
    Tcl_Interp *interp VERBS_UNUSED)
{
    VerbsState *statePtr = (VerbsState *) clientData;
    VerbsObj *objPtr;

    TrackState(statePtr, 0);
    while ((objPtr = statePtr->live) != NULL) {
	statePtr->live = objPtr->nextLive;
	objPtr->nextLive = objPtr->prevLive = NULL;
	objPtr->statePtr = NULL;
    }
    Tcl_DeleteHashTable(&statePtr->counters);
    Tcl_DeleteHashTable(&statePtr->borrowed);
    ckfree(statePtr);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsObjNew --
 *
 *	Allocate a zeroed object of the given type.  The caller fills in
 *	the C resource and then calls VerbsObjRegister.
 *
 * Results:
 *	The new object, with a reference count of zero.
 *
 * Side effects:
 *	Memory allocation.
 *
 *----------------------------------------------------------------------
 */

VerbsObj *
VerbsObjNew(
    const VerbsType *typePtr)
{
    VerbsObj *objPtr = (VerbsObj *) ckalloc(typePtr->size);

    memset(objPtr, 0, typePtr->size);
    objPtr->typePtr = typePtr;
    return objPtr;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsObjNamespace, ObjNamespaceDeleted --
 *
 *	The namespace of generated names, made with a delete proc that
 *	forgets it, so that the state can keep it (a script may delete
 *	it; it is made again when next needed).  When a script made it
 *	first, it is found each time instead.
 *
 * Results:
 *	The namespace, or NULL with an error in the interpreter.
 *
 * Side effects:
 *	May create the namespace.
 *
 *----------------------------------------------------------------------
 */

Tcl_Namespace *
VerbsObjNamespace(
    Tcl_Interp *interp)
{
    VerbsState *statePtr = VerbsGetState(interp);
    Tcl_Namespace *nsPtr;

    if (statePtr->objNs != NULL) {
	return statePtr->objNs;
    }
    nsPtr = Tcl_FindNamespace(interp, OBJ_NS, NULL, TCL_GLOBAL_ONLY);
    if (nsPtr != NULL) {
	return nsPtr;
    }
    statePtr->objNs = Tcl_CreateNamespace(interp, OBJ_NS, statePtr,
	    ObjNamespaceDeleted);
    return statePtr->objNs;
}

static void
ObjNamespaceDeleted(
    ClientData clientData)
{
    ((VerbsState *) clientData)->objNs = NULL;
}

/*
 * GeneratedName --
 *	Write OBJ_NS::TYPEn into buf (room for OBJ_NS, "::", the type name
 *	and 20 digits) and return its length: by hand, since snprintf
 *	costs more than the rest of making the name.
 */

static int
GeneratedName(
    char *buf,
    const char *type,
    size_t n)
{
    char digits[24];
    int len = sizeof(OBJ_NS "::") - 1, nd = 0;

    memcpy(buf, OBJ_NS "::", len);
    while (*type) {
	buf[len++] = *type++;
    }
    do {
	digits[nd++] = (char) ('0' + n % 10);
	n /= 10;
    } while (n);
    while (nd) {
	buf[len++] = digits[--nd];
    }
    buf[len] = '\0';
    return len;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsObjRegister --
 *
 *	Give a freshly created object its command and its place in the
 *	tree.  nameObj is the name asked for with -as, or NULL for
 *	a generated ::verbs::obj::TYPEn name.  Generated names live in a
 *	namespace of their own, out of the API's: [namespace import
 *	::verbs::*] imports no object, and [info commands ::verbs::*]
 *	lists only the API.
 *
 * Results:
 *	TCL_OK with the fully qualified command name as the result; on
 *	TCL_ERROR (the name is taken) the object is untouched and the
 *	caller still owns its resource.
 *
 * Side effects:
 *	Creates a command; takes a reference on the parent.
 *
 *----------------------------------------------------------------------
 */

int
VerbsObjRegister(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    VerbsObj *parent,
    Tcl_Obj *nameObj)
{
    VerbsState *statePtr = VerbsGetState(interp);
    Tcl_Obj *name;
    Tcl_CmdInfo info;
    char buf[sizeof(OBJ_NS "::") + 64];

    if (nameObj != NULL) {
	const char *given = Tcl_GetString(nameObj);

	/*
	 * An unqualified name belongs to the current namespace (Tcl would
	 * create it in the global one): qualify it here.
	 */

	if (given[0] == ':' && given[1] == ':') {
	    name = Tcl_NewStringObj(given, -1);
	} else {
	    Tcl_Namespace *nsPtr = Tcl_GetCurrentNamespace(interp);

	    name = Tcl_ObjPrintf("%s::%s", strcmp(nsPtr->fullName, "::") == 0
		    ? "" : nsPtr->fullName, given);
	}
	Tcl_IncrRefCount(name);
	if (Tcl_GetCommandInfo(interp, Tcl_GetString(name), &info)) {
	    Tcl_SetObjResult(interp, Tcl_ObjPrintf(
		    "command \"%s\" already exists", Tcl_GetString(name)));
	    Tcl_SetErrorCode(interp, "VERBS", "ARG", "-as",
		    Tcl_GetString(name), NULL);
	    Tcl_DecrRefCount(name);
	    return TCL_ERROR;
	}
    } else {
	int isNew, len;
	Tcl_HashEntry *hPtr = Tcl_CreateHashEntry(&statePtr->counters,
		(char *) objPtr->typePtr, &isNew);
	size_t n = isNew ? 0 : (size_t) Tcl_GetHashValue(hPtr);
	Tcl_Namespace *nsPtr = VerbsObjNamespace(interp);

	/*
	 * The next number whose name is free: looked up by its tail in the
	 * namespace (a qualified name would be parsed again each time).
	 */

	do {
	    statePtr->work++;
	    Tcl_SetHashValue(hPtr, (ClientData) ++n);
	    len = GeneratedName(buf, objPtr->typePtr->name, n);
	} while (nsPtr != NULL ? Tcl_FindCommand(interp,
		buf + sizeof(OBJ_NS "::") - 1, nsPtr, TCL_NAMESPACE_ONLY)
		!= NULL : Tcl_GetCommandInfo(interp, buf, &info));
	name = Tcl_NewStringObj(buf, len);
	Tcl_IncrRefCount(name);
    }

    objPtr->statePtr = statePtr;
    objPtr->token = CreateObjectCommand(interp, Tcl_GetString(name), objPtr);
    Tcl_TraceCommand(interp, Tcl_GetString(name), TCL_TRACE_RENAME,
	    ObjectRenamed, objPtr);
    objPtr->refCount = 1;

    objPtr->nextLive = statePtr->live;
    if (statePtr->live) {
	statePtr->live->prevLive = objPtr;
    }
    statePtr->live = objPtr;

    objPtr->parent = parent;
    if (parent) {
	VerbsObjRetain(parent);
	objPtr->nextSibling = parent->children;
	if (parent->children) {
	    parent->children->prevSibling = objPtr;
	}
	parent->children = objPtr;
    }

    /*
     * A generated name is the command's full name; for a given one, Tcl
     * tells (it may have spelled it differently, "::a::::b").
     */

    if (nameObj == NULL) {
	objPtr->nameObj = name;		/* Our reference, kept. */
    } else {
	Tcl_DecrRefCount(name);
    }
    Tcl_SetObjResult(interp, VerbsObjNameShared(objPtr));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsObjRetain, VerbsObjRelease --
 *
 *	Reference counting.  The last release destroys the C resource
 *	(freeProc), unlinks the object from its parent, drops the parent
 *	reference and frees the memory.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	May destroy this object and, in turn, its parent.
 *
 *----------------------------------------------------------------------
 */

void
VerbsObjRetain(
    VerbsObj *objPtr)
{
    objPtr->refCount++;
}

void
VerbsObjRelease(
    VerbsObj *objPtr)
{
    VerbsObj *parent;

    if (--objPtr->refCount > 0) {
	return;
    }
    objPtr->typePtr->freeProc(objPtr);

    parent = objPtr->parent;
    if (parent) {
	if (objPtr->prevSibling) {
	    objPtr->prevSibling->nextSibling = objPtr->nextSibling;
	} else {
	    parent->children = objPtr->nextSibling;
	}
	if (objPtr->nextSibling) {
	    objPtr->nextSibling->prevSibling = objPtr->prevSibling;
	}
    }
    ForgetName(objPtr);		/* (Gone with the command, but for one
				 * whose command could not be made.) */
    ckfree(objPtr);
    if (parent) {
	VerbsObjRelease(parent);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsObjReparent --
 *
 *	Move an object under another parent (an MR moved to another PD by
 *	ibv_rereg_mr, an rdma_cm id moved to another event channel): it
 *	leaves the old parent's children, joins the new one's, and its
 *	parent reference moves along.  Either parent may be NULL (a root
 *	object).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	May free the old parent, when that reference was its last.
 *
 *----------------------------------------------------------------------
 */

void
VerbsObjReparent(
    VerbsObj *objPtr,
    VerbsObj *parent)
{
    VerbsObj *old = objPtr->parent;

    if (old) {
	if (objPtr->prevSibling) {
	    objPtr->prevSibling->nextSibling = objPtr->nextSibling;
	} else {
	    old->children = objPtr->nextSibling;
	}
	if (objPtr->nextSibling) {
	    objPtr->nextSibling->prevSibling = objPtr->prevSibling;
	}
    }
    objPtr->parent = parent;
    objPtr->prevSibling = NULL;
    objPtr->nextSibling = NULL;
    if (parent) {
	VerbsObjRetain(parent);
	objPtr->nextSibling = parent->children;
	if (parent->children) {
	    parent->children->prevSibling = objPtr;
	}
	parent->children = objPtr;
    }
    if (old) {
	VerbsObjRelease(old);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsObjWrap --
 *
 *	The end of a constructor whose object holds nothing but its C
 *	resource yet: makes the object of the type, with the resource
 *	pointer at offset in its struct, and registers it under parent.
 *	When registering fails (the -as name is taken) the type's
 *	freeProc destroys the resource again.
 *
 * Results:
 *	The object (the interp's result its name), or NULL with an error.
 *
 * Side effects:
 *	Creates the object command.
 *
 *----------------------------------------------------------------------
 */

VerbsObj *
VerbsObjWrap(
    Tcl_Interp *interp,
    const VerbsType *typePtr,
    size_t offset,		/* Of the resource pointer in the struct. */
    void *resource,
    VerbsObj *parent,
    Tcl_Obj *nameObj)		/* -as, or NULL. */
{
    VerbsObj *objPtr = VerbsObjNew(typePtr);

    *(void **) ((char *) objPtr + offset) = resource;
    if (VerbsObjRegister(interp, objPtr, parent, nameObj) != TCL_OK) {
	typePtr->freeProc(objPtr);
	ckfree(objPtr);
	return NULL;
    }
    return objPtr;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsObjAdopt --
 *
 *	Register an object made with VerbsObjNew and filled in; when that
 *	fails (a bad -as name), its free proc undoes it and it is freed.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Creates the object command, or frees the object.
 *
 *----------------------------------------------------------------------
 */

int
VerbsObjAdopt(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    VerbsObj *parent,
    Tcl_Obj *nameObj)
{
    if (VerbsObjRegister(interp, objPtr, parent, nameObj) != TCL_OK) {
	objPtr->typePtr->freeProc(objPtr);
	ckfree(objPtr);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsObjHold, VerbsObjCheckHeld, VerbsObjUnhold --
 *
 *	Keep the objects a library call works on alive while it may run
 *	scripts (a parent domain's allocator), which may close them: the
 *	caller holds them (NULL entries are skipped), makes the call, asks
 *	whether any was closed meanwhile (and then undoes what the call
 *	made), and lets go.
 *
 * Results:
 *	VerbsObjCheckHeld: TCL_OK when every object still has its command,
 *	else TCL_ERROR with a message naming the call and the type.
 *
 * Side effects:
 *	References; VerbsObjUnhold may destroy the objects.
 *
 *----------------------------------------------------------------------
 */

void
VerbsObjHold(
    VerbsObj *const objs[],
    int n)
{
    int i;

    for (i = 0; i < n; i++) {
	if (objs[i]) {
	    VerbsObjRetain(objs[i]);
	}
    }
}

int
VerbsObjCheckHeld(
    Tcl_Interp *interp,
    VerbsObj *const objs[],
    int n,
    const char *call)
{
    int i;

    for (i = 0; i < n; i++) {
	if (objs[i] && objs[i]->token == NULL) {
	    Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s: its %s was closed "
		    "by a script it ran", call, objs[i]->typePtr->name));
	    Tcl_SetErrorCode(interp, "VERBS", "CLOSED",
		    objs[i]->typePtr->name, NULL);
	    return TCL_ERROR;
	}
    }
    return TCL_OK;
}

void
VerbsObjUnhold(
    VerbsObj *const objs[],
    int n)
{
    int i;

    for (i = 0; i < n; i++) {
	if (objs[i]) {
	    VerbsObjRelease(objs[i]);
	}
    }
}

/*
 *----------------------------------------------------------------------
 *
 * ObjectRenamed --
 *
 *	Rename trace of every object command: the old name no longer
 *	means the object, so the handles cached under it are void, and so
 *	is the name the object keeps.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Moves the cache epoch on (verbsCache.c); forgets the name.
 *
 *----------------------------------------------------------------------
 */

static void
ObjectRenamed(
    ClientData clientData,
    Tcl_Interp *interp VERBS_UNUSED,
    const char *oldName VERBS_UNUSED,
    const char *newName VERBS_UNUSED,
    int flags VERBS_UNUSED)
{
    ForgetName((VerbsObj *) clientData);
    VerbsEpochBump();
}

/*
 *----------------------------------------------------------------------
 *
 * ObjectDeleted --
 *
 *	Delete proc of every object command.  Deletes the commands of the
 *	children first, then drops the command's reference; the resource
 *	goes when no other object uses it any more.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Deletes commands; may destroy RDMA resources.
 *
 *----------------------------------------------------------------------
 */

static void
ObjectDeleted(
    ClientData clientData)
{
    VerbsObj *objPtr = (VerbsObj *) clientData;
    VerbsState *statePtr = objPtr->statePtr;
    VerbsObj *child;

    objPtr->deleting = 1;
    objPtr->token = NULL;
    ForgetName(objPtr);
    VerbsEpochBump();
    if (statePtr) {
	if (objPtr->prevLive) {
	    objPtr->prevLive->nextLive = objPtr->nextLive;
	} else {
	    statePtr->live = objPtr->nextLive;
	}
	if (objPtr->nextLive) {
	    objPtr->nextLive->prevLive = objPtr->prevLive;
	}
	objPtr->nextLive = objPtr->prevLive = NULL;
    }

    /*
     * Deleting one child can free others (a QP releasing its CQs), which
     * unlinks them.  The walk holds a reference on the child it is at, so
     * that this one stays linked and its nextSibling stays right whatever
     * goes; each child is visited once (a child whose command went first
     * and that something else still holds, a CQ under its QPs, is passed
     * over once, not once per deletion).  No child is added meanwhile:
     * an object being deleted is no parent for a new one (VerbsObjFind).
     * The children keep this object alive, since each holds a reference,
     * and so does the extra reference taken here.
     */

    VerbsNotifyStop(objPtr);
    VerbsObjRetain(objPtr);
    child = statePtr ? objPtr->children : NULL;
    if (child) {
	VerbsObjRetain(child);
    }
    while (child) {
	VerbsObj *next;

	statePtr->work++;

	/*
	 * A child whose deletion has begun is skipped: when a delete trace
	 * of the child deleted us, Tcl returns at once and runs the child's
	 * delete proc later (the child's reference keeps us until then).
	 */

	if (child->token != NULL && !child->deleting) {
	    child->deleting = 1;
	    Tcl_DeleteCommandFromToken(statePtr->interp, child->token);
	}
	next = child->nextSibling;
	if (next) {
	    VerbsObjRetain(next);
	}
	VerbsObjRelease(child);
	child = next;
    }
    VerbsObjRelease(objPtr);		/* Our extra reference. */
    VerbsObjRelease(objPtr);		/* The command's reference. */
}

/*
 *----------------------------------------------------------------------
 *
 * CreateObjectCommand, ObjectCmd, ObjectCmd2, ObjectCall --
 *
 *	The object command (of the kind the running Tcl calls directly, see
 *	the top of this file): ObjectCall dispatches to the type's method
 *	table.
 *
 * Results:
 *	The command's token; a standard Tcl result.
 *
 * Side effects:
 *	Whatever the method does.
 *
 *----------------------------------------------------------------------
 */

static Tcl_Command
CreateObjectCommand(
    Tcl_Interp *interp,
    const char *name,
    VerbsObj *objPtr)
{
#if TCL_MAJOR_VERSION > 8
    int major, minor;

    Tcl_GetVersion(&major, &minor, NULL, NULL);
    if (major > 9 || (major == 9 && minor >= 1)) {
	return Tcl_CreateObjCommand2(interp, name, ObjectCmd2, objPtr,
		ObjectDeleted);
    }
#endif
    return Tcl_CreateObjCommand(interp, name, ObjectCmd, objPtr,
	    ObjectDeleted);
}

/*
 * CommandObject --
 *	The object of an object command's Tcl_GetCommandInfo, or NULL when
 *	it is no object command (either kind).
 */

static VerbsObj *
CommandObject(
    const Tcl_CmdInfo *infoPtr)
{
    if (infoPtr->objProc == ObjectCmd) {
	return (VerbsObj *) infoPtr->objClientData;
    }
#if TCL_MAJOR_VERSION > 8
    if (infoPtr->objProc2 == ObjectCmd2) {
	return (VerbsObj *) infoPtr->objClientData2;
    }
#endif
    return NULL;
}

static int
ObjectCmd(
    ClientData clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    return ObjectCall((VerbsObj *) clientData, interp, objc, objv);
}

#if TCL_MAJOR_VERSION > 8
static int
ObjectCmd2(
    ClientData clientData,
    Tcl_Interp *interp,
    Tcl_Size objc,
    Tcl_Obj *const objv[])
{
    /* (A method's objc is an int.) */
    return ObjectCall((VerbsObj *) clientData, interp, (int) objc, objv);
}
#endif

static int
ObjectCall(
    VerbsObj *objPtr,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    const VerbsMethod *m;
    int index, result, nargs;

    if (objPtr->deleting) {
	/* Reached from a delete trace: the object is on its way out. */
	Tcl_SetObjResult(interp, Tcl_ObjPrintf(
		"%s is being deleted", Tcl_GetString(objv[0])));
	Tcl_SetErrorCode(interp, "VERBS", "LOOKUP", objPtr->typePtr->name,
		Tcl_GetString(objv[0]), NULL);
	return TCL_ERROR;
    }
    if (objc < 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "subcommand ?arg ...?");
	return TCL_ERROR;
    }
    if (Tcl_GetIndexFromObjStruct(interp, objv[1], objPtr->typePtr->methods,
	    sizeof(VerbsMethod), "subcommand", 0, &index) != TCL_OK) {
	return TCL_ERROR;
    }
    m = &objPtr->typePtr->methods[index];
    nargs = objc - 2;
    if (nargs < m->minArgs || (m->maxArgs >= 0 && nargs > m->maxArgs)) {
	Tcl_WrongNumArgs(interp, 2, objv, m->usage[0] ? m->usage : NULL);
	return TCL_ERROR;
    }

    /*
     * Hold a reference so that a method that ends up deleting its own
     * command (close) finds its memory intact until it returns.
     */

    VerbsObjRetain(objPtr);
    result = m->proc(interp, objPtr, objc, objv);
    VerbsObjRelease(objPtr);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsObjName, VerbsObjNameShared, ForgetName --
 *
 *	The fully qualified name of an object's command.  The name is made
 *	once (Tcl_GetCommandFullName costs thousands of instructions) and
 *	kept until the command is renamed or deleted (ForgetName).
 *	VerbsObjNameShared gives the kept value itself, for a result, a
 *	list or a dict: an event or a list of objects then carries the
 *	same value each time, with the handle it resolved to
 *	(verbsCache.c).  VerbsObjName gives a copy, which the caller owns.
 *
 * Results:
 *	VerbsObjName: a new Tcl_Obj.  VerbsObjNameShared: the kept value,
 *	which the caller must not change or release without holding it.
 *	Both are empty once the command is gone.
 *
 * Side effects:
 *	The first call keeps the name.
 *
 *----------------------------------------------------------------------
 */

Tcl_Obj *
VerbsObjNameShared(
    VerbsObj *objPtr)
{
    if (objPtr->token == NULL || objPtr->statePtr == NULL) {
	return Tcl_NewObj();
    }
    if (objPtr->nameObj == NULL) {
	objPtr->nameObj = Tcl_NewObj();
	Tcl_IncrRefCount(objPtr->nameObj);
	Tcl_GetCommandFullName(objPtr->statePtr->interp, objPtr->token,
		objPtr->nameObj);
    }
    return objPtr->nameObj;
}

Tcl_Obj *
VerbsObjName(
    VerbsObj *objPtr)
{
    Tcl_Obj *name = VerbsObjNameShared(objPtr);

    /* (Without a command the empty value is new: no copy, no leak.) */
    return name == objPtr->nameObj ? Tcl_DuplicateObj(name) : name;
}

static void
ForgetName(
    VerbsObj *objPtr)
{
    if (objPtr->nameObj != NULL) {
	Tcl_DecrRefCount(objPtr->nameObj);
	objPtr->nameObj = NULL;
    }
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsObjFind, VerbsObjGet --
 *
 *	Resolve an object command name.  VerbsObjFind returns any verbs
 *	object or NULL without touching the interp; VerbsObjGet checks the
 *	type and leaves an error message when it fails.  An object being
 *	deleted is not found: nothing may make it a parent or a cross
 *	reference any more.  The object found is kept in the name value
 *	(verbsCache.c), so the next lookup of that value costs no command
 *	lookup.
 *
 * Results:
 *	The object or NULL.
 *
 * Side effects:
 *	VerbsObjGet sets the result and errorCode on failure.
 *
 *----------------------------------------------------------------------
 */

VerbsObj *
VerbsObjFind(
    Tcl_Interp *interp,
    Tcl_Obj *nameObj)
{
    Tcl_CmdInfo info;
    VerbsObj *objPtr = VerbsHandleCached(interp, nameObj);

    if (objPtr != NULL) {
	return objPtr;
    }
    if (!Tcl_GetCommandInfo(interp, Tcl_GetString(nameObj), &info)
	    || (objPtr = CommandObject(&info)) == NULL
	    || objPtr->deleting) {
	return NULL;
    }
    VerbsHandleCache(nameObj, objPtr);
    return objPtr;
}

VerbsObj *
VerbsObjGet(
    Tcl_Interp *interp,
    Tcl_Obj *nameObj,
    const VerbsType *typePtr)
{
    VerbsObj *objPtr = VerbsObjFind(interp, nameObj);

    if (objPtr == NULL || objPtr->typePtr != typePtr) {
	Tcl_SetObjResult(interp, Tcl_ObjPrintf("\"%s\" is not a verbs %s object",
		Tcl_GetString(nameObj), typePtr->name));
	Tcl_SetErrorCode(interp, "VERBS", "LOOKUP", typePtr->name,
		Tcl_GetString(nameObj), NULL);
	return NULL;
    }
    return objPtr;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsCheckOwner --
 *
 *	An object given to a new one (with an option) must belong where the
 *	new one does: a QP's CQs to its PD's device context, its SRQ to the
 *	PD itself, and so on.  where names the owner for the message
 *	("pd", "device context than the pd").
 *
 * Results:
 *	A standard Tcl result (TCL_OK for a NULL object).
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
VerbsCheckOwner(
    Tcl_Interp *interp,
    const char *option,
    VerbsObj *objPtr,
    VerbsObj *owner,
    const char *where)
{
    Tcl_Obj *name;

    if (objPtr == NULL || objPtr->parent == owner) {
	return TCL_OK;
    }
    name = VerbsObjName(objPtr);
    VerbsArgError(interp, option, name, "%s \"%s\" is on another %s",
	    option, Tcl_GetString(name), where);
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * CreateArgsEnd --
 *
 *	Walks the option words of a create command from first: a switch
 *	(VF_SWITCH) is one word, any other option two.  Without an interp
 *	a word that is no option counts as one with a value (the walk only
 *	measures); with one it is an error.
 *
 * Results:
 *	The index one past the last word the walk took (objc when the
 *	count is right, more when the last option lacks its value), or -1
 *	after an unknown option (with the interp's result set).
 *
 * Side effects:
 *	With an interp, Tcl's lookup caches each option word's index.
 *
 *----------------------------------------------------------------------
 */

static int
CreateArgsEnd(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    int first,
    const VerbsField *options)
{
    int i = first, index;

    while (i < objc) {
	if (interp == NULL) {
	    if (Tcl_GetIndexFromObjStruct(NULL, objv[i], options,
		    sizeof(VerbsField), "option", 0, &index) != TCL_OK) {
		index = -1;
	    }
	} else if (Tcl_GetIndexFromObjStruct(interp, objv[i], options,
		sizeof(VerbsField), "option", 0, &index) != TCL_OK
		&& VerbsOlderOption(interp, objv[i], options, &index)
		!= TCL_OK) {
	    return -1;
	}
	i += (index >= 0 && (options[index].flags & VF_SWITCH)) ? 1 : 2;
    }
    return i;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsCreateArgs --
 *
 *	The common start of every create command: "create PARENT ?FIXED
 *	...? ?-option value ...?".  fixed is the usage of the words before
 *	the options ("pd attributes"); its word count says where they
 *	start.  The options go into the record, which begins with a
 *	VerbsCreateHead: PARENT is resolved to an object of parentClass
 *	(when not NULL) into its parent member.  A wrong word count gives
 *	the usage derived from the option rows.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills the record.
 *
 *----------------------------------------------------------------------
 */

int
VerbsCreateArgs(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    const char *fixed,
    const VerbsField *options,
    void *record,
    const VerbsType *parentClass)
{
    VerbsCreateHead *head = (VerbsCreateHead *) record;
    int nfixed = 1;
    const char *p;

    for (p = fixed; *p; p++) {
	if (*p != ' ' && (p == fixed || p[-1] == ' ')) {
	    nfixed++;
	}
    }
    if (objc < nfixed || CreateArgsEnd(NULL, objc, objv, nfixed, options)
	    != objc) {
	return VerbsUsageError(interp, 1, objv, fixed, options);
    }

    /*
     * Unknown options first (the word count is right), then the parent,
     * then the values: a bad parent is reported before what it would have
     * been used with.
     */

    if (CreateArgsEnd(interp, objc, objv, nfixed, options) != objc) {
	return TCL_ERROR;
    }
    if (parentClass) {
	head->parent = VerbsObjGet(interp, objv[1], parentClass);
	if (head->parent == NULL) {
	    return TCL_ERROR;
	}
    }
    return VerbsParseOptions(interp, objc, objv, nfixed, options, record);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsImportArgs --
 *
 *	The words of every import constructor: "import PARENT HANDLE
 *	?-as NAME?", HANDLE the kernel handle of the object in the
 *	owner's context.
 *
 * Results:
 *	A standard Tcl result; the parent and -as in *args, the
 *	handle in *handlePtr.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
VerbsImportArgs(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    const char *fixed,		/* "pd handle", "context handle". */
    const VerbsType *parentClass,
    VerbsCreateHead *args,
    uint32_t *handlePtr)
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_FIELD_END
    };
    uint64_t handle;

    if (VerbsCreateArgs(interp, objc, objv, fixed, options, args,
	    parentClass) != TCL_OK
	    || VerbsGetUInt(interp, "handle", objv[2], UINT32_MAX, &handle)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    *handlePtr = (uint32_t) handle;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsObjectsCmd --
 *
 *	verbs::objects ?TYPE?: the live object commands, oldest first.
 *	verbs::objects -work: how many objects the package's walks over
 *	objects have visited in this interpreter so far (the test of a
 *	call whose cost must not grow with the number of objects).
 *
 * Results:
 *	A list of fully qualified names; a count.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
VerbsObjectsCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsState *statePtr = VerbsGetState(interp);
    VerbsObj *objPtr;
    Tcl_Obj *list;
    const char *type = NULL;

    if (objc > 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "?type|-work?");
	return TCL_ERROR;
    }
    if (objc == 2 && strcmp(Tcl_GetString(objv[1]), "-work") == 0) {
	Tcl_SetObjResult(interp, Tcl_NewWideIntObj(statePtr->work));
	return TCL_OK;
    }
    if (objc == 2) {
	const VerbsType *const *t;
	const char *given = Tcl_GetString(objv[1]);
	Tcl_Obj *msg;

	for (t = verbsTypes; *t; t++) {
	    if (strcmp((*t)->name, given) == 0) {
		type = (*t)->name;
		break;
	    }
	}
	if (type == NULL) {
	    msg = Tcl_ObjPrintf("bad type \"%s\": must be", given);
	    for (t = verbsTypes; *t; t++) {
		Tcl_AppendPrintfToObj(msg, "%s%s%s", t == verbsTypes ? " "
			: t[1] ? ", " : ", or ", (*t)->name, "");
	    }
	    Tcl_SetObjResult(interp, msg);
	    Tcl_SetErrorCode(interp, "TCL", "LOOKUP", "INDEX", "type", given,
		    NULL);
	    return TCL_ERROR;
	}
    }
    list = Tcl_NewObj();
    for (objPtr = statePtr->live; objPtr; objPtr = objPtr->nextLive) {
	statePtr->work++;
	if (type == NULL || type == objPtr->typePtr->name) {
	    Tcl_ListObjAppendElement(NULL, list, VerbsObjNameShared(objPtr));
	}
    }

    /* The live list is newest first. */
    Tcl_SetObjResult(interp, OldestFirst(list));
    return TCL_OK;
}

/*
 * OldestFirst --
 *	The names of a newest-first walk (the live list, a sibling list)
 *	oldest first: a new list; the one given is freed.  Appending and
 *	reversing once is linear, where inserting each name at the front
 *	would be quadratic.
 */

static Tcl_Obj *
OldestFirst(
    Tcl_Obj *list)
{
    Tcl_Obj **elems, *reversed;
    Tcl_Size n;

    Tcl_IncrRefCount(list);
    Tcl_ListObjGetElements(NULL, list, &n, &elems);
    reversed = Tcl_NewListObj(0, NULL);
    while (n-- > 0) {
	Tcl_ListObjAppendElement(NULL, reversed, elems[n]);
    }
    Tcl_DecrRefCount(list);
    return reversed;
}

/*
 *----------------------------------------------------------------------
 *
 * CgetIndex, VerbsCgetMethod --
 *
 *	$obj cget ?-option?: one value, or a dict of all of them (where a
 *	computed value cannot be had, it is empty in the dict, and the
 *	option alone is the error).  CgetIndex: an option's row, by its
 *	name or a unique prefix of one of the type's own options: the rows
 *	every type has (-parent, -type, VF_EXACT) are taken in full only,
 *	so that "-p" means -pd wherever a type has one, and never silently
 *	-parent.  Errors are worded as Tcl_GetIndexFromObjStruct's.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
CgetIndex(
    Tcl_Interp *interp,
    Tcl_Obj *wordObj,
    const VerbsField *rows,
    int *indexPtr)
{
    const char *word = Tcl_GetString(wordObj);
    size_t len;
    const VerbsField *f;
    int n = 0, found = -1;
    Tcl_Obj *msg;

    /*
     * Tcl's lookup (cached in the word) settles every word but a prefix
     * of -parent or -type, and an abbreviation that those make ambiguous.
     */

    if (Tcl_GetIndexFromObjStruct(NULL, wordObj, rows, sizeof(VerbsField),
	    "option", 0, indexPtr) == TCL_OK) {
	f = &rows[*indexPtr];
	if (!(f->flags & VF_EXACT) || strcmp(f->name, word) == 0) {
	    return TCL_OK;
	}
    }
    len = strlen(word);
    for (f = rows; f->name; f++) {
	if (strcmp(f->name, word) == 0) {
	    *indexPtr = (int) (f - rows);
	    return TCL_OK;
	}
	if (len > 0 && !(f->flags & VF_EXACT)
		&& strncmp(f->name, word, len) == 0) {
	    found = (int) (f - rows);
	    n++;
	}
    }
    if (n == 1) {
	*indexPtr = found;
	return TCL_OK;
    }
    msg = Tcl_ObjPrintf("%s option \"%s\": must be ",
	    n > 1 ? "ambiguous" : "bad", word);
    for (f = rows; f->name; f++) {
	Tcl_AppendStringsToObj(msg, f == rows ? "" : f[1].name ? ", "
		: f == rows + 1 ? " or " : ", or ", f->name, (char *) NULL);
    }
    Tcl_SetObjResult(interp, msg);
    Tcl_SetErrorCode(interp, "TCL", "LOOKUP", "INDEX", "option", word,
	    (char *) NULL);
    return TCL_ERROR;
}

int
VerbsCgetMethod(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    const VerbsField *rows = objPtr->typePtr->cget, *f;
    Tcl_Obj *value, *dict;
    int index;

    if (objc == 3) {
	if (CgetIndex(interp, objv[2], rows, &index) != TCL_OK
		|| VerbsFieldGet(interp, &rows[index], objPtr, objPtr, &value)
		!= TCL_OK) {
	    return TCL_ERROR;
	}
	Tcl_SetObjResult(interp, value);
	return TCL_OK;
    }
    dict = Tcl_NewDictObj();
    for (f = rows; f->name; f++) {
	if (VerbsFieldGet(interp, f, objPtr, objPtr, &value) != TCL_OK) {
	    /*
	     * Only a computed row can fail (the device cannot give the
	     * value: a call it lacks).  The dict of all options still
	     * comes, with that value empty; the option alone says why.
	     */

	    Tcl_ResetResult(interp);
	    value = Tcl_NewObj();
	}
	Tcl_DictObjPut(NULL, dict, VerbsKeyObj(f->name), value);
    }
    Tcl_SetObjResult(interp, dict);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsChildrenMethod, VerbsCloseMethod --
 *
 *	$obj children: the live child object commands.
 *	$obj close: delete the command (and so, children first, the
 *	resource).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	close deletes commands and may destroy resources.
 *
 *----------------------------------------------------------------------
 */

int
VerbsChildrenMethod(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    Tcl_Obj *list = Tcl_NewObj();
    VerbsObj *child;

    /* The sibling list is newest first. */
    for (child = objPtr->children; child; child = child->nextSibling) {
	if (child->token) {
	    Tcl_ListObjAppendElement(NULL, list, VerbsObjNameShared(child));
	}
    }
    Tcl_SetObjResult(interp, OldestFirst(list));
    return TCL_OK;
}

int
VerbsCloseMethod(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    if (objPtr->token) {
	Tcl_DeleteCommandFromToken(interp, objPtr->token);
    }
    Tcl_ResetResult(interp);
    return TCL_OK;
}
