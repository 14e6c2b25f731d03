/*
 * cntrrecref.c --
 *
 *	The C side of tests/compcntr.test's recorded case: completion
 *	counters used the way their manual pages (ibv_create_comp_cntr(3),
 *	ibv_qp_attach_comp_cntr(3), ibv_query_comp_cntr_caps(3)) describe,
 *	run under tests/cntrrec.c.  The Tcl side makes the same calls with
 *	the verbs package; the two logs must be the same.
 *
 *	Usage: cntrrecref DEVICE
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

static void
Check(
    int ok,
    const char *what)
{
    if (!ok) {
	fprintf(stderr, "cntrrecref: %s failed\n", what);
	exit(1);
    }
}

/*
 * An RC queue pair on pd and cq, moved to init when init is set.
 */

static struct ibv_qp *
MakeQp(
    struct ibv_pd *pd,
    struct ibv_cq *cq,
    int init)
{
    struct ibv_qp_init_attr ia;
    struct ibv_qp_attr qa;
    struct ibv_qp *qp;

    memset(&ia, 0, sizeof(ia));
    ia.send_cq = ia.recv_cq = cq;
    ia.qp_type = IBV_QPT_RC;
    ia.cap.max_send_wr = ia.cap.max_recv_wr = 4;
    ia.cap.max_send_sge = ia.cap.max_recv_sge = 1;
    qp = ibv_create_qp(pd, &ia);
    Check(qp != NULL, "ibv_create_qp");
    if (init) {
	memset(&qa, 0, sizeof(qa));
	qa.qp_state = IBV_QPS_INIT;
	qa.port_num = 1;
	qa.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
	Check(ibv_modify_qp(qp, &qa, IBV_QP_STATE | IBV_QP_PKEY_INDEX
		| IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) == 0, "ibv_modify_qp");
    }
    return qp;
}

int
main(
    int argc,
    char **argv)
{
    struct ibv_device **list;
    struct ibv_context *ctx = NULL;
    struct ibv_comp_cntr_caps caps;
    struct ibv_comp_cntr_init_attr ca;
    struct ibv_qp_attach_comp_cntr_attr aa;
    struct ibv_comp_cntr *bytes, *wrs;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    struct ibv_qp *qp1, *qp2;
    uint64_t v;
    int i;

    Check(argc == 2, "usage: cntrrecref DEVICE");
    list = ibv_get_device_list(NULL);
    Check(list != NULL, "ibv_get_device_list");
    for (i = 0; list[i]; i++) {
	if (strcmp(ibv_get_device_name(list[i]), argv[1]) == 0) {
	    ctx = ibv_open_device(list[i]);
	}
    }
    Check(ctx != NULL, "ibv_open_device");

    Check(ibv_query_comp_cntr_caps(ctx, &caps) == 0, "query caps");

    /* A byte counter: its counts set, increased and read back. */
    memset(&ca, 0, sizeof(ca));
    ca.type = IBV_COMP_CNTR_TYPE_BYTES;
    bytes = ibv_create_comp_cntr(ctx, &ca);
    Check(bytes != NULL, "ibv_create_comp_cntr");
    Check(ibv_set_comp_cntr(bytes, 5) == 0, "set");
    Check(ibv_inc_comp_cntr(bytes, 2) == 0, "inc");
    Check(ibv_read_comp_cntr(bytes, &v) == 0 && v == 7, "read");
    Check(ibv_set_err_comp_cntr(bytes, 1) == 0, "set_err");
    Check(ibv_inc_err_comp_cntr(bytes, 3) == 0, "inc_err");
    Check(ibv_read_err_comp_cntr(bytes, &v) == 0 && v == 4, "read_err");
    Check(ibv_inc_comp_cntr(bytes, 1) == 0, "inc 1");
    Check(ibv_set_comp_cntr(bytes, UINT64_MAX) == 0, "set max");
    Check(ibv_read_comp_cntr(bytes, &v) == 0 && v == UINT64_MAX, "read max");

    /* A work request counter, on two queue pairs: local operations of
     * one in reset, remote writes of the other in init. */
    memset(&ca, 0, sizeof(ca));
    ca.type = IBV_COMP_CNTR_TYPE_WRS;
    wrs = ibv_create_comp_cntr(ctx, &ca);
    Check(wrs != NULL, "ibv_create_comp_cntr wrs");
    pd = ibv_alloc_pd(ctx);
    Check(pd != NULL, "ibv_alloc_pd");
    cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
    Check(cq != NULL, "ibv_create_cq");
    qp1 = MakeQp(pd, cq, 0);
    qp2 = MakeQp(pd, cq, 1);
    memset(&aa, 0, sizeof(aa));
    aa.op_mask = IBV_QP_ATTACH_COMP_CNTR_OP_SEND
	    | IBV_QP_ATTACH_COMP_CNTR_OP_RECV;
    Check(ibv_qp_attach_comp_cntr(qp1, wrs, &aa) == 0, "attach qp1 wrs");
    memset(&aa, 0, sizeof(aa));
    aa.op_mask = IBV_QP_ATTACH_COMP_CNTR_OP_RDMA_WRITE;
    Check(ibv_qp_attach_comp_cntr(qp1, bytes, &aa) == 0, "attach qp1 bytes");
    memset(&aa, 0, sizeof(aa));
    aa.op_mask = IBV_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE;
    Check(ibv_qp_attach_comp_cntr(qp2, wrs, &aa) == 0, "attach qp2 wrs");

    /* The queue pairs first, then the counters they held. */
    Check(ibv_destroy_qp(qp1) == 0, "ibv_destroy_qp qp1");
    Check(ibv_destroy_qp(qp2) == 0, "ibv_destroy_qp qp2");
    Check(ibv_destroy_comp_cntr(bytes) == 0, "destroy bytes");
    Check(ibv_destroy_comp_cntr(wrs) == 0, "destroy wrs");
    ibv_destroy_cq(cq);
    ibv_dealloc_pd(pd);
    ibv_close_device(ctx);
    ibv_free_device_list(list);
    return 0;
}
