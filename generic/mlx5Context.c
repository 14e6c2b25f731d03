/*
 * mlx5Context.c --
 *
 *	mlx5 direct verbs on a device context: [mlx5::context open], the
 *	context's [$ctx mlx5 query], [mlx5::dv obj] and the mlx5 commands'
 *	namespaces.  An mlx5 context is an ordinary context object: every
 *	verbs:: command takes it.  Every mlx5 command first checks that the
 *	device is an mlx5 one (mlx5dv_is_supported): several libmlx5 entry
 *	points cast the context to their own type without looking.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5.h"
#include "mlx5Prm.h"
#include <errno.h>
#include <string.h>

static int	Mlx5Init(Tcl_Interp *interp);
static VerbsMethodProc Mlx5ContextMethod;
static void	Mlx5ContextFree(VerbsContext *c);

/*
 * The buffers libmlx5 asks a parent domain's allocator for.
 */

static const VerbsEnum resourceTypes[] = {
    {"qp", MLX5DV_RES_TYPE_QP},
    {"rwq", MLX5DV_RES_TYPE_RWQ},
    {"dbr", MLX5DV_RES_TYPE_DBR},
    {"srq", MLX5DV_RES_TYPE_SRQ},
    {"cq", MLX5DV_RES_TYPE_CQ},
    {NULL, 0}
};

/*
 * The provider's row (verbs.h, VERBS_PROVIDERS): what the core calls.
 */

const VerbsProvider verbsMlx5Provider = {
    "mlx5", Mlx5Init, Mlx5ContextMethod, Mlx5ContextFree, resourceTypes
};

/*
 * mlx5dv_query_device as a dict.
 */

#define MC(f, kind, table) \
    VERBS_FIELD(struct mlx5dv_context, f, kind, table, 0, VF_READONLY)

static const VerbsEnum contextFlags[] = {
    {"cqe_v1", MLX5DV_CONTEXT_FLAGS_CQE_V1},
    {"mpw_allowed", MLX5DV_CONTEXT_FLAGS_MPW_ALLOWED},
    {"enhanced_mpw", MLX5DV_CONTEXT_FLAGS_ENHANCED_MPW},
    {"cqe_128b_comp", MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP},
    {"cqe_128b_pad", MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD},
    {"packet_based_credit_mode",
	    MLX5DV_CONTEXT_FLAGS_PACKET_BASED_CREDIT_MODE},
    {"real_time_ts", MLX5DV_CONTEXT_FLAGS_REAL_TIME_TS},
    {NULL, 0}
};

static const VerbsEnum contextMask[] = {
    {"cqe_compresion", MLX5DV_CONTEXT_MASK_CQE_COMPRESION},
    {"swp", MLX5DV_CONTEXT_MASK_SWP},
    {"striding_rq", MLX5DV_CONTEXT_MASK_STRIDING_RQ},
    {"tunnel_offloads", MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS},
    {"dyn_bfregs", MLX5DV_CONTEXT_MASK_DYN_BFREGS},
    {"clock_info_update", MLX5DV_CONTEXT_MASK_CLOCK_INFO_UPDATE},
    {"flow_action_flags", MLX5DV_CONTEXT_MASK_FLOW_ACTION_FLAGS},
    {"dc_odp_caps", MLX5DV_CONTEXT_MASK_DC_ODP_CAPS},
    {"hca_core_clock", MLX5DV_CONTEXT_MASK_HCA_CORE_CLOCK},
    {"num_lag_ports", MLX5DV_CONTEXT_MASK_NUM_LAG_PORTS},
    {"signature_offload", MLX5DV_CONTEXT_MASK_SIGNATURE_OFFLOAD},
    {"dci_streams", MLX5DV_CONTEXT_MASK_DCI_STREAMS},
    {"wr_memcpy_length", MLX5DV_CONTEXT_MASK_WR_MEMCPY_LENGTH},
    {"crypto_offload", MLX5DV_CONTEXT_MASK_CRYPTO_OFFLOAD},
#ifdef HAVE_MLX5DV_CONTEXT_MASK_OOO_RECV_WRS
    {"ooo_recv_wrs", MLX5DV_CONTEXT_MASK_OOO_RECV_WRS},
#endif
    {NULL, 0}
};

static const VerbsEnum cqeResFormat[] = {
    {"hash", MLX5DV_CQE_RES_FORMAT_HASH},
    {"csum", MLX5DV_CQE_RES_FORMAT_CSUM},
    {"csum_stridx", MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX},
    {NULL, 0}
};

static const VerbsEnum tunnelOffloads[] = {
    {"vxlan", MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_VXLAN},
    {"gre", MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_GRE},
    {"geneve", MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_GENEVE},
    {"cw_mpls_over_gre",
	    MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_CW_MPLS_OVER_GRE},
    {"cw_mpls_over_udp",
	    MLX5DV_RAW_PACKET_CAP_TUNNELED_OFFLOAD_CW_MPLS_OVER_UDP},
    {NULL, 0}
};

static const VerbsField cqeCompFields[] = {
    VERBS_FIELD(struct mlx5dv_cqe_comp_caps, max_num, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_cqe_comp_caps, supported_format, VF_FLAGS,
	    cqeResFormat, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct cqeCompStruct = {"cqe_comp_caps", cqeCompFields};

static const VerbsField swParsingFields[] = {
    VERBS_FIELD(struct mlx5dv_sw_parsing_caps, sw_parsing_offloads, VF_UINT,
	    NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_sw_parsing_caps, supported_qpts, VF_UINT,
	    NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct swParsingStruct = {"sw_parsing_caps",
    swParsingFields};

#define SR(f) VERBS_FIELD(struct mlx5dv_striding_rq_caps, f, VF_UINT, NULL, \
	0, 0)
static const VerbsField stridingFields[] = {
    SR(min_single_stride_log_num_of_bytes),
    SR(max_single_stride_log_num_of_bytes),
    SR(min_single_wqe_log_num_of_strides),
    SR(max_single_wqe_log_num_of_strides),
    SR(supported_qpts),
    VERBS_FIELD_END
};
static const VerbsStruct stridingStruct = {"striding_rq_caps",
    stridingFields};

static const VerbsField sigFields[] = {
    VERBS_FIELD(struct mlx5dv_sig_caps, block_size, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_sig_caps, block_prot, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_sig_caps, t10dif_bg, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_sig_caps, crc_type, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct sigStruct = {"sig_caps", sigFields};

static const VerbsField dciStreamsFields[] = {
    VERBS_FIELD(struct mlx5dv_dci_streams_caps, max_log_num_concurent,
	    VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_dci_streams_caps, max_log_num_errored,
	    VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct dciStreamsStruct = {"dci_streams_caps",
    dciStreamsFields};

static const VerbsField cryptoFields[] = {
    VERBS_FIELD(struct mlx5dv_crypto_caps, failed_selftests, VF_UINT, NULL,
	    0, 0),
    VERBS_FIELD(struct mlx5dv_crypto_caps, crypto_engines, VF_UINT, NULL,
	    0, 0),
    VERBS_FIELD(struct mlx5dv_crypto_caps, wrapped_import_method, VF_UINT,
	    NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_crypto_caps, log_max_num_deks, VF_UINT, NULL,
	    0, 0),
    VERBS_FIELD(struct mlx5dv_crypto_caps, flags, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct cryptoStruct = {"crypto_caps", cryptoFields};

#ifdef HAVE_MLX5DV_CONTEXT_MASK_OOO_RECV_WRS
/* rdma-core 50: how many receives an out-of-order QP may have. */
static const VerbsField oooFields[] = {
    VERBS_FIELD(struct mlx5dv_ooo_recv_wrs_caps, max_rc, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_ooo_recv_wrs_caps, max_xrc, VF_UINT, NULL, 0,
	    0),
    VERBS_FIELD(struct mlx5dv_ooo_recv_wrs_caps, max_dct, VF_UINT, NULL, 0,
	    0),
    VERBS_FIELD(struct mlx5dv_ooo_recv_wrs_caps, max_ud, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_ooo_recv_wrs_caps, max_uc, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct oooStruct = {"ooo_recv_wrs_caps", oooFields};
#endif

static const VerbsField mlx5ContextFields[] = {
    MC(version, VF_UINT, NULL),
    MC(flags, VF_FLAGS, contextFlags),
    MC(comp_mask, VF_FLAGS, contextMask),
    MC(cqe_comp_caps, VF_STRUCT, &cqeCompStruct),
    MC(sw_parsing_caps, VF_STRUCT, &swParsingStruct),
    MC(striding_rq_caps, VF_STRUCT, &stridingStruct),
    MC(tunnel_offloads_caps, VF_FLAGS, tunnelOffloads),
    MC(max_dynamic_bfregs, VF_UINT, NULL),
    MC(max_clock_info_update_nsec, VF_UINT, NULL),
    MC(flow_action_flags, VF_UINT, NULL),
    MC(dc_odp_caps, VF_UINT, NULL),
    MC(hca_core_clock, VF_UINT, NULL),
    MC(num_lag_ports, VF_UINT, NULL),
    MC(sig_caps, VF_STRUCT, &sigStruct),
    MC(dci_streams_caps, VF_STRUCT, &dciStreamsStruct),
    MC(max_wr_memcpy_length, VF_UINT, NULL),
    MC(crypto_caps, VF_STRUCT, &cryptoStruct),
#ifdef HAVE_MLX5DV_CONTEXT_MASK_OOO_RECV_WRS
    MC(ooo_recv_wrs_caps, VF_STRUCT, &oooStruct),
#endif
    VERBS_FIELD_END
};
static const VerbsStruct mlx5ContextStruct = {"mlx5 context",
    mlx5ContextFields};

/*
 *----------------------------------------------------------------------
 *
 * Mlx5NotSupported --
 *
 *	The error of an mlx5 command on a device that is not an mlx5 one
 *	(or, with c NULL, of mlx5::context open on the device named call's
 *	what).
 *
 * Results:
 *	TCL_ERROR; errorCode {VERBS SYS CALL EOPNOTSUPP MESSAGE}.
 *
 * Side effects:
 *	Sets the interp's result.
 *
 *----------------------------------------------------------------------
 */

static int
NotMlx5(
    Tcl_Interp *interp,
    const char *call,
    Tcl_Obj *where,		/* Object name or NULL. */
    const char *devName)
{
    Tcl_Obj *msg = Tcl_NewStringObj(call, -1);

    if (where) {
	Tcl_AppendPrintfToObj(msg, " on %s", Tcl_GetString(where));
    }
    Tcl_AppendPrintfToObj(msg, ": %s is not an mlx5 device", devName);
    Tcl_SetObjResult(interp, msg);
    Tcl_SetErrorCode(interp, "VERBS", "SYS", call, "EOPNOTSUPP",
	    "not an mlx5 device", NULL);
    return TCL_ERROR;
}

int
Mlx5NotSupported(
    Tcl_Interp *interp,
    const char *call,
    VerbsContext *c)
{
    Tcl_Obj *name = VerbsObjName(&c->obj);
    int result = NotMlx5(interp, call, name, c->devName);

    Tcl_DecrRefCount(name);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5GetContext, Mlx5ContextOf, Mlx5ContextState --
 *
 *	Mlx5GetContext: the context object named by nameObj, which DevX
 *	must reach (Mlx5DevxOn: an mlx5 device's or a VFIO one; call names
 *	the libmlx5 entry point about to be used, for the error).
 *	Mlx5ContextOf: the context an object belongs to (up its parents),
 *	or NULL.  Mlx5ContextState: a context's mlx5 state, made on first
 *	use.
 *
 * Results:
 *	See above.
 *
 * Side effects:
 *	Mlx5GetContext leaves an error in the interp when it fails;
 *	Mlx5ContextState allocates.
 *
 *----------------------------------------------------------------------
 */

VerbsContext *
Mlx5GetContext(
    Tcl_Interp *interp,
    Tcl_Obj *nameObj,
    const char *call)
{
    VerbsContext *c = (VerbsContext *) VerbsObjGet(interp, nameObj,
	    &verbsContextClass);

    if (c == NULL) {
	return NULL;
    }
    if (!Mlx5DevxOn(c)) {
	Mlx5NotSupported(interp, call, c);
	return NULL;
    }
    return c;
}

int
Mlx5IsVfio(
    VerbsContext *c)
{
    return c->provider == &verbsMlx5Provider
	    && ((Mlx5Context *) c->providerData)->vfio;
}

/*
 * Mlx5DevxOn: whether DevX (and mlx5dv_init_obj) reach the context: an
 * mlx5 device's, or one of mlx5::vfio open, which mlx5dv_is_supported
 * does not count but whose DevX entries libmlx5 serves through the
 * context's own ops, as it does every DevX call.
 */

int
Mlx5DevxOn(
    VerbsContext *c)
{
    return mlx5dv_is_supported(c->ctx->device) || Mlx5IsVfio(c);
}

VerbsContext *
Mlx5ContextOf(
    VerbsObj *objPtr)
{
    while (objPtr && objPtr->typePtr != &verbsContextClass) {
	objPtr = objPtr->parent;
    }
    return (VerbsContext *) objPtr;
}

Mlx5Context *
Mlx5ContextState(
    VerbsContext *c)
{
    int fresh = c->provider == NULL;
    Mlx5Context *m = (Mlx5Context *) VerbsProviderAttach(c,
	    &verbsMlx5Provider, sizeof(Mlx5Context));

    if (fresh) {
	Tcl_InitHashTable(&m->cqns, TCL_ONE_WORD_KEYS);
    }
    return m;
}

/*
 *----------------------------------------------------------------------
 *
 * ContextOpenCmd --
 *
 *	mlx5::context open NAME ?-devx? ?-fds CHANNELS? ?-as NAME?:
 *	mlx5dv_open_device (OpenMlx5, through VerbsOpenDevice), with
 *	MLX5DV_CONTEXT_FLAGS_DEVX for -devx and, for -fds, the fds of the
 *	open Tcl channels given (a privileged context: the
 *	/dev/infiniband/mlx5_perm_ctrl_* files, rdma-core 57).  The device
 *	must be an mlx5 one.
 *
 * Results:
 *	The context object command's name.
 *
 * Side effects:
 *	Opens the device.
 *
 *----------------------------------------------------------------------
 */

typedef struct OpenArgs {
    Tcl_Obj *command;
    int devx;
    Tcl_Obj *fds;		/* -fds: channel names, or NULL. */
    int *fdArr;			/* Their fds, */
    Tcl_Size nfds;		/* how many. */
} OpenArgs;

static int
OpenMlx5(
    Tcl_Interp *interp,
    struct ibv_device *dev,
    void *clientData,		/* The OpenArgs. */
    struct ibv_context **ctxPtr)
{
    OpenArgs *a = (OpenArgs *) clientData;
    struct mlx5dv_context_attr attr;
#ifdef HAVE_MLX5DV_CONTEXT_ATTR_MASK_FD_ARRAY
    struct ibv_fd_arr fds;
#endif

    if (!mlx5dv_is_supported(dev)) {
	return NotMlx5(interp, "mlx5dv_open_device", NULL,
		ibv_get_device_name(dev));
    }
    memset(&attr, 0, sizeof(attr));
    attr.flags = a->devx ? MLX5DV_CONTEXT_FLAGS_DEVX : 0;
    if (a->fds) {
#ifdef HAVE_MLX5DV_CONTEXT_ATTR_MASK_FD_ARRAY
	fds.arr = a->fdArr;
	fds.count = (uint32_t) a->nfds;
	attr.comp_mask = MLX5DV_CONTEXT_ATTR_MASK_FD_ARRAY;
	attr.fds = &fds;
#else
	return VerbsSysError(interp, "mlx5dv_open_device", NULL,
		"-fds needs rdma-core 57 or later", EOPNOTSUPP);
#endif
    }
    *ctxPtr = mlx5dv_open_device(dev, &attr);
    if (*ctxPtr == NULL) {
	return VerbsSysError(interp, "mlx5dv_open_device", NULL,
		ibv_get_device_name(dev), errno);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * ChannelFds --
 *
 *	The fds of the Tcl channels named by -fds, for a privileged
 *	context: upstream opens /dev/infiniband/mlx5_perm_ctrl_local and
 *	_other_vhca; a script opens them with [open] and closes them once
 *	the context is open, as libmlx5 keeps what it needs.
 *
 * Results:
 *	A standard Tcl result; a->fdArr ckalloc'ed.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
ChannelFds(
    Tcl_Interp *interp,
    OpenArgs *a)
{
    Tcl_Obj **names;
    Tcl_Size i;

    if (Tcl_ListObjGetElements(NULL, a->fds, &a->nfds, &names) != TCL_OK
	    || a->nfds == 0) {
	return VerbsArgError(interp, "-fds", a->fds, "bad -fds \"%s\": must "
		"be a list of open channels", Tcl_GetString(a->fds));
    }
    a->fdArr = (int *) ckalloc(a->nfds * sizeof(int));
    for (i = 0; i < a->nfds; i++) {
	int mode;
	ClientData handle;
	/* The interp's own channels: Tcl_GetChannel needs the interp. */
	Tcl_Channel chan = Tcl_GetChannel(interp, Tcl_GetString(names[i]),
		&mode);

	if (chan == NULL || Tcl_GetChannelHandle(chan,
		(mode & TCL_READABLE) ? TCL_READABLE : TCL_WRITABLE, &handle)
		!= TCL_OK) {
	    ckfree(a->fdArr);
	    a->fdArr = NULL;
	    return VerbsArgError(interp, "-fds", names[i], "bad -fds: \"%s\" "
		    "is not an open channel with an fd",
		    Tcl_GetString(names[i]));
	}
	a->fdArr[i] = (int) (intptr_t) handle;
    }
    return TCL_OK;
}

static int
ContextOpenCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_NAMED("-as", OpenArgs, command, VF_TCLOBJ, NULL, "name"),
	VERBS_OPTION_SWITCH("-devx", OpenArgs, devx),
	VERBS_OPTION(OpenArgs, fds, VF_TCLOBJ, NULL, "channels"),
	VERBS_FIELD_END
    };
    OpenArgs args = {NULL, 0, NULL, NULL, 0};
    struct ibv_context *ctx;
    VerbsContext *c;
    int result;

    if (objc < 2) {
	return VerbsUsageError(interp, 1, objv, "device", options);
    }
    if (VerbsParseOptions(interp, objc, objv, 2, options, &args) != TCL_OK
	    || (args.fds && ChannelFds(interp, &args) != TCL_OK)) {
	return TCL_ERROR;
    }
    result = VerbsOpenDevice(interp, Tcl_GetString(objv[1]), OpenMlx5,
	    &args, &ctx);
    if (args.fdArr) {
	ckfree(args.fdArr);
    }
    if (result != TCL_OK) {
	return TCL_ERROR;
    }
    c = VerbsContextNew(ctx, 0);
    Mlx5ContextState(c)->devx = args.devx;
    if (VerbsSetNonBlocking(interp, ctx->async_fd) != TCL_OK
	    || VerbsObjRegister(interp, &c->obj, NULL, args.command)
	    != TCL_OK) {
	Mlx5ContextFree(c);
	ibv_close_device(ctx);
	ckfree(c->devName);
	ckfree(c);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VfioOpenCmd --
 *
 *	mlx5::vfio open PCI_NAME ?-init_link_down? ?-as NAME?: a context of
 *	a ConnectX bound to vfio-pci, which libmlx5 drives itself, without
 *	the kernel's RDMA stack (mlx5dv_get_vfio_device_list, then
 *	ibv_open_device).  Its events are processed by [$ctx mlx5
 *	vfio_process_events] when [$ctx mlx5 vfio_events_fd] is readable.
 *
 * Results:
 *	The context object's name.
 *
 * Side effects:
 *	Opens the device.
 *
 *----------------------------------------------------------------------
 */

static int
VfioOpenCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	Tcl_Obj *command;
	int init_link_down;
    } VfioArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_NAMED("-as", VfioArgs, command, VF_TCLOBJ, NULL, "name"),
	VERBS_OPTION_SWITCH("-init_link_down", VfioArgs, init_link_down),
	VERBS_FIELD_END
    };
    VfioArgs args = {NULL, 0};
    struct mlx5dv_vfio_context_attr attr;
    struct ibv_device **list;
    struct ibv_context *ctx;
    VerbsContext *c;
    int err;

    if (objc < 2) {
	return VerbsUsageError(interp, 1, objv, "pci_name", options);
    }
    if (VerbsParseOptions(interp, objc, objv, 2, options, &args) != TCL_OK) {
	return TCL_ERROR;
    }
    memset(&attr, 0, sizeof(attr));
    attr.pci_name = Tcl_GetString(objv[1]);
    attr.flags = args.init_link_down ? MLX5DV_VFIO_CTX_FLAGS_INIT_LINK_DOWN
	    : 0;
    list = mlx5dv_get_vfio_device_list(&attr);
    if (list == NULL || list[0] == NULL) {
	err = list ? ENODEV : errno ? errno : ENODEV;
	if (list) {
	    ibv_free_device_list(list);
	}
	return VerbsSysError(interp, "mlx5dv_get_vfio_device_list", NULL,
		attr.pci_name, err);
    }
    ctx = ibv_open_device(list[0]);
    err = errno;
    ibv_free_device_list(list);
    if (ctx == NULL) {
	return VerbsSysError(interp, "ibv_open_device", NULL, attr.pci_name,
		err ? err : ENODEV);
    }
    c = VerbsContextNew(ctx, 0);
    Mlx5ContextState(c)->vfio = 1;
    if (VerbsObjRegister(interp, &c->obj, NULL, args.command) != TCL_OK) {
	Mlx5ContextFree(c);
	ibv_close_device(ctx);
	ckfree(c->devName);
	ckfree(c);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5ContextFree --
 *
 *	Called by the context's free proc before the device closes, once
 *	every object under it is gone: destructions the firmware refused
 *	are tried once more; what it still refuses is left to the kernel,
 *	which destroys every object of the device file when it closes
 *	(libmlx5's handles of them are never touched again).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Frees the context's mlx5 state.
 *
 *----------------------------------------------------------------------
 */

static void
Mlx5ContextFree(
    VerbsContext *c)
{
    Mlx5PendingRetry(c);
    Mlx5PendingForget(c);
    Tcl_DeleteHashTable(&((Mlx5Context *) c->providerData)->cqns);
    ckfree(c->providerData);
    c->providerData = NULL;
    c->provider = NULL;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5ContextMethod --
 *
 *	$ctx mlx5 query: mlx5dv_query_device, every field, as a dict.
 *	$ctx mlx5 pending: the DevX objects whose destruction the firmware
 *	refused after their commands were gone, as {kind id} pairs.
 *	$ctx mlx5 query_port PORT: mlx5dv_query_port as a dict.
 *	$ctx mlx5 clock_info: mlx5dv_get_clock_info as a dict.
 *	$ctx mlx5 data_direct_sysfs_path ?LENGTH?: see Mlx5DataDirectPath.
 *	$ctx mlx5 crypto_login DICT, crypto_login_state, crypto_logout:
 *	see Mlx5CryptoLoginMethod.
 *	$ctx mlx5 vfio_events_fd, vfio_process_events: a VFIO context's
 *	events (mlx5dv_vfio_get_events_fd, mlx5dv_vfio_process_events).
 *	$ctx mlx5 ts_to_ns TIMESTAMP: a completion's device timestamp in
 *	nanoseconds of the device's clock (mlx5dv_ts_to_ns, with the clock
 *	information of now).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static const VerbsEnum queryPortFlags[] = {
    {"vport", MLX5DV_QUERY_PORT_VPORT},
    {"vport_vhca_id", MLX5DV_QUERY_PORT_VPORT_VHCA_ID},
    {"vport_steering_icm_rx", MLX5DV_QUERY_PORT_VPORT_STEERING_ICM_RX},
    {"vport_steering_icm_tx", MLX5DV_QUERY_PORT_VPORT_STEERING_ICM_TX},
    {"vport_reg_c0", MLX5DV_QUERY_PORT_VPORT_REG_C0},
    {"esw_owner_vhca_id", MLX5DV_QUERY_PORT_ESW_OWNER_VHCA_ID},
    {NULL, 0}
};
static const VerbsField regFields[] = {
    VERBS_FIELD(struct mlx5dv_reg, value, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_reg, mask, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct regStruct = {"reg_c0", regFields};
static const VerbsField portFields[] = {
    VERBS_FIELD(struct mlx5dv_port, flags, VF_FLAGS, queryPortFlags, 0, 0),
    VERBS_FIELD(struct mlx5dv_port, vport, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_port, vport_vhca_id, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_port, esw_owner_vhca_id, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_port, vport_steering_icm_rx, VF_UINT, NULL, 0,
	    0),
    VERBS_FIELD(struct mlx5dv_port, vport_steering_icm_tx, VF_UINT, NULL, 0,
	    0),
    VERBS_FIELD(struct mlx5dv_port, reg_c0, VF_STRUCT, &regStruct, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct portStruct = {"mlx5 port", portFields};

static int
QueryDevice(
    Tcl_Interp *interp,
    VerbsContext *c)
{
    struct mlx5dv_context attr;
    int err;

    memset(&attr, 0, sizeof(attr));
    attr.comp_mask = MLX5DV_CONTEXT_MASK_CQE_COMPRESION
	    | MLX5DV_CONTEXT_MASK_SWP | MLX5DV_CONTEXT_MASK_STRIDING_RQ
	    | MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS
	    | MLX5DV_CONTEXT_MASK_DYN_BFREGS
	    | MLX5DV_CONTEXT_MASK_CLOCK_INFO_UPDATE
	    | MLX5DV_CONTEXT_MASK_FLOW_ACTION_FLAGS
	    | MLX5DV_CONTEXT_MASK_DC_ODP_CAPS
	    | MLX5DV_CONTEXT_MASK_HCA_CORE_CLOCK
	    | MLX5DV_CONTEXT_MASK_NUM_LAG_PORTS
	    | MLX5DV_CONTEXT_MASK_SIGNATURE_OFFLOAD
	    | MLX5DV_CONTEXT_MASK_DCI_STREAMS
	    | MLX5DV_CONTEXT_MASK_WR_MEMCPY_LENGTH
	    | MLX5DV_CONTEXT_MASK_CRYPTO_OFFLOAD;
#ifdef HAVE_MLX5DV_CONTEXT_MASK_OOO_RECV_WRS
    attr.comp_mask |= MLX5DV_CONTEXT_MASK_OOO_RECV_WRS;
#endif
    err = mlx5dv_query_device(c->ctx, &attr);
    if (err != 0) {
	return VerbsSysError(interp, "mlx5dv_query_device", &c->obj, NULL,
		err);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&mlx5ContextStruct, &attr));
    return TCL_OK;
}

static int
Mlx5ContextMethod(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const struct {
	const char *name;
	int args;
	const char *usage;
	const char *call;
    } subs[] = {
	{"clock_info", 0, NULL, "mlx5dv_get_clock_info"},
	{"crypto_login", 1, "attributes", "mlx5dv_crypto_login"},
	{"crypto_login_state", 0, NULL, "mlx5dv_crypto_login_query_state"},
	{"crypto_logout", 0, NULL, "mlx5dv_crypto_logout"},
	{"data_direct_sysfs_path", 0, "?length?",
	    "mlx5dv_get_data_direct_sysfs_path"},
	{"pending", 0, NULL, NULL},
	{"query", 0, NULL, "mlx5dv_query_device"},
	{"query_port", 1, "port", "mlx5dv_query_port"},
	{"ts_to_ns", 1, "timestamp", "mlx5dv_get_clock_info"},
	{"vfio_events_fd", 0, NULL, "mlx5dv_vfio_get_events_fd"},
	{"vfio_process_events", 0, NULL, "mlx5dv_vfio_process_events"},
	{NULL, 0, NULL, NULL}
    };
    enum { CLOCK_INFO, CRYPTO_LOGIN, CRYPTO_STATE, CRYPTO_LOGOUT, DATA_DIRECT,
	PENDING, QUERY, QUERY_PORT, TS_TO_NS, VFIO_FD, VFIO_PROCESS };
    VerbsContext *c = (VerbsContext *) objPtr;
    struct mlx5dv_clock_info clock;
    struct mlx5dv_port port;
    uint64_t v;
    int index, err;

    if (Tcl_GetIndexFromObjStruct(interp, objv[2], subs, sizeof(subs[0]),
	    "subcommand", 0, &index) != TCL_OK) {
	return TCL_ERROR;
    }
    if (objc != 3 + subs[index].args
	    && !(index == DATA_DIRECT && objc == 4)) {
	Tcl_WrongNumArgs(interp, 3, objv, subs[index].usage);
	return TCL_ERROR;
    }
    if (index == PENDING) {
	Tcl_SetObjResult(interp, Mlx5PendingList(c));
	return TCL_OK;
    }
    if (objc == 4 && index == DATA_DIRECT) {
	/* The size of the buffer libmlx5 fills, 1 to 4096 bytes. */
	if (VerbsGetUInt(NULL, "length", objv[3], 4096, &v) != TCL_OK
		|| v == 0) {
	    return VerbsArgError(interp, "length", objv[3], "bad length "
		    "\"%s\": must be an integer from 1 to 4096",
		    Tcl_GetString(objv[3]));
	}
    } else if (objc == 4 && index != CRYPTO_LOGIN
	    && VerbsGetUInt(interp, subs[index].usage, objv[3],
	    index == QUERY_PORT ? UINT32_MAX : UINT64_MAX, &v) != TCL_OK) {
	return TCL_ERROR;
    }
    if (index == VFIO_FD || index == VFIO_PROCESS) {
	/* libmlx5 takes the context for a VFIO one without looking. */
	if (!Mlx5IsVfio(c)) {
	    return VerbsSysError(interp, subs[index].call, objPtr,
		    "not a context of mlx5::vfio open", EOPNOTSUPP);
	}
    } else if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, subs[index].call, c);
    }
    switch (index) {
    case QUERY:
	return QueryDevice(interp, c);
    case DATA_DIRECT:
	return Mlx5DataDirectPath(interp, c, objc == 4 ? (size_t) v : 4096);
    case VFIO_FD:
	err = mlx5dv_vfio_get_events_fd(c->ctx);
	if (err < 0) {
	    return VerbsSysError(interp, subs[index].call, objPtr, NULL,
		    errno ? errno : -err);
	}
	Tcl_SetObjResult(interp, Tcl_NewIntObj(err));
	return TCL_OK;
    case VFIO_PROCESS:
	err = mlx5dv_vfio_process_events(c->ctx);
	return err ? VerbsSysError(interp, subs[index].call, objPtr, NULL,
		err < 0 ? -err : err) : TCL_OK;
    case CRYPTO_LOGIN:
    case CRYPTO_STATE:
    case CRYPTO_LOGOUT:
	return Mlx5CryptoLoginMethod(interp, c, index - CRYPTO_LOGIN,
		objc == 4 ? objv[3] : NULL);
    case QUERY_PORT:
	memset(&port, 0, sizeof(port));
	err = mlx5dv_query_port(c->ctx, (uint32_t) v, &port);
	if (err) {
	    return VerbsSysError(interp, subs[index].call, objPtr, NULL, err);
	}
	Tcl_SetObjResult(interp, VerbsStructToDict(&portStruct, &port));
	return TCL_OK;
    default:
	memset(&clock, 0, sizeof(clock));
	err = mlx5dv_get_clock_info(c->ctx, &clock);
	if (err) {
	    return VerbsSysError(interp, subs[index].call, objPtr, NULL, err);
	}
	Tcl_SetObjResult(interp, index == CLOCK_INFO
		? VerbsStructToDict(&mlx5ClockStruct, &clock)
		: VerbsU64Obj(mlx5dv_ts_to_ns(&clock, v)));
	return TCL_OK;
    }
}

/*
 *----------------------------------------------------------------------
 *
 * DvObjCmd --
 *
 *	mlx5::dv obj OBJ: mlx5dv_init_obj of a verbs PD, CQ, QP or SRQ, as
 *	a dict: pdn; cqn, buf, dbrec, cqe_cnt, cqe_size, cq_uar; qpn,
 *	dbrec, sq and rq {buf wqe_cnt stride}, bf {reg size},
 *	uar_mmap_offset (and tirn tisn rqn sqn tir_icm_addr where the
 *	library gives them); srqn, buf, dbrec, stride, head, tail.
 *	Addresses are integers.  (For a CQ libmlx5 then leaves the
 *	cleaning of its entries on QP destruction to the caller.)  A CQ's
 *	cqn is kept, so that DevX inputs naming it resolve to it.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	None beyond the library's.
 *
 *----------------------------------------------------------------------
 */

#define PUT(d, k, v) \
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj(k, -1), v)
#define U64(v) VerbsU64Obj((uint64_t) (v))
#define ADDR(p) VerbsU64Obj((uint64_t) (uintptr_t) (p))

static Tcl_Obj *
QueueDict(
    void *buf,
    uint32_t wqeCnt,
    uint32_t stride)
{
    Tcl_Obj *d = Tcl_NewDictObj();

    PUT(d, "buf", ADDR(buf));
    PUT(d, "wqe_cnt", U64(wqeCnt));
    PUT(d, "stride", U64(stride));
    return d;
}

int
Mlx5DvObjInfo(
    Tcl_Interp *interp,
    VerbsObj *o,
    Tcl_Obj **dictPtr)
{
    struct mlx5dv_obj dv;
    uint64_t type;
    struct mlx5dv_pd pd;
    struct mlx5dv_cq cq;
    struct mlx5dv_qp qp;
    struct mlx5dv_srq srq;
    Tcl_Obj *d;
    int err;

    memset(&dv, 0, sizeof(dv));
    memset(&qp, 0, sizeof(qp));
    memset(&srq, 0, sizeof(srq));
    if (o->typePtr == &verbsPdClass) {
	dv.pd.in = ((VerbsPd *) o)->pd;
	dv.pd.out = &pd;
	type = MLX5DV_OBJ_PD;
    } else if (o->typePtr == &verbsCqClass) {
	dv.cq.in = ((VerbsCq *) o)->cq;
	dv.cq.out = &cq;
	type = MLX5DV_OBJ_CQ;
    } else if (o->typePtr == &verbsQpClass) {
	dv.qp.in = ((VerbsQp *) o)->qp;
	dv.qp.out = &qp;
	qp.comp_mask = MLX5DV_QP_MASK_UAR_MMAP_OFFSET
		| MLX5DV_QP_MASK_RAW_QP_HANDLES;
	type = MLX5DV_OBJ_QP;
    } else if (o->typePtr == &verbsSrqClass) {
	dv.srq.in = ((VerbsSrq *) o)->srq;
	dv.srq.out = &srq;
	srq.comp_mask = MLX5DV_SRQ_MASK_SRQN;
	type = MLX5DV_OBJ_SRQ;
    } else {
	Tcl_Obj *name = VerbsObjName(o);

	VerbsArgError(interp, "obj", name, "bad object \"%s\": must be a "
		"pd, cq, qp or srq, not a %s", Tcl_GetString(name),
		o->typePtr->name);
	Tcl_DecrRefCount(name);
	return TCL_ERROR;
    }
    err = mlx5dv_init_obj(&dv, type);
    if (err != 0) {
	return VerbsSysError(interp, "mlx5dv_init_obj", o, NULL,
		err < 0 ? -err : err);
    }
    d = Tcl_NewDictObj();
    switch (type) {
    case MLX5DV_OBJ_PD:
	PUT(d, "pdn", U64(pd.pdn));
	break;
    case MLX5DV_OBJ_CQ: {
	/*
	 * Kept for the reference resolution, which does not call
	 * mlx5dv_init_obj on CQs itself: libmlx5 marks a CQ it was called
	 * on as the caller's to clean (of the entries of destroyed QPs).
	 */

	VerbsContext *c = Mlx5ContextOf(o);
	int isNew;
	Tcl_HashEntry *h = Tcl_CreateHashEntry(&Mlx5ContextState(c)->cqns,
		(char *) ((VerbsCq *) o)->cq, &isNew);

	Tcl_SetHashValue(h, (ClientData) (uintptr_t) cq.cqn);
	PUT(d, "cqn", U64(cq.cqn));
	PUT(d, "buf", ADDR(cq.buf));
	PUT(d, "dbrec", ADDR(cq.dbrec));
	PUT(d, "cqe_cnt", U64(cq.cqe_cnt));
	PUT(d, "cqe_size", U64(cq.cqe_size));
	PUT(d, "cq_uar", ADDR(cq.cq_uar));
	break;
    }
    case MLX5DV_OBJ_QP:
	PUT(d, "qpn", U64(((VerbsQp *) o)->qp->qp_num));
	PUT(d, "dbrec", ADDR(qp.dbrec));
	PUT(d, "sq", QueueDict(qp.sq.buf, qp.sq.wqe_cnt, qp.sq.stride));
	PUT(d, "rq", QueueDict(qp.rq.buf, qp.rq.wqe_cnt, qp.rq.stride));
	{
	    Tcl_Obj *bf = Tcl_NewDictObj();

	    PUT(bf, "reg", ADDR(qp.bf.reg));
	    PUT(bf, "size", U64(qp.bf.size));
	    PUT(d, "bf", bf);
	}
	if (qp.comp_mask & MLX5DV_QP_MASK_UAR_MMAP_OFFSET) {
	    PUT(d, "uar_mmap_offset", U64(qp.uar_mmap_offset));
	}
	if (qp.comp_mask & MLX5DV_QP_MASK_RAW_QP_HANDLES) {
	    PUT(d, "tirn", U64(qp.tirn));
	    PUT(d, "tisn", U64(qp.tisn));
	    PUT(d, "rqn", U64(qp.rqn));
	    PUT(d, "sqn", U64(qp.sqn));
	}
	break;
    default:
	PUT(d, "srqn", U64(srq.srqn));
	PUT(d, "buf", ADDR(srq.buf));
	PUT(d, "dbrec", ADDR(srq.dbrec));
	PUT(d, "stride", U64(srq.stride));
	PUT(d, "head", U64(srq.head));
	PUT(d, "tail", U64(srq.tail));
	break;
    }
    *dictPtr = d;
    return TCL_OK;
}

static int
DvObjCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    VerbsObj *o;
    VerbsContext *c;
    Tcl_Obj *d;

    if (objc != 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "obj");
	return TCL_ERROR;
    }
    o = VerbsObjFind(interp, objv[1]);
    if (o == NULL) {
	Tcl_SetObjResult(interp, Tcl_ObjPrintf("\"%s\" is not a verbs object",
		Tcl_GetString(objv[1])));
	Tcl_SetErrorCode(interp, "VERBS", "LOOKUP", "object",
		Tcl_GetString(objv[1]), NULL);
	return TCL_ERROR;
    }
    c = Mlx5ContextOf(o);
    if (c == NULL || !Mlx5DevxOn(c)) {
	Tcl_Obj *name = VerbsObjName(o);
	int result = NotMlx5(interp, "mlx5dv_init_obj", name,
		c ? c->devName : "its device");

	Tcl_DecrRefCount(name);
	return result;
    }
    if (Mlx5DvObjInfo(interp, o, &d) != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, d);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5AddCommand, MakeEnsembles --
 *
 *	Mlx5AddCommand: a command ::mlx5::A::B (name "A::B"), its namespaces
 *	made as needed.  MakeEnsembles: every namespace under ::mlx5, then
 *	::mlx5 itself, becomes an ensemble of its exported commands (deepest
 *	first, so each is a command of the one above).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Creates namespaces and commands.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5AddCommand(
    Tcl_Interp *interp,
    const char *name,
    Tcl_ObjCmdProc *proc)
{
    return Mlx5AddCommandData(interp, name, proc, NULL);
}

int
Mlx5AddCommandData(
    Tcl_Interp *interp,
    const char *name,
    Tcl_ObjCmdProc *proc,
    ClientData clientData)
{
    Tcl_Obj *full = Tcl_ObjPrintf("%s::%s", MLX5_NS, name);
    const char *s = Tcl_GetString(full), *p;

    Tcl_IncrRefCount(full);
    for (p = strstr(s + 2, "::"); p; p = strstr(p + 2, "::")) {
	Tcl_Obj *ns = Tcl_NewStringObj(s, p - s);

	Tcl_IncrRefCount(ns);
	if (Tcl_FindNamespace(interp, Tcl_GetString(ns), NULL, 0) == NULL) {
	    Tcl_CreateNamespace(interp, Tcl_GetString(ns), NULL, NULL);
	}
	Tcl_DecrRefCount(ns);
    }
    Tcl_CreateObjCommand(interp, s, proc, clientData, NULL);
    Tcl_DecrRefCount(full);
    return TCL_OK;
}

static int
MakeEnsembles(
    Tcl_Interp *interp,
    const char *const namespaces[])
{
    const char *const *n;

    for (n = namespaces; *n; n++) {
	Tcl_Obj *name = Tcl_ObjPrintf("%s%s%s", MLX5_NS, **n ? "::" : "",
		*n);
	Tcl_Namespace *nsPtr;
	int ok;

	Tcl_IncrRefCount(name);
	nsPtr = Tcl_FindNamespace(interp, Tcl_GetString(name), NULL, 0);
	ok = nsPtr != NULL && Tcl_Export(interp, nsPtr, "*", 0) == TCL_OK
		&& (Tcl_FindEnsemble(interp, name, 0) != NULL
		|| Tcl_CreateEnsemble(interp, Tcl_GetString(name), nsPtr,
		TCL_ENSEMBLE_PREFIX) != NULL);
	Tcl_DecrRefCount(name);
	if (!ok) {
	    return TCL_ERROR;
	}
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5Init --
 *
 *	The provider's init proc: the mlx5 commands, ::mlx5::prm
 *	(mlx5Prm.c), ::mlx5::context open, ::mlx5::dv obj, DevX
 *	(mlx5Devx.c), the DV queues and flows (mlx5Queue.c), and their
 *	ensembles.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Creates commands.
 *
 *----------------------------------------------------------------------
 */

static int
Mlx5Init(
    Tcl_Interp *interp)
{
    static const char *const namespaces[] = {
	"devx::obj", "devx::uar", "devx::umem", "devx::msi", "devx::eq",
	"devx::cmd_comp", "devx::event_channel", "devx::eventfd", "devx",
	"context", "dv", "sched::node", "sched::leaf", "sched", "vfio",
	"var", "pp", "qp", "cq", "flow", "wqe", "cqe", "dr::domain",
	"dr::table", "dr::matcher", "dr::rule", "dr::action", "dr", "qpn",
	"dm", "mr", "flowaction", "mkey", "dek", "cryptologin", "", NULL
    };

    if (Mlx5PrmInit(interp) != TCL_OK) {
	return TCL_ERROR;
    }
    Mlx5AddCommand(interp, "context::open", ContextOpenCmd);
    Mlx5AddCommand(interp, "vfio::open", VfioOpenCmd);
    Mlx5AddCommand(interp, "dv::obj", DvObjCmd);
    if (Mlx5DevxInit(interp) != TCL_OK || Mlx5QueueInit(interp) != TCL_OK
	    || Mlx5SendInit(interp) != TCL_OK || Mlx5WqeInit(interp) != TCL_OK
	    || Mlx5DrInit(interp) != TCL_OK || Mlx5ResInit(interp) != TCL_OK
	    || Mlx5MkeyInit(interp) != TCL_OK || Mlx5SchedInit(interp) != TCL_OK
	    || Mlx5EventInit(interp) != TCL_OK
	    || Mlx5ExportInit(interp) != TCL_OK) {
	return TCL_ERROR;
    }
    return MakeEnsembles(interp, namespaces);
}
