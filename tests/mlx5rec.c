/*
 * mlx5rec.c --
 *
 *	The recorder of tests/mlx5rec.test: an LD_PRELOAD library that
 *	stands in for the libmlx5 calls a device without mlx5 cannot run,
 *	and logs each with the contents of what it is given, one line per
 *	call, to the file named by $MLX5REC_LOG.  The test runs the same
 *	case through the verbs package and through tests/mlx5recref.c (a C
 *	program written from rdma-core's tests) and compares the two logs:
 *	that proves the package's marshalling, never the device's work.
 *
 *	What it does instead of libmlx5: mlx5dv_is_supported says yes;
 *	mlx5dv_create_qp logs both attribute structs and makes the nearest
 *	QP the real device can (a driver QP becomes an RC one), whose
 *	ibv_wr_* entry points it replaces by loggers that post nothing;
 *	mlx5dv_qp_ex_from_ibv_qp_ex gives an mlx5dv_qp_ex of loggers; the
 *	other calls log and succeed, queries fill in fixed values.
 *	ibv_reg_mr, ibv_reg_mr_iova2 and ibv_create_ah pass through and
 *	are remembered, so that lkeys and addresses are logged as
 *	"mrN+OFFSET" and handles as "ahN": the numbering is by first
 *	appearance, the same in both runs of a case.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <endian.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>

#define MAXN 64

static struct { uint64_t addr, len; uint32_t lkey; } mrs[MAXN];
static int nmrs;
static const void *ahs[MAXN];
static int nahs;
static uint32_t qpns[MAXN];
static int nqpns;
static struct { struct ibv_qp_ex *qpx; struct mlx5dv_qp_ex mqp; } dvqps[MAXN];
static int ndvqps;

static void
Log(
    const char *fmt,
    ...)
{
    const char *path = getenv("MLX5REC_LOG");
    FILE *f;
    va_list ap;

    if (path == NULL || (f = fopen(path, "a")) == NULL) {
	return;
    }
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

/*
 * Names by first appearance: an address or lkey of a registered MR, an
 * AH, a QP number.  Each returns a static buffer of its own.
 */

static const char *
Addr(
    uint64_t a)
{
    static char buf[4][48];
    static int k;
    char *b = buf[k++ % 4];
    int i;

    for (i = 0; i < nmrs; i++) {
	if (a >= mrs[i].addr && a < mrs[i].addr + mrs[i].len) {
	    snprintf(b, 48, "mr%d+%llu", i + 1,
		    (unsigned long long) (a - mrs[i].addr));
	    return b;
	}
    }
    snprintf(b, 48, "0x%llx", (unsigned long long) a);
    return b;
}

static const char *
Lkey(
    uint32_t lkey)
{
    static char buf[4][24];
    static int k;
    char *b = buf[k++ % 4];
    int i;

    for (i = 0; i < nmrs; i++) {
	if (mrs[i].lkey == lkey) {
	    snprintf(b, 24, "mr%d", i + 1);
	    return b;
	}
    }
    snprintf(b, 24, "0x%x", lkey);
    return b;
}

static int
Ah(
    const void *ah)
{
    int i;

    for (i = 0; i < nahs; i++) {
	if (ahs[i] == ah) {
	    return i + 1;
	}
    }
    return 0;
}

static int
Qpn(
    uint32_t qpn)
{
    int i;

    for (i = 0; i < nqpns; i++) {
	if (qpns[i] == qpn) {
	    return i + 1;
	}
    }
    if (nqpns < MAXN) {
	qpns[nqpns++] = qpn;
	return nqpns;
    }
    return 0;
}

/*
 * Pass-throughs that remember.
 */

static struct ibv_mr *
Remember(
    struct ibv_mr *mr)
{
    int i;

    for (i = 0; mr && i < nmrs; i++) {
	if (mrs[i].lkey == mr->lkey) {
	    return mr;		/* ibv_reg_mr through ibv_reg_mr_iova2. */
	}
    }
    if (mr && nmrs < MAXN) {
	mrs[nmrs].addr = (uint64_t) (uintptr_t) mr->addr;
	mrs[nmrs].len = mr->length;
	mrs[nmrs].lkey = mr->lkey;
	nmrs++;
    }
    return mr;
}

#undef ibv_reg_mr
struct ibv_mr *
ibv_reg_mr(
    struct ibv_pd *pd,
    void *addr,
    size_t length,
    int access)
{
    struct ibv_mr *(*real)(struct ibv_pd *, void *, size_t, int) =
	    dlsym(RTLD_NEXT, "ibv_reg_mr");

    return Remember(real(pd, addr, length, access));
}

struct ibv_mr *
ibv_reg_mr_iova2(
    struct ibv_pd *pd,
    void *addr,
    size_t length,
    uint64_t iova,
    unsigned int access)
{
    struct ibv_mr *(*real)(struct ibv_pd *, void *, size_t, uint64_t,
	    unsigned int) = dlsym(RTLD_NEXT, "ibv_reg_mr_iova2");

    return Remember(real(pd, addr, length, iova, access));
}

struct ibv_ah *
ibv_create_ah(
    struct ibv_pd *pd,
    struct ibv_ah_attr *attr)
{
    struct ibv_ah *(*real)(struct ibv_pd *, struct ibv_ah_attr *) =
	    dlsym(RTLD_NEXT, "ibv_create_ah");
    struct ibv_ah *ah = real(pd, attr);

    if (ah && nahs < MAXN) {
	ahs[nahs++] = ah;
    }
    return ah;
}

/*
 * The ibv_wr_* entry points of a QP made here, and those of its
 * mlx5dv_qp_ex: each logs, none posts.
 */

static void
Builder(
    struct ibv_qp_ex *x,
    const char *what)
{
    Log("%s wr_id=%llu wr_flags=0x%x", what,
	    (unsigned long long) x->wr_id, x->wr_flags);
}

static void WrStart(struct ibv_qp_ex *x) { (void) x; Log("wr_start"); }
static int WrComplete(struct ibv_qp_ex *x) { (void) x; Log("wr_complete"); return 0; }
static void WrAbort(struct ibv_qp_ex *x) { (void) x; Log("wr_abort"); }
static void WrSend(struct ibv_qp_ex *x) { Builder(x, "wr_send"); }

static void
WrSendImm(
    struct ibv_qp_ex *x,
    __be32 imm)
{
    Builder(x, "wr_send_imm");
    Log("  imm_data=0x%x", be32toh(imm));
}

static void
WrRdmaWrite(
    struct ibv_qp_ex *x,
    uint32_t rkey,
    uint64_t addr)
{
    Builder(x, "wr_rdma_write");
    Log("  rkey=%s remote_addr=%s", Lkey(rkey), Addr(addr));
}

static void
WrSetSge(
    struct ibv_qp_ex *x,
    uint32_t lkey,
    uint64_t addr,
    uint32_t length)
{
    (void) x;
    Log("wr_set_sge lkey=%s addr=%s length=%u", Lkey(lkey), Addr(addr),
	    length);
}

static void
WrSetSgeList(
    struct ibv_qp_ex *x,
    size_t n,
    const struct ibv_sge *sg)
{
    size_t i;

    (void) x;
    Log("wr_set_sge_list num_sge=%zu", n);
    for (i = 0; i < n; i++) {
	Log("  lkey=%s addr=%s length=%u", Lkey(sg[i].lkey),
		Addr(sg[i].addr), sg[i].length);
    }
}

static void
DcAddr(
    struct mlx5dv_qp_ex *m,
    struct ibv_ah *ah,
    uint32_t dctn,
    uint64_t key)
{
    (void) m;
    Log("mlx5dv_wr_set_dc_addr ah=ah%d remote_dctn=0x%x remote_dc_key=0x%llx",
	    Ah(ah), dctn, (unsigned long long) key);
}

static void
DcAddrStream(
    struct mlx5dv_qp_ex *m,
    struct ibv_ah *ah,
    uint32_t dctn,
    uint64_t key,
    uint16_t stream)
{
    (void) m;
    Log("mlx5dv_wr_set_dc_addr_stream ah=ah%d remote_dctn=0x%x "
	    "remote_dc_key=0x%llx stream_id=%u", Ah(ah), dctn,
	    (unsigned long long) key, stream);
}

static struct ibv_qp_ex *
QpxOf(
    struct mlx5dv_qp_ex *m)
{
    int i;

    for (i = 0; i < ndvqps; i++) {
	if (&dvqps[i].mqp == m) {
	    return dvqps[i].qpx;
	}
    }
    return NULL;
}

static void
Memcpy(
    struct mlx5dv_qp_ex *m,
    uint32_t destLkey,
    uint64_t dest,
    uint32_t srcLkey,
    uint64_t src,
    size_t length)
{
    Builder(QpxOf(m), "mlx5dv_wr_memcpy");
    Log("  dest_lkey=%s dest_addr=%s src_lkey=%s src_addr=%s length=%zu",
	    Lkey(destLkey), Addr(dest), Lkey(srcLkey), Addr(src), length);
}

static void
RawWqe(
    struct mlx5dv_qp_ex *m,
    const void *wqe)
{
    const struct mlx5_wqe_ctrl_seg *c = wqe;
    const struct mlx5_wqe_data_seg *d = (const void *) (c + 1);
    uint32_t opmod = be32toh(c->opmod_idx_opcode), qpnDs = be32toh(c->qpn_ds);
    unsigned ds = qpnDs & 0x3f, i;

    Builder(QpxOf(m), "mlx5dv_wr_raw_wqe");
    Log("  ctrl opcode=0x%x opmod=0x%x pi=%u qpn=qpn%d ds=%u fm_ce_se=0x%x "
	    "signature=0x%x imm=0x%x", opmod & 0xff, opmod >> 24,
	    (opmod >> 8) & 0xffff, Qpn(qpnDs >> 8), ds, c->fm_ce_se,
	    c->signature, c->imm);
    for (i = 1; i < ds; i++, d++) {
	Log("  data length=%u lkey=%s addr=%s", be32toh(d->byte_count),
		Lkey(be32toh(d->lkey)), Addr(be64toh(d->addr)));
    }
}

/*
 * libmlx5's entry points.
 */

bool
mlx5dv_is_supported(
    struct ibv_device *device)
{
    (void) device;
    return true;
}

struct ibv_qp *
mlx5dv_create_qp(
    struct ibv_context *ctx,
    struct ibv_qp_init_attr_ex *a,
    struct mlx5dv_qp_init_attr *dv)
{
    struct ibv_qp_init_attr_ex copy = *a;
    struct ibv_qp *qp;

    Log("mlx5dv_create_qp qp_type=%d comp_mask=0x%x send_ops_flags=0x%llx "
	    "max_send_wr=%u max_recv_wr=%u max_send_sge=%u max_recv_sge=%u "
	    "max_inline_data=%u sq_sig_all=%d srq=%d", a->qp_type,
	    a->comp_mask, (unsigned long long) a->send_ops_flags,
	    a->cap.max_send_wr, a->cap.max_recv_wr, a->cap.max_send_sge,
	    a->cap.max_recv_sge, a->cap.max_inline_data, a->sq_sig_all,
	    a->srq != NULL);
    if (dv) {
	Log("  dv comp_mask=0x%llx create_flags=0x%x dc_type=%d "
		"dct_access_key=0x%llx log_num_concurent=%u "
		"log_num_errored=%u send_ops_flags=0x%llx",
		(unsigned long long) dv->comp_mask, dv->create_flags,
		dv->dc_init_attr.dc_type,
		(unsigned long long) (dv->dc_init_attr.dc_type
		== MLX5DV_DCTYPE_DCT ? dv->dc_init_attr.dct_access_key : 0),
		dv->dc_init_attr.dc_type == MLX5DV_DCTYPE_DCI
		? dv->dc_init_attr.dci_streams.log_num_concurent : 0,
		dv->dc_init_attr.dc_type == MLX5DV_DCTYPE_DCI
		? dv->dc_init_attr.dci_streams.log_num_errored : 0,
		(unsigned long long) dv->send_ops_flags);
    }
    if (copy.qp_type == IBV_QPT_DRIVER) {
	copy.qp_type = IBV_QPT_RC;
    }
    qp = ibv_create_qp_ex(ctx, &copy);
    if (qp && (a->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)) {
	struct ibv_qp_ex *x = ibv_qp_to_qp_ex(qp);

	x->wr_start = WrStart;
	x->wr_complete = WrComplete;
	x->wr_abort = WrAbort;
	x->wr_send = WrSend;
	x->wr_send_imm = WrSendImm;
	x->wr_rdma_write = WrRdmaWrite;
	x->wr_set_sge = WrSetSge;
	x->wr_set_sge_list = WrSetSgeList;
    }
    return qp;
}

struct mlx5dv_qp_ex *
mlx5dv_qp_ex_from_ibv_qp_ex(
    struct ibv_qp_ex *qpx)
{
    struct mlx5dv_qp_ex *m;
    int i;

    for (i = 0; i < ndvqps; i++) {
	if (dvqps[i].qpx == qpx) {
	    return &dvqps[i].mqp;
	}
    }
    if (ndvqps == MAXN) {
	abort();
    }
    dvqps[ndvqps].qpx = qpx;
    m = &dvqps[ndvqps++].mqp;
    memset(m, 0, sizeof(*m));
    m->wr_set_dc_addr = DcAddr;
    m->wr_set_dc_addr_stream = DcAddrStream;
    m->wr_memcpy = Memcpy;
    m->wr_raw_wqe = RawWqe;
    return m;
}

int
mlx5dv_qp_cancel_posted_send_wrs(
    struct mlx5dv_qp_ex *mqp,
    uint64_t wrId)
{
    (void) mqp;
    Log("mlx5dv_qp_cancel_posted_send_wrs wr_id=%llu",
	    (unsigned long long) wrId);
    return 1;
}

int
mlx5dv_dci_stream_id_reset(
    struct ibv_qp *qp,
    uint16_t id)
{
    Log("mlx5dv_dci_stream_id_reset qpn=qpn%d stream_id=%u",
	    Qpn(qp->qp_num), id);
    return 0;
}

int
mlx5dv_query_qp_lag_port(
    struct ibv_qp *qp,
    uint8_t *port,
    uint8_t *active)
{
    Log("mlx5dv_query_qp_lag_port qpn=qpn%d", Qpn(qp->qp_num));
    *port = 1;
    *active = 2;
    return 0;
}

int
mlx5dv_modify_qp_lag_port(
    struct ibv_qp *qp,
    uint8_t port)
{
    Log("mlx5dv_modify_qp_lag_port qpn=qpn%d port_num=%u", Qpn(qp->qp_num),
	    port);
    return 0;
}

int
mlx5dv_modify_qp_udp_sport(
    struct ibv_qp *qp,
    uint16_t port)
{
    Log("mlx5dv_modify_qp_udp_sport qpn=qpn%d udp_sport=%u",
	    Qpn(qp->qp_num), port);
    return 0;
}

int
mlx5dv_map_ah_to_qp(
    struct ibv_ah *ah,
    uint32_t qpn)
{
    Log("mlx5dv_map_ah_to_qp ah=ah%d qp_num=qpn%d", Ah(ah), Qpn(qpn));
    return 0;
}

int
_mlx5dv_query_port(
    struct ibv_context *ctx,
    uint32_t port,
    struct mlx5dv_port *info,
    size_t len)
{
    (void) ctx;
    Log("_mlx5dv_query_port port_num=%u info_len=%zu", port, len);
    memset(info, 0, len);
    info->flags = MLX5DV_QUERY_PORT_VPORT | MLX5DV_QUERY_PORT_VPORT_VHCA_ID
	    | MLX5DV_QUERY_PORT_VPORT_REG_C0;
    info->vport = 3;
    info->vport_vhca_id = 4;
    info->reg_c0.value = 0x10;
    info->reg_c0.mask = 0xff;
    return 0;
}

int
mlx5dv_get_clock_info(
    struct ibv_context *ctx,
    struct mlx5dv_clock_info *ci)
{
    (void) ctx;
    Log("mlx5dv_get_clock_info");
    ci->nsec = 1000000000ull;
    ci->last_cycles = 0x1000;
    ci->frac = 0x55;
    ci->mult = 0x80000000u;
    ci->shift = 31;
    ci->mask = 0xffffffffffffull;
    return 0;
}
