/*
 * mlx5Queue.c --
 *
 *	DV queues and flow steering through mlx5: [mlx5::qp create]
 *	(mlx5dv_create_qp, including DC: DCI and DCT), [mlx5::cq create]
 *	(mlx5dv_create_cq: CQE compression, CQE size, padding), and
 *	[mlx5::flow matcher] / [mlx5::flow create] (mlx5dv_create_flow_matcher,
 *	mlx5dv_create_flow with masks and values from [mlx5::prm pack
 *	fte_match_param]).  The QPs and CQs are ordinary qp and cq objects:
 *	the verbs constructors make them, with libmlx5's create call in
 *	place of ibv_create_qp_ex / ibv_create_cq_ex (verbsQpMaker,
 *	verbsCqMaker).
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5.h"
#include <errno.h>
#include <string.h>

#define QPT_DRIVER "driver"	/* IBV_QPT_DRIVER, as -type takes it. */

/*
 * An out-of-order data placement QP (rdma-core 50), by the value the
 * header of an older rdma-core lacks.
 */

#ifdef HAVE_MLX5DV_CONTEXT_MASK_OOO_RECV_WRS
#define MLX5_QP_CREATE_OOO_DP MLX5DV_QP_CREATE_OOO_DP
#else
#define MLX5_QP_CREATE_OOO_DP (1 << 7)
#endif

/*
 * The words of an mlx5 constructor that are its own: split from those the
 * verbs constructor takes.
 */

typedef struct DvWords {
    int objc;			/* The verbs words: objv[0..1], then the */
    Tcl_Obj **objv;		/* options that are not mlx5 ones. */
    int hasType;		/* -type among them. */
} DvWords;

static const VerbsEnum qpCreateFlags[] = {
    {"tunnel_offloads", MLX5DV_QP_CREATE_TUNNEL_OFFLOADS},
    {"tir_allow_self_loopback_uc",
	    MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_UC},
    {"tir_allow_self_loopback_mc",
	    MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_MC},
    {"disable_scatter_to_cqe", MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE},
    {"allow_scatter_to_cqe", MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE},
    {"packet_based_credit_mode",
	    MLX5DV_QP_CREATE_PACKET_BASED_CREDIT_MODE},
    {"sig_pipelining", MLX5DV_QP_CREATE_SIG_PIPELINING},
    {"ooo_dp", MLX5_QP_CREATE_OOO_DP},	/* Older libmlx5 refuse it. */
    {NULL, 0}
};

static const VerbsEnum dcTypes[] = {
    {"dct", MLX5DV_DCTYPE_DCT}, {"dci", MLX5DV_DCTYPE_DCI}, {NULL, 0}
};

static const VerbsEnum dvSendOps[] = {
    {"mr_interleaved", MLX5DV_QP_EX_WITH_MR_INTERLEAVED},
    {"mr_list", MLX5DV_QP_EX_WITH_MR_LIST},
    {"mkey_configure", MLX5DV_QP_EX_WITH_MKEY_CONFIGURE},
    {"raw_wqe", MLX5DV_QP_EX_WITH_RAW_WQE},
    {"memcpy", MLX5DV_QP_EX_WITH_MEMCPY},
    {NULL, 0}
};

static const VerbsEnum cqeResFormat[] = {
    {"hash", MLX5DV_CQE_RES_FORMAT_HASH},
    {"csum", MLX5DV_CQE_RES_FORMAT_CSUM},
    {"csum_stridx", MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX},
    {NULL, 0}
};

static const VerbsEnum cqFlags[] = {
    {"cqe_pad", MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD}, {NULL, 0}
};

/*
 *----------------------------------------------------------------------
 *
 * SplitWords --
 *
 *	Take the options named in mine (a NULL-name ended option table of
 *	record) out of the words after objv[1], parse them into record,
 *	and keep the rest for the verbs constructor.  An odd word count is
 *	left to the verbs constructor, which gives its usage.
 *
 * Results:
 *	A standard Tcl result; w->objv is ckalloc'ed (free with ckfree).
 *
 * Side effects:
 *	Fills record.
 *
 *----------------------------------------------------------------------
 */

static int
SplitWords(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    const VerbsField *mine,
    void *record,
    DvWords *w)
{
    Tcl_Obj **own = (Tcl_Obj **) ckalloc((objc + 1) * sizeof(Tcl_Obj *));
    int i, nown = 0;
    const VerbsField *f;

    w->objv = (Tcl_Obj **) ckalloc((objc + 2) * sizeof(Tcl_Obj *));
    w->objc = 0;
    w->hasType = 0;
    for (i = 0; i < objc && i < 2; i++) {
	w->objv[w->objc++] = objv[i];
    }
    for (; i < objc; i += 2) {
	const char *word = Tcl_GetString(objv[i]);

	for (f = mine; f->name; f++) {
	    if (strcmp(word, f->name) == 0) {
		break;
	    }
	}
	if (f->name && i + 1 < objc) {
	    own[nown++] = objv[i];
	    own[nown++] = objv[i + 1];
	    continue;
	}
	if (strcmp(word, "-type") == 0) {
	    w->hasType = 1;
	}
	w->objv[w->objc++] = objv[i];
	if (i + 1 < objc) {
	    w->objv[w->objc++] = objv[i + 1];
	}
    }
    if (nown > 0 && VerbsParseOptions(interp, nown, own, 0, mine, record)
	    != TCL_OK) {
	ckfree(own);
	ckfree(w->objv);
	return TCL_ERROR;
    }
    ckfree(own);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * OnMlx5 --
 *
 *	The constructor's first word must name an object of an mlx5
 *	device (when it names a verbs object at all: other errors are the
 *	verbs constructor's to report).
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
OnMlx5(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    const char *call)
{
    VerbsObj *o = objc > 1 ? VerbsObjFind(interp, objv[1]) : NULL;
    VerbsContext *c = o ? Mlx5ContextOf(o) : NULL;

    if (c && !mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, call, c);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * QpCreateCmd, MakeQp --
 *
 *	mlx5::qp create PD ?verbs::qp create options? ?-create_flags FLAGS?
 *		?-dc_type dci|dct? ?-dc_access_key KEY?
 *		?-dci_streams {log_num_concurent N log_num_errored N}?
 *		?-send_ops_flags FLAGS?
 *	A DC QP is of type driver (-type defaults to it with -dc_type); a
 *	DCT needs -dc_access_key, its receive CQ and an SRQ.
 *
 * Results:
 *	The qp object command's name.
 *
 * Side effects:
 *	mlx5dv_create_qp.
 *
 *----------------------------------------------------------------------
 */

typedef struct DvQpArgs {
    uint64_t create_flags;
    uint64_t dc_access_key;
    uint64_t dc_type;
    Tcl_Obj *dci_streams;
    uint64_t send_ops_flags;
    int given;			/* Bits: which were given (see below). */
    struct mlx5dv_qp_init_attr attr;
} DvQpArgs;

static struct ibv_qp *
MakeQp(
    struct ibv_context *ctx,
    struct ibv_qp_init_attr_ex *init,
    void *clientData)
{
    return mlx5dv_create_qp(ctx, init,
	    &((DvQpArgs *) clientData)->attr);
}

static void *
DvQpMade(
    struct ibv_qp *qp VERBS_UNUSED,
    void *clientData)
{
    const DvQpArgs *a = (const DvQpArgs *) clientData;
    Mlx5QpData *d = (Mlx5QpData *) ckalloc(sizeof(Mlx5QpData));

    d->dcType = (uint32_t) a->dc_type;
    d->sendOps = (a->attr.comp_mask & MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS)
	    ? a->attr.send_ops_flags : 0;
    return d;
}

void
Mlx5QpDataFree(
    void *data)
{
    ckfree(data);
}

static int
QpCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField mine[] = {
	VERBS_OPTION(DvQpArgs, create_flags, VF_FLAGS, qpCreateFlags,
		"flags"),
	VERBS_OPTION(DvQpArgs, dc_access_key, VF_UINT, NULL, "key"),
	VERBS_OPTION(DvQpArgs, dc_type, VF_ENUM, dcTypes, "dci|dct"),
	VERBS_OPTION(DvQpArgs, dci_streams, VF_TCLOBJ, NULL, "dict"),
	VERBS_OPTION(DvQpArgs, send_ops_flags, VF_FLAGS, dvSendOps, "flags"),
	VERBS_FIELD_END
    };
    static const VerbsField streamFields[] = {
	VERBS_FIELD(struct mlx5dv_dci_streams, log_num_concurent, VF_UINT,
		NULL, 0, 0),
	VERBS_FIELD(struct mlx5dv_dci_streams, log_num_errored, VF_UINT,
		NULL, 0, 0),
	VERBS_FIELD_END
    };
    static const VerbsStruct streamStruct = {"dci_streams", streamFields};
    DvQpArgs a;
    DvWords w;
    VerbsQpMaker maker = {"mlx5dv_create_qp", MakeQp, &a, DvQpMade,
	    Mlx5QpDataFree};
    int result;

    if (objc < 2 || objc % 2 != 0) {
	return VerbsUsageError(interp, 1, objv,
		"pd ?verbs::qp-option value ...?", mine);
    }
    memset(&a, 0, sizeof(a));
    a.create_flags = a.send_ops_flags = ~(uint64_t) 0;
    a.dc_type = 0;
    if (SplitWords(interp, objc, objv, mine, &a, &w) != TCL_OK) {
	return TCL_ERROR;
    }
    if (a.create_flags != ~(uint64_t) 0) {
	a.attr.comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS;
	a.attr.create_flags = (uint32_t) a.create_flags;
    }
    if (a.send_ops_flags != ~(uint64_t) 0) {
	a.attr.comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS;
	a.attr.send_ops_flags = a.send_ops_flags;
    }
    if (a.dc_type == 0 && (a.dc_access_key || a.dci_streams)) {
	ckfree(w.objv);
	return VerbsArgError(interp, "-dc_type", NULL, "%s is for dc qps: "
		"give -dc_type too", a.dci_streams ? "-dci_streams"
		: "-dc_access_key");
    }
    if (a.dc_type != 0) {
	a.attr.comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_DC;
	a.attr.dc_init_attr.dc_type = (enum mlx5dv_dc_type) a.dc_type;
	if (a.dc_type == MLX5DV_DCTYPE_DCT) {
	    if (a.dci_streams) {
		ckfree(w.objv);
		return VerbsArgError(interp, "-dci_streams", a.dci_streams,
			"-dci_streams is for a dci, not a dct");
	    }
	    a.attr.dc_init_attr.dct_access_key = a.dc_access_key;
	} else if (a.dc_access_key) {
	    ckfree(w.objv);
	    return VerbsArgError(interp, "-dc_access_key", NULL,
		    "-dc_access_key is for a dct: a dci names the key in "
		    "each send");
	} else if (a.dci_streams) {
	    if (VerbsDictToStruct(interp, &streamStruct, "-dci_streams",
		    a.dci_streams, &a.attr.dc_init_attr.dci_streams, NULL)
		    != TCL_OK) {
		ckfree(w.objv);
		return TCL_ERROR;
	    }
	    a.attr.comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_DCI_STREAMS;
	}
	if (!w.hasType) {
	    w.objv[w.objc++] = Tcl_NewStringObj("-type", -1);
	    w.objv[w.objc++] = Tcl_NewStringObj(QPT_DRIVER, -1);
	}
    }
    if (OnMlx5(interp, objc, objv, "mlx5dv_create_qp") != TCL_OK) {
	result = TCL_ERROR;
    } else {
	int i;

	for (i = 0; i < w.objc; i++) {
	    Tcl_IncrRefCount(w.objv[i]);
	}
	result = VerbsQpCreate(interp, w.objc, w.objv, NULL, &maker);
	for (i = 0; i < w.objc; i++) {
	    Tcl_DecrRefCount(w.objv[i]);
	}
    }
    ckfree(w.objv);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * CqCreateCmd, MakeCq --
 *
 *	mlx5::cq create CONTEXT ?verbs::cq create options?
 *		?-cqe_comp_res_format hash|csum|csum_stridx? ?-cqe_size 64|128?
 *		?-flags {cqe_pad}?
 *
 * Results:
 *	The cq object command's name.
 *
 * Side effects:
 *	mlx5dv_create_cq.
 *
 *----------------------------------------------------------------------
 */

typedef struct DvCqArgs {
    uint64_t cqe_comp_res_format;
    uint64_t cqe_size;
    uint64_t flags;
    struct mlx5dv_cq_init_attr attr;
} DvCqArgs;

static struct ibv_cq_ex *
MakeCq(
    struct ibv_context *ctx,
    struct ibv_cq_init_attr_ex *init,
    void *clientData)
{
    return mlx5dv_create_cq(ctx, init, &((DvCqArgs *) clientData)->attr);
}

static int
CqCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField mine[] = {
	VERBS_OPTION(DvCqArgs, cqe_comp_res_format, VF_FLAGS, cqeResFormat,
		"format"),
	VERBS_OPTION_MAX(DvCqArgs, cqe_size, 128, "bytes"),
	VERBS_OPTION(DvCqArgs, flags, VF_FLAGS, cqFlags, "flags"),
	VERBS_FIELD_END
    };
    DvCqArgs a;
    DvWords w;
    VerbsCqMaker maker = {"mlx5dv_create_cq", MakeCq, &a};
    int result;

    if (objc < 2 || objc % 2 != 0) {
	return VerbsUsageError(interp, 1, objv,
		"context ?verbs::cq-option value ...?", mine);
    }
    memset(&a, 0, sizeof(a));
    a.flags = ~(uint64_t) 0;
    if (SplitWords(interp, objc, objv, mine, &a, &w) != TCL_OK) {
	return TCL_ERROR;
    }
    if (a.cqe_comp_res_format) {
	a.attr.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE;
	a.attr.cqe_comp_res_format = (uint8_t) a.cqe_comp_res_format;
    }
    if (a.cqe_size) {
	if (a.cqe_size != 64 && a.cqe_size != 128) {
	    Tcl_Obj *v = Tcl_NewWideIntObj((Tcl_WideInt) a.cqe_size);

	    Tcl_IncrRefCount(v);
	    VerbsArgError(interp, "-cqe_size", v, "bad -cqe_size \"%s\": "
		    "must be 64 or 128", Tcl_GetString(v));
	    Tcl_DecrRefCount(v);
	    ckfree(w.objv);
	    return TCL_ERROR;
	}
	a.attr.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
	a.attr.cqe_size = (uint16_t) a.cqe_size;
    }
    if (a.flags != ~(uint64_t) 0) {
	a.attr.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_FLAGS;
	a.attr.flags = (uint32_t) a.flags;
    }
    if (OnMlx5(interp, objc, objv, "mlx5dv_create_cq") != TCL_OK) {
	result = TCL_ERROR;
    } else {
	result = VerbsCqCreate(interp, w.objc, w.objv, &maker);
    }
    ckfree(w.objv);
    return result;
}

/*
 * ------------------------------------------------------------------------
 * Flow steering: matchers (children of their context) and the flows made
 * on them (children of the matcher, holding what their actions name).
 * ------------------------------------------------------------------------
 */

typedef struct Mlx5Matcher {
    VerbsObj obj;
    struct mlx5dv_flow_matcher *matcher;
    size_t matchSize;		/* Of its mask: a value has this size. */
} Mlx5Matcher;

typedef struct Mlx5Flow {
    VerbsObj obj;
    struct ibv_flow *flow;
    Mlx5Refs refs;		/* The QPs and DevX objects it sends to. */
} Mlx5Flow;

static VerbsGetProc FlowRefs;

static const VerbsMethod matcherMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField matcherCget[] = {
    VERBS_CGET("-match_size", Mlx5Matcher, matchSize, VF_UINT, NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static void
MatcherFree(
    VerbsObj *objPtr)
{
    mlx5dv_destroy_flow_matcher(((Mlx5Matcher *) objPtr)->matcher);
}

const VerbsType verbsMatcherClass = {
    .name = "matcher",
    .size = sizeof(Mlx5Matcher),
    .methods = matcherMethods,
    .cget = matcherCget,
    .freeProc = MatcherFree,
};

static const VerbsField mflowCget[] = {
    VERBS_CGET_PROC("-refs", FlowRefs),
    VERBS_CGET_PARENT("-matcher"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static void
FlowFree(
    VerbsObj *objPtr)
{
    Mlx5Flow *f = (Mlx5Flow *) objPtr;

    ibv_destroy_flow(f->flow);
    Mlx5RefsFree(&f->refs);
}

const VerbsType verbsMflowClass = {
    .name = "mflow",
    .size = sizeof(Mlx5Flow),
    .methods = matcherMethods,
    .cget = mflowCget,
    .freeProc = FlowFree,
};

static int
FlowRefs(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = Mlx5RefsObj(&((Mlx5Flow *) objPtr)->refs);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5MatchParams --
 *
 *	Bytes (fte_match_param, from [mlx5::prm pack], or its first
 *	bytes) as the mlx5dv_flow_match_parameters libmlx5 takes.
 *
 * Results:
 *	A ckalloc'ed struct, or NULL with an error.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

struct mlx5dv_flow_match_parameters *
Mlx5MatchParams(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *bytesObj)
{
    Tcl_Size n;
    const unsigned char *b = VerbsGetBytes(interp, key, bytesObj, &n);
    struct mlx5dv_flow_match_parameters *p;

    if (b == NULL) {
	return NULL;
    }
    if (n == 0) {
	/*
	 * Any length: libmlx5 takes the start of an fte_match_param (the
	 * tests give the 6 bytes of a source MAC) and refuses more than
	 * it knows.
	 */

	VerbsArgError(interp, key, NULL, "bad %s: no bytes (mlx5::prm pack "
		"fte_match_param)", key);
	return NULL;
    }
    p = (struct mlx5dv_flow_match_parameters *) ckalloc(sizeof(*p) + n);
    p->match_sz = (size_t) n;
    memcpy(p->match_buf, b, (size_t) n);
    return p;
}

/*
 *----------------------------------------------------------------------
 *
 * MatcherCmd --
 *
 *	mlx5::flow matcher CONTEXT -mask BYTES ?-match_criteria_enable N?
 *		?-type normal|sniffer|...? ?-priority N? ?-flags N?
 *		?-ft_type nic_rx|nic_tx|fdb|rdma_rx|rdma_tx|
 *		rdma_transport_rx|rdma_transport_tx? ?-ib_port N? ?-as NAME?
 *	(the RDMA transport tables and -ib_port: rdma-core 57).
 *
 * Results:
 *	The matcher object command's name.
 *
 * Side effects:
 *	mlx5dv_create_flow_matcher.
 *
 *----------------------------------------------------------------------
 */

/*
 * The RDMA transport flow tables (rdma-core 57): named on every build, so
 * that an older one refuses them by what they need.
 */

#ifndef HAVE_MLX5DV_CONTEXT_ATTR_MASK_FD_ARRAY
#define MLX5DV_FLOW_TABLE_TYPE_RDMA_TRANSPORT_RX 5
#define MLX5DV_FLOW_TABLE_TYPE_RDMA_TRANSPORT_TX 6
#endif

static int
MatcherCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsEnum attrTypes[] = {
	{"normal", IBV_FLOW_ATTR_NORMAL},
	{"all_default", IBV_FLOW_ATTR_ALL_DEFAULT},
	{"mc_default", IBV_FLOW_ATTR_MC_DEFAULT},
	{"sniffer", IBV_FLOW_ATTR_SNIFFER},
	{NULL, 0}
    };
    static const VerbsEnum ftTypes[] = {
	{"nic_rx", MLX5DV_FLOW_TABLE_TYPE_NIC_RX},
	{"nic_tx", MLX5DV_FLOW_TABLE_TYPE_NIC_TX},
	{"fdb", MLX5DV_FLOW_TABLE_TYPE_FDB},
	{"rdma_rx", MLX5DV_FLOW_TABLE_TYPE_RDMA_RX},
	{"rdma_tx", MLX5DV_FLOW_TABLE_TYPE_RDMA_TX},
	{"rdma_transport_rx", MLX5DV_FLOW_TABLE_TYPE_RDMA_TRANSPORT_RX},
	{"rdma_transport_tx", MLX5DV_FLOW_TABLE_TYPE_RDMA_TRANSPORT_TX},
	{NULL, 0}
    };
    typedef struct {
	VerbsCreateHead head;
	uint64_t flags, ft_type, ib_port;
	Tcl_Obj *mask;
	uint64_t match_criteria_enable, priority, type;
    } MatcherArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_MAX(MatcherArgs, flags, UINT32_MAX, "flags"),
	VERBS_OPTION(MatcherArgs, ft_type, VF_ENUM, ftTypes, "table"),
	VERBS_OPTION_MAX(MatcherArgs, ib_port, UINT32_MAX, "port"),
	VERBS_OPTION_MAX(MatcherArgs, match_criteria_enable, UINT8_MAX,
		"bits"),
	VERBS_OPTION_REQUIRED(MatcherArgs, mask, VF_TCLOBJ, NULL, 0,
		"bytes:the fte_match_param mask"),
	VERBS_OPTION_MAX(MatcherArgs, priority, UINT16_MAX, "n"),
	VERBS_OPTION(MatcherArgs, type, VF_ENUM, attrTypes, "type"),
	VERBS_FIELD_END
    };
    MatcherArgs args = {{NULL, NULL}, 0, ~(uint64_t) 0, VERBS_NOT_GIVEN,
	NULL, 1, 0, IBV_FLOW_ATTR_NORMAL};
    struct mlx5dv_flow_matcher_attr attr;
    struct mlx5dv_flow_matcher *matcher;
    VerbsContext *c;
    Mlx5Matcher *m;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) args.head.parent;
    if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_create_flow_matcher", c);
    }
    memset(&attr, 0, sizeof(attr));
    attr.type = (enum ibv_flow_attr_type) args.type;
    attr.flags = (uint32_t) args.flags;
    attr.priority = (uint16_t) args.priority;
    attr.match_criteria_enable = (uint8_t) args.match_criteria_enable;
    if (args.ft_type != ~(uint64_t) 0) {
	attr.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE;
	attr.ft_type = (enum mlx5dv_flow_table_type) args.ft_type;
    }
    attr.match_mask = Mlx5MatchParams(interp, "-mask", args.mask);
    if (attr.match_mask == NULL) {
	return TCL_ERROR;
    }
#ifdef HAVE_MLX5DV_CONTEXT_ATTR_MASK_FD_ARRAY
    if (args.ib_port != VERBS_NOT_GIVEN) {
	attr.comp_mask |= MLX5DV_FLOW_MATCHER_MASK_IB_PORT;
	attr.ib_port = (uint32_t) args.ib_port;
    }
#else
    /* Every argument checked, the rdma-core 57 parts are refused. */
    if (args.ib_port != VERBS_NOT_GIVEN
	    || args.ft_type == MLX5DV_FLOW_TABLE_TYPE_RDMA_TRANSPORT_RX
	    || args.ft_type == MLX5DV_FLOW_TABLE_TYPE_RDMA_TRANSPORT_TX) {
	ckfree(attr.match_mask);
	return VerbsSysError(interp, "mlx5dv_create_flow_matcher", &c->obj,
		args.ib_port != VERBS_NOT_GIVEN ? "-ib_port needs rdma-core 57 "
		"or later" : "the RDMA transport tables need rdma-core 57 or "
		"later", EOPNOTSUPP);
    }
#endif
    matcher = mlx5dv_create_flow_matcher(c->ctx, &attr);
    if (matcher == NULL) {
	int err = errno;

	ckfree(attr.match_mask);
	return VerbsSysError(interp, "mlx5dv_create_flow_matcher", &c->obj,
		NULL, err);
    }
    m = (Mlx5Matcher *) VerbsObjWrap(interp, &verbsMatcherClass,
	    offsetof(Mlx5Matcher, matcher), matcher, &c->obj,
	    args.head.command);
    if (m) {
	m->matchSize = attr.match_mask->match_sz;
    }
    ckfree(attr.match_mask);
    return m ? TCL_OK : TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * FlowAction --
 *
 *	One action of mlx5::flow create: {dest_qp QP}, {drop}, {tag N},
 *	{dest_devx OBJ}, {counters_devx OBJ ?OFFSET?} (with OFFSET, the
 *	counter at that offset of a bulk, rdma-core 60), {default_miss} or
 *	{action FLOWACTION} (a flowaction object, mlx5::flowaction).  An object
 *	it names must be on the matcher's context c; the flow will hold it.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills *act; adds the object to refs.
 *
 *----------------------------------------------------------------------
 */

static int
FlowAction(
    Tcl_Interp *interp,
    VerbsContext *c,
    Tcl_Obj *actionObj,
    struct mlx5dv_flow_action_attr *act,
    Mlx5Refs *refs)
{
    static const char *const actionNames[] = {
	"action", "counters_devx", "default_miss", "dest_devx", "dest_qp",
	"drop", "tag", NULL
    };
    enum {A_ACTION, A_COUNTERS, A_MISS, A_DEVX, A_QP, A_DROP, A_TAG};
    Tcl_Obj **words;
    Tcl_Size nw;
    int index;
    VerbsObj *o = NULL;
    uint64_t tag;

    if (Tcl_ListObjGetElements(interp, actionObj, &nw, &words) != TCL_OK
	    || nw < 1 || Tcl_GetIndexFromObj(interp, words[0], actionNames,
	    "action", 0, &index) != TCL_OK) {
	return TCL_ERROR;
    }
    if (index == A_COUNTERS && nw == 3) {
	/* {counters_devx OBJ OFFSET}: a counter of a bulk, by offset. */
    } else if (nw != ((index == A_MISS || index == A_DROP) ? 1 : 2)) {
	return VerbsArgError(interp, "-actions", actionObj, "bad action "
		"\"%s\": %s takes %s", Tcl_GetString(actionObj),
		actionNames[index], (index == A_MISS || index == A_DROP)
		? "no value" : index == A_COUNTERS ? "an object and an "
		"optional offset" : "one value");
    }
    switch (index) {
    case A_QP:
	o = VerbsObjGet(interp, words[1], &verbsQpClass);
	if (o == NULL) {
	    return TCL_ERROR;
	}
	act->type = MLX5DV_FLOW_ACTION_DEST_IBV_QP;
	act->qp = ((VerbsQp *) o)->qp;
	break;
    case A_DEVX:
    case A_COUNTERS:
	o = VerbsObjGet(interp, words[1], &verbsDevxClass);
	if (o == NULL) {
	    return TCL_ERROR;
	}
	act->type = index == A_DEVX ? MLX5DV_FLOW_ACTION_DEST_DEVX
		: MLX5DV_FLOW_ACTION_COUNTERS_DEVX;
	act->obj = ((Mlx5Devx *) o)->devx;
	if (nw == 3) {
	    if (VerbsGetUInt(interp, "offset", words[2], UINT32_MAX, &tag)
		    != TCL_OK) {
		return TCL_ERROR;
	    }
#ifdef HAVE_MLX5DV_FLOW_ACTION_COUNTERS_DEVX_WITH_OFFSET
	    act->type = MLX5DV_FLOW_ACTION_COUNTERS_DEVX_WITH_OFFSET;
	    act->bulk_obj.obj = ((Mlx5Devx *) o)->devx;
	    act->bulk_obj.offset = (uint32_t) tag;
#else
	    return VerbsSysError(interp, "mlx5dv_create_flow", o,
		    "a counter by offset needs rdma-core 60 or later",
		    EOPNOTSUPP);
#endif
	}
	break;
    case A_ACTION:
	o = VerbsObjGet(interp, words[1], &verbsFlowActionClass);
	if (o == NULL) {
	    return TCL_ERROR;
	}
	act->type = MLX5DV_FLOW_ACTION_IBV_FLOW_ACTION;
	act->action = VerbsFlowActionHandle(o);
	break;
    case A_TAG:
	if (VerbsGetUInt(interp, "tag", words[1], UINT32_MAX, &tag)
		!= TCL_OK) {
	    return TCL_ERROR;
	}
	act->type = MLX5DV_FLOW_ACTION_TAG;
	act->tag_value = (uint32_t) tag;
	break;
    case A_DROP:
	act->type = MLX5DV_FLOW_ACTION_DROP;
	break;
    default:
	act->type = MLX5DV_FLOW_ACTION_DEFAULT_MISS;
	break;
    }
    if (o) {
	if (Mlx5ContextOf(o) != c) {
	    return VerbsArgError(interp, "-actions", words[1], "%s \"%s\" is "
		    "on another device context", actionNames[index],
		    Tcl_GetString(words[1]));
	}
	Mlx5RefsAdd(refs, o, "-actions", actionNames[index], 0);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * FlowCreateCmd --
 *
 *	mlx5::flow create MATCHER VALUE ?-actions LIST? ?-as NAME?:
 *	a flow of the packets matching VALUE (fte_match_param bytes).
 *	Each action is {dest_qp QP}, {drop}, {tag N}, {dest_devx OBJ},
 *	{counters_devx OBJ} or {default_miss}; the flow holds the objects
 *	its actions name.
 *
 * Results:
 *	The flow object command's name.
 *
 * Side effects:
 *	mlx5dv_create_flow.
 *
 *----------------------------------------------------------------------
 */

static int
FlowCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	Tcl_Obj *actions;
    } FlowArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(FlowArgs, actions, VF_TCLOBJ, NULL, "list"),
	VERBS_OPTION_COMMAND,
	VERBS_FIELD_END
    };
    FlowArgs args = {{NULL, NULL}, NULL};
    Mlx5Matcher *m;
    struct mlx5dv_flow_match_parameters *value;
    struct mlx5dv_flow_action_attr *acts = NULL;
    Mlx5Refs refs = {0, 0, NULL};
    Tcl_Obj **list = NULL;
    Tcl_Size n = 0, i;
    struct ibv_flow *flow;
    Mlx5Flow *f;

    if (VerbsCreateArgs(interp, objc, objv, "matcher value", options, &args,
	    &verbsMatcherClass) != TCL_OK) {
	return TCL_ERROR;
    }
    m = (Mlx5Matcher *) args.head.parent;
    if (args.actions && Tcl_ListObjGetElements(interp, args.actions, &n,
	    &list) != TCL_OK) {
	return TCL_ERROR;
    }
    acts = (struct mlx5dv_flow_action_attr *) ckalloc(
	    (n + 1) * sizeof(*acts));
    memset(acts, 0, (n + 1) * sizeof(*acts));
    for (i = 0; i < n; i++) {
	if (FlowAction(interp, (VerbsContext *) m->obj.parent, list[i],
		&acts[i], &refs) != TCL_OK) {
	    goto error;
	}
    }
    value = Mlx5MatchParams(interp, "value", objv[2]);
    if (value == NULL) {
	goto error;
    }
    flow = mlx5dv_create_flow(m->matcher, value, (size_t) n, acts);
    ckfree(value);
    if (flow == NULL) {
	VerbsSysError(interp, "mlx5dv_create_flow", &m->obj, NULL, errno);
	goto error;
    }
    ckfree(acts);
    f = (Mlx5Flow *) VerbsObjNew(&verbsMflowClass);
    f->flow = flow;
    f->refs = refs;
    if (VerbsObjRegister(interp, &f->obj, &m->obj, args.head.command)
	    != TCL_OK) {
	FlowFree(&f->obj);
	ckfree(f);
	return TCL_ERROR;
    }
    return TCL_OK;

  error:
    Mlx5RefsFree(&refs);
    ckfree(acts);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5QueueInit --
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
Mlx5QueueInit(
    Tcl_Interp *interp)
{
    Mlx5AddCommand(interp, "qp::create", QpCreateCmd);
    Mlx5AddCommand(interp, "cq::create", CqCreateCmd);
    Mlx5AddCommand(interp, "flow::matcher", MatcherCmd);
    Mlx5AddCommand(interp, "flow::create", FlowCreateCmd);
    return TCL_OK;
}
