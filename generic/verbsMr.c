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

static VerbsMethodProc MrRead, MrWrite, MrFill;

static const VerbsMethod mrMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"fill", MrFill, 1, 3, "byte ?offset? ?length?"},
    {"read", MrRead, 2, 2, "offset length"},
    {"write", MrWrite, 2, 2, "offset bytes"},
    {NULL, NULL, 0, 0, NULL}
};

static const char *const mrOptions[] = {
    "-addr", "-length", "-lkey", "-rkey", "-access", "-pd", NULL
};

/*
 *----------------------------------------------------------------------
 *
 * MrCget, MrFree --
 *
 *	cget options; deregistration and release of the buffer.
 *
 * Results:
 *	MrCget: TCL_OK with *valuePtr set.
 *
 * Side effects:
 *	MrFree: ibv_dereg_mr, frees the buffer (not if the deregistration
 *	failed).
 *
 *----------------------------------------------------------------------
 */

static int
MrCget(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    int index,
    Tcl_Obj **valuePtr)
{
    VerbsMr *m = (VerbsMr *) objPtr;

    switch (index) {
    case 0: *valuePtr = Tcl_NewWideIntObj((Tcl_WideInt)(uintptr_t) m->buf);
	break;
    case 1: *valuePtr = Tcl_NewWideIntObj((Tcl_WideInt) m->length); break;
    case 2: *valuePtr = Tcl_NewWideIntObj(m->mr->lkey); break;
    case 3: *valuePtr = Tcl_NewWideIntObj(m->mr->rkey); break;
    case 4: *valuePtr = VerbsFlagsObj(verbsAccessFlags, m->access); break;
    default: *valuePtr = VerbsObjName(objPtr->parent); break;
    }
    return TCL_OK;
}

static void
MrFree(
    VerbsObj *objPtr)
{
    VerbsMr *m = (VerbsMr *) objPtr;

    /*
     * If the device keeps the registration (it should not: windows hold
     * their MR), the memory stays too: it may still be written.
     */

    if (ibv_dereg_mr(m->mr) == 0) {
	free(m->buf);
    }
}

const VerbsType verbsMrClass = {
    "mr", sizeof(VerbsMr), mrMethods, mrOptions, MrCget, MrFree, NULL
};

/*
 *----------------------------------------------------------------------
 *
 * VerbsMrRange, MrCheckRange --
 *
 *	Check that OFFSET and LENGTH words (or numbers: MrCheckRange) name
 *	a range inside the MR; the error names the word at fault.
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
MrCheckRange(
    Tcl_Interp *interp,
    VerbsMr *m,
    uint64_t off,
    uint64_t len,
    int lengthAtFault)
{
    Tcl_Obj *name, *value;

    if (off <= m->length && len <= m->length - off) {
	return TCL_OK;
    }
    name = VerbsObjName(&m->obj);
    value = Tcl_NewWideIntObj((Tcl_WideInt) (lengthAtFault ? len : off));
    Tcl_IncrRefCount(value);
    VerbsArgError(interp, lengthAtFault ? "length" : "offset", value,
	    "range %llu+%llu is outside %s (length %llu)",
	    (unsigned long long) off, (unsigned long long) len,
	    Tcl_GetString(name), (unsigned long long) m->length);
    Tcl_DecrRefCount(value);
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
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

    if (VerbsGetUInt(interp, "offset", offsetObj, INT64_MAX, &off) != TCL_OK
	    || (lengthObj && VerbsGetUInt(interp, "length", lengthObj,
	    INT64_MAX, &len) != TCL_OK)) {
	return TCL_ERROR;
    }
    if (MrCheckRange(interp, m, off, len, off <= m->length && lengthObj)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    *offsetPtr = off;
    *lengthPtr = len;
    return TCL_OK;
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

    if (VerbsMrRange(interp, m, objv[2], objv[3], &off, &len) != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, Tcl_NewByteArrayObj(m->buf + off, (int) len));
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

    /*
     * The offset first: its integer parse could free the byte array rep
     * if both words are one object.
     */

    if (VerbsGetUInt(interp, "offset", objv[2], INT64_MAX, &off) != TCL_OK) {
	return TCL_ERROR;
    }
    bytes = Tcl_GetByteArrayFromObj(objv[3], &n);
    if (bytes == NULL) {
	/* Tcl 9: a character above \xFF is not a byte. */
	return VerbsArgError(interp, "bytes", objv[3],
		"expected byte string but got \"%s\"", Tcl_GetString(objv[3]));
    }
    if (MrCheckRange(interp, m, off, (size_t) n, 1) != TCL_OK) {
	return TCL_ERROR;
    }
    memcpy(m->buf + off, bytes, (size_t) n);
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

    if (VerbsGetUInt(interp, "byte", objv[2], 255, &byte) != TCL_OK) {
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
    memset(m->buf + off, (int) byte, len);
    Tcl_ResetResult(interp);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsMrCreateCmd --
 *
 *	verbs::mr create PD -length N ?-access FLAGS? ?-command NAME?
 *
 * Results:
 *	The mr object command's name.
 *
 * Side effects:
 *	Allocates a zeroed page-aligned buffer and registers it.
 *
 *----------------------------------------------------------------------
 */

int
VerbsMrCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const char *const options[] = {
	"-access", "-command", "-length", NULL
    };
    enum { O_ACCESS, O_COMMAND, O_LENGTH };
    Tcl_Obj *values[3] = {NULL, NULL, NULL};
    VerbsPd *p;
    VerbsMr *m;
    uint64_t length, access = IBV_ACCESS_LOCAL_WRITE;
    void *buf;
    struct ibv_mr *mr;
    long page = sysconf(_SC_PAGESIZE);
    int err;

    p = (VerbsPd *) VerbsCreateArgs(interp, objc, objv, 2,
	    "pd -length bytes ?-access flags? ?-command name?",
	    options, values, &verbsPdClass);
    if (p == NULL) {
	return TCL_ERROR;
    }
    if (values[O_LENGTH] == NULL) {
	return VerbsArgError(interp, "-length", NULL,
		"missing -length: the size of the region in bytes");
    }
    if (VerbsGetUInt(interp, "-length", values[O_LENGTH], INT32_MAX,
	    &length) != TCL_OK) {
	return TCL_ERROR;
    }
    if (length == 0) {
	return VerbsArgError(interp, "-length", values[O_LENGTH],
		"bad -length \"0\": must be at least 1");
    }
    if (values[O_ACCESS] && VerbsGetFlags(interp, verbsAccessFlags,
	    "-access", values[O_ACCESS], &access) != TCL_OK) {
	return TCL_ERROR;
    }
    err = posix_memalign(&buf, (size_t) page,
	    (length + page - 1) / page * page);
    if (err) {
	return VerbsSysError(interp, "posix_memalign", NULL, NULL, err);
    }
    memset(buf, 0, length);
    mr = ibv_reg_mr(p->pd, buf, length, (int) access);
    if (mr == NULL) {
	err = errno;
	free(buf);
	return VerbsSysError(interp, "ibv_reg_mr", &p->obj, NULL, err);
    }
    m = (VerbsMr *) VerbsObjNew(&verbsMrClass);
    m->mr = mr;
    m->buf = buf;
    m->length = length;
    m->access = (int) access;
    if (VerbsObjRegister(interp, &m->obj, &p->obj, values[O_COMMAND])
	    != TCL_OK) {
	MrFree(&m->obj);
	ckfree(m);
	return TCL_ERROR;
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

static const char *const mwOptions[] = {
    "-rkey", "-type", "-handle", "-pd", "-mr", NULL
};

/*
 *----------------------------------------------------------------------
 *
 * MwCget, MwFree, VerbsMwBound --
 *
 *	cget options; deallocation (which unbinds the window and lets go
 *	of its MR); remembering the MR of a bind.
 *
 * Results:
 *	MwCget: TCL_OK with *valuePtr set.
 *
 * Side effects:
 *	MwFree: ibv_dealloc_mw.  VerbsMwBound: moves the MR reference.
 *
 *----------------------------------------------------------------------
 */

static int
MwCget(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    int index,
    Tcl_Obj **valuePtr)
{
    VerbsMw *w = (VerbsMw *) objPtr;

    switch (index) {
    case 0: *valuePtr = Tcl_NewWideIntObj(w->mw->rkey); break;
    case 1: *valuePtr = Tcl_NewIntObj(w->mw->type); break;
    case 2: *valuePtr = Tcl_NewWideIntObj(w->mw->handle); break;
    case 3: *valuePtr = VerbsObjName(objPtr->parent); break;
    default:
	*valuePtr = w->boundMr ? VerbsObjName(&w->boundMr->obj)
		: Tcl_NewObj();
	break;
    }
    return TCL_OK;
}

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
    "mw", sizeof(VerbsMw), mwMethods, mwOptions, MwCget, MwFree, NULL
};

/*
 *----------------------------------------------------------------------
 *
 * VerbsMwCreateCmd --
 *
 *	verbs::mw create PD ?-type 1|2? ?-command NAME?
 *
 * Results:
 *	The mw object command's name.
 *
 * Side effects:
 *	ibv_alloc_mw.
 *
 *----------------------------------------------------------------------
 */

int
VerbsMwCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const char *const options[] = {"-command", "-type", NULL};
    static const VerbsEnum types[] = {
	{"1", IBV_MW_TYPE_1}, {"2", IBV_MW_TYPE_2}, {NULL, 0}
    };
    Tcl_Obj *values[2] = {NULL, NULL};
    uint64_t type = IBV_MW_TYPE_1;
    struct ibv_mw *mw;
    VerbsPd *p;
    VerbsMw *w;

    p = (VerbsPd *) VerbsCreateArgs(interp, objc, objv, 2,
	    "pd ?-type 1|2? ?-command name?", options, values, &verbsPdClass);
    if (p == NULL || (values[1] && VerbsGetEnum(interp, types, "-type",
	    values[1], &type) != TCL_OK)) {
	return TCL_ERROR;
    }
    mw = ibv_alloc_mw(p->pd, (enum ibv_mw_type) type);
    if (mw == NULL) {
	return VerbsSysError(interp, "ibv_alloc_mw", &p->obj, NULL, errno);
    }
    w = (VerbsMw *) VerbsObjNew(&verbsMwClass);
    w->mw = mw;
    if (VerbsObjRegister(interp, &w->obj, &p->obj, values[0]) != TCL_OK) {
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
    static const char *const keys[] = {
	"length", "mr", "mw_access_flags", "offset", NULL
    };
    enum { K_LENGTH, K_MR, K_ACCESS, K_OFFSET };
    Tcl_Obj *v[4] = {NULL, NULL, NULL, NULL}, *keyObj, *valueObj;
    Tcl_DictSearch search;
    VerbsMr *m;
    size_t off = 0, len;
    uint64_t access = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
    int done, idx;

    if (Tcl_DictObjFirst(NULL, dictObj, &search, &keyObj, &valueObj, &done)
	    != TCL_OK) {
	return VerbsArgError(interp, "bind_info", dictObj,
		"bad bind_info \"%s\": must be a dict", Tcl_GetString(dictObj));
    }
    for (; !done; Tcl_DictObjNext(&search, &keyObj, &valueObj, &done)) {
	if (Tcl_GetIndexFromObj(interp, keyObj, keys, "bind_info key",
		TCL_EXACT, &idx) != TCL_OK) {
	    Tcl_DictObjDone(&search);
	    Tcl_SetErrorCode(interp, "VERBS", "ARG", Tcl_GetString(keyObj),
		    Tcl_GetString(valueObj), NULL);
	    return TCL_ERROR;
	}
	v[idx] = valueObj;
    }
    Tcl_DictObjDone(&search);
    if (v[K_MR] == NULL) {
	return VerbsArgError(interp, "mr", NULL, "bind_info needs mr");
    }
    m = (VerbsMr *) VerbsObjGet(interp, v[K_MR], &verbsMrClass);
    if (m == NULL) {
	return TCL_ERROR;
    }
    len = m->length;
    if (v[K_OFFSET] || v[K_LENGTH]) {
	Tcl_Obj *zero = Tcl_NewIntObj(0);
	int result;

	Tcl_IncrRefCount(zero);
	len = 0;
	result = VerbsMrRange(interp, m, v[K_OFFSET] ? v[K_OFFSET] : zero,
		v[K_LENGTH], &off, &len);
	Tcl_DecrRefCount(zero);
	if (result != TCL_OK) {
	    return TCL_ERROR;
	}
	if (!v[K_LENGTH]) {
	    len = m->length - off;
	}
    }
    if (v[K_ACCESS] && VerbsGetFlags(interp, verbsAccessFlags,
	    "mw_access_flags", v[K_ACCESS], &access) != TCL_OK) {
	return TCL_ERROR;
    }
    info->mr = m->mr;
    info->addr = (uintptr_t) (m->buf + off);
    info->length = len;
    info->mw_access_flags = (unsigned) access;
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

    if (m->obj.parent == w->obj.parent) {
	return TCL_OK;
    }
    name = VerbsObjName(&m->obj);
    VerbsArgError(interp, "mr", name, "mr \"%s\" is on another pd than the "
	    "window", Tcl_GetString(name));
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
}
