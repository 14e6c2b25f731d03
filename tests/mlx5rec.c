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
 *	QP the real device can (a driver QP becomes an RC one, a raw packet
 *	QP a UD one, without TSO's send op and header size), whose
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
#include <unistd.h>
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

#define REC_LOG_ENV "MLX5REC_LOG"
#include "reclog.h"

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
WrSendTso(
    struct ibv_qp_ex *x,
    void *hdr,
    uint16_t hdrSz,
    uint16_t mss)
{
    char hex[2 * 256 + 4];
    int i, n = hdrSz > 256 ? 256 : hdrSz;

    Builder(x, "wr_send_tso");
    for (i = 0; i < n; i++) {
	snprintf(hex + 2 * i, 3, "%02x", ((const unsigned char *) hdr)[i]);
    }
    strcpy(hex + 2 * n, hdrSz > n ? "..." : "");
    Log("  hdr=%s hdr_sz=%u mss=%u", hex, hdrSz, mss);
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
    if (a->comp_mask & IBV_QP_INIT_ATTR_MAX_TSO_HEADER) {
	Log("  max_tso_header=%u", a->max_tso_header);
    }
    if (copy.qp_type == IBV_QPT_DRIVER) {
	copy.qp_type = IBV_QPT_RC;
    }
    if (copy.qp_type == IBV_QPT_RAW_PACKET) {
	copy.qp_type = IBV_QPT_UD;
    }
    copy.comp_mask &= ~IBV_QP_INIT_ATTR_MAX_TSO_HEADER;
    copy.max_tso_header = 0;
    copy.send_ops_flags &= ~(uint64_t) IBV_QP_EX_WITH_TSO;
    qp = ibv_create_qp_ex(ctx, &copy);
    if (qp && (a->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)) {
	struct ibv_qp_ex *x = ibv_qp_to_qp_ex(qp);

	x->wr_start = WrStart;
	x->wr_complete = WrComplete;
	x->wr_abort = WrAbort;
	x->wr_send = WrSend;
	x->wr_send_imm = WrSendImm;
	x->wr_send_tso = WrSendTso;
	x->wr_rdma_write = WrRdmaWrite;
	x->wr_set_sge = WrSetSge;
	x->wr_set_sge_list = WrSetSgeList;
    }
    return qp;
}

static void MrList(struct mlx5dv_qp_ex *q, struct mlx5dv_mkey *m,
	uint32_t access, uint16_t n, struct ibv_sge *s);
static void MrInterleaved(struct mlx5dv_qp_ex *q, struct mlx5dv_mkey *m,
	uint32_t access, uint32_t repeat, uint16_t n,
	struct mlx5dv_mr_interleaved *d);
static void MkeyConfigure(struct mlx5dv_qp_ex *q, struct mlx5dv_mkey *m,
	uint8_t setters, struct mlx5dv_mkey_conf_attr *a);
static void SetAccess(struct mlx5dv_qp_ex *q, uint32_t access);
static void SetLayoutList(struct mlx5dv_qp_ex *q, uint16_t n,
	const struct ibv_sge *s);
static void SetLayoutInterleaved(struct mlx5dv_qp_ex *q, uint32_t repeat,
	uint16_t n, const struct mlx5dv_mr_interleaved *d);
static void SetSigBlock(struct mlx5dv_qp_ex *q,
	const struct mlx5dv_sig_block_attr *a);
static void SetCrypto(struct mlx5dv_qp_ex *q,
	const struct mlx5dv_crypto_attr *a);

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
    m->wr_mr_list = MrList;
    m->wr_mr_interleaved = MrInterleaved;
    m->wr_mkey_configure = MkeyConfigure;
    m->wr_set_mkey_access_flags = SetAccess;
    m->wr_set_mkey_layout_list = SetLayoutList;
    m->wr_set_mkey_layout_interleaved = SetLayoutInterleaved;
    m->wr_set_mkey_sig_block = SetSigBlock;
    m->wr_set_mkey_crypto = SetCrypto;
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

/*
 * ------------------------------------------------------------------------
 * Software steering and DevX objects: handles are tokens named by kind and
 * order of making ("dom1", "act3"); bytes are logged as their non-zero
 * bytes, "offset:hex".
 * ------------------------------------------------------------------------
 */

typedef struct Token {
    char name[24];
} Token;

static void *
Tok(
    const char *kind)
{
    static int counts[16];
    static const char *kinds[16];
    Token *t = calloc(1, sizeof(Token));
    int i;

    for (i = 0; i < 16 && kinds[i] && strcmp(kinds[i], kind); i++) {
    }
    if (i == 16) {
	abort();
    }
    kinds[i] = kind;
    snprintf(t->name, sizeof(t->name), "%s%d", kind, ++counts[i]);
    return t;
}

#define T(p) ((p) ? ((const Token *) (p))->name : "null")

static const char *
Bytes(
    const void *p,
    size_t n)
{
    static char buf[4096];
    const unsigned char *b = p;
    size_t i, k = 0;

    buf[0] = 0;
    for (i = 0; i < n && k < sizeof(buf) - 16; i++) {
	if (b[i]) {
	    k += snprintf(buf + k, sizeof(buf) - k, "%s%zu:%02x", k ? "," : "",
		    i, b[i]);
	}
    }
    if (k == 0) {
	snprintf(buf, sizeof(buf), "zero");
    }
    return buf;
}

struct ibv_context *
mlx5dv_open_device(
    struct ibv_device *device,
    struct mlx5dv_context_attr *attr)
{
    Log("mlx5dv_open_device flags=0x%x", attr ? attr->flags : 0);
    return ibv_open_device(device);
}

struct mlx5dv_devx_obj *
mlx5dv_devx_obj_create(
    struct ibv_context *ctx,
    const void *in,
    size_t inlen,
    void *out,
    size_t outlen)
{
    const unsigned char *b = in;
    void *t = Tok("devx");

    (void) ctx;
    memset(out, 0, outlen);
    Log("mlx5dv_devx_obj_create opcode=0x%02x%02x inlen=%zu outlen=%zu -> %s",
	    b[0], b[1], inlen, outlen, T(t));
    return t;
}

int
mlx5dv_devx_obj_destroy(
    struct mlx5dv_devx_obj *obj)
{
    Log("mlx5dv_devx_obj_destroy %s", T(obj));
    free(obj);
    return 0;
}

struct mlx5dv_dr_domain *
mlx5dv_dr_domain_create(
    struct ibv_context *ctx,
    enum mlx5dv_dr_domain_type type)
{
    void *t = Tok("dom");

    (void) ctx;
    Log("mlx5dv_dr_domain_create type=%d -> %s", type, T(t));
    return t;
}

int
mlx5dv_dr_domain_destroy(
    struct mlx5dv_dr_domain *d)
{
    Log("mlx5dv_dr_domain_destroy %s", T(d));
    free(d);
    return 0;
}

int
mlx5dv_dr_domain_sync(
    struct mlx5dv_dr_domain *d,
    uint32_t flags)
{
    Log("mlx5dv_dr_domain_sync %s flags=0x%x", T(d), flags);
    return 0;
}

void
mlx5dv_dr_domain_allow_duplicate_rules(
    struct mlx5dv_dr_domain *d,
    bool allow)
{
    Log("mlx5dv_dr_domain_allow_duplicate_rules %s allow=%d", T(d), allow);
}

int
mlx5dv_dump_dr_domain(
    FILE *f,
    struct mlx5dv_dr_domain *d)
{
    Log("mlx5dv_dump_dr_domain %s", T(d));
    fprintf(f, "dump of %s\n", T(d));
    return 0;
}

struct mlx5dv_dr_table *
mlx5dv_dr_table_create(
    struct mlx5dv_dr_domain *d,
    uint32_t level)
{
    void *t = Tok("tbl");

    Log("mlx5dv_dr_table_create %s level=%u -> %s", T(d), level, T(t));
    return t;
}

int
mlx5dv_dr_table_destroy(
    struct mlx5dv_dr_table *t)
{
    Log("mlx5dv_dr_table_destroy %s", T(t));
    free(t);
    return 0;
}

struct mlx5dv_dr_matcher *
mlx5dv_dr_matcher_create(
    struct mlx5dv_dr_table *t,
    uint16_t priority,
    uint8_t criteria,
    struct mlx5dv_flow_match_parameters *mask)
{
    void *m = Tok("matcher");

    Log("mlx5dv_dr_matcher_create %s priority=%u match_criteria_enable=%u "
	    "match_sz=%zu mask=%s -> %s", T(t), priority, criteria,
	    mask->match_sz, Bytes(mask->match_buf, mask->match_sz), T(m));
    return m;
}

int
mlx5dv_dr_matcher_set_layout(
    struct mlx5dv_dr_matcher *m,
    struct mlx5dv_dr_matcher_layout *l)
{
    Log("mlx5dv_dr_matcher_set_layout %s flags=0x%x log_num_of_rules_hint=%u",
	    T(m), l->flags, l->log_num_of_rules_hint);
    return 0;
}

int
mlx5dv_dr_matcher_destroy(
    struct mlx5dv_dr_matcher *m)
{
    Log("mlx5dv_dr_matcher_destroy %s", T(m));
    free(m);
    return 0;
}

struct mlx5dv_dr_rule *
mlx5dv_dr_rule_create(
    struct mlx5dv_dr_matcher *m,
    struct mlx5dv_flow_match_parameters *value,
    size_t n,
    struct mlx5dv_dr_action *actions[])
{
    void *r = Tok("rule");
    size_t i;

    Log("mlx5dv_dr_rule_create %s match_sz=%zu value=%s num_actions=%zu "
	    "-> %s", T(m), value->match_sz,
	    Bytes(value->match_buf, value->match_sz), n, T(r));
    for (i = 0; i < n; i++) {
	Log("  action %s", T(actions[i]));
    }
    return r;
}

int
mlx5dv_dr_rule_destroy(
    struct mlx5dv_dr_rule *r)
{
    Log("mlx5dv_dr_rule_destroy %s", T(r));
    free(r);
    return 0;
}

static struct mlx5dv_dr_action *
Act(
    const char *fmt,
    ...)
{
    struct mlx5dv_dr_action *a = Tok("act");
    char line[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    Log("%s -> %s", line, T(a));
    return a;
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_drop(void)
{
    return Act("mlx5dv_dr_action_create_drop");
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_default_miss(void)
{
    return Act("mlx5dv_dr_action_create_default_miss");
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_pop_vlan(void)
{
    return Act("mlx5dv_dr_action_create_pop_vlan");
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_tag(
    uint32_t v)
{
    return Act("mlx5dv_dr_action_create_tag tag_value=0x%x", v);
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_push_vlan(
    struct mlx5dv_dr_domain *d,
    __be32 hdr)
{
    return Act("mlx5dv_dr_action_create_push_vlan %s vlan_hdr=0x%08x", T(d),
	    be32toh(hdr));
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_ibv_qp(
    struct ibv_qp *qp)
{
    return Act("mlx5dv_dr_action_create_dest_ibv_qp qpn=qpn%d",
	    Qpn(qp->qp_num));
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_table(
    struct mlx5dv_dr_table *t)
{
    return Act("mlx5dv_dr_action_create_dest_table %s", T(t));
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_root_table(
    struct mlx5dv_dr_table *t,
    uint16_t priority)
{
    return Act("mlx5dv_dr_action_create_dest_root_table %s priority=%u", T(t),
	    priority);
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_vport(
    struct mlx5dv_dr_domain *d,
    uint32_t vport)
{
    return Act("mlx5dv_dr_action_create_dest_vport %s vport=%u", T(d), vport);
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_ib_port(
    struct mlx5dv_dr_domain *d,
    uint32_t port)
{
    return Act("mlx5dv_dr_action_create_dest_ib_port %s ib_port=%u", T(d),
	    port);
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_devx_tir(
    struct mlx5dv_devx_obj *o)
{
    return Act("mlx5dv_dr_action_create_dest_devx_tir %s", T(o));
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_flow_counter(
    struct mlx5dv_devx_obj *o,
    uint32_t offset)
{
    return Act("mlx5dv_dr_action_create_flow_counter %s offset=%u", T(o),
	    offset);
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_dest_array(
    struct mlx5dv_dr_domain *d,
    size_t n,
    struct mlx5dv_dr_action_dest_attr *dests[])
{
    char line[512];
    size_t i, k = 0;

    line[0] = 0;
    for (i = 0; i < n; i++) {
	if (dests[i]->type == MLX5DV_DR_ACTION_DEST) {
	    k += snprintf(line + k, sizeof(line) - k, " {dest %s}",
		    T(dests[i]->dest));
	} else {
	    k += snprintf(line + k, sizeof(line) - k, " {dest %s reformat %s}",
		    T(dests[i]->dest_reformat->dest),
		    T(dests[i]->dest_reformat->reformat));
	}
    }
    return Act("mlx5dv_dr_action_create_dest_array %s num_dest=%zu%s", T(d),
	    n, line);
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_modify_header(
    struct mlx5dv_dr_domain *d,
    uint32_t flags,
    size_t sz,
    __be64 actions[])
{
    return Act("mlx5dv_dr_action_create_modify_header %s flags=0x%x "
	    "actions_sz=%zu actions=%s", T(d), flags, sz, Bytes(actions, sz));
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_packet_reformat(
    struct mlx5dv_dr_domain *d,
    uint32_t flags,
    enum mlx5dv_flow_action_packet_reformat_type type,
    size_t sz,
    void *data)
{
    return Act("mlx5dv_dr_action_create_packet_reformat %s flags=0x%x "
	    "reformat_type=%d data_sz=%zu data=%s", T(d), flags, type, sz,
	    data ? Bytes(data, sz) : "null");
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_flow_meter(
    struct mlx5dv_dr_flow_meter_attr *a)
{
    return Act("mlx5dv_dr_action_create_flow_meter next_table=%s active=%u "
	    "reg_c_index=%u flow_meter_parameter_sz=%zu parameter=%s",
	    T(a->next_table), a->active, a->reg_c_index,
	    a->flow_meter_parameter_sz, Bytes(a->flow_meter_parameter,
	    a->flow_meter_parameter_sz));
}

int
mlx5dv_dr_action_modify_flow_meter(
    struct mlx5dv_dr_action *act,
    struct mlx5dv_dr_flow_meter_attr *a,
    __be64 select)
{
    Log("mlx5dv_dr_action_modify_flow_meter %s active=%u reg_c_index=%u "
	    "flow_meter_parameter_sz=%zu parameter=%s modify_field_select=0x%llx",
	    T(act), a->active, a->reg_c_index, a->flow_meter_parameter_sz,
	    a->flow_meter_parameter ? Bytes(a->flow_meter_parameter,
	    a->flow_meter_parameter_sz) : "null",
	    (unsigned long long) be64toh(select));
    return 0;
}

struct mlx5dv_dr_action *
mlx5dv_dr_action_create_flow_sampler(
    struct mlx5dv_dr_flow_sampler_attr *a)
{
    char line[256];
    size_t k = 0;
    uint32_t i;

    line[0] = 0;
    for (i = 0; i < a->num_sample_actions; i++) {
	k += snprintf(line + k, sizeof(line) - k, " %s",
		T(a->sample_actions[i]));
    }
    return Act("mlx5dv_dr_action_create_flow_sampler sample_ratio=%u "
	    "default_next_table=%s num_sample_actions=%u action=0x%llx "
	    "sample_actions=%s", a->sample_ratio, T(a->default_next_table),
	    a->num_sample_actions, (unsigned long long) be64toh(a->action),
	    k ? line + 1 : "none");
}

int
mlx5dv_dr_action_destroy(
    struct mlx5dv_dr_action *a)
{
    Log("mlx5dv_dr_action_destroy %s", T(a));
    free(a);
    return 0;
}

/*
 * Reserved QP numbers and libmlx5's flow actions.  A flow action is an
 * ibv_flow_action of the real context, which libibverbs's destroy then
 * hands to the device's (refusing) op.
 */

int
mlx5dv_reserved_qpn_alloc(
    struct ibv_context *ctx,
    uint32_t *qpn)
{
    (void) ctx;
    *qpn = 0x1234;
    Log("mlx5dv_reserved_qpn_alloc -> 0x%x", *qpn);
    return 0;
}

int
mlx5dv_reserved_qpn_dealloc(
    struct ibv_context *ctx,
    uint32_t qpn)
{
    (void) ctx;
    Log("mlx5dv_reserved_qpn_dealloc qpn=0x%x", qpn);
    return 0;
}

static struct ibv_flow_action *
FlowAction(
    struct ibv_context *ctx)
{
    struct ibv_flow_action *a = calloc(1, sizeof(*a));

    a->context = ctx;
    return a;
}

struct ibv_flow_action *
mlx5dv_create_flow_action_modify_header(
    struct ibv_context *ctx,
    size_t sz,
    uint64_t actions[],
    enum mlx5dv_flow_table_type ft)
{
    Log("mlx5dv_create_flow_action_modify_header actions_sz=%zu actions=%s "
	    "ft_type=%d", sz, Bytes(actions, sz), ft);
    return FlowAction(ctx);
}

struct ibv_flow_action *
mlx5dv_create_flow_action_packet_reformat(
    struct ibv_context *ctx,
    size_t sz,
    void *data,
    enum mlx5dv_flow_action_packet_reformat_type type,
    enum mlx5dv_flow_table_type ft)
{
    Log("mlx5dv_create_flow_action_packet_reformat data_sz=%zu data=%s "
	    "reformat_type=%d ft_type=%d", sz, data ? Bytes(data, sz) : "null",
	    type, ft);
    return FlowAction(ctx);
}

/*
 * Mkeys, their layouts, signature and crypto; DEKs and crypto logins.
 * An mkey is a real struct with made-up keys (0x100 + its number).
 */

static struct mlx5dv_mkey *mkeys[MAXN];
static int nmkeys;

static const char *
Mkey(
    struct mlx5dv_mkey *m)
{
    static char buf[4][16];
    static int k;
    char *b = buf[k++ % 4];
    int i;

    for (i = 0; i < nmkeys; i++) {
	if (mkeys[i] == m) {
	    snprintf(b, 16, "mkey%d", i + 1);
	    return b;
	}
    }
    return "mkey?";
}

struct mlx5dv_mkey *
mlx5dv_create_mkey(
    struct mlx5dv_mkey_init_attr *a)
{
    struct mlx5dv_mkey *m = calloc(1, sizeof(*m));

    m->lkey = m->rkey = 0x100 + nmkeys;
    mkeys[nmkeys++] = m;
    Log("mlx5dv_create_mkey create_flags=0x%x max_entries=%u -> %s",
	    a->create_flags, a->max_entries, Mkey(m));
    return m;
}

int
mlx5dv_destroy_mkey(
    struct mlx5dv_mkey *m)
{
    Log("mlx5dv_destroy_mkey %s", Mkey(m));
    return 0;
}

int
_mlx5dv_mkey_check(
    struct mlx5dv_mkey *m,
    struct mlx5dv_mkey_err *e,
    size_t len)
{
    Log("_mlx5dv_mkey_check %s err_info_size=%zu", Mkey(m), len);
    memset(e, 0, len);
    e->err_type = MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD;
    e->err.sig.actual_value = 0x1111;
    e->err.sig.expected_value = 0x2222;
    e->err.sig.offset = 512;
    return 0;
}

static void
SgeList(
    uint16_t n,
    const struct ibv_sge *s)
{
    uint16_t i;

    for (i = 0; i < n; i++) {
	Log("  sge lkey=%s addr=%s length=%u", Lkey(s[i].lkey),
		Addr(s[i].addr), s[i].length);
    }
}

static void
IlvList(
    uint16_t n,
    const struct mlx5dv_mr_interleaved *d)
{
    uint16_t i;

    for (i = 0; i < n; i++) {
	Log("  interleaved lkey=%s addr=%s bytes_count=%u bytes_skip=%u",
		Lkey(d[i].lkey), Addr(d[i].addr), d[i].bytes_count,
		d[i].bytes_skip);
    }
}

static void
MrList(
    struct mlx5dv_qp_ex *q,
    struct mlx5dv_mkey *m,
    uint32_t access,
    uint16_t n,
    struct ibv_sge *s)
{
    Builder(QpxOf(q), "mlx5dv_wr_mr_list");
    Log("  mkey=%s access_flags=0x%x num_sges=%u", Mkey(m), access, n);
    SgeList(n, s);
}

static void
MrInterleaved(
    struct mlx5dv_qp_ex *q,
    struct mlx5dv_mkey *m,
    uint32_t access,
    uint32_t repeat,
    uint16_t n,
    struct mlx5dv_mr_interleaved *d)
{
    Builder(QpxOf(q), "mlx5dv_wr_mr_interleaved");
    Log("  mkey=%s access_flags=0x%x repeat_count=%u num_interleaved=%u",
	    Mkey(m), access, repeat, n);
    IlvList(n, d);
}

static void
MkeyConfigure(
    struct mlx5dv_qp_ex *q,
    struct mlx5dv_mkey *m,
    uint8_t setters,
    struct mlx5dv_mkey_conf_attr *a)
{
    Builder(QpxOf(q), "mlx5dv_wr_mkey_configure");
    Log("  mkey=%s num_setters=%u conf_flags=0x%x comp_mask=0x%llx",
	    Mkey(m), setters, a->conf_flags,
	    (unsigned long long) a->comp_mask);
}

static void
SetAccess(
    struct mlx5dv_qp_ex *q,
    uint32_t access)
{
    (void) q;
    Log("mlx5dv_wr_set_mkey_access_flags access_flags=0x%x", access);
}

static void
SetLayoutList(
    struct mlx5dv_qp_ex *q,
    uint16_t n,
    const struct ibv_sge *s)
{
    (void) q;
    Log("mlx5dv_wr_set_mkey_layout_list num_sges=%u", n);
    SgeList(n, s);
}

static void
SetLayoutInterleaved(
    struct mlx5dv_qp_ex *q,
    uint32_t repeat,
    uint16_t n,
    const struct mlx5dv_mr_interleaved *d)
{
    (void) q;
    Log("mlx5dv_wr_set_mkey_layout_interleaved repeat_count=%u "
	    "num_interleaved=%u", repeat, n);
    IlvList(n, d);
}

static void
SigDomain(
    const char *which,
    const struct mlx5dv_sig_block_domain *d)
{
    if (d == NULL) {
	Log("  %s none", which);
    } else if (d->sig_type == MLX5DV_SIG_TYPE_T10DIF) {
	Log("  %s t10dif block_size=%d bg_type=%d bg=0x%x app_tag=0x%x "
		"ref_tag=0x%x flags=0x%x", which, d->block_size,
		d->sig.dif->bg_type, d->sig.dif->bg, d->sig.dif->app_tag,
		d->sig.dif->ref_tag, d->sig.dif->flags);
    } else {
	Log("  %s crc block_size=%d type=%d seed=0x%llx", which,
		d->block_size, d->sig.crc->type,
		(unsigned long long) d->sig.crc->seed);
    }
}

static void
SetSigBlock(
    struct mlx5dv_qp_ex *q,
    const struct mlx5dv_sig_block_attr *a)
{
    (void) q;
    Log("mlx5dv_wr_set_mkey_sig_block check_mask=0x%x copy_mask=0x%x "
	    "flags=0x%x", a->check_mask, a->copy_mask, a->flags);
    SigDomain("mem", a->mem);
    SigDomain("wire", a->wire);
}

static void
SetCrypto(
    struct mlx5dv_qp_ex *q,
    const struct mlx5dv_crypto_attr *a)
{
    (void) q;
    Log("mlx5dv_wr_set_mkey_crypto crypto_standard=%d encrypt_on_tx=%d "
	    "signature_crypto_order=%d data_unit_size=%d dek=%s "
	    "initial_tweak=%s", a->crypto_standard, a->encrypt_on_tx,
	    a->signature_crypto_order, a->data_unit_size, T(a->dek),
	    Bytes(a->initial_tweak, 16));
    Log("  keytag=%s", Bytes(a->keytag, 8));
}

struct mlx5dv_dek *
mlx5dv_dek_create(
    struct ibv_context *ctx,
    struct mlx5dv_dek_init_attr *a)
{
    void *t = Tok("dek");

    (void) ctx;
    Log("mlx5dv_dek_create key_size=%d has_keytag=%d key_purpose=%d "
	    "comp_mask=0x%llx crypto_login=%s opaque=%s key=%s -> %s",
	    a->key_size, a->has_keytag, a->key_purpose,
	    (unsigned long long) a->comp_mask,
	    a->comp_mask ? T(a->crypto_login) : "none",
	    Bytes(a->opaque, 8), Bytes(a->key, 128), T(t));
    return t;
}

int
mlx5dv_dek_query(
    struct mlx5dv_dek *d,
    struct mlx5dv_dek_attr *a)
{
    Log("mlx5dv_dek_query %s", T(d));
    a->state = MLX5DV_DEK_STATE_READY;
    memcpy(a->opaque, "opaque!!", 8);
    return 0;
}

int
mlx5dv_dek_destroy(
    struct mlx5dv_dek *d)
{
    Log("mlx5dv_dek_destroy %s", T(d));
    free(d);
    return 0;
}

int
mlx5dv_crypto_login(
    struct ibv_context *ctx,
    struct mlx5dv_crypto_login_attr *a)
{
    (void) ctx;
    Log("mlx5dv_crypto_login credential_id=%u import_kek_id=%u credential=%s",
	    a->credential_id, a->import_kek_id, Bytes(a->credential, 48));
    return 0;
}

int
mlx5dv_crypto_login_query_state(
    struct ibv_context *ctx,
    enum mlx5dv_crypto_login_state *state)
{
    (void) ctx;
    Log("mlx5dv_crypto_login_query_state");
    *state = MLX5DV_CRYPTO_LOGIN_STATE_VALID;
    return 0;
}

int
mlx5dv_crypto_logout(
    struct ibv_context *ctx)
{
    (void) ctx;
    Log("mlx5dv_crypto_logout");
    return 0;
}

struct mlx5dv_crypto_login_obj *
mlx5dv_crypto_login_create(
    struct ibv_context *ctx,
    struct mlx5dv_crypto_login_attr_ex *a)
{
    void *t = Tok("login");

    (void) ctx;
    Log("mlx5dv_crypto_login_create credential_id=%u import_kek_id=%u "
	    "credential_len=%zu credential=%s -> %s", a->credential_id,
	    a->import_kek_id, a->credential_len,
	    Bytes(a->credential, a->credential_len), T(t));
    return t;
}

int
mlx5dv_crypto_login_query(
    struct mlx5dv_crypto_login_obj *l,
    struct mlx5dv_crypto_login_query_attr *q)
{
    Log("mlx5dv_crypto_login_query %s", T(l));
    q->state = MLX5DV_CRYPTO_LOGIN_STATE_NO_LOGIN;
    return 0;
}

int
mlx5dv_crypto_login_destroy(
    struct mlx5dv_crypto_login_obj *l)
{
    Log("mlx5dv_crypto_login_destroy %s", T(l));
    free(l);
    return 0;
}

/*
 * Scheduling elements, MSI-X vectors, EQs, UMEMs.
 */

static void
SchedAttr(
    const char *call,
    const char *self,
    const struct mlx5dv_sched_attr *a,
    const char *made)
{
    Log("%s%s%s parent=%s flags=0x%x bw_share=%u max_avg_bw=%u%s%s", call,
	    self ? " " : "", self ? self : "", T(a->parent), a->flags,
	    a->bw_share, a->max_avg_bw, made ? " -> " : "", made ? made : "");
}

struct mlx5dv_sched_node *
mlx5dv_sched_node_create(
    struct ibv_context *ctx,
    const struct mlx5dv_sched_attr *a)
{
    void *t = Tok("node");

    (void) ctx;
    SchedAttr("mlx5dv_sched_node_create", NULL, a, T(t));
    return t;
}

struct mlx5dv_sched_leaf *
mlx5dv_sched_leaf_create(
    struct ibv_context *ctx,
    const struct mlx5dv_sched_attr *a)
{
    void *t = Tok("leaf");

    (void) ctx;
    SchedAttr("mlx5dv_sched_leaf_create", NULL, a, T(t));
    return t;
}

int
mlx5dv_sched_node_modify(
    struct mlx5dv_sched_node *n,
    const struct mlx5dv_sched_attr *a)
{
    SchedAttr("mlx5dv_sched_node_modify", T(n), a, NULL);
    return 0;
}

int
mlx5dv_sched_leaf_modify(
    struct mlx5dv_sched_leaf *l,
    const struct mlx5dv_sched_attr *a)
{
    SchedAttr("mlx5dv_sched_leaf_modify", T(l), a, NULL);
    return 0;
}

int
mlx5dv_sched_node_destroy(
    struct mlx5dv_sched_node *n)
{
    Log("mlx5dv_sched_node_destroy %s", T(n));
    free(n);
    return 0;
}

int
mlx5dv_sched_leaf_destroy(
    struct mlx5dv_sched_leaf *l)
{
    Log("mlx5dv_sched_leaf_destroy %s", T(l));
    free(l);
    return 0;
}

int
mlx5dv_modify_qp_sched_elem(
    struct ibv_qp *qp,
    const struct mlx5dv_sched_leaf *req,
    const struct mlx5dv_sched_leaf *resp)
{
    Log("mlx5dv_modify_qp_sched_elem qpn=qpn%d requestor=%s responder=%s",
	    Qpn(qp->qp_num), T(req), T(resp));
    return 0;
}

struct mlx5dv_devx_msi_vector *
mlx5dv_devx_alloc_msi_vector(
    struct ibv_context *ctx)
{
    struct mlx5dv_devx_msi_vector *m = calloc(1, sizeof(*m));

    (void) ctx;
    m->vector = 5;
    m->fd = -1;
    Log("mlx5dv_devx_alloc_msi_vector -> vector %d", m->vector);
    return m;
}

int
mlx5dv_devx_free_msi_vector(
    struct mlx5dv_devx_msi_vector *m)
{
    Log("mlx5dv_devx_free_msi_vector vector=%d", m->vector);
    free(m);
    return 0;
}

struct mlx5dv_devx_eq *
mlx5dv_devx_create_eq(
    struct ibv_context *ctx,
    const void *in,
    size_t inlen,
    void *out,
    size_t outlen)
{
    struct mlx5dv_devx_eq *e = calloc(1, sizeof(*e));

    (void) ctx;
    e->vaddr = calloc(1, 64 << 6);
    ((unsigned char *) e->vaddr)[63] = 0x01;	/* The first entry's owner. */
    memset(out, 0, outlen);
    ((unsigned char *) out)[11] = 0x17;	/* eq_number 0x17. */
    Log("mlx5dv_devx_create_eq inlen=%zu in=%s outlen=%zu", inlen,
	    Bytes(in, inlen), outlen);
    return e;
}

int
mlx5dv_devx_destroy_eq(
    struct mlx5dv_devx_eq *e)
{
    Log("mlx5dv_devx_destroy_eq");
    free(e->vaddr);
    free(e);
    return 0;
}

struct mlx5dv_devx_umem *
mlx5dv_devx_umem_reg_ex(
    struct ibv_context *ctx,
    struct mlx5dv_devx_umem_in *in)
{
    struct mlx5dv_devx_umem *u = calloc(1, sizeof(*u));

    (void) ctx;
    u->umem_id = 7;
    Log("mlx5dv_devx_umem_reg_ex size=%zu access=0x%x pgsz_bitmap=0x%llx "
	    "comp_mask=0x%llx page_aligned=%d", in->size, in->access,
	    (unsigned long long) in->pgsz_bitmap,
	    (unsigned long long) in->comp_mask,
	    ((uintptr_t) in->addr & 4095) == 0);
    return u;
}

int
mlx5dv_devx_umem_dereg(
    struct mlx5dv_devx_umem *u)
{
    Log("mlx5dv_devx_umem_dereg umem_id=%u", u->umem_id);
    free(u);
    return 0;
}

/*
 * DevX asynchronous queries and event channels.  Their fds are pipes:
 * a query or a subscription writes a byte, so that the completion or an
 * event is there to read (the event loop sees it); a read takes it.
 */

static struct { uint64_t wrId; size_t outlen; } queued[MAXN];
static int nqueued;
static uint64_t cookies[MAXN];
static int ncookies;
static int compPipe[2] = {-1, -1}, chanPipe[2] = {-1, -1};

struct mlx5dv_devx_cmd_comp *
mlx5dv_devx_create_cmd_comp(
    struct ibv_context *ctx)
{
    struct mlx5dv_devx_cmd_comp *c = calloc(1, sizeof(*c));

    (void) ctx;
    if (pipe(compPipe) != 0) {
	abort();
    }
    c->fd = compPipe[0];
    Log("mlx5dv_devx_create_cmd_comp");
    return c;
}

void
mlx5dv_devx_destroy_cmd_comp(
    struct mlx5dv_devx_cmd_comp *c)
{
    Log("mlx5dv_devx_destroy_cmd_comp");
    close(compPipe[0]);
    close(compPipe[1]);
    free(c);
}

int
mlx5dv_devx_obj_query_async(
    struct mlx5dv_devx_obj *obj,
    const void *in,
    size_t inlen,
    size_t outlen,
    uint64_t wrId,
    struct mlx5dv_devx_cmd_comp *c)
{
    (void) c;
    Log("mlx5dv_devx_obj_query_async %s inlen=%zu in=%s outlen=%zu "
	    "wr_id=%llu", T(obj), inlen, Bytes(in, inlen), outlen,
	    (unsigned long long) wrId);
    queued[nqueued].wrId = wrId;
    queued[nqueued++].outlen = outlen;
    return write(compPipe[1], "q", 1) == 1 ? 0 : errno;
}

int
mlx5dv_devx_get_async_cmd_comp(
    struct mlx5dv_devx_cmd_comp *c,
    struct mlx5dv_devx_async_cmd_hdr *resp,
    size_t len)
{
    char b;

    if (read(c->fd, &b, 1) != 1) {
	return errno;
    }
    Log("mlx5dv_devx_get_async_cmd_comp cmd_resp_len=%zu", len);
    resp->wr_id = queued[0].wrId;
    memset(resp->out_data, 0, len - sizeof(*resp));
    resp->out_data[0] = 0;		/* status ok */
    resp->out_data[8] = 0x42;
    memmove(queued, queued + 1, --nqueued * sizeof(queued[0]));
    return 0;
}

struct mlx5dv_devx_event_channel *
mlx5dv_devx_create_event_channel(
    struct ibv_context *ctx,
    enum mlx5dv_devx_create_event_channel_flags flags)
{
    struct mlx5dv_devx_event_channel *e = calloc(1, sizeof(*e));

    (void) ctx;
    if (pipe(chanPipe) != 0) {
	abort();
    }
    e->fd = chanPipe[0];
    Log("mlx5dv_devx_create_event_channel flags=0x%x", flags);
    return e;
}

void
mlx5dv_devx_destroy_event_channel(
    struct mlx5dv_devx_event_channel *e)
{
    Log("mlx5dv_devx_destroy_event_channel");
    close(chanPipe[0]);
    close(chanPipe[1]);
    free(e);
}

int
mlx5dv_devx_subscribe_devx_event(
    struct mlx5dv_devx_event_channel *e,
    struct mlx5dv_devx_obj *obj,
    uint16_t sz,
    uint16_t nums[],
    uint64_t cookie)
{
    char line[256];
    size_t k = 0;
    uint16_t i;

    (void) e;
    line[0] = 0;
    for (i = 0; i < sz / 2; i++) {
	k += snprintf(line + k, sizeof(line) - k, " 0x%x", nums[i]);
    }
    Log("mlx5dv_devx_subscribe_devx_event obj=%s events_sz=%u cookie=0x%llx "
	    "events_num=%s", obj ? T(obj) : "none", sz,
	    (unsigned long long) cookie, line + 1);
    cookies[ncookies++] = cookie;
    return write(chanPipe[1], "e", 1) == 1 ? 0 : errno;
}

int
mlx5dv_devx_subscribe_devx_event_fd(
    struct mlx5dv_devx_event_channel *e,
    int fd,
    struct mlx5dv_devx_obj *obj,
    uint16_t num)
{
    (void) e;
    Log("mlx5dv_devx_subscribe_devx_event_fd fd_given=%d obj=%s "
	    "event_num=0x%x", fd >= 0, obj ? T(obj) : "none", num);
    return 0;
}

ssize_t
mlx5dv_devx_get_event(
    struct mlx5dv_devx_event_channel *e,
    struct mlx5dv_devx_async_event_hdr *data,
    size_t len)
{
    char b;

    if (read(e->fd, &b, 1) != 1) {
	return -1;
    }
    Log("mlx5dv_devx_get_event event_resp_len_enough=%d",
	    len >= sizeof(*data) + 16);
    data->cookie = cookies[0];
    memmove(cookies, cookies + 1, --ncookies * sizeof(cookies[0]));
    memset(data->out_data, 0xee, 16);
    return (ssize_t) (sizeof(*data) + 16);
}

/*
 * Export and import (rdma-core 63; declared here, as the headers this is
 * built with may be older), UARs, VARs.  An exported object's bytes are
 * its name.
 */

struct mlx5dv_devx_uar *
mlx5dv_devx_alloc_uar(
    struct ibv_context *ctx,
    uint32_t flags)
{
    struct mlx5dv_devx_uar *u = calloc(1, sizeof(*u));

    (void) ctx;
    u->page_id = 9;
    u->base_addr = calloc(1, 4096);	/* The doorbell lands here. */
    u->reg_addr = (char *) u->base_addr + 0x800;
    Log("mlx5dv_devx_alloc_uar flags=0x%x", flags);
    return u;
}

void
mlx5dv_devx_free_uar(
    struct mlx5dv_devx_uar *u)
{
    char bf[4096], eq[4096];

    /* The register, the doorbell-less BlueFlame one at 0x600, and an
     * EQ's arm doorbell (32 bits) at 0x40. */
    snprintf(bf, sizeof(bf), "%s", Bytes((char *) u->base_addr + 0x600, 8));
    snprintf(eq, sizeof(eq), "%s", Bytes((char *) u->base_addr + 0x40, 8));
    Log("mlx5dv_devx_free_uar page_id=%u doorbell=%s at0x600=%s at0x40=%s",
	    u->page_id, Bytes(u->reg_addr, 8), bf, eq);
    free(u->base_addr);
    free(u);
}

int
mlx5dv_devx_uar_export_dmabuf_fd(
    struct mlx5dv_devx_uar *u)
{
    Log("mlx5dv_devx_uar_export_dmabuf_fd page_id=%u", u->page_id);
    return 99;
}

struct mlx5dv_var *
mlx5dv_alloc_var(
    struct ibv_context *ctx,
    uint32_t flags)
{
    struct mlx5dv_var *v = calloc(1, sizeof(*v));

    (void) ctx;
    v->page_id = 3;
    v->length = 4096;
    Log("mlx5dv_alloc_var flags=0x%x", flags);
    return v;
}

void
mlx5dv_free_var(
    struct mlx5dv_var *v)
{
    Log("mlx5dv_free_var page_id=%u", v->page_id);
    free(v);
}

void
_mlx5dv_get_export_sizes(
    void *sizes,
    size_t len)
{
    uint32_t *s = sizes;

    Log("_mlx5dv_get_export_sizes sizes_len=%zu", len);
    s[0] = s[1] = s[2] = 24;
}

int
mlx5dv_devx_obj_export(
    struct mlx5dv_devx_obj *obj,
    void *data)
{
    Log("mlx5dv_devx_obj_export %s", T(obj));
    snprintf(data, 24, "%s", T(obj));
    return 0;
}

struct mlx5dv_devx_obj *
mlx5dv_devx_obj_import(
    struct ibv_context *ctx,
    void *data)
{
    void *t = Tok("devx");

    (void) ctx;
    Log("mlx5dv_devx_obj_import data=%s -> %s", (char *) data, T(t));
    return t;
}

void
mlx5dv_devx_obj_unimport(
    struct mlx5dv_devx_obj *obj)
{
    Log("mlx5dv_devx_obj_unimport %s", T(obj));
    free(obj);
}

int
mlx5dv_devx_umem_export(
    struct mlx5dv_devx_umem *u,
    void *data)
{
    Log("mlx5dv_devx_umem_export umem_id=%u", u->umem_id);
    snprintf(data, 24, "umem %u", u->umem_id);
    return 0;
}

struct mlx5dv_devx_umem *
mlx5dv_devx_umem_import(
    struct ibv_context *ctx,
    void *data)
{
    struct mlx5dv_devx_umem *u = calloc(1, sizeof(*u));

    (void) ctx;
    u->umem_id = (uint32_t) atoi((char *) data + 5);
    Log("mlx5dv_devx_umem_import data=%s", (char *) data);
    return u;
}

void
mlx5dv_devx_umem_unimport(
    struct mlx5dv_devx_umem *u)
{
    Log("mlx5dv_devx_umem_unimport umem_id=%u", u->umem_id);
    free(u);
}

int
mlx5dv_var_export(
    struct mlx5dv_var *v,
    void *data)
{
    Log("mlx5dv_var_export page_id=%u", v->page_id);
    snprintf(data, 24, "var %u", v->page_id);
    return 0;
}

struct mlx5dv_var *
mlx5dv_var_import(
    struct ibv_context *ctx,
    void *data)
{
    struct mlx5dv_var *v = calloc(1, sizeof(*v));

    (void) ctx;
    v->page_id = (uint32_t) atoi((char *) data + 4);
    Log("mlx5dv_var_import data=%s", (char *) data);
    return v;
}

void
mlx5dv_var_unimport(
    struct mlx5dv_var *v)
{
    Log("mlx5dv_var_unimport page_id=%u", v->page_id);
    free(v);
}

/*
 * VFIO: the device list is the real one (the test device first), whose
 * context then stands in for the VFIO one.
 */

struct ibv_device **
mlx5dv_get_vfio_device_list(
    struct mlx5dv_vfio_context_attr *a)
{
    Log("mlx5dv_get_vfio_device_list pci_name=%s flags=0x%x", a->pci_name,
	    a->flags);
    return ibv_get_device_list(NULL);
}

int
mlx5dv_vfio_get_events_fd(
    struct ibv_context *ctx)
{
    (void) ctx;
    Log("mlx5dv_vfio_get_events_fd");
    return 0;
}

int
mlx5dv_vfio_process_events(
    struct ibv_context *ctx)
{
    (void) ctx;
    Log("mlx5dv_vfio_process_events");
    return 0;
}
