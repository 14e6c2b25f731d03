/*
 * mlx5recref.c --
 *
 *	The C side of tests/mlx5rec.test: each case makes the libmlx5 calls
 *	that rdma-core's own tests make (tests/test_mlx5_dc.py,
 *	test_mlx5_dma_memcpy.py, test_mlx5_raw_wqe.py,
 *	test_mlx5_lag_affinity.py, test_mlx5_udp_sport.py,
 *	test_mlx5_query_port.py, test_mlx5_timestamp.py; a TSO send as
 *	ibv_wr_post(3) describes it, which no test there makes), run under the
 *	recorder (tests/mlx5rec.c), whose log the test compares with that of
 *	the same case made through the verbs package.
 *
 *	Usage: mlx5recref CASE DEVICE GID_INDEX
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include <infiniband/mlx5dv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_mr *mr, *mr2;
static struct ibv_ah *ah;
static char buf[4096], buf2[4096];
static uint16_t tsoHeader;	/* DvQp's max_tso_header, 0: none. */

static void
Die(
    const char *what)
{
    perror(what);
    exit(1);
}

/*
 * A QP through mlx5dv_create_qp, as the tests' Mlx5QP: 8 sends and
 * receives of one sge, ibv send ops (0: none), the DV attributes and
 * tsoHeader.
 */

static struct ibv_qp *
DvQp(
    enum ibv_qp_type type,
    uint64_t sendOps,
    struct mlx5dv_qp_init_attr *dv,
    struct ibv_srq *srq)
{
    struct ibv_qp_init_attr_ex a;
    struct ibv_qp *qp;

    memset(&a, 0, sizeof(a));
    a.qp_type = type;
    a.send_cq = cq;
    a.recv_cq = cq;
    a.srq = srq;
    a.cap.max_send_wr = 8;
    a.cap.max_recv_wr = srq ? 0 : 8;
    a.cap.max_send_sge = 1;
    a.cap.max_recv_sge = srq ? 0 : 1;
    a.pd = pd;
    a.comp_mask = IBV_QP_INIT_ATTR_PD;
    if (sendOps) {
	a.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	a.send_ops_flags = sendOps;
    }
    if (tsoHeader) {
	a.comp_mask |= IBV_QP_INIT_ATTR_MAX_TSO_HEADER;
	a.max_tso_header = tsoHeader;
    }
    qp = mlx5dv_create_qp(ctx, &a, dv);
    if (qp == NULL) {
	Die("mlx5dv_create_qp");
    }
    return qp;
}

static void
Dci(
    int streams)
{
    struct mlx5dv_qp_init_attr dv;
    struct ibv_qp *qp;
    struct ibv_qp_ex *x;
    struct mlx5dv_qp_ex *m;

    memset(&dv, 0, sizeof(dv));
    dv.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_DC;
    dv.dc_init_attr.dc_type = MLX5DV_DCTYPE_DCI;
    if (streams) {
	dv.comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_DCI_STREAMS;
	dv.dc_init_attr.dci_streams.log_num_concurent = 2;
	dv.dc_init_attr.dci_streams.log_num_errored = 1;
    }
    qp = DvQp(IBV_QPT_DRIVER, IBV_QP_EX_WITH_SEND, &dv, NULL);
    x = ibv_qp_to_qp_ex(qp);
    m = mlx5dv_qp_ex_from_ibv_qp_ex(x);
    ibv_wr_start(x);
    x->wr_id = 1;
    x->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_send(x);
    if (streams) {
	mlx5dv_wr_set_dc_addr_stream(m, ah, 0x123, 0xabc, 1);
    } else {
	mlx5dv_wr_set_dc_addr(m, ah, 0x123, 0xabc);
    }
    ibv_wr_set_sge(x, mr->lkey, (uintptr_t) buf + 64, 64);
    x->wr_id = 2;
    x->wr_flags = 0;
    ibv_wr_send(x);
    mlx5dv_wr_set_dc_addr(m, ah, 0x124, 0xabd);
    ibv_wr_set_sge(x, mr->lkey, (uintptr_t) buf, 128);
    if (ibv_wr_complete(x)) {
	Die("ibv_wr_complete");
    }
    if (streams && mlx5dv_dci_stream_id_reset(qp, 1)) {
	Die("mlx5dv_dci_stream_id_reset");
    }
    ibv_destroy_qp(qp);
}

static void
Dct(void)
{
    struct mlx5dv_qp_init_attr dv;
    struct ibv_srq_init_attr sa;
    struct ibv_srq *srq;

    memset(&sa, 0, sizeof(sa));
    sa.attr.max_wr = 8;
    sa.attr.max_sge = 1;
    srq = ibv_create_srq(pd, &sa);
    if (srq == NULL) {
	Die("ibv_create_srq");
    }
    memset(&dv, 0, sizeof(dv));
    dv.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_DC;
    dv.dc_init_attr.dc_type = MLX5DV_DCTYPE_DCT;
    dv.dc_init_attr.dct_access_key = 0x1234;
    ibv_destroy_qp(DvQp(IBV_QPT_DRIVER, 0, &dv, srq));
    ibv_destroy_srq(srq);
}

static void
Memcpy(void)
{
    struct mlx5dv_qp_init_attr dv;
    struct ibv_qp *qp;
    struct ibv_qp_ex *x;

    memset(&dv, 0, sizeof(dv));
    dv.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS;
    dv.send_ops_flags = MLX5DV_QP_EX_WITH_MEMCPY;
    qp = DvQp(IBV_QPT_RC, IBV_QP_EX_WITH_SEND, &dv, NULL);
    x = ibv_qp_to_qp_ex(qp);
    ibv_wr_start(x);
    x->wr_id = 7;
    x->wr_flags = IBV_SEND_SIGNALED;
    mlx5dv_wr_memcpy(mlx5dv_qp_ex_from_ibv_qp_ex(x), mr2->lkey,
	    (uintptr_t) buf2, mr->lkey, (uintptr_t) buf + 256, 1024);
    if (ibv_wr_complete(x)) {
	Die("ibv_wr_complete");
    }
    ibv_destroy_qp(qp);
}

/*
 * A raw packet QP that segments (the only kind mlx5 does TSO on), and
 * two TSO sends of 3000 bytes: 54 bytes of Ethernet, IPv4 and TCP
 * headers, segments of 1000 and 1448 bytes.
 */

static void
Tso(void)
{
    struct mlx5dv_qp_init_attr dv;
    struct ibv_qp *qp;
    struct ibv_qp_ex *x;
    unsigned char hdr[54];
    int i;

    memset(&dv, 0, sizeof(dv));
    tsoHeader = 128;
    qp = DvQp(IBV_QPT_RAW_PACKET, IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_TSO,
	    &dv, NULL);
    tsoHeader = 0;
    x = ibv_qp_to_qp_ex(qp);
    for (i = 0; i < (int) sizeof(hdr); i++) {
	hdr[i] = (unsigned char) (i * 7 + 1);
    }
    ibv_wr_start(x);
    x->wr_id = 1;
    x->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_send_tso(x, hdr, sizeof(hdr), 1000);
    ibv_wr_set_sge(x, mr->lkey, (uintptr_t) buf, 3000);
    x->wr_id = 2;
    x->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_IP_CSUM;
    ibv_wr_send_tso(x, hdr, 14, 1448);
    ibv_wr_set_sge(x, mr->lkey, (uintptr_t) buf + 1000, 3000);
    if (ibv_wr_complete(x)) {
	Die("ibv_wr_complete");
    }
    ibv_destroy_qp(qp);
}

static void
Raw(void)
{
    struct mlx5dv_qp_init_attr dv;
    struct ibv_qp *qp;
    struct ibv_qp_ex *x;
    unsigned char wqe[48];
    int i;

    memset(&dv, 0, sizeof(dv));
    dv.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS;
    dv.send_ops_flags = MLX5DV_QP_EX_WITH_RAW_WQE;
    qp = DvQp(IBV_QPT_RC, IBV_QP_EX_WITH_SEND, &dv, NULL);
    x = ibv_qp_to_qp_ex(qp);
    /* test_mlx5_raw_wqe.py: a control segment and two data segments. */
    memset(wqe, 0, sizeof(wqe));
    mlx5dv_set_ctrl_seg((struct mlx5_wqe_ctrl_seg *) wqe, 0,
	    MLX5_OPCODE_SEND, 0, qp->qp_num, MLX5_WQE_CTRL_CQ_UPDATE, 3, 0,
	    0);
    for (i = 0; i < 2; i++) {
	mlx5dv_set_data_seg((struct mlx5_wqe_data_seg *) (wqe + 16 + 16 * i),
		2048, mr->lkey, (uintptr_t) buf + 2048 * i);
    }
    ibv_wr_start(x);
    x->wr_id = 3;
    x->wr_flags = 0;
    mlx5dv_wr_raw_wqe(mlx5dv_qp_ex_from_ibv_qp_ex(x), wqe);
    if (ibv_wr_complete(x)) {
	Die("ibv_wr_complete");
    }
    ibv_wr_start(x);
    x->wr_id = 4;
    x->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_send(x);
    ibv_wr_set_sge(x, mr->lkey, (uintptr_t) buf, 4096);
    if (ibv_wr_complete(x)) {
	Die("ibv_wr_complete");
    }
    ibv_destroy_qp(qp);
}

static void
QpCalls(void)
{
    struct mlx5dv_qp_init_attr dv;
    struct ibv_qp *qp;
    uint8_t port, active;

    memset(&dv, 0, sizeof(dv));
    qp = DvQp(IBV_QPT_RC, IBV_QP_EX_WITH_SEND, &dv, NULL);
    if (mlx5dv_query_qp_lag_port(qp, &port, &active)
	    || mlx5dv_modify_qp_lag_port(qp, 2)
	    || mlx5dv_modify_qp_udp_sport(qp, 55555)
	    || mlx5dv_map_ah_to_qp(ah, qp->qp_num)
	    || mlx5dv_qp_cancel_posted_send_wrs(
	    mlx5dv_qp_ex_from_ibv_qp_ex(ibv_qp_to_qp_ex(qp)), 5) != 1) {
	Die("qp calls");
    }
    ibv_destroy_qp(qp);
}

static void
CtxCalls(void)
{
    struct mlx5dv_port info;
    struct mlx5dv_clock_info ci;

    if (mlx5dv_query_port(ctx, 1, &info) || mlx5dv_get_clock_info(ctx, &ci)) {
	Die("context calls");
    }
}

/*
 * Software steering as test_mlx5_dr.py makes it: a NIC RX domain, a root
 * table forwarding to a table of level 1, a matcher on the source MAC,
 * a rule to a QP with a tag, then the domain's calls.  The objects are
 * destroyed children first (rules, matchers, actions, tables, domain).
 */

static void
MatchSmac(
    struct mlx5dv_flow_match_parameters *p,
    const unsigned char smac[6])
{
    /* fte_match_param.outer_headers.smac_47_16 and smac_15_0, in the
     * 448 bytes of software steering's match parameters (upstream's
     * FlowTableEntryMatchParamSW). */
    memset(p->match_buf, 0, 448);
    p->match_sz = 448;
    memcpy(p->match_buf, smac, 6);
}

static void
DrRules(void)
{
    static const unsigned char ones[6] = {0xff, 0xff, 0xff, 0xff, 0xff,
	0xff};
    static const unsigned char smac[6] = {0x11, 0x22, 0x33, 0x44, 0x55,
	0x66};
    struct mlx5dv_flow_match_parameters *p = calloc(1, sizeof(*p) + 512);
    struct mlx5dv_dr_domain *d;
    struct mlx5dv_dr_table *root, *t;
    struct mlx5dv_dr_matcher *rm, *m;
    struct mlx5dv_dr_action *toTable, *qpa, *tag, *acts[2];
    struct mlx5dv_dr_rule *rr, *r;
    struct mlx5dv_dr_matcher_layout layout;
    struct mlx5dv_qp_init_attr dv;
    struct ibv_qp *qp;
    char *text;
    size_t len;
    FILE *f;

    memset(&dv, 0, sizeof(dv));
    qp = DvQp(IBV_QPT_RC, 0, &dv, NULL);
    d = mlx5dv_dr_domain_create(ctx, MLX5DV_DR_DOMAIN_TYPE_NIC_RX);
    root = mlx5dv_dr_table_create(d, 0);
    t = mlx5dv_dr_table_create(d, 1);
    memset(p->match_buf, 0, 448);
    p->match_sz = 448;
    rm = mlx5dv_dr_matcher_create(root, 0, 0, p);
    toTable = mlx5dv_dr_action_create_dest_table(t);
    rr = mlx5dv_dr_rule_create(rm, p, 1, &toTable);
    MatchSmac(p, ones);
    m = mlx5dv_dr_matcher_create(t, 2, 1, p);
    layout.flags = MLX5DV_DR_MATCHER_LAYOUT_NUM_RULE;
    layout.log_num_of_rules_hint = 4;
    mlx5dv_dr_matcher_set_layout(m, &layout);
    qpa = mlx5dv_dr_action_create_dest_ibv_qp(qp);
    tag = mlx5dv_dr_action_create_tag(0x1234);
    acts[0] = tag;
    acts[1] = qpa;
    MatchSmac(p, smac);
    r = mlx5dv_dr_rule_create(m, p, 2, acts);
    mlx5dv_dr_domain_allow_duplicate_rules(d, false);
    mlx5dv_dr_domain_sync(d, MLX5DV_DR_DOMAIN_SYNC_FLAGS_SW
	    | MLX5DV_DR_DOMAIN_SYNC_FLAGS_HW);
    f = open_memstream(&text, &len);
    mlx5dv_dump_dr_domain(f, d);
    fclose(f);
    free(text);
    if (!d || !root || !t || !rm || !m || !rr || !r) {
	Die("dr");
    }
    mlx5dv_dr_rule_destroy(r);
    mlx5dv_dr_rule_destroy(rr);
    mlx5dv_dr_matcher_destroy(m);
    mlx5dv_dr_matcher_destroy(rm);
    mlx5dv_dr_action_destroy(tag);
    mlx5dv_dr_action_destroy(qpa);
    mlx5dv_dr_action_destroy(toTable);
    mlx5dv_dr_table_destroy(t);
    mlx5dv_dr_table_destroy(root);
    mlx5dv_dr_domain_destroy(d);
    ibv_destroy_qp(qp);
    free(p);
}

/*
 * Every other action, as the tests make them: drop, default miss, VLAN
 * push and pop, a modify header (set_action_in: the source MAC's high
 * bits), an L2-to-L2-tunnel reformat, vport and IB port destinations, a
 * flow counter and a TIR (DevX objects), an array of destinations, a
 * flow meter (modified once) and a sampler.
 */

static void
DrActions(void)
{
    static const unsigned char setSmac[8] = {0x10, 0x01, 0, 0, 0x88, 0x77,
	0x66, 0x55};
    static const unsigned char tunnel[16] = {0x02, 0, 0, 0, 0, 0x01, 0x02, 0,
	0, 0, 0, 0x02, 0x08, 0x00, 0x45, 0x00};
    unsigned char in[64], out[64], meter[32];
    struct mlx5dv_dr_domain *d, *tx;
    struct mlx5dv_dr_table *t;
    struct mlx5dv_devx_obj *counter, *tir;
    struct mlx5dv_dr_action *a[16];
    struct mlx5dv_dr_action_dest_attr da[2], *dap[2];
    struct mlx5dv_dr_action_dest_reformat ref;
    struct mlx5dv_dr_flow_meter_attr fm;
    struct mlx5dv_dr_flow_sampler_attr fs;
    int i, n = 0;

    d = mlx5dv_dr_domain_create(ctx, MLX5DV_DR_DOMAIN_TYPE_FDB);
    tx = mlx5dv_dr_domain_create(ctx, MLX5DV_DR_DOMAIN_TYPE_NIC_TX);
    t = mlx5dv_dr_table_create(d, 1);
    /* ALLOC_FLOW_COUNTER (0x939) and CREATE_TIR (0x900). */
    memset(in, 0, sizeof(in));
    in[0] = 0x09;
    in[1] = 0x39;
    counter = mlx5dv_devx_obj_create(ctx, in, 16, out, 16);
    in[1] = 0x00;
    tir = mlx5dv_devx_obj_create(ctx, in, 64, out, 16);
    a[n++] = mlx5dv_dr_action_create_drop();
    a[n++] = mlx5dv_dr_action_create_default_miss();
    a[n++] = mlx5dv_dr_action_create_pop_vlan();
    a[n++] = mlx5dv_dr_action_create_push_vlan(tx, htobe32(0x81000064));
    a[n++] = mlx5dv_dr_action_create_modify_header(d,
	    MLX5DV_DR_ACTION_FLAGS_ROOT_LEVEL, 8, (__be64 *) setSmac);
    a[n++] = mlx5dv_dr_action_create_packet_reformat(tx, 0,
	    MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
	    sizeof(tunnel), (void *) tunnel);
    a[n++] = mlx5dv_dr_action_create_dest_vport(d, 0xffff);
    a[n++] = mlx5dv_dr_action_create_dest_ib_port(d, 1);
    a[n++] = mlx5dv_dr_action_create_flow_counter(counter, 3);
    a[n++] = mlx5dv_dr_action_create_dest_devx_tir(tir);
    da[0].type = MLX5DV_DR_ACTION_DEST;
    da[0].dest = a[6];
    ref.reformat = a[5];
    ref.dest = a[7];
    da[1].type = MLX5DV_DR_ACTION_DEST_REFORMAT;
    da[1].dest_reformat = &ref;
    dap[0] = &da[0];
    dap[1] = &da[1];
    a[n++] = mlx5dv_dr_action_create_dest_array(d, 2, dap);
    /* flow_meter_parameters: valid, cbs_exponent 7, cir_mantissa 200. */
    memset(meter, 0, sizeof(meter));
    meter[0] = 0x80;
    meter[8] = 0x07;
    meter[11] = 200;
    memset(&fm, 0, sizeof(fm));
    fm.next_table = t;
    fm.active = 1;
    fm.reg_c_index = 5;
    fm.flow_meter_parameter = meter;
    fm.flow_meter_parameter_sz = sizeof(meter);
    a[n++] = mlx5dv_dr_action_create_flow_meter(&fm);
    fm.active = 0;
    fm.reg_c_index = 0;
    fm.flow_meter_parameter = NULL;
    fm.flow_meter_parameter_sz = 0;
    mlx5dv_dr_action_modify_flow_meter(a[n - 1], &fm, htobe64(1));
    memset(&fs, 0, sizeof(fs));
    fs.sample_ratio = 1000;
    fs.default_next_table = t;
    fs.num_sample_actions = 1;
    fs.sample_actions = &a[6];
    fs.action = htobe64(0x1234);
    a[n++] = mlx5dv_dr_action_create_flow_sampler(&fs);
    for (i = n - 1; i >= 0; i--) {
	if (a[i] == NULL) {
	    Die("dr action");
	}
	mlx5dv_dr_action_destroy(a[i]);
    }
    mlx5dv_devx_obj_destroy(tir);
    mlx5dv_devx_obj_destroy(counter);
    mlx5dv_dr_table_destroy(t);
    mlx5dv_dr_domain_destroy(tx);
    mlx5dv_dr_domain_destroy(d);
}

/*
 * A reserved QP number (test_mlx5_rdmacm.py test_reservered_qpn) and the
 * flow actions of test_mlx5_flow.py (a modify header that sets the
 * source MAC's high bits, an L2-to-L2-tunnel reformat).
 */

static void
Resources(void)
{
    static const unsigned char setSmac[8] = {0x10, 0x01, 0, 0, 0x88, 0x77,
	0x66, 0x55};
    static const unsigned char tunnel[16] = {0x02, 0, 0, 0, 0, 0x01, 0x02, 0,
	0, 0, 0, 0x02, 0x08, 0x00, 0x45, 0x00};
    uint32_t qpn;

    if (mlx5dv_reserved_qpn_alloc(ctx, &qpn)
	    || mlx5dv_reserved_qpn_dealloc(ctx, qpn)) {
	Die("reserved qpn");
    }
    if (mlx5dv_create_flow_action_modify_header(ctx, 8,
	    (uint64_t *) setSmac, MLX5DV_FLOW_TABLE_TYPE_NIC_RX) == NULL
	    || mlx5dv_create_flow_action_packet_reformat(ctx, sizeof(tunnel),
	    (void *) tunnel,
	    MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL,
	    MLX5DV_FLOW_TABLE_TYPE_NIC_TX) == NULL) {
	Die("flow action");
    }
}

/*
 * Mkeys as test_mlx5_mkey.py lays them out: a list of two pieces of an MR
 * (mr_list), an interleaving (mr_interleaved), the same through
 * mkey_configure with access flags, and signatures: T10-DIF in memory
 * and on the wire, CRC32 on the wire alone; then the key's check.
 */

static struct ibv_qp_ex *
MkeyQp(
    struct ibv_qp **qpPtr,
    struct mlx5dv_qp_ex **mPtr)
{
    struct mlx5dv_qp_init_attr dv;
    struct ibv_qp_ex *x;

    memset(&dv, 0, sizeof(dv));
    dv.comp_mask = MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS;
    dv.send_ops_flags = MLX5DV_QP_EX_WITH_MR_LIST
	    | MLX5DV_QP_EX_WITH_MR_INTERLEAVED
	    | MLX5DV_QP_EX_WITH_MKEY_CONFIGURE;
    *qpPtr = DvQp(IBV_QPT_RC, IBV_QP_EX_WITH_SEND, &dv, NULL);
    x = ibv_qp_to_qp_ex(*qpPtr);
    *mPtr = mlx5dv_qp_ex_from_ibv_qp_ex(x);
    return x;
}

static void
Mkeys(void)
{
    struct mlx5dv_mkey_init_attr ka;
    struct mlx5dv_mkey *mk, *sk;
    struct mlx5dv_mkey_conf_attr conf;
    struct mlx5dv_mkey_err e;
    struct ibv_sge sge[2];
    struct mlx5dv_mr_interleaved ilv[2];
    struct mlx5dv_sig_t10dif dif;
    struct mlx5dv_sig_crc crc;
    struct mlx5dv_sig_block_domain mem, wire;
    struct mlx5dv_sig_block_attr sig;
    struct mlx5dv_qp_ex *m;
    struct ibv_qp *qp;
    struct ibv_qp_ex *x = MkeyQp(&qp, &m);
    uint32_t access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE
	    | IBV_ACCESS_REMOTE_READ;

    memset(&ka, 0, sizeof(ka));
    ka.pd = pd;
    ka.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT;
    ka.max_entries = 4;
    mk = mlx5dv_create_mkey(&ka);
    ka.create_flags |= MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE;
    sk = mlx5dv_create_mkey(&ka);
    sge[0].lkey = sge[1].lkey = mr->lkey;
    sge[0].addr = (uintptr_t) buf;
    sge[0].length = 1024;
    sge[1].addr = (uintptr_t) buf + 2048;
    sge[1].length = 512;
    ilv[0].lkey = mr->lkey;
    ilv[0].addr = (uintptr_t) buf;
    ilv[0].bytes_count = 512;
    ilv[0].bytes_skip = 0;
    ilv[1].lkey = mr2->lkey;
    ilv[1].addr = (uintptr_t) buf2 + 8;
    ilv[1].bytes_count = 8;
    ilv[1].bytes_skip = 0;
    ibv_wr_start(x);
    x->wr_id = 1;
    x->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
    mlx5dv_wr_mr_list(m, mk, access, 2, sge);
    x->wr_id = 2;
    mlx5dv_wr_mr_interleaved(m, mk, access, 3, 2, ilv);
    x->wr_id = 3;
    memset(&conf, 0, sizeof(conf));
    mlx5dv_wr_mkey_configure(m, mk, 2, &conf);
    mlx5dv_wr_set_mkey_access_flags(m, access);
    mlx5dv_wr_set_mkey_layout_list(m, 2, sge);
    /* T10-DIF in memory and on the wire; CRC32 on the wire alone. */
    memset(&dif, 0, sizeof(dif));
    dif.bg_type = MLX5DV_SIG_T10DIF_CRC;
    dif.bg = 0xffff;
    dif.app_tag = 0x5678;
    dif.ref_tag = 0xabcdef90;
    dif.flags = MLX5DV_SIG_T10DIF_FLAG_REF_REMAP
	    | MLX5DV_SIG_T10DIF_FLAG_APP_ESCAPE;
    memset(&mem, 0, sizeof(mem));
    mem.sig_type = MLX5DV_SIG_TYPE_T10DIF;
    mem.sig.dif = &dif;
    mem.block_size = MLX5DV_BLOCK_SIZE_512;
    wire = mem;
    memset(&sig, 0, sizeof(sig));
    sig.mem = &mem;
    sig.wire = &wire;
    sig.check_mask = MLX5DV_SIG_MASK_T10DIF_GUARD
	    | MLX5DV_SIG_MASK_T10DIF_APPTAG | MLX5DV_SIG_MASK_T10DIF_REFTAG;
    x->wr_id = 4;
    conf.conf_flags = MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR;
    mlx5dv_wr_mkey_configure(m, sk, 3, &conf);
    mlx5dv_wr_set_mkey_access_flags(m, access);
    mlx5dv_wr_set_mkey_layout_list(m, 1, sge);
    mlx5dv_wr_set_mkey_sig_block(m, &sig);
    memset(&crc, 0, sizeof(crc));
    crc.type = MLX5DV_SIG_CRC_TYPE_CRC32;
    crc.seed = 0xffffffff;
    memset(&wire, 0, sizeof(wire));
    wire.sig_type = MLX5DV_SIG_TYPE_CRC;
    wire.sig.crc = &crc;
    wire.block_size = MLX5DV_BLOCK_SIZE_4096;
    sig.mem = NULL;
    sig.check_mask = MLX5DV_SIG_MASK_CRC32;
    sig.copy_mask = 0;
    x->wr_id = 5;
    conf.conf_flags = 0;
    mlx5dv_wr_mkey_configure(m, sk, 2, &conf);
    mlx5dv_wr_set_mkey_layout_list(m, 1, sge);
    mlx5dv_wr_set_mkey_sig_block(m, &sig);
    /* A send through the mkey: its lkey, an address in its space. */
    x->wr_id = 6;
    x->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_send(x);
    ibv_wr_set_sge(x, mk->lkey, 16, 100);
    if (ibv_wr_complete(x) || mlx5dv_mkey_check(sk, &e)) {
	Die("mkeys");
    }
    mlx5dv_destroy_mkey(sk);
    mlx5dv_destroy_mkey(mk);
    ibv_destroy_qp(qp);
}

/*
 * Crypto as test_mlx5_crypto.py: the older login, a login object, a DEK
 * made with it, and an mkey that encrypts with it (AES-XTS, 512-byte data
 * units, signature after crypto).
 */

static void
Crypto(void)
{
    struct mlx5dv_crypto_login_attr la;
    struct mlx5dv_crypto_login_attr_ex lx;
    struct mlx5dv_crypto_login_query_attr lq;
    struct mlx5dv_dek_init_attr da;
    struct mlx5dv_dek_attr dq;
    struct mlx5dv_mkey_init_attr ka;
    struct mlx5dv_mkey_conf_attr conf;
    struct mlx5dv_crypto_attr ca;
    struct mlx5dv_crypto_login_obj *login;
    enum mlx5dv_crypto_login_state state;
    struct mlx5dv_dek *dek;
    struct mlx5dv_mkey *mk;
    struct mlx5dv_qp_ex *m;
    struct ibv_qp *qp;
    struct ibv_qp_ex *x = MkeyQp(&qp, &m);
    struct ibv_sge sge;
    char credential[48];
    int i;

    for (i = 0; i < 48; i++) {
	credential[i] = (char) (i + 1);
    }
    memset(&la, 0, sizeof(la));
    la.credential_id = 7;
    la.import_kek_id = 9;
    memcpy(la.credential, credential, 48);
    if (mlx5dv_crypto_login(ctx, &la)
	    || mlx5dv_crypto_login_query_state(ctx, &state)
	    || mlx5dv_crypto_logout(ctx)) {
	Die("crypto login");
    }
    memset(&lx, 0, sizeof(lx));
    lx.credential_id = 7;
    lx.import_kek_id = 9;
    lx.credential = credential;
    lx.credential_len = 48;
    login = mlx5dv_crypto_login_create(ctx, &lx);
    memset(&lq, 0, sizeof(lq));
    mlx5dv_crypto_login_query(login, &lq);
    memset(&da, 0, sizeof(da));
    da.key_size = MLX5DV_CRYPTO_KEY_SIZE_128;
    da.has_keytag = true;
    da.key_purpose = MLX5DV_CRYPTO_KEY_PURPOSE_AES_XTS;
    da.pd = pd;
    memcpy(da.opaque, "dek0001\0", 8);
    for (i = 0; i < 40; i++) {
	da.key[i] = (char) (0xa0 + i);
    }
    da.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN;
    da.crypto_login = login;
    dek = mlx5dv_dek_create(ctx, &da);
    mlx5dv_dek_query(dek, &dq);
    /* A plaintext DEK (test_mlx5_crypto_plaintext_dek): the login's mask
     * with no login, a key of 32 bytes in the clear. */
    memset(&da, 0, sizeof(da));
    da.key_size = MLX5DV_CRYPTO_KEY_SIZE_128;
    da.key_purpose = MLX5DV_CRYPTO_KEY_PURPOSE_AES_XTS;
    da.pd = pd;
    for (i = 0; i < 32; i++) {
	da.key[i] = (char) (i + 1);
    }
    da.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN;
    if (mlx5dv_dek_destroy(mlx5dv_dek_create(ctx, &da))) {
	Die("plaintext dek");
    }
    memset(&ka, 0, sizeof(ka));
    ka.pd = pd;
    ka.create_flags = MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT
	    | MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO;
    ka.max_entries = 1;
    mk = mlx5dv_create_mkey(&ka);
    memset(&ca, 0, sizeof(ca));
    ca.crypto_standard = MLX5DV_CRYPTO_STANDARD_AES_XTS;
    ca.encrypt_on_tx = true;
    ca.signature_crypto_order =
	    MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX;
    ca.data_unit_size = MLX5DV_BLOCK_SIZE_512;
    ca.initial_tweak[0] = 0x11;
    ca.initial_tweak[15] = 0x22;
    ca.dek = dek;
    memcpy(ca.keytag, "tag12345", 8);
    sge.lkey = mr->lkey;
    sge.addr = (uintptr_t) buf;
    sge.length = 4096;
    ibv_wr_start(x);
    x->wr_id = 9;
    x->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
    memset(&conf, 0, sizeof(conf));
    mlx5dv_wr_mkey_configure(m, mk, 3, &conf);
    mlx5dv_wr_set_mkey_access_flags(m, IBV_ACCESS_LOCAL_WRITE
	    | IBV_ACCESS_REMOTE_READ);
    mlx5dv_wr_set_mkey_layout_list(m, 1, &sge);
    mlx5dv_wr_set_mkey_crypto(m, &ca);
    if (ibv_wr_complete(x) || !login || !dek || !mk) {
	Die("crypto");
    }
    mlx5dv_destroy_mkey(mk);
    mlx5dv_dek_destroy(dek);
    mlx5dv_crypto_login_destroy(login);
    ibv_destroy_qp(qp);
}

/*
 * A scheduling tree as test_mlx5_sched.py makes one (a root, a node with
 * a weight, a leaf with a rate, the leaf's weight changed, a QP on the
 * leaf), then an MSI-X vector, an EQ on it and a UMEM of chosen page
 * sizes (test_mlx5_devx.py's pieces).
 */

static void
Sched(void)
{
    struct mlx5dv_sched_attr a;
    struct mlx5dv_sched_node *root, *node;
    struct mlx5dv_sched_leaf *leaf;
    struct mlx5dv_qp_init_attr dv;
    struct ibv_qp *qp;

    memset(&dv, 0, sizeof(dv));
    qp = DvQp(IBV_QPT_RC, 0, &dv, NULL);
    memset(&a, 0, sizeof(a));
    root = mlx5dv_sched_node_create(ctx, &a);
    a.parent = root;
    a.flags = MLX5DV_SCHED_ELEM_ATTR_FLAGS_BW_SHARE;
    a.bw_share = 10;
    node = mlx5dv_sched_node_create(ctx, &a);
    a.parent = node;
    a.flags = MLX5DV_SCHED_ELEM_ATTR_FLAGS_MAX_AVG_BW;
    a.bw_share = 0;
    a.max_avg_bw = 1000;
    leaf = mlx5dv_sched_leaf_create(ctx, &a);
    a.flags = MLX5DV_SCHED_ELEM_ATTR_FLAGS_BW_SHARE;
    a.bw_share = 5;
    a.max_avg_bw = 0;
    if (!root || !node || !leaf || mlx5dv_sched_leaf_modify(leaf, &a)
	    || mlx5dv_modify_qp_sched_elem(qp, leaf, leaf)) {
	Die("sched");
    }
    ibv_destroy_qp(qp);
    mlx5dv_sched_leaf_destroy(leaf);
    mlx5dv_sched_node_destroy(node);
    mlx5dv_sched_node_destroy(root);
}

static void
DevxEq(void)
{
    unsigned char in[0x110], out[0x10];
    struct mlx5dv_devx_msi_vector *msi;
    struct mlx5dv_devx_eq *eq;
    struct mlx5dv_devx_umem_in ui;
    struct mlx5dv_devx_umem *umem;
    void *mem;

    msi = mlx5dv_devx_alloc_msi_vector(ctx);
    /* CREATE_EQ (0x301): log_eq_size 6, intr the vector. */
    memset(in, 0, sizeof(in));
    in[0] = 0x03;
    in[1] = 0x01;
    in[0x10 + 0x0c] = 6;
    in[0x10 + 0x17] = (unsigned char) msi->vector;
    eq = mlx5dv_devx_create_eq(ctx, in, sizeof(in), out, sizeof(out));
    if (posix_memalign(&mem, 4096, 8192)) {
	Die("posix_memalign");
    }
    memset(&ui, 0, sizeof(ui));
    ui.addr = mem;
    ui.size = 8192;
    ui.access = IBV_ACCESS_LOCAL_WRITE;
    ui.pgsz_bitmap = 0x3000;
    umem = mlx5dv_devx_umem_reg_ex(ctx, &ui);
    if (!msi || !eq || !umem) {
	Die("devx eq");
    }
    mlx5dv_devx_umem_dereg(umem);
    mlx5dv_devx_destroy_eq(eq);
    mlx5dv_devx_free_msi_vector(msi);
    free(mem);
}

/*
 * DevX in the event loop, as test_mlx5_devx.py test_devx_async_query and
 * test_mlx5_devx_async_events.py do: a flow counter queried
 * asynchronously, its completion read; an event channel subscribed to
 * the counter's events with a cookie and to an event by fd, an event
 * read.
 */

static void
DevxEvents(void)
{
    unsigned char in[16], out[16], query[16];
    struct mlx5dv_devx_obj *counter;
    struct mlx5dv_devx_cmd_comp *comp;
    struct mlx5dv_devx_event_channel *ch;
    struct {
	struct mlx5dv_devx_async_cmd_hdr hdr;
	unsigned char out[32];
    } resp;
    struct {
	struct mlx5dv_devx_async_event_hdr hdr;
	unsigned char data[512];
    } ev;
    uint16_t events[2] = {0x1b, 0x1c};

    memset(in, 0, sizeof(in));
    in[0] = 0x09;			/* ALLOC_FLOW_COUNTER */
    in[1] = 0x39;
    counter = mlx5dv_devx_obj_create(ctx, in, 16, out, 16);
    comp = mlx5dv_devx_create_cmd_comp(ctx);
    memset(query, 0, sizeof(query));
    query[0] = 0x09;			/* QUERY_FLOW_COUNTER */
    query[1] = 0x3b;
    if (!counter || !comp || mlx5dv_devx_obj_query_async(counter, query, 16,
	    32, 77, comp) || mlx5dv_devx_get_async_cmd_comp(comp, &resp.hdr,
	    sizeof(resp))) {
	Die("async query");
    }
    ch = mlx5dv_devx_create_event_channel(ctx, 0);
    if (!ch || mlx5dv_devx_subscribe_devx_event(ch, counter,
	    sizeof(events), events, 0xbeef)
	    || mlx5dv_devx_subscribe_devx_event_fd(ch, 0, NULL, 0x1d)
	    || mlx5dv_devx_get_event(ch, &ev.hdr, sizeof(ev)) < 0) {
	Die("event channel");
    }
    mlx5dv_devx_destroy_event_channel(ch);
    mlx5dv_devx_destroy_cmd_comp(comp);
    mlx5dv_devx_obj_destroy(counter);
}

/*
 * A VFIO device as test_mlx5_vfio.py opens one, its events fd and one
 * round of its events.
 */

static void
Vfio(void)
{
    struct mlx5dv_vfio_context_attr a;
    struct ibv_device **list;
    struct ibv_context *v;

    memset(&a, 0, sizeof(a));
    a.pci_name = "0000:08:00.0";
    a.flags = MLX5DV_VFIO_CTX_FLAGS_INIT_LINK_DOWN;
    list = mlx5dv_get_vfio_device_list(&a);
    if (list == NULL || list[0] == NULL) {
	Die("vfio list");
    }
    v = ibv_open_device(list[0]);
    ibv_free_device_list(list);
    if (v == NULL || mlx5dv_vfio_get_events_fd(v) < 0
	    || mlx5dv_vfio_process_events(v)) {
	Die("vfio");
    }
    ibv_close_device(v);
}

int
main(
    int argc,
    char **argv)
{
    struct ibv_device **list;
    struct ibv_ah_attr aa;
    union ibv_gid gid;
    int i, gidIndex;

    if (argc != 4) {
	fprintf(stderr, "usage: %s case device gid_index\n", argv[0]);
	return 2;
    }
    gidIndex = atoi(argv[3]);
    list = ibv_get_device_list(NULL);
    for (i = 0; list && list[i]; i++) {
	if (strcmp(ibv_get_device_name(list[i]), argv[2]) != 0) {
	    continue;
	}
	if (strncmp(argv[1], "devx_", 5) == 0) {
	    /* The cases that make DevX objects: a DevX context. */
	    struct mlx5dv_context_attr ca = {MLX5DV_CONTEXT_FLAGS_DEVX, 0};

	    ctx = mlx5dv_open_device(list[i], &ca);
	} else {
	    ctx = ibv_open_device(list[i]);
	}
    }
    if (ctx == NULL) {
	Die(argv[2]);
    }
    pd = ibv_alloc_pd(ctx);
    cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
    mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
    mr2 = ibv_reg_mr(pd, buf2, sizeof(buf2), IBV_ACCESS_LOCAL_WRITE);
    if (pd == NULL || cq == NULL || mr == NULL || mr2 == NULL
	    || ibv_query_gid(ctx, 1, gidIndex, &gid)) {
	Die("setup");
    }
    memset(&aa, 0, sizeof(aa));
    aa.port_num = 1;
    aa.is_global = 1;
    aa.grh.dgid = gid;
    aa.grh.sgid_index = (uint8_t) gidIndex;
    aa.grh.hop_limit = 1;
    ah = ibv_create_ah(pd, &aa);
    if (ah == NULL) {
	Die("ibv_create_ah");
    }
    if (strcmp(argv[1], "dci") == 0) {
	Dci(0);
    } else if (strcmp(argv[1], "dci_stream") == 0) {
	Dci(1);
    } else if (strcmp(argv[1], "dct") == 0) {
	Dct();
    } else if (strcmp(argv[1], "memcpy") == 0) {
	Memcpy();
    } else if (strcmp(argv[1], "raw") == 0) {
	Raw();
    } else if (strcmp(argv[1], "tso") == 0) {
	Tso();
    } else if (strcmp(argv[1], "qp") == 0) {
	QpCalls();
    } else if (strcmp(argv[1], "ctx") == 0) {
	CtxCalls();
    } else if (strcmp(argv[1], "sched") == 0) {
	Sched();
    } else if (strcmp(argv[1], "devx_eq") == 0) {
	DevxEq();
    } else if (strcmp(argv[1], "devx_events") == 0) {
	DevxEvents();
    } else if (strcmp(argv[1], "vfio") == 0) {
	Vfio();
    } else if (strcmp(argv[1], "mkey") == 0) {
	Mkeys();
    } else if (strcmp(argv[1], "crypto") == 0) {
	Crypto();
    } else if (strcmp(argv[1], "res") == 0) {
	Resources();
    } else if (strcmp(argv[1], "dr_rules") == 0) {
	DrRules();
    } else if (strcmp(argv[1], "devx_dr_actions") == 0) {
	DrActions();
    } else {
	fprintf(stderr, "no case %s\n", argv[1]);
	return 2;
    }
    ibv_destroy_ah(ah);
    ibv_dereg_mr(mr2);
    ibv_dereg_mr(mr);
    ibv_destroy_cq(cq);
    ibv_dealloc_pd(pd);
    ibv_close_device(ctx);
    return 0;
}
