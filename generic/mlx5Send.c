/*
 * mlx5Send.c --
 *
 *	Sending from the QPs of an mlx5 device, and the QP calls of
 *	libmlx5: [mlx5::qp wr_post] (the ibv_wr_* post API of a QP made by
 *	[mlx5::qp create], with a DCI's address, mlx5dv_wr_memcpy and
 *	mlx5dv_wr_raw_wqe), [mlx5::qp cancel_posted_send_wrs],
 *	[mlx5::qp dci_stream_id_reset], [mlx5::qp lag_port],
 *	[mlx5::qp udp_sport] and [mlx5::qp map_ah].
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5.h"
#include <errno.h>
#include <string.h>

/*
 * The opcodes of libmlx5's own work requests.
 */

enum { DV_VERBS = 0, DV_MEMCPY = 1, DV_RAW_WQE = 2 };

static const VerbsEnum dvOpcodes[] = {
    {"memcpy", DV_MEMCPY}, {"raw_wqe", DV_RAW_WQE}, {NULL, 0}
};

/*
 * The keys of a work request of libmlx5's own (DvWrArgs) and of a DCI's
 * address (DcArgs).
 */

typedef struct DvWrArgs {
    Tcl_Obj *dc;
    VerbsSgeArg dest;
    uint64_t opcode;
    uint64_t send_flags;
    VerbsSgeArg src;
    uint64_t wr_id;
    Tcl_Obj *wqe;
} DvWrArgs;

static const VerbsField dvWrFields[] = {
    VERBS_FIELD(DvWrArgs, dc, VF_TCLOBJ, NULL, 0, 0),
    VERBS_FIELD_PARSE(DvWrArgs, dest, VerbsParseSge),
    VERBS_FIELD(DvWrArgs, opcode, VF_ENUM, dvOpcodes, 0, 0),
    VERBS_FIELD(DvWrArgs, send_flags, VF_FLAGS, verbsSendFlags, 0, 0),
    VERBS_FIELD_PARSE(DvWrArgs, src, VerbsParseSge),
    VERBS_FIELD(DvWrArgs, wqe, VF_TCLOBJ, NULL, 0, 0),
    VERBS_FIELD(DvWrArgs, wr_id, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct dvWrStruct = {"mlx5 wr key", dvWrFields};

#define DC_STREAM 1		/* The given bit of stream_id. */
#define DC_NEEDED 2		/* Of each key a DCI's address needs. */

typedef struct DcArgs {
    VerbsObj *ah;
    uint64_t remote_dc_key;
    uint32_t remote_dctn;
    uint16_t stream_id;
} DcArgs;

static const VerbsField dcFields[] = {
    VERBS_FIELD(DcArgs, ah, VF_OBJ, &verbsAhClass, DC_NEEDED << 0, 0),
    VERBS_FIELD(DcArgs, remote_dc_key, VF_UINT, NULL, DC_NEEDED << 1, 0),
    VERBS_FIELD_MAX(DcArgs, remote_dctn, VF_UINT, DC_NEEDED << 2, 0xffffff),
    VERBS_FIELD(DcArgs, stream_id, VF_UINT, NULL, DC_STREAM, 0),
    VERBS_FIELD_END
};
static const VerbsStruct dcStruct = {"dc key", dcFields};

/*
 * One work request of a post, as parsed (DvWrParse) for its building.
 */

typedef struct DvWr {
    int op;			/* DV_VERBS, libmlx5's own opcode, or an
				 * mkey's (MLX5_MKEY_WR_*, mlx5Mkey.c). */
    Mlx5MkeyWr *mk;		/* An mkey's work request, or NULL. */
    uint64_t wrId;
    unsigned flags;
    struct ibv_sge src, dest;	/* DV_MEMCPY. */
    const unsigned char *wqe;	/* DV_RAW_WQE: held by the post's words. */
    int hasDc, hasStream;	/* A DCI's address: */
    struct ibv_ah *ah;
    uint32_t dctn;
    uint64_t key;
    uint16_t streamId;
} DvWr;

typedef struct DvPost {
    VerbsQp *q;
    Tcl_Obj *qpName;
    struct mlx5dv_qp_ex *mqp;
    const Mlx5QpData *dv;
    DvWr *wrs;
} DvPost;

/*
 *----------------------------------------------------------------------
 *
 * Mlx5GetQp --
 *
 *	The qp object named by nameObj, which must be on an mlx5 device
 *	(call names the libmlx5 entry point about to be used, for the
 *	error).
 *
 * Results:
 *	The QP, or NULL with an error in the interp.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static VerbsQp *
Mlx5GetQp(
    Tcl_Interp *interp,
    Tcl_Obj *nameObj,
    const char *call)
{
    VerbsQp *q = (VerbsQp *) VerbsObjGet(interp, nameObj, &verbsQpClass);
    VerbsContext *c;

    if (q == NULL) {
	return NULL;
    }
    c = Mlx5ContextOf(&q->obj);
    if (c != NULL && !mlx5dv_is_supported(c->ctx->device)) {
	Mlx5NotSupported(interp, call, c);
	return NULL;
    }
    return q;
}

/*
 *----------------------------------------------------------------------
 *
 * DcParse, DvWrParse, DvWrAddress, DvWrBuild --
 *
 *	The VerbsWrExt of [mlx5::qp wr_post].  DvWrParse takes a work
 *	request's dc key out (a DCI's address: DcParse), and takes a
 *	work request of libmlx5's own opcodes (memcpy, raw_wqe) whole.
 *	DvWrAddress gives a verbs work request its DCI address after its
 *	builder; DvWrBuild builds one of libmlx5's own.
 *
 * Results:
 *	DcParse and DvWrParse: a standard Tcl result.
 *
 * Side effects:
 *	DvWrAddress and DvWrBuild add to the QP's open batch.
 *
 *----------------------------------------------------------------------
 */

static int
DcParse(
    Tcl_Interp *interp,
    VerbsQp *q,
    const Mlx5QpData *dv,
    Tcl_Obj *dcObj,		/* The dc key's value, or NULL. */
    DvWr *w)
{
    DcArgs a;
    uint64_t given = 0;

    if (dv->dcType != MLX5DV_DCTYPE_DCI) {
	if (dcObj == NULL) {
	    return TCL_OK;
	}
	return VerbsArgError(interp, "dc", NULL, "dc is the address of a "
		"dci's send: this qp is not a dci");
    }
    if (dcObj == NULL) {
	return VerbsArgError(interp, "dc", NULL, "a dci's send needs dc "
		"{ah AH remote_dctn DCTN remote_dc_key KEY}");
    }
    memset(&a, 0, sizeof(a));
    if (VerbsDictToStruct(interp, &dcStruct, "dc", dcObj, &a, &given)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if ((given & (7 * DC_NEEDED)) != 7 * DC_NEEDED) {
	return VerbsArgError(interp, "dc", dcObj, "dc needs ah, remote_dctn "
		"and remote_dc_key");
    }
    if (a.ah->parent != q->obj.parent) {
	Tcl_Obj *name = VerbsObjName(a.ah);

	VerbsArgError(interp, "ah", name, "ah \"%s\" is on another pd",
		Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    w->hasDc = 1;
    w->hasStream = (given & DC_STREAM) != 0;
    w->ah = ((VerbsAh *) a.ah)->ah;
    w->dctn = a.remote_dctn;
    w->key = a.remote_dc_key;
    w->streamId = a.stream_id;
    return TCL_OK;
}

static int DvOwnParse(Tcl_Interp *interp, DvPost *p, Tcl_Obj *wrObj,
			    DvWr *w);

/*
 * A work request that lays an mkey out (mlx5Mkey.c parses and builds it):
 * the QP must have been made with the -send_ops_flags it needs.
 */

static int
DvMkeyParse(
    Tcl_Interp *interp,
    DvPost *p,
    Tcl_Obj *wrObj,
    int op,
    DvWr *w)
{
    uint64_t need = op == MLX5_MKEY_WR_CONFIGURE
	    ? MLX5DV_QP_EX_WITH_MKEY_CONFIGURE : op == MLX5_MKEY_WR_LIST
	    ? MLX5DV_QP_EX_WITH_MR_LIST : MLX5DV_QP_EX_WITH_MR_INTERLEAVED;

    if ((p->dv->sendOps & need) == 0) {
	Tcl_Obj *name = VerbsEnumObj(mlx5MkeyOpcodes, (uint64_t) op);

	VerbsArgError(interp, "opcode", name, "%s was not created with "
		"-send_ops_flags %s", Tcl_GetString(p->qpName),
		Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    w->op = op;
    return Mlx5MkeyWrParse(interp, wrObj, &w->mk, &w->wrId, &w->flags);
}

static int
DvWrParse(
    Tcl_Interp *interp,
    VerbsQp *q VERBS_UNUSED,
    int i,
    Tcl_Obj *wrObj,
    Tcl_Obj **restPtr,
    void *clientData)
{
    DvPost *p = (DvPost *) clientData;
    DvWr *w = &p->wrs[i];
    Tcl_Obj *opObj, *dcObj, *rest;
    const VerbsEnum *e;

    memset(w, 0, sizeof(*w));
    if (Tcl_DictObjGet(interp, wrObj, VerbsKeyObj("opcode"), &opObj)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    for (e = dvOpcodes; opObj && e->name; e++) {
	if (strcmp(Tcl_GetString(opObj), e->name) == 0) {
	    *restPtr = NULL;
	    return DvOwnParse(interp, p, wrObj, w);
	}
    }
    for (e = mlx5MkeyOpcodes; opObj && e->name; e++) {
	if (strcmp(Tcl_GetString(opObj), e->name) == 0) {
	    *restPtr = NULL;
	    return DvMkeyParse(interp, p, wrObj, (int) e->value, w);
	}
    }
    if (Tcl_DictObjGet(interp, wrObj, VerbsKeyObj("dc"), &dcObj) != TCL_OK
	    || DcParse(interp, p->q, p->dv, dcObj, w) != TCL_OK) {
	return TCL_ERROR;
    }
    if (dcObj == NULL) {
	*restPtr = wrObj;
	return TCL_OK;
    }
    rest = Tcl_DuplicateObj(wrObj);	/* Unshared: VerbsQpWrPost holds */
    Tcl_DictObjRemove(NULL, rest, VerbsKeyObj("dc"));	/* it from here. */
    *restPtr = rest;
    return TCL_OK;
}

static int
DvOwnParse(
    Tcl_Interp *interp,
    DvPost *p,
    Tcl_Obj *wrObj,
    DvWr *w)
{
    DvWrArgs a;
    Tcl_Obj *name;

    memset(&a, 0, sizeof(a));
    if (VerbsDictToStruct(interp, &dvWrStruct, "wr", wrObj, &a, NULL)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    w->op = (int) a.opcode;
    w->wrId = a.wr_id;
    w->flags = (unsigned) a.send_flags;
    if ((p->dv->sendOps & (w->op == DV_MEMCPY ? MLX5DV_QP_EX_WITH_MEMCPY
	    : MLX5DV_QP_EX_WITH_RAW_WQE)) == 0) {
	name = VerbsEnumObj(dvOpcodes, a.opcode);
	VerbsArgError(interp, "opcode", name, "%s was not created with "
		"-send_ops_flags %s", Tcl_GetString(p->qpName),
		Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    if (w->op == DV_MEMCPY) {
	if (a.src.mr == NULL || a.dest.mr == NULL) {
	    return VerbsArgError(interp, a.src.mr ? "dest" : "src", NULL,
		    "a memcpy needs src and dest, each {mr offset length}");
	}
	if (a.dest.sge.length < a.src.sge.length) {
	    return VerbsArgError(interp, "dest", a.dest.valueObj, "dest "
		    "holds %u bytes: memcpy copies src's %u",
		    a.dest.sge.length, a.src.sge.length);
	}
	w->src = a.src.sge;
	w->dest = a.dest.sge;
    } else {
	Tcl_Size len;

	if (a.wqe == NULL) {
	    return VerbsArgError(interp, "wqe", NULL, "a raw_wqe needs wqe, "
		    "its bytes (mlx5::wqe pack)");
	}
	w->wqe = VerbsGetBytes(interp, "wqe", a.wqe, &len);
	if (w->wqe == NULL) {
	    return TCL_ERROR;
	}
	/* libmlx5 copies the ds 16-byte units the control segment names. */
	if (len < 16 || len % 16 != 0 || (w->wqe[7] & 0x3f) * 16 != len) {
	    return VerbsArgError(interp, "wqe", NULL, "a raw wqe is 16-byte "
		    "units, as many as its control segment's ds names: "
		    "got %" TCL_SIZE_MODIFIER "d bytes with ds %d", len,
		    len >= 8 ? w->wqe[7] & 0x3f : 0);
	}
    }
    return DcParse(interp, p->q, p->dv, a.dc, w);
}

static void
DvWrAddress(
    VerbsQp *q VERBS_UNUSED,
    int i,
    void *clientData)
{
    DvPost *p = (DvPost *) clientData;
    const DvWr *w = &p->wrs[i];

    if (!w->hasDc) {
	return;
    }
    if (w->hasStream) {
	mlx5dv_wr_set_dc_addr_stream(p->mqp, w->ah, w->dctn, w->key,
		w->streamId);
    } else {
	mlx5dv_wr_set_dc_addr(p->mqp, w->ah, w->dctn, w->key);
    }
}

static void
DvWrBuild(
    VerbsQp *q,
    int i,
    void *clientData)
{
    DvPost *p = (DvPost *) clientData;
    const DvWr *w = &p->wrs[i];

    q->qpx->wr_id = w->wrId;
    q->qpx->wr_flags = w->flags;
    if (w->mk) {
	Mlx5MkeyWrBuild(p->mqp, w->mk);
    } else if (w->op == DV_MEMCPY) {
	mlx5dv_wr_memcpy(p->mqp, w->dest.lkey, w->dest.addr, w->src.lkey,
		w->src.addr, w->src.length);
    } else {
	mlx5dv_wr_raw_wqe(p->mqp, w->wqe);
    }
    DvWrAddress(q, i, clientData);
}

/*
 *----------------------------------------------------------------------
 *
 * WrPostCmd --
 *
 *	mlx5::qp wr_post QP WR ?WR ...?: [$qp wr_post] for a QP made by
 *	[mlx5::qp create] (mlx5dv_qp_ex_from_ibv_qp_ex).  A DCI's work
 *	requests name their destination in a dc key, {ah AH remote_dctn
 *	DCTN remote_dc_key KEY ?stream_id ID?} (mlx5dv_wr_set_dc_addr,
 *	mlx5dv_wr_set_dc_addr_stream); opcode memcpy copies src into dest,
 *	each {MR OFFSET LENGTH} (mlx5dv_wr_memcpy); opcode raw_wqe posts
 *	the bytes of wqe (mlx5dv_wr_raw_wqe); opcodes mkey_configure,
 *	mr_list and mr_interleaved lay an mkey out (see mlx5Mkey.c).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Posts the work requests (all or none).
 *
 *----------------------------------------------------------------------
 */

static int
WrPostCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    DvWr wrSpace[16];
    DvPost p;
    VerbsWrExt ext = {DvWrParse, DvWrAddress, DvWrBuild, NULL};
    int n = objc - 2, result, i;

    if (objc < 3) {
	Tcl_WrongNumArgs(interp, 1, objv, "qp wr ?wr ...?");
	return TCL_ERROR;
    }
    p.q = Mlx5GetQp(interp, objv[1], "mlx5dv_qp_ex_from_ibv_qp_ex");
    if (p.q == NULL) {
	return TCL_ERROR;
    }
    if (p.q->providerFree != Mlx5QpDataFree) {
	Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s was not made by "
		"mlx5::qp create: use its wr_post", Tcl_GetString(objv[1])));
	Tcl_SetErrorCode(interp, "VERBS", "ARG", "qp", Tcl_GetString(objv[1]),
		NULL);
	return TCL_ERROR;
    }
    if (p.q->qpx == NULL) {
	/* VerbsQpWrPost gives the error. */
	return VerbsQpWrPost(interp, p.q, objv[1], n, objv + 2, NULL);
    }
    p.qpName = objv[1];
    p.dv = (const Mlx5QpData *) p.q->providerData;
    p.mqp = mlx5dv_qp_ex_from_ibv_qp_ex(p.q->qpx);
    p.wrs = n > 16 ? (DvWr *) ckalloc(n * sizeof(DvWr)) : wrSpace;
    memset(p.wrs, 0, n * sizeof(DvWr));
    ext.clientData = &p;
    result = VerbsQpWrPost(interp, p.q, objv[1], n, objv + 2, &ext);
    for (i = 0; i < n; i++) {
	Mlx5MkeyWrFree(p.wrs[i].mk);
    }
    if (p.wrs != wrSpace) {
	ckfree(p.wrs);
    }
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * CancelCmd, StreamResetCmd, LagPortCmd, UdpSportCmd, MapAhCmd --
 *
 *	mlx5::qp cancel_posted_send_wrs QP WR_ID: replace the posted work
 *	requests of that wr_id by NOPs, in SQD
 *	(mlx5dv_qp_cancel_posted_send_wrs); the number cancelled.
 *	mlx5::qp dci_stream_id_reset QP STREAM_ID: a DCI's errored stream
 *	(mlx5dv_dci_stream_id_reset).
 *	mlx5::qp lag_port QP ?PORT?: {port_num N active_port_num N}
 *	(mlx5dv_query_qp_lag_port), or set the port
 *	(mlx5dv_modify_qp_lag_port).
 *	mlx5::qp udp_sport QP PORT: the RoCE UDP source port
 *	(mlx5dv_modify_qp_udp_sport).
 *	mlx5::qp map_ah QP AH: map the destination of AH to the congestion
 *	control QP negotiated (ECE) (mlx5dv_map_ah_to_qp).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	See above.
 *
 *----------------------------------------------------------------------
 */

static int
QpCall(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    int minArgs,
    int maxArgs,
    const char *usage,
    const char *call,
    VerbsQp **qPtr)
{
    if (objc < 2 + minArgs || objc > 2 + maxArgs) {
	Tcl_WrongNumArgs(interp, 1, objv, usage);
	return TCL_ERROR;
    }
    *qPtr = Mlx5GetQp(interp, objv[1], call);
    return *qPtr ? TCL_OK : TCL_ERROR;
}

static int
CancelCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const char call[] = "mlx5dv_qp_cancel_posted_send_wrs";
    VerbsQp *q;
    uint64_t wrId;
    int n;

    if (QpCall(interp, objc, objv, 1, 1, "qp wr_id", call, &q) != TCL_OK
	    || VerbsGetUInt(interp, "wr_id", objv[2], UINT64_MAX, &wrId)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (q->qpx == NULL || q->providerFree != Mlx5QpDataFree) {
	return VerbsArgError(interp, "qp", objv[1], "%s was not made by "
		"mlx5::qp create with -send_ops", Tcl_GetString(objv[1]));
    }
    n = mlx5dv_qp_cancel_posted_send_wrs(
	    mlx5dv_qp_ex_from_ibv_qp_ex(q->qpx), wrId);
    if (n < 0) {
	return VerbsSysError(interp, call, &q->obj, NULL, -n);
    }
    Tcl_SetObjResult(interp, Tcl_NewIntObj(n));
    return TCL_OK;
}

static int
StreamResetCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const char call[] = "mlx5dv_dci_stream_id_reset";
    VerbsQp *q;
    uint64_t id;
    int err;

    if (QpCall(interp, objc, objv, 1, 1, "qp stream_id", call, &q) != TCL_OK
	    || VerbsGetUInt(interp, "stream_id", objv[2], UINT16_MAX, &id)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    err = mlx5dv_dci_stream_id_reset(q->qp, (uint16_t) id);
    return err ? VerbsSysError(interp, call, &q->obj, NULL, err) : TCL_OK;
}

static int
LagPortCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    const char *call = objc == 3 ? "mlx5dv_modify_qp_lag_port"
	    : "mlx5dv_query_qp_lag_port";
    VerbsQp *q;
    uint64_t port;
    uint8_t portNum = 0, active = 0;
    int err;

    if (QpCall(interp, objc, objv, 0, 1, "qp ?port?", call, &q) != TCL_OK
	    || (objc == 3 && VerbsGetUInt(interp, "port", objv[2], UINT8_MAX,
	    &port) != TCL_OK)) {
	return TCL_ERROR;
    }
    if (objc == 3) {
	err = mlx5dv_modify_qp_lag_port(q->qp, (uint8_t) port);
	return err ? VerbsSysError(interp, call, &q->obj, NULL, err) : TCL_OK;
    }
    err = mlx5dv_query_qp_lag_port(q->qp, &portNum, &active);
    if (err) {
	return VerbsSysError(interp, call, &q->obj, NULL, err);
    }
    Tcl_SetObjResult(interp, Tcl_ObjPrintf("port_num %u active_port_num %u",
	    portNum, active));
    return TCL_OK;
}

static int
UdpSportCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const char call[] = "mlx5dv_modify_qp_udp_sport";
    VerbsQp *q;
    uint64_t port;
    int err;

    if (QpCall(interp, objc, objv, 1, 1, "qp port", call, &q) != TCL_OK
	    || VerbsGetUInt(interp, "port", objv[2], UINT16_MAX, &port)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    err = mlx5dv_modify_qp_udp_sport(q->qp, (uint16_t) port);
    return err ? VerbsSysError(interp, call, &q->obj, NULL, err) : TCL_OK;
}

static int
MapAhCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const char call[] = "mlx5dv_map_ah_to_qp";
    VerbsQp *q;
    VerbsAh *ah;
    int err;

    if (QpCall(interp, objc, objv, 1, 1, "qp ah", call, &q) != TCL_OK) {
	return TCL_ERROR;
    }
    ah = (VerbsAh *) VerbsObjGet(interp, objv[2], &verbsAhClass);
    if (ah == NULL) {
	return TCL_ERROR;
    }
    err = mlx5dv_map_ah_to_qp(ah->ah, q->qp->qp_num);
    return err ? VerbsSysError(interp, call, &q->obj, NULL, err) : TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5SendInit --
 *
 *	The commands of this file, in ::mlx5::qp.
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
Mlx5SendInit(
    Tcl_Interp *interp)
{
    Mlx5AddCommand(interp, "qp::wr_post", WrPostCmd);
    Mlx5AddCommand(interp, "qp::cancel_posted_send_wrs", CancelCmd);
    Mlx5AddCommand(interp, "qp::dci_stream_id_reset", StreamResetCmd);
    Mlx5AddCommand(interp, "qp::lag_port", LagPortCmd);
    Mlx5AddCommand(interp, "qp::udp_sport", UdpSportCmd);
    Mlx5AddCommand(interp, "qp::map_ah", MapAhCmd);
    return TCL_OK;
}
