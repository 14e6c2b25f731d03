/*
 * mlx5Wqe.c --
 *
 *	Work queue entries and completion queue entries by field, with
 *	mlx5dv.h's own helpers (no device needed): [mlx5::wqe ctrl] and
 *	[mlx5::wqe data] build the segments of a raw WQE
 *	(mlx5dv_set_ctrl_seg, mlx5dv_set_data_seg) for [mlx5::qp wr_post]'s
 *	raw_wqe or a DevX QP's queue; [mlx5::cqe fields] reads a CQE's
 *	opcode, owner, solicited and format bits (mlx5dv_get_cqe_*) and
 *	[mlx5::cqe set_owner] sets its owner bit (mlx5dv_set_cqe_owner);
 *	[mlx5::cqe ts_to_ns] converts its timestamp (mlx5dv_ts_to_ns).
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5.h"
#include <string.h>

static const VerbsEnum wqeOpcodes[] = {
    {"nop", MLX5_OPCODE_NOP},
    {"send_inval", MLX5_OPCODE_SEND_INVAL},
    {"rdma_write", MLX5_OPCODE_RDMA_WRITE},
    {"rdma_write_imm", MLX5_OPCODE_RDMA_WRITE_IMM},
    {"send", MLX5_OPCODE_SEND},
    {"send_imm", MLX5_OPCODE_SEND_IMM},
    {"tso", MLX5_OPCODE_TSO},
    {"rdma_read", MLX5_OPCODE_RDMA_READ},
    {"atomic_cs", MLX5_OPCODE_ATOMIC_CS},
    {"atomic_fa", MLX5_OPCODE_ATOMIC_FA},
    {"atomic_masked_cs", MLX5_OPCODE_ATOMIC_MASKED_CS},
    {"atomic_masked_fa", MLX5_OPCODE_ATOMIC_MASKED_FA},
    {"fmr", MLX5_OPCODE_FMR},
    {"local_inval", MLX5_OPCODE_LOCAL_INVAL},
    {"config_cmd", MLX5_OPCODE_CONFIG_CMD},
    {"set_psv", MLX5_OPCODE_SET_PSV},
    {"umr", MLX5_OPCODE_UMR},
    {"tag_matching", MLX5_OPCODE_TAG_MATCHING},
    {"flow_tbl_access", MLX5_OPCODE_FLOW_TBL_ACCESS},
    {"mmo", MLX5_OPCODE_MMO},
    {NULL, 0}
};

static const VerbsEnum fmCeSe[] = {
    {"solicited", MLX5_WQE_CTRL_SOLICITED},
    {"cq_update", MLX5_WQE_CTRL_CQ_UPDATE},
    {"initiator_small_fence", MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE},
    {"fence", MLX5_WQE_CTRL_FENCE},
    {NULL, 0}
};

static const VerbsEnum cqeOpcodes[] = {
    {"req", MLX5_CQE_REQ},
    {"resp_wr_imm", MLX5_CQE_RESP_WR_IMM},
    {"resp_send", MLX5_CQE_RESP_SEND},
    {"resp_send_imm", MLX5_CQE_RESP_SEND_IMM},
    {"resp_send_inv", MLX5_CQE_RESP_SEND_INV},
    {"resize_cq", MLX5_CQE_RESIZE_CQ},
    {"no_packet", MLX5_CQE_NO_PACKET},
    {"sig_err", MLX5_CQE_SIG_ERR},
    {"req_err", MLX5_CQE_REQ_ERR},
    {"resp_err", MLX5_CQE_RESP_ERR},
    {"invalid", MLX5_CQE_INVALID},
    {NULL, 0}
};

/*
 * The arguments of mlx5dv_set_ctrl_seg and mlx5dv_set_data_seg, by their
 * names there.
 */

typedef struct CtrlArgs {
    uint32_t ds;
    uint64_t fm_ce_se;
    uint32_t imm;
    uint64_t opcode;
    uint8_t opmod;
    uint16_t pi;
    uint32_t qp_num;
    uint8_t signature;
} CtrlArgs;

static const VerbsField ctrlFields[] = {
    VERBS_FIELD_MAX(CtrlArgs, ds, VF_UINT, 0, 0x3f),
    VERBS_FIELD(CtrlArgs, fm_ce_se, VF_FLAGS, fmCeSe, 0, 0),
    VERBS_FIELD(CtrlArgs, imm, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(CtrlArgs, opcode, VF_ENUM, wqeOpcodes, 0, 0),
    VERBS_FIELD(CtrlArgs, opmod, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(CtrlArgs, pi, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_MAX(CtrlArgs, qp_num, VF_UINT, 0, 0xffffff),
    VERBS_FIELD(CtrlArgs, signature, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct ctrlStruct = {"ctrl segment key", ctrlFields};

typedef struct DataArgs {
    uint64_t address;
    uint32_t length;
    uint32_t lkey;
} DataArgs;

static const VerbsField dataFields[] = {
    VERBS_FIELD(DataArgs, address, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(DataArgs, length, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(DataArgs, lkey, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct dataStruct = {"data segment key", dataFields};

static const VerbsField clockFields[] = {
    VERBS_FIELD(struct mlx5dv_clock_info, nsec, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_clock_info, last_cycles, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_clock_info, frac, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_clock_info, mult, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_clock_info, shift, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_clock_info, mask, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
const VerbsStruct mlx5ClockStruct = {"clock info key", clockFields};

/*
 *----------------------------------------------------------------------
 *
 * WqeCtrlCmd, WqeDataCmd --
 *
 *	mlx5::wqe ctrl DICT: the 16 bytes of a control segment
 *	(mlx5dv_set_ctrl_seg), DICT's keys its arguments: pi opcode opmod
 *	qp_num fm_ce_se ds signature imm (each 0 when not given; imm is
 *	stored as given, as the helper does).
 *	mlx5::wqe data DICT: the 16 bytes of a data segment
 *	(mlx5dv_set_data_seg): length lkey address.
 *
 * Results:
 *	A byte array.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
WqeCtrlCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    struct mlx5_wqe_ctrl_seg seg;
    CtrlArgs a;

    if (objc != 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "dict");
	return TCL_ERROR;
    }
    memset(&a, 0, sizeof(a));
    if (VerbsDictToStruct(interp, &ctrlStruct, "ctrl", objv[1], &a, NULL)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    memset(&seg, 0, sizeof(seg));
    mlx5dv_set_ctrl_seg(&seg, a.pi, (uint8_t) a.opcode, a.opmod, a.qp_num,
	    (uint8_t) a.fm_ce_se, (uint8_t) a.ds, a.signature, a.imm);
    Tcl_SetObjResult(interp, Tcl_NewByteArrayObj((unsigned char *) &seg,
	    sizeof(seg)));
    return TCL_OK;
}

static int
WqeDataCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    struct mlx5_wqe_data_seg seg;
    DataArgs a;

    if (objc != 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "dict");
	return TCL_ERROR;
    }
    memset(&a, 0, sizeof(a));
    if (VerbsDictToStruct(interp, &dataStruct, "data", objv[1], &a, NULL)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    mlx5dv_set_data_seg(&seg, a.length, a.lkey, (uintptr_t) a.address);
    Tcl_SetObjResult(interp, Tcl_NewByteArrayObj((unsigned char *) &seg,
	    sizeof(seg)));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CqeFieldsCmd, CqeSetOwnerCmd --
 *
 *	mlx5::cqe fields CQE: {opcode NAME owner 0|1 se 0|1 format N} of
 *	the 64 bytes of a CQE (mlx5dv_get_cqe_opcode, _owner, _se,
 *	_format).
 *	mlx5::cqe set_owner CQE OWNER: the CQE with its owner bit set to
 *	OWNER's lowest bit (mlx5dv_set_cqe_owner).
 *
 * Results:
 *	A dict; a byte array.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
GetCqe(
    Tcl_Interp *interp,
    Tcl_Obj *bytesObj,
    struct mlx5_cqe64 *cqe)
{
    Tcl_Size len;
    const unsigned char *b = VerbsGetBytes(interp, "cqe", bytesObj, &len);

    if (b == NULL) {
	return TCL_ERROR;
    }
    if (len != (Tcl_Size) sizeof(*cqe)) {
	return VerbsArgError(interp, "cqe", NULL, "a cqe is %d bytes, not %"
		TCL_SIZE_MODIFIER "d", (int) sizeof(*cqe), len);
    }
    memcpy(cqe, b, sizeof(*cqe));
    return TCL_OK;
}

static int
CqeFieldsCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    struct mlx5_cqe64 cqe;
    Tcl_Obj *d;

    if (objc != 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "cqe");
	return TCL_ERROR;
    }
    if (GetCqe(interp, objv[1], &cqe) != TCL_OK) {
	return TCL_ERROR;
    }
    d = Tcl_NewObj();
    Tcl_ListObjAppendElement(NULL, d, Tcl_NewStringObj("opcode", -1));
    Tcl_ListObjAppendElement(NULL, d, VerbsEnumObj(cqeOpcodes,
	    mlx5dv_get_cqe_opcode(&cqe)));
    Tcl_ListObjAppendElement(NULL, d, Tcl_NewStringObj("owner", -1));
    Tcl_ListObjAppendElement(NULL, d,
	    Tcl_NewIntObj(mlx5dv_get_cqe_owner(&cqe)));
    Tcl_ListObjAppendElement(NULL, d, Tcl_NewStringObj("se", -1));
    Tcl_ListObjAppendElement(NULL, d, Tcl_NewIntObj(mlx5dv_get_cqe_se(&cqe)));
    Tcl_ListObjAppendElement(NULL, d, Tcl_NewStringObj("format", -1));
    Tcl_ListObjAppendElement(NULL, d,
	    Tcl_NewIntObj(mlx5dv_get_cqe_format(&cqe)));
    Tcl_SetObjResult(interp, d);
    return TCL_OK;
}

static int
CqeSetOwnerCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    struct mlx5_cqe64 cqe;
    uint64_t owner;

    if (objc != 3) {
	Tcl_WrongNumArgs(interp, 1, objv, "cqe owner");
	return TCL_ERROR;
    }
    if (GetCqe(interp, objv[1], &cqe) != TCL_OK
	    || VerbsGetUInt(interp, "owner", objv[2], 1, &owner) != TCL_OK) {
	return TCL_ERROR;
    }
    mlx5dv_set_cqe_owner(&cqe, (uint8_t) owner);
    Tcl_SetObjResult(interp, Tcl_NewByteArrayObj((unsigned char *) &cqe,
	    sizeof(cqe)));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CqeTsToNsCmd --
 *
 *	mlx5::cqe ts_to_ns CLOCK_INFO TIMESTAMP: a completion's device
 *	timestamp in nanoseconds (mlx5dv_ts_to_ns), with the clock
 *	information of [$ctx mlx5 clock_info].
 *
 * Results:
 *	An integer.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
CqeTsToNsCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    struct mlx5dv_clock_info clock;
    uint64_t ts;

    if (objc != 3) {
	Tcl_WrongNumArgs(interp, 1, objv, "clock_info timestamp");
	return TCL_ERROR;
    }
    memset(&clock, 0, sizeof(clock));
    if (VerbsDictToStruct(interp, &mlx5ClockStruct, "clock_info", objv[1],
	    &clock, NULL) != TCL_OK || VerbsGetUInt(interp, "timestamp",
	    objv[2], UINT64_MAX, &ts) != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, VerbsU64Obj(mlx5dv_ts_to_ns(&clock, ts)));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5WqeInit --
 *
 *	The commands of this file: ::mlx5::wqe and ::mlx5::cqe.
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
Mlx5WqeInit(
    Tcl_Interp *interp)
{
    Mlx5AddCommand(interp, "wqe::ctrl", WqeCtrlCmd);
    Mlx5AddCommand(interp, "wqe::data", WqeDataCmd);
    Mlx5AddCommand(interp, "cqe::fields", CqeFieldsCmd);
    Mlx5AddCommand(interp, "cqe::set_owner", CqeSetOwnerCmd);
    Mlx5AddCommand(interp, "cqe::ts_to_ns", CqeTsToNsCmd);
    return TCL_OK;
}
