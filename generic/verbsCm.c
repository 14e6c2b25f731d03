/*
 * verbsCm.c --
 *
 *	librdmacm: [verbs::cm channel] makes an event channel whose events
 *	(address and route resolution, connect requests, establishment,
 *	disconnection) reach scripts through the event loop like completion
 *	events do; [verbs::cm id CHANNEL] makes a connection id.  A QP made
 *	with [$id create_qp] is an ordinary qp object.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

static VerbsMethodProc CmChannelNotify, CmChannelWait, CmIdAccept, CmIdBind,
	CmIdConnect, CmIdCreateQp, CmIdDisconnect, CmIdListen, CmIdReject,
	CmIdResolveAddr, CmIdResolveRoute;

static const VerbsMethod cmChannelMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"notify", CmChannelNotify, 0, 1, "?script?"},
    {"wait", CmChannelWait, 0, 2, "?-timeout ms?"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField cmChannelCget[] = {
    VERBS_CGET_PTR("-fd", VerbsCmChannel, channel,
	    struct rdma_event_channel, fd, VF_INT, NULL),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc CmChannelCmd, CmIdCmd;

static const VerbsCtor cmChannelCtors[] = {
    {"channel", CmChannelCmd}, {NULL, NULL}
};

static const VerbsMethod cmIdMethods[] = {
    {"accept", CmIdAccept, 0, -1, "?option value ...?"},
    {"bind", CmIdBind, 1, 2, "address ?port?"},
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"connect", CmIdConnect, 0, -1, "?option value ...?"},
    {"create_qp", CmIdCreateQp, 1, -1, "pd -send_cq cq ?option value ...?"},
    {"disconnect", CmIdDisconnect, 0, 0, ""},
    {"listen", CmIdListen, 0, 1, "?backlog?"},
    {"reject", CmIdReject, 0, 2, "?-private_data bytes?"},
    {"resolve_addr", CmIdResolveAddr, 2, 6,
	    "address port ?-src address? ?-timeout ms?"},
    {"resolve_route", CmIdResolveRoute, 0, 2, "?-timeout ms?"},
    {NULL, NULL, 0, 0, NULL}
};

static VerbsGetProc CmIdLocalAddr, CmIdRemoteAddr, CmIdQp;

static const VerbsField cmIdCget[] = {
    VERBS_CGET_PARENT("-channel"),
    VERBS_CGET_PROC("-context", VerbsCmContext),
    VERBS_CGET_PROC("-local_addr", CmIdLocalAddr),
    VERBS_CGET_PROC("-remote_addr", CmIdRemoteAddr),
    VERBS_CGET_PTR("-port_num", VerbsCmId, id, struct rdma_cm_id, port_num,
	    VF_UINT, NULL),
    VERBS_CGET_PROC("-qp", CmIdQp),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static const VerbsCtor cmIdCtors[] = {
    {"id", CmIdCmd}, {NULL, NULL}
};

static const VerbsEnum cmEventNames[] = {
    {"addr_resolved", RDMA_CM_EVENT_ADDR_RESOLVED},
    {"addr_error", RDMA_CM_EVENT_ADDR_ERROR},
    {"route_resolved", RDMA_CM_EVENT_ROUTE_RESOLVED},
    {"route_error", RDMA_CM_EVENT_ROUTE_ERROR},
    {"connect_request", RDMA_CM_EVENT_CONNECT_REQUEST},
    {"connect_response", RDMA_CM_EVENT_CONNECT_RESPONSE},
    {"connect_error", RDMA_CM_EVENT_CONNECT_ERROR},
    {"unreachable", RDMA_CM_EVENT_UNREACHABLE},
    {"rejected", RDMA_CM_EVENT_REJECTED},
    {"established", RDMA_CM_EVENT_ESTABLISHED},
    {"disconnected", RDMA_CM_EVENT_DISCONNECTED},
    {"device_removal", RDMA_CM_EVENT_DEVICE_REMOVAL},
    {"multicast_join", RDMA_CM_EVENT_MULTICAST_JOIN},
    {"multicast_error", RDMA_CM_EVENT_MULTICAST_ERROR},
    {"addr_change", RDMA_CM_EVENT_ADDR_CHANGE},
    {"timewait_exit", RDMA_CM_EVENT_TIMEWAIT_EXIT},
    {NULL, 0}
};

/*
 *----------------------------------------------------------------------
 *
 * NewCmId --
 *
 *	Wrap an rdma_cm_id in an object under its channel; the id's context
 *	pointer becomes the object, so that events name it.
 *
 * Results:
 *	A standard Tcl result, the object's name.  On error the id is left
 *	to the caller.
 *
 * Side effects:
 *	Creates a command.
 *
 *----------------------------------------------------------------------
 */

static int
NewCmId(
    Tcl_Interp *interp,
    VerbsCmChannel *ch,
    struct rdma_cm_id *id,
    Tcl_Obj *nameObj,
    VerbsCmId **idPtr)
{
    VerbsCmId *c = (VerbsCmId *) VerbsObjNew(&verbsCmIdClass);

    c->id = id;
    id->context = c;
    if (VerbsObjRegister(interp, &c->obj, &ch->obj, nameObj) != TCL_OK) {
	id->context = NULL;
	ckfree(c);
	return TCL_ERROR;
    }
    *idPtr = c;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmChannelEvent --
 *
 *	The channel's eventProc: read one rdma_cm event and describe it as
 *	a dict: event, id, status, and where they apply listen_id and
 *	private_data.  A connect request's new id becomes an object here.
 *	The event is acknowledged before any script runs, since destroying
 *	an id waits for the acknowledgement of its events.
 *
 * Results:
 *	A standard Tcl result; *eventPtr is NULL when none is pending.
 *
 * Side effects:
 *	Consumes and acknowledges an event; may create an id object.
 *
 *----------------------------------------------------------------------
 */

static int
CmChannelEvent(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **eventPtr)
{
    VerbsCmChannel *ch = (VerbsCmChannel *) objPtr;
    struct rdma_cm_event *ev;
    VerbsCmId *c;
    Tcl_Obj *d;

    *eventPtr = NULL;
    if (rdma_get_cm_event(ch->channel, &ev) != 0) {
	if (errno == EAGAIN || errno == EINTR) {
	    return TCL_OK;
	}
	return VerbsSysError(interp, "rdma_get_cm_event", objPtr, NULL, errno);
    }
    d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("event", -1),
	    VerbsEnumObj(cmEventNames, ev->event));
    /*
     * A connect request comes on a new id (librdmacm gives it the
     * listener's context pointer): wrap it.
     */

    if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
	if (NewCmId(interp, ch, ev->id, NULL, &c) != TCL_OK) {
	    /* Nobody can answer the request: refuse it. */
	    struct rdma_cm_id *id = ev->id;

	    rdma_reject(id, NULL, 0);
	    rdma_ack_cm_event(ev);
	    rdma_destroy_id(id);
	    Tcl_DecrRefCount(d);
	    return TCL_ERROR;
	}
    }
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("id", -1),
	    ev->id->context ? VerbsObjName((VerbsObj *) ev->id->context)
	    : Tcl_NewObj());
    if (ev->listen_id && ev->listen_id->context) {
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("listen_id", -1),
		VerbsObjName((VerbsObj *) ev->listen_id->context));
    }
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("status", -1),
	    Tcl_NewIntObj(ev->status));
    if (ev->id->ps != RDMA_PS_UDP && ev->param.conn.private_data_len > 0
	    && ev->param.conn.private_data) {
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("private_data", -1),
		Tcl_NewByteArrayObj(ev->param.conn.private_data,
		ev->param.conn.private_data_len));
    }
    rdma_ack_cm_event(ev);
    *eventPtr = d;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmChannelFree, CmIdFree, CmIdLocalAddr, CmIdRemoteAddr, CmIdQp --
 *
 *	cget options and destruction (children, the ids, go first; an id
 *	lives until the QP made on it is gone).
 *
 * Results:
 *	The cget procs: a standard Tcl result.
 *
 * Side effects:
 *	rdma_destroy_event_channel, rdma_destroy_id.
 *
 *----------------------------------------------------------------------
 */

static void
CmChannelFree(
    VerbsObj *objPtr)
{
    rdma_destroy_event_channel(((VerbsCmChannel *) objPtr)->channel);
}

static Tcl_Obj *
AddrObj(
    struct sockaddr *sa)
{
    char buf[INET6_ADDRSTRLEN];
    int port = 0;

    buf[0] = '\0';
    if (sa->sa_family == AF_INET) {
	struct sockaddr_in *in = (struct sockaddr_in *) sa;

	inet_ntop(AF_INET, &in->sin_addr, buf, sizeof(buf));
	port = ntohs(in->sin_port);
    } else if (sa->sa_family == AF_INET6) {
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) sa;

	inet_ntop(AF_INET6, &in6->sin6_addr, buf, sizeof(buf));
	port = ntohs(in6->sin6_port);
    } else {
	return Tcl_NewObj();
    }
    return Tcl_ObjPrintf("%s %d", buf, port);
}

static int
CmIdLocalAddr(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = AddrObj(rdma_get_local_addr(((VerbsCmId *) objPtr)->id));
    return TCL_OK;
}

static int
CmIdRemoteAddr(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = AddrObj(rdma_get_peer_addr(((VerbsCmId *) objPtr)->id));
    return TCL_OK;
}

static int
CmIdQp(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    struct rdma_cm_id *id = ((VerbsCmId *) objPtr)->id;

    *valuePtr = (id->qp && id->qp->qp_context)
	    ? VerbsObjName((VerbsObj *) id->qp->qp_context) : Tcl_NewObj();
    return TCL_OK;
}

static void
CmIdFree(
    VerbsObj *objPtr)
{
    rdma_destroy_id(((VerbsCmId *) objPtr)->id);
}

const VerbsType verbsCmChannelClass = {
    "cmchannel", sizeof(VerbsCmChannel), cmChannelMethods, cmChannelCget,
    CmChannelFree, CmChannelEvent, "cm", cmChannelCtors
};

const VerbsType verbsCmIdClass = {
    "cmid", sizeof(VerbsCmId), cmIdMethods, cmIdCget, CmIdFree, NULL, "cm",
    cmIdCtors
};

/*
 *----------------------------------------------------------------------
 *
 * VerbsCmContext, VerbsCmForgetContext --
 *
 *	$id cget -context: the context object of the device the id is bound
 *	to (empty before that).  librdmacm owns that ibv_context, so the
 *	object borrows it; there is one object per ibv_context and
 *	interpreter, made on first use, so that PDs and CQs made on it pass
 *	the same-context checks.  VerbsCmForgetContext drops it from the
 *	table when it is freed.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	May create a context object (a root object, like verbs::context
 *	open makes).
 *
 *----------------------------------------------------------------------
 */

int
VerbsCmContext(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    struct rdma_cm_id *id = ((VerbsCmId *) objPtr)->id;
    VerbsState *statePtr = objPtr->statePtr;
    Tcl_HashEntry *hPtr;
    VerbsContext *c;
    int isNew;

    if (id->verbs == NULL) {
	*valuePtr = Tcl_NewObj();
	return TCL_OK;
    }
    hPtr = Tcl_CreateHashEntry(&statePtr->borrowed, (char *) id->verbs,
	    &isNew);
    if (!isNew) {
	c = (VerbsContext *) Tcl_GetHashValue(hPtr);
	if (c->obj.token) {
	    *valuePtr = VerbsObjName(&c->obj);
	    return TCL_OK;
	}
    }

    /*
     * New, or the old object's command was closed while children keep it
     * alive: make a fresh object, which takes the old one's place in the
     * table (VerbsCmForgetContext removes only the entry's own object).
     */

    c = VerbsContextNew(id->verbs, 1);
    if (VerbsSetNonBlocking(interp, id->verbs->async_fd) != TCL_OK
	    || VerbsObjRegister(interp, &c->obj, NULL, NULL) != TCL_OK) {
	if (isNew) {
	    Tcl_DeleteHashEntry(hPtr);
	}
	ckfree(c->devName);
	ckfree(c);
	return TCL_ERROR;
    }
    Tcl_SetHashValue(hPtr, c);
    *valuePtr = VerbsObjName(&c->obj);
    return TCL_OK;
}

void
VerbsCmForgetContext(
    VerbsObj *contextObj)
{
    VerbsContext *c = (VerbsContext *) contextObj;
    Tcl_HashEntry *hPtr;

    if (contextObj->statePtr) {
	hPtr = Tcl_FindHashEntry(&contextObj->statePtr->borrowed,
		(char *) c->ctx);
	if (hPtr && Tcl_GetHashValue(hPtr) == c) {
	    Tcl_DeleteHashEntry(hPtr);
	}
    }
}

/*
 *----------------------------------------------------------------------
 *
 * CmChannelCmd, CmIdCmd --
 *
 *	verbs::cm channel ?-command NAME?
 *	verbs::cm id CHANNEL ?-ps tcp|udp? ?-command NAME?
 *
 * Results:
 *	The new object's name.
 *
 * Side effects:
 *	rdma_create_event_channel (its fd made non-blocking),
 *	rdma_create_id.
 *
 *----------------------------------------------------------------------
 */

static int
CmChannelCmd(
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
    struct rdma_event_channel *channel;
    VerbsCmChannel *ch;

    if (VerbsCreateArgs(interp, objc, objv, "", options, &args, NULL)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    channel = rdma_create_event_channel();
    if (channel == NULL) {
	return VerbsSysError(interp, "rdma_create_event_channel", NULL, NULL,
		errno);
    }
    ch = (VerbsCmChannel *) VerbsObjNew(&verbsCmChannelClass);
    ch->channel = channel;
    if (VerbsSetNonBlocking(interp, channel->fd) != TCL_OK
	    || VerbsObjRegister(interp, &ch->obj, NULL, args.command)
	    != TCL_OK) {
	rdma_destroy_event_channel(channel);
	ckfree(ch);
	return TCL_ERROR;
    }
    return TCL_OK;
}

static int
CmIdCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsEnum spaces[] = {
	{"tcp", RDMA_PS_TCP}, {"udp", RDMA_PS_UDP}, {"ipoib", RDMA_PS_IPOIB},
	{NULL, 0}
    };
    typedef struct {
	VerbsCreateHead head;
	uint64_t ps;
    } IdArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(IdArgs, ps, VF_ENUM, spaces, "tcp|udp"),
	VERBS_FIELD_END
    };
    IdArgs args = {{NULL, NULL}, RDMA_PS_TCP};
    VerbsCmChannel *ch;
    struct rdma_cm_id *id;
    VerbsCmId *c;

    if (VerbsCreateArgs(interp, objc, objv, "channel", options, &args,
	    &verbsCmChannelClass) != TCL_OK) {
	return TCL_ERROR;
    }
    ch = (VerbsCmChannel *) args.head.parent;
    if (rdma_create_id(ch->channel, &id, NULL,
	    (enum rdma_port_space) args.ps)
	    != 0) {
	return VerbsSysError(interp, "rdma_create_id", &ch->obj, NULL, errno);
    }
    if (NewCmId(interp, ch, id, args.head.command, &c) != TCL_OK) {
	rdma_destroy_id(id);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmChannelNotify, CmChannelWait --
 *
 *	$ch notify ?script?, $ch wait ?-timeout ms?: see VerbsNotify and
 *	VerbsWaitEvent.
 *
 *----------------------------------------------------------------------
 */

static int
CmChannelNotify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsNotify(interp, objPtr,
	    ((VerbsCmChannel *) objPtr)->channel->fd, objc, objv);
}

static int
CmChannelWait(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsWaitEvent(interp, objPtr,
	    ((VerbsCmChannel *) objPtr)->channel->fd, objc, objv);
}

/*
 *----------------------------------------------------------------------
 *
 * GetSockaddr --
 *
 *	An IPv4 or IPv6 address and a port into a sockaddr.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills *ss.
 *
 *----------------------------------------------------------------------
 */

static int
GetSockaddr(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *addrObj,
    Tcl_Obj *portObj,
    struct sockaddr_storage *ss)
{
    const char *s = Tcl_GetString(addrObj);
    uint64_t port = 0;

    if (portObj && VerbsGetUInt(interp, "port", portObj, 65535, &port)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    memset(ss, 0, sizeof(*ss));
    if (inet_pton(AF_INET, s, &((struct sockaddr_in *) ss)->sin_addr) == 1) {
	ss->ss_family = AF_INET;
	((struct sockaddr_in *) ss)->sin_port = htons((uint16_t) port);
	return TCL_OK;
    }
    if (inet_pton(AF_INET6, s, &((struct sockaddr_in6 *) ss)->sin6_addr)
	    == 1) {
	ss->ss_family = AF_INET6;
	((struct sockaddr_in6 *) ss)->sin6_port = htons((uint16_t) port);
	return TCL_OK;
    }
    return VerbsArgError(interp, key, addrObj,
	    "bad %s \"%s\": must be an IPv4 or IPv6 address", key, s);
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdBind, CmIdResolveAddr, CmIdResolveRoute, CmIdListen --
 *
 *	$id bind ADDRESS ?PORT?
 *	$id resolve_addr ADDRESS PORT ?-src ADDRESS? ?-timeout MS?
 *	$id resolve_route ?-timeout MS?
 *	$id listen ?BACKLOG?
 *	The resolutions complete with an event on the channel.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	The librdmacm calls.
 *
 *----------------------------------------------------------------------
 */

static int
CmIdBind(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    struct sockaddr_storage ss;

    if (GetSockaddr(interp, "address", objv[2], objc > 3 ? objv[3] : NULL,
	    &ss) != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_bind_addr(((VerbsCmId *) objPtr)->id, (struct sockaddr *) &ss)
	    != 0) {
	return VerbsSysError(interp, "rdma_bind_addr", objPtr, NULL, errno);
    }
    return TCL_OK;
}

/*
 * The -timeout of resolve_addr and resolve_route.
 */

typedef struct {
    Tcl_Obj *src;
    uint64_t timeout;
} ResolveArgs;

static const VerbsField resolveOptions[] = {
    VERBS_OPTION(ResolveArgs, src, VF_TCLOBJ, NULL, "address"),
    VERBS_OPTION_MAX(ResolveArgs, timeout, INT32_MAX, "ms"),
    VERBS_FIELD_END
};

static int
CmIdResolveAddr(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    ResolveArgs args = {NULL, 2000};
    struct sockaddr_storage dst, src;

    if ((objc % 2) != 0) {
	Tcl_WrongNumArgs(interp, 2, objv,
		"address port ?-src address? ?-timeout ms?");
	return TCL_ERROR;
    }
    if (VerbsParseOptions(interp, objc, objv, 4, resolveOptions, &args)
	    != TCL_OK
	    || GetSockaddr(interp, "address", objv[2], objv[3], &dst)
	    != TCL_OK || (args.src && GetSockaddr(interp, "-src", args.src,
	    NULL, &src) != TCL_OK)) {
	return TCL_ERROR;
    }
    if (rdma_resolve_addr(((VerbsCmId *) objPtr)->id,
	    args.src ? (struct sockaddr *) &src : NULL,
	    (struct sockaddr *) &dst, (int) args.timeout) != 0) {
	return VerbsSysError(interp, "rdma_resolve_addr", objPtr, NULL,
		errno);
    }
    return TCL_OK;
}

static int
CmIdResolveRoute(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    ResolveArgs args = {NULL, 2000};

    if (objc == 3) {
	Tcl_WrongNumArgs(interp, 2, objv, "?-timeout ms?");
	return TCL_ERROR;
    }
    /* Only -timeout: the row after -src. */
    if (VerbsParseOptions(interp, objc, objv, 2, resolveOptions + 1, &args)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_resolve_route(((VerbsCmId *) objPtr)->id, (int) args.timeout)
	    != 0) {
	return VerbsSysError(interp, "rdma_resolve_route", objPtr, NULL,
		errno);
    }
    return TCL_OK;
}

static int
CmIdListen(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    uint64_t backlog = 16;

    if (objc == 3 && VerbsGetUInt(interp, "backlog", objv[2], INT32_MAX,
	    &backlog) != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_listen(((VerbsCmId *) objPtr)->id, (int) backlog) != 0) {
	return VerbsSysError(interp, "rdma_listen", objPtr, NULL, errno);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * GetPrivateData --
 *
 *	A -private_data value: at most 255 bytes.
 *
 * Results:
 *	A standard Tcl result; *dataPtr points into the value (NULL when
 *	there is none).
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
GetPrivateData(
    Tcl_Interp *interp,
    Tcl_Obj *valueObj,
    const void **dataPtr,
    uint8_t *lenPtr)
{
    Tcl_Size n;

    *dataPtr = NULL;
    *lenPtr = 0;
    if (valueObj == NULL) {
	return TCL_OK;
    }
    *dataPtr = VerbsGetBytes(interp, "-private_data", valueObj, &n);
    if (*dataPtr == NULL) {
	return TCL_ERROR;
    }
    if (n > 255) {
	return VerbsArgError(interp, "-private_data", NULL,
		"-private_data is %" TCL_SIZE_MODIFIER "d bytes: at most 255 "
		"fit", n);
    }
    *lenPtr = (uint8_t) n;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * GetConnParam --
 *
 *	The options of connect and accept: -private_data BYTES
 *	-responder_resources N -initiator_depth N -retry_count N
 *	-rnr_retry_count N.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills *param; its private_data points into the Tcl object.
 *
 *----------------------------------------------------------------------
 */

static int
GetConnParam(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    struct rdma_conn_param *param)
{
    typedef struct {
	uint8_t initiator_depth;
	Tcl_Obj *private_data;
	uint8_t responder_resources, retry_count, rnr_retry_count;
    } ConnArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(ConnArgs, initiator_depth, VF_UINT, NULL, "n"),
	VERBS_OPTION(ConnArgs, private_data, VF_TCLOBJ, NULL, "bytes"),
	VERBS_OPTION(ConnArgs, responder_resources, VF_UINT, NULL, "n"),
	VERBS_OPTION(ConnArgs, retry_count, VF_UINT, NULL, "n"),
	VERBS_OPTION(ConnArgs, rnr_retry_count, VF_UINT, NULL, "n"),
	VERBS_FIELD_END
    };
    ConnArgs args = {1, NULL, 1, 7, 7};

    if ((objc % 2) != 0) {
	Tcl_WrongNumArgs(interp, 2, objv, "?option value ...?");
	return TCL_ERROR;
    }
    if (VerbsParseOptions(interp, objc, objv, 2, options, &args) != TCL_OK) {
	return TCL_ERROR;
    }
    memset(param, 0, sizeof(*param));
    param->responder_resources = args.responder_resources;
    param->initiator_depth = args.initiator_depth;
    param->retry_count = args.retry_count;
    param->rnr_retry_count = args.rnr_retry_count;
    return GetPrivateData(interp, args.private_data,
	    &param->private_data, &param->private_data_len);
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdConnect, CmIdAccept, CmIdReject, CmIdDisconnect, CmIdCreateQp --
 *
 *	$id connect ?options?, $id accept ?options?, $id reject
 *	?-private_data BYTES?, $id disconnect, $id create_qp PD ?qp create
 *	options?.
 *
 * Results:
 *	A standard Tcl result; create_qp returns the qp object.
 *
 * Side effects:
 *	The librdmacm calls.
 *
 *----------------------------------------------------------------------
 */

typedef int (ConnectProc)(struct rdma_cm_id *id,
	struct rdma_conn_param *param);

static int
ConnectCall(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[],
    ConnectProc *call,
    const char *name)
{
    struct rdma_conn_param param;

    if (GetConnParam(interp, objc, objv, &param) != TCL_OK) {
	return TCL_ERROR;
    }
    if (call(((VerbsCmId *) objPtr)->id, &param) != 0) {
	return VerbsSysError(interp, name, objPtr, NULL, errno);
    }
    return TCL_OK;
}

static int
CmIdConnect(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return ConnectCall(interp, objPtr, objc, objv, rdma_connect,
	    "rdma_connect");
}

static int
CmIdAccept(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return ConnectCall(interp, objPtr, objc, objv, rdma_accept,
	    "rdma_accept");
}

static int
CmIdReject(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	Tcl_Obj *private_data;
    } RejectArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(RejectArgs, private_data, VF_TCLOBJ, NULL, "bytes"),
	VERBS_FIELD_END
    };
    RejectArgs args = {NULL};
    const void *data;
    uint8_t n;

    if (objc == 3) {
	Tcl_WrongNumArgs(interp, 2, objv, "?-private_data bytes?");
	return TCL_ERROR;
    }
    if (VerbsParseOptions(interp, objc, objv, 2, options, &args) != TCL_OK
	    || GetPrivateData(interp, args.private_data, &data, &n)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_reject(((VerbsCmId *) objPtr)->id, data, n) != 0) {
	return VerbsSysError(interp, "rdma_reject", objPtr, NULL, errno);
    }
    return TCL_OK;
}

static int
CmIdDisconnect(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    if (rdma_disconnect(((VerbsCmId *) objPtr)->id) != 0) {
	return VerbsSysError(interp, "rdma_disconnect", objPtr, NULL, errno);
    }
    return TCL_OK;
}

static int
CmIdCreateQp(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsCmId *c = (VerbsCmId *) objPtr;

    if (c->id->qp) {
	Tcl_Obj *name = VerbsObjName(objPtr);

	Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s already has a qp",
		Tcl_GetString(name)));
	Tcl_DecrRefCount(name);
	Tcl_SetErrorCode(interp, "VERBS", "ARG", "qp", "", NULL);
	return TCL_ERROR;
    }
    return VerbsQpCreate(interp, objc - 1, objv + 1, c);
}
