/*
 * verbsDm.c --
 *
 *	Device memory: [verbs::dm create CONTEXT -length N] allocates memory
 *	on the device (ibv_alloc_dm), which the dm object reads and writes
 *	with ibv_memcpy_from_dm / ibv_memcpy_to_dm and which [verbs::mr
 *	create PD -dm DM] registers.  [verbs::dm import CONTEXT HANDLE]
 *	takes another context's device memory (ibv_import_dm).  [$dm
 *	export_dmabuf_fd] gives it to other drivers and processes as a
 *	dma-buf (rdma-core 62 and later; built against an older libibverbs
 *	the method refuses with EOPNOTSUPP).
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <string.h>

static VerbsMethodProc DmExportDmabufFd, DmRead, DmWrite;

static const VerbsMethod dmMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"export_dmabuf_fd", DmExportDmabufFd, 0, 0, ""},
    {"read", DmRead, 2, 2, "offset length"},
    {"write", DmWrite, 2, 2, "offset bytes"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField dmCget[] = {
    VERBS_CGET("-length", VerbsDm, length, VF_UINT, NULL),
    VERBS_CGET_PTR("-handle", VerbsDm, dm, struct ibv_dm, handle, VF_UINT,
	    NULL),
    VERBS_CGET("-imported", VerbsDm, imported, VF_BOOL, NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc DmAllocCmd, DmImportCmd;

static const VerbsCommand dmCommands[] = {
    {"alloc", DmAllocCmd}, {"create", DmAllocCmd}, {"import", DmImportCmd},
    {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * DmFree --
 *
 *	Destruction once no MR uses the memory: ibv_free_dm, or for
 *	imported memory ibv_unimport_dm (the owner frees it).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Frees or unimports the device memory.
 *
 *----------------------------------------------------------------------
 */

static void
DmFree(
    VerbsObj *objPtr)
{
    VerbsDm *d = (VerbsDm *) objPtr;

    if (d->imported) {
	ibv_unimport_dm(d->dm);
    } else {
	ibv_free_dm(d->dm);
    }
}

const VerbsType verbsDmClass = {
    .name = "dm",
    .size = sizeof(VerbsDm),
    .methods = dmMethods,
    .cget = dmCget,
    .freeProc = DmFree,
    .commands = dmCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * NewDm --
 *
 *	Give device memory its object under the context.
 *
 * Results:
 *	A standard Tcl result, the object's name.
 *
 * Side effects:
 *	Creates a command; frees (or unimports) the memory when that fails.
 *
 *----------------------------------------------------------------------
 */

static int
NewDm(
    Tcl_Interp *interp,
    VerbsObj *ctx,
    struct ibv_dm *dm,
    size_t length,
    int imported,
    Tcl_Obj *nameObj)
{
    VerbsDm *d = (VerbsDm *) VerbsObjNew(&verbsDmClass);

    d->dm = dm;
    d->length = length;
    d->imported = imported;
    if (VerbsObjRegister(interp, &d->obj, ctx, nameObj) != TCL_OK) {
	DmFree(&d->obj);
	ckfree(d);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * DmAllocCmd, DmImportCmd --
 *
 *	verbs::dm create (or alloc) CONTEXT -length N ?-log_align_req N?
 *		?-as NAME?
 *	verbs::dm import CONTEXT HANDLE ?-as NAME?
 *
 * Results:
 *	The dm object command's name.
 *
 * Side effects:
 *	ibv_alloc_dm, ibv_import_dm.
 *
 *----------------------------------------------------------------------
 */

static int
DmAllocCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t length;
	uint32_t log_align_req;
    } DmArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_REQUIRED(DmArgs, length, VF_UINT, NULL, INT32_MAX,
		"bytes:the size of the device memory in bytes"),
	VERBS_OPTION(DmArgs, log_align_req, VF_UINT, NULL, "n"),
	VERBS_FIELD_END
    };
    DmArgs args = {{NULL, NULL}, 0, 0};
    struct ibv_alloc_dm_attr attr;
    struct ibv_dm *dm;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK
	    || VerbsCheckLength(interp, "-length", args.length) != TCL_OK) {
	return TCL_ERROR;
    }
    memset(&attr, 0, sizeof(attr));
    attr.length = (size_t) args.length;
    attr.log_align_req = args.log_align_req;
    dm = ibv_alloc_dm(((VerbsContext *) args.head.parent)->ctx, &attr);
    if (dm == NULL) {
	return VerbsSysError(interp, "ibv_alloc_dm", args.head.parent, NULL,
		errno);
    }
    return NewDm(interp, args.head.parent, dm, attr.length, 0,
	    args.head.command);
}

static int
DmImportCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsCreateHead args = {NULL, NULL};
    uint32_t handle;
    struct ibv_dm *dm;

    if (VerbsImportArgs(interp, objc, objv, "context handle",
	    &verbsContextClass, &args, &handle) != TCL_OK) {
	return TCL_ERROR;
    }
    dm = ibv_import_dm(((VerbsContext *) args.parent)->ctx,
	    handle);
    if (dm == NULL) {
	return VerbsSysError(interp, "ibv_import_dm", args.parent, NULL,
		errno);
    }
    return NewDm(interp, args.parent, dm, 0, 1, args.command);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsDmRead, VerbsDmWrite, DmRead, DmWrite --
 *
 *	Copy between device memory and Tcl byte arrays (ibv_memcpy_from_dm,
 *	ibv_memcpy_to_dm); the Verbs* forms serve the MRs registered on
 *	it too.  $dm read OFFSET LENGTH, $dm write OFFSET BYTES.
 *
 * Results:
 *	A standard Tcl result; read returns the bytes.
 *
 * Side effects:
 *	write changes the device memory.
 *
 *----------------------------------------------------------------------
 */

int
VerbsDmRead(
    Tcl_Interp *interp,
    VerbsDm *d,
    uint64_t off,
    size_t len)
{
    Tcl_Obj *bytes = Tcl_NewByteArrayObj(NULL, 0);
    unsigned char *p = Tcl_SetByteArrayLength(bytes, (Tcl_Size) len);
    int err;

    if (len > 0 && (err = ibv_memcpy_from_dm(p, d->dm, off, len)) != 0) {
	Tcl_DecrRefCount(bytes);
	return VerbsSysError(interp, "ibv_memcpy_from_dm", &d->obj, NULL,
		err > 0 ? err : errno);
    }
    Tcl_SetObjResult(interp, bytes);
    return TCL_OK;
}

int
VerbsDmWrite(
    Tcl_Interp *interp,
    VerbsDm *d,
    uint64_t off,
    const unsigned char *bytes,
    size_t len)
{
    int err;

    if (len > 0 && (err = ibv_memcpy_to_dm(d->dm, off, bytes, len)) != 0) {
	return VerbsSysError(interp, "ibv_memcpy_to_dm", &d->obj, NULL,
		err > 0 ? err : errno);
    }
    return TCL_OK;
}

/*
 * The size that bounds $dm read/write: the memory's length, when it is
 * known; for imported memory the device checks, and a read or write
 * stays below 2 GiB (the largest byte array of Tcl 8.6).
 */

#define DM_SIZE(d) ((d)->imported ? INT32_MAX : (d)->length)

static int
DmRead(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    VerbsDm *d = (VerbsDm *) objPtr;
    uint64_t off, len;

    if (VerbsGetRange(interp, objPtr, DM_SIZE(d), objv[2], objv[3], &off,
	    &len) != TCL_OK) {
	return TCL_ERROR;
    }
    return VerbsDmRead(interp, d, off, (size_t) len);
}

static int
DmWrite(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    VerbsDm *d = (VerbsDm *) objPtr;
    const unsigned char *bytes;
    Tcl_Size n;
    uint64_t off;

    bytes = VerbsGetWrite(interp, objPtr, DM_SIZE(d), objv[2], objv[3], &off,
	    &n);
    if (bytes == NULL) {
	return TCL_ERROR;
    }
    return VerbsDmWrite(interp, d, off, bytes, (size_t) n);
}

/*
 *----------------------------------------------------------------------
 *
 * DmExportDmabufFd --
 *
 *	$dm export_dmabuf_fd: the device memory as a dma-buf, a new
 *	channel holding its file descriptor (ibv_dm_export_dmabuf_fd;
 *	close the channel to close the fd).  Nothing ties the channel to
 *	the dm here: either may be closed first, and what the fd still
 *	refers to then is the kernel's to keep valid.
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
DmExportDmabufFd(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
#ifdef HAVE_IBV_DM_EXPORT_DMABUF_FD
    return VerbsDmabufChannel(interp, "ibv_dm_export_dmabuf_fd", objPtr,
	    ibv_dm_export_dmabuf_fd(((VerbsDm *) objPtr)->dm));
#else
    return VerbsSysError(interp, "ibv_dm_export_dmabuf_fd", objPtr,
	    "needs rdma-core 62 or later", EOPNOTSUPP);
#endif
}
