/*
 * mlx5wqe.c --
 *
 *	The reference for tests/mlx5wqe.test: WQE segments and CQE bits as
 *	mlx5dv.h's own static inline helpers make and read them
 *	(mlx5dv_set_ctrl_seg, mlx5dv_set_data_seg, mlx5dv_get_cqe_*,
 *	mlx5dv_set_cqe_owner, mlx5dv_ts_to_ns).  Each line is "NAME HEX"
 *	(bytes) or "NAME VALUE ..." (numbers); the test makes the same
 *	cases with mlx5::wqe, mlx5::cqe and the clock arithmetic and
 *	compares.  No device is needed.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include <infiniband/mlx5dv.h>
#include <stdio.h>
#include <string.h>

static void
Hex(
    const char *name,
    const void *p,
    size_t n)
{
    const unsigned char *b = p;
    size_t i;

    printf("%s ", name);
    for (i = 0; i < n; i++) {
	printf("%02x", b[i]);
    }
    printf("\n");
}

static void
Cqe(
    const char *name,
    unsigned char opOwn)
{
    struct mlx5_cqe64 cqe;

    memset(&cqe, 0, sizeof(cqe));
    cqe.op_own = opOwn;
    printf("%s %u %u %u %u", name, mlx5dv_get_cqe_opcode(&cqe),
	    mlx5dv_get_cqe_owner(&cqe), mlx5dv_get_cqe_se(&cqe),
	    mlx5dv_get_cqe_format(&cqe));
    mlx5dv_set_cqe_owner(&cqe, 1);
    printf(" %u", cqe.op_own);
    mlx5dv_set_cqe_owner(&cqe, 0);
    printf(" %u\n", cqe.op_own);
}

int
main(void)
{
    struct mlx5_wqe_ctrl_seg ctrl;
    struct mlx5_wqe_data_seg data;
    struct mlx5dv_clock_info ci;

    /* test_mlx5_raw_wqe.py: a SEND of two data segments, CQ update. */
    memset(&ctrl, 0, sizeof(ctrl));
    mlx5dv_set_ctrl_seg(&ctrl, 0, MLX5_OPCODE_SEND, 0, 0x1a2b3c,
	    MLX5_WQE_CTRL_CQ_UPDATE, 3, 0, 0);
    Hex("ctrl-send", &ctrl, sizeof(ctrl));
    /* Every field at once, each at its largest. */
    memset(&ctrl, 0, sizeof(ctrl));
    mlx5dv_set_ctrl_seg(&ctrl, 0xffff, MLX5_OPCODE_MMO, 0xff, 0xffffff,
	    MLX5_WQE_CTRL_FENCE | MLX5_WQE_CTRL_CQ_UPDATE
	    | MLX5_WQE_CTRL_SOLICITED, 0x3f, 0xff, 0xffffffff);
    Hex("ctrl-max", &ctrl, sizeof(ctrl));
    memset(&ctrl, 0, sizeof(ctrl));
    mlx5dv_set_ctrl_seg(&ctrl, 0x1234, MLX5_OPCODE_RDMA_WRITE_IMM, 0x5,
	    0x000777, MLX5_WQE_CTRL_INITIATOR_SMALL_FENCE, 4, 0x9a,
	    0x11223344);
    Hex("ctrl-imm", &ctrl, sizeof(ctrl));
    mlx5dv_set_data_seg(&data, 4096, 0x1234, (uintptr_t) 0x7f00deadbeef);
    Hex("data-4k", &data, sizeof(data));
    mlx5dv_set_data_seg(&data, 0xffffffff, 0xffffffff, (uintptr_t) ~0ull);
    Hex("data-max", &data, sizeof(data));
    Cqe("cqe-0", 0);
    Cqe("cqe-d2", 0xd2);
    Cqe("cqe-ff", 0xff);
    Cqe("cqe-2d", 0x2d);

    /* mlx5dv_ts_to_ns: a timestamp after and one before last_cycles. */
    ci.nsec = 1000000000ull;
    ci.last_cycles = 0x1000;
    ci.frac = 0x55;
    ci.mult = 0x80000000u;
    ci.shift = 31;
    ci.mask = 0xffffffffffffull;
    printf("ts-after %llu\n",
	    (unsigned long long) mlx5dv_ts_to_ns(&ci, 0x1000 + 12345));
    printf("ts-before %llu\n",
	    (unsigned long long) mlx5dv_ts_to_ns(&ci, 0x1000 - 777));
    printf("ts-wrap %llu\n",
	    (unsigned long long) mlx5dv_ts_to_ns(&ci, 0xfffffffffff0ull));
    return 0;
}
