/*
 * verbsDevice.c --
 *
 *	Devices and device contexts: [verbs::devices], [verbs::context open]
 *	and the context object command.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>

static VerbsMethodProc ContextNotify, ContextQuery, ContextWait;

/*
 * The providers' methods ([$ctx NAME ...]) come between the common ones
 * and the context's own.
 */

#define PROVIDER_METHOD(N, name) \
    {name, VerbsProviderMethod, 1, -1, "subcommand ?arg ...?"},
static const VerbsMethod contextMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    VERBS_PROVIDERS(PROVIDER_METHOD)
    {"notify", ContextNotify, 0, 1, "?script?"},
    {"query", ContextQuery, 1, 3, "device|device_ex|gid PORT INDEX|"
	    "gid_entry PORT INDEX|gid_table|pkey PORT INDEX|port PORT|"
	    "rt_values"},
    {"wait", ContextWait, 0, 2, "?-timeout ms?"},
    {NULL, NULL, 0, 0, NULL}
};

static VerbsGetProc ContextNodeType, ContextTransportType, ContextIndex;

static const VerbsField contextCget[] = {
    VERBS_CGET("-name", VerbsContext, devName, VF_CSTR, NULL),
    VERBS_CGET_PTR("-fd", VerbsContext, ctx, struct ibv_context, cmd_fd,
	    VF_INT, NULL),
    VERBS_CGET_PTR("-async_fd", VerbsContext, ctx, struct ibv_context,
	    async_fd, VF_INT, NULL),
    VERBS_CGET_PTR("-num_comp_vectors", VerbsContext, ctx,
	    struct ibv_context, num_comp_vectors, VF_INT, NULL),
    VERBS_CGET_PROC("-node_type", ContextNodeType),
    VERBS_CGET_PROC("-transport_type", ContextTransportType),
    VERBS_CGET_PROC("-index", ContextIndex),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc ContextImportCmd, ContextOpenCmd;
static VerbsOpenProc OpenPlain;
static int	RegisterContext(Tcl_Interp *interp, struct ibv_context *ctx,
		    Tcl_Obj *nameObj);

static const VerbsCommand contextCommands[] = {
    {"import", ContextImportCmd}, {"open", ContextOpenCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * ContextNodeType, ContextTransportType, ContextIndex --
 *
 *	The device's node and transport types, as names; its kernel index
 *	(ibv_get_device_index: the number rdma tools and sysfs use, -1
 *	where the kernel does not say).
 *
 * Results:
 *	TCL_OK with *valuePtr set.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
ContextNodeType(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = VerbsEnumObj(verbsNodeType,
	    ((VerbsContext *) objPtr)->ctx->device->node_type);
    return TCL_OK;
}

static int
ContextTransportType(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = VerbsEnumObj(verbsTransportType,
	    ((VerbsContext *) objPtr)->ctx->device->transport_type);
    return TCL_OK;
}

static int
ContextIndex(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = Tcl_NewIntObj(ibv_get_device_index(
	    ((VerbsContext *) objPtr)->ctx->device));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * ContextFree --
 *
 *	Close the device once every object under it is gone (a context of
 *	librdmacm's stays open: librdmacm owns it).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_close_device.
 *
 *----------------------------------------------------------------------
 */

static void
ContextFree(
    VerbsObj *objPtr)
{
    VerbsContext *c = (VerbsContext *) objPtr;

    if (c->provider) {
	c->provider->free(c);
    }
    if (c->borrowed) {
	VerbsCmForgetContext(objPtr);
    } else {
	ibv_close_device(c->ctx);
    }
    ckfree(c->devName);
}

/*
 *----------------------------------------------------------------------
 *
 * ContextEvent --
 *
 *	The context's eventProc: read one asynchronous event and describe
 *	it as a dict: event_type, plus qp and qp_num, cq, srq, wq_handle
 *	or port_num for the events about those.  The event is
 *	acknowledged before any script sees it, so that a script may
 *	destroy the QP or CQ it names (destruction waits for the ack).
 *
 * Results:
 *	A standard Tcl result; *eventPtr is NULL when none is pending.
 *
 * Side effects:
 *	Consumes and acknowledges an event.
 *
 *----------------------------------------------------------------------
 */

static int
ContextEvent(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **eventPtr)
{
    struct ibv_async_event ev;
    Tcl_Obj *d;

    *eventPtr = NULL;
    if (ibv_get_async_event(((VerbsContext *) objPtr)->ctx, &ev) != 0) {
	if (errno == EAGAIN || errno == EINTR) {
	    return TCL_OK;
	}
	return VerbsSysError(interp, "ibv_get_async_event", objPtr, NULL,
		errno);
    }
    d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("event_type", -1),
	    VerbsEnumObj(verbsEventType, ev.event_type));
    switch (ev.event_type) {
    case IBV_EVENT_CQ_ERR:
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("cq", -1),
		VerbsObjName((VerbsObj *) ev.element.cq->cq_context));
	break;
    case IBV_EVENT_QP_FATAL: case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR: case IBV_EVENT_COMM_EST:
    case IBV_EVENT_SQ_DRAINED: case IBV_EVENT_PATH_MIG:
    case IBV_EVENT_PATH_MIG_ERR: case IBV_EVENT_QP_LAST_WQE_REACHED:
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("qp", -1),
		VerbsObjName((VerbsObj *) ev.element.qp->qp_context));
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("qp_num", -1),
		Tcl_NewWideIntObj(ev.element.qp->qp_num));
	break;
    case IBV_EVENT_SRQ_ERR: case IBV_EVENT_SRQ_LIMIT_REACHED:
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("srq", -1),
		VerbsObjName((VerbsObj *) ev.element.srq->srq_context));
	break;
    case IBV_EVENT_WQ_FATAL:
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("wq_handle", -1),
		Tcl_NewWideIntObj(ev.element.wq->handle));
	break;
    case IBV_EVENT_DEVICE_FATAL:
	break;
    default:
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("port_num", -1),
		Tcl_NewIntObj(ev.element.port_num));
	break;
    }
    ibv_ack_async_event(&ev);
    *eventPtr = d;
    return TCL_OK;
}

const VerbsType verbsContextClass = {
    .name = "context",
    .size = sizeof(VerbsContext),
    .methods = contextMethods,
    .cget = contextCget,
    .freeProc = ContextFree,
    .eventProc = ContextEvent,
    .commands = contextCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * ContextNotify, ContextWait --
 *
 *	$ctx notify ?script?: run "script EVENT" from the event loop for
 *	every asynchronous event of the device.  $ctx wait ?-timeout ms?:
 *	block for the next one.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	See VerbsNotify and VerbsWaitEvent.
 *
 *----------------------------------------------------------------------
 */

static int
ContextNotify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsNotify(interp, objPtr,
	    ((VerbsContext *) objPtr)->ctx->async_fd, objc, objv);
}

static int
ContextWait(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsWaitEvent(interp, objPtr,
	    ((VerbsContext *) objPtr)->ctx->async_fd, objc, objv);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsDevicesCmd --
 *
 *	verbs::devices ?-details?: the RDMA device names, or with -details
 *	a list of dicts (name node_guid node_type transport_type
 *	ibdev_path).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
VerbsDevicesCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const char *const opts[] = {"-details", NULL};
    struct ibv_device **list;
    Tcl_Obj *result;
    int i, n, index, details = 0;

    if (objc > 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "?-details?");
	return TCL_ERROR;
    }
    if (objc == 2) {
	if (Tcl_GetIndexFromObj(interp, objv[1], opts, "option", 0,
		&index) != TCL_OK) {
	    return TCL_ERROR;
	}
	details = 1;
    }
    list = ibv_get_device_list(&n);
    if (list == NULL) {
	/* No uverbs support at all in the kernel: that is "no devices". */
	if (errno == ENOSYS || errno == ENOENT) {
	    Tcl_ResetResult(interp);
	    return TCL_OK;
	}
	return VerbsSysError(interp, "ibv_get_device_list", NULL, NULL, errno);
    }
    result = Tcl_NewObj();
    for (i = 0; i < n; i++) {
	Tcl_Obj *v = Tcl_NewStringObj(ibv_get_device_name(list[i]), -1);

	if (details) {
	    Tcl_Obj *d = Tcl_NewDictObj();

	    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("name", -1), v);
	    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("node_guid", -1),
		    VerbsGuidObj(ibv_get_device_guid(list[i])));
	    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("node_type", -1),
		    VerbsEnumObj(verbsNodeType, list[i]->node_type));
	    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("transport_type", -1),
		    VerbsEnumObj(verbsTransportType, list[i]->transport_type));
	    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("ibdev_path", -1),
		    Tcl_NewStringObj(list[i]->ibdev_path, -1));
	    v = d;
	}
	Tcl_ListObjAppendElement(NULL, result, v);
    }
    ibv_free_device_list(list);
    Tcl_SetObjResult(interp, result);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsContextNew --
 *
 *	A context object for an open ibv_context (not yet registered).
 *	borrowed: the context is librdmacm's and is never closed here.
 *
 * Results:
 *	The new object.
 *
 * Side effects:
 *	Allocates.
 *
 *----------------------------------------------------------------------
 */

VerbsContext *
VerbsContextNew(
    struct ibv_context *ctx,
    int borrowed)
{
    VerbsContext *c = (VerbsContext *) VerbsObjNew(&verbsContextClass);
    const char *name = ibv_get_device_name(ctx->device);

    c->ctx = ctx;
    c->borrowed = borrowed;
    c->devName = ckalloc(strlen(name) + 1);
    strcpy(c->devName, name);
    return c;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsProviderAttach --
 *
 *	The provider's state on a context: attached (size bytes, zeroed)
 *	the first time the provider asks, so that the context calls the
 *	provider's free proc before the device closes.  A context has one
 *	provider.
 *
 * Results:
 *	The state, or NULL when another provider's state is attached.
 *
 * Side effects:
 *	May allocate.
 *
 *----------------------------------------------------------------------
 */

void *
VerbsProviderAttach(
    VerbsContext *c,
    const VerbsProvider *provider,
    size_t size)
{
    if (c->provider == NULL) {
	c->providerData = ckalloc(size);
	memset(c->providerData, 0, size);
	c->provider = provider;
    }
    return c->provider == provider ? c->providerData : NULL;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsProviderMethod --
 *
 *	[$ctx NAME subcommand ...]: the method of the provider NAME (the
 *	method's name, which the dispatcher may have matched by a prefix).
 *
 * Results:
 *	The provider method's.
 *
 * Side effects:
 *	The provider method's.
 *
 *----------------------------------------------------------------------
 */

int
VerbsProviderMethod(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    const VerbsProvider *const *p;
    const char *word = Tcl_GetString(objv[1]);

    for (p = verbsProviders; *p; p++) {
	if (strncmp((*p)->name, word, strlen(word)) == 0) {
	    return (*p)->method(interp, objPtr, objc, objv);
	}
    }
    Tcl_Panic("VerbsProviderMethod: no provider \"%s\"", word);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * ContextOpenCmd --
 *
 *	verbs::context open NAME ?-as NAME?
 *
 * Results:
 *	The context object command's name.
 *
 * Side effects:
 *	ibv_open_device.
 *
 *----------------------------------------------------------------------
 */

static int
ContextOpenCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    struct ibv_context *ctx;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_FIELD_END
    };
    VerbsCreateHead args = {NULL, NULL};

    if (VerbsCreateArgs(interp, objc, objv, "device", options, &args, NULL)
	    != TCL_OK || VerbsOpenDevice(interp, Tcl_GetString(objv[1]),
	    OpenPlain, NULL, &ctx) != TCL_OK) {
	return TCL_ERROR;
    }
    return RegisterContext(interp, ctx, args.command);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsOpenDevice, OpenPlain --
 *
 *	The device named name, opened by openProc (OpenPlain:
 *	ibv_open_device; a provider's constructor gives its own, which sets
 *	its own error); "no RDMA device named ..." when there is none.
 *
 * Results:
 *	A standard Tcl result; the open context in *ctxPtr.
 *
 * Side effects:
 *	Opens the device.
 *
 *----------------------------------------------------------------------
 */

static int
OpenPlain(
    Tcl_Interp *interp,
    struct ibv_device *dev,
    void *clientData VERBS_UNUSED,
    struct ibv_context **ctxPtr)
{
    *ctxPtr = ibv_open_device(dev);
    if (*ctxPtr == NULL) {
	return VerbsSysError(interp, "ibv_open_device", NULL,
		ibv_get_device_name(dev), errno);
    }
    return TCL_OK;
}

int
VerbsOpenDevice(
    Tcl_Interp *interp,
    const char *name,
    VerbsOpenProc *openProc,
    void *clientData,
    struct ibv_context **ctxPtr)
{
    struct ibv_device **list;
    int i, n, result;

    list = ibv_get_device_list(&n);
    if (list == NULL) {
	if (errno != ENOSYS && errno != ENOENT) {
	    return VerbsSysError(interp, "ibv_get_device_list", NULL, NULL,
		    errno);
	}
	n = 0;
    }
    for (i = 0; i < n; i++) {
	if (strcmp(ibv_get_device_name(list[i]), name) == 0) {
	    break;
	}
    }
    if (i == n) {
	if (list) {
	    ibv_free_device_list(list);
	}
	Tcl_SetObjResult(interp, Tcl_ObjPrintf(
		"no RDMA device named \"%s\"", name));
	Tcl_SetErrorCode(interp, "VERBS", "LOOKUP", "device", name, NULL);
	return TCL_ERROR;
    }
    result = openProc(interp, list[i], clientData, ctxPtr);
    ibv_free_device_list(list);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * RegisterContext --
 *
 *	Give an open device context its object (a root of the tree).
 *
 * Results:
 *	A standard Tcl result, the object's name.
 *
 * Side effects:
 *	Creates a command; closes the context when that fails.
 *
 *----------------------------------------------------------------------
 */

static int
RegisterContext(
    Tcl_Interp *interp,
    struct ibv_context *ctx,
    Tcl_Obj *nameObj)
{
    VerbsContext *c = VerbsContextNew(ctx, 0);

    if (VerbsSetNonBlocking(interp, ctx->async_fd) != TCL_OK
	    || VerbsObjRegister(interp, &c->obj, NULL, nameObj) != TCL_OK) {
	ContextFree(&c->obj);
	ckfree(c);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * ContextImportCmd --
 *
 *	verbs::context import FD ?-as NAME?: a context on the device
 *	context whose command fd is FD (ibv_import_device), e.g. one
 *	another process passed over a Unix socket, or [$ctx cget -fd] of
 *	this one.  The fd is duplicated first: closing the new context
 *	closes the copy, and FD stays the caller's.  Objects of the other
 *	context are then reached with verbs::pd import, verbs::mr import
 *	and verbs::dm import by their handles.
 *
 * Results:
 *	The context object command's name.
 *
 * Side effects:
 *	dup, ibv_import_device.
 *
 *----------------------------------------------------------------------
 */

static int
ContextImportCmd(
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
    struct ibv_context *ctx;
    uint64_t fd;
    int copy, err;

    if (VerbsCreateArgs(interp, objc, objv, "fd", options, &args, NULL)
	    != TCL_OK
	    || VerbsGetUInt(interp, "fd", objv[1], INT32_MAX, &fd) != TCL_OK) {
	return TCL_ERROR;
    }
    copy = fcntl((int) fd, F_DUPFD_CLOEXEC, 0);
    if (copy < 0) {
	return VerbsSysError(interp, "dup", NULL, Tcl_GetString(objv[1]),
		errno);
    }
    ctx = ibv_import_device(copy);
    if (ctx == NULL) {
	err = errno;
	close(copy);
	return VerbsSysError(interp, "ibv_import_device", NULL,
		Tcl_GetString(objv[1]), err);
    }
    return RegisterContext(interp, ctx, args.command);
}

/*
 *----------------------------------------------------------------------
 *
 * QueryGidTable --
 *
 *	$ctx query gid_table: every valid GID entry of every port
 *	(ibv_query_gid_table), as a list of gid_entry dicts.
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
QueryGidTable(
    Tcl_Interp *interp,
    VerbsObj *objPtr)
{
    struct ibv_context *ctx = ((VerbsContext *) objPtr)->ctx;
    struct ibv_device_attr dev;
    struct ibv_port_attr port;
    struct ibv_gid_entry *entries;
    size_t max = 0;
    ssize_t n, i;
    int p, err;
    Tcl_Obj *list;

    if ((err = ibv_query_device(ctx, &dev)) != 0) {
	return VerbsSysError(interp, "ibv_query_device", objPtr, NULL, err);
    }
    for (p = 1; p <= dev.phys_port_cnt; p++) {
	if ((err = ibv_query_port(ctx, (uint8_t) p, &port)) != 0) {
	    return VerbsSysError(interp, "ibv_query_port", objPtr, NULL, err);
	}
	max += (size_t) port.gid_tbl_len;
    }
    entries = (struct ibv_gid_entry *) ckalloc((max ? max : 1)
	    * sizeof(struct ibv_gid_entry));
    n = ibv_query_gid_table(ctx, entries, max, 0);
    if (n < 0) {
	ckfree(entries);
	return VerbsSysError(interp, "ibv_query_gid_table", objPtr, NULL,
		(int) -n);
    }
    list = Tcl_NewObj();
    for (i = 0; i < n; i++) {
	Tcl_ListObjAppendElement(NULL, list,
		VerbsStructToDict(&verbsGidEntryStruct, &entries[i]));
    }
    ckfree(entries);
    Tcl_SetObjResult(interp, list);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * QueryDevice, QueryDeviceEx, QueryRtValues, QueryPort, QueryGid,
 * QueryGidEntry, QueryPkey --
 *
 *	The queries of $ctx query, one each (QueryGidTable is above): the
 *	port and index are already parsed (objv[3] is the port's word).
 *
 * Results:
 *	A standard Tcl result: a complete dict (device, device_ex, port,
 *	gid_entry), rt_values' raw_clock, a GID, or a P_Key.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

typedef int (QueryProc)(Tcl_Interp *interp, VerbsObj *objPtr,
	Tcl_Obj *const objv[], uint64_t port, uint64_t idx);

#define QUERY_ARGS \
    Tcl_Interp *interp, VerbsObj *objPtr, \
    Tcl_Obj *const objv[] VERBS_UNUSED, uint64_t port VERBS_UNUSED, \
    uint64_t idx VERBS_UNUSED
#define CTX(o) (((VerbsContext *) (o))->ctx)

static int
QueryDevice(QUERY_ARGS)
{
    struct ibv_device_attr attr;
    int err = ibv_query_device(CTX(objPtr), &attr);

    if (err != 0) {
	return VerbsSysError(interp, "ibv_query_device", objPtr, NULL, err);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsDeviceAttrStruct,
	    &attr));
    return TCL_OK;
}

static int
QueryDeviceEx(QUERY_ARGS)
{
    struct ibv_device_attr_ex attr;
    int err;

    memset(&attr, 0, sizeof(attr));
    if ((err = ibv_query_device_ex(CTX(objPtr), NULL, &attr)) != 0) {
	return VerbsSysError(interp, "ibv_query_device_ex", objPtr, NULL,
		err);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsDeviceAttrExStruct,
	    &attr));
    return TCL_OK;
}

static int
QueryGidTableRow(QUERY_ARGS)
{
    return QueryGidTable(interp, objPtr);
}

static int
QueryRtValues(QUERY_ARGS)
{
    struct ibv_values_ex values;
    int err;

    memset(&values, 0, sizeof(values));
    values.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
    if ((err = ibv_query_rt_values_ex(CTX(objPtr), &values)) != 0) {
	return VerbsSysError(interp, "ibv_query_rt_values_ex", objPtr, NULL,
		err);
    }
    Tcl_SetObjResult(interp, Tcl_ObjPrintf("raw_clock %lld",
	    (long long) values.raw_clock.tv_sec * 1000000000LL
	    + values.raw_clock.tv_nsec));
    return TCL_OK;
}

static int
QueryPort(QUERY_ARGS)
{
    struct ibv_port_attr attr;
    int err = ibv_query_port(CTX(objPtr), (uint8_t) port, &attr);

    if (err != 0) {
	return VerbsSysError(interp, "ibv_query_port", objPtr,
		Tcl_GetString(objv[3]), err);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsPortAttrStruct, &attr));
    return TCL_OK;
}

static int
QueryGid(QUERY_ARGS)
{
    union ibv_gid gid;

    if (ibv_query_gid(CTX(objPtr), (uint8_t) port, (int) idx, &gid) != 0) {
	return VerbsSysError(interp, "ibv_query_gid", objPtr, NULL,
		errno ? errno : EINVAL);
    }
    Tcl_SetObjResult(interp, VerbsGidObj(&gid));
    return TCL_OK;
}

static int
QueryGidEntry(QUERY_ARGS)
{
    struct ibv_gid_entry entry;
    int err = ibv_query_gid_ex(CTX(objPtr), (uint32_t) port, (uint32_t) idx,
	    &entry, 0);

    if (err != 0) {
	return VerbsSysError(interp, "ibv_query_gid_ex", objPtr, NULL, err);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsGidEntryStruct,
	    &entry));
    return TCL_OK;
}

static int
QueryPkey(QUERY_ARGS)
{
    uint16_t pkey;

    if (ibv_query_pkey(CTX(objPtr), (uint8_t) port, (int) idx, &pkey) != 0) {
	return VerbsSysError(interp, "ibv_query_pkey", objPtr, NULL,
		errno ? errno : EINVAL);
    }
    Tcl_SetObjResult(interp, Tcl_ObjPrintf("0x%04x", ntohs(pkey)));
    return TCL_OK;
}

#undef QUERY_ARGS
#undef CTX

/*
 *----------------------------------------------------------------------
 *
 * ContextQuery --
 *
 *	$ctx query device | device_ex | gid PORT INDEX | gid_entry PORT
 *	INDEX | gid_table | pkey PORT INDEX | port PORT | rt_values: one
 *	row each, with its arguments (a PORT, then an INDEX).
 *
 * Results:
 *	The query's.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
ContextQuery(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const struct QueryRow {
	const char *name;
	int nargs;		/* 0, 1 (PORT) or 2 (PORT INDEX). */
	QueryProc *proc;
    } queries[] = {
	{"device", 0, QueryDevice}, {"device_ex", 0, QueryDeviceEx},
	{"gid", 2, QueryGid}, {"gid_entry", 2, QueryGidEntry},
	{"gid_table", 0, QueryGidTableRow}, {"pkey", 2, QueryPkey},
	{"port", 1, QueryPort}, {"rt_values", 0, QueryRtValues},
	{NULL, 0, NULL}
    };
    static const char *const argNames[] = {"", " PORT", " PORT INDEX"};
    const struct QueryRow *q;
    int index;
    uint64_t port = 0, idx = 0;

    if (Tcl_GetIndexFromObjStruct(interp, objv[2], queries,
	    sizeof(queries[0]), "query", 0, &index) != TCL_OK) {
	return TCL_ERROR;
    }
    q = &queries[index];
    if (objc - 3 != q->nargs) {
	Tcl_Obj *usage = Tcl_ObjPrintf("%s%s", q->name, argNames[q->nargs]);

	Tcl_IncrRefCount(usage);
	Tcl_WrongNumArgs(interp, 2, objv, Tcl_GetString(usage));
	Tcl_DecrRefCount(usage);
	return TCL_ERROR;
    }
    if (q->nargs >= 1 && VerbsGetUInt(interp, "port", objv[3], 255, &port)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (q->nargs == 2 && VerbsGetUInt(interp, "index", objv[4], INT32_MAX,
	    &idx) != TCL_OK) {
	return TCL_ERROR;
    }
    return q->proc(interp, objPtr, objv, port, idx);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsForkInitCmd, VerbsForkStatusCmd --
 *
 *	verbs::fork_init: make registered memory safe across fork()
 *	(ibv_fork_init; call it before any memory is registered).
 *	verbs::fork_status: what libibverbs does about fork, as
 *	ibv_is_fork_initialized says: disabled, enabled or unneeded (the
 *	kernel copes by itself).
 *
 * Results:
 *	Both return the status name.
 *
 * Side effects:
 *	fork_init changes how libibverbs registers memory.
 *
 *----------------------------------------------------------------------
 */

static const VerbsEnum forkStatus[] = {
    {"disabled", IBV_FORK_DISABLED},
    {"enabled", IBV_FORK_ENABLED},
    {"unneeded", IBV_FORK_UNNEEDED},
    {NULL, 0}
};

int
VerbsForkInitCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    int err;

    if (objc != 1) {
	Tcl_WrongNumArgs(interp, 1, objv, NULL);
	return TCL_ERROR;
    }
    if ((err = ibv_fork_init()) != 0) {
	return VerbsSysError(interp, "ibv_fork_init", NULL, NULL, err);
    }
    Tcl_SetObjResult(interp, VerbsEnumObj(forkStatus,
	    ibv_is_fork_initialized()));
    return TCL_OK;
}

int
VerbsForkStatusCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    if (objc != 1) {
	Tcl_WrongNumArgs(interp, 1, objv, NULL);
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, VerbsEnumObj(forkStatus,
	    ibv_is_fork_initialized()));
    return TCL_OK;
}
