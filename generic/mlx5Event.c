/*
 * mlx5Event.c --
 *
 *	DevX in the event loop: [mlx5::devx cmd_comp create] (a cmdcomp:
 *	the completions of asynchronous queries, [$devx query_async]) and
 *	[mlx5::devx event_channel create] (an eventchannel: the firmware's
 *	events of the objects it subscribed to) and [mlx5::devx eventfd
 *	create] (an eventfd that a channel's subscribe_fd signals).  All
 *	are fds of the event loop like every other here: notify SCRIPT and
 *	wait.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5.h"
#include <errno.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define EVENT_DATA_MAX 512	/* Bytes of an event's data read at most. */

typedef struct Mlx5CmdComp {
    VerbsObj obj;
    struct mlx5dv_devx_cmd_comp *comp;
    Tcl_HashTable outlens;	/* wr_id -> the outlen of its query. */
    uint32_t maxOut;		/* The largest outlen asked for. */
} Mlx5CmdComp;

typedef struct Mlx5EventChannel {
    VerbsObj obj;
    struct mlx5dv_devx_event_channel *ch;
    int omitData;
} Mlx5EventChannel;

typedef struct Mlx5EventFd {
    VerbsObj obj;
    int fd;
} Mlx5EventFd;

static VerbsMethodProc CompNotify, CompWait, ChannelNotify, ChannelWait,
	ChannelSubscribe, ChannelSubscribeFd, EventFdNotify, EventFdWait,
	EventFdSignal;

static const VerbsMethod compMethods[] = {
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE,
    {"notify", CompNotify, 0, 1, "?script?"},
    {"wait", CompWait, 0, 2, "?-timeout ms?"},
    {NULL, NULL, 0, 0, NULL}
};
static const VerbsMethod channelMethods[] = {
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE,
    {"notify", ChannelNotify, 0, 1, "?script?"},
    {"subscribe", ChannelSubscribe, 2, 6,
	    "?-object devx? -events list ?-cookie n?"},
    {"subscribe_fd", ChannelSubscribeFd, 3, 5,
	    "fd -event n ?-object devx?"},
    {"wait", ChannelWait, 0, 2, "?-timeout ms?"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsMethod eventFdMethods[] = {
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE,
    {"notify", EventFdNotify, 0, 1, "?script?"},
    {"signal", EventFdSignal, 0, 1, "?n?"},
    {"wait", EventFdWait, 0, 2, "?-timeout ms?"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField compCget[] = {
    VERBS_CGET_PTR("-fd", Mlx5CmdComp, comp, struct mlx5dv_devx_cmd_comp, fd,
	    VF_INT, NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};
static const VerbsField channelCget[] = {
    VERBS_CGET_PTR("-fd", Mlx5EventChannel, ch,
	    struct mlx5dv_devx_event_channel, fd, VF_INT, NULL),
    VERBS_CGET("-omit_data", Mlx5EventChannel, omitData, VF_BOOL, NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};
static const VerbsField eventFdCget[] = {
    VERBS_CGET("-fd", Mlx5EventFd, fd, VF_INT, NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

/*
 *----------------------------------------------------------------------
 *
 * CompFree, ChannelFree, EventFdFree, CompEvent, ChannelEvent,
 * EventFdEvent --
 *
 *	The free procs, and the eventProcs of the three types: the next
 *	completion {wr_id N out BYTES} (mlx5dv_devx_get_async_cmd_comp),
 *	event {cookie N data BYTES} (mlx5dv_devx_get_event) or count of
 *	signals since the last read (an eventfd's counter, read and reset),
 *	NULL when there is none yet (the fds do not block).
 *
 * Results:
 *	The eventProcs: a standard Tcl result.
 *
 * Side effects:
 *	Destroys; reads one completion or event.
 *
 *----------------------------------------------------------------------
 */

static void
CompFree(
    VerbsObj *objPtr)
{
    Mlx5CmdComp *c = (Mlx5CmdComp *) objPtr;

    VerbsNotifyStop(objPtr);
    mlx5dv_devx_destroy_cmd_comp(c->comp);
    Tcl_DeleteHashTable(&c->outlens);
}

static void
ChannelFree(
    VerbsObj *objPtr)
{
    VerbsNotifyStop(objPtr);
    mlx5dv_devx_destroy_event_channel(((Mlx5EventChannel *) objPtr)->ch);
}

static int
CompEvent(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **eventPtr)
{
    Mlx5CmdComp *c = (Mlx5CmdComp *) objPtr;
    size_t len = sizeof(struct mlx5dv_devx_async_cmd_hdr) + c->maxOut;
    struct mlx5dv_devx_async_cmd_hdr *hdr =
	    (struct mlx5dv_devx_async_cmd_hdr *) ckalloc(len);
    Tcl_HashEntry *h;
    size_t out = c->maxOut;
    int err;

    *eventPtr = NULL;
    memset(hdr, 0, len);
    err = mlx5dv_devx_get_async_cmd_comp(c->comp, hdr, len);
    if (err) {
	ckfree(hdr);
	if (err == EAGAIN || err == EWOULDBLOCK) {
	    return TCL_OK;
	}
	return VerbsSysError(interp, "mlx5dv_devx_get_async_cmd_comp", objPtr,
		NULL, err);
    }
    h = Tcl_FindHashEntry(&c->outlens, (char *) (uintptr_t) hdr->wr_id);
    if (h) {
	out = (size_t) (uintptr_t) Tcl_GetHashValue(h);
	Tcl_DeleteHashEntry(h);
    }
    *eventPtr = Tcl_NewListObj(4, (Tcl_Obj *[]) {
	    Tcl_NewStringObj("wr_id", -1), VerbsU64Obj(hdr->wr_id),
	    Tcl_NewStringObj("out", -1),
	    Tcl_NewByteArrayObj(hdr->out_data, (Tcl_Size) out)});
    ckfree(hdr);
    return TCL_OK;
}

static int
ChannelEvent(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **eventPtr)
{
    Mlx5EventChannel *e = (Mlx5EventChannel *) objPtr;
    size_t len = sizeof(struct mlx5dv_devx_async_event_hdr) + EVENT_DATA_MAX;
    struct mlx5dv_devx_async_event_hdr *hdr =
	    (struct mlx5dv_devx_async_event_hdr *) ckalloc(len);
    ssize_t n;

    *eventPtr = NULL;
    memset(hdr, 0, len);
    n = mlx5dv_devx_get_event(e->ch, hdr, len);
    if (n < 0) {
	int err = errno;

	ckfree(hdr);
	if (err == EAGAIN || err == EWOULDBLOCK) {
	    return TCL_OK;
	}
	return VerbsSysError(interp, "mlx5dv_devx_get_event", objPtr, NULL,
		err);
    }
    if ((size_t) n < sizeof(*hdr)) {
	/* With -omit_data the cookie alone. */
	n = sizeof(*hdr);
    }
    *eventPtr = Tcl_NewListObj(4, (Tcl_Obj *[]) {
	    Tcl_NewStringObj("cookie", -1), VerbsU64Obj(hdr->cookie),
	    Tcl_NewStringObj("data", -1), Tcl_NewByteArrayObj(hdr->out_data,
	    (Tcl_Size) ((size_t) n - sizeof(*hdr)))});
    ckfree(hdr);
    return TCL_OK;
}

static void
EventFdFree(
    VerbsObj *objPtr)
{
    VerbsNotifyStop(objPtr);
    close(((Mlx5EventFd *) objPtr)->fd);
}

static int
EventFdEvent(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **eventPtr)
{
    uint64_t count;

    *eventPtr = NULL;
    if (read(((Mlx5EventFd *) objPtr)->fd, &count, sizeof(count))
	    != (ssize_t) sizeof(count)) {
	if (errno == EAGAIN || errno == EWOULDBLOCK) {
	    return TCL_OK;
	}
	return VerbsSysError(interp, "read", objPtr, NULL, errno);
    }
    *eventPtr = VerbsU64Obj(count);
    return TCL_OK;
}

const VerbsType verbsCmdCompClass = {
    .name = "cmdcomp",
    .size = sizeof(Mlx5CmdComp),
    .methods = compMethods,
    .cget = compCget,
    .freeProc = CompFree,
    .eventProc = CompEvent,
};
const VerbsType verbsEventChannelClass = {
    .name = "eventchannel",
    .size = sizeof(Mlx5EventChannel),
    .methods = channelMethods,
    .cget = channelCget,
    .freeProc = ChannelFree,
    .eventProc = ChannelEvent,
};
const VerbsType verbsEventFdClass = {
    .name = "eventfd",
    .size = sizeof(Mlx5EventFd),
    .methods = eventFdMethods,
    .cget = eventFdCget,
    .freeProc = EventFdFree,
    .eventProc = EventFdEvent,
};

static int
CompNotify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsNotify(interp, objPtr, ((Mlx5CmdComp *) objPtr)->comp->fd,
	    objc, objv);
}

static int
CompWait(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsWaitEvent(interp, objPtr,
	    ((Mlx5CmdComp *) objPtr)->comp->fd, objc, objv);
}

static int
ChannelNotify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsNotify(interp, objPtr, ((Mlx5EventChannel *) objPtr)->ch->fd,
	    objc, objv);
}

static int
ChannelWait(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsWaitEvent(interp, objPtr,
	    ((Mlx5EventChannel *) objPtr)->ch->fd, objc, objv);
}

static int
EventFdNotify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsNotify(interp, objPtr, ((Mlx5EventFd *) objPtr)->fd, objc,
	    objv);
}

static int
EventFdWait(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsWaitEvent(interp, objPtr, ((Mlx5EventFd *) objPtr)->fd,
	    objc, objv);
}

/*
 *----------------------------------------------------------------------
 *
 * EventFdSignal --
 *
 *	$eventfd signal ?N?: adds N (default 1, at least 1) to its counter,
 *	as the device does for each event it signals.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	A write to the eventfd: its waiters wake.
 *
 *----------------------------------------------------------------------
 */

static int
EventFdSignal(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    uint64_t n = 1;

    if (objc == 3 && (VerbsGetUInt(interp, "n", objv[2], UINT64_MAX - 1, &n)
	    != TCL_OK)) {
	return TCL_ERROR;
    }
    if (n == 0) {
	return VerbsArgError(interp, "n", objv[2], "bad n \"0\": a signal "
		"adds at least 1");
    }
    if (write(((Mlx5EventFd *) objPtr)->fd, &n, sizeof(n))
	    != (ssize_t) sizeof(n)) {
	return VerbsSysError(interp, "write", objPtr, NULL, errno);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CompCreateCmd, ChannelCreateCmd, EventFdCreateCmd --
 *
 *	mlx5::devx cmd_comp create CONTEXT ?-as NAME?
 *	mlx5::devx event_channel create CONTEXT ?-omit_data? ?-as NAME?
 *	(mlx5dv_devx_create_cmd_comp, mlx5dv_devx_create_event_channel,
 *	with -omit_data an event is its cookie alone).  Their fds are made
 *	non-blocking for the event loop.
 *	mlx5::devx eventfd create CONTEXT ?-as NAME?: an eventfd (counter
 *	0, non-blocking) for $channel subscribe_fd, a child of the context
 *	whose channels it serves.
 *
 * Results:
 *	The object command's name.
 *
 * Side effects:
 *	See above.
 *
 *----------------------------------------------------------------------
 */

static int
CompCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND, VERBS_FIELD_END
    };
    VerbsCreateHead head = {NULL, NULL};
    struct mlx5dv_devx_cmd_comp *comp;
    VerbsContext *c;
    Mlx5CmdComp *cc;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &head,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) head.parent;
    if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_devx_create_cmd_comp", c);
    }
    comp = mlx5dv_devx_create_cmd_comp(c->ctx);
    if (comp == NULL) {
	return VerbsSysError(interp, "mlx5dv_devx_create_cmd_comp", &c->obj,
		NULL, errno ? errno : EINVAL);
    }
    if (VerbsSetNonBlocking(interp, comp->fd) != TCL_OK) {
	mlx5dv_devx_destroy_cmd_comp(comp);
	return TCL_ERROR;
    }
    cc = (Mlx5CmdComp *) VerbsObjNew(&verbsCmdCompClass);
    cc->comp = comp;
    cc->maxOut = 16;
    Tcl_InitHashTable(&cc->outlens, TCL_ONE_WORD_KEYS);
    return VerbsObjAdopt(interp, &cc->obj, &c->obj, head.command);
}

static int
ChannelCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	int omit_data;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_SWITCH("-omit_data", Args, omit_data),
	VERBS_FIELD_END
    };
    Args a = {{NULL, NULL}, 0};
    struct mlx5dv_devx_event_channel *ch;
    VerbsContext *c;
    Mlx5EventChannel *e;

    if (objc < 2) {
	return VerbsUsageError(interp, 1, objv, "context", options);
    }
    if (VerbsParseOptions(interp, objc, objv, 2, options, &a) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) VerbsObjGet(interp, objv[1], &verbsContextClass);
    if (c == NULL) {
	return TCL_ERROR;
    }
    if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_devx_create_event_channel",
		c);
    }
    ch = mlx5dv_devx_create_event_channel(c->ctx, a.omit_data
	    ? MLX5DV_DEVX_CREATE_EVENT_CHANNEL_FLAGS_OMIT_EV_DATA : 0);
    if (ch == NULL) {
	return VerbsSysError(interp, "mlx5dv_devx_create_event_channel",
		&c->obj, NULL, errno ? errno : EINVAL);
    }
    if (VerbsSetNonBlocking(interp, ch->fd) != TCL_OK) {
	mlx5dv_devx_destroy_event_channel(ch);
	return TCL_ERROR;
    }
    e = (Mlx5EventChannel *) VerbsObjNew(&verbsEventChannelClass);
    e->ch = ch;
    e->omitData = a.omit_data;
    return VerbsObjAdopt(interp, &e->obj, &c->obj, a.head.command);
}

static int
EventFdCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND, VERBS_FIELD_END
    };
    VerbsCreateHead head = {NULL, NULL};
    VerbsContext *c;
    Mlx5EventFd *e;
    int fd;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &head,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) head.parent;
    fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (fd < 0) {
	return VerbsSysError(interp, "eventfd", &c->obj, NULL, errno);
    }
    e = (Mlx5EventFd *) VerbsObjNew(&verbsEventFdClass);
    e->fd = fd;
    return VerbsObjAdopt(interp, &e->obj, &c->obj, head.command);
}

/*
 *----------------------------------------------------------------------
 *
 * ChannelSubscribe, ChannelSubscribeFd --
 *
 *	$ch subscribe ?-object DEVX? -events {N ...} ?-cookie N?: the
 *	events of those numbers of the DevX object (of the device, without
 *	-object) come to the channel with the cookie
 *	(mlx5dv_devx_subscribe_devx_event).
 *	$ch subscribe_fd FD -event N ?-object DEVX?: that event signals
 *	the eventfd FD instead (mlx5dv_devx_subscribe_devx_event_fd); FD
 *	is an eventfd object of the channel's context or an fd number.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Subscribes.
 *
 *----------------------------------------------------------------------
 */

typedef struct SubArgs {
    uint64_t cookie;
    uint16_t event;
    Tcl_Obj *events;
    VerbsObj *object;
} SubArgs;

static int
SubObject(
    Tcl_Interp *interp,
    VerbsObj *channel,
    VerbsObj *object)
{
    if (object && Mlx5ContextOf(object) != Mlx5ContextOf(channel)) {
	return VerbsArgError(interp, "-object", NULL, "-object is on another "
		"device context");
    }
    return TCL_OK;
}

static int
ChannelSubscribe(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION(SubArgs, cookie, VF_UINT, NULL, "n"),
	VERBS_OPTION_REQUIRED(SubArgs, events, VF_TCLOBJ, NULL, 0,
		"list:the event numbers"),
	VERBS_OPTION(SubArgs, object, VF_OBJ, &verbsDevxClass, "devx"),
	VERBS_FIELD_END
    };
    SubArgs a = {0, 0, NULL, NULL};
    Tcl_Obj **items;
    Tcl_Size n, i;
    uint16_t *nums;
    int err;

    if (objc % 2 != 0) {
	Tcl_WrongNumArgs(interp, 2, objv,
		"?-object devx? -events list ?-cookie n?");
	return TCL_ERROR;
    }
    if (VerbsParseOptions(interp, objc, objv, 2, options, &a) != TCL_OK
	    || SubObject(interp, objPtr, a.object) != TCL_OK) {
	return TCL_ERROR;
    }
    if (Tcl_ListObjGetElements(NULL, a.events, &n, &items) != TCL_OK
	    || n == 0 || n > UINT16_MAX / 2) {
	return VerbsArgError(interp, "-events", a.events, "bad -events \"%s\":"
		" must be a list of event numbers", Tcl_GetString(a.events));
    }
    nums = (uint16_t *) ckalloc(n * sizeof(uint16_t));
    for (i = 0; i < n; i++) {
	uint64_t v;

	if (VerbsGetUInt(interp, "-events", items[i], UINT16_MAX, &v)
		!= TCL_OK) {
	    ckfree(nums);
	    return TCL_ERROR;
	}
	nums[i] = (uint16_t) v;
    }
    err = mlx5dv_devx_subscribe_devx_event(
	    ((Mlx5EventChannel *) objPtr)->ch,
	    a.object ? ((Mlx5Devx *) a.object)->devx : NULL,
	    (uint16_t) (n * sizeof(uint16_t)), nums, a.cookie);
    ckfree(nums);
    return err ? VerbsSysError(interp, "mlx5dv_devx_subscribe_devx_event",
	    objPtr, NULL, err) : TCL_OK;
}

static int
ChannelSubscribeFd(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_REQUIRED(SubArgs, event, VF_UINT, NULL, 0,
		"n:the event number"),
	VERBS_OPTION(SubArgs, object, VF_OBJ, &verbsDevxClass, "devx"),
	VERBS_FIELD_END
    };
    SubArgs a = {0, 0, NULL, NULL};
    VerbsObj *efd;
    uint64_t fd;
    int err;

    if (objc % 2 != 1) {
	Tcl_WrongNumArgs(interp, 2, objv, "fd -event n ?-object devx?");
	return TCL_ERROR;
    }
    efd = VerbsObjFind(interp, objv[2]);
    if (VerbsParseOptions(interp, objc, objv, 3, options, &a) != TCL_OK
	    || SubObject(interp, objPtr, a.object) != TCL_OK) {
	return TCL_ERROR;
    }
    if (efd != NULL && efd->typePtr == &verbsEventFdClass) {
	if (Mlx5ContextOf(efd) != Mlx5ContextOf(objPtr)) {
	    return VerbsArgError(interp, "fd", NULL, "the eventfd is of "
		    "another device context");
	}
	fd = (uint64_t) ((Mlx5EventFd *) efd)->fd;
    } else if (VerbsGetUInt(interp, "fd", objv[2], INT32_MAX, &fd)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    err = mlx5dv_devx_subscribe_devx_event_fd(
	    ((Mlx5EventChannel *) objPtr)->ch, (int) fd,
	    a.object ? ((Mlx5Devx *) a.object)->devx : NULL, a.event);
    return err ? VerbsSysError(interp, "mlx5dv_devx_subscribe_devx_event_fd",
	    objPtr, NULL, err) : TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5DevxQueryAsync --
 *
 *	$devx query_async IN -outlen N -comp CMDCOMP ?-wr_id N?: the query
 *	IN, its output to come as a completion of CMDCOMP
 *	(mlx5dv_devx_obj_query_async).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Sends the command.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5DevxQueryAsync(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsObj *comp;
	Tcl_Size outlen;
	uint64_t wr_id;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION_REQUIRED(Args, comp, VF_OBJ, &verbsCmdCompClass, 0,
		"cmdcomp:where its completion comes"),
	VERBS_OPTION_PARSE(Args, outlen, Mlx5ParseOutLen, VF_REQUIRED,
		"bytes:the size of the command's output"),
	VERBS_OPTION(Args, wr_id, VF_UINT, NULL, "n"),
	VERBS_FIELD_END
    };
    Args a = {NULL, 0, 0};
    Mlx5CmdComp *cc;
    const unsigned char *in;
    Tcl_Size inLen;
    Tcl_HashEntry *h;
    int err, isNew;

    if (objc < 3 || objc % 2 != 1) {
	Tcl_WrongNumArgs(interp, 2, objv,
		"in -outlen bytes -comp cmdcomp ?-wr_id n?");
	return TCL_ERROR;
    }
    /* The options first: an integer parse could free the bytes of in. */
    if (VerbsParseOptions(interp, objc, objv, 3, options, &a) != TCL_OK
	    || (in = VerbsGetBytes(interp, "in", objv[2], &inLen)) == NULL) {
	return TCL_ERROR;
    }
    if (Mlx5ContextOf(a.comp) != Mlx5ContextOf(objPtr)) {
	return VerbsArgError(interp, "-comp", NULL, "-comp is on another "
		"device context");
    }
    cc = (Mlx5CmdComp *) a.comp;
    err = mlx5dv_devx_obj_query_async(((Mlx5Devx *) objPtr)->devx, in,
	    (size_t) inLen, (size_t) a.outlen, a.wr_id, cc->comp);
    if (err) {
	return VerbsSysError(interp, "mlx5dv_devx_obj_query_async", objPtr,
		NULL, err);
    }
    h = Tcl_CreateHashEntry(&cc->outlens, (char *) (uintptr_t) a.wr_id,
	    &isNew);
    Tcl_SetHashValue(h, (ClientData) (uintptr_t) a.outlen);
    if ((uint32_t) a.outlen > cc->maxOut) {
	cc->maxOut = (uint32_t) a.outlen;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5EventInit --
 *
 *	The commands of this file.
 *
 * Results:
 *	TCL_OK.
 *
 * Side effects:
 *	Creates commands.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5EventInit(
    Tcl_Interp *interp)
{
    Mlx5AddCommand(interp, "devx::cmd_comp::create", CompCreateCmd);
    Mlx5AddCommand(interp, "devx::event_channel::create", ChannelCreateCmd);
    Mlx5AddCommand(interp, "devx::eventfd::create", EventFdCreateCmd);
    return TCL_OK;
}
