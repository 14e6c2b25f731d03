/*
 * verbsAttr.c --
 *
 *	Attribute dicts: one table per C struct drives both directions
 *	(struct -> dict for queries, dict -> struct plus attr_mask for
 *	modify), enum and flag names, GIDs, and the error helpers.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <arpa/inet.h>
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/*
 * Flags of newer kernels (uapi rdma/ib_user_ioctl_verbs.h and ib_verbs.h)
 * that rdma-core's verbs.h names only in later versions, or not at all
 * (the device capabilities): named here so that the tables are the same
 * against every rdma-core, and a device or kernel without them says so
 * (by not listing them, or by refusing them with an error).
 */

#define VERBS_ACCESS_FLUSH_GLOBAL	(1 << 8)
#define VERBS_ACCESS_FLUSH_PERSISTENT	(1 << 9)
#define VERBS_ODP_SUPPORT_FLUSH		(1 << 6)
#define VERBS_ODP_SUPPORT_ATOMIC_WRITE	(1 << 7)
#define VERBS_DEVICE_FLUSH_GLOBAL	(1ULL << 38)
#define VERBS_DEVICE_FLUSH_PERSISTENT	(1ULL << 39)
#define VERBS_DEVICE_ATOMIC_WRITE	(1ULL << 40)
#define VERBS_WC_FLUSH			8	/* IBV_WC_FLUSH */

/*
 * ------------------------------------------------------------------------
 * Enum and flag names: the C names without the IBV_ prefix and type part,
 * in lower case.  Where a value has several names the first is the one
 * printed; the others are accepted as input.
 * ------------------------------------------------------------------------
 */

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
const VerbsEnum verbsQpTypes[] = {
    {"rc", IBV_QPT_RC},
    {"uc", IBV_QPT_UC},
    {"ud", IBV_QPT_UD},
    {"raw_packet", IBV_QPT_RAW_PACKET},
    {"xrc_send", IBV_QPT_XRC_SEND},
    {"xrc_recv", IBV_QPT_XRC_RECV},
    {NULL, 0}
};
const VerbsEnum verbsSendFlags[] = {
    {"fence", IBV_SEND_FENCE},
    {"signaled", IBV_SEND_SIGNALED},
    {"solicited", IBV_SEND_SOLICITED},
    {"inline", IBV_SEND_INLINE},
    {"ip_csum", IBV_SEND_IP_CSUM},
    {NULL, 0}
};
const VerbsEnum verbsWrOpcode[] = {
    {"rdma_write", IBV_WR_RDMA_WRITE},
    {"rdma_write_with_imm", IBV_WR_RDMA_WRITE_WITH_IMM},
    {"send", IBV_WR_SEND},
    {"send_with_imm", IBV_WR_SEND_WITH_IMM},
    {"rdma_read", IBV_WR_RDMA_READ},
    {"atomic_cmp_and_swp", IBV_WR_ATOMIC_CMP_AND_SWP},
    {"atomic_fetch_and_add", IBV_WR_ATOMIC_FETCH_AND_ADD},
    {"local_inv", IBV_WR_LOCAL_INV},
    {"bind_mw", IBV_WR_BIND_MW},
    {"send_with_inv", IBV_WR_SEND_WITH_INV},
    {"tso", IBV_WR_TSO},
    {"atomic_write", IBV_WR_ATOMIC_WRITE},
    {"flush", VERBS_WR_FLUSH},
    {NULL, 0}
};
const VerbsEnum verbsMigState[] = {
    {"migrated", IBV_MIG_MIGRATED},
    {"rearm", IBV_MIG_REARM},
    {"armed", IBV_MIG_ARMED},
    {NULL, 0}
};
const VerbsEnum verbsQpState[] = {
    {"reset", IBV_QPS_RESET},
    {"init", IBV_QPS_INIT},
    {"rtr", IBV_QPS_RTR},
    {"rts", IBV_QPS_RTS},
    {"sqd", IBV_QPS_SQD},
    {"sqe", IBV_QPS_SQE},
    {"err", IBV_QPS_ERR},
    {"unknown", IBV_QPS_UNKNOWN},
    {NULL, 0}
};
const VerbsEnum verbsAccessFlags[] = {
    {"local_write", IBV_ACCESS_LOCAL_WRITE},
    {"remote_write", IBV_ACCESS_REMOTE_WRITE},
    {"remote_read", IBV_ACCESS_REMOTE_READ},
    {"remote_atomic", IBV_ACCESS_REMOTE_ATOMIC},
    {"mw_bind", IBV_ACCESS_MW_BIND},
    {"zero_based", IBV_ACCESS_ZERO_BASED},
    {"on_demand", IBV_ACCESS_ON_DEMAND},
    {"hugetlb", IBV_ACCESS_HUGETLB},
    {"flush_global", VERBS_ACCESS_FLUSH_GLOBAL},
    {"flush_persistent", VERBS_ACCESS_FLUSH_PERSISTENT},
    {"relaxed_ordering", IBV_ACCESS_RELAXED_ORDERING},
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
const VerbsEnum verbsRate[] = {
    {"max", IBV_RATE_MAX},
    {"2_5_gbps", IBV_RATE_2_5_GBPS},
    {"5_gbps", IBV_RATE_5_GBPS},
    {"10_gbps", IBV_RATE_10_GBPS},
    {"20_gbps", IBV_RATE_20_GBPS},
    {"30_gbps", IBV_RATE_30_GBPS},
    {"40_gbps", IBV_RATE_40_GBPS},
    {"60_gbps", IBV_RATE_60_GBPS},
    {"80_gbps", IBV_RATE_80_GBPS},
    {"120_gbps", IBV_RATE_120_GBPS},
    {"14_gbps", IBV_RATE_14_GBPS},
    {"56_gbps", IBV_RATE_56_GBPS},
    {"112_gbps", IBV_RATE_112_GBPS},
    {"168_gbps", IBV_RATE_168_GBPS},
    {"25_gbps", IBV_RATE_25_GBPS},
    {"100_gbps", IBV_RATE_100_GBPS},
    {"200_gbps", IBV_RATE_200_GBPS},
    {"300_gbps", IBV_RATE_300_GBPS},
    {"28_gbps", IBV_RATE_28_GBPS},
    {"50_gbps", IBV_RATE_50_GBPS},
    {"400_gbps", IBV_RATE_400_GBPS},
    {"600_gbps", IBV_RATE_600_GBPS},
    {"800_gbps", IBV_RATE_800_GBPS},
    {"1200_gbps", IBV_RATE_1200_GBPS},
    {NULL, 0}
};
const VerbsEnum verbsMtu[] = {
    {"256", IBV_MTU_256},
    {"512", IBV_MTU_512},
    {"1024", IBV_MTU_1024},
    {"2048", IBV_MTU_2048},
    {"4096", IBV_MTU_4096},
    {"mtu_256", IBV_MTU_256},
    {"mtu_512", IBV_MTU_512},
    {"mtu_1024", IBV_MTU_1024},
    {"mtu_2048", IBV_MTU_2048},
    {"mtu_4096", IBV_MTU_4096},
    {NULL, 0}
};
const VerbsEnum verbsEventType[] = {
    {"cq_err", IBV_EVENT_CQ_ERR},
    {"qp_fatal", IBV_EVENT_QP_FATAL},
    {"qp_req_err", IBV_EVENT_QP_REQ_ERR},
    {"qp_access_err", IBV_EVENT_QP_ACCESS_ERR},
    {"comm_est", IBV_EVENT_COMM_EST},
    {"sq_drained", IBV_EVENT_SQ_DRAINED},
    {"path_mig", IBV_EVENT_PATH_MIG},
    {"path_mig_err", IBV_EVENT_PATH_MIG_ERR},
    {"device_fatal", IBV_EVENT_DEVICE_FATAL},
    {"port_active", IBV_EVENT_PORT_ACTIVE},
    {"port_err", IBV_EVENT_PORT_ERR},
    {"lid_change", IBV_EVENT_LID_CHANGE},
    {"pkey_change", IBV_EVENT_PKEY_CHANGE},
    {"sm_change", IBV_EVENT_SM_CHANGE},
    {"srq_err", IBV_EVENT_SRQ_ERR},
    {"srq_limit_reached", IBV_EVENT_SRQ_LIMIT_REACHED},
    {"qp_last_wqe_reached", IBV_EVENT_QP_LAST_WQE_REACHED},
    {"client_reregister", IBV_EVENT_CLIENT_REREGISTER},
    {"gid_change", IBV_EVENT_GID_CHANGE},
    {"wq_fatal", IBV_EVENT_WQ_FATAL},
    {NULL, 0}
};
const VerbsEnum verbsSendOps[] = {
    {"rdma_write", IBV_QP_EX_WITH_RDMA_WRITE},
    {"rdma_write_with_imm", IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM},
    {"send", IBV_QP_EX_WITH_SEND},
    {"send_with_imm", IBV_QP_EX_WITH_SEND_WITH_IMM},
    {"rdma_read", IBV_QP_EX_WITH_RDMA_READ},
    {"atomic_cmp_and_swp", IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP},
    {"atomic_fetch_and_add", IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD},
    {"local_inv", IBV_QP_EX_WITH_LOCAL_INV},
    {"bind_mw", IBV_QP_EX_WITH_BIND_MW},
    {"send_with_inv", IBV_QP_EX_WITH_SEND_WITH_INV},
    {"atomic_write", IBV_QP_EX_WITH_ATOMIC_WRITE},
    {"flush", VERBS_QP_EX_WITH_FLUSH},
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
    {NULL, 0}
};
const VerbsEnum verbsSrqTypes[] = {
    {"basic", IBV_SRQT_BASIC},
    {"xrc", IBV_SRQT_XRC},
    {"tm", IBV_SRQT_TM},
    {NULL, 0}
};
const VerbsEnum verbsXrcdOflags[] = {
    {"create", O_CREAT},
    {"excl", O_EXCL},
    {NULL, 0}
};
const VerbsEnum verbsOpsOpcode[] = {
    {"add", IBV_WR_TAG_ADD},
    {"del", IBV_WR_TAG_DEL},
    {"sync", IBV_WR_TAG_SYNC},
    {NULL, 0}
};
const VerbsEnum verbsOpsFlags[] = {
    {"signaled", IBV_OPS_SIGNALED},
    {"tm_sync", IBV_OPS_TM_SYNC},
    {NULL, 0}
};
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

/*
 * ------------------------------------------------------------------------
 * Struct tables.
 * ------------------------------------------------------------------------
 */

#define RO VF_READONLY

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

#define CAP(f) VERBS_FIELD(struct ibv_qp_cap, f, VF_UINT, NULL, 0, 0)
static const VerbsField qpCapFields[] = {
    CAP(max_send_wr),
    CAP(max_recv_wr),
    CAP(max_send_sge),
    CAP(max_recv_sge),
    CAP(max_inline_data),
    VERBS_FIELD_END
};
const VerbsStruct verbsQpCapStruct = {"qp cap", qpCapFields};

#define GR(f, kind) VERBS_FIELD(struct ibv_global_route, f, kind, NULL, 0, 0)
static const VerbsField grhFields[] = {
    GR(dgid, VF_GID),
    GR(flow_label, VF_UINT),
    GR(sgid_index, VF_UINT),
    GR(hop_limit, VF_UINT),
    GR(traffic_class, VF_UINT),
    VERBS_FIELD_END
};
static const VerbsStruct grhStruct = {"grh", grhFields};

#define AH(f, kind, table) \
    VERBS_FIELD(struct ibv_ah_attr, f, kind, table, 0, 0)
static const VerbsField ahAttrFields[] = {
    AH(grh, VF_STRUCT, &grhStruct),
    AH(dlid, VF_UINT, NULL),
    AH(sl, VF_UINT, NULL),
    AH(src_path_bits, VF_UINT, NULL),
    AH(static_rate, VF_ENUM, verbsRate),
    AH(is_global, VF_UINT, NULL),
    AH(port_num, VF_UINT, NULL),
    VERBS_FIELD_END
};
const VerbsStruct verbsAhAttrStruct = {"ah attribute", ahAttrFields};

#define QA(f, kind, table, mask) \
    VERBS_FIELD(struct ibv_qp_attr, f, kind, table, mask, 0)
static const VerbsField qpAttrFields[] = {
    QA(qp_state, VF_ENUM, verbsQpState, IBV_QP_STATE),
    QA(cur_qp_state, VF_ENUM, verbsQpState, IBV_QP_CUR_STATE),
    QA(path_mtu, VF_ENUM, verbsMtu, IBV_QP_PATH_MTU),
    QA(path_mig_state, VF_ENUM, verbsMigState, IBV_QP_PATH_MIG_STATE),
    QA(qkey, VF_UINT, NULL, IBV_QP_QKEY),
    QA(rq_psn, VF_UINT, NULL, IBV_QP_RQ_PSN),
    QA(sq_psn, VF_UINT, NULL, IBV_QP_SQ_PSN),
    QA(dest_qp_num, VF_UINT, NULL, IBV_QP_DEST_QPN),
    QA(qp_access_flags, VF_FLAGS, verbsAccessFlags, IBV_QP_ACCESS_FLAGS),
    QA(cap, VF_STRUCT, &verbsQpCapStruct, IBV_QP_CAP),
    QA(ah_attr, VF_STRUCT, &verbsAhAttrStruct, IBV_QP_AV),
    QA(alt_ah_attr, VF_STRUCT, &verbsAhAttrStruct, IBV_QP_ALT_PATH),
    QA(pkey_index, VF_UINT, NULL, IBV_QP_PKEY_INDEX),
    QA(alt_pkey_index, VF_UINT, NULL, IBV_QP_ALT_PATH),
    QA(en_sqd_async_notify, VF_UINT, NULL, IBV_QP_EN_SQD_ASYNC_NOTIFY),
    VERBS_FIELD(struct ibv_qp_attr, sq_draining, VF_UINT, NULL, 0, RO),
    QA(max_rd_atomic, VF_UINT, NULL, IBV_QP_MAX_QP_RD_ATOMIC),
    QA(max_dest_rd_atomic, VF_UINT, NULL, IBV_QP_MAX_DEST_RD_ATOMIC),
    QA(min_rnr_timer, VF_UINT, NULL, IBV_QP_MIN_RNR_TIMER),
    QA(port_num, VF_UINT, NULL, IBV_QP_PORT),
    QA(timeout, VF_UINT, NULL, IBV_QP_TIMEOUT),
    QA(retry_cnt, VF_UINT, NULL, IBV_QP_RETRY_CNT),
    QA(rnr_retry, VF_UINT, NULL, IBV_QP_RNR_RETRY),
    QA(alt_port_num, VF_UINT, NULL, IBV_QP_ALT_PATH),
    QA(alt_timeout, VF_UINT, NULL, IBV_QP_ALT_PATH),
    QA(rate_limit, VF_UINT, NULL, IBV_QP_RATE_LIMIT),
    VERBS_FIELD_END
};
const VerbsStruct verbsQpAttrStruct = {"qp attribute", qpAttrFields};

#define SA(f, mask) VERBS_FIELD(struct ibv_srq_attr, f, VF_UINT, NULL, mask, 0)
static const VerbsField srqAttrFields[] = {
    SA(max_wr, IBV_SRQ_MAX_WR),
    VERBS_FIELD(struct ibv_srq_attr, max_sge, VF_UINT, NULL, 0, RO),
    SA(srq_limit, IBV_SRQ_LIMIT),
    VERBS_FIELD_END
};
const VerbsStruct verbsSrqAttrStruct = {"srq attribute", srqAttrFields};

static const VerbsField tmCapFields[] = {
    VERBS_FIELD(struct ibv_tm_cap, max_num_tags, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(struct ibv_tm_cap, max_ops, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
const VerbsStruct verbsTmCapStruct = {"tm cap", tmCapFields};

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
const VerbsStruct verbsWcStruct = {"work completion", wcFields};
const VerbsStruct verbsWcInputStruct = {"work completion key", wcInputFields};

/*
 *----------------------------------------------------------------------
 *
 * VerbsTimeoutCode --
 *
 *	The errorCode of a wait that timed out: {VERBS TIMEOUT GOT}, GOT
 *	being how much of what was waited for had arrived.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Sets the errorCode.
 *
 *----------------------------------------------------------------------
 */

void
VerbsTimeoutCode(
    Tcl_Interp *interp,
    Tcl_WideInt got)
{
    Tcl_SetObjErrorCode(interp, Tcl_NewListObj(3, (Tcl_Obj *[]) {
	    Tcl_NewStringObj("VERBS", -1), Tcl_NewStringObj("TIMEOUT", -1),
	    Tcl_NewWideIntObj(got)}));
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsArgError, VerbsSysError --
 *
 *	Leave an error in the interpreter.  VerbsArgError is for bad input:
 *	the message is formatted, the errorCode is {VERBS ARG key value}.
 *	VerbsSysError is for a failing library call: "CALL on OBJ (WHAT):
 *	strerror" with errorCode {VERBS SYS CALL ERRNAME {message}}.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the result and errorCode.
 *
 *----------------------------------------------------------------------
 */

int
VerbsArgError(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    const char *format,
    ...)
{
    va_list ap, again;
    char *buf;
    int len;

    /*
     * Measure first: a message quoting a long value is never cut.
     */

    va_start(ap, format);
    va_copy(again, ap);
    len = vsnprintf(NULL, 0, format, ap);
    va_end(ap);
    buf = ckalloc(len + 1);
    vsnprintf(buf, (size_t) len + 1, format, again);
    va_end(again);
    Tcl_SetObjResult(interp, Tcl_NewStringObj(buf, len));
    ckfree(buf);
    Tcl_SetErrorCode(interp, "VERBS", "ARG", key,
	    valueObj ? Tcl_GetString(valueObj) : "", NULL);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsStateError --
 *
 *	The error of a method called on an object in a state where the C
 *	library would refuse it or, worse, dereference something not yet
 *	set up: "::verbs::cmid1 is idle: resolve_route needs ...", with the
 *	errorCode {VERBS STATE type state method}.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the interpreter's result and errorCode.
 *
 *----------------------------------------------------------------------
 */

int
VerbsStateError(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    const char *state,
    const char *method,
    const char *needs)
{
    Tcl_Obj *name = VerbsObjName(objPtr);

    Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s is %s: %s needs %s",
	    Tcl_GetString(name), state, method, needs));
    Tcl_DecrRefCount(name);
    Tcl_SetErrorCode(interp, "VERBS", "STATE", objPtr->typePtr->name, state,
	    method, NULL);
    return TCL_ERROR;
}

int
VerbsSysError(
    Tcl_Interp *interp,
    const char *call,
    VerbsObj *objPtr,
    const char *what,
    int errnum)
{
    Tcl_Obj *msg = Tcl_NewStringObj(call, -1);
    const char *text;

    if (errnum <= 0) {
	errnum = EIO;
    }
    Tcl_SetErrno(errnum);
    text = Tcl_ErrnoMsg(errnum);
    if (objPtr) {
	Tcl_Obj *name = VerbsObjName(objPtr);

	Tcl_AppendPrintfToObj(msg, " on %s", Tcl_GetString(name));
	Tcl_DecrRefCount(name);
    }
    if (what) {
	Tcl_AppendPrintfToObj(msg, " (%s)", what);
    }
    Tcl_AppendPrintfToObj(msg, ": %s", text);
    Tcl_SetObjResult(interp, msg);
    Tcl_SetErrorCode(interp, "VERBS", "SYS", call, Tcl_ErrnoId(), text, NULL);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsEnumObj, VerbsFlagsObj --
 *
 *	Name an enum value, or a flag mask as a list of names.  Values with
 *	no name come out as integers (the unnamed bits of a mask as one
 *	integer at the end of the list).
 *
 * Results:
 *	A new Tcl_Obj.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

Tcl_Obj *
VerbsEnumObj(
    const VerbsEnum *table,
    uint64_t value)
{
    for (; table->name; table++) {
	if (table->value == value) {
	    return Tcl_NewStringObj(table->name, -1);
	}
    }
    return Tcl_NewWideIntObj((Tcl_WideInt) value);
}

Tcl_Obj *
VerbsFlagsObj(
    const VerbsEnum *table,
    uint64_t value)
{
    Tcl_Obj *list = Tcl_NewObj();

    for (; table->name && value; table++) {
	if (table->value != 0 && (value & table->value) == table->value) {
	    Tcl_ListObjAppendElement(NULL, list,
		    Tcl_NewStringObj(table->name, -1));
	    value &= ~table->value;
	}
    }
    if (value) {
	Tcl_ListObjAppendElement(NULL, list,
		Tcl_NewWideIntObj((Tcl_WideInt) value));
    }
    return list;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsGetTimeout --
 *
 *	A -timeout value: milliseconds, or -1 for no limit.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Sets *msPtr.
 *
 *----------------------------------------------------------------------
 */

int
VerbsGetTimeout(
    Tcl_Interp *interp,
    Tcl_Obj *valueObj,
    int *msPtr)
{
    Tcl_WideInt w;
    const char *s;
    int ok = (Tcl_GetWideIntFromObj(NULL, valueObj, &w) == TCL_OK
	    && w >= -1 && w <= INT32_MAX);

    /*
     * Tcl 8.6 reads 2^64-1 as the wide integer -1 (it wraps values up to
     * 2^64): a negative value must have been written with a minus sign,
     * or a huge limit would become no limit at all.
     */

    if (ok && w < 0) {
	for (s = Tcl_GetString(valueObj); *s == ' ' || *s == '\t'; s++) {
	    /* Leading white space. */
	}
	ok = (*s == '-');
    }
    if (!ok) {
	return VerbsArgError(interp, "-timeout", valueObj,
		"bad -timeout \"%s\": must be milliseconds, or -1 for no limit",
		Tcl_GetString(valueObj));
    }
    *msPtr = (int) w;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsCheckLength --
 *
 *	A size option (-length, -count, -size) must be at least 1.
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
VerbsCheckLength(
    Tcl_Interp *interp,
    const char *key,
    uint64_t value)
{
    Tcl_Obj *v;

    if (value > 0) {
	return TCL_OK;
    }
    v = Tcl_NewWideIntObj((Tcl_WideInt) value);
    Tcl_IncrRefCount(v);
    VerbsArgError(interp, key, v, "bad %s \"%s\": must be at least 1",
	    key, Tcl_GetString(v));
    Tcl_DecrRefCount(v);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsCheckRange --
 *
 *	The range check, and its error, for any object of SIZE bytes (an
 *	MR, device memory, a DevX UMEM): "range OFF+LEN is outside NAME
 *	(length SIZE)", errorCode {VERBS ARG offset|length VALUE}.
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
VerbsCheckRange(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    uint64_t size,
    uint64_t off,
    uint64_t len,
    int lengthAtFault)		/* The error names the length, else the
				 * offset. */
{
    Tcl_Obj *name, *value;

    if (off <= size && len <= size - off) {
	return TCL_OK;
    }
    name = VerbsObjName(objPtr);
    value = Tcl_NewWideIntObj((Tcl_WideInt) (lengthAtFault ? len : off));
    Tcl_IncrRefCount(value);
    VerbsArgError(interp, lengthAtFault ? "length" : "offset", value,
	    "range %llu+%llu is outside %s (length %llu)",
	    (unsigned long long) off, (unsigned long long) len,
	    Tcl_GetString(name), (unsigned long long) size);
    Tcl_DecrRefCount(value);
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsGetRange, VerbsGetWrite --
 *
 *	The arguments of the read and write methods of memory objects of
 *	SIZE bytes (MR, device memory, DevX UMEM), parsed and checked
 *	(VerbsCheckRange) in one way: $obj read OFFSET LENGTH (lengthObj
 *	NULL: the length already in *lenPtr), $obj write OFFSET BYTES.
 *	An out of range error names the length, unless the offset itself
 *	lies past the end (for a read).
 *
 * Results:
 *	A standard Tcl result; the offset, and the length or the bytes.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
VerbsGetRange(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    uint64_t size,
    Tcl_Obj *offsetObj,
    Tcl_Obj *lengthObj,
    uint64_t *offPtr,
    uint64_t *lenPtr)
{
    if (VerbsGetUInt(interp, "offset", offsetObj, INT64_MAX, offPtr)
	    != TCL_OK || (lengthObj && VerbsGetUInt(interp, "length",
	    lengthObj, INT64_MAX, lenPtr) != TCL_OK)) {
	return TCL_ERROR;
    }
    return VerbsCheckRange(interp, objPtr, size, *offPtr, *lenPtr,
	    *offPtr <= size && lengthObj);
}

const unsigned char *
VerbsGetWrite(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    uint64_t size,
    Tcl_Obj *offsetObj,
    Tcl_Obj *bytesObj,
    uint64_t *offPtr,
    Tcl_Size *lenPtr)
{
    const unsigned char *bytes;

    /*
     * The offset first: its integer parse could free the byte array rep
     * if both words are one object.
     */

    if (VerbsGetUInt(interp, "offset", offsetObj, INT64_MAX, offPtr)
	    != TCL_OK) {
	return NULL;
    }
    bytes = VerbsGetBytes(interp, "bytes", bytesObj, lenPtr);
    if (bytes == NULL || VerbsCheckRange(interp, objPtr, size, *offPtr,
	    (uint64_t) *lenPtr, 1) != TCL_OK) {
	return NULL;
    }
    return bytes;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsGetEnum, VerbsGetFlags, VerbsGetBoolean, VerbsGetUInt,
 * VerbsCheckMax --
 *
 *	Parse an enum (a name, or the number of one), a flag list (names or
 *	numbers of known flags, or'ed together), a boolean, or an unsigned
 *	integer no larger than max.  VerbsCheckMax: an integer already
 *	parsed (an option whose limit is known only later) is no larger
 *	than max, with VerbsGetUInt's error.
 *
 * Results:
 *	TCL_OK with *valuePtr set, or TCL_ERROR with a message naming the
 *	key and what is allowed (errorCode {VERBS ARG key value}).
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
LookupName(
    const VerbsEnum *table,
    const char *name,
    uint64_t *valuePtr)
{
    for (; table->name; table++) {
	if (strcmp(table->name, name) == 0) {
	    *valuePtr = table->value;
	    return 1;
	}
    }
    return 0;
}

static int
BadName(
    Tcl_Interp *interp,
    const VerbsEnum *table,
    const char *key,
    Tcl_Obj *valueObj)
{
    Tcl_Obj *msg = Tcl_ObjPrintf("bad %s \"%s\": must be ", key,
	    Tcl_GetString(valueObj));

    for (; table->name; table++) {
	Tcl_AppendPrintfToObj(msg, "%s, ", table->name);
    }
    Tcl_AppendToObj(msg, "or the number of one of them", -1);
    Tcl_SetObjResult(interp, msg);
    Tcl_SetErrorCode(interp, "VERBS", "ARG", key, Tcl_GetString(valueObj),
	    NULL);
    return TCL_ERROR;
}

int
VerbsGetEnum(
    Tcl_Interp *interp,
    const VerbsEnum *table,
    const char *key,
    Tcl_Obj *valueObj,
    uint64_t *valuePtr)
{
    const VerbsEnum *e;
    Tcl_WideInt w;

    if (LookupName(table, Tcl_GetString(valueObj), valuePtr)) {
	return TCL_OK;
    }

    /*
     * A number must be one of the enum's values: the library and the
     * kernel do not all check (rxe oopses on an unknown WR opcode).
     */

    if (Tcl_GetWideIntFromObj(NULL, valueObj, &w) == TCL_OK && w >= 0) {
	for (e = table; e->name; e++) {
	    if (e->value == (uint64_t) w) {
		*valuePtr = e->value;
		return TCL_OK;
	    }
	}
    }
    return BadName(interp, table, key, valueObj);
}

int
VerbsGetFlags(
    Tcl_Interp *interp,
    const VerbsEnum *table,
    const char *key,
    Tcl_Obj *valueObj,
    uint64_t *valuePtr)
{
    Tcl_Obj **elems;
    const VerbsEnum *e;
    Tcl_Size n, i;
    uint64_t v, known = 0, result = 0;
    Tcl_WideInt w;

    if (Tcl_ListObjGetElements(NULL, valueObj, &n, &elems) != TCL_OK) {
	return VerbsArgError(interp, key, valueObj,
		"bad %s \"%s\": must be a list of flags", key,
		Tcl_GetString(valueObj));
    }
    for (e = table; e->name; e++) {
	known |= e->value;
    }
    for (i = 0; i < n; i++) {
	if (LookupName(table, Tcl_GetString(elems[i]), &v)) {
	    result |= v;
	} else if (Tcl_GetWideIntFromObj(NULL, elems[i], &w) == TCL_OK
		&& w >= 0 && ((uint64_t) w & ~known) == 0) {
	    /* A number may combine flags, but only known ones. */
	    result |= (uint64_t) w;
	} else {
	    return BadName(interp, table, key, elems[i]);
	}
    }
    *valuePtr = result;
    return TCL_OK;
}

int
VerbsGetBoolean(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    int *valuePtr)
{
    if (Tcl_GetBooleanFromObj(NULL, valueObj, valuePtr) != TCL_OK) {
	return VerbsArgError(interp, key, valueObj,
		"bad %s \"%s\": must be a boolean", key,
		Tcl_GetString(valueObj));
    }
    return TCL_OK;
}

int
VerbsGetUInt(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    uint64_t max,
    uint64_t *valuePtr)
{
    Tcl_WideInt w;
    const char *digits = Tcl_GetString(valueObj);

    while (*digits == ' ' || *digits == '\t') {
	digits++;
    }

    /*
     * Tcl 8.6 wraps bignums below 2**64 in magnitude into wide ints, so a
     * minus sign is checked on the string.
     */

    if (*digits != '-' && Tcl_GetWideIntFromObj(NULL, valueObj, &w) == TCL_OK
	    && w >= 0 && (uint64_t) w <= max) {
	*valuePtr = (uint64_t) w;
	return TCL_OK;
    }
    if (max > (uint64_t) INT64_MAX) {
	/*
	 * Above 2**63-1 Tcl has a bignum (or a wrapped wide integer): read
	 * the digits (decimal, or hex with 0x) as an unsigned number.
	 */

	const char *s = Tcl_GetString(valueObj);
	char *end;
	unsigned long long u;

	while (*s == ' ' || *s == '\t') {
	    s++;
	}
	errno = 0;
	u = strtoull(s, &end, 0);
	if (*s != '-' && *s != '+' && end != s && *end == '\0' && errno == 0) {
	    *valuePtr = u;
	    return TCL_OK;
	}
    }
    return VerbsArgError(interp, key, valueObj,
	    "bad %s \"%s\": must be an integer from 0 to %llu", key,
	    Tcl_GetString(valueObj), (unsigned long long) max);
}

int
VerbsCheckMax(
    Tcl_Interp *interp,
    const char *key,
    uint64_t value,
    uint64_t max)
{
    char digits[24];
    Tcl_Obj *valueObj;
    uint64_t v;
    int result;

    if (value <= max) {
	return TCL_OK;
    }
    snprintf(digits, sizeof(digits), "%llu", (unsigned long long) value);
    valueObj = Tcl_NewStringObj(digits, -1);
    Tcl_IncrRefCount(valueObj);
    result = VerbsGetUInt(interp, key, valueObj, max, &v);
    Tcl_DecrRefCount(valueObj);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsGetBytes --
 *
 *	The bytes of a value that must be a byte string: every character
 *	from \x00 to \xFF.  Tcl 9 refuses to convert other strings, Tcl 8.6
 *	would drop the high bits of each character; both are an error
 *	here, the same on both.
 *
 * Results:
 *	The bytes (valid while valueObj is unchanged) and their number in
 *	*lenPtr, or NULL with an error naming key (none when interp is
 *	NULL).
 *
 * Side effects:
 *	May give valueObj a byte array representation.
 *
 *----------------------------------------------------------------------
 */

const unsigned char *
VerbsGetBytes(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    Tcl_Size *lenPtr)
{
    static const Tcl_ObjType *byteArrayType = NULL;	/* Any thread's. */
    const Tcl_ObjType *bat = __atomic_load_n(&byteArrayType,
	    __ATOMIC_ACQUIRE);
    const unsigned char *bytes;

    if (bat == NULL) {
	bat = Tcl_GetObjType("bytearray");
	__atomic_store_n(&byteArrayType, bat, __ATOMIC_RELEASE);
    }
    if (valueObj->typePtr != bat || bat == NULL) {
	/*
	 * In Tcl's UTF-8 a character above \xFF starts with a byte of 0xC4
	 * or more (\x80 to \xFF start with 0xC2 or 0xC3, and Tcl writes
	 * \x00 as 0xC0 0x80).
	 */

	Tcl_Size len;
	const unsigned char *s = (const unsigned char *)
		Tcl_GetStringFromObj(valueObj, &len);
	Tcl_Size i;

	for (i = 0; i < len; i++) {
	    if (s[i] >= 0xC4) {
		goto notBytes;
	    }
	}
    }
    bytes = Tcl_GetByteArrayFromObj(valueObj, lenPtr);
    if (bytes != NULL) {
	return bytes;
    }
  notBytes:
    if (interp == NULL) {
	return NULL;
    }
    VerbsArgError(interp, key, valueObj, "expected byte string but got "
	    "\"%s\": a character above \\xFF is not a byte",
	    Tcl_GetString(valueObj));
    return NULL;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsU64Obj --
 *
 *	An unsigned 64-bit value as a Tcl_Obj that reads back the same
 *	(above 2**63-1 as its decimal digits, which Tcl takes as a bignum).
 *
 * Results:
 *	A new Tcl_Obj.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

Tcl_Obj *
VerbsU64Obj(
    uint64_t v)
{
    char buf[24];

    if (v <= (uint64_t) INT64_MAX) {
	return Tcl_NewWideIntObj((Tcl_WideInt) v);
    }
    snprintf(buf, sizeof(buf), "%llu", (unsigned long long) v);
    return Tcl_NewStringObj(buf, -1);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsGuidObj, VerbsGidObj, VerbsGetGid --
 *
 *	GUIDs print as four groups of four hex digits, GIDs as eight
 *	groups; GID input is any IPv6 notation, 32 hex digits (the GID of
 *	the ibv_*_pingpong exchange), or an IPv4 address (mapped to
 *	::ffff:a.b.c.d as RoCE v2 does).
 *
 * Results:
 *	VerbsGidObj: a new Tcl_Obj.  VerbsGetGid: a standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

Tcl_Obj *
VerbsGuidObj(
    uint64_t beGuid)		/* In network byte order. */
{
    uint64_t g = be64toh(beGuid);

    return Tcl_ObjPrintf("%04x:%04x:%04x:%04x", (unsigned)(g >> 48),
	    (unsigned)(g >> 32) & 0xffff, (unsigned)(g >> 16) & 0xffff,
	    (unsigned) g & 0xffff);
}

Tcl_Obj *
VerbsGidObj(
    const union ibv_gid *gid)
{
    const uint8_t *r = gid->raw;

    return Tcl_ObjPrintf("%02x%02x:%02x%02x:%02x%02x:%02x%02x:"
	    "%02x%02x:%02x%02x:%02x%02x:%02x%02x", r[0], r[1], r[2], r[3],
	    r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13],
	    r[14], r[15]);
}

int
VerbsGetGid(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    union ibv_gid *gid)
{
    const char *s = Tcl_GetString(valueObj);
    struct in_addr v4;

    if (inet_pton(AF_INET6, s, gid->raw) == 1) {
	return TCL_OK;
    }
    if (strlen(s) == 32 && strspn(s, "0123456789abcdefABCDEF") == 32) {
	/*
	 * The 32 hex digits of the ibv_*_pingpong wire format.
	 */

	int i;

	for (i = 0; i < 16; i++) {
	    sscanf(s + 2 * i, "%2hhx", &gid->raw[i]);
	}
	return TCL_OK;
    }
    if (inet_pton(AF_INET, s, &v4) == 1) {
	memset(gid->raw, 0, 10);
	gid->raw[10] = gid->raw[11] = 0xff;
	memcpy(gid->raw + 12, &v4, 4);
	return TCL_OK;
    }
    return VerbsArgError(interp, key, valueObj,
	    "bad %s \"%s\": must be a GID in IPv6 notation, 32 hex digits "
	    "or an IPv4 address",
	    key, s);
}

/*
 *----------------------------------------------------------------------
 *
 * LoadUInt, StoreUInt --
 *
 *	Read and write an unsigned member of 1, 2, 4 or 8 bytes.
 *
 * Results:
 *	LoadUInt: the value.
 *
 * Side effects:
 *	StoreUInt: writes the member.
 *
 *----------------------------------------------------------------------
 */

static uint64_t
LoadUInt(
    const void *p,
    int size)
{
    switch (size) {
    case 1: return *(const uint8_t *) p;
    case 2: return *(const uint16_t *) p;
    case 4: return *(const uint32_t *) p;
    default: return *(const uint64_t *) p;
    }
}

static void
StoreUInt(
    void *p,
    int size,
    uint64_t v)
{
    switch (size) {
    case 1: *(uint8_t *) p = (uint8_t) v; break;
    case 2: *(uint16_t *) p = (uint16_t) v; break;
    case 4: *(uint32_t *) p = (uint32_t) v; break;
    default: *(uint64_t *) p = v; break;
    }
}

/*
 * Dict keys are shared Tcl_Objs, one per field name and thread, so that a
 * poll returning many completions does not make the same strings again.
 */

typedef struct ThreadKeys {
    int initialized;
    Tcl_HashTable keys;		/* const char *name -> Tcl_Obj. */
} ThreadKeys;

static Tcl_ThreadDataKey keysKey;	/* Per thread: ThreadKeys. */

static void
FreeKeys(
    ClientData clientData)
{
    ThreadKeys *tk = (ThreadKeys *) clientData;
    Tcl_HashSearch search;
    Tcl_HashEntry *hPtr;

    for (hPtr = Tcl_FirstHashEntry(&tk->keys, &search); hPtr;
	    hPtr = Tcl_NextHashEntry(&search)) {
	Tcl_DecrRefCount((Tcl_Obj *) Tcl_GetHashValue(hPtr));
    }
    Tcl_DeleteHashTable(&tk->keys);
    tk->initialized = 0;
}

Tcl_Obj *
VerbsKeyObj(
    const char *name)		/* A string of static storage (a field name
				 * of a table, a literal): its address is the
				 * key. */
{
    ThreadKeys *tk = (ThreadKeys *) Tcl_GetThreadData(&keysKey,
	    sizeof(ThreadKeys));
    Tcl_HashEntry *hPtr;
    Tcl_Obj *key;
    int isNew;

    if (!tk->initialized) {
	Tcl_InitHashTable(&tk->keys, TCL_ONE_WORD_KEYS);
	tk->initialized = 1;
	Tcl_CreateThreadExitHandler(FreeKeys, tk);
    }
    hPtr = Tcl_CreateHashEntry(&tk->keys, name, &isNew);
    if (isNew) {
	key = Tcl_NewStringObj(name, -1);
	Tcl_IncrRefCount(key);
	Tcl_SetHashValue(hPtr, key);
    }
    return (Tcl_Obj *) Tcl_GetHashValue(hPtr);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsFieldGet --
 *
 *	The value of one row: the member of the struct at base, or for
 *	cget rows (objPtr not NULL) of the object, the struct it points to
 *	(VF_DEREF), or what the row computes.
 *
 * Results:
 *	A standard Tcl result, the value in *valuePtr: a new object, or for
 *	VF_TCLOBJ the one stored.
 *
 * Side effects:
 *	A VF_PROC row may ask the device.
 *
 *----------------------------------------------------------------------
 */

int
VerbsFieldGet(
    Tcl_Interp *interp,
    const VerbsField *f,
    const void *base,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    const char *p;
    Tcl_Obj *v;

    if (f->flags & VF_DEREF) {
	base = *(void *const *) ((const char *) base + f->ptrOffset);
    }
    p = (const char *) base + f->offset;
    switch (f->kind) {
    case VF_INT:
	v = Tcl_NewIntObj(*(const int *) p);
	break;
    case VF_BOOL:
	v = Tcl_NewBooleanObj(*(const int *) p);
	break;
    case VF_ENUM:
	v = VerbsEnumObj((const VerbsEnum *) f->table, LoadUInt(p, f->size));
	break;
    case VF_FLAGS:
	v = VerbsFlagsObj((const VerbsEnum *) f->table, LoadUInt(p, f->size));
	break;
    case VF_GID:
	v = VerbsGidObj((const union ibv_gid *) p);
	break;
    case VF_GUID:
	v = VerbsGuidObj(*(const uint64_t *) p);
	break;
    case VF_STRING:
	v = Tcl_NewStringObj(p, (int) strnlen(p, f->size));
	break;
    case VF_CSTR:
	v = Tcl_NewStringObj(*(char *const *) p ? *(char *const *) p : "",
		-1);
	break;
    case VF_BE32:
	v = Tcl_NewWideIntObj(ntohl(*(const uint32_t *) p));
	break;
    case VF_BE16:
	v = Tcl_NewIntObj(ntohs(*(const uint16_t *) p));
	break;
    case VF_MAC: {
	const uint8_t *m = (const uint8_t *) p;

	v = Tcl_ObjPrintf("%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
		m[3], m[4], m[5]);
	break;
    }
    case VF_IPV4:
    case VF_IPV6: {
	char buf[INET6_ADDRSTRLEN];

	inet_ntop(f->kind == VF_IPV4 ? AF_INET : AF_INET6, p, buf,
		sizeof(buf));
	v = Tcl_NewStringObj(buf, -1);
	break;
    }
    case VF_BYTES:
	v = Tcl_NewByteArrayObj((const unsigned char *) p, f->size);
	break;
    case VF_STRUCT:
	v = VerbsStructToDict((const VerbsStruct *) f->table, p);
	break;
    case VF_OBJ:
	v = *(VerbsObj *const *) p ? VerbsObjName(*(VerbsObj *const *) p)
		: Tcl_NewObj();
	break;
    case VF_PARENT:
	v = objPtr->parent ? VerbsObjName(objPtr->parent) : Tcl_NewObj();
	break;
    case VF_TYPE:
	v = Tcl_NewStringObj(objPtr->typePtr->name, -1);
	break;
    case VF_PROC:
	return f->getProc(interp, objPtr, valuePtr);
    case VF_TCLOBJ:
	v = *(Tcl_Obj *const *) p ? *(Tcl_Obj *const *) p : Tcl_NewObj();
	break;
    default:
	v = VerbsU64Obj(LoadUInt(p, f->size));
	break;
    }
    *valuePtr = v;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsStructToDict --
 *
 *	Turn a C struct into a dict with every field of its table.
 *
 * Results:
 *	A new dict Tcl_Obj.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

Tcl_Obj *
VerbsStructToDict(
    const VerbsStruct *st,
    const void *base)
{
    Tcl_Obj *dict = Tcl_NewDictObj(), *v;
    const VerbsField *f;

    for (f = st->fields; f->name; f++) {
	/* Struct rows are plain members: this cannot fail. */
	VerbsFieldGet(NULL, f, base, NULL, &v);
	Tcl_DictObjPut(NULL, dict, VerbsKeyObj(f->name), v);
    }
    return dict;
}

/*
 *----------------------------------------------------------------------
 *
 * GetMac --
 *
 *	Parse a MAC address: six groups of one or two hex digits separated
 *	by colons.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Writes the six bytes at mac.
 *
 *----------------------------------------------------------------------
 */

static int
GetMac(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    uint8_t *mac)
{
    const char *s = Tcl_GetString(valueObj);
    uint8_t bytes[6];
    int i, n;

    for (i = 0; i < 6; i++) {
	unsigned int b = 0;

	for (n = 0; n < 2 && isxdigit((unsigned char) *s); n++, s++) {
	    b = b * 16 + (unsigned int) (isdigit((unsigned char) *s)
		    ? *s - '0' : tolower((unsigned char) *s) - 'a' + 10);
	}
	if (n == 0 || *s != (i < 5 ? ':' : '\0')) {
	    return VerbsArgError(interp, key, valueObj,
		    "bad %s \"%s\": must be a MAC address such as "
		    "02:00:5e:00:53:01", key, Tcl_GetString(valueObj));
	}
	bytes[i] = (uint8_t) b;
	s++;
    }
    memcpy(mac, bytes, 6);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsFieldFill --
 *
 *	Set a member to its widest value, all of its bits (or of the
 *	row's max): the full mask of a field.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Writes the member.
 *
 *----------------------------------------------------------------------
 */

void
VerbsFieldFill(
    const VerbsField *f,
    void *base)
{
    char *p = (char *) base + f->offset;

    switch (f->kind) {
    case VF_BE16:
	*(uint16_t *) p = htons((uint16_t) (f->max ? f->max : UINT16_MAX));
	break;
    case VF_BE32:
	*(uint32_t *) p = htonl((uint32_t) (f->max ? f->max : UINT32_MAX));
	break;
    case VF_UINT:
	if (f->max) {
	    StoreUInt(p, f->size, f->max);
	    break;
	}
	/* FALLTHRU */
    default:
	memset(p, 0xff, f->size);
	break;
    }
}

/*
 *----------------------------------------------------------------------
 *
 * SetBytes --
 *
 *	SetField for the kinds stored as raw bytes: a MAC, an IPv4 or IPv6
 *	address (network order), a byte string of at most the member's
 *	size.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills the member at p.
 *
 *----------------------------------------------------------------------
 */

static int
SetBytes(
    Tcl_Interp *interp,
    const VerbsField *f,
    Tcl_Obj *valueObj,
    char *p)
{
    switch (f->kind) {
    case VF_MAC:
	return GetMac(interp, f->name, valueObj, (uint8_t *) p);
    case VF_IPV4:
	if (inet_pton(AF_INET, Tcl_GetString(valueObj), p) != 1) {
	    return VerbsArgError(interp, f->name, valueObj,
		    "bad %s \"%s\": must be an IPv4 address", f->name,
		    Tcl_GetString(valueObj));
	}
	return TCL_OK;
    case VF_IPV6:
	if (inet_pton(AF_INET6, Tcl_GetString(valueObj), p) != 1) {
	    return VerbsArgError(interp, f->name, valueObj,
		    "bad %s \"%s\": must be an IPv6 address", f->name,
		    Tcl_GetString(valueObj));
	}
	return TCL_OK;
    case VF_BYTES: {
	Tcl_Size len;
	const unsigned char *bytes = VerbsGetBytes(interp, f->name, valueObj,
		&len);

	if (bytes == NULL) {
	    return TCL_ERROR;
	}
	if (len > (Tcl_Size) f->size) {
	    return VerbsArgError(interp, f->name, valueObj,
		    "%s is %" TCL_SIZE_MODIFIER "d bytes: at most %d fit",
		    f->name, len, (int) f->size);
	}
	memset(p, 0, f->size);
	memcpy(p, bytes, (size_t) len);
	return TCL_OK;
    }
    }
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * SetField --
 *
 *	Store one value into the member of the struct at base that the
 *	row describes; the row's name names the value in messages.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Writes the member.
 *
 *----------------------------------------------------------------------
 */

static int
SetField(
    Tcl_Interp *interp,
    const VerbsStruct *st,	/* For messages. */
    const VerbsField *f,
    Tcl_Obj *valueObj,
    void *base)
{
    char *p = (char *) base + f->offset;
    uint64_t v;

    if (f->flags & VF_READONLY) {
	return VerbsArgError(interp, f->name, valueObj,
		"%s \"%s\" is read-only", st->name, f->name);
    }
    switch (f->kind) {
    case VF_INT: {
	int i;

	if (Tcl_GetIntFromObj(NULL, valueObj, &i) != TCL_OK) {
	    return VerbsArgError(interp, f->name, valueObj,
		    "bad %s \"%s\": must be an integer", f->name,
		    Tcl_GetString(valueObj));
	}
	*(int *) p = i;
	return TCL_OK;
    }
    case VF_BOOL:
	return VerbsGetBoolean(interp, f->name, valueObj, (int *) p);
    case VF_TIMEOUT:
	return VerbsGetTimeout(interp, valueObj, (int *) p);
    case VF_ENUM:
	if (VerbsGetEnum(interp, (const VerbsEnum *) f->table, f->name,
		valueObj, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	StoreUInt(p, f->size, v);
	return TCL_OK;
    case VF_FLAGS:
	if (VerbsGetFlags(interp, (const VerbsEnum *) f->table, f->name,
		valueObj, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	StoreUInt(p, f->size, v);
	return TCL_OK;
    case VF_GID:
	return VerbsGetGid(interp, f->name, valueObj, (union ibv_gid *) p);
    case VF_BE32:
	if (VerbsGetUInt(interp, f->name, valueObj,
		f->max ? f->max : UINT32_MAX, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	*(uint32_t *) p = htonl((uint32_t) v);
	return TCL_OK;
    case VF_BE16:
	if (VerbsGetUInt(interp, f->name, valueObj,
		f->max ? f->max : UINT16_MAX, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	*(uint16_t *) p = htons((uint16_t) v);
	return TCL_OK;
    case VF_MAC:
    case VF_IPV4:
    case VF_IPV6:
    case VF_BYTES:
	return SetBytes(interp, f, valueObj, p);
    case VF_STRUCT:
	return VerbsDictToStruct(interp, (const VerbsStruct *) f->table,
		f->name, valueObj, p, NULL);
    case VF_OBJ: {
	VerbsObj *o = VerbsObjGet(interp, valueObj,
		(const VerbsType *) f->table);

	if (o == NULL) {
	    return TCL_ERROR;
	}
	*(VerbsObj **) p = o;
	return TCL_OK;
    }
    case VF_TCLOBJ:
	*(Tcl_Obj **) p = valueObj;
	return TCL_OK;
    case VF_PARSE:
	return f->setProc(interp, f->name, valueObj, p);
    case VF_UINT: {
	uint64_t max = f->max ? f->max : f->size >= 8 ? UINT64_MAX
		: (((uint64_t) 1) << (8 * f->size)) - 1;

	if (VerbsGetUInt(interp, f->name, valueObj, max, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	StoreUInt(p, f->size, v);
	return TCL_OK;
    }
    default:
	return VerbsArgError(interp, f->name, valueObj,
		"%s \"%s\" cannot be set", st->name, f->name);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsDictToStruct --
 *
 *	Fill a C struct from a dict; key names the dict in messages (an
 *	option or field name).  Keys not in the dict leave their
 *	field alone.  Every key given adds its attr_mask bit to *maskPtr
 *	(which may be NULL).
 *
 * Results:
 *	A standard Tcl result; unknown keys, read-only keys and bad values
 *	are errors naming the key.
 *
 * Side effects:
 *	Writes the struct.
 *
 *----------------------------------------------------------------------
 */

int
VerbsDictToStruct(
    Tcl_Interp *interp,
    const VerbsStruct *st,
    const char *key,		/* What the dict is, for messages. */
    Tcl_Obj *dictObj,
    void *base,
    uint64_t *maskPtr)
{
    Tcl_DictSearch search;
    Tcl_Obj *keyObj, *valueObj;
    int done, index;
    uint64_t mask = 0;

    if (Tcl_DictObjFirst(NULL, dictObj, &search, &keyObj, &valueObj,
	    &done) != TCL_OK) {
	return VerbsArgError(interp, key, dictObj,
		"bad %s \"%s\": must be a dict of %ss", key,
		Tcl_GetString(dictObj), st->name);
    }
    for (; !done; Tcl_DictObjNext(&search, &keyObj, &valueObj, &done)) {
	if (Tcl_GetIndexFromObjStruct(interp, keyObj, st->fields,
		sizeof(VerbsField), st->name, TCL_EXACT, &index) != TCL_OK) {
	    Tcl_SetErrorCode(interp, "VERBS", "ARG", Tcl_GetString(keyObj),
		    Tcl_GetString(valueObj), NULL);
	    goto error;
	}
	if (SetField(interp, st, &st->fields[index], valueObj, base)
		!= TCL_OK) {
	    goto error;
	}
	mask |= st->fields[index].mask;
    }
    Tcl_DictObjDone(&search);
    if (maskPtr) {
	*maskPtr |= mask;
    }
    return TCL_OK;

  error:
    Tcl_DictObjDone(&search);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsOptionIndex --
 *
 *	The row of an option word: a unique prefix of a row's name, as
 *	Tcl_GetIndexFromObjStruct takes it, or "-command" in full, the older
 *	name of -as, in a table that has -as.  Errors list the rows, and
 *	never the older name.
 *
 * Results:
 *	A standard Tcl result; the row's index in *indexPtr.
 *
 * Side effects:
 *	Tcl_GetIndexFromObjStruct caches the lookup in the word.
 *
 *----------------------------------------------------------------------
 */

int
VerbsOptionIndex(
    Tcl_Interp *interp,
    Tcl_Obj *wordObj,
    const VerbsField *options,
    int *indexPtr)
{
    const VerbsField *f;

    if (strcmp(Tcl_GetString(wordObj), "-command") == 0) {
	for (f = options; f->name; f++) {
	    if (strcmp(f->name, "-as") == 0) {
		*indexPtr = (int) (f - options);
		return TCL_OK;
	    }
	}
    }
    return Tcl_GetIndexFromObjStruct(interp, wordObj, options,
	    sizeof(VerbsField), "option", 0, indexPtr);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsParseOptions --
 *
 *	Parse "-option value" pairs (and switches, "-option" alone) from
 *	objv[first] on into the record struct the option rows describe
 *	(unique prefixes are accepted; an option given twice is applied
 *	twice: the last value wins, and the dicts of a VF_STRUCT option
 *	merge).  Members of options not given
 *	keep what the caller put there, its defaults.
 *
 * Results:
 *	A standard Tcl result: unknown options, options without a value,
 *	bad values and missing required options are errors.
 *
 * Side effects:
 *	Fills the record.
 *
 *----------------------------------------------------------------------
 */

int
VerbsParseOptions(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    int first,
    const VerbsField *options,
    void *record)
{
    static const VerbsStruct what = {"option", NULL};
    const VerbsField *f;
    uint64_t given = 0;
    int i, index;

    for (i = first; i < objc; i += 2) {
	if (VerbsOptionIndex(interp, objv[i], options, &index) != TCL_OK) {
	    return TCL_ERROR;
	}
	f = &options[index];
	given |= ((uint64_t) 1) << index;
	if (f->flags & VF_SWITCH) {
	    *(int *) ((char *) record + f->offset) = 1;
	    i--;
	    continue;
	}
	if (i + 1 >= objc) {
	    Tcl_SetObjResult(interp, Tcl_ObjPrintf(
		    "missing value for option \"%s\"", f->name));
	    Tcl_SetErrorCode(interp, "VERBS", "ARG", f->name, "", NULL);
	    return TCL_ERROR;
	}
	if (SetField(interp, &what, f, objv[i + 1], record) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    for (f = options, index = 0; f->name; f++, index++) {
	if ((f->flags & VF_REQUIRED) && !(given & (((uint64_t) 1) << index))) {
	    const char *reason = f->arg ? strchr(f->arg, ':') : NULL;

	    return VerbsArgError(interp, f->name, NULL, "missing %s%s%s",
		    f->name, reason ? ": " : "", reason ? reason + 1 : "");
	}
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsUsage, VerbsUsageError --
 *
 *	The usage of a command from its fixed words and its option rows:
 *	"pd -length bytes ?-access flags? ?-as name?".
 *	VerbsUsageError: the "wrong # args" error that shows it, after the
 *	first skip words of objv.
 *
 * Results:
 *	VerbsUsage: a new Tcl_Obj.  VerbsUsageError: TCL_ERROR.
 *
 * Side effects:
 *	VerbsUsageError sets the interp's result.
 *
 *----------------------------------------------------------------------
 */

Tcl_Obj *
VerbsUsage(
    const char *fixed,
    const VerbsField *options)
{
    Tcl_Obj *usage = Tcl_NewStringObj(fixed, -1);
    const VerbsField *f;
    int pass;

    /*
     * Required options first, then the others, each in table order, and
     * -as, which every create command has, last.
     */

    for (pass = 0; pass < 3; pass++) {
	for (f = options; f->name; f++) {
	    int required = (f->flags & VF_REQUIRED) != 0;
	    int command = strcmp(f->name, "-as") == 0;
	    const char *arg = f->arg ? f->arg : "value";
	    const char *colon = strchr(arg, ':');
	    int len = colon ? (int) (colon - arg) : -1;

	    if (pass != (required ? 0 : command ? 2 : 1)) {
		continue;
	    }
	    if (Tcl_GetCharLength(usage) > 0) {
		Tcl_AppendToObj(usage, " ", 1);
	    }
	    if (f->flags & VF_SWITCH) {
		Tcl_AppendPrintfToObj(usage, "?%s?", f->name);
		continue;
	    }
	    Tcl_AppendPrintfToObj(usage, required ? "%s %.*s" : "?%s %.*s?",
		    f->name, len < 0 ? (int) strlen(arg) : len, arg);
	}
    }
    return usage;
}

int
VerbsUsageError(
    Tcl_Interp *interp,
    int skip,
    Tcl_Obj *const objv[],
    const char *fixed,
    const VerbsField *options)
{
    Tcl_Obj *usage = VerbsUsage(fixed, options);

    Tcl_WrongNumArgs(interp, skip, objv, Tcl_GetString(usage));
    Tcl_DecrRefCount(usage);
    return TCL_ERROR;
}
