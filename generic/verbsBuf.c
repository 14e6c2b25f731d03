/*
 * verbsBuf.c --
 *
 *	Buffers the provider allocates (ibv_alloc_buf, rdma-core 64 and
 *	later): memory for MRs allocated the way the device needs it (on a
 *	confidential-computing guest, shared with the host through a
 *	parent domain; elsewhere ordinary pages).  verbs::buf create makes
 *	one on a pd; verbs::mr create -buf registers all or part of it.
 *	Each MR on a buffer holds it: closing the buffer's command frees the
 *	memory only when its last MR is gone.  Built against an older
 *	libibverbs, the constructor checks its arguments and refuses with
 *	EOPNOTSUPP.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>

static Tcl_ObjCmdProc BufCreateCmd;
static VerbsMethodProc BufExportDmabufFd;
static VerbsGetProc BufAddr;

static const VerbsMethod bufMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"export_dmabuf_fd", BufExportDmabufFd, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField bufCget[] = {
    VERBS_CGET_PROC("-addr", BufAddr),
    VERBS_CGET("-size", VerbsBuf, size, VF_UINT, NULL),
    VERBS_CGET_PARENT("-pd"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static const VerbsCommand bufCommands[] = {
    {"create", BufCreateCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * BufFree --
 *
 *	Free the buffer (ibv_free_buf), once no MR holds it.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	The memory goes back to the provider.
 *
 *----------------------------------------------------------------------
 */

static void
BufFree(
    VerbsObj *objPtr)
{
#ifdef HAVE_IBV_ALLOC_BUF
    ibv_free_buf((struct ibv_buf *) ((VerbsBuf *) objPtr)->buf);
#else
    (void) objPtr;
#endif
}

const VerbsType verbsBufClass = {
    .name = "buf",
    .size = sizeof(VerbsBuf),
    .methods = bufMethods,
    .cget = bufCget,
    .freeProc = BufFree,
    .commands = bufCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * BufAddr --
 *
 *	The -addr cget option: where the buffer starts, the address an MR
 *	on all of it has.
 *
 * Results:
 *	TCL_OK; the address in *valuePtr.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
BufAddr(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = Tcl_NewWideIntObj((Tcl_WideInt) (uintptr_t)
	    ((VerbsBuf *) objPtr)->addr);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * BufCreateCmd --
 *
 *	verbs::buf create PD -size N ?-as NAME?: SIZE bytes from the
 *	provider's allocator for PD (ibv_alloc_buf), at least page
 *	aligned.
 *
 * Results:
 *	The buf object command's name.
 *
 * Side effects:
 *	ibv_alloc_buf.
 *
 *----------------------------------------------------------------------
 */

static int
BufCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t size;
    } BufArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_REQUIRED(BufArgs, size, VF_UINT, NULL, INT32_MAX,
		"bytes:the size of the buffer in bytes"),
	VERBS_FIELD_END
    };
    BufArgs args = {{NULL, NULL}, 0};
    VerbsPd *p;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &args,
	    &verbsPdClass) != TCL_OK
	    || VerbsCheckLength(interp, "-size", args.size) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.head.parent;
#ifdef HAVE_IBV_ALLOC_BUF
    {
	struct ibv_buf *handle = NULL;
	void *addr = ibv_alloc_buf(p->pd, (size_t) args.size, &handle);
	VerbsBuf *b;

	if (addr == NULL) {
	    return VerbsSysError(interp, "ibv_alloc_buf", &p->obj, NULL,
		    errno);
	}
	b = (VerbsBuf *) VerbsObjWrap(interp, &verbsBufClass,
		offsetof(VerbsBuf, buf), handle, &p->obj, args.head.command);
	if (b == NULL) {
	    return TCL_ERROR;
	}
	b->addr = (unsigned char *) addr;
	b->size = (size_t) args.size;
	return TCL_OK;
    }
#else
    return VerbsSysError(interp, "ibv_alloc_buf", &p->obj,
	    "needs rdma-core 64 or later", EOPNOTSUPP);
#endif
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsDmabufChannel --
 *
 *	What an export of a dma-buf returned (ibv_export_buf_dmabuf_fd,
 *	ibv_dm_export_dmabuf_fd: the fd, or -1 with errno): the fd as a
 *	new readable channel of the interpreter, whose close closes it, or
 *	the error of CALL on objPtr.
 *
 * Results:
 *	A standard Tcl result, the channel's name.
 *
 * Side effects:
 *	Registers a channel.
 *
 *----------------------------------------------------------------------
 */

int
VerbsDmabufChannel(
    Tcl_Interp *interp,
    const char *call,
    VerbsObj *objPtr,
    int fd)
{
    Tcl_Channel chan;

    if (fd < 0) {
	return VerbsSysError(interp, call, objPtr, NULL, errno);
    }
    chan = Tcl_MakeFileChannel((ClientData) (intptr_t) fd, TCL_READABLE);
    Tcl_RegisterChannel(interp, chan);
    Tcl_SetObjResult(interp, Tcl_NewStringObj(Tcl_GetChannelName(chan), -1));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * BufExportDmabufFd --
 *
 *	$buf export_dmabuf_fd: the dma-buf behind the buffer, as a new
 *	channel holding its file descriptor (ibv_export_buf_dmabuf_fd;
 *	close the channel to close the fd).  A buffer of ordinary memory
 *	has none: ENODATA.
 *
 * Results:
 *	The channel's name.
 *
 * Side effects:
 *	Opens a file descriptor.
 *
 *----------------------------------------------------------------------
 */

static int
BufExportDmabufFd(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
#ifdef HAVE_IBV_ALLOC_BUF
    return VerbsDmabufChannel(interp, "ibv_export_buf_dmabuf_fd", objPtr,
	    ibv_export_buf_dmabuf_fd(
	    (struct ibv_buf *) ((VerbsBuf *) objPtr)->buf));
#else
    return VerbsSysError(interp, "ibv_export_buf_dmabuf_fd", objPtr,
	    "needs rdma-core 64 or later", EOPNOTSUPP);
#endif
}
