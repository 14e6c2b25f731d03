/*
 * verbs.h --
 *
 *	Shared declarations of the verbs Tcl extension: the object registry
 *	(every RDMA resource is an object command), the attribute tables that
 *	turn C structs into Tcl dicts and back, and the error helpers.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#ifndef VERBS_H_INCLUDED
#define VERBS_H_INCLUDED

#include <tcl.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define VERBS_EXPORT __attribute__((visibility("default")))
#define VERBS_UNUSED __attribute__((unused))	/* A callback's parameter. */
#ifndef MODULE_SCOPE
#   define MODULE_SCOPE extern __attribute__((visibility("hidden")))
#endif

/*
 * Tcl 8.6: Tcl 9 counts list lengths and byte counts in Tcl_Size (TEA's
 * configure may already have defined it to int for 8.6).
 */
#ifndef TCL_SIZE_MAX
#   ifndef Tcl_Size
typedef int Tcl_Size;
#   endif
#   define TCL_SIZE_MODIFIER ""
#endif

/*
 * ------------------------------------------------------------------------
 * Objects.
 *
 * Every RDMA resource is a VerbsObj embedded as the first member of a
 * type-specific struct (VerbsPd, VerbsQp, ...).  Lifetime rules:
 *
 *  - The object command holds one reference.  Deleting the command (close,
 *    rename to {}, interp deletion) first deletes the commands of all
 *    children, then drops that reference.
 *  - Each child holds a reference on its parent; cross references (a QP on
 *    its CQs) hold a reference on the object they use.
 *  - When the count reaches zero the type's freeProc destroys the C
 *    resource and drops the references it held; then the parent reference
 *    is dropped.  So C resources are always destroyed children first.
 * ------------------------------------------------------------------------
 */

typedef struct VerbsObj VerbsObj;
typedef struct VerbsState VerbsState;

typedef int (VerbsMethodProc)(Tcl_Interp *interp, VerbsObj *objPtr,
	int objc, Tcl_Obj *const objv[]);

/*
 * One subcommand of an object command.  The proc gets the command's whole
 * objc/objv (objv[0] the object, objv[1] the method); minArgs/maxArgs count
 * the words after the method (-1: no upper limit).
 */

typedef struct VerbsMethod {
    const char *name;
    VerbsMethodProc *proc;
    int minArgs;
    int maxArgs;
    const char *usage;
} VerbsMethod;

typedef struct VerbsType {
    const char *name;		/* Short type name: "pd", "qp", ... */
    size_t size;		/* Size of the type's struct. */
    const VerbsMethod *methods;	/* Subcommands, NULL-name terminated. */
    const char *const *options;	/* cget options ("-lkey"), NULL ended. */
    int (*cgetProc)(Tcl_Interp *interp, VerbsObj *objPtr, int index,
	    Tcl_Obj **valuePtr);
    void (*freeProc)(VerbsObj *objPtr);
				/* Destroys the C resource, drops the
				 * cross references it holds. */
    int (*eventProc)(Tcl_Interp *interp, VerbsObj *objPtr,
	    Tcl_Obj **eventPtr);
				/* Reads one event from the object's event
				 * fd without blocking: TCL_OK with *eventPtr
				 * the event, or NULL when there is none.
				 * NULL for types without events. */
} VerbsType;

struct VerbsObj {
    const VerbsType *typePtr;
    VerbsState *statePtr;
    Tcl_Command token;		/* NULL once the command is deleted. */
    VerbsObj *parent;		/* Owner; holds a reference on it. */
    VerbsObj *children;		/* First child (commands alive or not). */
    VerbsObj *nextSibling;
    VerbsObj *prevSibling;
    VerbsObj *nextLive;		/* Per-interp list of live commands. */
    VerbsObj *prevLive;
    int refCount;
    int deleting;		/* The command's delete proc is running. */
    Tcl_Obj *notifyScript;	/* [$obj notify] callback, or NULL. */
    int notifyFd;		/* The fd its file handler watches. */
};

/*
 * Per-interpreter state (assoc data "verbs").
 */

struct VerbsState {
    Tcl_Interp *interp;
    VerbsObj *live;		/* Objects whose command still exists. */
    Tcl_HashTable borrowed;	/* struct ibv_context * of librdmacm ->
				 * its context object (verbsCm.c). */
    Tcl_HashTable counters;	/* VerbsType * -> last number used in a
				 * generated ::verbs::TYPEn name. */
};

/*
 * Resource structs.  Each starts with its VerbsObj.
 */

typedef struct VerbsContext {
    VerbsObj obj;
    struct ibv_context *ctx;
    char *devName;
    int borrowed;		/* librdmacm's context: never closed here. */
} VerbsContext;

typedef struct VerbsChannel {
    VerbsObj obj;
    struct ibv_comp_channel *channel;
} VerbsChannel;

typedef struct VerbsPd {
    VerbsObj obj;
    struct ibv_pd *pd;
} VerbsPd;

typedef struct VerbsMr {
    VerbsObj obj;
    struct ibv_mr *mr;
    unsigned char *buf;		/* Page-aligned buffer owned by the MR. */
    size_t length;
    int access;
} VerbsMr;

typedef struct VerbsMw {
    VerbsObj obj;
    struct ibv_mw *mw;
    VerbsMr *boundMr;		/* The MR of the last bind (referenced: its
				 * memory stays while the window may point
				 * at it), or NULL. */
} VerbsMw;

typedef struct VerbsCq {
    VerbsObj obj;
    struct ibv_cq *cq;
    VerbsChannel *channel;	/* Referenced, not owned; or NULL. */
    struct ibv_cq_ex *cqx;	/* With -wc_flags: the extended CQ, polled
				 * with ibv_start_poll, else NULL. */
    uint64_t wcFlags;		/* Its IBV_WC_EX_WITH_* flags. */
} VerbsCq;

typedef struct VerbsSrq {
    VerbsObj obj;
    struct ibv_srq *srq;
} VerbsSrq;

/*
 * rdma_cm (verbsCm.c): an event channel owns its ids; an id made by a
 * connect request is a child of the channel too.
 */

typedef struct VerbsCmChannel {
    VerbsObj obj;
    struct rdma_event_channel *channel;
} VerbsCmChannel;

typedef struct VerbsCmId {
    VerbsObj obj;
    struct rdma_cm_id *id;
} VerbsCmId;

typedef struct VerbsQp {
    VerbsObj obj;
    struct ibv_qp *qp;
    VerbsCq *sendCq;		/* Referenced, not owned. */
    VerbsCq *recvCq;
    VerbsSrq *srq;		/* Referenced, or NULL. */
    VerbsCmId *cm;		/* The rdma_cm id it was made on (referenced),
				 * or NULL. */
    struct ibv_qp_ex *qpx;	/* With -send_ops: the extended QP of the
				 * ibv_wr_* post API, else NULL. */
    uint64_t sendOps;		/* The IBV_QP_EX_WITH_* it was made with. */
    enum ibv_qp_type qpType;
    uint8_t portNum;		/* Port given to to_init (for defaults). */
} VerbsQp;

typedef struct VerbsAh {
    VerbsObj obj;
    struct ibv_ah *ah;
} VerbsAh;

/*
 * Object registry (verbsObj.c).
 */

MODULE_SCOPE VerbsObj *	VerbsObjNew(const VerbsType *typePtr);
MODULE_SCOPE int	VerbsObjRegister(Tcl_Interp *interp, VerbsObj *objPtr,
			    VerbsObj *parent, Tcl_Obj *nameObj);
MODULE_SCOPE void	VerbsObjRetain(VerbsObj *objPtr);
MODULE_SCOPE void	VerbsObjRelease(VerbsObj *objPtr);
MODULE_SCOPE VerbsObj *	VerbsObjGet(Tcl_Interp *interp, Tcl_Obj *nameObj,
			    const VerbsType *typePtr);
MODULE_SCOPE VerbsObj *	VerbsObjFind(Tcl_Interp *interp, Tcl_Obj *nameObj);
MODULE_SCOPE Tcl_Obj *	VerbsObjName(VerbsObj *objPtr);
MODULE_SCOPE int	VerbsParseOptions(Tcl_Interp *interp, int objc,
			    Tcl_Obj *const objv[], int first,
			    const char *const options[], Tcl_Obj *values[]);
MODULE_SCOPE VerbsObj *	VerbsCreateArgs(Tcl_Interp *interp, int objc,
			    Tcl_Obj *const objv[], int nfixed,
			    const char *usage, const char *const options[],
			    Tcl_Obj *values[], const VerbsType *parentClass);
MODULE_SCOPE VerbsState *VerbsGetState(Tcl_Interp *interp);
MODULE_SCOPE int	VerbsObjectsCmd(ClientData cd, Tcl_Interp *interp,
			    int objc, Tcl_Obj *const objv[]);
MODULE_SCOPE void	VerbsStateInit(Tcl_Interp *interp);
MODULE_SCOPE VerbsMethodProc VerbsCgetMethod, VerbsChildrenMethod,
	VerbsCloseMethod;

/*
 * The subcommands every object command has; a type's table lists them among
 * its own, in alphabetical order.
 */

#define VERBS_METHOD_CGET \
    {"cget", VerbsCgetMethod, 0, 1, "?-option?"}
#define VERBS_METHOD_CHILDREN \
    {"children", VerbsChildrenMethod, 0, 0, ""}
#define VERBS_METHOD_CLOSE \
    {"close", VerbsCloseMethod, 0, 0, ""}

/*
 * Attribute tables (verbsAttr.c).
 */

typedef struct VerbsEnum {
    const char *name;		/* First member: Tcl_GetIndexFromObjStruct. */
    uint64_t value;
} VerbsEnum;

enum VerbsFieldKind {
    VF_UINT,			/* Unsigned integer of 1, 2, 4 or 8 bytes. */
    VF_INT,			/* Signed int. */
    VF_ENUM,			/* C enum (int sized), by name or number. */
    VF_FLAGS,			/* Bit mask, as a list of names. */
    VF_GID,			/* union ibv_gid. */
    VF_GUID,			/* __be64 printed as xxxx:xxxx:xxxx:xxxx. */
    VF_STRING,			/* char array, read-only. */
    VF_BE32,			/* __be32 shown in host order. */
    VF_STRUCT			/* Nested struct, as a nested dict. */
};

#define VF_READONLY 1		/* Query only: refused as input. */

typedef struct VerbsField {
    const char *name;		/* First member: Tcl_GetIndexFromObjStruct. */
    int kind;
    unsigned short offset;
    unsigned short size;
    const void *table;		/* VerbsEnum[] or VerbsStruct. */
    uint64_t mask;		/* attr_mask bit the key sets. */
    int flags;
} VerbsField;

typedef struct VerbsStruct {
    const char *name;		/* For messages: "qp attribute". */
    const VerbsField *fields;	/* NULL-name terminated. */
} VerbsStruct;

#define VERBS_FIELD(st, f, kind, table, mask, flags) \
    {#f, kind, offsetof(st, f), sizeof(((st *)0)->f), table, mask, flags}

MODULE_SCOPE const VerbsEnum verbsWcStatus[], verbsWcOpcode[], verbsWcFlags[],
	verbsDeviceCapFlags[], verbsAtomicCap[], verbsPortState[],
	verbsPortCapFlags[], verbsPortCapFlags2[], verbsQpTypes[],
	verbsSendFlags[], verbsWrOpcode[], verbsMigState[], verbsQpState[],
	verbsAccessFlags[], verbsNodeType[], verbsTransportType[], verbsRate[],
	verbsMtu[], verbsLinkLayer[], verbsGidType[], verbsEventType[],
	verbsSendOps[], verbsCqWcFlags[];

MODULE_SCOPE const VerbsStruct verbsDeviceAttrStruct, verbsPortAttrStruct,
	verbsQpAttrStruct, verbsQpCapStruct, verbsAhAttrStruct, verbsWcStruct,
	verbsGidEntryStruct, verbsSrqAttrStruct;

MODULE_SCOPE Tcl_Obj *	VerbsEnumObj(const VerbsEnum *table, uint64_t value);
MODULE_SCOPE Tcl_Obj *	VerbsFlagsObj(const VerbsEnum *table, uint64_t value);
MODULE_SCOPE int	VerbsGetEnum(Tcl_Interp *interp, const VerbsEnum *table,
			    const char *key, Tcl_Obj *valueObj,
			    uint64_t *valuePtr);
MODULE_SCOPE int	VerbsGetFlags(Tcl_Interp *interp,
			    const VerbsEnum *table, const char *key,
			    Tcl_Obj *valueObj, uint64_t *valuePtr);
MODULE_SCOPE int	VerbsGetBoolean(Tcl_Interp *interp, const char *key,
			    Tcl_Obj *valueObj, int *valuePtr);
MODULE_SCOPE int	VerbsGetUInt(Tcl_Interp *interp, const char *key,
			    Tcl_Obj *valueObj, uint64_t max,
			    uint64_t *valuePtr);
MODULE_SCOPE Tcl_Obj *	VerbsU64Obj(uint64_t v);
MODULE_SCOPE Tcl_Obj *	VerbsGuidObj(uint64_t beGuid);
MODULE_SCOPE Tcl_Obj *	VerbsKeyObj(const char *name);
MODULE_SCOPE Tcl_Obj *	VerbsGidObj(const union ibv_gid *gid);
MODULE_SCOPE int	VerbsGetGid(Tcl_Interp *interp, const char *key,
			    Tcl_Obj *valueObj, union ibv_gid *gid);
MODULE_SCOPE Tcl_Obj *	VerbsStructToDict(const VerbsStruct *st,
			    const void *base);
MODULE_SCOPE int	VerbsDictToStruct(Tcl_Interp *interp,
			    const VerbsStruct *st, const char *key,
			    Tcl_Obj *dictObj,
			    void *base, uint64_t *maskPtr);

/*
 * Errors (verbsAttr.c).
 */

MODULE_SCOPE int	VerbsArgError(Tcl_Interp *interp, const char *key,
			    Tcl_Obj *valueObj, const char *format, ...)
			    __attribute__((format(printf, 4, 5)));
MODULE_SCOPE int	VerbsSysError(Tcl_Interp *interp, const char *call,
			    VerbsObj *objPtr, const char *what, int errnum);

/*
 * Event loop plumbing (verbsEvent.c).
 */

MODULE_SCOPE int	VerbsNotify(Tcl_Interp *interp, VerbsObj *objPtr,
			    int fd, int objc, Tcl_Obj *const objv[]);
MODULE_SCOPE void	VerbsNotifyStop(VerbsObj *objPtr);
MODULE_SCOPE int	VerbsWaitEvent(Tcl_Interp *interp, VerbsObj *objPtr,
			    int fd, int objc, Tcl_Obj *const objv[]);
MODULE_SCOPE int	VerbsSetNonBlocking(Tcl_Interp *interp, int fd);
MODULE_SCOPE int	VerbsGetTimeout(Tcl_Interp *interp, Tcl_Obj *valueObj,
			    int *msPtr);

/*
 * Type descriptors and creation commands, one file each.
 */

MODULE_SCOPE const VerbsType verbsContextClass, verbsPdClass, verbsMrClass,
	verbsCqClass, verbsQpClass, verbsAhClass, verbsChannelClass,
	verbsSrqClass, verbsCmChannelClass, verbsCmIdClass, verbsMwClass;

MODULE_SCOPE Tcl_ObjCmdProc VerbsDevicesCmd, VerbsContextOpenCmd,
	VerbsPdCreateCmd, VerbsMrCreateCmd, VerbsCqCreateCmd,
	VerbsQpCreateCmd, VerbsAhCreateCmd, VerbsChannelCreateCmd,
	VerbsSrqCreateCmd, VerbsCmChannelCmd, VerbsCmIdCmd, VerbsMwCreateCmd;

MODULE_SCOPE VerbsMethodProc VerbsQpSendBurst;
MODULE_SCOPE int	VerbsWcError(Tcl_Interp *interp, VerbsObj *objPtr,
			    const struct ibv_wc *wc, uint64_t wrId);
#define VERBS_DEFAULT_QKEY 0x11111111	/* UD Q_Key of to_init and sends. */
MODULE_SCOPE int	VerbsCheckSendWr(Tcl_Interp *interp, VerbsQp *q,
			    enum ibv_wr_opcode opcode, VerbsAh *ah,
			    int udKeys);
MODULE_SCOPE int	VerbsParseBindInfo(Tcl_Interp *interp,
			    Tcl_Obj *dictObj, struct ibv_mw_bind_info *info,
			    VerbsMr **mrPtr);
MODULE_SCOPE void	VerbsMwBound(VerbsMw *w, VerbsMr *m);
MODULE_SCOPE int	VerbsCheckBind(Tcl_Interp *interp, VerbsMw *w,
			    VerbsMr *m);
MODULE_SCOPE VerbsMethodProc VerbsQpBindMw;
MODULE_SCOPE int	VerbsQpCreate(Tcl_Interp *interp, int objc,
			    Tcl_Obj *const objv[], VerbsCmId *cm);
typedef int (VerbsRecvPostProc)(void *target, struct ibv_recv_wr *wrs,
	struct ibv_recv_wr **bad);
MODULE_SCOPE int	VerbsPostRecv(Tcl_Interp *interp, VerbsObj *objPtr,
			    int n, Tcl_Obj *const wrObjs[],
			    VerbsRecvPostProc *post, void *target,
			    const char *call);
MODULE_SCOPE int	VerbsMrRange(Tcl_Interp *interp, VerbsMr *m,
			    Tcl_Obj *offsetObj, Tcl_Obj *lengthObj,
			    size_t *offsetPtr, size_t *lengthPtr);
MODULE_SCOPE void	VerbsCmForgetContext(VerbsObj *contextObj);
MODULE_SCOPE int	VerbsCmContext(Tcl_Interp *interp, VerbsObj *objPtr,
			    Tcl_Obj **valuePtr);
MODULE_SCOPE VerbsContext *VerbsContextNew(struct ibv_context *ctx,
			    int borrowed);
MODULE_SCOPE int	VerbsParseAhAttr(Tcl_Interp *interp, Tcl_Obj *dictObj,
			    struct ibv_ah_attr *attr);
MODULE_SCOPE void	VerbsAhImplyGlobal(Tcl_Obj *dictObj,
			    struct ibv_ah_attr *attr);

#endif /* VERBS_H_INCLUDED */
