/*
 * mlx5Res.c --
 *
 *	The smaller resources of libmlx5: reserved QP numbers ([mlx5::qpn
 *	create], an rqpn object of its context), a device memory's
 *	operation addresses ([mlx5::dm op_addr], a dmop object of its dm),
 *	dma-buf MRs with mlx5 access flags ([mlx5::mr dmabuf], an ordinary
 *	mr), flow actions made by libmlx5 ([mlx5::flowaction modify_header
 *	and packet_reformat], ordinary flowactions) and the data direct
 *	device's sysfs path.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5.h"
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct Mlx5Rqpn {
    VerbsObj obj;
    struct ibv_context *ctx;
    uint32_t qpn;
} Mlx5Rqpn;

typedef struct Mlx5DmOp {
    VerbsObj obj;
    unsigned char *addr;	/* The operation's address, inside */
    void *map;			/* the pages libmlx5 mapped (ours to */
    size_t mapLength;		/* unmap: page aligned). */
    size_t length;		/* What may be read or written from addr:
				 * the DM's length, within the mapping. */
    uint64_t op;
} Mlx5DmOp;

static VerbsMethodProc DmOpRead, DmOpWrite;

static const VerbsMethod rqpnMethods[] = {
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};
static const VerbsMethod dmOpMethods[] = {
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE,
    {"read", DmOpRead, 1, 2, "length ?offset?"},
    {"write", DmOpWrite, 1, 2, "bytes ?offset?"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField rqpnCget[] = {
    VERBS_CGET("-qpn", Mlx5Rqpn, qpn, VF_UINT, NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};
static const VerbsField dmOpCget[] = {
    VERBS_CGET("-op", Mlx5DmOp, op, VF_UINT, NULL),
    VERBS_CGET("-length", Mlx5DmOp, length, VF_UINT, NULL),
    VERBS_CGET_PARENT("-dm"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static void
RqpnFree(
    VerbsObj *objPtr)
{
    Mlx5Rqpn *r = (Mlx5Rqpn *) objPtr;

    mlx5dv_reserved_qpn_dealloc(r->ctx, r->qpn);
}

static void
DmOpFree(
    VerbsObj *objPtr)
{
    Mlx5DmOp *d = (Mlx5DmOp *) objPtr;

    munmap(d->map, d->mapLength);
}

const VerbsType verbsRqpnClass = {
    .name = "rqpn",
    .size = sizeof(Mlx5Rqpn),
    .methods = rqpnMethods,
    .cget = rqpnCget,
    .freeProc = RqpnFree,
};
const VerbsType verbsDmOpClass = {
    .name = "dmop",
    .size = sizeof(Mlx5DmOp),
    .methods = dmOpMethods,
    .cget = dmOpCget,
    .freeProc = DmOpFree,
};

/*
 *----------------------------------------------------------------------
 *
 * QpnCreateCmd --
 *
 *	mlx5::qpn create CONTEXT ?-as NAME?: a QP number reserved on the
 *	device (mlx5dv_reserved_qpn_alloc), for a DCI's rdma_cm
 *	connections; closing it gives it back.
 *
 * Results:
 *	The rqpn object command's name.
 *
 * Side effects:
 *	mlx5dv_reserved_qpn_alloc.
 *
 *----------------------------------------------------------------------
 */

static int
QpnCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND, VERBS_FIELD_END
    };
    VerbsCreateHead head = {NULL, NULL};
    VerbsContext *c;
    Mlx5Rqpn *r;
    uint32_t qpn = 0;
    int err;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &head,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) head.parent;
    if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_reserved_qpn_alloc", c);
    }
    err = mlx5dv_reserved_qpn_alloc(c->ctx, &qpn);
    if (err) {
	return VerbsSysError(interp, "mlx5dv_reserved_qpn_alloc", &c->obj,
		NULL, err);
    }
    r = (Mlx5Rqpn *) VerbsObjNew(&verbsRqpnClass);
    r->ctx = c->ctx;
    r->qpn = qpn;
    return VerbsObjAdopt(interp, &r->obj, &c->obj, head.command);
}

/*
 *----------------------------------------------------------------------
 *
 * DmOpAddrCmd, DmOpRead, DmOpWrite --
 *
 *	mlx5::dm op_addr DM OP ?-as NAME?: the address at which the
 *	device applies operation OP (MEMIC atomics: 0 increment, 1 test
 *	and set, as the device's capabilities name them) to the device
 *	memory (mlx5dv_dm_map_op_addr), a dmop object of the dm.
 *	$dmop read LENGTH ?OFFSET?: load LENGTH bytes there (a test and
 *	set reads the old value); $dmop write BYTES ?OFFSET?: store them
 *	(an increment adds them).  Each byte is one access, in order.
 *
 * Results:
 *	The dmop object command's name; the bytes read; empty.
 *
 * Side effects:
 *	mlx5dv_dm_map_op_addr; the device's operation on its memory.
 *
 *----------------------------------------------------------------------
 */

static int
DmOpAddrCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND, VERBS_FIELD_END
    };
    VerbsCreateHead head = {NULL, NULL};
    VerbsDm *dm;
    VerbsContext *c;
    Mlx5DmOp *d;
    uint64_t op;
    void *addr;
    long page = sysconf(_SC_PAGESIZE);

    if (VerbsCreateArgs(interp, objc, objv, "dm op", options, &head,
	    &verbsDmClass) != TCL_OK
	    || VerbsGetUInt(interp, "op", objv[2], UINT8_MAX, &op) != TCL_OK) {
	return TCL_ERROR;
    }
    dm = (VerbsDm *) head.parent;
    c = Mlx5ContextOf(&dm->obj);
    if (c && !mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_dm_map_op_addr", c);
    }
    if (dm->length == 0) {
	return VerbsArgError(interp, "dm", objv[1], "%s is imported: its "
		"length, which the mapping has, is not known",
		Tcl_GetString(objv[1]));
    }
    addr = mlx5dv_dm_map_op_addr(dm->dm, (uint8_t) op);
    if (addr == NULL) {
	return VerbsSysError(interp, "mlx5dv_dm_map_op_addr", &dm->obj, NULL,
		errno ? errno : EINVAL);
    }
    /*
     * libmlx5 maps the DM's length, page aligned, and returns the address
     * of the DM's start within the first page.
     */

    d = (Mlx5DmOp *) VerbsObjNew(&verbsDmOpClass);
    d->addr = (unsigned char *) addr;
    d->map = (void *) ((uintptr_t) addr & ~((uintptr_t) page - 1));
    d->mapLength = (dm->length + (size_t) page - 1) & ~((size_t) page - 1);
    d->length = d->mapLength - (size_t) (d->addr - (unsigned char *) d->map);
    if (d->length > dm->length) {
	d->length = dm->length;
    }
    d->op = op;
    return VerbsObjAdopt(interp, &d->obj, &dm->obj, head.command);
}

static int
DmOpRead(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    Mlx5DmOp *d = (Mlx5DmOp *) objPtr;
    uint64_t len, off = 0, i;
    Tcl_Obj *result;
    unsigned char *out;

    if (VerbsGetUInt(interp, "length", objv[2], d->length, &len) != TCL_OK
	    || (objc == 4 && VerbsGetUInt(interp, "offset", objv[3],
	    INT64_MAX, &off) != TCL_OK)
	    || VerbsCheckRange(interp, objPtr, d->length, off, len,
	    off <= d->length) != TCL_OK) {
	return TCL_ERROR;
    }
    result = Tcl_NewByteArrayObj(NULL, 0);
    out = Tcl_SetByteArrayLength(result, (Tcl_Size) len);
    for (i = 0; i < len; i++) {
	out[i] = ((volatile unsigned char *) d->addr)[off + i];
    }
    Tcl_SetObjResult(interp, result);
    return TCL_OK;
}

static int
DmOpWrite(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    Mlx5DmOp *d = (Mlx5DmOp *) objPtr;
    uint64_t off = 0, i;
    Tcl_Size len;
    const unsigned char *b;

    /*
     * The offset first: its integer parse would free the bytes' array if
     * both words are one object.
     */

    if (objc == 4 && VerbsGetUInt(interp, "offset", objv[3], INT64_MAX,
	    &off) != TCL_OK) {
	return TCL_ERROR;
    }
    b = VerbsGetBytes(interp, "bytes", objv[2], &len);
    if (b == NULL || VerbsCheckRange(interp, objPtr, d->length, off,
	    (uint64_t) len, 1) != TCL_OK) {
	return TCL_ERROR;
    }
    for (i = 0; i < (uint64_t) len; i++) {
	((volatile unsigned char *) d->addr)[off + i] = b[i];
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * MrDmabufCmd --
 *
 *	mlx5::mr dmabuf PD -fd FD -length N ?-offset OFF? ?-iova ADDR?
 *		?-access FLAGS? ?-mlx5_access data_direct? ?-as NAME?
 *	verbs::mr dmabuf through libmlx5 (mlx5dv_reg_dmabuf_mr, rdma-core
 *	54), with its access flags: data_direct reaches the memory through
 *	the data direct engine bonded with the device.
 *
 * Results:
 *	The mr object command's name.
 *
 * Side effects:
 *	mlx5dv_reg_dmabuf_mr.
 *
 *----------------------------------------------------------------------
 */

static const VerbsEnum mlx5Access[] = {
    {"data_direct", 1},		/* MLX5DV_REG_DMABUF_ACCESS_DATA_DIRECT, */
    {NULL, 0}			/* which rdma-core 44 lacks. */
};

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
	uint32_t fd;
	uint64_t iova, length;
	uint64_t mlx5_access;
	uint64_t offset;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION(Args, access, VF_FLAGS, verbsAccessFlags, "flags"),
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_REQUIRED(Args, fd, VF_UINT, NULL, INT32_MAX,
		"fd:the dma-buf file descriptor"),
	VERBS_OPTION(Args, iova, VF_UINT, NULL, "addr"),
	VERBS_OPTION_REQUIRED(Args, length, VF_UINT, NULL, INT32_MAX,
		"bytes:the size of the region in bytes"),
	VERBS_OPTION(Args, mlx5_access, VF_FLAGS, mlx5Access, "flags"),
	VERBS_OPTION(Args, offset, VF_UINT, NULL, "offset"),
	VERBS_FIELD_END
    };
    Args a = {{NULL, NULL}, IBV_ACCESS_LOCAL_WRITE, 0, 0, 0, 0, 0};
    VerbsPd *p;
    VerbsContext *c;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &a,
	    &verbsPdClass) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) a.head.parent;
    c = Mlx5ContextOf(&p->obj);
    if (c && !mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_reg_dmabuf_mr", c);
    }
#ifdef HAVE_MLX5DV_REG_DMABUF_MR
    {
	struct ibv_mr *mr = mlx5dv_reg_dmabuf_mr(p->pd, a.offset,
		(size_t) a.length, a.iova, (int) a.fd, (int) a.access,
		(int) a.mlx5_access);

	if (mr == NULL) {
	    return VerbsSysError(interp, "mlx5dv_reg_dmabuf_mr", &p->obj,
		    NULL, errno);
	}
	return VerbsMrAdopt(interp, p, mr, (int) a.access, a.head.command);
    }
#else
    return VerbsSysError(interp, "mlx5dv_reg_dmabuf_mr", &p->obj,
	    "needs rdma-core 54 or later", EOPNOTSUPP);
#endif
}

/*
 *----------------------------------------------------------------------
 *
 * FlowActionCmd --
 *
 *	mlx5::flowaction modify_header CONTEXT ACTIONS -ft_type TABLE
 *		?-as NAME?
 *	mlx5::flowaction packet_reformat CONTEXT TYPE -ft_type TABLE
 *		?-data BYTES? ?-as NAME?
 *	Flow actions of libmlx5 (mlx5dv_create_flow_action_modify_header,
 *	_packet_reformat) as flowaction objects of the context, for
 *	[mlx5::flow create -actions {{action FLOWACTION}}] and
 *	[verbs::flow create].
 *
 * Results:
 *	The flowaction object command's name.
 *
 * Side effects:
 *	Creates the action.
 *
 *----------------------------------------------------------------------
 */

static const VerbsEnum ftTypes[] = {
    {"nic_rx", MLX5DV_FLOW_TABLE_TYPE_NIC_RX},
    {"nic_tx", MLX5DV_FLOW_TABLE_TYPE_NIC_TX},
    {"fdb", MLX5DV_FLOW_TABLE_TYPE_FDB},
    {"rdma_rx", MLX5DV_FLOW_TABLE_TYPE_RDMA_RX},
    {"rdma_tx", MLX5DV_FLOW_TABLE_TYPE_RDMA_TX},
    {NULL, 0}
};


typedef struct FaArgs {
    VerbsCreateHead head;
    Tcl_Obj *data;
    uint64_t ft_type;
} FaArgs;

static const VerbsField faModifyOptions[] = {
    VERBS_OPTION_COMMAND,
    VERBS_OPTION_REQUIRED(FaArgs, ft_type, VF_ENUM, ftTypes, 0,
	    "table:the flow table type it acts in"),
    VERBS_FIELD_END
};
static const VerbsField faReformatOptions[] = {
    VERBS_OPTION_COMMAND,
    VERBS_OPTION(FaArgs, data, VF_TCLOBJ, NULL, "bytes"),
    VERBS_OPTION_REQUIRED(FaArgs, ft_type, VF_ENUM, ftTypes, 0,
	    "table:the flow table type it acts in"),
    VERBS_FIELD_END
};

static int
FlowActionCmd(
    ClientData clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    int reformat = clientData != NULL;
    const char *call = reformat ? "mlx5dv_create_flow_action_packet_reformat"
	    : "mlx5dv_create_flow_action_modify_header";
    FaArgs a = {{NULL, NULL}, NULL, 0};
    struct ibv_flow_action *action;
    const unsigned char *p = NULL;
    Tcl_Size len = 0;
    uint64_t type = 0;
    VerbsContext *c;

    if (VerbsCreateArgs(interp, objc, objv, reformat ? "context type"
	    : "context actions", reformat ? faReformatOptions
	    : faModifyOptions, &a, &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) a.head.parent;
    if (reformat) {
	if (VerbsGetEnum(interp, mlx5ReformatTypes, "type", objv[2], &type)
		!= TCL_OK || (a.data && (p = VerbsGetBytes(interp, "-data",
		a.data, &len)) == NULL)) {
	    return TCL_ERROR;
	}
    } else {
	p = VerbsGetBytes(interp, "actions", objv[2], &len);
	if (p == NULL) {
	    return TCL_ERROR;
	}
	if (len == 0 || len % 8 != 0) {
	    return VerbsArgError(interp, "actions", NULL, "bad actions: %"
		    TCL_SIZE_MODIFIER "d bytes, must be a non-empty multiple "
		    "of 8 (mlx5::prm pack set_action_in, ...)", len);
	}
    }
    if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, call, c);
    }
    action = reformat ? mlx5dv_create_flow_action_packet_reformat(c->ctx,
	    (size_t) len, (void *) p,
	    (enum mlx5dv_flow_action_packet_reformat_type) type,
	    (enum mlx5dv_flow_table_type) a.ft_type)
	    : mlx5dv_create_flow_action_modify_header(c->ctx, (size_t) len,
	    (uint64_t *) p, (enum mlx5dv_flow_table_type) a.ft_type);
    if (action == NULL) {
	return VerbsSysError(interp, call, &c->obj, NULL,
		errno ? errno : EINVAL);
    }
    return VerbsFlowActionAdopt(interp, &c->obj, action, a.head.command);
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5DataDirectPath --
 *
 *	$ctx mlx5 data_direct_sysfs_path ?LENGTH?: the sysfs path of the
 *	data direct device bonded with the context's device
 *	(mlx5dv_get_data_direct_sysfs_path, rdma-core 54), read into a
 *	buffer of LENGTH bytes (default 4096): too small a one is libmlx5's
 *	ENOSPC, as test_data_direct_sysfs_path_bad_length asks.
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
Mlx5DataDirectPath(
    Tcl_Interp *interp,
    VerbsContext *c,
    size_t length)		/* The buffer's size given to libmlx5, at
				 * most 4096. */
{
#ifdef HAVE_MLX5DV_GET_DATA_DIRECT_SYSFS_PATH
    char buf[4096];
    int err = mlx5dv_get_data_direct_sysfs_path(c->ctx, buf,
	    length < sizeof(buf) ? length : sizeof(buf));

    if (err) {
	return VerbsSysError(interp, "mlx5dv_get_data_direct_sysfs_path",
		&c->obj, NULL, err < 0 ? -err : err);
    }
    Tcl_SetObjResult(interp, Tcl_NewStringObj(buf, -1));
    return TCL_OK;
#else
    (void) length;
    return VerbsSysError(interp, "mlx5dv_get_data_direct_sysfs_path",
	    &c->obj, "needs rdma-core 54 or later", EOPNOTSUPP);
#endif
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5ResInit --
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
Mlx5ResInit(
    Tcl_Interp *interp)
{
    Mlx5AddCommand(interp, "qpn::create", QpnCreateCmd);
    Mlx5AddCommand(interp, "dm::op_addr", DmOpAddrCmd);
    Mlx5AddCommand(interp, "mr::dmabuf", MrDmabufCmd);
    Mlx5AddCommandData(interp, "flowaction::modify_header", FlowActionCmd,
	    NULL);
    Mlx5AddCommandData(interp, "flowaction::packet_reformat", FlowActionCmd,
	    (ClientData) 1);
    return TCL_OK;
}
