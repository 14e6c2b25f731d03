/*
 * verbsMr.c --
 *
 *	Memory regions: [verbs::mr create] registers a page-aligned buffer
 *	that the MR owns; the mr object command reads and writes it.
 *	Memory windows: [verbs::mw create], bound to an MR with [$qp
 *	bind_mw] (type 1) or a bind_mw work request (type 2).
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_verbs.h>

/*
 * ------------------------------------------------------------------------
 * The names and struct tables of memory access: the rows with which the
 * attribute dict engine (verbsAttr.c) reads and writes these C structs.
 * ------------------------------------------------------------------------
 */

/*
 * Values that newer rdma-core or kernel headers name and older ones do not:
 * named here so that the tables are the same against every rdma-core.
 */

#define VERBS_ACCESS_FLUSH_GLOBAL	(1 << 8)
#define VERBS_ACCESS_FLUSH_PERSISTENT	(1 << 9)

const VerbsEnum verbsAccessFlags[] = {
    {"local_write", IBV_ACCESS_LOCAL_WRITE},
    {"remote_write", IBV_ACCESS_REMOTE_WRITE},
    {"remote_read", IBV_ACCESS_REMOTE_READ},
    {"remote_atomic", IBV_ACCESS_REMOTE_ATOMIC},
    {"mw_bind", IBV_ACCESS_MW_BIND},
    {"zero_based", IBV_ACCESS_ZERO_BASED},
    {"on_demand", IBV_ACCESS_ON_DEMAND},
    {"hugetlb", IBV_ACCESS_HUGETLB},
    {"flush_global", VERBS_ACCESS_FLUSH_GLOBAL},
    {"flush_persistent", VERBS_ACCESS_FLUSH_PERSISTENT},
    {"relaxed_ordering", IBV_ACCESS_RELAXED_ORDERING},
    {NULL, 0}
};


static VerbsMethodProc MrRead, MrRereg, MrWrite, MrFill;

static const VerbsMethod mrMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"fill", MrFill, 1, 3, "byte ?offset? ?length?"},
    {"read", MrRead, 2, 2, "offset length"},
    {"rereg", MrRereg, 0, 4, "?-access flags? ?-pd pd?"},
    {"write", MrWrite, 2, 2, "offset bytes"},
    {NULL, NULL, 0, 0, NULL}
};

static VerbsGetProc MrAddr;

static const VerbsField mrCget[] = {
    VERBS_CGET_PROC("-addr", MrAddr),
    VERBS_CGET("-length", VerbsMr, length, VF_UINT, NULL),
    VERBS_CGET_PTR("-lkey", VerbsMr, mr, struct ibv_mr, lkey, VF_UINT, NULL),
    VERBS_CGET_PTR("-handle", VerbsMr, mr, struct ibv_mr, handle, VF_UINT,
	    NULL),
    VERBS_CGET_PTR("-rkey", VerbsMr, mr, struct ibv_mr, rkey, VF_UINT, NULL),
    VERBS_CGET("-access", VerbsMr, access, VF_FLAGS, verbsAccessFlags),
    VERBS_CGET("-dm", VerbsMr, dm, VF_OBJ, NULL),
    VERBS_CGET("-imported", VerbsMr, imported, VF_BOOL, NULL),
    VERBS_CGET_PROC("-pd", VerbsMrPd),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc MrCreateCmd, MrDmabufCmd, MrImplicitCmd, MrImportCmd,
	MrNullCmd,
	MwCreateCmd;
static int	DmMrNew(Tcl_Interp *interp, VerbsPd *p, VerbsDm *d,
		    uint64_t offset, size_t length, int access,
		    Tcl_Obj *nameObj);

/*
 * What ibv_reg_mr_ex is asked to register (MrRegEx): the address (with
 * hasAddr, which an implicit MR gives as NULL), an IOVA unless NO_IOVA, a
 * dma-buf's fd (unless -1) and offset, a DMA handle and a buffer of the
 * provider's where given.
 */

typedef struct {
    void *addr;
    int hasAddr;
    size_t length;
    int access;
    uint64_t iova;
    int fd;
    uint64_t fdOffset;
    VerbsDmah *dmah;
    VerbsBuf *buf;
} MrExSpec;

static int	MrOwnNew(Tcl_Interp *interp, VerbsPd *p, VerbsObj *parent,
		    size_t length, int access, Tcl_Obj *nameObj,
		    VerbsMr **mrPtr, uint64_t iova, int ex, VerbsDmah *dmah);
static VerbsGetProc MrAddr;

static const VerbsCommand mrCommands[] = {
    {"create", MrCreateCmd}, {"dmabuf", MrDmabufCmd},
    {"implicit", MrImplicitCmd}, {"import", MrImportCmd},
    {"null", MrNullCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * VerbsMrPdOf, VerbsMrPd --
 *
 *	The MR's protection domain: its parent, or its pool's; VerbsMrPd
 *	is the -pd cget option.
 *
 * Results:
 *	VerbsMrPdOf: the pd.  VerbsMrPd: TCL_OK with its name in
 *	*valuePtr.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

VerbsPd *
VerbsMrPdOf(
    VerbsMr *m)
{
    VerbsObj *p = m->obj.parent;

    while (p->typePtr != &verbsPdClass) {
	p = p->parent;
    }
    return (VerbsPd *) p;
}

int
VerbsMrPd(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = VerbsObjName(&VerbsMrPdOf((VerbsMr *) objPtr)->obj);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * MrFree --
 *
 *	Deregistration and release of the buffer.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_dereg_mr (rdma_dereg_mr for an MR an rdma_cm id registered),
 *	frees the buffer (not if the deregistration failed).
 *
 *----------------------------------------------------------------------
 */

static void
MrFree(
    VerbsObj *objPtr)
{
    VerbsMr *m = (VerbsMr *) objPtr;

    /*
     * If the device keeps the registration (it should not: windows hold
     * their MR), the memory stays too: it may still be written.
     */

    if (m->imported) {
	ibv_unimport_mr(m->mr);
    } else if ((m->cmReg ? rdma_dereg_mr(m->mr) : ibv_dereg_mr(m->mr)) == 0
	    && m->bufObj == NULL) {
	free(m->buf);
    }
    if (m->dm) {
	VerbsObjRelease(&m->dm->obj);
    }
    if (m->bufObj) {
	VerbsObjRelease(&m->bufObj->obj);
    }
    if (m->dmah) {
	VerbsObjRelease(&m->dmah->obj);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsMrBase, MrAddr --
 *
 *	The address work requests use for offset 0 of the MR: its own
 *	buffer, or for a DM, null or imported MR the start the device knows
 *	it by (0 for a DM MR, which is zero based; the owner's address for
 *	an imported one).  MrAddr is the -addr cget option.
 *
 * Results:
 *	The address.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

uint64_t
VerbsMrBase(
    VerbsMr *m)
{
    return m->hasIova ? m->iova : m->buf ? (uint64_t) (uintptr_t) m->buf
	    : m->dm ? 0 : (uint64_t) (uintptr_t) m->mr->addr;
}

static int
MrAddr(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = VerbsU64Obj(VerbsMrBase((VerbsMr *) objPtr));
    return TCL_OK;
}

const VerbsType verbsMrClass = {
    .name = "mr",
    .size = sizeof(VerbsMr),
    .methods = mrMethods,
    .cget = mrCget,
    .freeProc = MrFree,
    .commands = mrCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * MrLocal --
 *
 *	Whether this process can read and write the MR's memory: its own
 *	buffer, or device memory through the DM.  An imported MR's memory
 *	is the owner's, a dma-buf MR's the exporter's, a null MR has none.
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
MrLocal(
    Tcl_Interp *interp,
    VerbsMr *m)
{
    Tcl_Obj *name;

    if (m->buf || m->dm || m->length == 0) {
	return TCL_OK;
    }
    name = VerbsObjName(&m->obj);
    Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s is not memory of this "
	    "process (an imported or dma-buf region)", Tcl_GetString(name)));
    Tcl_SetErrorCode(interp, "VERBS", "ARG", "mr", Tcl_GetString(name),
	    NULL);
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * MrUsable, VerbsMrRange --
 *
 *	An MR is unusable after a failed rereg.  VerbsMrRange checks that
 *	OFFSET and LENGTH words name a range inside a usable MR
 *	(VerbsGetRange); the error names the word at fault.
 *
 * Results:
 *	A standard Tcl result; the offset and length on success.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
MrUsable(
    Tcl_Interp *interp,
    VerbsMr *m)
{
    Tcl_Obj *name;

    if (m->unusable) {
	name = VerbsObjName(&m->obj);
	Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s is unusable after a failed "
		"rereg: close it", Tcl_GetString(name)));
	Tcl_SetErrorCode(interp, "VERBS", "ARG", "mr", Tcl_GetString(name),
		NULL);
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    return TCL_OK;
}

int
VerbsMrRange(
    Tcl_Interp *interp,
    VerbsMr *m,
    Tcl_Obj *offsetObj,
    Tcl_Obj *lengthObj,
    size_t *offsetPtr,
    size_t *lengthPtr)
{
    uint64_t off, len = *lengthPtr;

    if (MrUsable(interp, m) != TCL_OK || VerbsGetRange(interp, &m->obj,
	    m->length, offsetObj, lengthObj, &off, &len) != TCL_OK) {
	return TCL_ERROR;
    }
    *offsetPtr = off;
    *lengthPtr = len;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsMrSge, VerbsParseSge --
 *
 *	The one parser of an SGE written {MR OFFSET LENGTH}: parts are its
 *	three words (VerbsMrSge, for a list already split), or valueObj the
 *	value of option KEY (VerbsParseSge, the VerbsSetProc of a
 *	VerbsSgeArg: "bad KEY "VALUE": must be {mr offset length}").  The
 *	range must lie inside the MR.  With keys (the SGEs of work
 *	requests) the first word may also name an object whose type has an
 *	sgeProc, which fills the SGE (*mrPtr is then NULL).
 *	VerbsMrHost: whether an MR's SGEs are addresses of its host buffer,
 *	which the CPU may read (not an MR made with -iova, nor one of device
 *	memory, imported or null: those the device alone reads).
 *
 * Results:
 *	A standard Tcl result; the MR in *mrPtr when mrPtr is not NULL.
 *
 * Side effects:
 *	Fills *sge, or the VerbsSgeArg.
 *
 *----------------------------------------------------------------------
 */

int
VerbsMrSge(
    Tcl_Interp *interp,
    Tcl_Obj *const parts[3],
    struct ibv_sge *sge,
    VerbsMr **mrPtr,
    int keys)			/* A provider's key may stand for the MR. */
{
    VerbsObj *o = VerbsObjFind(interp, parts[0]);
    VerbsMr *m;
    size_t off, len = 0;

    if (keys && o != NULL && o->typePtr->sgeProc != NULL) {
	if (mrPtr) {
	    *mrPtr = NULL;
	}
	return o->typePtr->sgeProc(interp, o, parts + 1, sge);
    }
    /* One lookup on the common path; VerbsObjGet for the error. */
    m = (o != NULL && o->typePtr == &verbsMrClass) ? (VerbsMr *) o
	    : (VerbsMr *) VerbsObjGet(interp, parts[0], &verbsMrClass);
    if (m == NULL || VerbsMrRange(interp, m, parts[1], parts[2], &off, &len)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    sge->addr = VerbsMrBase(m) + off;
    sge->length = (uint32_t) len;
    sge->lkey = m->mr->lkey;
    if (mrPtr) {
	*mrPtr = m;
    }
    return TCL_OK;
}

int
VerbsParseSge(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    void *memberPtr)		/* VerbsSgeArg. */
{
    VerbsSgeArg *a = (VerbsSgeArg *) memberPtr;
    Tcl_Obj **parts;
    Tcl_Size n;

    if (Tcl_ListObjGetElements(NULL, valueObj, &n, &parts) != TCL_OK
	    || n != 3) {
	return VerbsArgError(interp, key, valueObj,
		"bad %s \"%s\": must be {mr offset length}", key,
		Tcl_GetString(valueObj));
    }
    a->valueObj = valueObj;
    return VerbsMrSge(interp, parts, &a->sge, &a->mr, 0);
}

int
VerbsMrHost(
    const VerbsMr *m)
{
    return m->buf != NULL && !m->hasIova;
}

/*
 *----------------------------------------------------------------------
 *
 * MrRead, MrWrite, MrFill --
 *
 *	$mr read OFFSET LENGTH: the bytes as a byte array.
 *	$mr write OFFSET BYTES: copy a byte array in.
 *	$mr fill BYTE ?OFFSET? ?LENGTH?: set a range to one byte value.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	write and fill change the buffer.
 *
 *----------------------------------------------------------------------
 */

static int
MrRead(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    VerbsMr *m = (VerbsMr *) objPtr;
    size_t off, len = 0;

    if (VerbsMrRange(interp, m, objv[2], objv[3], &off, &len) != TCL_OK
	    || MrLocal(interp, m) != TCL_OK) {
	return TCL_ERROR;
    }
    if (m->dm) {
	return VerbsDmRead(interp, m->dm, m->dmOffset + off, len);
    }
    Tcl_SetObjResult(interp, Tcl_NewByteArrayObj(m->buf + off,
	    (Tcl_Size) len));
    return TCL_OK;
}

static int
MrWrite(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    VerbsMr *m = (VerbsMr *) objPtr;
    const unsigned char *bytes;
    uint64_t off;
    Tcl_Size n;

    if (MrUsable(interp, m) != TCL_OK) {
	return TCL_ERROR;
    }
    bytes = VerbsGetWrite(interp, objPtr, m->length, objv[2], objv[3], &off,
	    &n);
    if (bytes == NULL || MrLocal(interp, m) != TCL_OK) {
	return TCL_ERROR;
    }
    if (m->dm) {
	return VerbsDmWrite(interp, m->dm, m->dmOffset + off, bytes,
		(size_t) n);
    }
    if (n > 0) {
	memcpy(m->buf + off, bytes, (size_t) n);
    }
    return TCL_OK;
}

static int
MrFill(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsMr *m = (VerbsMr *) objPtr;
    uint64_t byte;
    size_t off = 0, len = 0;

    if (VerbsGetUInt(interp, "byte", objv[2], 255, &byte) != TCL_OK
	    || MrLocal(interp, m) != TCL_OK) {
	return TCL_ERROR;
    }
    if (objc > 3) {
	if (VerbsMrRange(interp, m, objv[3], objc > 4 ? objv[4] : NULL, &off,
		&len) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    if (objc <= 4) {
	len = m->length - off;
    }
    if (m->dm) {
	unsigned char *fill = (unsigned char *) ckalloc(len ? len : 1);
	int result;

	memset(fill, (int) byte, len);
	result = VerbsDmWrite(interp, m->dm, m->dmOffset + off, fill, len);
	ckfree(fill);
	return result;
    }
    if (len > 0) {
	memset(m->buf + off, (int) byte, len);
    }
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsMrNew --
 *
 *	Register a zeroed page-aligned buffer of LENGTH bytes, owned by the
 *	new MR, on the pd p, as an object under parent (the pd, or the
 *	pool that hands the buffer out).
 *
 * Results:
 *	A standard Tcl result, the object's name; the MR in *mrPtr (when
 *	not NULL).
 *
 * Side effects:
 *	Allocates and registers memory; creates a command.
 *
 *----------------------------------------------------------------------
 */

int
VerbsMrNew(
    Tcl_Interp *interp,
    VerbsPd *p,
    VerbsObj *parent,
    size_t length,
    int access,
    Tcl_Obj *nameObj,
    VerbsMr **mrPtr,
    uint64_t iova)		/* NO_IOVA: the buffer's address. */
{
    return MrOwnNew(interp, p, parent, length, access, nameObj, mrPtr, iova,
	    0, NULL);
}

/*
 *----------------------------------------------------------------------
 *
 * MrRegEx --
 *
 *	ibv_reg_mr_ex (rdma-core 59 and later) of what s describes: each
 *	part given sets its bit of the comp_mask.  Built against an older
 *	libibverbs, a refusal.
 *
 * Results:
 *	A standard Tcl result; the MR in *mrPtr.
 *
 * Side effects:
 *	Registers the memory.
 *
 *----------------------------------------------------------------------
 */

static int
MrRegEx(
    Tcl_Interp *interp,
    VerbsPd *p,
    const MrExSpec *s,
    struct ibv_mr **mrPtr)
{
#ifdef HAVE_IBV_REG_MR_EX
    struct ibv_mr_init_attr in;

    memset(&in, 0, sizeof(in));
    in.length = s->length;
    in.access = s->access;
    if (s->hasAddr) {
	in.comp_mask |= IBV_REG_MR_MASK_ADDR;
	in.addr = s->addr;
    }
    if (s->iova != NO_IOVA) {
	in.comp_mask |= IBV_REG_MR_MASK_IOVA;
	in.iova = s->iova;
    }
    if (s->fd >= 0) {
	in.comp_mask |= IBV_REG_MR_MASK_FD | IBV_REG_MR_MASK_FD_OFFSET;
	in.fd = s->fd;
	in.fd_offset = s->fdOffset;
    }
    if (s->dmah) {
	in.comp_mask |= IBV_REG_MR_MASK_DMAH;
	in.dmah = (struct ibv_dmah *) s->dmah->dmah;
    }
#ifdef HAVE_IBV_ALLOC_BUF
    if (s->buf) {
	in.comp_mask |= IBV_REG_MR_MASK_BUF;
	in.buf = (struct ibv_buf *) s->buf->buf;
    }
#endif
    *mrPtr = ibv_reg_mr_ex(p->pd, &in);
    if (*mrPtr == NULL) {
	return VerbsSysError(interp, "ibv_reg_mr_ex", &p->obj, NULL, errno);
    }
    return TCL_OK;
#else
    (void) s;
    *mrPtr = NULL;
    return VerbsSysError(interp, "ibv_reg_mr_ex", &p->obj,
	    "needs rdma-core 59 or later", EOPNOTSUPP);
#endif
}

/*
 *----------------------------------------------------------------------
 *
 * MrHold --
 *
 *	An MR's references on the buffer and the DMA handle it was
 *	registered with.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Retains both (where given).
 *
 *----------------------------------------------------------------------
 */

static void
MrHold(
    VerbsMr *m,
    VerbsBuf *b,
    VerbsDmah *dmah)
{
    if (b) {
	m->bufObj = b;
	VerbsObjRetain(&b->obj);
    }
    if (dmah) {
	m->dmah = dmah;
	VerbsObjRetain(&dmah->obj);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * MrWrap --
 *
 *	The mr object of a registered region on BUF: the MR's own buffer
 *	(b NULL: freed with it), or a part of the provider's buffer b, which
 *	it holds, as it holds dmah.  The holds are taken first, so that a
 *	failed registration lets them go through MrFree.
 *
 * Results:
 *	A standard Tcl result; the object in *mrPtr (where not NULL).
 *
 * Side effects:
 *	Creates the command; on failure deregisters the MR.
 *
 *----------------------------------------------------------------------
 */

static int
MrWrap(
    Tcl_Interp *interp,
    struct ibv_mr *mr,
    unsigned char *buf,
    VerbsBuf *b,
    VerbsDmah *dmah,
    size_t length,
    int access,
    uint64_t iova,		/* NO_IOVA: the buffer's address. */
    VerbsObj *parent,
    Tcl_Obj *nameObj,
    VerbsMr **mrPtr)
{
    VerbsMr *m = (VerbsMr *) VerbsObjNew(&verbsMrClass);

    m->mr = mr;
    m->buf = buf;
    m->length = length;
    m->access = access;
    m->hasIova = iova != NO_IOVA;
    m->iova = m->hasIova ? iova : 0;
    MrHold(m, b, dmah);
    if (VerbsObjRegister(interp, &m->obj, parent, nameObj) != TCL_OK) {
	MrFree(&m->obj);
	ckfree(m);
	return TCL_ERROR;
    }
    if (mrPtr) {
	*mrPtr = m;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * MrAlloc --
 *
 *	The buffer of an MR of its own: LENGTH zeroed bytes, page-aligned
 *	and a whole number of pages long, freed with free().
 *
 * Results:
 *	A standard Tcl result; the buffer in *bufPtr.
 *
 * Side effects:
 *	Allocates memory.
 *
 *----------------------------------------------------------------------
 */

static int
MrAlloc(
    Tcl_Interp *interp,
    size_t length,
    void **bufPtr)
{
    long page = sysconf(_SC_PAGESIZE);
    int err;

    err = posix_memalign(bufPtr, (size_t) page,
	    (length + page - 1) / page * page);
    if (err) {
	return VerbsSysError(interp, "posix_memalign", NULL, NULL, err);
    }
    memset(*bufPtr, 0, length);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * MrOwnNew --
 *
 *	An MR on a zeroed page-aligned buffer of its own, registered with
 *	ibv_reg_mr (at IOVA with ibv_reg_mr_iova), or with ibv_reg_mr_ex
 *	when ex is set or a DMA handle is given.
 *
 * Results:
 *	A standard Tcl result; the object in *mrPtr.
 *
 * Side effects:
 *	Allocates and registers the buffer, creates the command.
 *
 *----------------------------------------------------------------------
 */

static int
MrOwnNew(
    Tcl_Interp *interp,
    VerbsPd *p,
    VerbsObj *parent,
    size_t length,
    int access,
    Tcl_Obj *nameObj,
    VerbsMr **mrPtr,
    uint64_t iova,		/* NO_IOVA: the buffer's address. */
    int ex,
    VerbsDmah *dmah)
{
    void *buf;
    struct ibv_mr *mr;
    int err;

    if (MrAlloc(interp, length, &buf) != TCL_OK) {
	return TCL_ERROR;
    }
    if (ex || dmah) {
	MrExSpec s = {buf, 1, length, access, iova, -1, 0, dmah, NULL};

	if (MrRegEx(interp, p, &s, &mr) != TCL_OK) {
	    free(buf);
	    return TCL_ERROR;
	}
    } else {
	/*
	 * The function, not verbs.h's macro of the same name (which turns
	 * into ibv_reg_mr_iova2): the same registration, through the entry
	 * point every rdma-core since 1.1 exports.
	 */

	if (iova == NO_IOVA) {
	    mr = (ibv_reg_mr)(p->pd, buf, length, access);
	} else {
	    mr = ibv_reg_mr_iova(p->pd, buf, length, iova, access);
	}
	if (mr == NULL) {
	    err = errno;
	    free(buf);
	    return VerbsSysError(interp, "ibv_reg_mr", &p->obj, NULL, err);
	}
    }
    return MrWrap(interp, mr, buf, NULL, dmah, length, access, iova, parent,
	    nameObj, mrPtr);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsMrCmNew --
 *
 *	$id reg_msgs, reg_read, reg_write: an MR on a zeroed page-aligned
 *	buffer of its own of LENGTH bytes, registered by librdmacm's helper
 *	of that kind (rdma_reg_msgs, rdma_reg_read, rdma_reg_write) on the
 *	PD of the id, which the caller checked is p, as an ordinary mr
 *	object of p.  It is deregistered with rdma_dereg_mr.  Its access
 *	flags are those the helper registers with: local_write, and
 *	remote_read or remote_write.
 *
 * Results:
 *	A standard Tcl result, the object's name.
 *
 * Side effects:
 *	Allocates and registers the buffer, creates the command.
 *
 *----------------------------------------------------------------------
 */

int
VerbsMrCmNew(
    Tcl_Interp *interp,
    VerbsPd *p,
    struct rdma_cm_id *id,
    VerbsCmReg kind,
    size_t length,
    Tcl_Obj *nameObj)
{
    static const struct {
	const char *call;
	int access;
    } regs[] = {
	{"rdma_reg_msgs", IBV_ACCESS_LOCAL_WRITE},
	{"rdma_reg_read", IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ},
	{"rdma_reg_write", IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE}
    };
    void *buf;
    struct ibv_mr *mr;
    VerbsMr *m;
    int err;

    if (MrAlloc(interp, length, &buf) != TCL_OK) {
	return TCL_ERROR;
    }
    switch (kind) {
    case VERBS_CM_REG_READ:
	mr = rdma_reg_read(id, buf, length);
	break;
    case VERBS_CM_REG_WRITE:
	mr = rdma_reg_write(id, buf, length);
	break;
    default:
	mr = rdma_reg_msgs(id, buf, length);
	break;
    }
    if (mr == NULL) {
	err = errno;
	free(buf);
	return VerbsSysError(interp, regs[kind].call, &p->obj, NULL, err);
    }

    /*
     * Should the name be taken, MrWrap's MrFree deregisters with
     * ibv_dereg_mr, which rdma_dereg_mr only wraps.
     */

    if (MrWrap(interp, mr, buf, NULL, NULL, length, regs[kind].access,
	    NO_IOVA, &p->obj, nameObj, &m) != TCL_OK) {
	return TCL_ERROR;
    }
    m->cmReg = 1;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * MrBufNew --
 *
 *	An MR on LENGTH bytes from OFFSET of a provider's buffer
 *	(ibv_reg_buf_mr; ibv_reg_mr_ex with the buffer when ex is set, an
 *	IOVA or a DMA handle is given), which holds the buffer.  Whether
 *	the range lies within the buffer and the buffer is the pd's is
 *	libibverbs' to check.
 *
 * Results:
 *	A standard Tcl result, the object's name.
 *
 * Side effects:
 *	Registers the memory, creates the command.
 *
 *----------------------------------------------------------------------
 */

static int
MrBufNew(
    Tcl_Interp *interp,
    VerbsPd *p,
    VerbsBuf *b,
    uint64_t offset,
    size_t length,
    int access,
    uint64_t iova,
    int ex,
    VerbsDmah *dmah,
    Tcl_Obj *nameObj)
{
    unsigned char *addr = (unsigned char *) ((uintptr_t) b->addr + offset);
    struct ibv_mr *mr = NULL;

    if (ex || dmah || iova != NO_IOVA) {
	MrExSpec s = {addr, 1, length, access, iova, -1, 0, dmah, b};

	if (MrRegEx(interp, p, &s, &mr) != TCL_OK) {
	    return TCL_ERROR;
	}
    } else {
#ifdef HAVE_IBV_ALLOC_BUF
	mr = ibv_reg_buf_mr(p->pd, (struct ibv_buf *) b->buf, addr, length,
		access);
#endif
	if (mr == NULL) {
	    return VerbsSysError(interp, "ibv_reg_buf_mr", &p->obj, NULL,
		    errno);
	}
    }
    return MrWrap(interp, mr, addr, b, dmah, length, access, iova, &p->obj,
	    nameObj, NULL);
}

/*
 *----------------------------------------------------------------------
 *
 * RegisterMr --
 *
 *	Give a registered (or imported) MR its object under the pd.
 *
 * Results:
 *	A standard Tcl result, the object's name.
 *
 * Side effects:
 *	Creates a command; on failure deregisters (or unimports) the MR.
 *
 *----------------------------------------------------------------------
 */

static int
RegisterMr(
    Tcl_Interp *interp,
    VerbsPd *p,
    struct ibv_mr *mr,
    VerbsDm *dm,
    uint64_t dmOffset,
    int imported,
    int access,
    VerbsDmah *dmah,
    Tcl_Obj *nameObj)
{
    VerbsMr *m = (VerbsMr *) VerbsObjNew(&verbsMrClass);

    m->mr = mr;
    m->length = mr->length;
    m->access = access;
    m->imported = imported;
    m->dmOffset = dmOffset;
    if (VerbsObjRegister(interp, &m->obj, &p->obj, nameObj) != TCL_OK) {
	MrFree(&m->obj);
	ckfree(m);
	return TCL_ERROR;
    }
    if (dm) {
	m->dm = dm;
	VerbsObjRetain(&dm->obj);
    }
    MrHold(m, NULL, dmah);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsMrAdopt --
 *
 *	An MR a provider registered (mlx5dv_reg_dmabuf_mr) as an mr object
 *	of its pd, as if verbs::mr had made it.
 *
 * Results:
 *	A standard Tcl result; on an error the MR is deregistered.
 *
 * Side effects:
 *	Creates the object command.
 *
 *----------------------------------------------------------------------
 */

int
VerbsMrAdopt(
    Tcl_Interp *interp,
    VerbsPd *p,
    struct ibv_mr *mr,
    int access,
    Tcl_Obj *nameObj)
{
    return RegisterMr(interp, p, mr, NULL, 0, 0, access, NULL, nameObj);
}

/*
 *----------------------------------------------------------------------
 *
 * DmMrNew, MrImportCmd --
 *
 *	verbs::mr create PD -dm DM ?-dm_offset OFF? -length N: an MR on
 *	device memory (ibv_reg_dm_mr, always zero based: work requests
 *	address it from 0), which holds a reference on its DM and reads
 *	and writes through it.
 *	verbs::mr import PD HANDLE: another context's MR (ibv_import_mr),
 *	whose memory is not this process's; closing it only unimports.
 *
 * Results:
 *	The mr object command's name.
 *
 * Side effects:
 *	ibv_reg_dm_mr, ibv_import_mr.
 *
 *----------------------------------------------------------------------
 */

static int
DmMrNew(
    Tcl_Interp *interp,
    VerbsPd *p,
    VerbsDm *d,
    uint64_t offset,
    size_t length,
    int access,
    Tcl_Obj *nameObj)
{
    struct ibv_mr *mr;

    if (d->obj.parent != p->obj.parent) {
	Tcl_Obj *name = VerbsObjName(&d->obj);

	VerbsArgError(interp, "-dm", name, "-dm \"%s\" is on another device "
		"context than the pd", Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    access |= IBV_ACCESS_ZERO_BASED;
    mr = ibv_reg_dm_mr(p->pd, d->dm, offset, length, (unsigned) access);
    if (mr == NULL) {
	return VerbsSysError(interp, "ibv_reg_dm_mr", &p->obj, NULL, errno);
    }
    return RegisterMr(interp, p, mr, d, offset, 0, access, NULL, nameObj);
}

static int
MrImportCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsCreateHead args = {NULL, NULL};
    uint32_t handle;
    struct ibv_mr *mr;
    VerbsPd *p;

    if (VerbsImportArgs(interp, objc, objv, "pd handle", &verbsPdClass, &args,
	    &handle) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.parent;
    mr = ibv_import_mr(p->pd, handle);
    if (mr == NULL) {
	return VerbsSysError(interp, "ibv_import_mr", &p->obj, NULL, errno);
    }
    return RegisterMr(interp, p, mr, NULL, 0, 1, 0, NULL, args.command);
}

/*
 *----------------------------------------------------------------------
 *
 * MrDmabufCmd --
 *
 *	verbs::mr dmabuf PD -fd FD -length N ?-offset OFF? ?-iova ADDR?
 *		?-access FLAGS? ?-as NAME?: an MR on LENGTH bytes from
 *	OFF of the dma-buf FD (ibv_reg_dmabuf_mr), memory another driver
 *	exports (a GPU's, udmabuf's).  Work requests address it from IOVA
 *	(default 0).  The fd stays the caller's; the memory is not this
 *	process's to read or write.
 *
 * Results:
 *	The mr object command's name.
 *
 * Side effects:
 *	ibv_reg_dmabuf_mr.
 *
 *----------------------------------------------------------------------
 */

static int
MrDmabufCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t access;
	VerbsObj *dmah;
	int ex;
	uint32_t fd;
	uint64_t iova, length, offset;
    } DmabufArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(DmabufArgs, access, VF_FLAGS, verbsAccessFlags, "flags"),
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(DmabufArgs, dmah, VF_OBJ, &verbsDmahClass, "dmah"),
	VERBS_OPTION(DmabufArgs, ex, VF_BOOL, NULL, "bool"),
	VERBS_OPTION_REQUIRED(DmabufArgs, fd, VF_UINT, NULL, INT32_MAX,
		"fd:the dma-buf file descriptor"),
	VERBS_OPTION(DmabufArgs, iova, VF_UINT, NULL, "addr"),
	VERBS_OPTION_REQUIRED(DmabufArgs, length, VF_UINT, NULL, INT32_MAX,
		"bytes:the size of the region in bytes"),
	VERBS_OPTION(DmabufArgs, offset, VF_UINT, NULL, "offset"),
	VERBS_FIELD_END
    };
    DmabufArgs args = {
	{NULL, NULL}, IBV_ACCESS_LOCAL_WRITE, NULL, 0, 0, 0, 0, 0
    };
    struct ibv_mr *mr;
    VerbsPd *p;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &args,
	    &verbsPdClass) != TCL_OK
	    || VerbsCheckLength(interp, "-length", args.length) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.head.parent;
    if (VerbsCheckOwner(interp, "-dmah", args.dmah, p->obj.parent,
	    "device context than the pd") != TCL_OK) {
	return TCL_ERROR;
    }
    if (args.ex || args.dmah) {
	MrExSpec s = {
	    NULL, 0, (size_t) args.length, (int) args.access, args.iova,
	    (int) args.fd, args.offset, (VerbsDmah *) args.dmah, NULL
	};

	if (MrRegEx(interp, p, &s, &mr) != TCL_OK) {
	    return TCL_ERROR;
	}
    } else {
	mr = ibv_reg_dmabuf_mr(p->pd, args.offset, (size_t) args.length,
		args.iova, (int) args.fd, (int) args.access);
	if (mr == NULL) {
	    return VerbsSysError(interp, "ibv_reg_dmabuf_mr", &p->obj, NULL,
		    errno);
	}
    }
    return RegisterMr(interp, p, mr, NULL, 0, 0, (int) args.access,
	    (VerbsDmah *) args.dmah, args.head.command);
}

/*
 *----------------------------------------------------------------------
 *
 * MrCreateCmd --
 *
 *	verbs::mr create PD -length N ?-access FLAGS? ?-as NAME?
 *
 * Results:
 *	The mr object command's name.
 *
 * Side effects:
 *	Allocates a zeroed page-aligned buffer and registers it.
 *
 *----------------------------------------------------------------------
 */

static int
MrCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t access;
	VerbsObj *buf;
	uint64_t buf_offset;
	VerbsObj *dm;
	uint64_t dm_offset;
	VerbsObj *dmah;
	int ex;
	uint64_t iova, length;
    } MrArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(MrArgs, access, VF_FLAGS, verbsAccessFlags, "flags"),
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(MrArgs, buf, VF_OBJ, &verbsBufClass, "buf"),
	VERBS_OPTION(MrArgs, buf_offset, VF_UINT, NULL, "offset"),
	VERBS_OPTION(MrArgs, dm, VF_OBJ, &verbsDmClass, "dm"),
	VERBS_OPTION(MrArgs, dm_offset, VF_UINT, NULL, "offset"),
	VERBS_OPTION(MrArgs, dmah, VF_OBJ, &verbsDmahClass, "dmah"),
	VERBS_OPTION(MrArgs, ex, VF_BOOL, NULL, "bool"),
	VERBS_OPTION(MrArgs, iova, VF_UINT, NULL, "addr"),
	VERBS_OPTION_REQUIRED(MrArgs, length, VF_UINT, NULL, INT32_MAX,
		"bytes:the size of the region in bytes"),
	VERBS_FIELD_END
    };
    MrArgs args = {
	{NULL, NULL}, IBV_ACCESS_LOCAL_WRITE, NULL, 0, NULL, 0, NULL, 0,
	NO_IOVA, 0
    };
    VerbsPd *p;
    VerbsMr *m;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &args,
	    &verbsPdClass) != TCL_OK
	    || VerbsCheckLength(interp, "-length", args.length) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.head.parent;
    if (args.dm && (args.buf || args.dmah || args.ex)) {
	const char *bad = args.buf ? "-buf" : args.dmah ? "-dmah" : "-ex";

	return VerbsArgError(interp, bad, NULL, "%s does not go with -dm "
		"(ibv_reg_dm_mr)", bad);
    }
    if (args.buf_offset && args.buf == NULL) {
	return VerbsArgError(interp, "-buf_offset", NULL,
		"-buf_offset needs -buf");
    }
    if (VerbsCheckOwner(interp, "-dmah", args.dmah, p->obj.parent,
	    "device context than the pd") != TCL_OK) {
	return TCL_ERROR;
    }
    if (args.dm) {
	return DmMrNew(interp, p, (VerbsDm *) args.dm, args.dm_offset,
		(size_t) args.length, (int) args.access, args.head.command);
    }
    if (args.buf) {
	return MrBufNew(interp, p, (VerbsBuf *) args.buf, args.buf_offset,
		(size_t) args.length, (int) args.access, args.iova, args.ex,
		(VerbsDmah *) args.dmah, args.head.command);
    }
    return MrOwnNew(interp, p, &p->obj, (size_t) args.length,
	    (int) args.access, args.head.command, &m, args.iova, args.ex,
	    (VerbsDmah *) args.dmah);
}

/*
 *----------------------------------------------------------------------
 *
 * MrNullCmd --
 *
 *	verbs::mr null PD ?-as NAME?: a null MR (ibv_alloc_null_mr),
 *	whose lkey makes the device drop what is written through it and
 *	read nothing.  It has no buffer: its length is 0.
 *
 * Results:
 *	The mr object command's name.
 *
 * Side effects:
 *	ibv_alloc_null_mr.
 *
 *----------------------------------------------------------------------
 */

static int
MrNullCmd(
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
    struct ibv_mr *mr;
    VerbsPd *p;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &args,
	    &verbsPdClass) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.parent;
    mr = ibv_alloc_null_mr(p->pd);
    if (mr == NULL) {
	return VerbsSysError(interp, "ibv_alloc_null_mr", &p->obj, NULL,
		errno);
    }
    return VerbsObjWrap(interp, &verbsMrClass, offsetof(VerbsMr, mr), mr,
	    &p->obj, args.command) ? TCL_OK : TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * MrImplicitCmd --
 *
 *	verbs::mr implicit PD ?-access FLAGS? ?-as NAME?: an implicit
 *	on-demand-paging MR (ibv_reg_mr of address NULL and length
 *	SIZE_MAX with on_demand), which covers the whole address space of
 *	the process; devices whose odp_caps general_caps list
 *	support_implicit have it.  It has no buffer of its own: its length
 *	is 0, and work requests reach it through raw sges.
 *
 * Results:
 *	The mr object command's name.
 *
 * Side effects:
 *	ibv_reg_mr.
 *
 *----------------------------------------------------------------------
 */

static int
MrImplicitCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t access;
	int ex;
    } ImplicitArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(ImplicitArgs, access, VF_FLAGS, verbsAccessFlags, "flags"),
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(ImplicitArgs, ex, VF_BOOL, NULL, "bool"),
	VERBS_FIELD_END
    };
    ImplicitArgs args = {{NULL, NULL}, IBV_ACCESS_LOCAL_WRITE, 0};
    struct ibv_mr *mr;
    VerbsObj *o;
    VerbsPd *p;
    int access;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &args,
	    &verbsPdClass) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.head.parent;
    access = (int) args.access | IBV_ACCESS_ON_DEMAND;
    if (args.ex) {
	MrExSpec s = {NULL, 1, SIZE_MAX, access, NO_IOVA, -1, 0, NULL, NULL};

	if (MrRegEx(interp, p, &s, &mr) != TCL_OK) {
	    return TCL_ERROR;
	}
    } else {
	mr = ibv_reg_mr(p->pd, NULL, SIZE_MAX, access);
	if (mr == NULL) {
	    return VerbsSysError(interp, "ibv_reg_mr", &p->obj, "implicit",
		    errno);
	}
    }
    o = VerbsObjWrap(interp, &verbsMrClass, offsetof(VerbsMr, mr), mr,
	    &p->obj, args.head.command);
    if (o == NULL) {
	return TCL_ERROR;
    }
    ((VerbsMr *) o)->access = access;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * MrRereg --
 *
 *	$mr rereg ?-access FLAGS? ?-pd PD?: change the access flags and/or
 *	move the MR to another PD of the same context (ibv_rereg_mr; the
 *	buffer stays).  The MR object moves with it in the tree.  When the
 *	kernel's part fails the MR "should not be used" (ibv_rereg_mr(3)):
 *	it is marked so, and every use but close is refused.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	ibv_rereg_mr; may re-parent the object; the keys may change.
 *
 *----------------------------------------------------------------------
 */

static int
MrRereg(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	uint64_t access;
	VerbsObj *pd;
    } ReregArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(ReregArgs, access, VF_FLAGS, verbsAccessFlags, "flags"),
	VERBS_OPTION(ReregArgs, pd, VF_OBJ, &verbsPdClass, "pd"),
	VERBS_FIELD_END
    };
    VerbsMr *m = (VerbsMr *) objPtr;
    ReregArgs args = {(uint64_t) m->access, NULL};
    VerbsPd *newPd = NULL;
    int flags = 0, err;

    if ((objc % 2) != 0) {
	Tcl_WrongNumArgs(interp, 2, objv, "?-access flags? ?-pd pd?");
	return TCL_ERROR;
    }
    if (VerbsParseOptions(interp, objc, objv, 2, options, &args) != TCL_OK
	    || MrUsable(interp, m) != TCL_OK) {
	return TCL_ERROR;
    }
    if (args.access != (uint64_t) m->access) {
	flags |= IBV_REREG_MR_CHANGE_ACCESS;
    }
    if (args.pd && args.pd != m->obj.parent) {
	Tcl_Obj *name = VerbsObjName(args.pd);

	newPd = (VerbsPd *) args.pd;
	if (m->obj.parent->typePtr != &verbsPdClass
		|| args.pd->parent != m->obj.parent->parent) {
	    VerbsArgError(interp, "-pd", name, m->obj.parent->typePtr
		    != &verbsPdClass ? "the mr of a pool stays on its pd"
		    : "-pd \"%s\" is on another device context",
		    Tcl_GetString(name));
	    Tcl_DecrRefCount(name);
	    return TCL_ERROR;
	}
	Tcl_DecrRefCount(name);
	flags |= IBV_REREG_MR_CHANGE_PD;
    }
    if (flags == 0) {
	return TCL_OK;
    }
    VerbsEpochBump();		/* WRs cached with the old keys. */
    err = ibv_rereg_mr(m->mr, flags, newPd ? newPd->pd : NULL, NULL, 0,
	    (int) args.access);
    if (err != 0) {
	int errnum = errno;

	/*
	 * A provider without the operation fails before the kernel is
	 * asked: the MR is as it was.
	 */

	if ((err == IBV_REREG_MR_ERR_CMD
		|| err == IBV_REREG_MR_ERR_CMD_AND_DO_FORK_NEW)
		&& errnum != EOPNOTSUPP && errnum != ENOSYS) {
	    m->unusable = 1;
	}
	return VerbsSysError(interp, "ibv_rereg_mr", objPtr, NULL, errnum);
    }
    m->access = (int) args.access;
    if (newPd) {
	VerbsObjReparent(objPtr, &newPd->obj);
    }
    return TCL_OK;
}

/*
 * ------------------------------------------------------------------------
 * Memory windows.
 * ------------------------------------------------------------------------
 */

static const VerbsMethod mwMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField mwCget[] = {
    VERBS_CGET_PTR("-rkey", VerbsMw, mw, struct ibv_mw, rkey, VF_UINT, NULL),
    VERBS_CGET_PTR("-mw_type", VerbsMw, mw, struct ibv_mw, type, VF_INT,
	    NULL),
    VERBS_CGET_PTR("-handle", VerbsMw, mw, struct ibv_mw, handle, VF_UINT,
	    NULL),
    VERBS_CGET_PARENT("-pd"),
    VERBS_CGET("-mr", VerbsMw, boundMr, VF_OBJ, NULL),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static const VerbsCommand mwCommands[] = {
    {"create", MwCreateCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * MwFree, VerbsMwBound --
 *
 *	Deallocation (which unbinds the window and lets go of its MR);
 *	remembering the MR of a bind.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	MwFree: ibv_dealloc_mw.  VerbsMwBound: moves the MR reference.
 *
 *----------------------------------------------------------------------
 */

static void
MwFree(
    VerbsObj *objPtr)
{
    VerbsMw *w = (VerbsMw *) objPtr;

    ibv_dealloc_mw(w->mw);
    if (w->boundMr) {
	VerbsObjRelease(&w->boundMr->obj);
    }
}

void
VerbsMwBound(
    VerbsMw *w,
    VerbsMr *m)
{
    VerbsObjRetain(&m->obj);
    if (w->boundMr) {
	VerbsObjRelease(&w->boundMr->obj);
    }
    w->boundMr = m;
}

const VerbsType verbsMwClass = {
    .name = "mw",
    .size = sizeof(VerbsMw),
    .methods = mwMethods,
    .cget = mwCget,
    .freeProc = MwFree,
    .commands = mwCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * MwCreateCmd --
 *
 *	verbs::mw create PD ?-type 1|2? ?-as NAME?
 *
 * Results:
 *	The mw object command's name.
 *
 * Side effects:
 *	ibv_alloc_mw.
 *
 *----------------------------------------------------------------------
 */

static int
MwCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsEnum types[] = {
	{"1", IBV_MW_TYPE_1}, {"2", IBV_MW_TYPE_2}, {NULL, 0}
    };
    typedef struct {
	VerbsCreateHead head;
	uint64_t type;
    } MwArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(MwArgs, type, VF_ENUM, types, "1|2"),
	VERBS_FIELD_END
    };
    MwArgs args = {{NULL, NULL}, IBV_MW_TYPE_1};
    struct ibv_mw *mw;
    VerbsPd *p;
    VerbsMw *w;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &args,
	    &verbsPdClass) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.head.parent;
    mw = ibv_alloc_mw(p->pd, (enum ibv_mw_type) args.type);
    if (mw == NULL) {
	return VerbsSysError(interp, "ibv_alloc_mw", &p->obj, NULL, errno);
    }
    w = (VerbsMw *) VerbsObjNew(&verbsMwClass);
    w->mw = mw;
    if (VerbsObjRegister(interp, &w->obj, &p->obj, args.head.command)
	    != TCL_OK) {
	ibv_dealloc_mw(mw);
	ckfree(w);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsParseBindInfo --
 *
 *	A bind_info dict {mr MR ?offset O? ?length L? ?mw_access_flags F?}:
 *	the window covers [offset, offset+length) of the MR's buffer
 *	(default: all of it), with the given remote access (default
 *	remote_write remote_read).
 *
 * Results:
 *	A standard Tcl result; the MR in *mrPtr.
 *
 * Side effects:
 *	Fills *info.
 *
 *----------------------------------------------------------------------
 */

int
VerbsParseBindInfo(
    Tcl_Interp *interp,
    Tcl_Obj *dictObj,
    struct ibv_mw_bind_info *info,
    VerbsMr **mrPtr)
{
    typedef struct {
	Tcl_Obj *length;
	VerbsObj *mr;
	uint64_t mw_access_flags;
	Tcl_Obj *offset;
    } BindArgs;
    static const VerbsField fields[] = {
	VERBS_FIELD(BindArgs, length, VF_TCLOBJ, NULL, 0, 0),
	VERBS_FIELD(BindArgs, mr, VF_OBJ, &verbsMrClass, 0, 0),
	VERBS_FIELD(BindArgs, mw_access_flags, VF_FLAGS, verbsAccessFlags, 0,
		0),
	VERBS_FIELD(BindArgs, offset, VF_TCLOBJ, NULL, 0, 0),
	VERBS_FIELD_END
    };
    static const VerbsStruct bindInfo = {"bind_info key", fields};
    BindArgs a = {NULL, NULL,
	    IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ, NULL};
    VerbsMr *m;
    size_t off = 0, len;

    /*
     * offset and length are checked against the MR together, once the MR
     * is known, by VerbsMrRange.
     */

    if (VerbsDictToStruct(interp, &bindInfo, "bind_info", dictObj, &a, NULL)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (a.mr == NULL) {
	return VerbsArgError(interp, "mr", NULL, "bind_info needs mr");
    }
    m = (VerbsMr *) a.mr;
    len = m->length;
    if (a.offset || a.length) {
	Tcl_Obj *zero = Tcl_NewIntObj(0);
	int result;

	Tcl_IncrRefCount(zero);
	len = 0;
	result = VerbsMrRange(interp, m, a.offset ? a.offset : zero,
		a.length, &off, &len);
	Tcl_DecrRefCount(zero);
	if (result != TCL_OK) {
	    return TCL_ERROR;
	}
	if (!a.length) {
	    len = m->length - off;
	}
    }
    info->mr = m->mr;
    info->addr = VerbsMrBase(m) + off;
    info->length = len;
    info->mw_access_flags = (unsigned) a.mw_access_flags;
    *mrPtr = m;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsCheckBind --
 *
 *	A window binds only to a region of its own PD.
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
VerbsCheckBind(
    Tcl_Interp *interp,
    VerbsMw *w,
    VerbsMr *m)
{
    Tcl_Obj *name;

    if (&VerbsMrPdOf(m)->obj == w->obj.parent) {
	return TCL_OK;
    }
    name = VerbsObjName(&m->obj);
    VerbsArgError(interp, "mr", name, "mr \"%s\" is on another pd than the "
	    "window", Tcl_GetString(name));
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
}
