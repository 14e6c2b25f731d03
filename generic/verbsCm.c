/*
 * verbsCm.c --
 *
 *	librdmacm: [verbs::cm channel] makes an event channel whose events
 *	(address and route resolution, connect requests, establishment,
 *	disconnection, multicast joins) reach scripts through the event loop
 *	like completion events do; [verbs::cm id CHANNEL] makes a connection
 *	id.  A QP made with [$id create_qp] is an ordinary qp object.  The
 *	synchronous side of librdmacm: [verbs::cm getaddrinfo] and
 *	[verbs::cm create_ep] (an id without a channel, whose calls wait for
 *	their events), [$id get_request], and the rest of the id calls
 *	(multicast, options, ECE, migration between channels).
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <string.h>
#include <infiniband/ib.h>
#include <rdma/rdma_verbs.h>

/*
 * A multicast group an id joined: its address (as rdma_leave_multicast
 * wants it again) and the -context value; librdmacm hands the record back
 * as the context pointer of the group's events.
 */

struct VerbsCmJoin {
    VerbsCmJoin *next;
    struct sockaddr_storage addr;
    Tcl_Obj *addrObj;		/* The address, as events report it. */
    Tcl_Obj *context;		/* -context, or NULL. */
    int joined;			/* A multicast_join event came: */
    union ibv_gid mgid;		/* the group's MGID and MLID, which */
    uint16_t mlid;		/* librdmacm attached the id's QP to. */
};

static VerbsMethodProc CmChannelNotify, CmChannelWait, CmIdAccept, CmIdBind,
	CmIdConnect, CmIdCreateQp, CmIdDisconnect, CmIdEstablish,
	CmIdGetRecvComp, CmIdGetRemoteEce, CmIdGetRequest, CmIdGetSendComp,
	CmIdInitQpAttr, CmIdJoinMulticast, CmIdLeaveMulticast, CmIdListen,
	CmIdMigrate, CmIdPostRead, CmIdPostRecv, CmIdPostSend,
	CmIdPostUdSend, CmIdPostWrite, CmIdRegMsgs, CmIdRegRead, CmIdRegWrite,
	CmIdReject, CmIdQueryAddrInfo, CmIdResolveAddr, CmIdResolveAddrInfo,
	CmIdResolveRoute, CmIdSetLocalEce, CmIdSetOption;

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

static Tcl_ObjCmdProc CmChannelCmd, CmCreateEpCmd, CmDevicesCmd,
	CmEventStrCmd, CmGetAddrInfoCmd, CmIdCmd;

static const VerbsCommand cmChannelCommands[] = {
    {"channel", CmChannelCmd}, {"devices", CmDevicesCmd},
    {"event_str", CmEventStrCmd}, {"getaddrinfo", CmGetAddrInfoCmd},
    {NULL, NULL}
};

static const VerbsMethod cmIdMethods[] = {
    {"accept", CmIdAccept, 0, -1, "?option value ...?"},
    {"bind", CmIdBind, 1, 2, "address ?port?"},
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"connect", CmIdConnect, 0, -1, "?option value ...?"},
    {"create_qp", CmIdCreateQp, 1, -1, "pd ?option value ...?"},
    {"disconnect", CmIdDisconnect, 0, 0, ""},
    {"establish", CmIdEstablish, 0, 0, ""},
    {"get_recv_comp", CmIdGetRecvComp, 0, 2, "?-timeout ms?"},
    {"get_remote_ece", CmIdGetRemoteEce, 0, 0, ""},
    {"get_request", CmIdGetRequest, 0, 2, "?-timeout ms?"},
    {"get_send_comp", CmIdGetSendComp, 0, 2, "?-timeout ms?"},
    {"init_qp_attr", CmIdInitQpAttr, 1, 1, "state"},
    {"join_multicast", CmIdJoinMulticast, 1, 5,
	    "address ?-context value? ?-join_flags flags?"},
    {"leave_multicast", CmIdLeaveMulticast, 1, 1, "address"},
    {"listen", CmIdListen, 0, 1, "?backlog?"},
    {"migrate", CmIdMigrate, 0, 1, "?channel?"},
    {"post_read", CmIdPostRead, 1, 9, "sge -remote_addr addr -rkey rkey "
	    "?-send_flags flags? ?-wr_id n?"},
    {"post_recv", CmIdPostRecv, 1, 3, "sge ?-wr_id n?"},
    {"post_send", CmIdPostSend, 1, 5, "sge ?-send_flags flags? ?-wr_id n?"},
    {"post_ud_send", CmIdPostUdSend, 1, 9, "sge -ah ah -remote_qpn qpn "
	    "?-send_flags flags? ?-wr_id n?"},
    {"post_write", CmIdPostWrite, 1, 9, "sge -remote_addr addr -rkey rkey "
	    "?-send_flags flags? ?-wr_id n?"},
    {"query_addrinfo", CmIdQueryAddrInfo, 0, 0, ""},
    {"reg_msgs", CmIdRegMsgs, 1, 3, "length ?-as name?"},
    {"reg_read", CmIdRegRead, 1, 3, "length ?-as name?"},
    {"reg_write", CmIdRegWrite, 1, 3, "length ?-as name?"},
    {"reject", CmIdReject, 0, 2, "?-private_data bytes?"},
    {"resolve_addr", CmIdResolveAddr, 2, 6,
	    "address port ?-src address? ?-timeout ms?"},
    {"resolve_addrinfo", CmIdResolveAddrInfo, 0, -1,
	    "?-node name? ?-service port? ?option value ...?"},
    {"resolve_route", CmIdResolveRoute, 0, 2, "?-timeout ms?"},
    {"set_local_ece", CmIdSetLocalEce, 1, 1, "ece"},
    {"set_option", CmIdSetOption, 2, 2, "option value"},
    {NULL, NULL, 0, 0, NULL}
};

static VerbsGetProc CmIdLocalAddr, CmIdRemoteAddr, CmIdQp, CmIdSrcPort,
	CmIdDstPort, CmIdState;

static const VerbsField cmIdCget[] = {
    VERBS_CGET_PARENT("-channel"),
    VERBS_CGET_PROC("-context", VerbsCmContext),
    VERBS_CGET_PROC("-local_addr", CmIdLocalAddr),
    VERBS_CGET_PROC("-remote_addr", CmIdRemoteAddr),
    VERBS_CGET_PROC("-src_port", CmIdSrcPort),
    VERBS_CGET_PROC("-dst_port", CmIdDstPort),
    VERBS_CGET_PTR("-port_num", VerbsCmId, id, struct rdma_cm_id, port_num,
	    VF_UINT, NULL),
    VERBS_CGET_PROC("-qp", CmIdQp),
    VERBS_CGET_PROC("-state", CmIdState),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static const VerbsCommand cmIdCommands[] = {
    {"id", CmIdCmd}, {"create_ep", CmCreateEpCmd}, {NULL, NULL}
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
#ifdef HAVE_RDMA_RESOLVE_ADDRINFO
    {"addrinfo_resolved", RDMA_CM_EVENT_ADDRINFO_RESOLVED},
    {"addrinfo_error", RDMA_CM_EVENT_ADDRINFO_ERROR},
#endif
    {NULL, 0}
};

static const VerbsEnum cmPortSpaces[] = {
    {"tcp", RDMA_PS_TCP}, {"udp", RDMA_PS_UDP}, {"ipoib", RDMA_PS_IPOIB},
    {"ib", RDMA_PS_IB}, {NULL, 0}
};

/*
 * Where an id is in its life (VerbsCmId.state), as the calls made on it
 * and the events it got tell: librdmacm keeps no such state in user space
 * and dereferences what a state has not set up yet (the device of an id
 * whose address is not resolved, ...), so each method checks it first
 * (CmCheck).  The names are what [$id cget -state] and the errors give.
 */

enum {
    CM_IDLE, CM_BOUND, CM_ADDR_QUERY, CM_ADDR_RESOLVED, CM_ROUTE_QUERY,
    CM_ROUTE_RESOLVED, CM_CONNECT, CM_RESPONSE, CM_ACCEPT, CM_CONNECTED,
    CM_FAILED, CM_DISCONNECTED, CM_LISTEN, CM_REQUEST, CM_REJECTED,
    CM_REMOVED
};

static const char *const cmStateNames[] = {
    "idle", "bound", "addr_query", "addr_resolved", "route_query",
    "route_resolved", "connect", "connect_response", "accept", "connected",
    "failed", "disconnected", "listen", "request", "rejected", "removed"
};

#define CMS(s)		(1u << (s))
#define CM_DEVICE	(1u << 31)	/* The id must have a device. */
#define CM_DATAGRAM	(1u << 30)	/* Port space udp or ipoib. */
#define CM_CONNECTED_MODE (1u << 29)	/* Port space tcp or ib. */
#define CM_ANY		(CMS(CM_REMOVED + 1) - 1)	/* Any state. */

/*
 * The fields of an rdma_addrinfo, as [verbs::cm getaddrinfo] gives them
 * and [verbs::cm create_ep] takes them back: a record of Tcl values,
 * converted from and to the C struct by AddrInfoToRec and RecToAddrInfo.
 */

typedef struct AddrInfoRec {
    uint64_t flags, family, qp_type, port_space;
    Tcl_Obj *src_addr, *dst_addr, *src_canonname, *dst_canonname, *route,
	    *connect;
} AddrInfoRec;

static const VerbsEnum raiFlags[] = {
    {"passive", RAI_PASSIVE}, {"numerichost", RAI_NUMERICHOST},
    {"noroute", RAI_NOROUTE}, {"family", RAI_FAMILY}, {NULL, 0}
};

static const VerbsEnum addrFamilies[] = {
    {"unspec", AF_UNSPEC}, {"inet", AF_INET}, {"inet6", AF_INET6},
    {"ib", AF_IB}, {NULL, 0}
};

#define AI(f, kind, table) VERBS_FIELD(AddrInfoRec, f, kind, table, 0, 0)
static const VerbsField addrInfoFields[] = {
    AI(flags, VF_FLAGS, raiFlags),
    AI(family, VF_ENUM, addrFamilies),
    AI(qp_type, VF_ENUM, verbsQpTypes),
    AI(port_space, VF_ENUM, cmPortSpaces),
    AI(src_addr, VF_TCLOBJ, NULL),
    AI(dst_addr, VF_TCLOBJ, NULL),
    AI(src_canonname, VF_TCLOBJ, NULL),
    AI(dst_canonname, VF_TCLOBJ, NULL),
    AI(route, VF_TCLOBJ, NULL),
    AI(connect, VF_TCLOBJ, NULL),
    VERBS_FIELD_END
};
static const VerbsStruct addrInfoStruct = {"addrinfo key", addrInfoFields};

/*
 *----------------------------------------------------------------------
 *
 * IsUd, IsSync --
 *
 *	Whether an id's port space is a datagram one (its events carry
 *	rdma_ud_param), and whether the id is synchronous: made by
 *	rdma_create_ep or migrated off every channel, so that librdmacm
 *	reads its events itself and its calls wait for them.  Such an id
 *	is the one kind without a parent channel.
 *
 *----------------------------------------------------------------------
 */

static int
IsUd(
    struct rdma_cm_id *id)
{
    return id->ps == RDMA_PS_UDP || id->ps == RDMA_PS_IPOIB;
}

static int
IsSync(
    VerbsCmId *c)
{
    return c->obj.parent == NULL;
}

/*
 *----------------------------------------------------------------------
 *
 * CmCheck --
 *
 *	Before a librdmacm call: whether the id has the port space the
 *	CM_DATAGRAM and CM_CONNECTED_MODE bits ask for, is in one of the
 *	states of the mask (CMS bits), and has a device if CM_DEVICE asks.
 *	needs says in words what the method needs, for the error.  A
 *	synchronous id is held to the states whose event will come: its
 *	calls wait for that event.
 *
 * Results:
 *	A standard Tcl result: an error {VERBS STATE cmid STATE METHOD}
 *	names the id's state (or its port space, or "nodevice") and what
 *	the method needs.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
CmCheck(
    Tcl_Interp *interp,
    VerbsCmId *c,
    const char *method,
    unsigned mask,
    const char *needs)
{
    const char *state = cmStateNames[c->state];

    if ((mask & CM_DATAGRAM) && !IsUd(c->id)) {
	return VerbsStateError(interp, &c->obj, c->id->ps == RDMA_PS_IB
		? "ib" : "tcp", method, "an id of the udp or ipoib port space");
    }
    if ((mask & CM_CONNECTED_MODE) && IsUd(c->id)) {
	return VerbsStateError(interp, &c->obj, c->id->ps == RDMA_PS_UDP
		? "udp" : "ipoib", method, "an id of the tcp port space: "
		"a datagram id has no connection");
    }
    if (!(mask & CMS(c->state))) {
	return VerbsStateError(interp, &c->obj, state, method, needs);
    }
    if ((mask & CM_DEVICE) && c->id->verbs == NULL) {
	return VerbsStateError(interp, &c->obj, "nodevice", method,
		"an id with a device: resolve_addr, or bind to a local "
		"address");
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * NoteEvent --
 *
 *	An event changes the state of its id (the new id of a connect
 *	request is in the request state).  Every event read, from a
 *	channel or by a synchronous call, comes here.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Sets VerbsCmId.state.
 *
 *----------------------------------------------------------------------
 */

static void
NoteEvent(
    struct rdma_cm_event *ev)
{
    VerbsCmId *c = (VerbsCmId *) ev->id->context;

    if (c == NULL) {
	return;
    }
    switch (ev->event) {
    case RDMA_CM_EVENT_ADDR_RESOLVED:
	c->state = CM_ADDR_RESOLVED;
	break;
    case RDMA_CM_EVENT_ADDR_ERROR:
	c->state = CM_BOUND;
	break;
    case RDMA_CM_EVENT_ROUTE_RESOLVED:
	c->state = CM_ROUTE_RESOLVED;
	break;
    case RDMA_CM_EVENT_ROUTE_ERROR:
	c->state = CM_ADDR_RESOLVED;
	break;
    case RDMA_CM_EVENT_CONNECT_REQUEST:
	c->state = CM_REQUEST;
	break;
    case RDMA_CM_EVENT_CONNECT_RESPONSE:
	c->state = CM_RESPONSE;
	break;
    case RDMA_CM_EVENT_CONNECT_ERROR:
    case RDMA_CM_EVENT_UNREACHABLE:
    case RDMA_CM_EVENT_REJECTED:
	c->state = CM_FAILED;
	break;
    case RDMA_CM_EVENT_ESTABLISHED:
	c->state = CM_CONNECTED;
	break;
    case RDMA_CM_EVENT_DISCONNECTED:
	c->state = CM_DISCONNECTED;
	break;
    case RDMA_CM_EVENT_DEVICE_REMOVAL:
	c->state = CM_REMOVED;
	break;
    default:
	break;
    }
}

/*
 *----------------------------------------------------------------------
 *
 * NewCmId --
 *
 *	Wrap an rdma_cm_id in an object under its channel (parent NULL for
 *	a synchronous id); the id's context pointer becomes the object, so
 *	that events name it.
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
    VerbsObj *parent,
    struct rdma_cm_id *id,
    Tcl_Obj *nameObj,
    VerbsCmId **idPtr)
{
    VerbsCmId *c = (VerbsCmId *) VerbsObjNew(&verbsCmIdClass);

    c->id = id;
    id->context = c;
    if (VerbsObjRegister(interp, &c->obj, parent, nameObj) != TCL_OK) {
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
 * EventDict --
 *
 *	An rdma_cm event as a dict: event, id, status, listen_id for a
 *	connect request, and the parameters: for the datagram port spaces
 *	qp_num, qkey and ah_attr (the peer's, or the group's) on
 *	established and multicast_join; private_data (a byte array) when
 *	the event has some; address and context on the multicast events,
 *	whose context pointer is the VerbsCmJoin of the group.
 *
 * Results:
 *	A new dict.
 *
 * Side effects:
 *	A multicast_join notes the group's MGID and MLID in its join.
 *
 *----------------------------------------------------------------------
 */

static void
PutKey(
    Tcl_Obj *dict,
    const char *key,		/* A literal: the thread's shared key. */
    Tcl_Obj *value)
{
    Tcl_DictObjPut(NULL, dict, VerbsKeyObj(key), value);
}

static Tcl_Obj *
EventDict(
    struct rdma_cm_event *ev)
{
    Tcl_Obj *d = Tcl_NewDictObj();
    const void *data = NULL;
    uint8_t len = 0;
    int ud = 0;

    NoteEvent(ev);
    PutKey(d, "event", VerbsEnumShared(cmEventNames, ev->event));
    PutKey(d, "id", ev->id->context ? VerbsObjNameShared((VerbsObj *)
	    ev->id->context) : Tcl_NewObj());
    if (ev->listen_id && ev->listen_id->context) {
	PutKey(d, "listen_id", VerbsObjNameShared((VerbsObj *)
		ev->listen_id->context));
    }
    PutKey(d, "status", Tcl_NewIntObj(ev->status));
    switch (ev->event) {
    case RDMA_CM_EVENT_MULTICAST_JOIN:
    case RDMA_CM_EVENT_MULTICAST_ERROR: {
	VerbsCmJoin *j = (VerbsCmJoin *) ev->param.ud.private_data;

	if (j && ev->event == RDMA_CM_EVENT_MULTICAST_JOIN) {
	    j->joined = 1;
	    j->mgid = ev->param.ud.ah_attr.grh.dgid;
	    j->mlid = ev->param.ud.ah_attr.dlid;
	}
	if (j) {
	    PutKey(d, "address", j->addrObj);
	    if (j->context) {
		PutKey(d, "context", j->context);
	    }
	}
	ud = (ev->event == RDMA_CM_EVENT_MULTICAST_JOIN);
	break;
    }
    default:
	if (IsUd(ev->id)) {
	    ud = (ev->event == RDMA_CM_EVENT_ESTABLISHED);
	    data = ev->param.ud.private_data;
	    len = ev->param.ud.private_data_len;
	} else {
	    data = ev->param.conn.private_data;
	    len = ev->param.conn.private_data_len;
	}
	break;
    }
    if (ud) {
	PutKey(d, "qp_num", Tcl_NewWideIntObj(ev->param.ud.qp_num));
	PutKey(d, "qkey", Tcl_NewWideIntObj(ev->param.ud.qkey));
	PutKey(d, "ah_attr", VerbsStructToDict(&verbsAhAttrStruct,
		&ev->param.ud.ah_attr));
    }
    if (data && len > 0) {
	PutKey(d, "private_data", Tcl_NewByteArrayObj(data, len));
    }
    return d;
}

/*
 *----------------------------------------------------------------------
 *
 * ReadEvent, CmChannelEvent --
 *
 *	The channel's eventProc: the oldest event read ahead (see
 *	VerbsCmPump), else one read from the channel now.  ReadEvent reads
 *	one rdma_cm event and describes it (EventDict); a connect request's
 *	new id becomes an object here.  A peer's disconnect moves the QP of
 *	the id to the error state, so that its posted work requests flush.
 *	The event is acknowledged before any script runs, since destroying
 *	an id waits for the acknowledgement of its events.
 *
 * Results:
 *	A standard Tcl result; *eventPtr is NULL when none is pending.
 *
 * Side effects:
 *	Consumes and acknowledges an event; may create an id object and
 *	modify a QP.
 *
 *----------------------------------------------------------------------
 */

static int
ReadEvent(
    Tcl_Interp *interp,
    VerbsCmChannel *ch,
    Tcl_Obj **eventPtr)
{
    struct rdma_cm_event *ev;
    VerbsCmId *c;

    *eventPtr = NULL;
    if (rdma_get_cm_event(ch->channel, &ev) != 0) {
	if (errno == EAGAIN || errno == EINTR) {
	    return TCL_OK;
	}
	return VerbsSysError(interp, "rdma_get_cm_event", &ch->obj, NULL,
		errno);
    }

    /*
     * A connect request comes on a new id (librdmacm gives it the
     * listener's context pointer): wrap it.
     */

    if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST
	    && NewCmId(interp, &ch->obj, ev->id, NULL, &c) != TCL_OK) {
	/* Nobody can answer the request: refuse it. */
	struct rdma_cm_id *id = ev->id;

	rdma_reject(id, NULL, 0);
	rdma_ack_cm_event(ev);
	rdma_destroy_id(id);
	return TCL_ERROR;
    }
    if (ev->event == RDMA_CM_EVENT_DISCONNECTED && ev->id->qp) {
	struct ibv_qp_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_ERR;
	ibv_modify_qp(ev->id->qp, &attr, IBV_QP_STATE);
    }
    *eventPtr = EventDict(ev);
    rdma_ack_cm_event(ev);
    return TCL_OK;
}

static int
CmChannelEvent(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **eventPtr)
{
    VerbsCmChannel *ch = (VerbsCmChannel *) objPtr;
    Tcl_Size n;

    if (ch->pending) {
	Tcl_Obj *ev;

	/*
	 * The caller wants an object of its own to keep or drop: a copy
	 * (the list's reference goes with the list's element).
	 */

	Tcl_ListObjIndex(NULL, ch->pending, ch->pendingNext++, &ev);
	*eventPtr = Tcl_DuplicateObj(ev);
	Tcl_ListObjLength(NULL, ch->pending, &n);
	if (ch->pendingNext >= n) {
	    /* All delivered (each in turn: no shifting of the rest). */
	    Tcl_DecrRefCount(ch->pending);
	    ch->pending = NULL;
	    ch->pendingNext = 0;
	}
	return TCL_OK;
    }
    return ReadEvent(interp, ch, eventPtr);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsCmPump --
 *
 *	For $cq wait: read, and keep in order for the channels' wait and
 *	notify, the events waiting on the rdma_cm channels of the QPs that
 *	use cq (its cmQps: no other object is looked at), so that a peer's
 *	disconnect reaches their QPs (ReadEvent) while a script waits for
 *	completions.  Ids without a channel
 *	(synchronous ones) are left alone: librdmacm reads their events.
 *	Errors are left for the channel's own next read.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Reads and acknowledges events; may schedule notify scripts.
 *
 *----------------------------------------------------------------------
 */

void
VerbsCmPump(
    Tcl_Interp *interp,
    VerbsCq *cq)
{
    Tcl_InterpState saved = NULL;
    Tcl_HashSearch search;
    Tcl_HashEntry *hPtr;
    VerbsState *statePtr;

    if (cq->cmQps == NULL) {
	return;
    }
    statePtr = VerbsGetState(interp);
    statePtr->pumps++;
    for (hPtr = Tcl_FirstHashEntry(cq->cmQps, &search); hPtr;
	    hPtr = Tcl_NextHashEntry(&search)) {
	VerbsQp *q = (VerbsQp *) Tcl_GetHashKey(cq->cmQps, hPtr);
	VerbsCmChannel *ch;
	Tcl_Obj *ev;
	int got = 0;

	statePtr->work++;
	if (q->cm == NULL || q->cm->obj.parent == NULL) {
	    continue;
	}
	ch = (VerbsCmChannel *) q->cm->obj.parent;
	if (ch->pumped == statePtr->pumps) {
	    continue;			/* Another QP's: read already. */
	}
	ch->pumped = statePtr->pumps;
	if (saved == NULL) {
	    saved = Tcl_SaveInterpState(interp, TCL_OK);
	}
	while (ReadEvent(interp, ch, &ev) == TCL_OK && ev) {
	    if (ch->pending == NULL) {
		ch->pending = Tcl_NewListObj(0, NULL);
		Tcl_IncrRefCount(ch->pending);
	    }
	    Tcl_ListObjAppendElement(NULL, ch->pending, ev);
	    got = 1;
	}
	if (got) {
	    VerbsNotifyLater(&ch->obj);
	}
    }
    if (saved) {
	Tcl_RestoreInterpState(interp, saved);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsCmDetachQp --
 *
 *	Before the QP of an id is destroyed: detach it from the groups the
 *	id joined, which librdmacm attached it to (a QP still attached
 *	cannot be destroyed).  A send-only member's QP was never attached,
 *	and the detach fails harmlessly.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_detach_mcast.
 *
 *----------------------------------------------------------------------
 */

void
VerbsCmDetachQp(
    VerbsCmId *cm,
    struct ibv_qp *qp)
{
    VerbsCmJoin *j;

    for (j = cm->joins; j; j = j->next) {
	if (j->joined) {
	    ibv_detach_mcast(qp, &j->mgid, j->mlid);
	}
    }
}

/*
 *----------------------------------------------------------------------
 *
 * CmChannelFree, CmIdFree, CmIdLocalAddr, CmIdRemoteAddr, CmIdSrcPort,
 * CmIdDstPort, CmIdQp, CmIdState --
 *
 *	cget options and destruction (children, the ids, go first; an id
 *	lives until the QP made on it is gone).  rdma_destroy_ep destroys
 *	what rdma_create_ep made besides the QP (which went first) and the
 *	id itself, for any id.
 *
 * Results:
 *	The cget procs: a standard Tcl result.
 *
 * Side effects:
 *	rdma_destroy_event_channel, rdma_destroy_ep; the id lets go of the
 *	objects of its endpoint's QP template.
 *
 *----------------------------------------------------------------------
 */

static void
CmChannelFree(
    VerbsObj *objPtr)
{
    VerbsCmChannel *ch = (VerbsCmChannel *) objPtr;

    if (ch->pending) {
	Tcl_DecrRefCount(ch->pending);
    }
    rdma_destroy_event_channel(ch->channel);
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
CmIdSrcPort(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = Tcl_NewIntObj(ntohs(rdma_get_src_port(
	    ((VerbsCmId *) objPtr)->id)));
    return TCL_OK;
}

static int
CmIdDstPort(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = Tcl_NewIntObj(ntohs(rdma_get_dst_port(
	    ((VerbsCmId *) objPtr)->id)));
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
	    ? VerbsObjNameShared((VerbsObj *) id->qp->qp_context)
	    : Tcl_NewObj();
    return TCL_OK;
}

static int
CmIdState(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = Tcl_NewStringObj(cmStateNames[((VerbsCmId *) objPtr)->state],
	    -1);
    return TCL_OK;
}

static void
FreeJoin(
    VerbsCmJoin *j)
{
    Tcl_DecrRefCount(j->addrObj);
    if (j->context) {
	Tcl_DecrRefCount(j->context);
    }
    ckfree(j);
}

static void
CmIdFree(
    VerbsObj *objPtr)
{
    VerbsCmId *c = (VerbsCmId *) objPtr;
    VerbsCmJoin *j;

    /*
     * Leave the groups first: destroying the id would leave them in the
     * kernel, but librdmacm would keep their records.  Then no event can
     * name a join any more.
     */

    for (j = c->joins; j; j = j->next) {
	rdma_leave_multicast(c->id, (struct sockaddr *) &j->addr);
    }
    rdma_destroy_ep(c->id);
    while ((j = c->joins) != NULL) {
	c->joins = j->next;
	FreeJoin(j);
    }
    if (c->epPd) {
	VerbsObjRelease(&c->epPd->obj);
	if (c->epSendCq) {
	    VerbsObjRelease(&c->epSendCq->obj);
	    VerbsObjRelease(&c->epRecvCq->obj);
	}
	if (c->epSrq) {
	    VerbsObjRelease(&c->epSrq->obj);
	}
    }
}

const VerbsType verbsCmChannelClass = {
    .name = "cmchannel",
    .size = sizeof(VerbsCmChannel),
    .methods = cmChannelMethods,
    .cget = cmChannelCget,
    .freeProc = CmChannelFree,
    .eventProc = CmChannelEvent,
    .ensemble = "cm",
    .commands = cmChannelCommands,
};

const VerbsType verbsCmIdClass = {
    .name = "cmid",
    .size = sizeof(VerbsCmId),
    .methods = cmIdMethods,
    .cget = cmIdCget,
    .freeProc = CmIdFree,
    .ensemble = "cm",
    .commands = cmIdCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * BorrowContext, VerbsCmContext, VerbsCmForgetContext --
 *
 *	$id cget -context: the context object of the device the id is bound
 *	to (empty before that).  librdmacm owns that ibv_context, so the
 *	object borrows it; there is one object per ibv_context and
 *	interpreter, made on first use (by BorrowContext, which [verbs::cm
 *	devices] uses too), so that PDs and CQs made on it pass the
 *	same-context checks.  VerbsCmForgetContext drops it from the table
 *	when it is freed.
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

static int
BorrowContext(
    Tcl_Interp *interp,
    struct ibv_context *ctx,
    Tcl_Obj **valuePtr)
{
    VerbsState *statePtr = VerbsGetState(interp);
    Tcl_HashEntry *hPtr;
    VerbsContext *c;
    int isNew;

    hPtr = Tcl_CreateHashEntry(&statePtr->borrowed, (char *) ctx, &isNew);
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

    c = VerbsContextNew(ctx, 1);
    if (VerbsSetNonBlocking(interp, ctx->async_fd) != TCL_OK
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

int
VerbsCmContext(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    struct rdma_cm_id *id = ((VerbsCmId *) objPtr)->id;

    if (id->verbs == NULL) {
	*valuePtr = Tcl_NewObj();
	return TCL_OK;
    }
    return BorrowContext(interp, id->verbs, valuePtr);
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
 *	verbs::cm channel ?-as NAME?
 *	verbs::cm id CHANNEL ?-ps tcp|udp? ?-as NAME?
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
    if (NewCmId(interp, &ch->obj, id, args.head.command, &c) != TCL_OK) {
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
 *	VerbsWaitEvent.  Events read ahead by $cq wait come first.
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
    if (VerbsNotify(interp, objPtr, ((VerbsCmChannel *) objPtr)->channel->fd,
	    objc, objv) != TCL_OK) {
	return TCL_ERROR;
    }
    if (((VerbsCmChannel *) objPtr)->pending) {
	/* Events read ahead make no file event. */
	VerbsNotifyLater(objPtr);
    }
    return TCL_OK;
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
 * SyncResult, AckSyncEvent, CallFailed --
 *
 *	The result of a call that librdmacm completes with an event (when
 *	waited is true: not a datagram accept, which has none): on a
 *	synchronous id the call waited for that event, which librdmacm
 *	keeps as id->event, and it becomes the result (the event dict);
 *	otherwise the result is empty and the event comes on the channel.
 *	AckSyncEvent acknowledges such an event at once, as for events read
 *	from a channel: an unacknowledged connect request would keep its
 *	listening id from being destroyed.  CallFailed is the error of a
 *	failed call (errno), after noting the event a synchronous call
 *	failed on.
 *
 * Results:
 *	TCL_OK.
 *
 * Side effects:
 *	Sets the result.
 *
 *----------------------------------------------------------------------
 */

static int
CallFailed(
    Tcl_Interp *interp,
    VerbsCmId *c,
    const char *call,
    const char *what)
{
    int err = errno;

    /*
     * A synchronous call that failed on its event left the event in
     * id->event (the previous one was acknowledged): it tells the state.
     */

    if (IsSync(c) && c->id->event) {
	NoteEvent(c->id->event);
    }
    return VerbsSysError(interp, call, &c->obj, what, err);
}

static void
AckSyncEvent(
    struct rdma_cm_id *id)
{
    if (id->event) {
	rdma_ack_cm_event(id->event);
	id->event = NULL;
    }
}

static int
SyncResult(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int waited)
{
    VerbsCmId *c = (VerbsCmId *) objPtr;

    if (waited && IsSync(c) && c->id->event) {
	Tcl_SetObjResult(interp, EventDict(c->id->event));
	AckSyncEvent(c->id);
    } else {
	Tcl_ResetResult(interp);
    }
    return TCL_OK;
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
 *	The resolutions complete with an event on the channel, or on a
 *	synchronous id before the call returns (the event is the result).
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
    VerbsCmId *c = (VerbsCmId *) objPtr;
    struct sockaddr_storage ss;

    if (GetSockaddr(interp, "address", objv[2], objc > 3 ? objv[3] : NULL,
	    &ss) != TCL_OK
	    || CmCheck(interp, c, "bind", CMS(CM_IDLE), "an idle id (not "
	    "yet bound, resolving or listening)") != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_bind_addr(c->id, (struct sockaddr *) &ss) != 0) {
	return VerbsSysError(interp, "rdma_bind_addr", objPtr, NULL, errno);
    }
    c->state = CM_BOUND;
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
    VerbsCmId *c = (VerbsCmId *) objPtr;
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
	    NULL, &src) != TCL_OK)
	    || CmCheck(interp, c, "resolve_addr", CMS(CM_IDLE) | CMS(CM_BOUND),
	    "an idle or bound id") != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_resolve_addr(c->id, args.src ? (struct sockaddr *) &src : NULL,
	    (struct sockaddr *) &dst, (int) args.timeout) != 0) {
	return CallFailed(interp, c, "rdma_resolve_addr", NULL);
    }
    c->state = CM_ADDR_QUERY;
    return SyncResult(interp, objPtr, 1);
}

static int
CmIdResolveRoute(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsCmId *c = (VerbsCmId *) objPtr;
    ResolveArgs args = {NULL, 2000};

    if (objc == 3) {
	Tcl_WrongNumArgs(interp, 2, objv, "?-timeout ms?");
	return TCL_ERROR;
    }
    /* Only -timeout: the row after -src. */
    if (VerbsParseOptions(interp, objc, objv, 2, resolveOptions + 1, &args)
	    != TCL_OK
	    || CmCheck(interp, c, "resolve_route", CMS(CM_ADDR_RESOLVED)
	    | CM_DEVICE, "a resolved address (resolve_addr and its "
	    "addr_resolved event)") != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_resolve_route(c->id, (int) args.timeout) != 0) {
	return CallFailed(interp, c, "rdma_resolve_route", NULL);
    }
    c->state = CM_ROUTE_QUERY;
    return SyncResult(interp, objPtr, 1);
}

static int
CmIdListen(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsCmId *c = (VerbsCmId *) objPtr;
    uint64_t backlog = 16;

    if ((objc == 3 && VerbsGetUInt(interp, "backlog", objv[2], INT32_MAX,
	    &backlog) != TCL_OK)
	    || CmCheck(interp, c, "listen", CMS(CM_IDLE) | CMS(CM_BOUND),
	    "an idle or bound id") != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_listen(c->id, (int) backlog) != 0) {
	return VerbsSysError(interp, "rdma_listen", objPtr, NULL, errno);
    }
    c->state = CM_LISTEN;
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
 *	-rnr_retry_count N, and for a QP not made on the id (whose state
 *	the script moves itself) -qp_num N -srq BOOL.
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
	uint32_t qp_num;
	uint8_t responder_resources, retry_count, rnr_retry_count;
	int srq;
    } ConnArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(ConnArgs, initiator_depth, VF_UINT, NULL, "n"),
	VERBS_OPTION(ConnArgs, private_data, VF_TCLOBJ, NULL, "bytes"),
	VERBS_OPTION_MAX(ConnArgs, qp_num, 0xffffff, "n"),
	VERBS_OPTION(ConnArgs, responder_resources, VF_UINT, NULL, "n"),
	VERBS_OPTION(ConnArgs, retry_count, VF_UINT, NULL, "n"),
	VERBS_OPTION(ConnArgs, rnr_retry_count, VF_UINT, NULL, "n"),
	VERBS_OPTION(ConnArgs, srq, VF_BOOL, NULL, "bool"),
	VERBS_FIELD_END
    };
    ConnArgs args = {1, NULL, 0, 1, 6, 7, 0};	/* retry_count: see to_rts */

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
    param->qp_num = args.qp_num;
    param->srq = (uint8_t) args.srq;
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
 *	A standard Tcl result; create_qp returns the qp object, and on a
 *	synchronous id connect, accept and disconnect the event they
 *	waited for.
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
    VerbsCmId *c = (VerbsCmId *) objPtr;
    struct rdma_conn_param param;
    int connect = (call == rdma_connect);

    if (GetConnParam(interp, objc, objv, &param) != TCL_OK) {
	return TCL_ERROR;
    }

    /*
     * Both calls read the limits of the id's device (NULL before it has
     * one); accept answers a connect request.
     */

    if (connect ? CmCheck(interp, c, "connect", CMS(CM_ROUTE_RESOLVED)
	    | CM_DEVICE, "a resolved route (resolve_route and its "
	    "route_resolved event)") != TCL_OK
	    : CmCheck(interp, c, "accept", CMS(CM_REQUEST) | CM_DEVICE,
	    "an id of a connect request (the id of a connect_request "
	    "event or of get_request) not yet answered") != TCL_OK) {
	return TCL_ERROR;
    }

    /*
     * librdmacm copies an endpoint's connect data and then the private
     * data into one 256-byte field without checking their sum.
     */

    if (connect && c->connectLen + param.private_data_len > 255) {
	return VerbsArgError(interp, "-private_data", NULL, "-private_data "
		"is %d bytes: after the %d bytes of the endpoint's connect "
		"data at most %d fit", param.private_data_len, c->connectLen,
		255 - c->connectLen);
    }
    if (call(c->id, &param) != 0) {
	return CallFailed(interp, c, name, NULL);
    }
    if (connect) {
	c->connectLen = 0;
    }
    c->state = connect ? CM_CONNECT : IsUd(c->id) ? CM_CONNECTED
	    : CM_ACCEPT;
    return SyncResult(interp, objPtr, connect || !IsUd(c->id));
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
	    != TCL_OK
	    || CmCheck(interp, (VerbsCmId *) objPtr, "reject", CMS(CM_REQUEST),
	    "an id of a connect request not yet answered") != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_reject(((VerbsCmId *) objPtr)->id, data, n) != 0) {
	return VerbsSysError(interp, "rdma_reject", objPtr, NULL, errno);
    }
    ((VerbsCmId *) objPtr)->state = CM_REJECTED;
    return TCL_OK;
}

static int
CmIdDisconnect(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    VerbsCmId *c = (VerbsCmId *) objPtr;

    /*
     * The kernel accepts a disconnect with nothing to end, and then no
     * event comes: a synchronous id, which waits for it, must be
     * connected.
     */

    if (CmCheck(interp, c, "disconnect", CM_CONNECTED_MODE | (IsSync(c)
	    ? CMS(CM_CONNECTED) : CMS(CM_CONNECT) | CMS(CM_RESPONSE)
	    | CMS(CM_ACCEPT) | CMS(CM_CONNECTED) | CMS(CM_FAILED)
	    | CMS(CM_DISCONNECTED)), IsSync(c) ? "a connected id"
	    : "an id that connects, accepted or is connected") != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_disconnect(c->id) != 0) {
	return CallFailed(interp, c, "rdma_disconnect", NULL);
    }
    c->state = CM_DISCONNECTED;
    return SyncResult(interp, objPtr, 1);
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
    if (CmCheck(interp, c, "create_qp", CM_ANY | CM_DEVICE, "") != TCL_OK) {
	return TCL_ERROR;
    }
    return VerbsQpCreate(interp, objc - 1, objv + 1, c, NULL);
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdQpOf --
 *
 *	The qp object of an id, for the rdma_verbs.h helpers, which work on
 *	id->qp (and id->pd, its PD).
 *
 * Results:
 *	A standard Tcl result, the object in *qPtr: an error {VERBS STATE
 *	cmid noqp METHOD} when the id has no QP.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
CmIdQpOf(
    Tcl_Interp *interp,
    VerbsCmId *c,
    const char *method,
    VerbsQp **qPtr)
{
    if (c->id->qp == NULL || c->id->qp->qp_context == NULL) {
	return VerbsStateError(interp, &c->obj, "noqp", method, "an id with "
		"a qp (create_qp, or create_ep with -pd)");
    }
    *qPtr = (VerbsQp *) c->id->qp->qp_context;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdPost, CmIdPostSend, CmIdPostRecv, CmIdPostRead, CmIdPostWrite,
 * CmIdPostUdSend --
 *
 *	$id post_send SGE ?-send_flags FLAGS? ?-wr_id N?
 *	$id post_recv SGE ?-wr_id N?
 *	$id post_read SGE -remote_addr A -rkey K ?-send_flags F? ?-wr_id N?
 *	$id post_write SGE -remote_addr A -rkey K ?-send_flags F? ?-wr_id N?
 *	$id post_ud_send SGE -ah AH -remote_qpn N ?-send_flags F? ?-wr_id N?
 *	librdmacm's helpers of one work request with one SGE on the id's
 *	QP (rdma_post_send, ...): SGE is {MR OFFSET LENGTH}, -wr_id the
 *	helper's context argument.  What the provider would trust is checked
 *	first: the opcode suits the QP (VerbsCheckSendWr: a ud send needs
 *	an AH of the QP's PD), inline data is in a host buffer, and a
 *	receive's SGE lies in the MR's buffer addresses (rdma_post_recv
 *	asserts that, which an MR made with -iova would fail).
 *
 * Results:
 *	A standard Tcl result, empty.
 *
 * Side effects:
 *	Posts the work request.
 *
 *----------------------------------------------------------------------
 */

typedef struct PostArgs {
    VerbsObj *ah;
    uint64_t remote_addr, remote_qpn;
    uint32_t rkey;
    uint64_t send_flags, wr_id;
} PostArgs;

#define POST_FLAGS \
    VERBS_OPTION(PostArgs, send_flags, VF_FLAGS, verbsSendFlags, "flags")
#define POST_WR_ID \
    VERBS_OPTION(PostArgs, wr_id, VF_UINT, NULL, "n")
#define POST_RDMA \
    VERBS_OPTION_REQUIRED(PostArgs, remote_addr, VF_UINT, NULL, 0, \
	    "addr:the peer's address to read or write"), \
    VERBS_OPTION_REQUIRED(PostArgs, rkey, VF_UINT, NULL, 0, \
	    "rkey:the peer's key of that memory")

static const VerbsField postSendOptions[] = {
    POST_FLAGS, POST_WR_ID, VERBS_FIELD_END
};
static const VerbsField postRecvOptions[] = {
    POST_WR_ID, VERBS_FIELD_END
};
static const VerbsField postRdmaOptions[] = {
    POST_RDMA, POST_FLAGS, POST_WR_ID, VERBS_FIELD_END
};
static const VerbsField postUdOptions[] = {
    VERBS_OPTION_REQUIRED(PostArgs, ah, VF_OBJ, &verbsAhClass, 0,
	    "ah:the address handle of the destination"),
    VERBS_OPTION_REQUIRED(PostArgs, remote_qpn, VF_UINT, NULL, 0xffffff,
	    "qpn:the destination's qp number"),
    POST_FLAGS, POST_WR_ID, VERBS_FIELD_END
};

typedef enum {
    POST_SEND, POST_RECV, POST_READ, POST_WRITE, POST_UD_SEND
} PostKind;

static const struct {
    const char *call;		/* The method is the name without rdma_. */
    const VerbsField *options;
    enum ibv_wr_opcode opcode;	/* Of the send WR (not post_recv's). */
} posts[] = {
    {"rdma_post_send", postSendOptions, IBV_WR_SEND},
    {"rdma_post_recv", postRecvOptions, IBV_WR_SEND},
    {"rdma_post_read", postRdmaOptions, IBV_WR_RDMA_READ},
    {"rdma_post_write", postRdmaOptions, IBV_WR_RDMA_WRITE},
    {"rdma_post_ud_send", postUdOptions, IBV_WR_SEND}
};

static int
CmIdPost(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[],
    PostKind kind)
{
    VerbsCmId *c = (VerbsCmId *) objPtr;
    PostArgs a;
    VerbsSgeArg sge;
    VerbsQp *q = NULL;
    struct ibv_mr *mr;
    void *context, *addr;
    size_t length;
    int flags, ret;

    memset(&a, 0, sizeof(a));
    memset(&sge, 0, sizeof(sge));
    if (VerbsParseOptions(interp, objc, objv, 3, posts[kind].options, &a)
	    != TCL_OK
	    || CmIdQpOf(interp, c, posts[kind].call + 5, &q) != TCL_OK
	    || VerbsParseSge(interp, "sge", objv[2], &sge) != TCL_OK) {
	return TCL_ERROR;
    }
    if (kind != POST_RECV && VerbsCheckSendWr(interp, q, posts[kind].opcode,
	    (VerbsAh *) a.ah, kind == POST_UD_SEND) != TCL_OK) {
	return TCL_ERROR;
    }
    if ((a.send_flags & IBV_SEND_INLINE) && sge.sge.length > 0
	    && !VerbsMrHost(sge.mr)) {
	return VerbsNotHostError(interp, "sge", 0, &sge.sge);
    }
    mr = sge.mr->mr;
    if (kind == POST_RECV && (sge.sge.addr < (uintptr_t) mr->addr
	    || sge.sge.addr + sge.sge.length
	    > (uintptr_t) mr->addr + mr->length)) {
	Tcl_Obj *name = VerbsObjName(&sge.mr->obj);

	VerbsArgError(interp, "sge", sge.valueObj, "rdma_post_recv takes "
		"an sge in the addresses of its mr's buffer, and %s is "
		"addressed from its -iova", Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    context = (void *) (uintptr_t) a.wr_id;
    addr = (void *) (uintptr_t) sge.sge.addr;
    length = sge.sge.length;
    flags = (int) a.send_flags;
    switch (kind) {
    case POST_SEND:
	ret = rdma_post_send(c->id, context, addr, length, mr, flags);
	break;
    case POST_RECV:
	ret = rdma_post_recv(c->id, context, addr, length, mr);
	break;
    case POST_READ:
	ret = rdma_post_read(c->id, context, addr, length, mr, flags,
		a.remote_addr, a.rkey);
	break;
    case POST_WRITE:
	ret = rdma_post_write(c->id, context, addr, length, mr, flags,
		a.remote_addr, a.rkey);
	break;
    default:
	ret = rdma_post_ud_send(c->id, context, addr, length, mr, flags,
		((VerbsAh *) a.ah)->ah, (uint32_t) a.remote_qpn);
	break;
    }
    if (ret != 0) {
	return VerbsSysError(interp, posts[kind].call, objPtr, NULL, errno);
    }
    return TCL_OK;
}

static int
CmIdPostSend(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CmIdPost(interp, objPtr, objc, objv, POST_SEND);
}

static int
CmIdPostRecv(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CmIdPost(interp, objPtr, objc, objv, POST_RECV);
}

static int
CmIdPostRead(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CmIdPost(interp, objPtr, objc, objv, POST_READ);
}

static int
CmIdPostWrite(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CmIdPost(interp, objPtr, objc, objv, POST_WRITE);
}

static int
CmIdPostUdSend(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CmIdPost(interp, objPtr, objc, objv, POST_UD_SEND);
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdReg, CmIdRegMsgs, CmIdRegRead, CmIdRegWrite --
 *
 *	$id reg_msgs|reg_read|reg_write LENGTH ?-as NAME?: an MR with a
 *	buffer of its own of LENGTH bytes, registered by rdma_reg_msgs,
 *	rdma_reg_read or rdma_reg_write on the id's PD (VerbsMrCmNew).  The
 *	id must have a QP: librdmacm's id->pd is that QP's PD, whose child
 *	the MR is.
 *
 * Results:
 *	A standard Tcl result, the mr object's name.
 *
 * Side effects:
 *	Allocates and registers memory, creates a command.
 *
 *----------------------------------------------------------------------
 */

static int
CmIdReg(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[],
    VerbsCmReg kind)
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_FIELD_END
    };
    VerbsCmId *c = (VerbsCmId *) objPtr;
    static const char *const methods[] = {
	"reg_msgs", "reg_read", "reg_write"
    };
    VerbsCreateHead head = {NULL, NULL};
    const char *method = methods[kind];
    uint64_t length;
    VerbsQp *q = NULL;
    VerbsObj *p;

    if (VerbsGetUInt(interp, "length", objv[2], INT32_MAX, &length)
	    != TCL_OK || VerbsCheckLength(interp, "length", length) != TCL_OK
	    || VerbsParseOptions(interp, objc, objv, 3, options, &head)
	    != TCL_OK || CmIdQpOf(interp, c, method, &q) != TCL_OK) {
	return TCL_ERROR;
    }
    p = q->obj.parent;
    if (p->typePtr != &verbsPdClass || ((VerbsPd *) p)->pd != c->id->pd) {
	return VerbsStateError(interp, objPtr, "otherpd", method, "an id "
		"whose pd (librdmacm's id->pd) is its qp's pd object");
    }
    return VerbsMrCmNew(interp, (VerbsPd *) p, c->id, kind, (size_t) length,
	    head.command);
}

static int
CmIdRegMsgs(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CmIdReg(interp, objPtr, objc, objv, VERBS_CM_REG_MSGS);
}

static int
CmIdRegRead(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CmIdReg(interp, objPtr, objc, objv, VERBS_CM_REG_READ);
}

static int
CmIdRegWrite(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CmIdReg(interp, objPtr, objc, objv, VERBS_CM_REG_WRITE);
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdGetComp, TryComp, CmIdGetSendComp, CmIdGetRecvComp --
 *
 *	$id get_send_comp ?-timeout MS?, $id get_recv_comp ?-timeout MS?:
 *	the next completion of the send or receive CQ that rdma_create_qp
 *	made for the id's QP (a QP made without -send_cq), by
 *	rdma_get_send_comp or rdma_get_recv_comp, as a WC dict like $cq
 *	poll gives; a failed completion is returned, not raised, as $cq
 *	poll and $cq wait (without -check) do.  The helper blocks in
 *	ibv_get_cq_event: the CQ's channel is made non-blocking for the
 *	call, so that it returns EAGAIN once it has armed the CQ, and its fd
 *	is polled until the completion event comes or the time (default
 *	5000 ms, -1 none) is up.
 *
 * Results:
 *	The WC dict; on time out an error "timed out after MS ms waiting
 *	for a send|receive completion on ID", errorCode {VERBS TIMEOUT 0}.
 *
 * Side effects:
 *	Consumes a completion; reads and acknowledges completion events.
 *
 *----------------------------------------------------------------------
 */

typedef struct CompWait {
    VerbsCmId *c;
    int send;
} CompWait;

static int
TryComp(
    Tcl_Interp *interp,
    void *clientData,		/* CompWait. */
    int *donePtr)
{
    CompWait *w = (CompWait *) clientData;
    struct ibv_wc wc;
    int ret, err;

    ret = w->send ? rdma_get_send_comp(w->c->id, &wc)
	    : rdma_get_recv_comp(w->c->id, &wc);
    if (ret > 0) {
	Tcl_SetObjResult(interp, VerbsStructToDict(&verbsWcStruct, &wc));
	*donePtr = 1;
	return TCL_OK;
    }

    /* A failed ibv_poll_cq leaves its negative result in errno. */
    err = errno < 0 ? -errno : errno;
    if (err == EAGAIN || err == EWOULDBLOCK) {
	return TCL_OK;		/* Armed, and no event yet. */
    }
    return VerbsSysError(interp, w->send ? "rdma_get_send_comp"
	    : "rdma_get_recv_comp", &w->c->obj, NULL, err);
}

static int
CmIdGetComp(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[],
    int send)
{
    static const VerbsField options[] = {
	VERBS_OPTION_TIMEOUT,
	VERBS_FIELD_END
    };
    VerbsCmId *c = (VerbsCmId *) objPtr;
    const char *method = send ? "get_send_comp" : "get_recv_comp";
    struct ibv_comp_channel *ch;
    CompWait w;
    VerbsQp *q = NULL;
    int timeout = 5000, flags, result;

    if (objc == 3) {
	Tcl_WrongNumArgs(interp, 2, objv, "?-timeout ms?");
	return TCL_ERROR;
    }
    if (VerbsParseOptions(interp, objc, objv, 2, options, &timeout)
	    != TCL_OK || CmIdQpOf(interp, c, method, &q) != TCL_OK) {
	return TCL_ERROR;
    }
    if (q->sendCq != NULL) {
	return VerbsStateError(interp, objPtr, "owncqs", method, "the cqs "
		"librdmacm makes for a qp made without -send_cq: poll the "
		"qp's cq objects");
    }
    ch = send ? c->id->send_cq_channel : c->id->recv_cq_channel;
    if (ch == NULL || (send ? c->id->send_cq : c->id->recv_cq) == NULL) {
	return VerbsStateError(interp, objPtr, "nocq", method, send
		? "a send cq (the qp was made with max_send_wr 0)"
		: "a receive cq (the qp was made with max_recv_wr 0)");
    }
    w.c = c;
    w.send = send;
    flags = fcntl(ch->fd, F_GETFL);
    if (flags < 0 || fcntl(ch->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
	return VerbsSysError(interp, "fcntl", objPtr, NULL, errno);
    }
    result = VerbsWaitFd(interp, objPtr, ch->fd, timeout, send
	    ? "a send completion" : "a receive completion", TryComp, &w);
    fcntl(ch->fd, F_SETFL, flags);
    return result;
}

static int
CmIdGetSendComp(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CmIdGetComp(interp, objPtr, objc, objv, 1);
}

static int
CmIdGetRecvComp(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CmIdGetComp(interp, objPtr, objc, objv, 0);
}

/*
 *----------------------------------------------------------------------
 *
 * SockaddrLen, FindJoin --
 *
 *	The length of an IPv4 or IPv6 sockaddr, and the record of the group
 *	an id joined at an address (with the link that points at it).
 *
 *----------------------------------------------------------------------
 */

static socklen_t
SockaddrLen(
    const struct sockaddr_storage *ss)
{
    return ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
	    : sizeof(struct sockaddr_in);
}

static VerbsCmJoin **
FindJoin(
    VerbsCmId *c,
    const struct sockaddr_storage *ss)
{
    VerbsCmJoin **jp;

    for (jp = &c->joins; *jp; jp = &(*jp)->next) {
	if ((*jp)->addr.ss_family == ss->ss_family
		&& memcmp(&(*jp)->addr, ss, SockaddrLen(ss)) == 0) {
	    return jp;
	}
    }
    return NULL;
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdJoinMulticast, CmIdLeaveMulticast --
 *
 *	$id join_multicast ADDRESS ?-context VALUE? ?-join_flags
 *	full|sendonly_full?: join the multicast group of an IP address
 *	(rdma_join_multicast, or with -join_flags rdma_join_multicast_ex);
 *	the multicast_join event (multicast_error on failure) carries the
 *	address, the context and the group's qp_num, qkey and ah_attr, and
 *	librdmacm attaches the id's QP to the group as it reads the event
 *	(not as a send-only member).
 *	$id leave_multicast ADDRESS: leave it (rdma_leave_multicast, which
 *	also detaches the QP).
 *
 * Results:
 *	A standard Tcl result; on a synchronous id join_multicast returns
 *	the event.
 *
 * Side effects:
 *	Joins or leaves the group; keeps the join's record until it is
 *	left or the id is destroyed.
 *
 *----------------------------------------------------------------------
 */

static int
CmIdJoinMulticast(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsEnum joinFlags[] = {
	{"full", RDMA_MC_JOIN_FLAG_FULLMEMBER},
	{"sendonly_full", RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER},
	{NULL, 0}
    };
    typedef struct {
	Tcl_Obj *context;
	uint64_t join_flags;
    } JoinArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(JoinArgs, context, VF_TCLOBJ, NULL, "value"),
	VERBS_OPTION(JoinArgs, join_flags, VF_ENUM, joinFlags,
		"full|sendonly_full"),
	VERBS_FIELD_END
    };
    JoinArgs args = {NULL, ~(uint64_t) 0};
    VerbsCmId *c = (VerbsCmId *) objPtr;
    VerbsCmJoin *j, **jp;
    char buf[INET6_ADDRSTRLEN];
    int ret;

    if ((objc % 2) != 1) {
	Tcl_WrongNumArgs(interp, 2, objv,
		"address ?-context value? ?-join_flags flags?");
	return TCL_ERROR;
    }
    if (CmCheck(interp, c, "join_multicast", CMS(CM_BOUND)
	    | CMS(CM_ADDR_RESOLVED) | CM_DATAGRAM | CM_DEVICE, "an id bound "
	    "to a local address or with its address resolved") != TCL_OK) {
	return TCL_ERROR;
    }
    j = (VerbsCmJoin *) ckalloc(sizeof(VerbsCmJoin));
    memset(j, 0, sizeof(*j));
    if (VerbsParseOptions(interp, objc, objv, 3, options, &args) != TCL_OK
	    || GetSockaddr(interp, "address", objv[2], NULL, &j->addr)
	    != TCL_OK) {
	ckfree(j);
	return TCL_ERROR;
    }
    inet_ntop(j->addr.ss_family, j->addr.ss_family == AF_INET6
	    ? (void *) &((struct sockaddr_in6 *) &j->addr)->sin6_addr
	    : (void *) &((struct sockaddr_in *) &j->addr)->sin_addr,
	    buf, sizeof(buf));
    j->addrObj = Tcl_NewStringObj(buf, -1);
    Tcl_IncrRefCount(j->addrObj);
    if (args.context) {
	j->context = args.context;
	Tcl_IncrRefCount(j->context);
    }

    /*
     * In the list before the call: on a synchronous id the event that
     * names the record is read inside it.
     */

    j->next = c->joins;
    c->joins = j;
    if (args.join_flags != ~(uint64_t) 0) {
	struct rdma_cm_join_mc_attr_ex attr;

	memset(&attr, 0, sizeof(attr));
	attr.comp_mask = RDMA_CM_JOIN_MC_ATTR_ADDRESS
		| RDMA_CM_JOIN_MC_ATTR_JOIN_FLAGS;
	attr.join_flags = (uint32_t) args.join_flags;
	attr.addr = (struct sockaddr *) &j->addr;
	ret = rdma_join_multicast_ex(c->id, &attr, j);
    } else {
	ret = rdma_join_multicast(c->id, (struct sockaddr *) &j->addr, j);
    }
    if (ret != 0) {
	int err = errno;

	/*
	 * librdmacm forgets a join it could not start; a synchronous one
	 * that started and then failed stays joined (leave it).
	 */

	if (!IsSync(c) || c->id->event == NULL || c->id->event->event
		!= RDMA_CM_EVENT_MULTICAST_ERROR) {
	    jp = FindJoin(c, &j->addr);
	    *jp = j->next;
	    FreeJoin(j);
	}
	return VerbsSysError(interp, args.join_flags != ~(uint64_t) 0
		? "rdma_join_multicast_ex" : "rdma_join_multicast", objPtr,
		NULL, err);
    }
    return SyncResult(interp, objPtr, 1);
}

static int
CmIdLeaveMulticast(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    VerbsCmId *c = (VerbsCmId *) objPtr;
    struct sockaddr_storage ss;
    VerbsCmJoin **jp, *j;
    int err = 0;

    if (GetSockaddr(interp, "address", objv[2], NULL, &ss) != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_leave_multicast(c->id, (struct sockaddr *) &ss) != 0) {
	err = errno;
    }

    /* librdmacm forgets the group unless it did not know it. */
    if (err != EADDRNOTAVAIL && (jp = FindJoin(c, &ss)) != NULL) {
	j = *jp;
	*jp = j->next;
	FreeJoin(j);
    }
    if (err) {
	return VerbsSysError(interp, "rdma_leave_multicast", objPtr, NULL,
		err);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdSetLocalEce, CmIdGetRemoteEce --
 *
 *	$id set_local_ece {vendor_id N options N}: the enhanced connection
 *	establishment options to offer in the REQ or REP of an id whose QP
 *	the script made itself (rdma_set_local_ece); $id get_remote_ece:
 *	those the peer offered (rdma_get_remote_ece), as a dict
 *	{vendor_id options comp_mask}.  librdmacm refuses both on an id
 *	that has a QP: it negotiates ECE for its own QPs.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	set_local_ece changes what connect/accept send.
 *
 *----------------------------------------------------------------------
 */

static int
CmIdSetLocalEce(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    struct ibv_ece ece;

    memset(&ece, 0, sizeof(ece));
    if (VerbsDictToStruct(interp, &verbsEceStruct, "ece", objv[2], &ece,
	    NULL) != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_set_local_ece(((VerbsCmId *) objPtr)->id, &ece) != 0) {
	return VerbsSysError(interp, "rdma_set_local_ece", objPtr, NULL,
		errno);
    }
    return TCL_OK;
}

static int
CmIdGetRemoteEce(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    struct ibv_ece ece;

    memset(&ece, 0, sizeof(ece));
    if (rdma_get_remote_ece(((VerbsCmId *) objPtr)->id, &ece) != 0) {
	return VerbsSysError(interp, "rdma_get_remote_ece", objPtr, NULL,
		errno);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsEceStruct, &ece));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdSetOption --
 *
 *	$id set_option tos|reuseaddr|afonly|ack_timeout VALUE
 *	(rdma_set_option at the RDMA_OPTION_ID level): the type of service
 *	byte (0-255), address reuse and IPv6-only binding (booleans), and
 *	the ack timeout exponent (0-31: 4.096 us * 2**value).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Changes the id.
 *
 *----------------------------------------------------------------------
 */

static int
CmIdSetOption(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    static const VerbsEnum names[] = {
	{"tos", RDMA_OPTION_ID_TOS}, {"reuseaddr", RDMA_OPTION_ID_REUSEADDR},
	{"afonly", RDMA_OPTION_ID_AFONLY},
	{"ack_timeout", RDMA_OPTION_ID_ACK_TIMEOUT}, {NULL, 0}
    };
    uint64_t opt, v;
    uint8_t byte;
    int flag;
    void *val;
    size_t len;

    if (VerbsGetEnum(interp, names, "option", objv[2], &opt) != TCL_OK) {
	return TCL_ERROR;
    }
    if (opt == RDMA_OPTION_ID_REUSEADDR || opt == RDMA_OPTION_ID_AFONLY) {
	if (VerbsGetBoolean(interp, Tcl_GetString(objv[2]), objv[3], &flag)
		!= TCL_OK) {
	    return TCL_ERROR;
	}
	val = &flag;
	len = sizeof(flag);
    } else {
	if (VerbsGetUInt(interp, Tcl_GetString(objv[2]), objv[3],
		opt == RDMA_OPTION_ID_TOS ? 255 : 31, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	byte = (uint8_t) v;
	val = &byte;
	len = sizeof(byte);
    }
    if (rdma_set_option(((VerbsCmId *) objPtr)->id, RDMA_OPTION_ID,
	    (int) opt, val, len) != 0) {
	return VerbsSysError(interp, "rdma_set_option", objPtr,
		Tcl_GetString(objv[2]), errno);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdInitQpAttr, CmIdEstablish --
 *
 *	$id init_qp_attr STATE: the attributes that move a QP not made on
 *	the id to STATE (init, rtr or rts) for this connection
 *	(rdma_init_qp_attr), as a qp attribute dict with just the keys of
 *	the mask the kernel gave, ready for $qp modify.
 *	$id establish: the active side's end of such a connection, after
 *	the connect_response event and the QP's move to rts (rdma_establish
 *	sends the RTU).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	establish completes the connection.
 *
 *----------------------------------------------------------------------
 */

static int
CmIdInitQpAttr(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    struct ibv_qp_attr attr;
    const VerbsField *f;
    uint64_t state;
    int mask;
    Tcl_Obj *dict, *v;

    if (VerbsGetEnum(interp, verbsQpState, "state", objv[2], &state)
	    != TCL_OK || CmCheck(interp, (VerbsCmId *) objPtr, "init_qp_attr",
	    CM_ANY | CM_DEVICE, "") != TCL_OK) {
	return TCL_ERROR;
    }
    memset(&attr, 0, sizeof(attr));
    attr.qp_state = (enum ibv_qp_state) state;
    if (rdma_init_qp_attr(((VerbsCmId *) objPtr)->id, &attr, &mask) != 0) {
	return VerbsSysError(interp, "rdma_init_qp_attr", objPtr,
		Tcl_GetString(objv[2]), errno);
    }
    dict = Tcl_NewDictObj();
    for (f = verbsQpAttrStruct.fields; f->name; f++) {
	if (f->mask & (uint64_t) mask) {
	    VerbsFieldGet(NULL, f, &attr, NULL, &v);
	    Tcl_DictObjPut(NULL, dict, VerbsKeyObj(f->name), v);
	}
    }
    Tcl_SetObjResult(interp, dict);
    return TCL_OK;
}

static int
CmIdEstablish(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    VerbsCmId *c = (VerbsCmId *) objPtr;

    if (CmCheck(interp, c, "establish", CMS(CM_RESPONSE), "a "
	    "connect_response event (a connect of an id without a qp)")
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (rdma_establish(c->id) != 0) {
	return VerbsSysError(interp, "rdma_establish", objPtr, NULL, errno);
    }
    c->state = CM_CONNECTED;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdMigrate --
 *
 *	$id migrate ?CHANNEL?: move the id, and its future events, to
 *	another event channel (rdma_migrate_id), or without one make it
 *	synchronous.  The object moves in the tree along: it becomes a
 *	child of CHANNEL (a root object without one), so that closing its
 *	old channel leaves it alone.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	May free the old channel, when the id kept it alive.
 *
 *----------------------------------------------------------------------
 */

static int
CmIdMigrate(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsCmId *c = (VerbsCmId *) objPtr;
    VerbsObj *to = NULL;

    if (objc == 3 && Tcl_GetString(objv[2])[0] != '\0') {
	to = VerbsObjGet(interp, objv[2], &verbsCmChannelClass);
	if (to == NULL) {
	    return TCL_ERROR;
	}
    }
    if (to == c->obj.parent) {
	return TCL_OK;
    }
    if (rdma_migrate_id(c->id, to ? ((VerbsCmChannel *) to)->channel : NULL)
	    != 0) {
	return VerbsSysError(interp, "rdma_migrate_id", objPtr, NULL, errno);
    }
    VerbsObjReparent(objPtr, to);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdGetRequest --
 *
 *	$id get_request ?-timeout MS?: on a synchronous listening id (made
 *	by create_ep with the passive flag), wait for the next connect
 *	request (default 5000 ms, -1 for no limit) and take it
 *	(rdma_get_request): the new id is a synchronous id too, with its QP
 *	made from the endpoint's QP options if it was given any.
 *
 * Results:
 *	The connect_request event dict, whose id is the new id.
 *
 * Side effects:
 *	Creates an id object and maybe a qp object.
 *
 *----------------------------------------------------------------------
 */

static int
CmIdGetRequest(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_TIMEOUT,
	VERBS_FIELD_END
    };
    VerbsCmId *c = (VerbsCmId *) objPtr, *n;
    struct rdma_cm_id *id;
    struct pollfd pfd;
    int timeout = 5000, ready, flags, ret, err;

    if (objc == 3) {
	Tcl_WrongNumArgs(interp, 2, objv, "?-timeout ms?");
	return TCL_ERROR;
    }
    if (VerbsParseOptions(interp, objc, objv, 2, options, &timeout)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (!IsSync(c)) {
	Tcl_Obj *name = VerbsObjName(objPtr);

	Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s is not synchronous: its "
		"connect requests arrive on its channel",
		Tcl_GetString(name)));
	Tcl_SetErrorCode(interp, "VERBS", "ARG", "id", Tcl_GetString(name),
		NULL);
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    if (CmCheck(interp, c, "get_request", CMS(CM_LISTEN), "a listening id "
	    "(listen)") != TCL_OK) {
	return TCL_ERROR;
    }
    pfd.fd = c->id->channel->fd;
    pfd.events = POLLIN;
    while ((ready = poll(&pfd, 1, timeout)) < 0 && errno == EINTR) {
	/* Again (the time limit restarts). */
    }
    if (ready < 0) {
	return VerbsSysError(interp, "poll", objPtr, NULL, errno);
    }
    if (ready == 0) {
	Tcl_Obj *name = VerbsObjName(objPtr);

	Tcl_SetObjResult(interp, Tcl_ObjPrintf("timed out after %d ms "
		"waiting for a connect request on %s", timeout,
		Tcl_GetString(name)));
	Tcl_DecrRefCount(name);
	VerbsTimeoutCode(interp, 0);
	return TCL_ERROR;
    }

    /*
     * librdmacm drops some events (a request it could not set up, an
     * event of an id already gone) and then blocks for the next one, which
     * may never come: the call reads without blocking, and finding nothing
     * after all is the time limit's error.
     */

    flags = fcntl(pfd.fd, F_GETFL);
    if (flags >= 0) {
	fcntl(pfd.fd, F_SETFL, flags | O_NONBLOCK);
    }
    ret = rdma_get_request(c->id, &id);
    err = errno;
    if (flags >= 0) {
	fcntl(pfd.fd, F_SETFL, flags);
    }
    if (ret != 0 && (err == EAGAIN || err == EWOULDBLOCK)) {
	ready = 0;
    } else if (ret != 0) {
	return VerbsSysError(interp, "rdma_get_request", objPtr, NULL, err);
    }
    if (ready == 0) {
	Tcl_Obj *name = VerbsObjName(objPtr);

	Tcl_SetObjResult(interp, Tcl_ObjPrintf("timed out after %d ms "
		"waiting for a connect request on %s", timeout,
		Tcl_GetString(name)));
	Tcl_DecrRefCount(name);
	VerbsTimeoutCode(interp, 0);
	return TCL_ERROR;
    }
    if (NewCmId(interp, NULL, id, NULL, &n) != TCL_OK) {
	rdma_reject(id, NULL, 0);
	rdma_destroy_ep(id);
	return TCL_ERROR;
    }
    if (id->qp && c->epPd) {
	VerbsQpAdopt(interp, NULL, id->qp, c->epPd, c->epSendCq,
		c->epRecvCq, c->epSrq, n);
    }
    Tcl_SetObjResult(interp, EventDict(id->event));
    AckSyncEvent(id);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * AddrInfoToRec, AddrPair, GaiError --
 *
 *	An rdma_addrinfo into the record of its dict (the addresses as
 *	{address port}, empty for none or for an AF_IB one); an {address
 *	port} value back into a sockaddr; the error of rdma_getaddrinfo,
 *	an errno or a getaddrinfo EAI_ code.
 *
 *----------------------------------------------------------------------
 */

static void
AddrInfoToRec(
    const struct rdma_addrinfo *rai,
    AddrInfoRec *rec)
{
    memset(rec, 0, sizeof(*rec));
    rec->flags = (uint32_t) rai->ai_flags;
    rec->family = (uint32_t) rai->ai_family;
    rec->qp_type = (uint32_t) rai->ai_qp_type;
    rec->port_space = (uint32_t) rai->ai_port_space;
    if (rai->ai_src_addr) {
	rec->src_addr = AddrObj(rai->ai_src_addr);
    }
    if (rai->ai_dst_addr) {
	rec->dst_addr = AddrObj(rai->ai_dst_addr);
    }
    if (rai->ai_src_canonname) {
	rec->src_canonname = Tcl_NewStringObj(rai->ai_src_canonname, -1);
    }
    if (rai->ai_dst_canonname) {
	rec->dst_canonname = Tcl_NewStringObj(rai->ai_dst_canonname, -1);
    }
    if (rai->ai_route_len) {
	rec->route = Tcl_NewByteArrayObj(rai->ai_route,
		(Tcl_Size) rai->ai_route_len);
    }
    if (rai->ai_connect_len) {
	rec->connect = Tcl_NewByteArrayObj(rai->ai_connect,
		(Tcl_Size) rai->ai_connect_len);
    }
}

static int
AddrPair(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    struct sockaddr_storage *ss,
    socklen_t *lenPtr)
{
    Tcl_Obj **elems;
    Tcl_Size n;

    *lenPtr = 0;
    if (valueObj == NULL) {
	return TCL_OK;
    }
    if (Tcl_ListObjGetElements(NULL, valueObj, &n, &elems) != TCL_OK
	    || (n != 0 && n != 2)) {
	return VerbsArgError(interp, key, valueObj, "bad %s \"%s\": must be "
		"{address port} or empty", key, Tcl_GetString(valueObj));
    }
    if (n == 0) {
	return TCL_OK;
    }
    if (GetSockaddr(interp, key, elems[0], elems[1], ss) != TCL_OK) {
	return TCL_ERROR;
    }
    *lenPtr = SockaddrLen(ss);
    return TCL_OK;
}

static int
GaiError(
    Tcl_Interp *interp,
    int ret,
    const char *what)
{
    static const struct {
	int code;
	const char *name;
    } codes[] = {
	{EAI_AGAIN, "EAI_AGAIN"}, {EAI_BADFLAGS, "EAI_BADFLAGS"},
	{EAI_FAIL, "EAI_FAIL"}, {EAI_FAMILY, "EAI_FAMILY"},
	{EAI_MEMORY, "EAI_MEMORY"}, {EAI_NONAME, "EAI_NONAME"},
	{EAI_SERVICE, "EAI_SERVICE"}, {EAI_SOCKTYPE, "EAI_SOCKTYPE"},
#ifdef EAI_NODATA
	{EAI_NODATA, "EAI_NODATA"},
#endif
#ifdef EAI_ADDRFAMILY
	{EAI_ADDRFAMILY, "EAI_ADDRFAMILY"},
#endif
	{0, NULL}
    };
    const char *name = "EAI", *text;
    int i;

    /* -1 is librdmacm's own failure, with errno (also EAI_BADFLAGS). */
    if (ret == -1 || ret == EAI_SYSTEM) {
	return VerbsSysError(interp, "rdma_getaddrinfo", NULL, what, errno);
    }
    for (i = 0; codes[i].name; i++) {
	if (codes[i].code == ret) {
	    name = codes[i].name;
	}
    }
    text = gai_strerror(ret);
    Tcl_SetObjResult(interp, Tcl_ObjPrintf("rdma_getaddrinfo%s%s%s: %s",
	    what ? " (" : "", what ? what : "", what ? ")" : "", text));
    Tcl_SetErrorCode(interp, "VERBS", "SYS", "rdma_getaddrinfo", name, text,
	    NULL);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * CmGetAddrInfoCmd --
 *
 *	verbs::cm getaddrinfo ?-node NAME? ?-service PORT? ?-flags FLAGS?
 *	    ?-family FAMILY? ?-qp_type TYPE? ?-port_space SPACE?
 *	rdma_getaddrinfo with those hints.
 *
 * Results:
 *	A list of addrinfo dicts: flags family qp_type port_space src_addr
 *	dst_addr src_canonname dst_canonname route connect.
 *
 * Side effects:
 *	None (rdma_freeaddrinfo frees librdmacm's list).
 *
 *----------------------------------------------------------------------
 */

/*
 * The hints of rdma_getaddrinfo, as verbs::cm getaddrinfo and $id
 * resolve_addrinfo take them.
 */

typedef struct {
    VerbsCreateHead head;
    uint64_t family, flags;
    Tcl_Obj *node;
    uint64_t port_space, qp_type;
    Tcl_Obj *service;
} GaiArgs;

static const VerbsField gaiOptions[] = {
    VERBS_OPTION(GaiArgs, family, VF_ENUM, addrFamilies, "family"),
    VERBS_OPTION(GaiArgs, flags, VF_FLAGS, raiFlags, "flags"),
    VERBS_OPTION(GaiArgs, node, VF_TCLOBJ, NULL, "name"),
    VERBS_OPTION(GaiArgs, port_space, VF_ENUM, cmPortSpaces, "space"),
    VERBS_OPTION(GaiArgs, qp_type, VF_ENUM, verbsQpTypes, "type"),
    VERBS_OPTION(GaiArgs, service, VF_TCLOBJ, NULL, "port"),
    VERBS_FIELD_END
};

/*
 *----------------------------------------------------------------------
 *
 * GaiHints, AddrInfoList --
 *
 *	The rdma_addrinfo hints of the options parsed into a, with the node
 *	and service (NULL when not given); a list of librdmacm's addrinfo
 *	entries as dicts.
 *
 * Results:
 *	See above.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static void
GaiHints(
    const GaiArgs *a,
    struct rdma_addrinfo *hints,
    const char **nodePtr,
    const char **servicePtr)
{
    *nodePtr = a->node ? Tcl_GetString(a->node) : NULL;
    *servicePtr = a->service ? Tcl_GetString(a->service) : NULL;
    memset(hints, 0, sizeof(*hints));
    hints->ai_flags = (int) a->flags;
    hints->ai_family = (int) a->family;
    hints->ai_qp_type = (int) a->qp_type;
    hints->ai_port_space = (int) a->port_space;
}

static Tcl_Obj *
AddrInfoList(
    const struct rdma_addrinfo *res)
{
    Tcl_Obj *list = Tcl_NewObj();
    const struct rdma_addrinfo *rai;
    AddrInfoRec rec;

    for (rai = res; rai; rai = rai->ai_next) {
	AddrInfoToRec(rai, &rec);
	Tcl_ListObjAppendElement(NULL, list,
		VerbsStructToDict(&addrInfoStruct, &rec));
    }
    return list;
}

static int
CmGetAddrInfoCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    GaiArgs args;
    struct rdma_addrinfo hints, *res;
    const char *node, *service;
    int ret;

    memset(&args, 0, sizeof(args));
    if (VerbsCreateArgs(interp, objc, objv, "", gaiOptions, &args, NULL)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    GaiHints(&args, &hints, &node, &service);
    ret = rdma_getaddrinfo(node, service, &hints, &res);
    if (ret != 0) {
	return GaiError(interp, ret, node ? node : service);
    }
    Tcl_SetObjResult(interp, AddrInfoList(res));
    rdma_freeaddrinfo(res);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmIdResolveAddrInfo, CmIdQueryAddrInfo --
 *
 *	$id resolve_addrinfo ?-node NAME? ?-service PORT? ?option value
 *	...?: rdma_getaddrinfo with those hints (the options of verbs::cm
 *	getaddrinfo) done for the id (rdma_resolve_addrinfo, rdma-core 63
 *	and later), its answer announced by an addrinfo_resolved event;
 *	$id query_addrinfo then takes that answer (rdma_query_addrinfo), a
 *	list of addrinfo dicts as verbs::cm getaddrinfo gives.  Neither
 *	changes the id's state.  Built against an older librdmacm, both
 *	check their arguments and refuse.
 *
 * Results:
 *	A synchronous id's resolve_addrinfo returns its event; the query
 *	the list.
 *
 * Side effects:
 *	Resolves the name; the query frees librdmacm's answer.
 *
 *----------------------------------------------------------------------
 */

static int
CmIdResolveAddrInfo(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    GaiArgs args;

    memset(&args, 0, sizeof(args));
    if (VerbsParseOptions(interp, objc, objv, 2, gaiOptions, &args)
	    != TCL_OK) {
	return TCL_ERROR;
    }
#ifdef HAVE_RDMA_RESOLVE_ADDRINFO
    {
	VerbsCmId *c = (VerbsCmId *) objPtr;
	struct rdma_addrinfo hints;
	const char *node, *service;

	GaiHints(&args, &hints, &node, &service);
	if (rdma_resolve_addrinfo(c->id, node, service, &hints) != 0) {
	    return CallFailed(interp, c, "rdma_resolve_addrinfo",
		    node ? node : service);
	}
	return SyncResult(interp, objPtr, 1);
    }
#else
    return VerbsSysError(interp, "rdma_resolve_addrinfo", objPtr,
	    "needs rdma-core 60 or later", EOPNOTSUPP);
#endif
}

static int
CmIdQueryAddrInfo(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
#ifdef HAVE_RDMA_RESOLVE_ADDRINFO
    struct rdma_addrinfo *res = NULL;

    if (rdma_query_addrinfo(((VerbsCmId *) objPtr)->id, &res) != 0) {
	return VerbsSysError(interp, "rdma_query_addrinfo", objPtr, NULL,
		errno);
    }
    Tcl_SetObjResult(interp, AddrInfoList(res));
    rdma_freeaddrinfo(res);
    return TCL_OK;
#else
    return VerbsSysError(interp, "rdma_query_addrinfo", objPtr,
	    "needs rdma-core 60 or later", EOPNOTSUPP);
#endif
}

typedef struct {
    VerbsCreateHead head;
    struct ibv_qp_cap cap;
    VerbsObj *pd, *recv_cq, *send_cq;
    int sq_sig_all;
    VerbsObj *srq;
} EpArgs;

/*
 *----------------------------------------------------------------------
 *
 * EpAddrInfo, EpQp --
 *
 *	The steps of create_ep.  EpAddrInfo: the addrinfo dict into rai
 *	(rc in the tcp port space unless it says otherwise; the family is
 *	the addresses' own), the addresses in src and dst.  EpQp: the QP
 *	options (all with -pd, none without) into init; an active
 *	endpoint's QP object is allocated now (*qPtr).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fill rai, or init, the CQs and *qPtr.
 *
 *----------------------------------------------------------------------
 */

static int
EpAddrInfo(
    Tcl_Interp *interp,
    Tcl_Obj *dictObj,
    struct rdma_addrinfo *rai,
    struct sockaddr_storage *src,
    struct sockaddr_storage *dst)
{
    AddrInfoRec rec;
    socklen_t srcLen, dstLen;
    Tcl_Size n;

    memset(&rec, 0, sizeof(rec));
    rec.qp_type = IBV_QPT_RC;
    rec.port_space = RDMA_PS_TCP;
    if (VerbsDictToStruct(interp, &addrInfoStruct, "addrinfo", dictObj,
	    &rec, NULL) != TCL_OK
	    || AddrPair(interp, "src_addr", rec.src_addr, src, &srcLen)
	    != TCL_OK
	    || AddrPair(interp, "dst_addr", rec.dst_addr, dst, &dstLen)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    memset(rai, 0, sizeof(*rai));
    rai->ai_flags = (int) rec.flags;
    rai->ai_qp_type = (int) rec.qp_type;
    rai->ai_port_space = (int) rec.port_space;
    rai->ai_family = (int) rec.family;
    if (srcLen) {
	rai->ai_src_addr = (struct sockaddr *) src;
	rai->ai_src_len = srcLen;
    }
    if (dstLen) {
	rai->ai_dst_addr = (struct sockaddr *) dst;
	rai->ai_dst_len = dstLen;
    }
    if (rai->ai_family == AF_UNSPEC && (srcLen || dstLen)) {
	rai->ai_family = srcLen ? src->ss_family : dst->ss_family;
    }
    if (rec.route) {
	rai->ai_route = (void *) VerbsGetBytes(interp, "route", rec.route,
		&n);
	if (rai->ai_route == NULL) {
	    return TCL_ERROR;
	}
	rai->ai_route_len = (size_t) n;
    }
    if (rec.connect) {
	rai->ai_connect = (void *) VerbsGetBytes(interp, "connect",
		rec.connect, &n);
	if (rai->ai_connect == NULL) {
	    return TCL_ERROR;
	}
	rai->ai_connect_len = (size_t) n;
	if (n > 255) {
	    /* librdmacm would copy it into a 256-byte field. */
	    return VerbsArgError(interp, "connect", NULL, "connect is %"
		    TCL_SIZE_MODIFIER "d bytes: at most 255 fit", n);
	}
    }
    if (!(rai->ai_flags & RAI_PASSIVE) && !dstLen) {
	return VerbsArgError(interp, "dst_addr", NULL, "an active endpoint "
		"needs a dst_addr (or the passive flag)");
    }
    return TCL_OK;
}

static int
EpQp(
    Tcl_Interp *interp,
    const EpArgs *args,
    const struct rdma_addrinfo *rai,
    struct ibv_qp_init_attr *init,
    VerbsCq **sendCqPtr,
    VerbsCq **recvCqPtr,
    VerbsQp **qPtr)
{
    VerbsPd *p = (VerbsPd *) args->pd;
    VerbsSrq *srq = (VerbsSrq *) args->srq;

    if (p == NULL) {
	if (args->send_cq || args->recv_cq || args->srq) {
	    return VerbsArgError(interp, "-pd", NULL,
		    "the queue pair options of an endpoint need -pd");
	}
	return TCL_OK;
    }
    if (args->send_cq == NULL && VerbsQpCmCqs(interp,
	    args->recv_cq != NULL, args->srq != NULL) != TCL_OK) {
	return TCL_ERROR;
    }
    if (VerbsCheckOwner(interp, "-send_cq", args->send_cq, p->obj.parent,
	    "device context than the pd") != TCL_OK
	    || VerbsCheckOwner(interp, "-recv_cq", args->recv_cq,
	    p->obj.parent, "device context than the pd") != TCL_OK
	    || VerbsCheckOwner(interp, "-srq", args->srq, &p->obj, "pd")
	    != TCL_OK) {
	return TCL_ERROR;
    }
    /* Without -send_cq, no CQ objects: rdma_create_qp makes the CQs. */
    *sendCqPtr = (VerbsCq *) args->send_cq;
    *recvCqPtr = args->recv_cq ? (VerbsCq *) args->recv_cq : *sendCqPtr;
    memset(init, 0, sizeof(*init));
    init->send_cq = *sendCqPtr ? (*sendCqPtr)->cq : NULL;
    init->recv_cq = *recvCqPtr ? (*recvCqPtr)->cq : NULL;
    init->srq = srq ? srq->srq : NULL;
    init->cap = args->cap;
    init->sq_sig_all = args->sq_sig_all;
    init->qp_type = (enum ibv_qp_type) rai->ai_qp_type;
    if (!(rai->ai_flags & RAI_PASSIVE)) {
	*qPtr = (VerbsQp *) VerbsObjNew(&verbsQpClass);
	init->qp_context = *qPtr;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmCreateEpCmd --
 *
 *	verbs::cm create_ep ADDRINFO ?-pd PD ?-send_cq CQ? ?-recv_cq CQ?
 *	    ?-srq SRQ? ?-cap DICT? ?-sq_sig_all BOOL?? ?-as NAME?
 *	rdma_create_ep from an addrinfo dict (of [verbs::cm getaddrinfo]):
 *	a synchronous id, whose route is resolved (or, with the passive
 *	flag, bound to the source address, for listen and get_request).
 *	With -pd it has its QP on that PD (created now on an active
 *	endpoint, for each request on a passive one), of the addrinfo's
 *	qp_type.
 *
 * Results:
 *	The id object's name (a root object: it has no channel).
 *
 * Side effects:
 *	Creates the id and maybe a qp object; a passive endpoint keeps
 *	references on the PD, CQs and SRQ of its QP options.
 *
 *----------------------------------------------------------------------
 */

static int
CmCreateEpCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(EpArgs, cap, VF_STRUCT, &verbsQpCapStruct, "dict"),
	VERBS_OPTION(EpArgs, pd, VF_OBJ, &verbsPdClass, "pd"),
	VERBS_OPTION(EpArgs, recv_cq, VF_OBJ, &verbsCqClass, "cq"),
	VERBS_OPTION(EpArgs, send_cq, VF_OBJ, &verbsCqClass, "cq"),
	VERBS_OPTION(EpArgs, sq_sig_all, VF_BOOL, NULL, "bool"),
	VERBS_OPTION(EpArgs, srq, VF_OBJ, &verbsSrqClass, "srq"),
	VERBS_FIELD_END
    };
    EpArgs args;
    struct rdma_addrinfo rai;
    struct sockaddr_storage src, dst;
    struct ibv_qp_init_attr init;
    struct rdma_cm_id *id;
    VerbsPd *p;
    VerbsCq *sendCq = NULL, *recvCq = NULL;
    VerbsSrq *srq;
    VerbsQp *q = NULL;
    VerbsCmId *c;

    memset(&args, 0, sizeof(args));
    args.cap.max_send_wr = 16;
    args.cap.max_recv_wr = 16;
    args.cap.max_send_sge = 1;
    args.cap.max_recv_sge = 1;
    if (VerbsCreateArgs(interp, objc, objv, "addrinfo", options, &args,
	    NULL) != TCL_OK
	    || EpAddrInfo(interp, objv[1], &rai, &src, &dst) != TCL_OK
	    || EpQp(interp, &args, &rai, &init, &sendCq, &recvCq, &q)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.pd;
    srq = (VerbsSrq *) args.srq;
    if (rdma_create_ep(&id, &rai, p ? p->pd : NULL, p ? &init : NULL)
	    != 0) {
	int err = errno;

	if (q) {
	    ckfree(q);
	}
	return VerbsSysError(interp, "rdma_create_ep", NULL, NULL, err);
    }
    if (NewCmId(interp, NULL, id, args.head.command, &c) != TCL_OK) {
	rdma_destroy_ep(id);
	if (q) {
	    ckfree(q);
	}
	return TCL_ERROR;
    }
    c->state = (rai.ai_flags & RAI_PASSIVE) ? CM_BOUND : CM_ROUTE_RESOLVED;
    c->connectLen = (int) rai.ai_connect_len;
    if (q) {
	VerbsQpAdopt(interp, q, id->qp, p, sendCq, recvCq, srq, c);
    } else if (p) {
	/* A passive endpoint: each request's QP uses these. */
	c->epPd = p;
	c->epSendCq = sendCq;
	c->epRecvCq = recvCq;
	c->epSrq = srq;
	c->epQpType = init.qp_type;
	VerbsObjRetain(&p->obj);
	if (sendCq) {
	    VerbsObjRetain(&sendCq->obj);
	    VerbsObjRetain(&recvCq->obj);
	}
	if (srq) {
	    VerbsObjRetain(&srq->obj);
	}
    }
    Tcl_SetObjResult(interp, VerbsObjName(&c->obj));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CmDevicesCmd, CmEventStrCmd --
 *
 *	verbs::cm devices: the devices librdmacm has open
 *	(rdma_get_devices, rdma_free_devices), as the context objects that
 *	$id cget -context gives for them: PDs and CQs made on one suit any
 *	id bound to that device.  Empty without RDMA support.
 *	verbs::cm event_str EVENT: librdmacm's name of an event
 *	(rdma_event_str), such as RDMA_CM_EVENT_ESTABLISHED.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	devices may create context objects.
 *
 *----------------------------------------------------------------------
 */

static int
CmDevicesCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    struct ibv_context **devs;
    Tcl_Obj *list, *name;
    int i, n = 0;

    if (objc != 1) {
	Tcl_WrongNumArgs(interp, 1, objv, NULL);
	return TCL_ERROR;
    }
    errno = 0;
    devs = rdma_get_devices(&n);
    if (devs == NULL) {
	if (errno == ENODEV || errno == ENOENT || errno == ENOSYS
		|| errno == EPERM || errno == 0) {
	    return TCL_OK;
	}
	return VerbsSysError(interp, "rdma_get_devices", NULL, NULL, errno);
    }
    list = Tcl_NewObj();
    for (i = 0; devs[i]; i++) {
	if (BorrowContext(interp, devs[i], &name) != TCL_OK) {
	    Tcl_DecrRefCount(list);
	    rdma_free_devices(devs);
	    return TCL_ERROR;
	}
	Tcl_ListObjAppendElement(NULL, list, name);
    }
    rdma_free_devices(devs);
    Tcl_SetObjResult(interp, list);
    return TCL_OK;
}

static int
CmEventStrCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    uint64_t ev;

    if (objc != 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "event");
	return TCL_ERROR;
    }
    if (VerbsGetEnum(interp, cmEventNames, "event", objv[1], &ev)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, Tcl_NewStringObj(
	    rdma_event_str((enum rdma_cm_event_type) ev), -1));
    return TCL_OK;
}
