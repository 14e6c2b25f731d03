/*
 * mlx5prm.c --
 *
 *	The authority for tests/mlx5prm.test: PRM command inputs and outputs
 *	written the way DevX programs write them, with rdma-core's DEVX_SET,
 *	DEVX_SET64 and DEVX_ADDR_OF of the installed <infiniband/mlx5dv.h>
 *	over the kernel's linux/mlx5/mlx5_ifc.h (the test compiles this file
 *	against a copy of that header, from Debian's linux-headers-*-common).
 *	The compiler and those macros decide every offset, width and byte
 *	order.  For each case it prints the case's name, a space and its
 *	bytes in hex; the test compares them with [mlx5::prm pack] of the
 *	same fields written as a dict, and runs [mlx5::prm unpack] and
 *	[mlx5::prm refs] over them.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include <infiniband/mlx5dv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * What mlx5_ifc.h needs from the kernel's own headers.
 */

typedef uint8_t u8;
#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))
#include "mlx5_ifc.h"

static void
Print(
    const char *name,
    const void *p,
    size_t len)
{
    const unsigned char *b = p;
    size_t i;

    printf("%s ", name);
    for (i = 0; i < len; i++) {
	printf("%02x", b[i]);
    }
    printf("\n");
}

#define CASE(name, typ, extra) \
    unsigned char name[DEVX_ST_SZ_BYTES(typ) + (extra)]; \
    memset(name, 0, sizeof(name))

int
main(void)
{
    static const unsigned char gid[16] = {
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff, 0xfe, 0x33,
	0x44, 0x55
    };
    static const unsigned char ip6[16] = {
	0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
    };

    /*
     * A CQ: the nested cq_context, a 64-bit doorbell address, a 24-bit
     * UAR page, the flexible pas array of 64-bit addresses.
     */
    {
	CASE(cq, create_cq_in, 16);
	void *cqc = DEVX_ADDR_OF(create_cq_in, cq, cq_context);

	DEVX_SET(create_cq_in, cq, opcode, MLX5_CMD_OP_CREATE_CQ);
	DEVX_SET(create_cq_in, cq, uid, 0x1234);
	DEVX_SET(cqc, cqc, log_cq_size, 7);
	DEVX_SET(cqc, cqc, cqe_sz, 1);
	DEVX_SET(cqc, cqc, uar_page, 0xabcde);
	DEVX_SET(cqc, cqc, c_eqn_or_apu_element, 3);
	DEVX_SET(cqc, cqc, log_page_size, 12);
	DEVX_SET(cqc, cqc, cq_period, 0xfff);
	DEVX_SET64(cqc, cqc, dbr_addr, 0x123456789abcdef8ULL);
	DEVX_SET(create_cq_in, cq, cq_umem_valid, 1);
	DEVX_ARRAY_SET64(create_cq_in, cq, pas, 0, 0x1000);
	DEVX_ARRAY_SET64(create_cq_in, cq, pas, 1, 0xffffffffffff2000ULL);
	Print("create_cq", cq, sizeof(cq));
    }

    /*
     * A QP: nested qpc with its nested address path, a 16-byte GID,
     * 48-bit MAC in two fields, the references.
     */
    {
	CASE(qp, create_qp_in, 0);
	void *qpc = DEVX_ADDR_OF(create_qp_in, qp, qpc);
	void *ads = DEVX_ADDR_OF(qpc, qpc, primary_address_path);

	DEVX_SET(create_qp_in, qp, opcode, MLX5_CMD_OP_CREATE_QP);
	DEVX_SET(qpc, qpc, st, 0);
	DEVX_SET(qpc, qpc, pm_state, 3);
	DEVX_SET(qpc, qpc, pd, 0x11);
	DEVX_SET(qpc, qpc, mtu, 5);
	DEVX_SET(qpc, qpc, log_msg_max, 30);
	DEVX_SET(qpc, qpc, log_rq_size, 6);
	DEVX_SET(qpc, qpc, log_rq_stride, 2);
	DEVX_SET(qpc, qpc, log_sq_size, 7);
	DEVX_SET(qpc, qpc, uar_page, 0x22);
	DEVX_SET(qpc, qpc, cqn_snd, 0x33);
	DEVX_SET(qpc, qpc, cqn_rcv, 0x44);
	DEVX_SET(qpc, qpc, srqn_rmpn_xrqn, 0x55);
	DEVX_SET(qpc, qpc, counter_set_id, 0x66);
	DEVX_SET(qpc, qpc, remote_qpn, 0x77);
	DEVX_SET(qpc, qpc, dbr_umem_valid, 1);
	DEVX_SET64(qpc, qpc, dbr_addr, 0x40);
	DEVX_SET(ads, ads, src_addr_index, 1);
	DEVX_SET(ads, ads, hop_limit, 64);
	DEVX_SET(ads, ads, rmac_47_32, 0x0211);
	DEVX_SET(ads, ads, rmac_31_0, 0x22334455);
	memcpy(DEVX_ADDR_OF(ads, ads, rgid_rip), gid, sizeof(gid));
	DEVX_SET(create_qp_in, qp, wq_umem_valid, 1);
	Print("create_qp", qp, sizeof(qp));
    }

    /*
     * An RQT: its flexible array of rq_num structs.
     */
    {
	CASE(rqt, create_rqt_in, 12);
	void *rqtc = DEVX_ADDR_OF(create_rqt_in, rqt, rqt_context);

	DEVX_SET(create_rqt_in, rqt, opcode, MLX5_CMD_OP_CREATE_RQT);
	DEVX_SET(rqtc, rqtc, rqt_max_size, 4);
	DEVX_SET(rqtc, rqtc, rqt_actual_size, 3);
	DEVX_SET(rq_num, DEVX_ADDR_OF(rqtc, rqtc, rq_num[0]), rq_num, 0x100);
	DEVX_SET(rq_num, DEVX_ADDR_OF(rqtc, rqtc, rq_num[1]), rq_num, 0x101);
	DEVX_SET(rq_num, DEVX_ADDR_OF(rqtc, rqtc, rq_num[2]), rq_num, 0x102);
	Print("create_rqt", rqt, sizeof(rqt));
    }

    /*
     * A TIR: an array of ten 32-bit words (the Toeplitz key), a nested
     * field selector, an inline RQ, an RQT, a transport domain.
     */
    {
	CASE(tir, create_tir_in, 0);
	void *tirc = DEVX_ADDR_OF(create_tir_in, tir, ctx);
	int i;

	DEVX_SET(create_tir_in, tir, opcode, MLX5_CMD_OP_CREATE_TIR);
	DEVX_SET(tirc, tirc, disp_type, 1);
	DEVX_SET(tirc, tirc, inline_rqn, 0x200);
	DEVX_SET(tirc, tirc, indirect_table, 0x300);
	DEVX_SET(tirc, tirc, rx_hash_fn, 2);
	DEVX_SET(tirc, tirc, transport_domain, 0x400);
	for (i = 0; i < 10; i++) {
	    DEVX_SET(tirc, tirc, rx_hash_toeplitz_key[i], 0x01020304u * (unsigned) (i + 1));
	}
	DEVX_SET(rx_hash_field_select,
		DEVX_ADDR_OF(tirc, tirc, rx_hash_field_selector_outer),
		selected_fields, 0xf);
	Print("create_tir", tir, sizeof(tir));
    }

    /*
     * A flow table entry: the match value (nested structs, a union with
     * a 16-byte IPv6 address), destinations and a counter in the
     * flexible array of unions (extended format: 16 bytes each).
     */
    {
	CASE(fte, set_fte_in, 3 * 16);
	void *fc = DEVX_ADDR_OF(set_fte_in, fte, flow_context);
	void *mv = DEVX_ADDR_OF(flow_context, fc, match_value);
	void *l24 = DEVX_ADDR_OF(fte_match_param, mv, outer_headers);
	void *d;

	DEVX_SET(set_fte_in, fte, opcode, MLX5_CMD_OP_SET_FLOW_TABLE_ENTRY);
	DEVX_SET(set_fte_in, fte, table_type, 0);
	DEVX_SET(set_fte_in, fte, table_id, 0x500);
	DEVX_SET(set_fte_in, fte, flow_index, 9);
	DEVX_SET(flow_context, fc, group_id, 0x600);
	DEVX_SET(flow_context, fc, flow_tag, 0xabcdef);
	DEVX_SET(flow_context, fc, action, 0x4 | 0x8);
	DEVX_SET(flow_context, fc, extended_destination, 1);
	DEVX_SET(flow_context, fc, destination_list_size, 2);
	DEVX_SET(flow_context, fc, flow_counter_list_size, 1);
	DEVX_SET(fte_match_set_lyr_2_4, l24, dmac_47_16, 0x02112233);
	DEVX_SET(fte_match_set_lyr_2_4, l24, dmac_15_0, 0x4455);
	DEVX_SET(fte_match_set_lyr_2_4, l24, ethertype, 0x86dd);
	DEVX_SET(fte_match_set_lyr_2_4, l24, ip_version, 6);
	DEVX_SET(fte_match_set_lyr_2_4, l24, udp_dport, 4791);
	memcpy(DEVX_ADDR_OF(fte_match_set_lyr_2_4, l24,
		src_ipv4_src_ipv6.ipv6_layout.ipv6), ip6, sizeof(ip6));
	DEVX_SET(fte_match_set_misc,
		DEVX_ADDR_OF(fte_match_param, mv, misc_parameters),
		bth_dst_qp, 0x123);
	d = DEVX_ADDR_OF(flow_context, fc, destination[0]);
	DEVX_SET(dest_format_struct, d, destination_type, 2);
	DEVX_SET(dest_format_struct, d, destination_id, 0x700);
	d = DEVX_ADDR_OF(flow_context, fc, destination[1]);
	DEVX_SET(dest_format_struct, d, destination_type, 1);
	DEVX_SET(dest_format_struct, d, destination_id, 0x800);
	DEVX_SET(extended_dest_format, d, packet_reformat_id, 0x900);
	d = DEVX_ADDR_OF(flow_context, fc, destination[2]);
	DEVX_SET(flow_counter_list, d, flow_counter_id, 0xa00);
	Print("set_fte", fte, sizeof(fte));
    }

    /*
     * An MKey: 64-bit start and length, the flexible array of 32-bit
     * translation words.
     */
    {
	CASE(mkey, create_mkey_in, 8);
	void *mkc = DEVX_ADDR_OF(create_mkey_in, mkey, memory_key_mkey_entry);

	DEVX_SET(create_mkey_in, mkey, opcode, MLX5_CMD_OP_CREATE_MKEY);
	DEVX_SET(create_mkey_in, mkey, mkey_umem_valid, 1);
	DEVX_SET(mkc, mkc, access_mode_1_0, 1);
	DEVX_SET(mkc, mkc, lw, 1);
	DEVX_SET(mkc, mkc, lr, 1);
	DEVX_SET(mkc, mkc, rw, 1);
	DEVX_SET(mkc, mkc, qpn, 0xffffff);
	DEVX_SET(mkc, mkc, mkey_7_0, 0x42);
	DEVX_SET(mkc, mkc, pd, 0xb00);
	DEVX_SET64(mkc, mkc, start_addr, 0x7f0012345000ULL);
	DEVX_SET64(mkc, mkc, len, 0x100000000ULL);
	DEVX_SET(mkc, mkc, translations_octword_size, 2);
	DEVX_SET(mkc, mkc, log_page_size, 12);
	DEVX_SET(create_mkey_in, mkey, translations_octword_actual_size, 2);
	DEVX_SET(create_mkey_in, mkey, klm_pas_mtt[0], 0x11111111);
	DEVX_SET(create_mkey_in, mkey, klm_pas_mtt[1], 0x22222222);
	Print("create_mkey", mkey, sizeof(mkey));
    }

    /*
     * A DCT: a 64-bit DC access key, an SRQ, a CQ, a PD, a counter.
     */
    {
	CASE(dct, create_dct_in, 0);
	void *dctc = DEVX_ADDR_OF(create_dct_in, dct, dct_context_entry);

	DEVX_SET(create_dct_in, dct, opcode, MLX5_CMD_OP_CREATE_DCT);
	DEVX_SET(dctc, dctc, cqn, 0xc00);
	DEVX_SET(dctc, dctc, counter_set_id, 0x0c);
	DEVX_SET(dctc, dctc, srqn_xrqn, 0xd00);
	DEVX_SET(dctc, dctc, pd, 0xe00);
	DEVX_SET(dctc, dctc, rre, 1);
	DEVX_SET64(dctc, dctc, dc_access_key, 0xfedcba9876543210ULL);
	DEVX_SET(dctc, dctc, mtu, 4);
	Print("create_dct", dct, sizeof(dct));
    }

    /*
     * A general object: the common header (opcode, obj_type) and the
     * object's own fields.
     */
    {
	CASE(aso, create_flow_meter_aso_obj_in, 0);

	DEVX_SET(general_obj_in_cmd_hdr, aso, opcode,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	DEVX_SET(general_obj_in_cmd_hdr, aso, obj_type,
		MLX5_GENERAL_OBJECT_TYPES_FLOW_METER_ASO);
	DEVX_SET(general_obj_in_cmd_hdr, aso, log_obj_range, 1);
	DEVX_SET(create_flow_meter_aso_obj_in, aso,
		flow_meter_aso_obj.meter_aso_access_pd, 0xf00);
	Print("create_flow_meter_aso", aso, sizeof(aso));
    }

    /*
     * Inputs with the other reference kinds: an SQ (CQ, TIS, a WQ with
     * PD, UAR and UMEMs), an RQ (CQ, RMP, counter), a TIS, an XRC SRQ
     * (XRC domain), an EQ (UAR), a flow group and a flow table (tables),
     * a sampler (tables), a MACsec object (a DEK object), an MKey's PD.
     */
    {
	CASE(sq, create_sq_in, 0);
	void *sqc = DEVX_ADDR_OF(create_sq_in, sq, ctx);
	void *wq = DEVX_ADDR_OF(sqc, sqc, wq);

	DEVX_SET(create_sq_in, sq, opcode, MLX5_CMD_OP_CREATE_SQ);
	DEVX_SET(sqc, sqc, cqn, 0x10);
	DEVX_SET(sqc, sqc, tis_num_0, 0x11);
	DEVX_SET(sqc, sqc, hairpin_peer_rq, 0x99);
	DEVX_SET(wq, wq, pd, 0x12);
	DEVX_SET(wq, wq, uar_page, 0x13);
	DEVX_SET(wq, wq, wq_umem_valid, 1);
	DEVX_SET(wq, wq, log_wq_sz, 6);
	Print("create_sq", sq, sizeof(sq));
    }
    {
	CASE(rq, create_rq_in, 0);
	void *rqc = DEVX_ADDR_OF(create_rq_in, rq, ctx);

	DEVX_SET(create_rq_in, rq, opcode, MLX5_CMD_OP_CREATE_RQ);
	DEVX_SET(rqc, rqc, mem_rq_type, 1);
	DEVX_SET(rqc, rqc, cqn, 0x20);
	DEVX_SET(rqc, rqc, rmpn, 0x21);
	DEVX_SET(rqc, rqc, counter_set_id, 0x22);
	DEVX_SET(wq, DEVX_ADDR_OF(rqc, rqc, wq), pd, 0x23);
	Print("create_rq", rq, sizeof(rq));
    }
    {
	CASE(tis, create_tis_in, 0);

	DEVX_SET(create_tis_in, tis, opcode, MLX5_CMD_OP_CREATE_TIS);
	DEVX_SET(tisc, DEVX_ADDR_OF(create_tis_in, tis, ctx), prio, 3);
	DEVX_SET(tisc, DEVX_ADDR_OF(create_tis_in, tis, ctx),
		transport_domain, 0x30);
	DEVX_SET(tisc, DEVX_ADDR_OF(create_tis_in, tis, ctx), pd, 0x31);
	Print("create_tis", tis, sizeof(tis));
    }
    {
	CASE(xsrq, create_xrc_srq_in, 0);
	void *c = DEVX_ADDR_OF(create_xrc_srq_in, xsrq, xrc_srq_context_entry);

	DEVX_SET(create_xrc_srq_in, xsrq, opcode, MLX5_CMD_OP_CREATE_XRC_SRQ);
	DEVX_SET(xrc_srqc, c, xrcd, 0x40);
	DEVX_SET(xrc_srqc, c, cqn, 0x41);
	DEVX_SET(xrc_srqc, c, pd, 0x42);
	Print("create_xrc_srq", xsrq, sizeof(xsrq));
    }
    {
	CASE(eq, create_eq_in, 0);

	DEVX_SET(create_eq_in, eq, opcode, MLX5_CMD_OP_CREATE_EQ);
	DEVX_SET(eqc, DEVX_ADDR_OF(create_eq_in, eq, eq_context_entry),
		uar_page, 0x50);
	DEVX_SET(eqc, DEVX_ADDR_OF(create_eq_in, eq, eq_context_entry),
		log_eq_size, 6);
	DEVX_SET64(create_eq_in, eq, event_bitmask[0], 0x8000000000000001ULL);
	Print("create_eq", eq, sizeof(eq));
    }
    {
	CASE(fg, create_flow_group_in, 0);

	DEVX_SET(create_flow_group_in, fg, opcode,
		MLX5_CMD_OP_CREATE_FLOW_GROUP);
	DEVX_SET(create_flow_group_in, fg, table_id, 0x60);
	DEVX_SET(create_flow_group_in, fg, end_flow_index, 15);
	DEVX_SET(create_flow_group_in, fg, match_criteria_enable, 1);
	Print("create_flow_group", fg, sizeof(fg));
    }
    {
	CASE(ft, create_flow_table_in, 0);
	void *ftc = DEVX_ADDR_OF(create_flow_table_in, ft, flow_table_context);

	DEVX_SET(create_flow_table_in, ft, opcode,
		MLX5_CMD_OP_CREATE_FLOW_TABLE);
	DEVX_SET(flow_table_context, ftc, table_miss_action, 1);
	DEVX_SET(flow_table_context, ftc, table_miss_id, 0x61);
	DEVX_SET(flow_table_context, ftc, log_size, 4);
	Print("create_flow_table", ft, sizeof(ft));
    }
    {
	CASE(smp, create_sampler_obj_in, 0);
	void *so = DEVX_ADDR_OF(create_sampler_obj_in, smp, sampler_object);

	DEVX_SET(general_obj_in_cmd_hdr, smp, opcode,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	DEVX_SET(general_obj_in_cmd_hdr, smp, obj_type,
		MLX5_GENERAL_OBJECT_TYPES_SAMPLER);
	DEVX_SET(sampler_obj, so, sample_ratio, 10);
	DEVX_SET(sampler_obj, so, sample_table_id, 0x70);
	DEVX_SET(sampler_obj, so, default_table_id, 0x71);
	Print("create_sampler", smp, sizeof(smp));
    }
    {
	CASE(ms, create_macsec_obj_in, 0);
	void *mo = DEVX_ADDR_OF(create_macsec_obj_in, ms, macsec_object);

	DEVX_SET(general_obj_in_cmd_hdr, ms, opcode,
		MLX5_CMD_OP_CREATE_GENERAL_OBJECT);
	DEVX_SET(general_obj_in_cmd_hdr, ms, obj_type,
		MLX5_GENERAL_OBJECT_TYPES_MACSEC);
	DEVX_SET(macsec_offload_obj, mo, dekn, 0x80);
	DEVX_SET(macsec_offload_obj, mo, macsec_aso_access_pd, 0x81);
	Print("create_macsec", ms, sizeof(ms));
    }
    {
	CASE(mh, alloc_modify_header_context_in, 0);

	DEVX_SET(alloc_modify_header_context_in, mh, opcode,
		MLX5_CMD_OP_ALLOC_MODIFY_HEADER_CONTEXT);
	DEVX_SET(alloc_modify_header_context_in, mh, num_of_actions, 1);
	Print("alloc_modify_header", mh, sizeof(mh));
    }

    /*
     * What software steering's actions take (mlx5::dr action): a
     * modify header action and a flow meter's parameters.
     */
    {
	CASE(sa, set_action_in, 0);

	DEVX_SET(set_action_in, sa, action_type, MLX5_ACTION_TYPE_SET);
	DEVX_SET(set_action_in, sa, field, MLX5_ACTION_IN_FIELD_OUT_SMAC_47_16);
	DEVX_SET(set_action_in, sa, offset, 3);
	DEVX_SET(set_action_in, sa, length, 29);
	DEVX_SET(set_action_in, sa, data, 0x88776655);
	Print("set_action_in", sa, sizeof(sa));
    }
    {
	CASE(fm, flow_meter_parameters, 0);

	DEVX_SET(flow_meter_parameters, fm, valid, 1);
	DEVX_SET(flow_meter_parameters, fm, cbs_exponent, 7);
	DEVX_SET(flow_meter_parameters, fm, cbs_mantissa, 0x99);
	DEVX_SET(flow_meter_parameters, fm, cir_mantissa, 200);
	DEVX_SET(flow_meter_parameters, fm, ebs_exponent, 0x1f);
	Print("flow_meter_parameters", fm, sizeof(fm));
    }

    /*
     * Outputs, for unpack: QUERY_HCA_CAP's union of capabilities, a
     * create output with an object number and a failed command's status.
     */
    {
	CASE(cap, query_hca_cap_out, 0);
	void *c = DEVX_ADDR_OF(query_hca_cap_out, cap, capability);

	DEVX_SET(cmd_hca_cap, c, log_max_qp, 0x12);
	DEVX_SET(cmd_hca_cap, c, log_max_cq, 0x18);
	DEVX_SET(cmd_hca_cap, c, max_indirection, 0x40);
	DEVX_SET(cmd_hca_cap, c, log_max_uctx, 5);
	Print("query_hca_cap", cap, sizeof(cap));
    }
    {
	CASE(out, create_cq_out, 0);

	DEVX_SET(create_cq_out, out, status, 0x3);
	DEVX_SET(create_cq_out, out, syndrome, 0x1234abcd);
	DEVX_SET(create_cq_out, out, cqn, 0x456);
	Print("create_cq_out", out, sizeof(out));
    }
    return 0;
}
