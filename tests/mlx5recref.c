/*
 * mlx5recref.c --
 *
 *	The C side of tests/mlx5rec.test: each case makes the libmlx5 calls
 *	that rdma-core's own tests make (tests/test_mlx5_dc.py,
 *	test_mlx5_dma_memcpy.py, test_mlx5_raw_wqe.py,
 *	test_mlx5_lag_affinity.py, test_mlx5_udp_sport.py,
 *	test_mlx5_query_port.py, test_mlx5_timestamp.py), run under the
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

static void
Die(
    const char *what)
{
    perror(what);
    exit(1);
}

/*
 * A QP through mlx5dv_create_qp, as the tests' Mlx5QP: 8 sends and
 * receives of one sge, ibv send ops (0: none) and the DV attributes.
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
	if (strcmp(ibv_get_device_name(list[i]), argv[2]) == 0) {
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
    } else if (strcmp(argv[1], "qp") == 0) {
	QpCalls();
    } else if (strcmp(argv[1], "ctx") == 0) {
	CtxCalls();
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
