/*
 * mlx5.h --
 *
 *	Declarations shared by the mlx5 direct verbs part of the package
 *	(mlx5Context.c, mlx5Devx.c, mlx5Queue.c): the per-context state,
 *	the DevX object types and the reference resolution that gives DevX
 *	objects their close order.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#ifndef MLX5_H_INCLUDED
#define MLX5_H_INCLUDED

#include "verbs.h"
#include <infiniband/mlx5dv.h>

/*
 * The namespace of the mlx5 commands: ::mlx5::context, ::mlx5::devx, ...
 */

#define MLX5_NS "::mlx5"

/*
 * One object a DV object uses: a reference it holds (obj), or a number
 * nothing here owns (obj NULL: an external one, a kernel EQ, a remote
 * QPN).  path is the input field it came from ("cq_context.uar_page"), or
 * "-uses" for one given by hand.
 */

typedef struct Mlx5Ref {
    VerbsObj *obj;		/* Referenced, or NULL. */
    char *path;
    char *kind;			/* "cq", "uar", ... (Mlx5PrmRefs), or the
				 * type of a -uses object. */
    uint32_t value;
} Mlx5Ref;

typedef struct Mlx5Refs {
    int n, size;
    Mlx5Ref *refs;
} Mlx5Refs;

/*
 * A DV resource whose destruction the firmware refused while nothing
 * named it any more (its command was gone): it keeps its C handle and its
 * references, and is retried after each later destroy in its context and
 * before the context closes (Mlx5Pending).
 */

typedef struct Mlx5Pending Mlx5Pending;

/*
 * Per-context state, made on first use (VerbsContext.dv).
 */

typedef struct Mlx5Context {
    int devx;			/* Opened with MLX5DV_CONTEXT_FLAGS_DEVX. */
    Mlx5Pending *pending;	/* Refused destructions, oldest first. */
    int retrying;		/* Mlx5PendingRetry is running. */
    int vfio;			/* Opened by mlx5::vfio open: libmlx5's VFIO
				 * provider, which mlx5dv_is_supported does
				 * not count as an mlx5 device. */
    Tcl_HashTable cqns;		/* struct ibv_cq * -> its cqn, for the verbs
				 * CQs mlx5::dv obj has told (see
				 * Mlx5DvObjInfo). */
} Mlx5Context;

/*
 * A DevX object (mlx5dv_devx_obj_create).
 */

typedef struct Mlx5Devx {
    VerbsObj obj;
    struct mlx5dv_devx_obj *devx;
    const char *kind;		/* What it is (Mlx5PrmCreated), or NULL. */
    uint32_t id;		/* Its number, when kind is set. */
    unsigned char *out;		/* The create command's output. */
    Tcl_Size outLen;
    Mlx5Refs refs;
    int imported;		/* Closing unimports (mlx5Export.c). */
} Mlx5Devx;

typedef struct Mlx5Uar {
    VerbsObj obj;
    struct mlx5dv_devx_uar *uar;
    uint32_t flags;
} Mlx5Uar;

typedef struct Mlx5Umem {
    VerbsObj obj;
    struct mlx5dv_devx_umem *umem;
    unsigned char *buf;		/* Page aligned, owned: freed only after
				 * the deregistration. */
    size_t length;
    uint32_t access;
    int imported;		/* Closing unimports; no buf of ours. */
} Mlx5Umem;

typedef struct Mlx5Var {
    VerbsObj obj;
    struct mlx5dv_var *var;
    int imported;		/* Closing unimports. */
    uint32_t flags;		/* Allocated with (MLX5DV_VAR_ALLOC_FLAG_*). */
    void *map;			/* [$var map]'s mapping of the page, or NULL. */
} Mlx5Var;

typedef struct Mlx5Pp {
    VerbsObj obj;
    struct mlx5dv_pp *pp;
} Mlx5Pp;

/*
 * mlx5Context.c
 */

MODULE_SCOPE VerbsContext *Mlx5GetContext(Tcl_Interp *interp,
			    Tcl_Obj *nameObj, const char *call);
MODULE_SCOPE Mlx5Context *Mlx5ContextState(VerbsContext *c);
MODULE_SCOPE VerbsContext *Mlx5ContextOf(VerbsObj *objPtr);
MODULE_SCOPE int	Mlx5ParseOutLen(Tcl_Interp *interp, const char *key,
			    Tcl_Obj *valueObj, void *memberPtr);
MODULE_SCOPE int	Mlx5NotSupported(Tcl_Interp *interp, const char *call,
			    VerbsContext *c);
MODULE_SCOPE int	Mlx5IsVfio(VerbsContext *c);
MODULE_SCOPE int	Mlx5DevxOn(VerbsContext *c);
MODULE_SCOPE int	Mlx5EqNumber(VerbsObj *objPtr, uint32_t *eqnPtr);

/*
 * The barriers of a queue written by a script: the device reads what was
 * stored before a doorbell record or doorbell (rdma-core's
 * udma_to_device_barrier), and a doorbell's store leaves the
 * write-combining buffer (mmio_flush_writes).
 */

static inline void
Mlx5DeviceBarrier(void)
{
#if defined(__aarch64__)
    __asm__ volatile("dmb oshst" ::: "memory");
#elif defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("" ::: "memory");	/* Stores stay in order. */
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

static inline void
Mlx5MmioFlush(void)
{
#if defined(__aarch64__)
    __asm__ volatile("dsb st" ::: "memory");
#elif defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("sfence" ::: "memory");
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}
MODULE_SCOPE int	Mlx5DvObjInfo(Tcl_Interp *interp, VerbsObj *o,
			    Tcl_Obj **dictPtr);
MODULE_SCOPE int	Mlx5AddCommand(Tcl_Interp *interp, const char *name,
			    Tcl_ObjCmdProc *proc);
MODULE_SCOPE int	Mlx5AddCommandData(Tcl_Interp *interp,
			    const char *name, Tcl_ObjCmdProc *proc,
			    ClientData clientData);

/*
 * mlx5Queue.c: what [mlx5::qp create] keeps with each QP it makes
 * (VerbsQp.providerData), for the sends of mlx5Send.c.  A QP is one of
 * them when its providerFree is Mlx5QpDataFree.
 */

typedef struct Mlx5QpData {
    uint32_t dcType;		/* MLX5DV_DCTYPE_*, or 0. */
    uint64_t sendOps;		/* Its -send_ops_flags (MLX5DV_QP_EX_WITH_*). */
} Mlx5QpData;

MODULE_SCOPE int	Mlx5QueueInit(Tcl_Interp *interp);
MODULE_SCOPE struct mlx5dv_flow_match_parameters *Mlx5MatchParams(
			    Tcl_Interp *interp, const char *key,
			    Tcl_Obj *bytesObj);
MODULE_SCOPE void	Mlx5QpDataFree(void *data);

/*
 * mlx5Send.c
 */

MODULE_SCOPE int	Mlx5SendInit(Tcl_Interp *interp);

/*
 * mlx5Wqe.c
 */

MODULE_SCOPE int	Mlx5WqeInit(Tcl_Interp *interp);

/*
 * mlx5Dr.c
 */

MODULE_SCOPE int	Mlx5DrInit(Tcl_Interp *interp);
MODULE_SCOPE const VerbsEnum mlx5ReformatTypes[];	/* Packet reformats. */

/*
 * mlx5Res.c
 */

MODULE_SCOPE int	Mlx5ResInit(Tcl_Interp *interp);

/*
 * mlx5Sched.c
 */

MODULE_SCOPE int	Mlx5SchedInit(Tcl_Interp *interp);

/*
 * mlx5Event.c
 */

MODULE_SCOPE int	Mlx5EventInit(Tcl_Interp *interp);

/*
 * mlx5Export.c: kinds of Mlx5Unimport are 0 devx, 1 umem, 2 var.
 */

MODULE_SCOPE int	Mlx5ExportInit(Tcl_Interp *interp);
MODULE_SCOPE void	Mlx5Unimport(int kind, void *handle);
MODULE_SCOPE VerbsMethodProc Mlx5Export, Mlx5UarExportDmabuf;
MODULE_SCOPE VerbsMethodProc Mlx5DevxQueryAsync;

/*
 * mlx5Mkey.c: mkeys and crypto, and the work requests that lay an mkey
 * out (for mlx5Send.c).
 */

enum {
    MLX5_MKEY_WR_CONFIGURE = 16, MLX5_MKEY_WR_INTERLEAVED,
    MLX5_MKEY_WR_LIST		/* Apart from mlx5Send.c's opcodes. */
};
typedef struct Mlx5MkeyWr Mlx5MkeyWr;

MODULE_SCOPE const VerbsEnum mlx5MkeyOpcodes[];
MODULE_SCOPE int	Mlx5MkeyInit(Tcl_Interp *interp);
MODULE_SCOPE int	Mlx5MkeyWrParse(Tcl_Interp *interp, Tcl_Obj *wrObj,
			    Mlx5MkeyWr **wPtr, uint64_t *wrIdPtr,
			    unsigned *flagsPtr);
MODULE_SCOPE void	Mlx5MkeyWrBuild(struct mlx5dv_qp_ex *mqp,
			    Mlx5MkeyWr *w);
MODULE_SCOPE void	Mlx5MkeyWrFree(Mlx5MkeyWr *w);
MODULE_SCOPE int	Mlx5CryptoLoginMethod(Tcl_Interp *interp,
			    VerbsContext *c, int which, Tcl_Obj *attrObj);
MODULE_SCOPE int	Mlx5DataDirectPath(Tcl_Interp *interp,
			    VerbsContext *c, size_t length);
MODULE_SCOPE const VerbsStruct mlx5ClockStruct;	/* mlx5dv_clock_info. */

/*
 * mlx5Devx.c
 */

MODULE_SCOPE int	Mlx5DevxInit(Tcl_Interp *interp);
MODULE_SCOPE int	Mlx5FirmwareError(Tcl_Interp *interp, const char *call,
			    VerbsObj *objPtr, int err,
			    const unsigned char *in, Tcl_Size inLen,
			    const unsigned char *out, Tcl_Size outLen);
MODULE_SCOPE void	Mlx5PendingRetry(VerbsContext *c);
MODULE_SCOPE void	Mlx5PendingForget(VerbsContext *c);
MODULE_SCOPE Tcl_Obj *	Mlx5PendingList(VerbsContext *c);
MODULE_SCOPE void	Mlx5RefsFree(Mlx5Refs *r);
MODULE_SCOPE void	Mlx5RefsAdd(Mlx5Refs *r, VerbsObj *obj,
			    const char *path, const char *kind,
			    uint32_t value);
MODULE_SCOPE Tcl_Obj *	Mlx5RefsObj(const Mlx5Refs *r);
MODULE_SCOPE int	Mlx5ResolveRefs(Tcl_Interp *interp, VerbsContext *c,
			    VerbsObj *self, const unsigned char *in,
			    Tcl_Size inLen, Mlx5Refs *r);
MODULE_SCOPE int	Mlx5AddUses(Tcl_Interp *interp, VerbsContext *c,
			    Tcl_Obj *listObj, Mlx5Refs *r);

#endif /* MLX5_H_INCLUDED */
