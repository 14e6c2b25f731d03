/*
 * verbsEvent.c --
 *
 *	The Tcl event loop side of RDMA events: [$obj notify ?script?] runs
 *	a script for every event an object's fd delivers (completion
 *	channels, the device's async events), and [$obj wait ?-timeout
 *	ms?] is the blocking form.  The event itself is read by the type's
 *	eventProc.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/select.h>
#include <time.h>

/*
 * ------------------------------------------------------------------------
 * The names and struct tables of async events: the rows with which the
 * attribute dict engine (verbsAttr.c) reads and writes these C structs.
 * ------------------------------------------------------------------------
 */

const VerbsEnum verbsEventType[] = {
    {"cq_err", IBV_EVENT_CQ_ERR},
    {"qp_fatal", IBV_EVENT_QP_FATAL},
    {"qp_req_err", IBV_EVENT_QP_REQ_ERR},
    {"qp_access_err", IBV_EVENT_QP_ACCESS_ERR},
    {"comm_est", IBV_EVENT_COMM_EST},
    {"sq_drained", IBV_EVENT_SQ_DRAINED},
    {"path_mig", IBV_EVENT_PATH_MIG},
    {"path_mig_err", IBV_EVENT_PATH_MIG_ERR},
    {"device_fatal", IBV_EVENT_DEVICE_FATAL},
    {"port_active", IBV_EVENT_PORT_ACTIVE},
    {"port_err", IBV_EVENT_PORT_ERR},
    {"lid_change", IBV_EVENT_LID_CHANGE},
    {"pkey_change", IBV_EVENT_PKEY_CHANGE},
    {"sm_change", IBV_EVENT_SM_CHANGE},
    {"srq_err", IBV_EVENT_SRQ_ERR},
    {"srq_limit_reached", IBV_EVENT_SRQ_LIMIT_REACHED},
    {"qp_last_wqe_reached", IBV_EVENT_QP_LAST_WQE_REACHED},
    {"client_reregister", IBV_EVENT_CLIENT_REREGISTER},
    {"gid_change", IBV_EVENT_GID_CHANGE},
    {"wq_fatal", IBV_EVENT_WQ_FATAL},
    {NULL, 0}
};


static Tcl_FileProc NotifyReadable;
static Tcl_IdleProc NotifyIdle;

/*
 *----------------------------------------------------------------------
 *
 * VerbsSetNonBlocking --
 *
 *	Put an event fd into non-blocking mode, so that a handler can read
 *	until it is empty.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	fcntl on the fd.
 *
 *----------------------------------------------------------------------
 */

int
VerbsSetNonBlocking(
    Tcl_Interp *interp,
    int fd)
{
    int flags = fcntl(fd, F_GETFL);

    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
	return VerbsSysError(interp, "fcntl", NULL, "O_NONBLOCK", errno);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsNotify --
 *
 *	$obj notify ?script?: with no script, the current one; with an
 *	empty one, stop; otherwise call "script EVENT" at global level for
 *	every event on fd, from the event loop.  The script is a command
 *	prefix: it must be a list.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Creates or deletes a file handler.
 *
 *----------------------------------------------------------------------
 */

int
VerbsNotify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int fd,
    int objc,
    Tcl_Obj *const objv[])
{
    Tcl_Size length;

    if (objc == 2) {
	if (objPtr->notifyScript) {
	    Tcl_SetObjResult(interp, objPtr->notifyScript);
	}
	return TCL_OK;
    }
    if (Tcl_ListObjLength(NULL, objv[2], &length) != TCL_OK) {
	return VerbsArgError(interp, "script", objv[2],
		"bad script \"%s\": must be a command prefix (a list)",
		Tcl_GetString(objv[2]));
    }
    if (fd >= FD_SETSIZE) {
	/* Tcl's select() notifier cannot watch it. */
	return VerbsSysError(interp, "Tcl_CreateFileHandler", objPtr, NULL,
		EMFILE);
    }
    VerbsNotifyStop(objPtr);
    if (length > 0) {
	objPtr->notifyScript = objv[2];
	Tcl_IncrRefCount(objPtr->notifyScript);
	objPtr->notifyFd = fd;
	Tcl_CreateFileHandler(fd, TCL_READABLE, NotifyReadable, objPtr);
    }
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsNotifyStop --
 *
 *	Remove an object's notify handler, if it has one.  Called when the
 *	script is replaced and when the object's command is deleted.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Deletes the file handler.
 *
 *----------------------------------------------------------------------
 */

void
VerbsNotifyStop(
    VerbsObj *objPtr)
{
    Tcl_CancelIdleCall(NotifyIdle, objPtr);
    if (objPtr->notifyScript) {
	Tcl_DeleteFileHandler(objPtr->notifyFd);
	Tcl_DecrRefCount(objPtr->notifyScript);
	objPtr->notifyScript = NULL;
    }
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsNotifyLater, NotifyIdle --
 *
 *	Events an object read ahead and keeps (an rdma_cm channel read by
 *	$cq wait) make no file event: VerbsNotifyLater has the notify
 *	script, if there is one, called for them when the event loop is
 *	next idle.  VerbsNotifyStop cancels that.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Schedules an idle callback.
 *
 *----------------------------------------------------------------------
 */

void
VerbsNotifyLater(
    VerbsObj *objPtr)
{
    if (objPtr->notifyScript && objPtr->token) {
	Tcl_CancelIdleCall(NotifyIdle, objPtr);
	Tcl_DoWhenIdle(NotifyIdle, objPtr);
    }
}

static void
NotifyIdle(
    ClientData clientData)
{
    VerbsObj *objPtr = (VerbsObj *) clientData;

    if (objPtr->notifyScript && objPtr->token && objPtr->statePtr) {
	NotifyReadable(objPtr, TCL_READABLE);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * NotifyReadable --
 *
 *	File handler: read every pending event and run the script for
 *	each.  Errors go to [interp bgerror]; a failing read also stops
 *	the handler.  The script may close the object or change its
 *	script, or delete the interpreter: each ends the loop (the objects
 *	of a deleted interpreter go when its last Tcl_Release runs).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Runs scripts.
 *
 *----------------------------------------------------------------------
 */

static void
NotifyReadable(
    ClientData clientData,
    int mask VERBS_UNUSED)
{
    VerbsObj *objPtr = (VerbsObj *) clientData;
    Tcl_Interp *interp = objPtr->statePtr->interp;
    Tcl_Obj *script = objPtr->notifyScript, *event, *cmd;
    VerbsFrame frame;
    int code;

    VerbsFramePush(&frame, objPtr);
    Tcl_Preserve(interp);
    Tcl_IncrRefCount(script);
    while (objPtr->token && objPtr->notifyScript == script
	    && !Tcl_InterpDeleted(interp)) {
	if (objPtr->typePtr->eventProc(interp, objPtr, &event) != TCL_OK) {
	    /* The fd is broken: report once and stop watching it. */
	    Tcl_BackgroundException(interp, TCL_ERROR);
	    VerbsNotifyStop(objPtr);
	    break;
	}
	if (event == NULL) {
	    break;
	}
	cmd = Tcl_DuplicateObj(script);
	Tcl_IncrRefCount(cmd);
	Tcl_ListObjAppendElement(NULL, cmd, event);
	code = Tcl_EvalObjEx(interp, cmd, TCL_EVAL_GLOBAL);
	Tcl_DecrRefCount(cmd);
	if (code != TCL_OK) {
	    Tcl_BackgroundException(interp, code);
	}
    }
    Tcl_DecrRefCount(script);
    VerbsFramePop(&frame);		/* While the interp (and state) lives. */
    Tcl_Release(interp);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsWaitFd --
 *
 *	Wait for something that a readable fd announces: call tryProc
 *	until it finds it (*donePtr set, its result in interp), polling fd
 *	between the tries, for at most timeout ms (-1: for ever).  fd must
 *	not block the tries: the caller reads it without blocking, or
 *	tryProc reads only what poll said is there.  what names the thing
 *	for the time limit's error: "timed out after MS ms waiting for WHAT
 *	on OBJ", errorCode {VERBS TIMEOUT 0}.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Those of tryProc.
 *
 *----------------------------------------------------------------------
 */

int
VerbsWaitFd(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int fd,
    int timeout,
    const char *what,
    VerbsTryProc *tryProc,
    void *clientData)
{
    int left = timeout, done;
    struct timespec start, now;
    Tcl_Obj *name;

    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
	struct pollfd pfd;

	done = 0;
	if (tryProc(interp, clientData, &done) != TCL_OK) {
	    return TCL_ERROR;
	}
	if (done) {
	    return TCL_OK;
	}
	if (timeout >= 0) {
	    clock_gettime(CLOCK_MONOTONIC, &now);
	    left = timeout - (int) ((now.tv_sec - start.tv_sec) * 1000
		    + (now.tv_nsec - start.tv_nsec) / 1000000);
	    if (left <= 0) {
		break;
	    }
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, left) < 0 && errno != EINTR) {
	    return VerbsSysError(interp, "poll", objPtr, NULL, errno);
	}
    }
    name = VerbsObjName(objPtr);
    Tcl_SetObjResult(interp, Tcl_ObjPrintf("timed out after %d ms waiting "
	    "for %s on %s", timeout, what, Tcl_GetString(name)));
    Tcl_DecrRefCount(name);
    VerbsTimeoutCode(interp, 0);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsWaitEvent, TryEvent --
 *
 *	$obj wait ?-timeout ms?: block until the next event (default
 *	timeout 5000 ms; -1 waits for ever).  TryEvent reads one through
 *	the type's eventProc.
 *
 * Results:
 *	The event, or an error with errorCode {VERBS TIMEOUT 0}.
 *
 * Side effects:
 *	Consumes one event.
 *
 *----------------------------------------------------------------------
 */

static int
TryEvent(
    Tcl_Interp *interp,
    void *clientData,		/* The object. */
    int *donePtr)
{
    VerbsObj *objPtr = (VerbsObj *) clientData;
    Tcl_Obj *event;

    if (objPtr->typePtr->eventProc(interp, objPtr, &event) != TCL_OK) {
	return TCL_ERROR;
    }
    if (event) {
	Tcl_SetObjResult(interp, event);
	*donePtr = 1;
    }
    return TCL_OK;
}

int
VerbsWaitEvent(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int fd,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_TIMEOUT,
	VERBS_FIELD_END
    };
    int timeout = 5000;

    if (objc != 2 && objc != 4) {
	Tcl_WrongNumArgs(interp, 2, objv, "?-timeout ms?");
	return TCL_ERROR;
    }
    if (VerbsParseOptions(interp, objc, objv, 2, options, &timeout)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    return VerbsWaitFd(interp, objPtr, fd, timeout, "an event", TryEvent,
	    objPtr);
}
