/*
 * mlx5Devx.c --
 *
 *	DevX: firmware objects made from PRM command mailboxes
 *	([mlx5::devx obj create], built with [mlx5::prm pack]), general
 *	commands, EQ numbers, UARs, UMEMs, VARs and packet pacing indexes.
 *
 *	Close order.  The kernel does not track what one DevX object uses
 *	of another, and the firmware refuses to destroy an object still in
 *	use.  So each create (and modify) input is read through the PRM
 *	table (Mlx5PrmRefs): every object number it names is resolved to a
 *	live object of the same context (DevX objects by kind and number,
 *	UARs by page, UMEMs by id, verbs PDs, CQs, QPs and SRQs through
 *	mlx5dv_init_obj), and the new object holds a reference on it, as a
 *	verbs QP holds its CQs; numbers nothing here owns are kept as
 *	external.  Destruction then follows the references, whatever order
 *	the commands are closed in.
 *
 *	A destruction the firmware still refuses never half-frees: [close]
 *	of an object nothing else uses destroys it first and, when that
 *	fails, raises the error and keeps the command.  A refused deferred
 *	destruction (the object's command was gone) keeps the C handle and
 *	its references in the context's pending list, retried after every
 *	later destruction in the context and once more before the device
 *	closes; what the firmware refuses even then is left to the kernel,
 *	which destroys all objects of the device file when it closes.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5.h"
#include "mlx5Prm.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <unistd.h>

#define MAX_OUTLEN (1 << 20)	/* -outlen limit: a mailbox of 1 MiB. */

/*
 * A pending destruction (see above).
 */

enum PendingKind { PENDING_DEVX, PENDING_UMEM };

struct Mlx5Pending {
    enum PendingKind type;
    void *handle;		/* mlx5dv_devx_obj or mlx5dv_devx_umem. */
    unsigned char *buf;		/* A UMEM's buffer, freed after it. */
    const char *kind;		/* For [$ctx mlx5 pending]. */
    uint32_t id;
    Mlx5Refs refs;		/* Still held. */
    Mlx5Pending *next;
};

static VerbsMethodProc DevxClose, DevxModify, DevxOut, DevxQuery, DevxRefs,
	UmemClose, UmemRead, UmemWrite, UarDoorbell, VarMap, VarUnmap;
static VerbsGetProc DevxId, DevxKind;

static const VerbsMethod devxMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    {"close", DevxClose, 0, 0, ""},
    {"modify", DevxModify, 3, 3, "in -outlen bytes"},
    {"out", DevxOut, 0, 0, ""},
    {"query", DevxQuery, 3, 3, "in -outlen bytes"},
    {"export", Mlx5Export, 0, 0, NULL},
    {"query_async", Mlx5DevxQueryAsync, 5, 7,
	    "in -outlen bytes -comp cmdcomp ?-wr_id n?"},
    {"refs", DevxRefs, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField devxCget[] = {
    VERBS_CGET_PROC("-id", DevxId),
    VERBS_CGET_PROC("-kind", DevxKind),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static void DevxFree(VerbsObj *objPtr);

const VerbsType verbsDevxClass = {
    .name = "devx",
    .size = sizeof(Mlx5Devx),
    .methods = devxMethods,
    .cget = devxCget,
    .freeProc = DevxFree,
};

static const VerbsMethod uarMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"doorbell", UarDoorbell, 1, 2, "bytes ?offset?"},
    {"export_dmabuf_fd", Mlx5UarExportDmabuf, 0, 0, NULL},
    {NULL, NULL, 0, 0, NULL}
};
static const VerbsMethod varMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"export", Mlx5Export, 0, 0, NULL},
    {"map", VarMap, 0, 0, ""},
    {"unmap", VarUnmap, 0, 0, ""},
    {NULL, NULL, 0, 0, NULL}
};
static const VerbsMethod ppMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsEnum uarFlags[] = {
    {"bf", MLX5DV_UAR_ALLOC_TYPE_BF}, {"nc", MLX5DV_UAR_ALLOC_TYPE_NC},
    {NULL, 0}
};

static const VerbsField uarCget[] = {
    VERBS_CGET_PTR("-page_id", Mlx5Uar, uar, struct mlx5dv_devx_uar,
	    page_id, VF_UINT, NULL),
    VERBS_CGET_PTR("-reg_addr", Mlx5Uar, uar, struct mlx5dv_devx_uar,
	    reg_addr, VF_UINT, NULL),
    VERBS_CGET_PTR("-base_addr", Mlx5Uar, uar, struct mlx5dv_devx_uar,
	    base_addr, VF_UINT, NULL),
    VERBS_CGET_PTR("-mmap_off", Mlx5Uar, uar, struct mlx5dv_devx_uar,
	    mmap_off, VF_UINT, NULL),
    VERBS_CGET("-flags", Mlx5Uar, flags, VF_ENUM, uarFlags),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static void UarFree(VerbsObj *objPtr);

const VerbsType verbsUarClass = {
    .name = "uar",
    .size = sizeof(Mlx5Uar),
    .methods = uarMethods,
    .cget = uarCget,
    .freeProc = UarFree,
};

static const VerbsMethod umemMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    {"close", UmemClose, 0, 0, ""},
    {"export", Mlx5Export, 0, 0, NULL},
    {"read", UmemRead, 2, 2, "offset length"},
    {"write", UmemWrite, 2, 2, "offset bytes"},
    {NULL, NULL, 0, 0, NULL}
};

static VerbsGetProc UmemAddr;

static const VerbsField umemCget[] = {
    VERBS_CGET_PTR("-umem_id", Mlx5Umem, umem, struct mlx5dv_devx_umem,
	    umem_id, VF_UINT, NULL),
    VERBS_CGET_PROC("-addr", UmemAddr),
    VERBS_CGET("-length", Mlx5Umem, length, VF_UINT, NULL),
    VERBS_CGET("-access", Mlx5Umem, access, VF_FLAGS, verbsAccessFlags),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static void UmemFree(VerbsObj *objPtr);

const VerbsType verbsUmemClass = {
    .name = "umem",
    .size = sizeof(Mlx5Umem),
    .methods = umemMethods,
    .cget = umemCget,
    .freeProc = UmemFree,
};

/*
 * mlx5dv_alloc_var's flags: tlp (rdma-core 63, TLP doorbells), detected by
 * configure; the name is known on every build, so an older one refuses it
 * by what it needs.
 */

#ifndef HAVE_MLX5DV_VAR_ALLOC_FLAG_TLP
#define MLX5DV_VAR_ALLOC_FLAG_TLP (1 << 0)
#endif

static const VerbsEnum varFlags[] = {
    {"tlp", MLX5DV_VAR_ALLOC_FLAG_TLP}, {NULL, 0}
};

static VerbsGetProc VarMapped;

static const VerbsField varCget[] = {
    VERBS_CGET_PTR("-page_id", Mlx5Var, var, struct mlx5dv_var, page_id,
	    VF_UINT, NULL),
    VERBS_CGET_PTR("-length", Mlx5Var, var, struct mlx5dv_var, length,
	    VF_UINT, NULL),
    VERBS_CGET_PTR("-mmap_off", Mlx5Var, var, struct mlx5dv_var, mmap_off,
	    VF_UINT, NULL),
    VERBS_CGET("-flags", Mlx5Var, flags, VF_FLAGS, varFlags),
    VERBS_CGET_PROC("-mapped", VarMapped),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static void VarFree(VerbsObj *objPtr);

const VerbsType verbsVarClass = {
    .name = "var",
    .size = sizeof(Mlx5Var),
    .methods = varMethods,
    .cget = varCget,
    .freeProc = VarFree,
};

static const VerbsEnum ppFlags[] = {
    {"dedicated_index", MLX5_IB_UAPI_PP_ALLOC_FLAGS_DEDICATED_INDEX},
    {NULL, 0}
};

static const VerbsField ppCget[] = {
    VERBS_CGET_PTR("-index", Mlx5Pp, pp, struct mlx5dv_pp, index, VF_UINT,
	    NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static void PpFree(VerbsObj *objPtr);

const VerbsType verbsPpClass = {
    .name = "pp",
    .size = sizeof(Mlx5Pp),
    .methods = ppMethods,
    .cget = ppCget,
    .freeProc = PpFree,
};

/*
 *----------------------------------------------------------------------
 *
 * Mlx5FirmwareError --
 *
 *	The error of a DevX command.  When the firmware rejected it
 *	(EREMOTEIO, with a status in the output mailbox), the status (name
 *	and number) and syndrome go into the message and the errorCode
 *	{VERBS SYS CALL EREMOTEIO TEXT STATUS_NAME STATUS SYNDROME};
 *	otherwise it is VerbsSysError's.  The message names the command
 *	(by its opcode) when in is given.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the interp's result and errorCode.
 *
 *----------------------------------------------------------------------
 */

static const char *
OpName(
    const unsigned char *in,
    Tcl_Size inLen,
    char *buf)			/* At least 16 bytes. */
{
    unsigned opcode;
    const char *name;

    if (in == NULL || inLen < 2) {
	return NULL;
    }
    opcode = ((unsigned) in[0] << 8) | in[1];
    name = Mlx5PrmOpcodeName(opcode);
    if (name == NULL) {
	sprintf(buf, "opcode 0x%x", opcode);
	name = buf;
    }
    return name;
}

int
Mlx5FirmwareError(
    Tcl_Interp *interp,
    const char *call,
    VerbsObj *objPtr,
    int err,
    const unsigned char *in,
    Tcl_Size inLen,
    const unsigned char *out,
    Tcl_Size outLen)
{
    unsigned status = 0;
    uint32_t syndrome = 0;
    const char *statusName, *what;
    char opBuf[16], numBuf[16], synBuf[16];
    Tcl_Obj *msg;

    if (err < 0) {
	err = -err;
    }
    what = OpName(in, inLen, opBuf);
    if (out && outLen >= 8) {
	Mlx5PrmStatus(out, outLen, &status, &syndrome);
    }
    if (err != EREMOTEIO || status == 0) {
	return VerbsSysError(interp, call, objPtr, what, err);
    }
    statusName = Mlx5PrmStatusName(status);
    if (statusName == NULL) {
	statusName = "unknown";
    }
    msg = Tcl_NewStringObj(call, -1);
    if (objPtr) {
	Tcl_Obj *name = VerbsObjName(objPtr);

	Tcl_AppendPrintfToObj(msg, " on %s", Tcl_GetString(name));
	Tcl_DecrRefCount(name);
    }
    if (what) {
	Tcl_AppendPrintfToObj(msg, " (%s)", what);
    }
    Tcl_AppendPrintfToObj(msg, ": firmware status %s (0x%x), syndrome "
	    "0x%08x", statusName, status, (unsigned) syndrome);
    Tcl_SetObjResult(interp, msg);
    sprintf(numBuf, "%u", status);
    sprintf(synBuf, "0x%08x", (unsigned) syndrome);
    Tcl_SetErrorCode(interp, "VERBS", "SYS", call, "EREMOTEIO",
	    Tcl_ErrnoMsg(EREMOTEIO), statusName, numBuf, synBuf, NULL);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5RefsFree, Mlx5RefsAdd, RefsAppend, Mlx5RefsObj --
 *
 *	Reference lists: free one (releasing what it holds), add an entry
 *	(taking a reference on obj when not NULL), move one list's entries
 *	to the end of another, and describe one as a Tcl list of
 *	{path kind value object} ("" for an external number; value ""
 *	for -uses).
 *
 * Results:
 *	Mlx5RefsObj: a new list.
 *
 * Side effects:
 *	References; may destroy objects.
 *
 *----------------------------------------------------------------------
 */

void
Mlx5RefsFree(
    Mlx5Refs *r)
{
    int i;
    Mlx5Ref *refs = r->refs;
    int n = r->n;

    r->refs = NULL;
    r->n = r->size = 0;
    for (i = 0; i < n; i++) {
	ckfree(refs[i].path);
	ckfree(refs[i].kind);
    }
    for (i = 0; i < n; i++) {
	if (refs[i].obj) {
	    VerbsObjRelease(refs[i].obj);
	}
    }
    if (refs) {
	ckfree(refs);
    }
}

void
Mlx5RefsAdd(
    Mlx5Refs *r,
    VerbsObj *obj,
    const char *path,
    const char *kind,
    uint32_t value)
{
    Mlx5Ref *e;

    if (r->n == r->size) {
	r->size = r->size ? 2 * r->size : 4;
	r->refs = (Mlx5Ref *) ckrealloc(r->refs, r->size * sizeof(Mlx5Ref));
    }
    e = &r->refs[r->n++];
    e->obj = obj;
    if (obj) {
	VerbsObjRetain(obj);
    }
    e->path = ckalloc(strlen(path) + 1);
    strcpy(e->path, path);
    e->kind = ckalloc(strlen(kind) + 1);
    strcpy(e->kind, kind);
    e->value = value;
}

static void
RefsAppend(
    Mlx5Refs *to,
    Mlx5Refs *from)
{
    int i;

    for (i = 0; i < from->n; i++) {
	if (to->n == to->size) {
	    to->size = to->size ? 2 * to->size : 4;
	    to->refs = (Mlx5Ref *) ckrealloc(to->refs,
		    to->size * sizeof(Mlx5Ref));
	}
	to->refs[to->n++] = from->refs[i];
    }
    if (from->refs) {
	ckfree(from->refs);
    }
    from->refs = NULL;
    from->n = from->size = 0;
}

Tcl_Obj *
Mlx5RefsObj(
    const Mlx5Refs *r)
{
    Tcl_Obj *list = Tcl_NewObj();
    int i;

    for (i = 0; i < r->n; i++) {
	const Mlx5Ref *e = &r->refs[i];
	int byHand = strcmp(e->path, "-uses") == 0;

	Tcl_ListObjAppendElement(NULL, list, Tcl_NewListObj(4, (Tcl_Obj *[]) {
		Tcl_NewStringObj(e->path, -1), Tcl_NewStringObj(e->kind, -1),
		byHand ? Tcl_NewObj() : Tcl_NewWideIntObj(e->value),
		e->obj ? VerbsObjName(e->obj) : Tcl_NewObj()}));
    }
    return list;
}

/*
 *----------------------------------------------------------------------
 *
 * ObjNumber --
 *
 *	The number under which the firmware knows a live object of a
 *	context, for the kind of reference asked: a DevX object's own
 *	kind, a UAR's page, a UMEM's id, through mlx5dv_init_obj a verbs
 *	PD's pdn and SRQ's srqn, a verbs CQ's cqn once mlx5::dv obj told
 *	it, a QP's qp_num.
 *
 * Results:
 *	1 when the object is of that kind, with *numPtr set; else 0.
 *
 * Side effects:
 *	None (beyond libmlx5's, see Mlx5DvObjInfo).
 *
 *----------------------------------------------------------------------
 */

static int
ObjNumber(
    VerbsContext *c,
    VerbsObj *o,
    const char *kind,
    uint32_t *numPtr)
{
    const VerbsType *t = o->typePtr;
    struct mlx5dv_obj dv;

    memset(&dv, 0, sizeof(dv));
    if (t == &verbsDevxClass) {
	Mlx5Devx *d = (Mlx5Devx *) o;

	if (d->devx == NULL || d->kind == NULL || strcmp(d->kind, kind)) {
	    return 0;
	}
	*numPtr = d->id;
	return 1;
    }
    if (t == &verbsEqClass && strcmp(kind, "eq") == 0) {
	return Mlx5EqNumber(o, numPtr);
    }
    if (t == &verbsUarClass && strcmp(kind, "uar") == 0) {
	*numPtr = ((Mlx5Uar *) o)->uar->page_id;
	return 1;
    }
    if (t == &verbsUmemClass && strcmp(kind, "umem") == 0
	    && ((Mlx5Umem *) o)->umem) {
	*numPtr = ((Mlx5Umem *) o)->umem->umem_id;
	return 1;
    }
    if (t == &verbsPdClass && strcmp(kind, "pd") == 0) {
	struct mlx5dv_pd pd;

	dv.pd.in = ((VerbsPd *) o)->pd;
	dv.pd.out = &pd;
	if (mlx5dv_init_obj(&dv, MLX5DV_OBJ_PD) != 0) {
	    return 0;
	}
	*numPtr = pd.pdn;
	return 1;
    }
    if (t == &verbsCqClass && strcmp(kind, "cq") == 0) {
	/*
	 * Only a CQ whose number mlx5::dv obj told (and so the script
	 * knows): mlx5dv_init_obj on a CQ changes how libmlx5 treats it.
	 */

	Mlx5Context *m = (Mlx5Context *) VerbsProviderState(c,
		&verbsMlx5Provider);
	Tcl_HashEntry *h = m ? Tcl_FindHashEntry(&m->cqns,
		(char *) ((VerbsCq *) o)->cq) : NULL;

	if (h == NULL) {
	    return 0;
	}
	*numPtr = (uint32_t) (uintptr_t) Tcl_GetHashValue(h);
	return 1;
    }
    if (t == &verbsSrqClass && strcmp(kind, "srq") == 0) {
	struct mlx5dv_srq srq;

	memset(&srq, 0, sizeof(srq));
	srq.comp_mask = MLX5DV_SRQ_MASK_SRQN;
	dv.srq.in = ((VerbsSrq *) o)->srq;
	dv.srq.out = &srq;
	if (mlx5dv_init_obj(&dv, MLX5DV_OBJ_SRQ) != 0
		|| !(srq.comp_mask & MLX5DV_SRQ_MASK_SRQN)) {
	    return 0;
	}
	*numPtr = srq.srqn;
	return 1;
    }
    if (t == &verbsQpClass && (strcmp(kind, "qp") == 0
	    || strcmp(kind, "dct") == 0) && ((VerbsQp *) o)->qp) {
	*numPtr = ((VerbsQp *) o)->qp->qp_num;
	return 1;
    }
    return 0;
}

/*
 *----------------------------------------------------------------------
 *
 * Resolve --
 *
 *	The live object of context c that the firmware knows as number
 *	value of the kind, other than self: DevX objects, UARs, UMEMs and
 *	DevX EQs (children of the context) first, then verbs objects (the
 *	context's PDs and CQs, and the PDs' QPs and SRQs).
 *
 * Results:
 *	The object, or NULL.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static VerbsObj *
Resolve(
    VerbsContext *c,
    VerbsObj *self,
    const char *kind,
    uint32_t value)
{
    VerbsObj *o, *g;
    uint32_t num;
    int pass;

    for (pass = 0; pass < 2; pass++) {
	for (o = c->obj.children; o; o = o->nextSibling) {
	    int mine = o->typePtr == &verbsDevxClass
		    || o->typePtr == &verbsUarClass
		    || o->typePtr == &verbsUmemClass
		    || o->typePtr == &verbsEqClass;

	    if (o == self || mine != (pass == 0)) {
		continue;
	    }
	    if (ObjNumber(c, o, kind, &num) && num == value) {
		return o;
	    }
	    if (pass == 1 && o->typePtr == &verbsPdClass) {
		for (g = o->children; g; g = g->nextSibling) {
		    if (g != self && ObjNumber(c, g, kind, &num)
			    && num == value) {
			return g;
		    }
		}
	    }
	}
    }
    return NULL;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5ResolveRefs, Mlx5AddUses --
 *
 *	Mlx5ResolveRefs: add to r the references a command input holds
 *	(Mlx5PrmRefs), each resolved within the context (none for a command
 *	the PRM table does not know).  Mlx5AddUses: add
 *	the objects of a -uses list, which must be of the same context.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Takes references (released again by Mlx5RefsFree).
 *
 *----------------------------------------------------------------------
 */

int
Mlx5ResolveRefs(
    Tcl_Interp *interp,
    VerbsContext *c,
    VerbsObj *self,
    const unsigned char *in,
    Tcl_Size inLen,
    Mlx5Refs *r)
{
    Tcl_Obj *list, **triples;
    Tcl_Size n, i;

    /*
     * A command the PRM table does not know still goes to the firmware;
     * it holds no references of its own (-uses can give them).
     */

    if (Mlx5PrmInputType(in, inLen) == NULL) {
	return TCL_OK;
    }
    if (Mlx5PrmRefs(interp, in, inLen, &list) != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_IncrRefCount(list);
    if (Tcl_ListObjGetElements(interp, list, &n, &triples) != TCL_OK) {
	Tcl_DecrRefCount(list);
	return TCL_ERROR;
    }
    for (i = 0; i < n; i++) {
	Tcl_Obj **t;
	Tcl_Size tn;
	Tcl_WideInt value;
	const char *kind;

	if (Tcl_ListObjGetElements(interp, triples[i], &tn, &t) != TCL_OK
		|| tn != 3 || Tcl_GetWideIntFromObj(interp, t[2], &value)
		!= TCL_OK) {
	    Tcl_DecrRefCount(list);
	    return TCL_ERROR;
	}
	kind = Tcl_GetString(t[1]);
	Mlx5RefsAdd(r, Resolve(c, self, kind, (uint32_t) value),
		Tcl_GetString(t[0]), kind, (uint32_t) value);
    }
    Tcl_DecrRefCount(list);
    return TCL_OK;
}

int
Mlx5AddUses(
    Tcl_Interp *interp,
    VerbsContext *c,
    Tcl_Obj *listObj,
    Mlx5Refs *r)
{
    Tcl_Obj **elems;
    Tcl_Size n, i;

    if (listObj == NULL) {
	return TCL_OK;
    }
    if (Tcl_ListObjGetElements(interp, listObj, &n, &elems) != TCL_OK) {
	return TCL_ERROR;
    }
    for (i = 0; i < n; i++) {
	VerbsObj *o = VerbsObjFind(interp, elems[i]);

	if (o == NULL) {
	    return VerbsArgError(interp, "-uses", elems[i], "bad -uses "
		    "object \"%s\": not a verbs object",
		    Tcl_GetString(elems[i]));
	}
	if (Mlx5ContextOf(o) != c || o == &c->obj) {
	    return VerbsArgError(interp, "-uses", elems[i], "-uses object "
		    "\"%s\" is not of the same device context",
		    Tcl_GetString(elems[i]));
	}
	Mlx5RefsAdd(r, o, "-uses", o->typePtr->name, 0);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PendingAdd, PendingDestroy, Mlx5PendingRetry, Mlx5PendingForget,
 * Mlx5PendingList --
 *
 *	The refused destructions of a context (see the file's header).
 *	Mlx5PendingRetry tries them, oldest first, again and again while
 *	any succeeds; Mlx5PendingForget drops what is left when the device
 *	closes (the kernel destroys those objects with the device file);
 *	Mlx5PendingList describes them as {kind id} pairs.
 *
 * Results:
 *	PendingDestroy: 0 or an errno value.
 *
 * Side effects:
 *	Destroys DevX objects; releases references.
 *
 *----------------------------------------------------------------------
 */

static void
PendingAdd(
    VerbsContext *c,
    enum PendingKind type,
    void *handle,
    unsigned char *buf,
    const char *kind,
    uint32_t id,
    Mlx5Refs *refs)
{
    Mlx5Context *m = Mlx5ContextState(c);
    Mlx5Pending *p = (Mlx5Pending *) ckalloc(sizeof(Mlx5Pending)), **pp;

    p->type = type;
    p->handle = handle;
    p->buf = buf;
    p->kind = kind;
    p->id = id;
    p->refs = *refs;
    refs->refs = NULL;
    refs->n = refs->size = 0;
    p->next = NULL;
    for (pp = &m->pending; *pp; pp = &(*pp)->next) {
	/* To the end: oldest first. */
    }
    *pp = p;
}

static int
PendingDestroy(
    Mlx5Pending *p)
{
    int err;

    if (p->type == PENDING_DEVX) {
	err = mlx5dv_devx_obj_destroy((struct mlx5dv_devx_obj *) p->handle);
    } else {
	err = mlx5dv_devx_umem_dereg((struct mlx5dv_devx_umem *) p->handle);
	if (err == 0) {
	    free(p->buf);
	}
    }
    return err;
}

void
Mlx5PendingRetry(
    VerbsContext *c)
{
    Mlx5Context *m = (Mlx5Context *) VerbsProviderState(c,
	    &verbsMlx5Provider);
    Mlx5Pending **pp, *p;
    int progress = 1;

    if (m == NULL || m->retrying || m->pending == NULL) {
	return;
    }

    /*
     * Releasing a pending object's references destroys what only it
     * used, which retries (a nested call returns at once): loop here
     * until a pass changes nothing.  The context stays alive meanwhile:
     * the caller holds it.
     */

    m->retrying = 1;
    while (progress) {
	progress = 0;
	for (pp = &m->pending; (p = *pp) != NULL; ) {
	    if (PendingDestroy(p) != 0) {
		pp = &p->next;
		continue;
	    }
	    *pp = p->next;
	    Mlx5RefsFree(&p->refs);
	    ckfree(p);
	    progress = 1;
	}
    }
    m->retrying = 0;
}

void
Mlx5PendingForget(
    VerbsContext *c)
{
    Mlx5Context *m = (Mlx5Context *) VerbsProviderState(c,
	    &verbsMlx5Provider);
    Mlx5Pending *p;

    while (m && (p = m->pending) != NULL) {
	m->pending = p->next;
	Mlx5RefsFree(&p->refs);
	ckfree(p);
    }
}

Tcl_Obj *
Mlx5PendingList(
    VerbsContext *c)
{
    Mlx5Context *m = (Mlx5Context *) VerbsProviderState(c,
	    &verbsMlx5Provider);
    Mlx5Pending *p;
    Tcl_Obj *list = Tcl_NewObj();

    for (p = m ? m->pending : NULL; p; p = p->next) {
	Tcl_ListObjAppendElement(NULL, list, Tcl_NewStringObj(
		p->kind ? p->kind : "devx", -1));
	Tcl_ListObjAppendElement(NULL, list, Tcl_NewWideIntObj(p->id));
    }
    return list;
}

/*
 *----------------------------------------------------------------------
 *
 * DevxFree, DevxClose --
 *
 *	DevxFree: destroy the object once nothing uses it (DevX objects
 *	have no children), then release what it used; a refusal makes it
 *	pending.  DevxClose: $obj close; when nothing else holds the
 *	object it is destroyed here first, so that a refusal is an error
 *	and the object stays as it was.
 *
 * Results:
 *	DevxClose: a standard Tcl result.
 *
 * Side effects:
 *	mlx5dv_devx_obj_destroy; references.
 *
 *----------------------------------------------------------------------
 */

static void
DevxFree(
    VerbsObj *objPtr)
{
    Mlx5Devx *d = (Mlx5Devx *) objPtr;
    VerbsContext *c = (VerbsContext *) objPtr->parent;

    if (d->out) {
	ckfree(d->out);
    }
    if (d->imported) {
	if (d->devx) {
	    Mlx5Unimport(0, d->devx);
	}
	Mlx5RefsFree(&d->refs);
	return;
    }
    if (d->devx && mlx5dv_devx_obj_destroy(d->devx) != 0) {
	PendingAdd(c, PENDING_DEVX, d->devx, NULL, d->kind, d->id, &d->refs);
	return;
    }
    Mlx5RefsFree(&d->refs);
    if (d->devx) {
	/* What it used may have been all that held a pending one back. */
	Mlx5PendingRetry(c);
    }
}

/*
 * Nothing but its command (and the method call running) holds the object.
 */

#define ONLY_COMMAND(o) ((o)->refCount <= 2 && (o)->children == NULL)

/*
 * The close of a DevX object or UMEM, once destroyNow (DevxDestroyNow,
 * UmemDestroyNow) did the destruction: 0 done, -1 nothing to do, else
 * the error number of call.
 */

static int
CloseDestroying(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[],
    int (*destroyNow)(VerbsObj *objPtr),
    const char *call,
    const char *what)
{
    if (ONLY_COMMAND(objPtr)) {
	int err = destroyNow(objPtr);

	if (err > 0) {
	    return VerbsSysError(interp, call, objPtr, what, err);
	}
	if (err == 0) {
	    Mlx5PendingRetry((VerbsContext *) objPtr->parent);
	}
    }
    return VerbsCloseMethod(interp, objPtr, objc, objv);
}

static int
DevxDestroyNow(
    VerbsObj *objPtr)
{
    Mlx5Devx *d = (Mlx5Devx *) objPtr;
    int err;

    if (d->devx == NULL) {
	return -1;
    }
    if (d->imported) {
	Mlx5Unimport(0, d->devx);
	d->devx = NULL;
	return 0;
    }
    err = mlx5dv_devx_obj_destroy(d->devx);
    if (err != 0) {
	return err < 0 ? -err : err;
    }
    d->devx = NULL;
    Mlx5RefsFree(&d->refs);
    return 0;
}

static int
DevxClose(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CloseDestroying(interp, objPtr, objc, objv, DevxDestroyNow,
	    "mlx5dv_devx_obj_destroy", ((Mlx5Devx *) objPtr)->kind);
}

/*
 *----------------------------------------------------------------------
 *
 * DevxId, DevxKind --
 *
 *	cget -id and -kind: the object's number and kind, as the create
 *	output names them ("" when the command made nothing the PRM table
 *	knows).
 *
 * Results:
 *	TCL_OK.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
DevxId(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    Mlx5Devx *d = (Mlx5Devx *) objPtr;

    *valuePtr = d->kind ? Tcl_NewWideIntObj(d->id) : Tcl_NewObj();
    return TCL_OK;
}

static int
DevxKind(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    Mlx5Devx *d = (Mlx5Devx *) objPtr;

    *valuePtr = Tcl_NewStringObj(d->kind ? d->kind : "", -1);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5ParseOutLen, GetIn, CommandArgs --
 *
 *	The words "IN -outlen N" of create, query, modify and general
 *	(and of eq create and query_async, which share Mlx5ParseOutLen).
 *	Mlx5ParseOutLen: the -outlen option (a VerbsSetProc into a Tcl_Size),
 *	8 bytes to 1 MiB: an output starts with its status and syndrome.
 *	GetIn: the input bytes, at least their opcode and op_mod.
 *	CommandArgs: both, from the three words.
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
Mlx5ParseOutLen(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    void *memberPtr)		/* Tcl_Size. */
{
    uint64_t v;

    if (VerbsGetUInt(interp, key, valueObj, MAX_OUTLEN, &v) != TCL_OK) {
	return TCL_ERROR;
    }
    if (v < 8) {
	return VerbsArgError(interp, key, valueObj, "bad %s \"%s\": an "
		"output holds at least its status and syndrome (8 bytes)",
		key, Tcl_GetString(valueObj));
    }
    *(Tcl_Size *) memberPtr = (Tcl_Size) v;
    return TCL_OK;
}

static const unsigned char *
GetIn(
    Tcl_Interp *interp,
    Tcl_Obj *inObj,
    Tcl_Size *inLenPtr)
{
    const unsigned char *in = VerbsGetBytes(interp, "in", inObj, inLenPtr);

    if (in != NULL && *inLenPtr < 8) {
	VerbsArgError(interp, "in", inObj, "bad in: a command input holds "
		"at least its opcode and op_mod (8 bytes), not %"
		TCL_SIZE_MODIFIER "d", *inLenPtr);
	return NULL;
    }
    return in;
}

typedef struct {
    Tcl_Size outlen;
} OutArgs;

static const VerbsField outOptions[] = {
    VERBS_OPTION_PARSE(OutArgs, outlen, Mlx5ParseOutLen, VF_REQUIRED,
	    "bytes:the size of the command's output"),
    VERBS_FIELD_END
};

static int
CommandArgs(
    Tcl_Interp *interp,
    Tcl_Obj *const words[],	/* IN -outlen N */
    const unsigned char **inPtr,
    Tcl_Size *inLenPtr,
    Tcl_Size *outLenPtr)
{
    OutArgs args = {0};

    if (VerbsParseOptions(interp, 3, words, 1, outOptions, &args) != TCL_OK) {
	return TCL_ERROR;
    }
    *outLenPtr = args.outlen;
    *inPtr = GetIn(interp, words[0], inLenPtr);
    return *inPtr ? TCL_OK : TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * DevxQuery, DevxModify, DevxOut, DevxRefs --
 *
 *	$obj query IN -outlen N, $obj modify IN -outlen N: the command's
 *	output bytes.  A modify's input may name further objects: the
 *	object then holds them too.  $obj out: the create command's
 *	output.  $obj refs: what the object uses, {path kind value object}
 *	each.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	The firmware command.
 *
 *----------------------------------------------------------------------
 */

static int
DevxCommand(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj *const objv[],
    int modify)
{
    Mlx5Devx *d = (Mlx5Devx *) objPtr;
    const unsigned char *in;
    Tcl_Size inLen, outLen;
    Tcl_Obj *outObj;
    Mlx5Refs refs = {0, 0, NULL};
    int err;
    const char *call = modify ? "mlx5dv_devx_obj_modify"
	    : "mlx5dv_devx_obj_query";

    if (CommandArgs(interp, objv + 2, &in, &inLen, &outLen) != TCL_OK) {
	return TCL_ERROR;
    }
    if (modify && Mlx5ResolveRefs(interp, (VerbsContext *) objPtr->parent,
	    objPtr, in, inLen, &refs) != TCL_OK) {
	return TCL_ERROR;
    }

    /* The input again: resolving may not shimmer, but be sure. */
    in = VerbsGetBytes(interp, "in", objv[2], &inLen);
    outObj = Tcl_NewByteArrayObj(NULL, outLen);
    Tcl_IncrRefCount(outObj);
    memset(Tcl_GetByteArrayFromObj(outObj, NULL), 0, (size_t) outLen);
    err = modify ? mlx5dv_devx_obj_modify(d->devx, in, (size_t) inLen,
	    Tcl_GetByteArrayFromObj(outObj, NULL), (size_t) outLen)
	    : mlx5dv_devx_obj_query(d->devx, in, (size_t) inLen,
	    Tcl_GetByteArrayFromObj(outObj, NULL), (size_t) outLen);
    if (err != 0) {
	Mlx5RefsFree(&refs);
	Mlx5FirmwareError(interp, call, objPtr, err, in, inLen,
		Tcl_GetByteArrayFromObj(outObj, NULL), outLen);
	Tcl_DecrRefCount(outObj);
	return TCL_ERROR;
    }
    RefsAppend(&d->refs, &refs);
    Tcl_SetObjResult(interp, outObj);
    Tcl_DecrRefCount(outObj);
    return TCL_OK;
}

static int
DevxQuery(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    return DevxCommand(interp, objPtr, objv, 0);
}

static int
DevxModify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    return DevxCommand(interp, objPtr, objv, 1);
}

static int
DevxOut(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    Mlx5Devx *d = (Mlx5Devx *) objPtr;

    Tcl_SetObjResult(interp, Tcl_NewByteArrayObj(d->out, d->outLen));
    return TCL_OK;
}

static int
DevxRefs(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    Tcl_SetObjResult(interp, Mlx5RefsObj(&((Mlx5Devx *) objPtr)->refs));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * DevxObjCreateCmd --
 *
 *	mlx5::devx obj create CONTEXT IN -outlen N ?-uses {OBJ ...}?
 *		?-as NAME?
 *
 * Results:
 *	The DevX object command's name.
 *
 * Side effects:
 *	mlx5dv_devx_obj_create; references on the objects it uses.
 *
 *----------------------------------------------------------------------
 */

static int
DevxObjCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	Tcl_Size outlen;
	Tcl_Obj *uses;
    } DevxArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_PARSE(DevxArgs, outlen, Mlx5ParseOutLen, VF_REQUIRED,
		"bytes:the size of the command's output"),
	VERBS_OPTION(DevxArgs, uses, VF_TCLOBJ, NULL, "objects"),
	VERBS_FIELD_END
    };
    DevxArgs args = {{NULL, NULL}, 0, NULL};
    VerbsContext *c;
    const unsigned char *in;
    unsigned char *out;
    Tcl_Size inLen;
    Mlx5Refs refs = {0, 0, NULL};
    struct mlx5dv_devx_obj *obj;
    Mlx5Devx *d;
    const char *kind;
    uint32_t id;

    if (VerbsCreateArgs(interp, objc, objv, "context in", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) args.head.parent;
    if (!Mlx5DevxOn(c)) {
	return Mlx5NotSupported(interp, "mlx5dv_devx_obj_create", c);
    }
    in = GetIn(interp, objv[2], &inLen);
    if (in == NULL) {
	return TCL_ERROR;
    }
    if (Mlx5ResolveRefs(interp, c, NULL, in, inLen, &refs) != TCL_OK
	    || Mlx5AddUses(interp, c, args.uses, &refs) != TCL_OK) {
	Mlx5RefsFree(&refs);
	return TCL_ERROR;
    }
    in = VerbsGetBytes(interp, "in", objv[2], &inLen);
    out = (unsigned char *) ckalloc(args.outlen);
    memset(out, 0, (size_t) args.outlen);
    obj = mlx5dv_devx_obj_create(c->ctx, in, (size_t) inLen, out,
	    (size_t) args.outlen);
    if (obj == NULL) {
	int err = errno;

	Mlx5RefsFree(&refs);
	Mlx5FirmwareError(interp, "mlx5dv_devx_obj_create", &c->obj, err, in,
		inLen, out, args.outlen);
	ckfree(out);
	return TCL_ERROR;
    }
    d = (Mlx5Devx *) VerbsObjNew(&verbsDevxClass);
    d->devx = obj;
    d->out = out;
    d->outLen = args.outlen;
    d->refs = refs;
    if (Mlx5PrmCreated(in, inLen, out, args.outlen, &kind, &id) == 0) {
	d->kind = kind;
	d->id = id;
    }
    if (VerbsObjRegister(interp, &d->obj, &c->obj, args.head.command)
	    != TCL_OK) {
	mlx5dv_devx_obj_destroy(obj);
	Mlx5RefsFree(&d->refs);
	ckfree(out);
	ckfree(d);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * DevxGeneralCmd, DevxQueryEqnCmd --
 *
 *	mlx5::devx general CONTEXT IN -outlen N: mlx5dv_devx_general_cmd,
 *	the output bytes.  mlx5::devx query_eqn CONTEXT VECTOR: the EQ
 *	number of a completion vector.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	The firmware command.
 *
 *----------------------------------------------------------------------
 */

static int
DevxGeneralCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsContext *c;
    const unsigned char *in;
    Tcl_Size inLen, outLen;
    Tcl_Obj *outObj;
    unsigned char *out;
    int err;

    if (objc != 5) {
	Tcl_WrongNumArgs(interp, 1, objv, "context in -outlen bytes");
	return TCL_ERROR;
    }
    c = Mlx5GetContext(interp, objv[1], "mlx5dv_devx_general_cmd");
    if (c == NULL || CommandArgs(interp, objv + 2, &in, &inLen, &outLen)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    outObj = Tcl_NewByteArrayObj(NULL, outLen);
    Tcl_IncrRefCount(outObj);
    out = Tcl_GetByteArrayFromObj(outObj, NULL);
    memset(out, 0, (size_t) outLen);
    err = mlx5dv_devx_general_cmd(c->ctx, in, (size_t) inLen, out,
	    (size_t) outLen);
    if (err != 0) {
	Mlx5FirmwareError(interp, "mlx5dv_devx_general_cmd", &c->obj, err, in,
		inLen, out, outLen);
	Tcl_DecrRefCount(outObj);
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, outObj);
    Tcl_DecrRefCount(outObj);
    return TCL_OK;
}

static int
DevxQueryEqnCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsContext *c;
    uint64_t vector;
    uint32_t eqn = 0;
    int err;

    if (objc != 3) {
	Tcl_WrongNumArgs(interp, 1, objv, "context vector");
	return TCL_ERROR;
    }
    c = (VerbsContext *) VerbsObjGet(interp, objv[1], &verbsContextClass);
    if (c == NULL || VerbsGetUInt(interp, "vector", objv[2], UINT32_MAX,
	    &vector) != TCL_OK) {
	return TCL_ERROR;
    }
    if (!Mlx5DevxOn(c)) {
	return Mlx5NotSupported(interp, "mlx5dv_devx_query_eqn", c);
    }
    err = mlx5dv_devx_query_eqn(c->ctx, (uint32_t) vector, &eqn);
    if (err != 0) {
	return VerbsSysError(interp, "mlx5dv_devx_query_eqn", &c->obj,
		Tcl_GetString(objv[2]), err < 0 ? -err : err);
    }
    Tcl_SetObjResult(interp, Tcl_NewWideIntObj(eqn));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * UarAllocCmd, UarFree --
 *
 *	mlx5::devx uar alloc CONTEXT ?-flags bf|nc? ?-as NAME?
 *
 * Results:
 *	The UAR object command's name.
 *
 * Side effects:
 *	mlx5dv_devx_alloc_uar (freed by UarFree).
 *
 *----------------------------------------------------------------------
 */

static int
UarAllocCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t flags;
    } UarArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(UarArgs, flags, VF_ENUM, uarFlags, "bf|nc"),
	VERBS_FIELD_END
    };
    UarArgs args = {{NULL, NULL}, MLX5DV_UAR_ALLOC_TYPE_BF};
    VerbsContext *c;
    struct mlx5dv_devx_uar *uar;
    Mlx5Uar *u;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) args.head.parent;
    if (!Mlx5DevxOn(c)) {
	return Mlx5NotSupported(interp, "mlx5dv_devx_alloc_uar", c);
    }
    uar = mlx5dv_devx_alloc_uar(c->ctx, (uint32_t) args.flags);
    if (uar == NULL) {
	return VerbsSysError(interp, "mlx5dv_devx_alloc_uar", &c->obj, NULL,
		errno);
    }
    u = (Mlx5Uar *) VerbsObjWrap(interp, &verbsUarClass,
	    offsetof(Mlx5Uar, uar), uar, &c->obj, args.head.command);
    if (u) {
	u->flags = (uint32_t) args.flags;
    }
    return u ? TCL_OK : TCL_ERROR;
}

static void
UarFree(
    VerbsObj *objPtr)
{
    mlx5dv_devx_free_uar(((Mlx5Uar *) objPtr)->uar);
}

/*
 *----------------------------------------------------------------------
 *
 * UmemRegCmd, UmemFree, UmemClose --
 *
 *	mlx5::devx umem reg CONTEXT -length N ?-access FLAGS?
 *		?-as NAME?: a zeroed page-aligned buffer of its own,
 *	registered as a UMEM.  The buffer is freed only after the
 *	deregistration succeeded; a refused deregistration leaves both
 *	(UmemClose: an error and the object as it was; later: pending).
 *
 * Results:
 *	The UMEM object command's name.
 *
 * Side effects:
 *	Allocates; mlx5dv_devx_umem_reg.
 *
 *----------------------------------------------------------------------
 */

static int
UmemRegCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t access, length, pgsz_bitmap;
    } UmemArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(UmemArgs, access, VF_FLAGS, verbsAccessFlags, "flags"),
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_REQUIRED(UmemArgs, length, VF_UINT, NULL, INT64_MAX,
		"bytes:the size of the memory"),
	VERBS_OPTION(UmemArgs, pgsz_bitmap, VF_UINT, NULL, "bits"),
	VERBS_FIELD_END
    };
    UmemArgs args = {{NULL, NULL}, IBV_ACCESS_LOCAL_WRITE, 0, 0};
    const char *call = "mlx5dv_devx_umem_reg";
    VerbsContext *c;
    void *buf;
    long page = sysconf(_SC_PAGESIZE);
    size_t size;
    struct mlx5dv_devx_umem *umem;
    Mlx5Umem *u;
    int err;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK
	    || VerbsCheckLength(interp, "-length", args.length) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) args.head.parent;
    if (args.pgsz_bitmap) {
	call = "mlx5dv_devx_umem_reg_ex";
    }
    if (!Mlx5DevxOn(c)) {
	return Mlx5NotSupported(interp, call, c);
    }
    size = ((size_t) args.length + (size_t) page - 1) & ~((size_t) page - 1);
    err = posix_memalign(&buf, (size_t) page, size);
    if (err != 0) {
	return VerbsSysError(interp, "posix_memalign", &c->obj, NULL, err);
    }
    memset(buf, 0, size);
    if (args.pgsz_bitmap) {
	/* The page sizes the device may map it with. */
	struct mlx5dv_devx_umem_in uin;

	memset(&uin, 0, sizeof(uin));
	uin.addr = buf;
	uin.size = (size_t) args.length;
	uin.access = (uint32_t) args.access;
	uin.pgsz_bitmap = args.pgsz_bitmap;
	umem = mlx5dv_devx_umem_reg_ex(c->ctx, &uin);
    } else {
	umem = mlx5dv_devx_umem_reg(c->ctx, buf, (size_t) args.length,
		(uint32_t) args.access);
    }
    if (umem == NULL) {
	err = errno;
	free(buf);
	return VerbsSysError(interp, call, &c->obj, NULL, err);
    }
    u = (Mlx5Umem *) VerbsObjNew(&verbsUmemClass);
    u->umem = umem;
    u->buf = (unsigned char *) buf;
    u->length = (size_t) args.length;
    u->access = (uint32_t) args.access;
    if (VerbsObjRegister(interp, &u->obj, &c->obj, args.head.command)
	    != TCL_OK) {
	UmemFree(&u->obj);
	ckfree(u);
	return TCL_ERROR;
    }
    return TCL_OK;
}

static void
UmemFree(
    VerbsObj *objPtr)
{
    Mlx5Umem *u = (Mlx5Umem *) objPtr;
    Mlx5Refs none = {0, 0, NULL};

    if (u->umem == NULL) {
	return;			/* Deregistered by UmemClose. */
    }
    if (u->imported) {
	Mlx5Unimport(1, u->umem);
	return;
    }
    if (mlx5dv_devx_umem_dereg(u->umem) != 0) {
	PendingAdd((VerbsContext *) objPtr->parent, PENDING_UMEM, u->umem,
		u->buf, "umem", u->umem->umem_id, &none);
	return;
    }
    free(u->buf);
    if (objPtr->parent) {
	Mlx5PendingRetry((VerbsContext *) objPtr->parent);
    }
}

static int
UmemDestroyNow(
    VerbsObj *objPtr)
{
    Mlx5Umem *u = (Mlx5Umem *) objPtr;
    int err;

    if (u->umem == NULL) {
	return -1;
    }
    if (u->imported) {
	Mlx5Unimport(1, u->umem);
	u->umem = NULL;
	return 0;
    }
    err = mlx5dv_devx_umem_dereg(u->umem);
    if (err != 0) {
	return err < 0 ? -err : err;
    }
    u->umem = NULL;
    free(u->buf);
    u->buf = NULL;
    return 0;
}

static int
UmemClose(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return CloseDestroying(interp, objPtr, objc, objv, UmemDestroyNow,
	    "mlx5dv_devx_umem_dereg", NULL);
}

/*
 *----------------------------------------------------------------------
 *
 * UmemAddr, UmemRead, UmemWrite --
 *
 *	cget -addr: the buffer's address (for PRM fields that want it).
 *	$umem read OFFSET LENGTH: bytes of the buffer.  $umem write OFFSET
 *	BYTES: copy bytes in.  The range must lie inside -length.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	write changes the buffer.
 *
 *----------------------------------------------------------------------
 */

static int
UmemAddr(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = VerbsU64Obj((uint64_t) (uintptr_t) ((Mlx5Umem *) objPtr)->buf);
    return TCL_OK;
}

static int
UmemRead(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    Mlx5Umem *u = (Mlx5Umem *) objPtr;
    uint64_t off, len;

    if (VerbsGetRange(interp, objPtr, u->length, objv[2], objv[3], &off,
	    &len) != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, Tcl_NewByteArrayObj(u->buf + off,
	    (Tcl_Size) len));
    return TCL_OK;
}

static int
UmemWrite(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    Mlx5Umem *u = (Mlx5Umem *) objPtr;
    const unsigned char *bytes;
    uint64_t off;
    Tcl_Size n;

    bytes = VerbsGetWrite(interp, objPtr, u->length, objv[2], objv[3], &off,
	    &n);
    if (bytes == NULL) {
	return TCL_ERROR;
    }
    if (n > 0) {
	memcpy(u->buf + off, bytes, (size_t) n);
    }

    /*
     * The device reads it once a later write (a doorbell record, a UAR
     * doorbell) tells it to: this write is done before those.
     */

    Mlx5DeviceBarrier();
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * UarDoorbell --
 *
 *	$uar doorbell BYTES ?OFFSET?: ring the UAR's doorbell: the 8 bytes
 *	(the first 8 of a WQE's control segment, as they are in memory) as
 *	one 64-bit store to the UAR's register (reg_addr, plus OFFSET),
 *	after every write before it (the WQE, its doorbell record); 4 bytes
 *	as one 32-bit store (an EQ's arm and consumer index, base_addr +
 *	0x40 or 0x48).  OFFSET, a multiple of the size, may be negative,
 *	down to the page's start (base_addr): a QP without a send doorbell
 *	record rings base_addr + 0x600.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	The device starts on the work queue.
 *
 *----------------------------------------------------------------------
 */

static int
UarDoorbell(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    Mlx5Uar *u = (Mlx5Uar *) objPtr;
    uint64_t word = 0;
    uint32_t half = 0;
    Tcl_WideInt off = 0, below, room;
    Tcl_Size n;
    const unsigned char *b = VerbsGetBytes(interp, "bytes", objv[2], &n);

    if (b == NULL) {
	return TCL_ERROR;
    }
    if (n != 8 && n != 4) {
	return VerbsArgError(interp, "bytes", NULL, "a doorbell is 8 or 4 "
		"bytes, not %" TCL_SIZE_MODIFIER "d", n);
    }
    /* Copied before the offset's parse can free b. */
    if (n == 8) {
	memcpy(&word, b, 8);
    } else {
	memcpy(&half, b, 4);
    }

    /* The register's page is mapped from base_addr: stay within it. */
    below = (char *) u->uar->reg_addr - (char *) u->uar->base_addr;
    room = (Tcl_WideInt) sysconf(_SC_PAGESIZE) - below - n;
    if (objc == 4 && (Tcl_GetWideIntFromObj(NULL, objv[3], &off) != TCL_OK
	    || off < -below || off > room || off % n != 0)) {
	return VerbsArgError(interp, "offset", objv[3], "bad offset \"%s\": "
		"must be a multiple of %d from %" TCL_LL_MODIFIER "d (the "
		"page's start) to %" TCL_LL_MODIFIER "d",
		Tcl_GetString(objv[3]), (int) n, -below, room);
    }
    Mlx5DeviceBarrier();
    if (n == 8) {
	*(volatile uint64_t *) ((char *) u->uar->reg_addr + off) = word;
    } else {
	*(volatile uint32_t *) ((char *) u->uar->reg_addr + off) = half;
    }
    Mlx5MmioFlush();
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VarAllocCmd, VarFree, PpAllocCmd, PpFree --
 *
 *	mlx5::var alloc CONTEXT ?-as NAME?: a virtio doorbell page
 *	(mlx5dv_alloc_var).  mlx5::pp alloc CONTEXT RATE_BYTES ?-flags
 *	dedicated_index? ?-as NAME?: a packet pacing index for the
 *	rate limit context RATE_BYTES (e.g. [mlx5::prm pack
 *	set_pp_rate_limit_context {rate_limit 100}]).
 *
 * Results:
 *	The object command's name.
 *
 * Side effects:
 *	Allocates the resource (freed by the free proc).
 *
 *----------------------------------------------------------------------
 */

static int
VarAllocCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t flags;
    } VarArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(VarArgs, flags, VF_FLAGS, varFlags, "flags"),
	VERBS_FIELD_END
    };
    VarArgs a = {{NULL, NULL}, 0};
    VerbsContext *c;
    struct mlx5dv_var *var;
    VerbsObj *o;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &a,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) a.head.parent;
    if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_alloc_var", c);
    }
#ifndef HAVE_MLX5DV_VAR_ALLOC_FLAG_TLP
    if (a.flags & MLX5DV_VAR_ALLOC_FLAG_TLP) {
	return VerbsSysError(interp, "mlx5dv_alloc_var", &c->obj,
		"-flags tlp needs rdma-core 63 or later", EOPNOTSUPP);
    }
#endif
    var = mlx5dv_alloc_var(c->ctx, (uint32_t) a.flags);
    if (var == NULL) {
	return VerbsSysError(interp, "mlx5dv_alloc_var", &c->obj, NULL,
		errno);
    }
    o = VerbsObjWrap(interp, &verbsVarClass, offsetof(Mlx5Var, var), var,
	    &c->obj, a.head.command);
    if (o == NULL) {
	return TCL_ERROR;
    }
    ((Mlx5Var *) o)->flags = (uint32_t) a.flags;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VarMap, VarUnmap, VarMapped --
 *
 *	$var map: maps the VAR's doorbell page into this process, as a
 *	virtio driver would (mmap of the context's command fd at the VAR's
 *	mmap_off, length bytes); $var unmap undoes it (as does close).
 *	cget -mapped says whether it is mapped.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	mmap, munmap.
 *
 *----------------------------------------------------------------------
 */

static int
VarMap(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    Mlx5Var *v = (Mlx5Var *) objPtr;
    VerbsContext *c = Mlx5ContextOf(objPtr);
    void *p;

    if (v->map != NULL) {
	return VerbsStateError(interp, objPtr, "mapped", "map",
		"an unmapped var");
    }
    p = mmap(NULL, v->var->length, PROT_READ | PROT_WRITE, MAP_SHARED,
	    c->ctx->cmd_fd, (off_t) v->var->mmap_off);
    if (p == MAP_FAILED) {
	return VerbsSysError(interp, "mmap", objPtr, NULL, errno);
    }
    v->map = p;
    return TCL_OK;
}

static int
VarUnmap(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    Mlx5Var *v = (Mlx5Var *) objPtr;

    if (v->map == NULL) {
	return VerbsStateError(interp, objPtr, "unmapped", "unmap",
		"a mapped var");
    }
    munmap(v->map, v->var->length);
    v->map = NULL;
    return TCL_OK;
}

static int
VarMapped(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = Tcl_NewBooleanObj(((Mlx5Var *) objPtr)->map != NULL);
    return TCL_OK;
}

static void
VarFree(
    VerbsObj *objPtr)
{
    Mlx5Var *v = (Mlx5Var *) objPtr;

    if (v->map != NULL) {
	munmap(v->map, v->var->length);
    }
    if (v->imported) {
	Mlx5Unimport(2, v->var);
    } else {
	mlx5dv_free_var(v->var);
    }
}

static int
PpAllocCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t flags;
    } PpArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(PpArgs, flags, VF_FLAGS, ppFlags, "flags"),
	VERBS_FIELD_END
    };
    PpArgs args = {{NULL, NULL}, 0};
    VerbsContext *c;
    const unsigned char *rate;
    Tcl_Size rateLen;
    struct mlx5dv_pp *pp;

    if (VerbsCreateArgs(interp, objc, objv, "context rate_bytes", options,
	    &args, &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) args.head.parent;
    if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_pp_alloc", c);
    }
    rate = VerbsGetBytes(interp, "rate_bytes", objv[2], &rateLen);
    if (rate == NULL) {
	return TCL_ERROR;
    }
    pp = mlx5dv_pp_alloc(c->ctx, (size_t) rateLen, rate,
	    (uint32_t) args.flags);
    if (pp == NULL) {
	return VerbsSysError(interp, "mlx5dv_pp_alloc", &c->obj, NULL, errno);
    }
    return VerbsObjWrap(interp, &verbsPpClass, offsetof(Mlx5Pp, pp), pp,
	    &c->obj, args.head.command) ? TCL_OK : TCL_ERROR;
}

static void
PpFree(
    VerbsObj *objPtr)
{
    mlx5dv_pp_free(((Mlx5Pp *) objPtr)->pp);
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5DevxInit --
 *
 *	The DevX commands (their ensembles are made by Mlx5Init).
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
Mlx5DevxInit(
    Tcl_Interp *interp)
{
    Mlx5AddCommand(interp, "devx::obj::create", DevxObjCreateCmd);
    Mlx5AddCommand(interp, "devx::general", DevxGeneralCmd);
    Mlx5AddCommand(interp, "devx::query_eqn", DevxQueryEqnCmd);
    Mlx5AddCommand(interp, "devx::uar::create", UarAllocCmd);
    Mlx5AddCommand(interp, "devx::uar::alloc", UarAllocCmd);
    Mlx5AddCommand(interp, "devx::umem::create", UmemRegCmd);
    Mlx5AddCommand(interp, "devx::umem::reg", UmemRegCmd);
    Mlx5AddCommand(interp, "var::create", VarAllocCmd);
    Mlx5AddCommand(interp, "var::alloc", VarAllocCmd);
    Mlx5AddCommand(interp, "pp::create", PpAllocCmd);
    Mlx5AddCommand(interp, "pp::alloc", PpAllocCmd);
    return TCL_OK;
}
