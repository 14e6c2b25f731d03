/*
 * verbsCq.c --
 *
 *	Completion queues: [verbs::cq create], polling, and waiting for a
 *	number of completions with a timeout; completion channels, whose
 *	events reach scripts through the event loop.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <time.h>

/*
 * ------------------------------------------------------------------------
 * The names and struct tables of work completions: the rows with which the
 * attribute dict engine (verbsAttr.c) reads and writes these C structs.
 * ------------------------------------------------------------------------
 */

/*
 * Values that newer rdma-core or kernel headers name and older ones do not:
 * named here so that the tables are the same against every rdma-core.
 */

#define VERBS_WC_FLUSH			8	/* IBV_WC_FLUSH */

#define RO VF_READONLY

const VerbsEnum verbsWcStatus[] = {
    {"success", IBV_WC_SUCCESS},
    {"loc_len_err", IBV_WC_LOC_LEN_ERR},
    {"loc_qp_op_err", IBV_WC_LOC_QP_OP_ERR},
    {"loc_eec_op_err", IBV_WC_LOC_EEC_OP_ERR},
    {"loc_prot_err", IBV_WC_LOC_PROT_ERR},
    {"wr_flush_err", IBV_WC_WR_FLUSH_ERR},
    {"mw_bind_err", IBV_WC_MW_BIND_ERR},
    {"bad_resp_err", IBV_WC_BAD_RESP_ERR},
    {"loc_access_err", IBV_WC_LOC_ACCESS_ERR},
    {"rem_inv_req_err", IBV_WC_REM_INV_REQ_ERR},
    {"rem_access_err", IBV_WC_REM_ACCESS_ERR},
    {"rem_op_err", IBV_WC_REM_OP_ERR},
    {"retry_exc_err", IBV_WC_RETRY_EXC_ERR},
    {"rnr_retry_exc_err", IBV_WC_RNR_RETRY_EXC_ERR},
    {"loc_rdd_viol_err", IBV_WC_LOC_RDD_VIOL_ERR},
    {"rem_inv_rd_req_err", IBV_WC_REM_INV_RD_REQ_ERR},
    {"rem_abort_err", IBV_WC_REM_ABORT_ERR},
    {"inv_eecn_err", IBV_WC_INV_EECN_ERR},
    {"inv_eec_state_err", IBV_WC_INV_EEC_STATE_ERR},
    {"fatal_err", IBV_WC_FATAL_ERR},
    {"resp_timeout_err", IBV_WC_RESP_TIMEOUT_ERR},
    {"general_err", IBV_WC_GENERAL_ERR},
    {"tm_err", IBV_WC_TM_ERR},
    {"tm_rndv_incomplete", IBV_WC_TM_RNDV_INCOMPLETE},
    {NULL, 0}
};
const VerbsEnum verbsWcOpcode[] = {
    {"send", IBV_WC_SEND},
    {"rdma_write", IBV_WC_RDMA_WRITE},
    {"rdma_read", IBV_WC_RDMA_READ},
    {"comp_swap", IBV_WC_COMP_SWAP},
    {"fetch_add", IBV_WC_FETCH_ADD},
    {"bind_mw", IBV_WC_BIND_MW},
    {"local_inv", IBV_WC_LOCAL_INV},
    {"tso", IBV_WC_TSO},
    {"flush", VERBS_WC_FLUSH},
    {"atomic_write", IBV_WC_ATOMIC_WRITE},
    {"recv", IBV_WC_RECV},
    {"recv_rdma_with_imm", IBV_WC_RECV_RDMA_WITH_IMM},
    {"tm_add", IBV_WC_TM_ADD},
    {"tm_del", IBV_WC_TM_DEL},
    {"tm_sync", IBV_WC_TM_SYNC},
    {"tm_recv", IBV_WC_TM_RECV},
    {"tm_no_tag", IBV_WC_TM_NO_TAG},
    {"driver1", IBV_WC_DRIVER1},	/* Providers' own: mlx5's umr, */
    {"driver2", IBV_WC_DRIVER2},	/* raw_wqe */
    {"driver3", IBV_WC_DRIVER3},	/* and memcpy. */
    {NULL, 0}
};
const VerbsEnum verbsWcFlags[] = {
    {"grh", IBV_WC_GRH},
    {"with_imm", IBV_WC_WITH_IMM},
    {"ip_csum_ok", IBV_WC_IP_CSUM_OK},
    {"with_inv", IBV_WC_WITH_INV},
    {"tm_sync_req", IBV_WC_TM_SYNC_REQ},
    {"tm_match", IBV_WC_TM_MATCH},
    {"tm_data_valid", IBV_WC_TM_DATA_VALID},
    {NULL, 0}
};

const VerbsEnum verbsCqWcFlags[] = {
    {"byte_len", IBV_WC_EX_WITH_BYTE_LEN},
    {"imm", IBV_WC_EX_WITH_IMM},
    {"qp_num", IBV_WC_EX_WITH_QP_NUM},
    {"src_qp", IBV_WC_EX_WITH_SRC_QP},
    {"slid", IBV_WC_EX_WITH_SLID},
    {"sl", IBV_WC_EX_WITH_SL},
    {"dlid_path_bits", IBV_WC_EX_WITH_DLID_PATH_BITS},
    {"completion_timestamp", IBV_WC_EX_WITH_COMPLETION_TIMESTAMP},
    {"completion_timestamp_wallclock",
	    IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK},
    {"tm_info", IBV_WC_EX_WITH_TM_INFO},
    {"cvlan", IBV_WC_EX_WITH_CVLAN},
    {"flow_tag", IBV_WC_EX_WITH_FLOW_TAG},
    {NULL, 0}
};

/*
 * A work completion: read-only as a poll result; the same fields as input
 * (verbs::ah from_wc takes a completion dict back).
 */

#define WC_FIELDS(flags) \
    WC(wr_id, VF_UINT, NULL, flags), \
    WC(status, VF_ENUM, verbsWcStatus, flags), \
    WC(opcode, VF_ENUM, verbsWcOpcode, flags), \
    WC(vendor_err, VF_UINT, NULL, flags), \
    WC(byte_len, VF_UINT, NULL, flags), \
    WC(imm_data, VF_BE32, NULL, flags), \
    WC(qp_num, VF_UINT, NULL, flags), \
    WC(src_qp, VF_UINT, NULL, flags), \
    WC(wc_flags, VF_FLAGS, verbsWcFlags, flags), \
    WC(pkey_index, VF_UINT, NULL, flags), \
    WC(slid, VF_UINT, NULL, flags), \
    WC(sl, VF_UINT, NULL, flags), \
    WC(dlid_path_bits, VF_UINT, NULL, flags), \
    VERBS_FIELD_END
#define WC(f, kind, table, flags) \
    VERBS_FIELD(struct ibv_wc, f, kind, table, 0, flags)
static const VerbsField wcFields[] = {WC_FIELDS(RO)};
static const VerbsField wcInputFields[] = {WC_FIELDS(0)};
#undef WC

/* WcDict keeps a key per row of wcFields, and a 0, in VerbsCq's wcKeys. */
typedef char WcKeysFit[sizeof(wcFields) / sizeof(wcFields[0])
	== sizeof(((VerbsCq *) NULL)->wcKeys)
	/ sizeof(((VerbsCq *) NULL)->wcKeys[0]) ? 1 : -1];
const VerbsStruct verbsWcStruct = {"work completion", wcFields};
const VerbsStruct verbsWcInputStruct = {"work completion key", wcInputFields};

#undef RO


#define POLL_BATCH 64
#define SPIN_MS 1.0		/* $cq wait polls without sleeping this
				 * long. */
#define NO_WC_FLAGS (~(uint64_t) 0)	/* -wc_flags not given. */

static VerbsMethodProc CqModify, CqPoll, CqReqNotify, CqResize, CqWait,
	ChannelNotify, ChannelWait;

static const VerbsMethod cqMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"modify", CqModify, 1, 1, "attributes"},
    {"poll", CqPoll, 0, 3, "?max? ?-fields names?"},
    {"req_notify", CqReqNotify, 0, 1, "?-solicited?"},
    {"resize", CqResize, 1, 1, "cqe"},
    {"wait", CqWait, 1, 7,
	    "count ?-timeout ms? ?-check bool? ?-fields names?"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField cqCget[] = {
    VERBS_CGET_PTR("-cqe", VerbsCq, cq, struct ibv_cq, cqe, VF_INT, NULL),
    VERBS_CGET_PTR("-handle", VerbsCq, cq, struct ibv_cq, handle, VF_UINT,
	    NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET("-channel", VerbsCq, channel, VF_OBJ, NULL),
    VERBS_CGET("-wc_flags", VerbsCq, wcFlags, VF_FLAGS, verbsCqWcFlags),
    VERBS_CGET("-parent_domain", VerbsCq, parentDomain, VF_OBJ, NULL),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc ChannelCreateCmd, CqCreateCmd;


static const VerbsCommand cqCommands[] = {
    {"create", CqCreateCmd}, {NULL, NULL}
};

static const VerbsMethod channelMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"notify", ChannelNotify, 0, 1, "?script?"},
    {"wait", ChannelWait, 0, 2, "?-timeout ms?"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField channelCget[] = {
    VERBS_CGET_PTR("-fd", VerbsChannel, channel, struct ibv_comp_channel, fd,
	    VF_INT, NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static const VerbsCommand channelCommands[] = {
    {"create", ChannelCreateCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * CqFree --
 *
 *	Destruction once no QP uses the CQ, which then lets go of its
 *	channel.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_destroy_cq, releases the channel reference.
 *
 *----------------------------------------------------------------------
 */

static void
CqFree(
    VerbsObj *objPtr)
{
    VerbsCq *c = (VerbsCq *) objPtr;

    ibv_destroy_cq(c->cq);
    if (c->lastDict) {
	Tcl_DecrRefCount(c->lastDict);
    }
    if (c->wcKeys[0]) {
	int i;

	for (i = 0; i < (int) (sizeof(c->wcKeys) / sizeof(c->wcKeys[0]));
		i++) {
	    Tcl_DecrRefCount(c->wcKeys[i]);
	}
    }
    if (c->cmQps) {
	Tcl_DeleteHashTable(c->cmQps);
	ckfree(c->cmQps);
    }
    if (c->channel) {
	VerbsObjRelease(&c->channel->obj);
    }
    if (c->parentDomain) {
	VerbsObjRelease(&c->parentDomain->obj);
    }
}

const VerbsType verbsCqClass = {
    .name = "cq",
    .size = sizeof(VerbsCq),
    .methods = cqMethods,
    .cget = cqCget,
    .freeProc = CqFree,
    .commands = cqCommands,
};

/*
 * The options of verbs::cq create.
 */

typedef struct {
    VerbsCreateHead head;
    VerbsObj *channel;
    uint64_t comp_vector, cqe, flags;
    VerbsObj *parent_domain;
    uint64_t wc_flags;
} CqArgs;

/*
 * enum ibv_create_cq_attr_flags, the -flags of an extended CQ.
 */

static const VerbsEnum cqAttrFlags[] = {
    {"single_threaded", IBV_CREATE_CQ_ATTR_SINGLE_THREADED},
    {"ignore_overrun", IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN},
    {NULL, 0}
};

/*
 *----------------------------------------------------------------------
 *
 * CqMakeEx --
 *
 *	An extended CQ (ibv_create_cq_ex, or the maker's create proc): on
 *	a parent domain, with -wc_flags or -flags, or for a provider.  The CQ's
 *	context pointer is its object, so that a completion event names
 *	the CQ it is for.  Without -wc_flags it is polled as a plain one.
 *
 * Results:
 *	A standard Tcl result; c->cq (and c->cqx with -wc_flags) set.
 *
 * Side effects:
 *	Creates the CQ; a parent domain's allocator may run scripts.
 *
 *----------------------------------------------------------------------
 */

static int
CqMakeEx(
    Tcl_Interp *interp,
    VerbsContext *ctx,
    VerbsCq *c,
    const CqArgs *a,
    VerbsChannel *ch,
    VerbsPd *pd,		/* A parent domain, or NULL. */
    const VerbsCqMaker *maker)
{
    const char *call = maker ? maker->call : "ibv_create_cq_ex";
    struct ibv_cq_init_attr_ex ex;
    VerbsObj *held[2];
    int closed;

    held[0] = pd ? &pd->obj : NULL;
    held[1] = ch ? &ch->obj : NULL;
    memset(&ex, 0, sizeof(ex));
    ex.cqe = (uint32_t) a->cqe;
    ex.cq_context = c;
    ex.channel = ch ? ch->channel : NULL;
    ex.comp_vector = (uint32_t) a->comp_vector;
    ex.wc_flags = a->wc_flags != NO_WC_FLAGS ? a->wc_flags
	    : IBV_WC_STANDARD_FLAGS;
    if (pd) {
	ex.comp_mask = IBV_CQ_INIT_ATTR_MASK_PD;
	ex.parent_domain = pd->pd;
    }
    if (a->flags) {
	ex.comp_mask |= IBV_CQ_INIT_ATTR_MASK_FLAGS;
	ex.flags = (uint32_t) a->flags;
    }
    VerbsObjHold(held, 2);
    c->cqx = maker ? maker->create(ctx->ctx, &ex, maker->clientData)
	    : ibv_create_cq_ex(ctx->ctx, &ex);
    if (c->cqx == NULL) {
	VerbsObjUnhold(held, 2);
	return VerbsSysError(interp, call, &ctx->obj, NULL, errno);
    }
    closed = VerbsObjCheckHeld(interp, held, 2, call);
    if (closed != TCL_OK) {
	ibv_destroy_cq(ibv_cq_ex_to_cq(c->cqx));
    }
    VerbsObjUnhold(held, 2);
    if (closed != TCL_OK) {
	return TCL_ERROR;
    }
    c->cq = ibv_cq_ex_to_cq(c->cqx);
    if (a->wc_flags == NO_WC_FLAGS) {
	c->cqx = NULL;
    } else {
	c->wcFlags = a->wc_flags;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CqCreateCmd, VerbsCqCreate --
 *
 *	verbs::cq create CONTEXT ?-cqe N? ?-channel CHANNEL?
 *		?-comp_vector N? ?-as NAME?
 *	VerbsCqCreate makes the CQ with the maker's create proc (a
 *	provider's own constructor) when maker is not NULL.
 *
 * Results:
 *	The cq object command's name.
 *
 * Side effects:
 *	ibv_create_cq; takes a reference on the channel.
 *
 *----------------------------------------------------------------------
 */

static int
CqCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsCqCreate(interp, objc, objv, NULL);
}

int
VerbsCqCreate(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    const VerbsCqMaker *maker)
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(CqArgs, channel, VF_OBJ, &verbsChannelClass, "channel"),
	VERBS_OPTION_MAX(CqArgs, comp_vector, INT32_MAX, "n"),
	VERBS_OPTION_MAX(CqArgs, cqe, INT32_MAX, "entries"),
	VERBS_OPTION(CqArgs, flags, VF_FLAGS, cqAttrFlags, "flags"),
	VERBS_OPTION(CqArgs, parent_domain, VF_OBJ, &verbsPdClass, "pd"),
	VERBS_OPTION(CqArgs, wc_flags, VF_FLAGS, verbsCqWcFlags, "flags"),
	VERBS_FIELD_END
    };
    CqArgs args = {{NULL, NULL}, NULL, 0, 16, 0, NULL, NO_WC_FLAGS};
    VerbsContext *ctx;
    VerbsChannel *ch;
    VerbsPd *pd;
    VerbsCq *c;
    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    ctx = (VerbsContext *) args.head.parent;
    ch = (VerbsChannel *) args.channel;
    pd = (VerbsPd *) args.parent_domain;
    if (VerbsCheckOwner(interp, "-channel", args.channel, &ctx->obj,
	    "device context") != TCL_OK
	    || VerbsCheckOwner(interp, "-parent_domain", args.parent_domain,
	    &ctx->obj, "device context") != TCL_OK) {
	return TCL_ERROR;
    }
    if (pd && pd->protPd == NULL) {
	Tcl_Obj *name = VerbsObjName(&pd->obj);

	VerbsArgError(interp, "-parent_domain", name, "-parent_domain \"%s\" "
		"is a protection domain, not a parent domain",
		Tcl_GetString(name));
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }

    /*
     * The CQ's context pointer is its object, so that a completion event
     * names the CQ it is for.  On a parent domain the CQ is an extended
     * one; without -wc_flags it is polled as a plain one.
     */

    c = (VerbsCq *) VerbsObjNew(&verbsCqClass);
    if (args.wc_flags != NO_WC_FLAGS || args.flags || pd || maker) {
	if (CqMakeEx(interp, ctx, c, &args, ch, pd, maker) != TCL_OK) {
	    ckfree(c);
	    return TCL_ERROR;
	}
    } else {
	c->cq = ibv_create_cq(ctx->ctx, (int) args.cqe, c,
		ch ? ch->channel : NULL, (int) args.comp_vector);
    }
    if (c->cq == NULL) {
	ckfree(c);
	return VerbsSysError(interp, "ibv_create_cq", &ctx->obj, NULL, errno);
    }
    if (VerbsObjRegister(interp, &c->obj, &ctx->obj, args.head.command)
	    != TCL_OK) {
	ibv_destroy_cq(c->cq);
	ckfree(c);
	return TCL_ERROR;
    }
    if (ch) {
	c->channel = ch;
	VerbsObjRetain(&ch->obj);
    }
    if (pd) {
	c->parentDomain = pd;
	VerbsObjRetain(&pd->obj);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PollInto --
 *
 *	Poll up to max completions and append them as WC dicts to list.
 *	With check, a failed completion is an error (VerbsWcError), raised
 *	once every completion taken off the CQ with it (the rest of its
 *	batch) is in list too: list always holds all that was polled, so
 *	that the caller can hand them on (VerbsErrorCompletions).
 *
 * Results:
 *	The number polled, or -1 with an error in interp.
 *
 * Side effects:
 *	Consumes CQ entries.
 *
 *----------------------------------------------------------------------
 */

/*
 * -fields of poll and wait: the completion fields a caller wants, each
 * completion then adding their values to a flat list instead of a dict.
 */

#define MAX_FIELDS 16

typedef struct WcFields {
    int n;			/* -1: not given (dicts). */
    const VerbsField *f[MAX_FIELDS];
} WcFields;

#define WANTED_FIELDS(w) ((w).n >= 0 ? &(w) : NULL)

/*
 *----------------------------------------------------------------------
 *
 * ParseWcFields --
 *
 *	A -fields value: a list of work completion field names (a
 *	VerbsSetProc into a WcFields).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills the WcFields.
 *
 *----------------------------------------------------------------------
 */

static int
ParseWcFields(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *listObj,
    void *memberPtr)		/* WcFields. */
{
    WcFields *fields = (WcFields *) memberPtr;
    Tcl_Obj **elems;
    Tcl_Size n, i;
    int index;

    if (Tcl_ListObjGetElements(NULL, listObj, &n, &elems) != TCL_OK
	    || n > MAX_FIELDS) {
	return VerbsArgError(interp, key, listObj, "bad %s \"%s\": must be "
		"a list of at most %d work completion fields", key,
		Tcl_GetString(listObj), MAX_FIELDS);
    }
    for (i = 0; i < n; i++) {
	if (Tcl_GetIndexFromObjStruct(interp, elems[i],
		verbsWcStruct.fields, sizeof(VerbsField), "field", 0, &index)
		!= TCL_OK) {
	    Tcl_SetErrorCode(interp, "VERBS", "ARG", key,
		    Tcl_GetString(elems[i]), NULL);
	    return TCL_ERROR;
	}
	fields->f[i] = &verbsWcStruct.fields[index];
    }
    fields->n = (int) n;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * AppendFields --
 *
 *	Append the -fields values of one completion to a flat list: from
 *	the struct (enum names are shared values, no new string each), or
 *	for an extended CQ from the dict PollEx made (a field it did not
 *	read is an empty value).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Appends to list.
 *
 *----------------------------------------------------------------------
 */

static void
AppendFields(
    Tcl_Obj *list,
    const WcFields *fields,
    const struct ibv_wc *wc,
    Tcl_Obj *dict)
{
    int i;

    for (i = 0; i < fields->n; i++) {
	const VerbsField *f = fields->f[i];
	Tcl_Obj *v = NULL;

	if (dict != NULL) {
	    if (Tcl_DictObjGet(NULL, dict, VerbsKeyObj(f->name), &v) != TCL_OK
		    || v == NULL) {
		v = Tcl_NewObj();
	    }
	} else if (f->kind == VF_ENUM) {
	    v = VerbsEnumShared((const VerbsEnum *) f->table,
		    *(const unsigned *) ((const char *) wc + f->offset));
	} else {
	    VerbsFieldGet(NULL, f, wc, NULL, &v);
	}
	Tcl_ListObjAppendElement(NULL, list, v);
    }
}

static void
AppendWc(
    Tcl_Obj *list,
    Tcl_Obj *dict,
    const WcFields *fields)
{
    if (fields == NULL) {
	Tcl_ListObjAppendElement(NULL, list, dict);
	return;
    }
    Tcl_IncrRefCount(dict);
    AppendFields(list, fields, NULL, dict);
    Tcl_DecrRefCount(dict);
}

/*
 *----------------------------------------------------------------------
 *
 * PollEx --
 *
 *	PollInto for an extended CQ: ibv_start_poll, ibv_next_poll,
 *	ibv_end_poll, reading the fields its -wc_flags asked for.  The dict
 *	has wr_id, status, opcode, vendor_err and wc_flags, plus byte_len,
 *	imm_data (when the completion has one) or invalidated_rkey (when
 *	it has with_inv: both with imm), qp_num, src_qp, slid, sl,
 *	dlid_path_bits, completion_timestamp, completion_wallclock_ns,
 *	cvlan and flow_tag as requested, and tm_info {tag T priv P} for a
 *	tag matching completion that matched (wc_flags tm_match) when
 *	tm_info was.
 *
 * Results:
 *	The number polled, or -1 with an error in interp.
 *
 * Side effects:
 *	Consumes CQ entries.
 *
 *----------------------------------------------------------------------
 */

static int
PollEx(
    Tcl_Interp *interp,
    VerbsCq *c,
    int max,
    Tcl_Obj *list,
    int check,
    const WcFields *fields)	/* -fields, or NULL for dicts. */
{
    struct ibv_cq_ex *x = c->cqx;
    struct ibv_poll_cq_attr attr;
    uint64_t f = c->wcFlags;
    int total = 0, err;

    if (max <= 0) {
	return 0;
    }
    memset(&attr, 0, sizeof(attr));
    err = ibv_start_poll(x, &attr);
    if (err == ENOENT) {
	return 0;
    }
    if (err) {
	VerbsSysError(interp, "ibv_start_poll", &c->obj, NULL, err);
	return -1;
    }
    do {
	Tcl_Obj *d = Tcl_NewDictObj();
	unsigned wcFlags;

#define PUT(k, o) Tcl_DictObjPut(NULL, d, VerbsKeyObj(k), o)
	PUT("wr_id", VerbsU64Obj(x->wr_id));
	PUT("status", VerbsEnumObj(verbsWcStatus, x->status));
	if (x->status != IBV_WC_SUCCESS) {
	    /* The other fields are undefined for a failed completion. */
	    PUT("vendor_err", Tcl_NewWideIntObj(ibv_wc_read_vendor_err(x)));
	    AppendWc(list, d, fields);
	    total++;
	    if (check) {
		/* Raised with it in list; the next ones stay on the CQ. */
		struct ibv_wc wc;

		memset(&wc, 0, sizeof(wc));
		wc.wr_id = x->wr_id;
		wc.status = x->status;
		wc.vendor_err = ibv_wc_read_vendor_err(x);
		ibv_end_poll(x);
		VerbsWcError(interp, &c->obj, &wc, wc.wr_id);
		return -1;
	    }
	    continue;
	}
	wcFlags = ibv_wc_read_wc_flags(x);
	PUT("opcode", VerbsEnumObj(verbsWcOpcode, ibv_wc_read_opcode(x)));
	PUT("vendor_err", Tcl_NewWideIntObj(ibv_wc_read_vendor_err(x)));
	PUT("wc_flags", VerbsFlagsObj(verbsWcFlags, wcFlags));
	if (f & IBV_WC_EX_WITH_BYTE_LEN) {
	    PUT("byte_len", Tcl_NewWideIntObj(ibv_wc_read_byte_len(x)));
	}
	if ((f & IBV_WC_EX_WITH_IMM) && (wcFlags & IBV_WC_WITH_IMM)) {
	    PUT("imm_data", Tcl_NewWideIntObj(ntohl(ibv_wc_read_imm_data(x))));
	}
	if ((f & IBV_WC_EX_WITH_IMM) && (wcFlags & IBV_WC_WITH_INV)) {
	    /* The rkey a send_with_inv invalidated, in host order. */
	    PUT("invalidated_rkey",
		    Tcl_NewWideIntObj(ibv_wc_read_invalidated_rkey(x)));
	}
	if (f & IBV_WC_EX_WITH_QP_NUM) {
	    PUT("qp_num", Tcl_NewWideIntObj(ibv_wc_read_qp_num(x)));
	}
	if (f & IBV_WC_EX_WITH_SRC_QP) {
	    PUT("src_qp", Tcl_NewWideIntObj(ibv_wc_read_src_qp(x)));
	}
	if (f & IBV_WC_EX_WITH_SLID) {
	    PUT("slid", Tcl_NewWideIntObj(ibv_wc_read_slid(x)));
	}
	if (f & IBV_WC_EX_WITH_SL) {
	    PUT("sl", Tcl_NewIntObj(ibv_wc_read_sl(x)));
	}
	if (f & IBV_WC_EX_WITH_DLID_PATH_BITS) {
	    PUT("dlid_path_bits", Tcl_NewIntObj(ibv_wc_read_dlid_path_bits(x)));
	}
	if (f & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP) {
	    PUT("completion_timestamp",
		    VerbsU64Obj(ibv_wc_read_completion_ts(x)));
	}
	if (f & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK) {
	    PUT("completion_wallclock_ns",
		    VerbsU64Obj(ibv_wc_read_completion_wallclock_ns(x)));
	}
	if (f & IBV_WC_EX_WITH_CVLAN) {
	    PUT("cvlan", Tcl_NewIntObj(ibv_wc_read_cvlan(x)));
	}
	if (f & IBV_WC_EX_WITH_FLOW_TAG) {
	    PUT("flow_tag", Tcl_NewWideIntObj(ibv_wc_read_flow_tag(x)));
	}
	if ((f & IBV_WC_EX_WITH_TM_INFO) && x->read_tm_info
		&& (wcFlags & IBV_WC_TM_MATCH)) {
	    struct ibv_wc_tm_info tm;

	    ibv_wc_read_tm_info(x, &tm);
	    PUT("tm_info", Tcl_NewListObj(4, (Tcl_Obj *[]) {
		    VerbsKeyObj("tag"), VerbsU64Obj(tm.tag),
		    VerbsKeyObj("priv"), Tcl_NewWideIntObj(tm.priv)}));
	}
#undef PUT
	AppendWc(list, d, fields);
	total++;
    } while (total < max && (err = ibv_next_poll(x)) == 0);
    ibv_end_poll(x);
    if (total < max && err != ENOENT) {
	VerbsSysError(interp, "ibv_next_poll", &c->obj, NULL, err);
	return -1;
    }
    return total;
}

/*
 *----------------------------------------------------------------------
 *
 * SameWc, WcDict --
 *
 *	The dict of a completion of a plain CQ, with the keys of
 *	verbsWcStruct in its order.  Made cheaply: the keys are the
 *	thread's shared key objects (kept in the CQ after the first dict),
 *	the status and opcode names shared values, every 0 one shared
 *	value.  A completion identical to the last one made into a dict on
 *	this CQ (a loop posting the same work request again) gets that
 *	same dict: a value is immutable, so nothing can tell, and a loop
 *	reading its completions as dicts costs about what one with -fields
 *	does.
 *
 * Results:
 *	SameWc: whether two completions have the same fields.  WcDict: the
 *	dict, with no reference of the caller's.
 *
 * Side effects:
 *	WcDict keeps the dict, and the completion, in the CQ.
 *
 *----------------------------------------------------------------------
 */

static int
SameWc(
    const struct ibv_wc *a,
    const struct ibv_wc *b)
{
    return a->wr_id == b->wr_id && a->status == b->status
	    && a->opcode == b->opcode && a->vendor_err == b->vendor_err
	    && a->byte_len == b->byte_len && a->imm_data == b->imm_data
	    && a->qp_num == b->qp_num && a->src_qp == b->src_qp
	    && a->wc_flags == b->wc_flags && a->pkey_index == b->pkey_index
	    && a->slid == b->slid && a->sl == b->sl
	    && a->dlid_path_bits == b->dlid_path_bits;
}

static Tcl_Obj *
WcDict(
    VerbsCq *c,
    const struct ibv_wc *wc)
{
    Tcl_Obj *d, *zero, **k = c->wcKeys;

    if (c->lastDict != NULL && SameWc(&c->lastWc, wc)) {
	return c->lastDict;
    }
    if (k[0] == NULL) {
	const VerbsField *f;
	int i = 0;

	for (f = verbsWcStruct.fields; f->name; f++) {
	    k[i] = VerbsKeyObj(f->name);
	    Tcl_IncrRefCount(k[i]);
	    i++;
	}
	k[i] = Tcl_NewIntObj(0);
	Tcl_IncrRefCount(k[i]);
    }
    zero = k[sizeof(c->wcKeys) / sizeof(c->wcKeys[0]) - 1];
#define NUM(v) ((v) == 0 ? zero : Tcl_NewWideIntObj((Tcl_WideInt) (v)))
    d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, k[0], VerbsU64Obj(wc->wr_id));
    Tcl_DictObjPut(NULL, d, k[1],
	    VerbsEnumShared(verbsWcStatus, wc->status));
    Tcl_DictObjPut(NULL, d, k[2],
	    VerbsEnumShared(verbsWcOpcode, wc->opcode));
    Tcl_DictObjPut(NULL, d, k[3], NUM(wc->vendor_err));
    Tcl_DictObjPut(NULL, d, k[4], NUM(wc->byte_len));
    Tcl_DictObjPut(NULL, d, k[5], NUM(ntohl(wc->imm_data)));
    Tcl_DictObjPut(NULL, d, k[6], NUM(wc->qp_num));
    Tcl_DictObjPut(NULL, d, k[7], NUM(wc->src_qp));
    Tcl_DictObjPut(NULL, d, k[8], wc->wc_flags == 0 ? Tcl_NewObj()
	    : VerbsFlagsObj(verbsWcFlags, wc->wc_flags));
    Tcl_DictObjPut(NULL, d, k[9], NUM(wc->pkey_index));
    Tcl_DictObjPut(NULL, d, k[10], NUM(wc->slid));
    Tcl_DictObjPut(NULL, d, k[11], NUM(wc->sl));
    Tcl_DictObjPut(NULL, d, k[12], NUM(wc->dlid_path_bits));
#undef NUM
    Tcl_IncrRefCount(d);
    if (c->lastDict != NULL) {
	Tcl_DecrRefCount(c->lastDict);
    }
    c->lastDict = d;
    c->lastWc = *wc;
    return d;
}

static int
PollInto(
    Tcl_Interp *interp,
    VerbsCq *c,
    int max,
    Tcl_Obj *list,
    int check,
    const WcFields *fields)	/* -fields, or NULL for dicts. */
{
    struct ibv_wc wc[POLL_BATCH];
    int total = 0, n, i, failed;

    if (c->cqx) {
	return PollEx(interp, c, max, list, check, fields);
    }
    while (total < max) {
	int want = max - total < POLL_BATCH ? max - total : POLL_BATCH;

	n = ibv_poll_cq(c->cq, want, wc);
	if (n < 0) {
	    VerbsSysError(interp, "ibv_poll_cq", &c->obj, NULL, EIO);
	    return -1;
	}
	failed = -1;
	for (i = 0; i < n; i++) {
	    if (check && failed < 0 && wc[i].status != IBV_WC_SUCCESS) {
		failed = i;
	    }
	    if (fields != NULL) {
		AppendFields(list, fields, &wc[i], NULL);
	    } else {
		Tcl_ListObjAppendElement(NULL, list, WcDict(c, &wc[i]));
	    }
	}
	if (failed >= 0) {
	    /* The whole batch is in list, which goes with the error. */
	    VerbsWcError(interp, &c->obj, &wc[failed], wc[failed].wr_id);
	    return -1;
	}
	total += n;
	if (n < want) {
	    break;
	}
    }
    return total;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsWcError --
 *
 *	Turn a failed completion into an error: "OBJ: work completion
 *	STATUS (wr_id N, vendor_err V)" with errorCode {VERBS WC status
 *	wr_id vendor_err}.  wrId is what to report as the wr_id.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the result.
 *
 *----------------------------------------------------------------------
 */

int
VerbsWcError(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    const struct ibv_wc *wc,
    uint64_t wrId)
{
    Tcl_Obj *name = VerbsObjName(objPtr);
    Tcl_Obj *status = VerbsEnumObj(verbsWcStatus, wc->status);
    Tcl_Obj *id = VerbsU64Obj(wrId);

    Tcl_IncrRefCount(status);
    Tcl_IncrRefCount(id);
    Tcl_SetObjResult(interp, Tcl_ObjPrintf(
	    "%s: work completion %s (wr_id %s, vendor_err %u)",
	    Tcl_GetString(name), Tcl_GetString(status), Tcl_GetString(id),
	    wc->vendor_err));
    Tcl_SetObjErrorCode(interp, Tcl_NewListObj(5, (Tcl_Obj *[]) {
	    Tcl_NewStringObj("VERBS", -1), Tcl_NewStringObj("WC", -1),
	    status, id, Tcl_NewWideIntObj(wc->vendor_err)}));
    Tcl_DecrRefCount(id);
    Tcl_DecrRefCount(status);
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsErrorCompletions --
 *
 *	Hand the completions that a failing command had already polled to
 *	its caller: the error's return options get -completions LIST (the
 *	WC dicts, in the order polled; empty when there were none), next
 *	to the message and errorCode already set.  A completion taken off
 *	a CQ is never dropped: it is either in a result or here.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the interpreter's return options; list is consumed (freed
 *	when it had no other reference).
 *
 *----------------------------------------------------------------------
 */

int
VerbsErrorCompletions(
    Tcl_Interp *interp,
    Tcl_Obj *list)
{
    Tcl_Obj *options = Tcl_GetReturnOptions(interp, TCL_ERROR);
    Tcl_Obj *code = NULL, *opts;

    Tcl_IncrRefCount(options);
    Tcl_IncrRefCount(list);
    Tcl_DictObjGet(NULL, options, VerbsKeyObj("-errorcode"), &code);
    opts = Tcl_NewListObj(0, NULL);
    Tcl_ListObjAppendElement(NULL, opts, VerbsKeyObj("-code"));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewIntObj(TCL_ERROR));
    Tcl_ListObjAppendElement(NULL, opts, VerbsKeyObj("-level"));
    Tcl_ListObjAppendElement(NULL, opts, Tcl_NewIntObj(0));
    if (code) {
	Tcl_ListObjAppendElement(NULL, opts, VerbsKeyObj("-errorcode"));
	Tcl_ListObjAppendElement(NULL, opts, code);
    }
    Tcl_ListObjAppendElement(NULL, opts, VerbsKeyObj("-completions"));
    Tcl_ListObjAppendElement(NULL, opts, list);
    Tcl_IncrRefCount(opts);
    Tcl_SetReturnOptions(interp, opts);
    Tcl_DecrRefCount(opts);
    Tcl_DecrRefCount(options);
    Tcl_DecrRefCount(list);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * CqPoll --
 *
 *	$cq poll ?MAX? ?-fields NAMES?: the completions ready now (at most
 *	MAX, default the CQ's size), as a list of WC dicts, or with -fields
 *	as one flat list of the values of those fields of each.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Consumes CQ entries.
 *
 *----------------------------------------------------------------------
 */

static int
CqPoll(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	WcFields fields;
    } PollArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_PARSE(PollArgs, fields, ParseWcFields, 0, "names"),
	VERBS_FIELD_END
    };
    VerbsCq *c = (VerbsCq *) objPtr;
    uint64_t max = (uint64_t) c->cq->cqe;
    PollArgs args;
    Tcl_Obj *list;
    int first = 2 + objc % 2;

    args.fields.n = -1;
    if ((first == 3 && VerbsGetUInt(interp, "max", objv[2], INT32_MAX,
	    &max) != TCL_OK)
	    || VerbsParseOptions(interp, objc, objv, first, options, &args)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    list = Tcl_NewObj();
    if (PollInto(interp, c, (int) max, list, 0, WANTED_FIELDS(args.fields))
	    < 0) {
	return VerbsErrorCompletions(interp, list);
    }
    Tcl_SetObjResult(interp, list);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CqWait --
 *
 *	$cq wait COUNT ?-timeout MS? ?-check BOOL?: poll until COUNT
 *	completions have arrived (default timeout 5000 ms, -1 for none);
 *	with -check a failed completion is an error {VERBS WC ...}.  Busy
 *	polls for the first SPIN_MS (a completion that comes soon is seen
 *	at once), then yields the CPU with a short sleep between empty
 *	polls.
 *	Every 10 ms without completions it calls the CQ's idleProc, if a
 *	QP set one: the QPs of rdma_cm ids read their channels then, so
 *	that a peer's disconnect flushes their receives instead of leaving
 *	the wait hanging.
 *
 * Results:
 *	The list of COUNT WC dicts (with -fields NAMES, one flat list of
 *	the values of those fields of each).  On timeout an error with
 *	errorCode {VERBS TIMEOUT GOT} naming how many had arrived; those, and
 *	on any other error every completion taken, are the -completions of
 *	the error's return options, in the result's form.
 *
 * Side effects:
 *	Consumes CQ entries; may read rdma_cm events ahead.
 *
 *----------------------------------------------------------------------
 */

static double
NowMs(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
CqWait(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	int check;
	WcFields fields;
	int timeout;
    } WaitArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(WaitArgs, check, VF_BOOL, NULL, "bool"),
	VERBS_OPTION_PARSE(WaitArgs, fields, ParseWcFields, 0, "names"),
	VERBS_OPTION(WaitArgs, timeout, VF_TIMEOUT, NULL, "ms"),
	VERBS_FIELD_END
    };
    WaitArgs args;
    VerbsCq *c = (VerbsCq *) objPtr;
    Tcl_Obj *list;
    uint64_t count;
    int timeout, check, got = 0, n, started;
    double deadline, nextPump, spinUntil;

    args.check = 0;
    args.fields.n = -1;
    args.timeout = 5000;
    if ((objc % 2) != 1) {
	Tcl_WrongNumArgs(interp, 2, objv,
		"count ?-timeout ms? ?-check bool? ?-fields names?");
	return TCL_ERROR;
    }
    if (VerbsGetUInt(interp, "count", objv[2], INT32_MAX, &count) != TCL_OK
	    || VerbsParseOptions(interp, objc, objv, 3, options, &args)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    timeout = args.timeout;
    check = args.check;
    list = Tcl_NewObj();
    deadline = spinUntil = nextPump = 0;
    started = 0;
    while ((uint64_t) got < count) {
	n = PollInto(interp, c, (int) count - got, list, check,
		WANTED_FIELDS(args.fields));
	if (n < 0) {
	    return VerbsErrorCompletions(interp, list);
	}
	got += n;
	if (n == 0) {
	    struct timespec pause = {0, 20000};
	    double now = NowMs();

	    /*
	     * The clock is read once an empty poll, and not at all when
	     * the completions are there at once: clock_gettime can be a
	     * system call (HPET has no vDSO reading).
	     */

	    if (!started) {
		started = 1;
		spinUntil = now + SPIN_MS;
		nextPump = now + 10;
		deadline = now + (double) timeout;
	    }
	    if (timeout >= 0 && now >= deadline) {
		Tcl_Obj *name = VerbsObjName(objPtr);

		Tcl_SetObjResult(interp, Tcl_ObjPrintf(
			"timed out after %d ms waiting for %d completions on "
			"%s (got %d)", timeout, (int) count,
			Tcl_GetString(name), got));
		Tcl_DecrRefCount(name);
		VerbsTimeoutCode(interp, got);
		return VerbsErrorCompletions(interp, list);
	    }
	    if (c->idleProc && now >= nextPump) {
		/*
		 * A peer's disconnect moves the QPs of rdma_cm ids to the
		 * error state, once their channels are read: read them.
		 */

		c->idleProc(interp, c);
		nextPump = now + 10;
	    }
	    if (now >= spinUntil) {
		nanosleep(&pause, NULL);
	    }
	}
    }
    Tcl_SetObjResult(interp, list);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CqReqNotify --
 *
 *	$cq req_notify ?-solicited?: arm the CQ, so that its channel gets
 *	an event for the next completion (or the next solicited one).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	ibv_req_notify_cq.
 *
 *----------------------------------------------------------------------
 */

static int
CqReqNotify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	int solicited;
    } NotifyArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_SWITCH("-solicited", NotifyArgs, solicited),
	VERBS_FIELD_END
    };
    NotifyArgs args = {0};
    VerbsCq *c = (VerbsCq *) objPtr;
    int err;

    if (VerbsParseOptions(interp, objc, objv, 2, options, &args) != TCL_OK) {
	return TCL_ERROR;
    }
    if (c->channel == NULL) {
	Tcl_Obj *name = VerbsObjName(objPtr);

	Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s has no completion channel "
		"(create it with -channel)", Tcl_GetString(name)));
	Tcl_DecrRefCount(name);
	Tcl_SetErrorCode(interp, "VERBS", "ARG", "-channel", "", NULL);
	return TCL_ERROR;
    }
    err = ibv_req_notify_cq(c->cq, args.solicited);
    if (err) {
	return VerbsSysError(interp, "ibv_req_notify_cq", objPtr, NULL, err);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CqResize, CqModify --
 *
 *	$cq resize CQE: ibv_resize_cq (the device may round CQE up: cget
 *	-cqe tells).  $cq modify {cq_count N cq_period USEC}: completion
 *	moderation (ibv_modify_cq), an event after N completions or USEC
 *	microseconds.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Changes the CQ.
 *
 *----------------------------------------------------------------------
 */

static const VerbsField moderateFields[] = {
    VERBS_FIELD(struct ibv_moderate_cq, cq_count, VF_UINT, NULL,
	    IBV_CQ_ATTR_MODERATE, 0),
    VERBS_FIELD(struct ibv_moderate_cq, cq_period, VF_UINT, NULL,
	    IBV_CQ_ATTR_MODERATE, 0),
    VERBS_FIELD_END
};
static const VerbsStruct moderateStruct = {"cq attribute", moderateFields};

static int
CqResize(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    uint64_t cqe;
    int err;

    if (VerbsGetUInt(interp, "cqe", objv[2], INT32_MAX, &cqe) != TCL_OK) {
	return TCL_ERROR;
    }
    if ((err = ibv_resize_cq(((VerbsCq *) objPtr)->cq, (int) cqe)) != 0) {
	return VerbsSysError(interp, "ibv_resize_cq", objPtr, NULL, err);
    }
    return TCL_OK;
}

static int
CqModify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    struct ibv_modify_cq_attr attr;
    uint64_t mask = 0;
    int err;

    memset(&attr, 0, sizeof(attr));
    if (VerbsDictToStruct(interp, &moderateStruct, "attributes", objv[2],
	    &attr.moderate, &mask) != TCL_OK) {
	return TCL_ERROR;
    }
    attr.attr_mask = (uint32_t) mask;
    if ((err = ibv_modify_cq(((VerbsCq *) objPtr)->cq, &attr)) != 0) {
	return VerbsSysError(interp, "ibv_modify_cq", objPtr, NULL, err);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * ChannelFree, ChannelEvent --
 *
 *	Destruction once no CQ uses the channel; reading one
 *	completion event (the eventProc): the event is the CQ's name (empty
 *	when the CQ's command is gone but a QP keeps it), acknowledged at
 *	once.
 *
 * Results:
 *	ChannelEvent: a standard Tcl result.
 *
 * Side effects:
 *	ChannelFree: ibv_destroy_comp_channel.  ChannelEvent: consumes
 *	and acknowledges an event.
 *
 *----------------------------------------------------------------------
 */

static void
ChannelFree(
    VerbsObj *objPtr)
{
    ibv_destroy_comp_channel(((VerbsChannel *) objPtr)->channel);
}

static int
ChannelEvent(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **eventPtr)
{
    struct ibv_cq *cq;
    void *cqContext;

    *eventPtr = NULL;
    if (ibv_get_cq_event(((VerbsChannel *) objPtr)->channel, &cq,
	    &cqContext) != 0) {
	if (errno == EAGAIN || errno == EINTR) {
	    return TCL_OK;
	}
	return VerbsSysError(interp, "ibv_get_cq_event", objPtr, NULL, errno);
    }
    ibv_ack_cq_events(cq, 1);
    *eventPtr = VerbsObjNameShared((VerbsObj *) cqContext);
    return TCL_OK;
}

const VerbsType verbsChannelClass = {
    .name = "channel",
    .size = sizeof(VerbsChannel),
    .methods = channelMethods,
    .cget = channelCget,
    .freeProc = ChannelFree,
    .eventProc = ChannelEvent,
    .commands = channelCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * ChannelNotify, ChannelWait --
 *
 *	$channel notify ?script?: run "script CQ" from the event loop for
 *	every completion event.  $channel wait ?-timeout ms?: block for
 *	the next one and return the CQ.
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
ChannelNotify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsNotify(interp, objPtr, ((VerbsChannel *) objPtr)->channel->fd,
	    objc, objv);
}

static int
ChannelWait(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsWaitEvent(interp, objPtr,
	    ((VerbsChannel *) objPtr)->channel->fd, objc, objv);
}

/*
 *----------------------------------------------------------------------
 *
 * ChannelCreateCmd --
 *
 *	verbs::channel create CONTEXT ?-as NAME?
 *
 * Results:
 *	The channel object command's name.
 *
 * Side effects:
 *	ibv_create_comp_channel; its fd is made non-blocking.
 *
 *----------------------------------------------------------------------
 */

static int
ChannelCreateCmd(
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
    VerbsContext *ctx;
    VerbsChannel *ch;
    struct ibv_comp_channel *channel;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    ctx = (VerbsContext *) args.parent;
    channel = ibv_create_comp_channel(ctx->ctx);
    if (channel == NULL) {
	return VerbsSysError(interp, "ibv_create_comp_channel", &ctx->obj,
		NULL, errno);
    }
    ch = (VerbsChannel *) VerbsObjNew(&verbsChannelClass);
    ch->channel = channel;
    if (VerbsSetNonBlocking(interp, channel->fd) != TCL_OK
	    || VerbsObjRegister(interp, &ch->obj, &ctx->obj, args.command)
	    != TCL_OK) {
	ibv_destroy_comp_channel(channel);
	ckfree(ch);
	return TCL_ERROR;
    }
    return TCL_OK;
}
