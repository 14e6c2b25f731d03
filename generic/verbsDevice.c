/*
 * verbsDevice.c --
 *
 *	Devices and device contexts: [verbs::devices], [verbs::context open]
 *	and the context object command.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

/*
 * ------------------------------------------------------------------------
 * The names and struct tables of devices, ports and GIDs: the rows with
 * which the attribute dict engine (verbsAttr.c) reads and writes these C
 * structs.
 * ------------------------------------------------------------------------
 */

/*
 * Values that newer rdma-core or kernel headers name and older ones do not:
 * named here so that the tables are the same against every rdma-core.
 */

#define VERBS_ODP_SUPPORT_FLUSH		(1 << 6)
#define VERBS_ODP_SUPPORT_ATOMIC_WRITE	(1 << 7)
#define VERBS_DEVICE_FLUSH_GLOBAL	(1ULL << 38)
#define VERBS_DEVICE_FLUSH_PERSISTENT	(1ULL << 39)
#define VERBS_DEVICE_ATOMIC_WRITE	(1ULL << 40)

#define RO VF_READONLY

/*
 * The device capability flags: device_cap_flags (query device) is the low
 * 32 bits of device_cap_flags_ex (query device_ex), which has more.
 */

#define DEVICE_CAP_FLAGS \
    {"resize_max_wr", IBV_DEVICE_RESIZE_MAX_WR}, \
    {"bad_pkey_cntr", IBV_DEVICE_BAD_PKEY_CNTR}, \
    {"bad_qkey_cntr", IBV_DEVICE_BAD_QKEY_CNTR}, \
    {"raw_multi", IBV_DEVICE_RAW_MULTI}, \
    {"auto_path_mig", IBV_DEVICE_AUTO_PATH_MIG}, \
    {"change_phy_port", IBV_DEVICE_CHANGE_PHY_PORT}, \
    {"ud_av_port_enforce", IBV_DEVICE_UD_AV_PORT_ENFORCE}, \
    {"curr_qp_state_mod", IBV_DEVICE_CURR_QP_STATE_MOD}, \
    {"shutdown_port", IBV_DEVICE_SHUTDOWN_PORT}, \
    {"init_type", IBV_DEVICE_INIT_TYPE}, \
    {"port_active_event", IBV_DEVICE_PORT_ACTIVE_EVENT}, \
    {"sys_image_guid", IBV_DEVICE_SYS_IMAGE_GUID}, \
    {"rc_rnr_nak_gen", IBV_DEVICE_RC_RNR_NAK_GEN}, \
    {"srq_resize", IBV_DEVICE_SRQ_RESIZE}, \
    {"n_notify_cq", IBV_DEVICE_N_NOTIFY_CQ}, \
    {"mem_window", IBV_DEVICE_MEM_WINDOW}, \
    {"ud_ip_csum", IBV_DEVICE_UD_IP_CSUM}, \
    {"xrc", IBV_DEVICE_XRC}, \
    {"mem_mgt_extensions", IBV_DEVICE_MEM_MGT_EXTENSIONS}, \
    {"mem_window_type_2a", IBV_DEVICE_MEM_WINDOW_TYPE_2A}, \
    {"mem_window_type_2b", IBV_DEVICE_MEM_WINDOW_TYPE_2B}, \
    {"rc_ip_csum", IBV_DEVICE_RC_IP_CSUM}, \
    {"raw_ip_csum", IBV_DEVICE_RAW_IP_CSUM}, \
    {"managed_flow_steering", IBV_DEVICE_MANAGED_FLOW_STEERING},

const VerbsEnum verbsDeviceCapFlags[] = {
    DEVICE_CAP_FLAGS
    {NULL, 0}
};
const VerbsEnum verbsDeviceCapFlagsEx[] = {
    DEVICE_CAP_FLAGS
    {"raw_scatter_fcs", IBV_DEVICE_RAW_SCATTER_FCS},
    {"pci_write_end_padding", IBV_DEVICE_PCI_WRITE_END_PADDING},
    {"flush_global", VERBS_DEVICE_FLUSH_GLOBAL},
    {"flush_persistent", VERBS_DEVICE_FLUSH_PERSISTENT},
    {"atomic_write", VERBS_DEVICE_ATOMIC_WRITE},
    {NULL, 0}
};
const VerbsEnum verbsAtomicCap[] = {
    {"none", IBV_ATOMIC_NONE},
    {"hca", IBV_ATOMIC_HCA},
    {"glob", IBV_ATOMIC_GLOB},
    {NULL, 0}
};
const VerbsEnum verbsPortState[] = {
    {"nop", IBV_PORT_NOP},
    {"down", IBV_PORT_DOWN},
    {"init", IBV_PORT_INIT},
    {"armed", IBV_PORT_ARMED},
    {"active", IBV_PORT_ACTIVE},
    {"active_defer", IBV_PORT_ACTIVE_DEFER},
    {NULL, 0}
};
const VerbsEnum verbsPortCapFlags[] = {
    {"sm", IBV_PORT_SM},
    {"notice_sup", IBV_PORT_NOTICE_SUP},
    {"trap_sup", IBV_PORT_TRAP_SUP},
    {"opt_ipd_sup", IBV_PORT_OPT_IPD_SUP},
    {"auto_migr_sup", IBV_PORT_AUTO_MIGR_SUP},
    {"sl_map_sup", IBV_PORT_SL_MAP_SUP},
    {"mkey_nvram", IBV_PORT_MKEY_NVRAM},
    {"pkey_nvram", IBV_PORT_PKEY_NVRAM},
    {"led_info_sup", IBV_PORT_LED_INFO_SUP},
    {"sys_image_guid_sup", IBV_PORT_SYS_IMAGE_GUID_SUP},
    {"pkey_sw_ext_port_trap_sup", IBV_PORT_PKEY_SW_EXT_PORT_TRAP_SUP},
    {"extended_speeds_sup", IBV_PORT_EXTENDED_SPEEDS_SUP},
    {"cap_mask2_sup", IBV_PORT_CAP_MASK2_SUP},
    {"cm_sup", IBV_PORT_CM_SUP},
    {"snmp_tunnel_sup", IBV_PORT_SNMP_TUNNEL_SUP},
    {"reinit_sup", IBV_PORT_REINIT_SUP},
    {"device_mgmt_sup", IBV_PORT_DEVICE_MGMT_SUP},
    {"vendor_class_sup", IBV_PORT_VENDOR_CLASS_SUP},
    {"dr_notice_sup", IBV_PORT_DR_NOTICE_SUP},
    {"cap_mask_notice_sup", IBV_PORT_CAP_MASK_NOTICE_SUP},
    {"boot_mgmt_sup", IBV_PORT_BOOT_MGMT_SUP},
    {"link_latency_sup", IBV_PORT_LINK_LATENCY_SUP},
    {"client_reg_sup", IBV_PORT_CLIENT_REG_SUP},
    {"ip_based_gids", IBV_PORT_IP_BASED_GIDS},
    {NULL, 0}
};
const VerbsEnum verbsPortCapFlags2[] = {
    {"set_node_desc_sup", IBV_PORT_SET_NODE_DESC_SUP},
    {"info_ext_sup", IBV_PORT_INFO_EXT_SUP},
    {"virt_sup", IBV_PORT_VIRT_SUP},
    {"switch_port_state_table_sup", IBV_PORT_SWITCH_PORT_STATE_TABLE_SUP},
    {"link_width_2x_sup", IBV_PORT_LINK_WIDTH_2X_SUP},
    {"link_speed_hdr_sup", IBV_PORT_LINK_SPEED_HDR_SUP},
    {"link_speed_ndr_sup", IBV_PORT_LINK_SPEED_NDR_SUP},
    {NULL, 0}
};

const VerbsEnum verbsNodeType[] = {
    {"unknown", IBV_NODE_UNKNOWN},
    {"ca", IBV_NODE_CA},
    {"switch", IBV_NODE_SWITCH},
    {"router", IBV_NODE_ROUTER},
    {"rnic", IBV_NODE_RNIC},
    {"usnic", IBV_NODE_USNIC},
    {"usnic_udp", IBV_NODE_USNIC_UDP},
    {"unspecified", IBV_NODE_UNSPECIFIED},
    {NULL, 0}
};
const VerbsEnum verbsTransportType[] = {
    {"unknown", IBV_TRANSPORT_UNKNOWN},
    {"ib", IBV_TRANSPORT_IB},
    {"iwarp", IBV_TRANSPORT_IWARP},
    {"usnic", IBV_TRANSPORT_USNIC},
    {"usnic_udp", IBV_TRANSPORT_USNIC_UDP},
    {"unspecified", IBV_TRANSPORT_UNSPECIFIED},
    {NULL, 0}
};

const VerbsEnum verbsGidType[] = {
    {"ib", IBV_GID_TYPE_IB},
    {"roce_v1", IBV_GID_TYPE_ROCE_V1},
    {"roce_v2", IBV_GID_TYPE_ROCE_V2},
    {NULL, 0}
};
const VerbsEnum verbsLinkLayer[] = {
    {"unspecified", IBV_LINK_LAYER_UNSPECIFIED},
    {"infiniband", IBV_LINK_LAYER_INFINIBAND},
    {"ethernet", IBV_LINK_LAYER_ETHERNET},
    {NULL, 0}
};

#define DA(f, kind, table) \
    VERBS_FIELD(struct ibv_device_attr, f, kind, table, 0, RO)
static const VerbsField deviceAttrFields[] = {
    DA(fw_ver, VF_STRING, NULL),
    DA(node_guid, VF_GUID, NULL),
    DA(sys_image_guid, VF_GUID, NULL),
    DA(max_mr_size, VF_UINT, NULL),
    DA(page_size_cap, VF_UINT, NULL),
    DA(vendor_id, VF_UINT, NULL),
    DA(vendor_part_id, VF_UINT, NULL),
    DA(hw_ver, VF_UINT, NULL),
    DA(max_qp, VF_INT, NULL),
    DA(max_qp_wr, VF_INT, NULL),
    DA(device_cap_flags, VF_FLAGS, verbsDeviceCapFlags),
    DA(max_sge, VF_INT, NULL),
    DA(max_sge_rd, VF_INT, NULL),
    DA(max_cq, VF_INT, NULL),
    DA(max_cqe, VF_INT, NULL),
    DA(max_mr, VF_INT, NULL),
    DA(max_pd, VF_INT, NULL),
    DA(max_qp_rd_atom, VF_INT, NULL),
    DA(max_ee_rd_atom, VF_INT, NULL),
    DA(max_res_rd_atom, VF_INT, NULL),
    DA(max_qp_init_rd_atom, VF_INT, NULL),
    DA(max_ee_init_rd_atom, VF_INT, NULL),
    DA(atomic_cap, VF_ENUM, verbsAtomicCap),
    DA(max_ee, VF_INT, NULL),
    DA(max_rdd, VF_INT, NULL),
    DA(max_mw, VF_INT, NULL),
    DA(max_raw_ipv6_qp, VF_INT, NULL),
    DA(max_raw_ethy_qp, VF_INT, NULL),
    DA(max_mcast_grp, VF_INT, NULL),
    DA(max_mcast_qp_attach, VF_INT, NULL),
    DA(max_total_mcast_qp_attach, VF_INT, NULL),
    DA(max_ah, VF_INT, NULL),
    DA(max_fmr, VF_INT, NULL),
    DA(max_map_per_fmr, VF_INT, NULL),
    DA(max_srq, VF_INT, NULL),
    DA(max_srq_wr, VF_INT, NULL),
    DA(max_srq_sge, VF_INT, NULL),
    DA(max_pkeys, VF_UINT, NULL),
    DA(local_ca_ack_delay, VF_UINT, NULL),
    DA(phys_port_cnt, VF_UINT, NULL),
    VERBS_FIELD_END
};
const VerbsStruct verbsDeviceAttrStruct = {
    "device attribute", deviceAttrFields
};

/*
 * ibv_query_device_ex: the extended attributes, with orig_attr the
 * classic ones as a nested dict.
 */

static const VerbsEnum odpGeneralCaps[] = {
    {"support", IBV_ODP_SUPPORT},
    {"support_implicit", IBV_ODP_SUPPORT_IMPLICIT},
    {NULL, 0}
};
static const VerbsEnum odpTransportCaps[] = {
    {"send", IBV_ODP_SUPPORT_SEND},
    {"recv", IBV_ODP_SUPPORT_RECV},
    {"write", IBV_ODP_SUPPORT_WRITE},
    {"read", IBV_ODP_SUPPORT_READ},
    {"atomic", IBV_ODP_SUPPORT_ATOMIC},
    {"srq_recv", IBV_ODP_SUPPORT_SRQ_RECV},
    {"flush", VERBS_ODP_SUPPORT_FLUSH},
    {"atomic_write", VERBS_ODP_SUPPORT_ATOMIC_WRITE},
    {NULL, 0}
};
#define QPT_BIT(name, t) {name, 1u << (t)}
static const VerbsEnum qpTypeBits[] = {
    QPT_BIT("rc", IBV_QPT_RC), QPT_BIT("uc", IBV_QPT_UC),
    QPT_BIT("ud", IBV_QPT_UD), QPT_BIT("raw_packet", IBV_QPT_RAW_PACKET),
    QPT_BIT("xrc_send", IBV_QPT_XRC_SEND),
    QPT_BIT("xrc_recv", IBV_QPT_XRC_RECV),
    {NULL, 0}
};
static const VerbsEnum rawPacketCaps[] = {
    {"cvlan_stripping", IBV_RAW_PACKET_CAP_CVLAN_STRIPPING},
    {"scatter_fcs", IBV_RAW_PACKET_CAP_SCATTER_FCS},
    {"ip_csum", IBV_RAW_PACKET_CAP_IP_CSUM},
    {"delay_drop", IBV_RAW_PACKET_CAP_DELAY_DROP},
    {NULL, 0}
};
static const VerbsEnum tmCapFlags[] = {
    {"rc", IBV_TM_CAP_RC},
    {NULL, 0}
};
static const VerbsEnum pciAtomicCaps[] = {
    {"4_byte", IBV_PCI_ATOMIC_OPERATION_4_BYTE_SIZE_SUP},
    {"8_byte", IBV_PCI_ATOMIC_OPERATION_8_BYTE_SIZE_SUP},
    {"16_byte", IBV_PCI_ATOMIC_OPERATION_16_BYTE_SIZE_SUP},
    {NULL, 0}
};

#define XR(st, f, kind, table) VERBS_FIELD(st, f, kind, table, 0, VF_READONLY)

typedef struct ibv_odp_caps OdpCaps;
static const VerbsField odpTransportFields[] = {
    XR(__typeof__(((OdpCaps *) 0)->per_transport_caps), rc_odp_caps,
	    VF_FLAGS, odpTransportCaps),
    XR(__typeof__(((OdpCaps *) 0)->per_transport_caps), uc_odp_caps,
	    VF_FLAGS, odpTransportCaps),
    XR(__typeof__(((OdpCaps *) 0)->per_transport_caps), ud_odp_caps,
	    VF_FLAGS, odpTransportCaps),
    VERBS_FIELD_END
};
static const VerbsStruct odpTransportStruct = {
    "odp transport caps", odpTransportFields
};
static const VerbsField odpFields[] = {
    XR(OdpCaps, general_caps, VF_FLAGS, odpGeneralCaps),
    XR(OdpCaps, per_transport_caps, VF_STRUCT, &odpTransportStruct),
    VERBS_FIELD_END
};
static const VerbsStruct odpStruct = {"odp caps", odpFields};
static const VerbsField tsoFields[] = {
    XR(struct ibv_tso_caps, max_tso, VF_UINT, NULL),
    XR(struct ibv_tso_caps, supported_qpts, VF_FLAGS, qpTypeBits),
    VERBS_FIELD_END
};
static const VerbsStruct tsoStruct = {"tso caps", tsoFields};
static const VerbsField rssFields[] = {
    XR(struct ibv_rss_caps, supported_qpts, VF_FLAGS, qpTypeBits),
    XR(struct ibv_rss_caps, max_rwq_indirection_tables, VF_UINT, NULL),
    XR(struct ibv_rss_caps, max_rwq_indirection_table_size, VF_UINT, NULL),
    XR(struct ibv_rss_caps, rx_hash_fields_mask, VF_FLAGS,
	    verbsRxHashFields),
    XR(struct ibv_rss_caps, rx_hash_function, VF_FLAGS,
	    verbsRxHashFunction),
    VERBS_FIELD_END
};
static const VerbsStruct rssStruct = {"rss caps", rssFields};
static const VerbsField pacingFields[] = {
    XR(struct ibv_packet_pacing_caps, qp_rate_limit_min, VF_UINT, NULL),
    XR(struct ibv_packet_pacing_caps, qp_rate_limit_max, VF_UINT, NULL),
    XR(struct ibv_packet_pacing_caps, supported_qpts, VF_FLAGS, qpTypeBits),
    VERBS_FIELD_END
};
static const VerbsStruct pacingStruct = {"packet pacing caps", pacingFields};
static const VerbsField tmFields[] = {
    XR(struct ibv_tm_caps, max_rndv_hdr_size, VF_UINT, NULL),
    XR(struct ibv_tm_caps, max_num_tags, VF_UINT, NULL),
    XR(struct ibv_tm_caps, flags, VF_FLAGS, tmCapFlags),
    XR(struct ibv_tm_caps, max_ops, VF_UINT, NULL),
    XR(struct ibv_tm_caps, max_sge, VF_UINT, NULL),
    VERBS_FIELD_END
};
static const VerbsStruct tmStruct = {"tm caps", tmFields};
static const VerbsField cqModFields[] = {
    XR(struct ibv_cq_moderation_caps, max_cq_count, VF_UINT, NULL),
    XR(struct ibv_cq_moderation_caps, max_cq_period, VF_UINT, NULL),
    VERBS_FIELD_END
};
static const VerbsStruct cqModStruct = {"cq moderation caps", cqModFields};
static const VerbsField pciAtomicFields[] = {
    XR(struct ibv_pci_atomic_caps, fetch_add, VF_FLAGS, pciAtomicCaps),
    XR(struct ibv_pci_atomic_caps, swap, VF_FLAGS, pciAtomicCaps),
    XR(struct ibv_pci_atomic_caps, compare_swap, VF_FLAGS, pciAtomicCaps),
    VERBS_FIELD_END
};
static const VerbsStruct pciAtomicStruct = {
    "pci atomic caps", pciAtomicFields
};

#define DX(f, kind, table) XR(struct ibv_device_attr_ex, f, kind, table)
static const VerbsField deviceAttrExFields[] = {
    DX(orig_attr, VF_STRUCT, &verbsDeviceAttrStruct),
    DX(comp_mask, VF_UINT, NULL),
    DX(odp_caps, VF_STRUCT, &odpStruct),
    DX(completion_timestamp_mask, VF_UINT, NULL),
    DX(hca_core_clock, VF_UINT, NULL),
    DX(device_cap_flags_ex, VF_FLAGS, verbsDeviceCapFlagsEx),
    DX(tso_caps, VF_STRUCT, &tsoStruct),
    DX(rss_caps, VF_STRUCT, &rssStruct),
    DX(max_wq_type_rq, VF_UINT, NULL),
    DX(packet_pacing_caps, VF_STRUCT, &pacingStruct),
    DX(raw_packet_caps, VF_FLAGS, rawPacketCaps),
    DX(tm_caps, VF_STRUCT, &tmStruct),
    DX(cq_mod_caps, VF_STRUCT, &cqModStruct),
    DX(max_dm_size, VF_UINT, NULL),
    DX(pci_atomic_caps, VF_STRUCT, &pciAtomicStruct),
    DX(xrc_odp_caps, VF_FLAGS, odpTransportCaps),
    DX(phys_port_cnt_ex, VF_UINT, NULL),
    VERBS_FIELD_END
};
const VerbsStruct verbsDeviceAttrExStruct = {
    "extended device attribute", deviceAttrExFields
};
#undef XR
#undef DX

#define PA(f, kind, table) \
    VERBS_FIELD(struct ibv_port_attr, f, kind, table, 0, RO)
static const VerbsField portAttrFields[] = {
    PA(state, VF_ENUM, verbsPortState),
    PA(max_mtu, VF_ENUM, verbsMtu),
    PA(active_mtu, VF_ENUM, verbsMtu),
    PA(gid_tbl_len, VF_INT, NULL),
    PA(port_cap_flags, VF_FLAGS, verbsPortCapFlags),
    PA(max_msg_sz, VF_UINT, NULL),
    PA(bad_pkey_cntr, VF_UINT, NULL),
    PA(qkey_viol_cntr, VF_UINT, NULL),
    PA(pkey_tbl_len, VF_UINT, NULL),
    PA(lid, VF_UINT, NULL),
    PA(sm_lid, VF_UINT, NULL),
    PA(lmc, VF_UINT, NULL),
    PA(max_vl_num, VF_UINT, NULL),
    PA(sm_sl, VF_UINT, NULL),
    PA(subnet_timeout, VF_UINT, NULL),
    PA(init_type_reply, VF_UINT, NULL),
    PA(active_width, VF_UINT, NULL),
    PA(active_speed, VF_UINT, NULL),
    PA(phys_state, VF_UINT, NULL),
    PA(link_layer, VF_ENUM, verbsLinkLayer),
    PA(flags, VF_UINT, NULL),
    PA(port_cap_flags2, VF_FLAGS, verbsPortCapFlags2),
    VERBS_FIELD_END
};
const VerbsStruct verbsPortAttrStruct = {"port attribute", portAttrFields};

#define GE(f, kind, table) \
    VERBS_FIELD(struct ibv_gid_entry, f, kind, table, 0, RO)
static const VerbsField gidEntryFields[] = {
    GE(gid, VF_GID, NULL),
    GE(gid_index, VF_UINT, NULL),
    GE(port_num, VF_UINT, NULL),
    GE(gid_type, VF_ENUM, verbsGidType),
    GE(ndev_ifindex, VF_UINT, NULL),
    VERBS_FIELD_END
};
const VerbsStruct verbsGidEntryStruct = {"gid entry", gidEntryFields};

#undef RO


static VerbsMethodProc ContextNotify, ContextQuery, ContextWait;

/*
 * The providers' methods ([$ctx NAME ...]) come between the common ones
 * and the context's own.
 */

#define PROVIDER_METHOD(N, name) \
    {name, VerbsProviderMethod, 1, -1, "subcommand ?arg ...?"},
static const VerbsMethod contextMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    VERBS_PROVIDERS(PROVIDER_METHOD)
    {"notify", ContextNotify, 0, 1, "?script?"},
    {"query", ContextQuery, 1, 3, "comp_cntr_caps|device|device_ex|"
	    "gid PORT INDEX|"
	    "gid_entry PORT INDEX|gid_table|pkey PORT INDEX|"
	    "pkey_index PORT PKEY|port PORT|port_speed PORT|rt_values"},
    {"wait", ContextWait, 0, 2, "?-timeout ms?"},
    {NULL, NULL, 0, 0, NULL}
};

static VerbsGetProc ContextNodeType, ContextTransportType, ContextIndex;

static const VerbsField contextCget[] = {
    VERBS_CGET("-name", VerbsContext, devName, VF_CSTR, NULL),
    VERBS_CGET_PTR("-fd", VerbsContext, ctx, struct ibv_context, cmd_fd,
	    VF_INT, NULL),
    VERBS_CGET_PTR("-async_fd", VerbsContext, ctx, struct ibv_context,
	    async_fd, VF_INT, NULL),
    VERBS_CGET_PTR("-num_comp_vectors", VerbsContext, ctx,
	    struct ibv_context, num_comp_vectors, VF_INT, NULL),
    VERBS_CGET_PROC("-node_type", ContextNodeType),
    VERBS_CGET_PROC("-transport_type", ContextTransportType),
    VERBS_CGET_PROC("-index", ContextIndex),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc ContextImportCmd, ContextOpenCmd;
static VerbsOpenProc OpenPlain;
static int	RegisterContext(Tcl_Interp *interp, struct ibv_context *ctx,
		    Tcl_Obj *nameObj);

static const VerbsCommand contextCommands[] = {
    {"import", ContextImportCmd}, {"open", ContextOpenCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * ContextNodeType, ContextTransportType, ContextIndex --
 *
 *	The device's node and transport types, as names; its kernel index
 *	(ibv_get_device_index: the number rdma tools and sysfs use, -1
 *	where the kernel does not say).
 *
 * Results:
 *	TCL_OK with *valuePtr set.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
ContextNodeType(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = VerbsEnumObj(verbsNodeType,
	    ((VerbsContext *) objPtr)->ctx->device->node_type);
    return TCL_OK;
}

static int
ContextTransportType(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = VerbsEnumObj(verbsTransportType,
	    ((VerbsContext *) objPtr)->ctx->device->transport_type);
    return TCL_OK;
}

static int
ContextIndex(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = Tcl_NewIntObj(ibv_get_device_index(
	    ((VerbsContext *) objPtr)->ctx->device));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * ContextFree --
 *
 *	Close the device once every object under it is gone (a context of
 *	librdmacm's stays open: librdmacm owns it).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_close_device.
 *
 *----------------------------------------------------------------------
 */

static void
ContextFree(
    VerbsObj *objPtr)
{
    VerbsContext *c = (VerbsContext *) objPtr;

    if (c->provider) {
	c->provider->free(c);
    }
    if (c->borrowed) {
	VerbsCmForgetContext(objPtr);
    } else {
	ibv_close_device(c->ctx);
    }
    ckfree(c->devName);
}

/*
 *----------------------------------------------------------------------
 *
 * ContextEvent --
 *
 *	The context's eventProc: read one asynchronous event and describe
 *	it as a dict: event_type, plus qp and qp_num, cq, srq, wq_handle
 *	or port_num for the events about those.  The event is
 *	acknowledged before any script sees it, so that a script may
 *	destroy the QP or CQ it names (destruction waits for the ack).
 *
 * Results:
 *	A standard Tcl result; *eventPtr is NULL when none is pending.
 *
 * Side effects:
 *	Consumes and acknowledges an event.
 *
 *----------------------------------------------------------------------
 */

static int
ContextEvent(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj **eventPtr)
{
    struct ibv_async_event ev;
    Tcl_Obj *d;

    *eventPtr = NULL;
    if (ibv_get_async_event(((VerbsContext *) objPtr)->ctx, &ev) != 0) {
	if (errno == EAGAIN || errno == EINTR) {
	    return TCL_OK;
	}
	return VerbsSysError(interp, "ibv_get_async_event", objPtr, NULL,
		errno);
    }
    d = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("event_type", -1),
	    VerbsEnumObj(verbsEventType, ev.event_type));
    switch (ev.event_type) {
    case IBV_EVENT_CQ_ERR:
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("cq", -1),
		VerbsObjNameShared((VerbsObj *) ev.element.cq->cq_context));
	break;
    case IBV_EVENT_QP_FATAL: case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR: case IBV_EVENT_COMM_EST:
    case IBV_EVENT_SQ_DRAINED: case IBV_EVENT_PATH_MIG:
    case IBV_EVENT_PATH_MIG_ERR: case IBV_EVENT_QP_LAST_WQE_REACHED:
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("qp", -1),
		VerbsObjNameShared((VerbsObj *) ev.element.qp->qp_context));
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("qp_num", -1),
		Tcl_NewWideIntObj(ev.element.qp->qp_num));
	break;
    case IBV_EVENT_SRQ_ERR: case IBV_EVENT_SRQ_LIMIT_REACHED:
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("srq", -1),
		VerbsObjNameShared((VerbsObj *) ev.element.srq->srq_context));
	break;
    case IBV_EVENT_WQ_FATAL:
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("wq_handle", -1),
		Tcl_NewWideIntObj(ev.element.wq->handle));
	break;
    case IBV_EVENT_DEVICE_FATAL:
	break;
    default:
	Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("port_num", -1),
		Tcl_NewIntObj(ev.element.port_num));
	break;
    }
    ibv_ack_async_event(&ev);
    *eventPtr = d;
    return TCL_OK;
}

const VerbsType verbsContextClass = {
    .name = "context",
    .size = sizeof(VerbsContext),
    .methods = contextMethods,
    .cget = contextCget,
    .freeProc = ContextFree,
    .eventProc = ContextEvent,
    .commands = contextCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * ContextNotify, ContextWait --
 *
 *	$ctx notify ?script?: run "script EVENT" from the event loop for
 *	every asynchronous event of the device.  $ctx wait ?-timeout ms?:
 *	block for the next one.
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
ContextNotify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsNotify(interp, objPtr,
	    ((VerbsContext *) objPtr)->ctx->async_fd, objc, objv);
}

static int
ContextWait(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    return VerbsWaitEvent(interp, objPtr,
	    ((VerbsContext *) objPtr)->ctx->async_fd, objc, objv);
}

/*
 * The devices as ibv_get_device_list last listed them, kept between calls:
 * listing reads netlink and sysfs (tens of system calls, 35,000
 * instructions), which [verbs::context open] would otherwise pay on every
 * open.  Each entry keeps what lstat said of the device's link in
 * /sys/class/infiniband (ibdev_path) when it was listed.  A device
 * removed and added again under the same name has a new link, and sysfs
 * numbers each new node afresh: another inode (the link's times are only
 * when its inode was last read in, so they are not compared).  libibverbs
 * itself tells a device from its successor under the same name by that
 * path (its time, when it reads sysfs).  The link itself, not followed,
 * is one path step from /sys/class/infiniband instead of six (8.6 us
 * against 16 in the VM).  A device without the link (no sysfs, another
 * network namespace's) cannot be checked, so each open of it lists
 * again.  Process-wide, under devicesMutex; the list is never freed
 * (libibverbs keeps its own).
 */

typedef struct KnownEntry {
    int checked;		/* lstat of the device's ibdev_path worked; */
    dev_t stDev;		/* what it said. */
    ino_t stIno;
} KnownEntry;

static struct ibv_device **knownList;	/* As listed, or NULL. */
static KnownEntry *known;		/* One per device of knownList. */
static int knownCount;
TCL_DECLARE_MUTEX(devicesMutex)

/*
 *----------------------------------------------------------------------
 *
 * ReadDevices, KnownDevice --
 *
 *	ReadDevices lists the devices again (ibv_get_device_list) and keeps
 *	the list.  The links are read between two listings that give the
 *	same devices (libibverbs keeps a device's struct while it is
 *	unchanged), so that no device can change between its listing and
 *	its lstat; when the devices keep changing, the entries are kept
 *	unchecked.  KnownDevice finds a device of the list by name: with
 *	fresh (just listed) as it is, else only if its link is still the
 *	one listed.  Both are called with devicesMutex held.
 *
 * Results:
 *	ReadDevices: 0, or the errno of a failed listing (a kernel without
 *	uverbs lists no device, and that is no error).  KnownDevice: the
 *	device, or NULL.
 *
 * Side effects:
 *	ReadDevices frees the previous list.
 *
 *----------------------------------------------------------------------
 */

static struct ibv_device **
ListDevices(
    int *nPtr,
    int *errPtr)
{
    struct ibv_device **list = ibv_get_device_list(nPtr);

    *errPtr = 0;
    if (list == NULL) {
	*nPtr = 0;
	if (errno != ENOSYS && errno != ENOENT) {
	    *errPtr = errno;
	}
    }
    return list;
}

static int
ReadDevices(void)
{
    struct ibv_device **list, **again;
    KnownEntry *entries = NULL;
    int i, n, m, err, tries, same = 0;

    list = ListDevices(&n, &err);
    for (tries = 0; err == 0 && !same; tries++) {
	int check = tries < 3;	/* Three listings that all differed: the
				 * last is kept unchecked. */

	entries = (KnownEntry *) ckrealloc(entries,
		sizeof(KnownEntry) * (n ? n : 1));
	for (i = 0; i < n; i++) {
	    struct stat st;

	    entries[i].checked = check
		    && lstat(list[i]->ibdev_path, &st) == 0;
	    entries[i].stDev = entries[i].checked ? st.st_dev : 0;
	    entries[i].stIno = entries[i].checked ? st.st_ino : 0;
	}
	if (!check) {
	    break;
	}
	again = ListDevices(&m, &err);
	same = err == 0 && m == n
		&& (n == 0 || memcmp(list, again, sizeof(*list) * n) == 0);
	if (list) {
	    ibv_free_device_list(list);
	}
	list = again;
	n = m;
    }
    if (err) {
	/* The list kept stays as it was. */
	if (entries) {
	    ckfree(entries);
	}
	return err;
    }
    if (knownList != NULL) {
	ibv_free_device_list(knownList);
    }
    if (known != NULL) {
	ckfree(known);
    }
    knownList = list;
    known = entries;
    knownCount = n;
    return 0;
}

static struct ibv_device *
KnownDevice(
    const char *name,
    int fresh)
{
    struct stat st;
    int i;

    for (i = 0; i < knownCount; i++) {
	if (strcmp(ibv_get_device_name(knownList[i]), name) == 0) {
	    break;
	}
    }
    if (i == knownCount) {
	return NULL;
    }
    if (!fresh && (!known[i].checked
	    || lstat(knownList[i]->ibdev_path, &st) != 0
	    || st.st_ino != known[i].stIno || st.st_dev != known[i].stDev)) {
	return NULL;
    }
    return knownList[i];
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsDevicesCmd --
 *
 *	verbs::devices ?-details?: the RDMA device names, or with -details
 *	a list of dicts (name node_guid node_type transport_type
 *	ibdev_path).
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
VerbsDevicesCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	int details;
    } DevicesArgs;
    static const VerbsField options[] = {
	VERBS_OPTION_SWITCH("-details", DevicesArgs, details),
	VERBS_FIELD_END
    };
    DevicesArgs args = {0};
    Tcl_Obj *result;
    int i, err;

    if (objc > 2) {
	return VerbsUsageError(interp, 1, objv, "", options);
    }
    if (VerbsParseOptions(interp, objc, objv, 1, options, &args) != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_MutexLock(&devicesMutex);
    if ((err = ReadDevices()) != 0) {
	Tcl_MutexUnlock(&devicesMutex);
	return VerbsSysError(interp, "ibv_get_device_list", NULL, NULL, err);
    }
    result = Tcl_NewObj();
    for (i = 0; i < knownCount; i++) {
	struct ibv_device *dev = knownList[i];
	Tcl_Obj *v = Tcl_NewStringObj(ibv_get_device_name(dev), -1);

	if (args.details) {
	    Tcl_Obj *d = Tcl_NewDictObj();

	    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("name", -1), v);
	    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("node_guid", -1),
		    VerbsGuidObj(ibv_get_device_guid(dev)));
	    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("node_type", -1),
		    VerbsEnumObj(verbsNodeType, dev->node_type));
	    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("transport_type", -1),
		    VerbsEnumObj(verbsTransportType, dev->transport_type));
	    Tcl_DictObjPut(NULL, d, Tcl_NewStringObj("ibdev_path", -1),
		    Tcl_NewStringObj(dev->ibdev_path, -1));
	    v = d;
	}
	Tcl_ListObjAppendElement(NULL, result, v);
    }
    Tcl_MutexUnlock(&devicesMutex);
    Tcl_SetObjResult(interp, result);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsContextNew --
 *
 *	A context object for an open ibv_context (not yet registered).
 *	borrowed: the context is librdmacm's and is never closed here.
 *
 * Results:
 *	The new object.
 *
 * Side effects:
 *	Allocates.
 *
 *----------------------------------------------------------------------
 */

VerbsContext *
VerbsContextNew(
    struct ibv_context *ctx,
    int borrowed)
{
    VerbsContext *c = (VerbsContext *) VerbsObjNew(&verbsContextClass);
    const char *name = ibv_get_device_name(ctx->device);

    c->ctx = ctx;
    c->borrowed = borrowed;
    c->devName = ckalloc(strlen(name) + 1);
    strcpy(c->devName, name);
    return c;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsProviderAttach, VerbsProviderState --
 *
 *	The provider's state on a context: attached (size bytes, zeroed)
 *	the first time the provider asks, so that the context calls the
 *	provider's free proc before the device closes.  A context has one
 *	provider.  VerbsProviderState: the state if that provider attached
 *	it, without attaching.
 *
 * Results:
 *	The state, or NULL when another provider's state is attached (or,
 *	for VerbsProviderState, none).
 *
 * Side effects:
 *	VerbsProviderAttach may allocate.
 *
 *----------------------------------------------------------------------
 */

void *
VerbsProviderAttach(
    VerbsContext *c,
    const VerbsProvider *provider,
    size_t size)
{
    if (c->provider == NULL) {
	c->providerData = ckalloc(size);
	memset(c->providerData, 0, size);
	c->provider = provider;
    }
    return c->provider == provider ? c->providerData : NULL;
}

void *
VerbsProviderState(
    VerbsContext *c,
    const VerbsProvider *provider)
{
    return c->provider == provider ? c->providerData : NULL;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsProviderMethod --
 *
 *	[$ctx NAME subcommand ...]: the method of the provider NAME (the
 *	method's name, which the dispatcher may have matched by a prefix).
 *
 * Results:
 *	The provider method's.
 *
 * Side effects:
 *	The provider method's.
 *
 *----------------------------------------------------------------------
 */

int
VerbsProviderMethod(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    const VerbsProvider *const *p;
    const char *word = Tcl_GetString(objv[1]);

    for (p = verbsProviders; *p; p++) {
	if (strncmp((*p)->name, word, strlen(word)) == 0) {
	    return (*p)->method(interp, objPtr, objc, objv);
	}
    }
    Tcl_Panic("VerbsProviderMethod: no provider \"%s\"", word);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * ContextOpenCmd --
 *
 *	verbs::context open NAME ?-as NAME?
 *
 * Results:
 *	The context object command's name.
 *
 * Side effects:
 *	ibv_open_device.
 *
 *----------------------------------------------------------------------
 */

static int
ContextOpenCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    struct ibv_context *ctx;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_FIELD_END
    };
    VerbsCreateHead args = {NULL, NULL};

    if (VerbsCreateArgs(interp, objc, objv, "device", options, &args, NULL)
	    != TCL_OK || VerbsOpenDevice(interp, Tcl_GetString(objv[1]),
	    OpenPlain, NULL, &ctx) != TCL_OK) {
	return TCL_ERROR;
    }
    return RegisterContext(interp, ctx, args.command);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsOpenDevice, OpenPlain --
 *
 *	The device named name, opened by openProc (OpenPlain:
 *	ibv_open_device; a provider's constructor gives its own, which sets
 *	its own error); "no RDMA device named ..." when there is none.  The
 *	device is looked up in the list kept between calls (KnownDevice),
 *	read again when the name is not in it or no longer names the device
 *	listed, and once more when the device listed fails to open.
 *
 * Results:
 *	A standard Tcl result; the open context in *ctxPtr.
 *
 * Side effects:
 *	Opens the device.
 *
 *----------------------------------------------------------------------
 */

static int
OpenPlain(
    Tcl_Interp *interp,
    struct ibv_device *dev,
    void *clientData VERBS_UNUSED,
    struct ibv_context **ctxPtr)
{
    *ctxPtr = ibv_open_device(dev);
    if (*ctxPtr == NULL) {
	return VerbsSysError(interp, "ibv_open_device", NULL,
		ibv_get_device_name(dev), errno);
    }
    return TCL_OK;
}

int
VerbsOpenDevice(
    Tcl_Interp *interp,
    const char *name,
    VerbsOpenProc *openProc,
    void *clientData,
    struct ibv_context **ctxPtr)
{
    struct ibv_device *dev;
    int fresh = 0, err, result;

    Tcl_MutexLock(&devicesMutex);
    while (1) {
	dev = KnownDevice(name, fresh);
	if (dev == NULL && !fresh) {
	    /* Not listed, or no longer the device listed: read again. */
	    fresh = 1;
	    if ((err = ReadDevices()) != 0) {
		Tcl_MutexUnlock(&devicesMutex);
		return VerbsSysError(interp, "ibv_get_device_list", NULL, NULL,
			err);
	    }
	    continue;
	}
	if (dev == NULL) {
	    Tcl_MutexUnlock(&devicesMutex);
	    Tcl_SetObjResult(interp, Tcl_ObjPrintf(
		    "no RDMA device named \"%s\"", name));
	    Tcl_SetErrorCode(interp, "VERBS", "LOOKUP", "device", name, NULL);
	    return TCL_ERROR;
	}
	result = openProc(interp, dev, clientData, ctxPtr);
	if (result == TCL_OK || fresh) {
	    break;
	}

	/*
	 * The device checked out but did not open: it may have gone
	 * between the check and the open.  Once more with a fresh list.
	 */

	fresh = 1;
	if (ReadDevices() != 0) {
	    break;
	}
	Tcl_ResetResult(interp);
    }
    Tcl_MutexUnlock(&devicesMutex);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * RegisterContext --
 *
 *	Give an open device context its object (a root of the tree).
 *
 * Results:
 *	A standard Tcl result, the object's name.
 *
 * Side effects:
 *	Creates a command; closes the context when that fails.
 *
 *----------------------------------------------------------------------
 */

static int
RegisterContext(
    Tcl_Interp *interp,
    struct ibv_context *ctx,
    Tcl_Obj *nameObj)
{
    VerbsContext *c = VerbsContextNew(ctx, 0);

    if (VerbsSetNonBlocking(interp, ctx->async_fd) != TCL_OK
	    || VerbsObjRegister(interp, &c->obj, NULL, nameObj) != TCL_OK) {
	ContextFree(&c->obj);
	ckfree(c);
	return TCL_ERROR;
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * ContextImportCmd --
 *
 *	verbs::context import FD ?-as NAME?: a context on the device
 *	context whose command fd is FD (ibv_import_device), e.g. one
 *	another process passed over a Unix socket, or [$ctx cget -fd] of
 *	this one.  The fd is duplicated first: closing the new context
 *	closes the copy, and FD stays the caller's.  Objects of the other
 *	context are then reached with verbs::pd import, verbs::mr import
 *	and verbs::dm import by their handles.
 *
 * Results:
 *	The context object command's name.
 *
 * Side effects:
 *	dup, ibv_import_device.
 *
 *----------------------------------------------------------------------
 */

static int
ContextImportCmd(
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
    struct ibv_context *ctx;
    uint64_t fd;
    int copy, err;

    if (VerbsCreateArgs(interp, objc, objv, "fd", options, &args, NULL)
	    != TCL_OK
	    || VerbsGetUInt(interp, "fd", objv[1], INT32_MAX, &fd) != TCL_OK) {
	return TCL_ERROR;
    }
    copy = fcntl((int) fd, F_DUPFD_CLOEXEC, 0);
    if (copy < 0) {
	return VerbsSysError(interp, "dup", NULL, Tcl_GetString(objv[1]),
		errno);
    }
    ctx = ibv_import_device(copy);
    if (ctx == NULL) {
	err = errno;
	close(copy);
	return VerbsSysError(interp, "ibv_import_device", NULL,
		Tcl_GetString(objv[1]), err);
    }
    return RegisterContext(interp, ctx, args.command);
}

/*
 *----------------------------------------------------------------------
 *
 * QueryGidTable --
 *
 *	$ctx query gid_table: every valid GID entry of every port
 *	(ibv_query_gid_table), as a list of gid_entry dicts.
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
QueryGidTable(
    Tcl_Interp *interp,
    VerbsObj *objPtr)
{
    struct ibv_context *ctx = ((VerbsContext *) objPtr)->ctx;
    struct ibv_device_attr dev;
    struct ibv_port_attr port;
    struct ibv_gid_entry *entries;
    size_t max = 0;
    ssize_t n, i;
    int p, err;
    Tcl_Obj *list;

    if ((err = ibv_query_device(ctx, &dev)) != 0) {
	return VerbsSysError(interp, "ibv_query_device", objPtr, NULL, err);
    }
    for (p = 1; p <= dev.phys_port_cnt; p++) {
	if ((err = ibv_query_port(ctx, (uint8_t) p, &port)) != 0) {
	    return VerbsSysError(interp, "ibv_query_port", objPtr, NULL, err);
	}
	max += (size_t) port.gid_tbl_len;
    }
    entries = (struct ibv_gid_entry *) ckalloc((max ? max : 1)
	    * sizeof(struct ibv_gid_entry));
    n = ibv_query_gid_table(ctx, entries, max, 0);
    if (n < 0) {
	ckfree(entries);
	return VerbsSysError(interp, "ibv_query_gid_table", objPtr, NULL,
		(int) -n);
    }
    list = Tcl_NewObj();
    for (i = 0; i < n; i++) {
	Tcl_ListObjAppendElement(NULL, list,
		VerbsStructToDict(&verbsGidEntryStruct, &entries[i]));
    }
    ckfree(entries);
    Tcl_SetObjResult(interp, list);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * QueryDevice, QueryDeviceEx, QueryCompCntrCaps, QueryRtValues, QueryPort,
 * QueryGid, QueryGidEntry, QueryPkey --
 *
 *	The queries of $ctx query, one each (QueryGidTable is above): the
 *	port and index are already parsed (objv[3] is the port's word).
 *
 * Results:
 *	A standard Tcl result: a complete dict (device, device_ex, port,
 *	gid_entry), rt_values' raw_clock, a GID, or a P_Key.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

typedef int (QueryProc)(Tcl_Interp *interp, VerbsObj *objPtr,
	Tcl_Obj *const objv[], uint64_t port, uint64_t idx);

#define QUERY_ARGS \
    Tcl_Interp *interp, VerbsObj *objPtr, \
    Tcl_Obj *const objv[] VERBS_UNUSED, uint64_t port VERBS_UNUSED, \
    uint64_t idx VERBS_UNUSED
#define CTX(o) (((VerbsContext *) (o))->ctx)

static int
QueryDevice(QUERY_ARGS)
{
    struct ibv_device_attr attr;
    int err = ibv_query_device(CTX(objPtr), &attr);

    if (err != 0) {
	return VerbsSysError(interp, "ibv_query_device", objPtr, NULL, err);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsDeviceAttrStruct,
	    &attr));
    return TCL_OK;
}

static int
QueryDeviceEx(QUERY_ARGS)
{
    struct ibv_device_attr_ex attr;
    int err;

    memset(&attr, 0, sizeof(attr));
    if ((err = ibv_query_device_ex(CTX(objPtr), NULL, &attr)) != 0) {
	return VerbsSysError(interp, "ibv_query_device_ex", objPtr, NULL,
		err);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsDeviceAttrExStruct,
	    &attr));
    return TCL_OK;
}

static int
QueryGidTableRow(QUERY_ARGS)
{
    return QueryGidTable(interp, objPtr);
}

static int
QueryCompCntrCaps(QUERY_ARGS)
{
    return VerbsCompCntrCaps(interp, objPtr);
}

static int
QueryRtValues(QUERY_ARGS)
{
    struct ibv_values_ex values;
    int err;

    memset(&values, 0, sizeof(values));
    values.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
    if ((err = ibv_query_rt_values_ex(CTX(objPtr), &values)) != 0) {
	return VerbsSysError(interp, "ibv_query_rt_values_ex", objPtr, NULL,
		err);
    }
    Tcl_SetObjResult(interp, Tcl_ObjPrintf("raw_clock %lld",
	    (long long) values.raw_clock.tv_sec * 1000000000LL
	    + values.raw_clock.tv_nsec));
    return TCL_OK;
}

static int
QueryPort(QUERY_ARGS)
{
    struct ibv_port_attr attr;
    int err = ibv_query_port(CTX(objPtr), (uint8_t) port, &attr);

    if (err != 0) {
	return VerbsSysError(interp, "ibv_query_port", objPtr,
		Tcl_GetString(objv[3]), err);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsPortAttrStruct, &attr));
    return TCL_OK;
}

/*
 * The port's effective speed, in units of 100 Mb/s (ibv_query_port_speed,
 * rdma-core 62 and later).
 */

static int
QueryPortSpeed(QUERY_ARGS)
{
#ifdef HAVE_IBV_QUERY_PORT_SPEED
    uint64_t speed = 0;
    int err = ibv_query_port_speed(CTX(objPtr), (uint32_t) port, &speed);

    if (err != 0) {
	return VerbsSysError(interp, "ibv_query_port_speed", objPtr,
		Tcl_GetString(objv[3]), err);
    }
    Tcl_SetObjResult(interp, VerbsU64Obj(speed));
    return TCL_OK;
#else
    return VerbsSysError(interp, "ibv_query_port_speed", objPtr,
	    "needs rdma-core 62 or later", EOPNOTSUPP);
#endif
}

static int
QueryGid(QUERY_ARGS)
{
    union ibv_gid gid;

    if (ibv_query_gid(CTX(objPtr), (uint8_t) port, (int) idx, &gid) != 0) {
	return VerbsSysError(interp, "ibv_query_gid", objPtr, NULL,
		errno ? errno : EINVAL);
    }
    Tcl_SetObjResult(interp, VerbsGidObj(&gid));
    return TCL_OK;
}

static int
QueryGidEntry(QUERY_ARGS)
{
    struct ibv_gid_entry entry;
    int err = ibv_query_gid_ex(CTX(objPtr), (uint32_t) port, (uint32_t) idx,
	    &entry, 0);

    if (err != 0) {
	return VerbsSysError(interp, "ibv_query_gid_ex", objPtr, NULL, err);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsGidEntryStruct,
	    &entry));
    return TCL_OK;
}

static int
QueryPkey(QUERY_ARGS)
{
    uint16_t pkey;

    if (ibv_query_pkey(CTX(objPtr), (uint8_t) port, (int) idx, &pkey) != 0) {
	return VerbsSysError(interp, "ibv_query_pkey", objPtr, NULL,
		errno ? errno : EINVAL);
    }
    Tcl_SetObjResult(interp, Tcl_ObjPrintf("0x%04x", ntohs(pkey)));
    return TCL_OK;
}

/*
 * The index of a P_Key in the port's table (ibv_get_pkey_index): the
 * first that holds it; a P_Key the table does not hold is an error.
 */

static int
QueryPkeyIndex(QUERY_ARGS)
{
    int i;

    errno = 0;
    i = ibv_get_pkey_index(CTX(objPtr), (uint8_t) port, htons((uint16_t) idx));
    if (i < 0) {
	return VerbsSysError(interp, "ibv_get_pkey_index", objPtr,
		Tcl_GetString(objv[4]), errno ? errno : ENOENT);
    }
    Tcl_SetObjResult(interp, Tcl_NewIntObj(i));
    return TCL_OK;
}

#undef QUERY_ARGS
#undef CTX

/*
 *----------------------------------------------------------------------
 *
 * ContextQuery --
 *
 *	$ctx query comp_cntr_caps | device | device_ex | gid PORT INDEX | gid_entry PORT
 *	INDEX | gid_table | pkey PORT INDEX | pkey_index PORT PKEY | port
 *	PORT | port_speed PORT | rt_values: one row each, with its
 *	arguments (a PORT, then an INDEX or a P_Key).
 *
 * Results:
 *	The query's.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
ContextQuery(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const struct QueryRow {
	const char *name;
	int nargs;		/* 0, 1 (PORT) or 2 (PORT, then a second). */
	QueryProc *proc;
	const char *second;	/* The second word's key in errors, */
	const char *usage;	/* in the usage, */
	uint64_t max;		/* its largest value. */
    } queries[] = {
	{"comp_cntr_caps", 0, QueryCompCntrCaps, NULL, NULL, 0},
	{"device", 0, QueryDevice, NULL, NULL, 0},
	{"device_ex", 0, QueryDeviceEx, NULL, NULL, 0},
	{"gid", 2, QueryGid, "index", " INDEX", INT32_MAX},
	{"gid_entry", 2, QueryGidEntry, "index", " INDEX", INT32_MAX},
	{"gid_table", 0, QueryGidTableRow, NULL, NULL, 0},
	{"pkey", 2, QueryPkey, "index", " INDEX", INT32_MAX},
	{"pkey_index", 2, QueryPkeyIndex, "pkey", " PKEY", UINT16_MAX},
	{"port", 1, QueryPort, NULL, NULL, 0},
	{"port_speed", 1, QueryPortSpeed, NULL, NULL, 0},
	{"rt_values", 0, QueryRtValues, NULL, NULL, 0},
	{NULL, 0, NULL, NULL, NULL, 0}
    };
    const struct QueryRow *q;
    int index;
    uint64_t port = 0, idx = 0;

    if (Tcl_GetIndexFromObjStruct(interp, objv[2], queries,
	    sizeof(queries[0]), "query", 0, &index) != TCL_OK) {
	return TCL_ERROR;
    }
    q = &queries[index];
    if (objc - 3 != q->nargs) {
	Tcl_Obj *usage = Tcl_ObjPrintf("%s%s%s", q->name,
		q->nargs >= 1 ? " PORT" : "", q->nargs == 2 ? q->usage : "");

	Tcl_IncrRefCount(usage);
	Tcl_WrongNumArgs(interp, 2, objv, Tcl_GetString(usage));
	Tcl_DecrRefCount(usage);
	return TCL_ERROR;
    }
    if (q->nargs >= 1 && VerbsGetUInt(interp, "port", objv[3], 255, &port)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (q->nargs == 2 && VerbsGetUInt(interp, q->second, objv[4], q->max,
	    &idx) != TCL_OK) {
	return TCL_ERROR;
    }
    return q->proc(interp, objPtr, objv, port, idx);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsForkInitCmd, VerbsForkStatusCmd --
 *
 *	verbs::fork_init: make registered memory safe across fork()
 *	(ibv_fork_init; call it before any memory is registered).
 *	verbs::fork_status: what libibverbs does about fork, as
 *	ibv_is_fork_initialized says: disabled, enabled or unneeded (the
 *	kernel copes by itself).
 *
 * Results:
 *	Both return the status name.
 *
 * Side effects:
 *	fork_init changes how libibverbs registers memory.
 *
 *----------------------------------------------------------------------
 */

static const VerbsEnum forkStatus[] = {
    {"disabled", IBV_FORK_DISABLED},
    {"enabled", IBV_FORK_ENABLED},
    {"unneeded", IBV_FORK_UNNEEDED},
    {NULL, 0}
};

int
VerbsForkInitCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    int err;

    if (objc != 1) {
	Tcl_WrongNumArgs(interp, 1, objv, NULL);
	return TCL_ERROR;
    }
    if ((err = ibv_fork_init()) != 0) {
	return VerbsSysError(interp, "ibv_fork_init", NULL, NULL, err);
    }
    Tcl_SetObjResult(interp, VerbsEnumObj(forkStatus,
	    ibv_is_fork_initialized()));
    return TCL_OK;
}

int
VerbsForkStatusCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    if (objc != 1) {
	Tcl_WrongNumArgs(interp, 1, objv, NULL);
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, VerbsEnumObj(forkStatus,
	    ibv_is_fork_initialized()));
    return TCL_OK;
}
