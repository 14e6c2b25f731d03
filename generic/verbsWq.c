/*
 * verbsWq.c --
 *
 *	Work queues and receive work queue indirection tables, the receive
 *	side of RSS: [verbs::wq create PD -cq CQ] (modify with attribute
 *	dicts, post_recv) and [verbs::rwqindtable create CONTEXT -ind_tbl
 *	WQS], which an RSS QP ([verbs::qp create PD -type raw_packet
 *	-rwq_ind_table T -rx_hash DICT]) spreads its packets over.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <string.h>

/*
 * ------------------------------------------------------------------------
 * The names and struct tables of work queues and RSS: the rows with which
 * the attribute dict engine (verbsAttr.c) reads and writes these C
 * structs.
 * ------------------------------------------------------------------------
 */

const VerbsEnum verbsWqState[] = {
    {"reset", IBV_WQS_RESET},
    {"rdy", IBV_WQS_RDY},
    {"err", IBV_WQS_ERR},
    {"unknown", IBV_WQS_UNKNOWN},
    {NULL, 0}
};
const VerbsEnum verbsWqType[] = {
    {"rq", IBV_WQT_RQ},
    {NULL, 0}
};
const VerbsEnum verbsWqFlags[] = {
    {"cvlan_stripping", IBV_WQ_FLAGS_CVLAN_STRIPPING},
    {"scatter_fcs", IBV_WQ_FLAGS_SCATTER_FCS},
    {"delay_drop", IBV_WQ_FLAGS_DELAY_DROP},
    {"pci_write_end_padding", IBV_WQ_FLAGS_PCI_WRITE_END_PADDING},
    {NULL, 0}
};
const VerbsEnum verbsRxHashFunction[] = {
    {"toeplitz", IBV_RX_HASH_FUNC_TOEPLITZ},
    {NULL, 0}
};
const VerbsEnum verbsRxHashFields[] = {
    {"src_ipv4", IBV_RX_HASH_SRC_IPV4},
    {"dst_ipv4", IBV_RX_HASH_DST_IPV4},
    {"src_ipv6", IBV_RX_HASH_SRC_IPV6},
    {"dst_ipv6", IBV_RX_HASH_DST_IPV6},
    {"src_port_tcp", IBV_RX_HASH_SRC_PORT_TCP},
    {"dst_port_tcp", IBV_RX_HASH_DST_PORT_TCP},
    {"src_port_udp", IBV_RX_HASH_SRC_PORT_UDP},
    {"dst_port_udp", IBV_RX_HASH_DST_PORT_UDP},
    {"ipsec_spi", IBV_RX_HASH_IPSEC_SPI},
    {"inner", IBV_RX_HASH_INNER},
    {NULL, 0}
};

#define WA(f, kind, table, mask) \
    VERBS_FIELD(struct ibv_wq_attr, f, kind, table, mask, 0)
static const VerbsField wqAttrFields[] = {
    WA(wq_state, VF_ENUM, verbsWqState, IBV_WQ_ATTR_STATE),
    WA(curr_wq_state, VF_ENUM, verbsWqState, IBV_WQ_ATTR_CURR_STATE),
    WA(flags, VF_FLAGS, verbsWqFlags, IBV_WQ_ATTR_FLAGS),
    WA(flags_mask, VF_FLAGS, verbsWqFlags, IBV_WQ_ATTR_FLAGS),
    VERBS_FIELD_END
};
const VerbsStruct verbsWqAttrStruct = {"wq attribute", wqAttrFields};


static VerbsMethodProc WqModify, WqPostRecv;

static const VerbsMethod wqMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"modify", WqModify, 1, 1, "attributes"},
    {"post_recv", WqPostRecv, 1, -1, "wr ?wr ...?"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField wqCget[] = {
    VERBS_CGET_PTR("-wq_num", VerbsWq, wq, struct ibv_wq, wq_num, VF_UINT,
	    NULL),
    VERBS_CGET_PTR("-handle", VerbsWq, wq, struct ibv_wq, handle, VF_UINT,
	    NULL),
    VERBS_CGET_PTR("-state", VerbsWq, wq, struct ibv_wq, state, VF_ENUM,
	    verbsWqState),
    VERBS_CGET_PTR("-wq_type", VerbsWq, wq, struct ibv_wq, wq_type, VF_ENUM,
	    verbsWqType),
    VERBS_CGET_PARENT("-pd"),
    VERBS_CGET("-cq", VerbsWq, cq, VF_OBJ, NULL),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc WqCreateCmd, IndTableCreateCmd;

static const VerbsCommand wqCommands[] = {
    {"create", WqCreateCmd}, {NULL, NULL}
};

static VerbsGetProc IndTableWqs;

static const VerbsMethod indTableMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField indTableCget[] = {
    VERBS_CGET_PTR("-ind_tbl_num", VerbsRwqIndTable, table,
	    struct ibv_rwq_ind_table, ind_tbl_num, VF_INT, NULL),
    VERBS_CGET_PTR("-handle", VerbsRwqIndTable, table,
	    struct ibv_rwq_ind_table, ind_tbl_handle, VF_INT, NULL),
    VERBS_CGET_PROC("-ind_tbl", IndTableWqs),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static const VerbsCommand indTableCommands[] = {
    {"create", IndTableCreateCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * WqFree, IndTableFree --
 *
 *	Destruction once nothing uses the WQ (no indirection table) or the
 *	table (no RSS QP); they then let go of their CQ and WQs.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_destroy_wq, ibv_destroy_rwq_ind_table; releases references.
 *
 *----------------------------------------------------------------------
 */

static void
WqFree(
    VerbsObj *objPtr)
{
    VerbsWq *w = (VerbsWq *) objPtr;

    ibv_destroy_wq(w->wq);
    VerbsObjRelease(&w->cq->obj);
}

static void
IndTableFree(
    VerbsObj *objPtr)
{
    VerbsRwqIndTable *t = (VerbsRwqIndTable *) objPtr;
    int i;

    ibv_destroy_rwq_ind_table(t->table);
    for (i = 0; i < t->nwqs; i++) {
	VerbsObjRelease(&t->wqs[i]->obj);
    }
    ckfree(t->wqs);
}

const VerbsType verbsWqClass = {
    .name = "wq",
    .size = sizeof(VerbsWq),
    .methods = wqMethods,
    .cget = wqCget,
    .freeProc = WqFree,
    .commands = wqCommands,
};

const VerbsType verbsRwqIndTableClass = {
    .name = "rwqindtable",
    .size = sizeof(VerbsRwqIndTable),
    .methods = indTableMethods,
    .cget = indTableCget,
    .freeProc = IndTableFree,
    .commands = indTableCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * WqCreateCmd --
 *
 *	verbs::wq create PD -cq CQ ?-wq_type rq? ?-max_wr N? ?-max_sge N?
 *		?-create_flags FLAGS? ?-as NAME?
 *
 * Results:
 *	The wq object command's name.
 *
 * Side effects:
 *	ibv_create_wq; takes a reference on the CQ.
 *
 *----------------------------------------------------------------------
 */

static int
WqCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t create_flags;
	VerbsObj *cq;
	uint32_t max_sge, max_wr;
	uint64_t wq_type;
    } WqArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(WqArgs, create_flags, VF_FLAGS, verbsWqFlags, "flags"),
	VERBS_OPTION_REQUIRED(WqArgs, cq, VF_OBJ, &verbsCqClass, 0,
		"cq:a wq completes its receives on a cq"),
	VERBS_OPTION(WqArgs, max_sge, VF_UINT, NULL, "n"),
	VERBS_OPTION(WqArgs, max_wr, VF_UINT, NULL, "n"),
	VERBS_OPTION(WqArgs, wq_type, VF_ENUM, verbsWqType, "type"),
	VERBS_FIELD_END
    };
    WqArgs args = {{NULL, NULL}, 0, NULL, 1, 16, IBV_WQT_RQ};
    struct ibv_wq_init_attr init;
    VerbsPd *p;
    VerbsWq *w;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &args,
	    &verbsPdClass) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.head.parent;
    if (VerbsCheckOwner(interp, "-cq", args.cq, p->obj.parent,
	    "device context than the pd") != TCL_OK) {
	return TCL_ERROR;
    }

    /*
     * The WQ's context pointer is its object, so that an async event
     * (wq_fatal) names it.
     */

    w = (VerbsWq *) VerbsObjNew(&verbsWqClass);
    memset(&init, 0, sizeof(init));
    init.wq_context = w;
    init.wq_type = (enum ibv_wq_type) args.wq_type;
    init.max_wr = args.max_wr;
    init.max_sge = args.max_sge;
    init.pd = p->pd;
    init.cq = ((VerbsCq *) args.cq)->cq;
    if (args.create_flags) {
	init.comp_mask = IBV_WQ_INIT_ATTR_FLAGS;
	init.create_flags = (uint32_t) args.create_flags;
    }
    w->wq = ibv_create_wq(((VerbsContext *) p->obj.parent)->ctx, &init);
    if (w->wq == NULL) {
	ckfree(w);
	return VerbsSysError(interp, "ibv_create_wq", &p->obj, NULL, errno);
    }
    if (VerbsObjRegister(interp, &w->obj, &p->obj, args.head.command)
	    != TCL_OK) {
	ibv_destroy_wq(w->wq);
	ckfree(w);
	return TCL_ERROR;
    }
    w->cq = (VerbsCq *) args.cq;
    VerbsObjRetain(args.cq);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * WqModify, WqPostRecv --
 *
 *	$wq modify DICT: wq_state, curr_wq_state, flags and flags_mask,
 *	the attr_mask from the keys ({wq_state rdy} readies a new WQ).
 *	$wq post_recv WR ?WR ...?: as $qp post_recv.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	ibv_modify_wq, ibv_post_wq_recv.
 *
 *----------------------------------------------------------------------
 */

static int
WqModify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    struct ibv_wq_attr attr;
    uint64_t mask = 0;
    int err;

    memset(&attr, 0, sizeof(attr));
    if (VerbsDictToStruct(interp, &verbsWqAttrStruct, "attributes", objv[2],
	    &attr, &mask) != TCL_OK) {
	return TCL_ERROR;
    }
    attr.attr_mask = (uint32_t) mask;
    err = ibv_modify_wq(((VerbsWq *) objPtr)->wq, &attr);
    if (err) {
	return VerbsSysError(interp, "ibv_modify_wq", objPtr, NULL, err);
    }
    return TCL_OK;
}

static int
PostToWq(
    void *target,
    struct ibv_recv_wr *wrs,
    struct ibv_recv_wr **bad)
{
    return ibv_post_wq_recv((struct ibv_wq *) target, wrs, bad);
}

static int
WqPostRecv(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsPostRecv(interp, objPtr, objc - 2, objv + 2, PostToWq,
	    ((VerbsWq *) objPtr)->wq, "ibv_post_wq_recv");
}

/*
 *----------------------------------------------------------------------
 *
 * IndTableCreateCmd --
 *
 *	verbs::rwqindtable create CONTEXT -ind_tbl {WQ ...} ?-as NAME?
 *
 *	The table's entries are the WQs in order; their number must be a
 *	power of two (the C API takes its log).
 *
 * Results:
 *	The rwqindtable object command's name.
 *
 * Side effects:
 *	ibv_create_rwq_ind_table; takes a reference on each entry's WQ.
 *
 *----------------------------------------------------------------------
 */

static int
IndTableCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	Tcl_Obj *ind_tbl;
    } IndTableArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_REQUIRED(IndTableArgs, ind_tbl, VF_TCLOBJ, NULL, 0,
		"wqs:the table's work queues"),
	VERBS_FIELD_END
    };
    IndTableArgs args = {{NULL, NULL}, NULL};
    struct ibv_rwq_ind_table_init_attr init;
    struct ibv_wq **entries;
    VerbsRwqIndTable *t;
    VerbsWq **wqs;
    VerbsObj *ctx;
    Tcl_Obj **elems;
    Tcl_Size n, i;
    uint32_t log = 0;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    ctx = args.head.parent;
    if (Tcl_ListObjGetElements(NULL, args.ind_tbl, &n, &elems) != TCL_OK
	    || n == 0 || (n & (n - 1)) != 0 || n > INT32_MAX) {
	return VerbsArgError(interp, "-ind_tbl", args.ind_tbl,
		"bad -ind_tbl \"%s\": must be a list of 1, 2, 4, 8, ... wqs",
		Tcl_GetString(args.ind_tbl));
    }
    while (((Tcl_Size) 1 << log) < n) {
	log++;
    }
    wqs = (VerbsWq **) ckalloc(n * sizeof(VerbsWq *));
    entries = (struct ibv_wq **) ckalloc(n * sizeof(struct ibv_wq *));
    for (i = 0; i < n; i++) {
	wqs[i] = (VerbsWq *) VerbsObjGet(interp, elems[i], &verbsWqClass);
	if (wqs[i] == NULL) {
	    goto error;
	}
	if (wqs[i]->obj.parent->parent != ctx) {
	    VerbsArgError(interp, "-ind_tbl", elems[i], "wq \"%s\" is on "
		    "another device context", Tcl_GetString(elems[i]));
	    goto error;
	}
	entries[i] = wqs[i]->wq;
    }
    memset(&init, 0, sizeof(init));
    init.log_ind_tbl_size = log;
    init.ind_tbl = entries;
    t = (VerbsRwqIndTable *) VerbsObjNew(&verbsRwqIndTableClass);
    t->table = ibv_create_rwq_ind_table(((VerbsContext *) ctx)->ctx, &init);
    if (t->table == NULL) {
	ckfree(t);
	VerbsSysError(interp, "ibv_create_rwq_ind_table", ctx, NULL, errno);
	goto error;
    }
    if (VerbsObjRegister(interp, &t->obj, ctx, args.head.command) != TCL_OK) {
	ibv_destroy_rwq_ind_table(t->table);
	ckfree(t);
	goto error;
    }
    ckfree(entries);
    t->nwqs = (int) n;
    t->wqs = wqs;
    for (i = 0; i < n; i++) {
	VerbsObjRetain(&wqs[i]->obj);
    }
    return TCL_OK;

  error:
    ckfree(entries);
    ckfree(wqs);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * IndTableWqs --
 *
 *	The -ind_tbl cget option: the table's WQs in order (an entry whose
 *	command was closed, while the table keeps the WQ, is empty).
 *
 * Results:
 *	TCL_OK with *valuePtr the list.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
IndTableWqs(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    VerbsRwqIndTable *t = (VerbsRwqIndTable *) objPtr;
    Tcl_Obj *list = Tcl_NewObj();
    int i;

    for (i = 0; i < t->nwqs; i++) {
	Tcl_ListObjAppendElement(NULL, list, VerbsObjName(&t->wqs[i]->obj));
    }
    *valuePtr = list;
    return TCL_OK;
}
