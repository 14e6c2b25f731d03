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

/*
 * A subcommand of a type's ensemble, verbs::TYPE.  The one naming rule:
 * "create" makes a new resource ([verbs::pd create]; a variant of it is
 * named for its kind, [verbs::mr dmabuf]); "open" reaches one that exists
 * by name (a device, an XRC domain, a shared QP); "import" one that another
 * process shares.  Every other subcommand is a helper that makes no object
 * ([verbs::flow pack], [verbs::ah attr_from_wc]).  The rdma_cm ensemble,
 * shared by two types, names each constructor for what it makes
 * ([verbs::cm id], [verbs::cm channel], [verbs::cm create_ep]).  [verbs::dm
 * alloc] is the older name of [verbs::dm create].
 */

typedef struct VerbsCommand {
    const char *name;		/* Subcommand of the type's ensemble. */
    Tcl_ObjCmdProc *proc;
} VerbsCommand;

typedef struct VerbsField VerbsField;

typedef struct VerbsType {
    const char *name;		/* Short type name: "pd", "qp", ... */
    size_t size;		/* Size of the type's struct. */
    const VerbsMethod *methods;	/* Subcommands, NULL-name terminated. */
    const VerbsField *cget;	/* cget rows ("-lkey"), NULL-name ended. */
    void (*freeProc)(VerbsObj *objPtr);
				/* Destroys the C resource, drops the
				 * cross references it holds. */
    int (*eventProc)(Tcl_Interp *interp, VerbsObj *objPtr,
	    Tcl_Obj **eventPtr);
				/* Reads one event from the object's event
				 * fd without blocking: TCL_OK with *eventPtr
				 * the event, or NULL when there is none.
				 * The event may be a shared value (an
				 * object's kept name): the caller puts it
				 * in a list or the result, and changes it
				 * only after Tcl_IsShared says it may.
				 * NULL for types without events. */
    const char *ensemble;	/* The ensemble holding the commands,
				 * verbs::ENSEMBLE (NULL: the type name). */
    const VerbsCommand *commands;
				/* Its ensemble's subcommands, NULL-name
				 * ended; NULL for types made by other
				 * objects only. */
    int (*sgeProc)(Tcl_Interp *interp, VerbsObj *objPtr,
	    Tcl_Obj *const words[2], struct ibv_sge *sge);
				/* A memory key other than an MR that may
				 * stand in an SGE of a work request,
				 * {OBJ OFFSET LENGTH}: fills sge from the
				 * two words (a provider's indirect key,
				 * whose range the device checks).  NULL
				 * for every other type. */
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
    Tcl_Obj *nameObj;		/* The command's full name (referenced),
				 * kept until it is renamed or deleted;
				 * NULL when not known. */
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
				 * generated ::verbs::obj::TYPEn name. */
    Tcl_Namespace *objNs;	/* ::verbs::obj as VerbsObjNamespace made
				 * it, or NULL (not made yet, or deleted). */
    VerbsState *nextState;	/* The states of this thread's interps, */
    VerbsState *prevState;	/* for the exit handler (verbsObj.c). */
    unsigned long pumps;	/* VerbsCmPump calls so far. */
    Tcl_WideInt work;		/* Objects visited so far by the package's
				 * walks over objects (the live list, a
				 * parent's children, a CQ's rdma_cm QPs):
				 * [verbs::objects -work], so that a test
				 * can check that a call's count does not
				 * grow with the number of objects. */
};

/*
 * Resource structs.  Each starts with its VerbsObj.
 */

typedef struct VerbsContext {
    VerbsObj obj;
    struct ibv_context *ctx;
    char *devName;
    int borrowed;		/* librdmacm's context: never closed here. */
    const struct VerbsProvider *provider;	/* The provider that attached */
    void *providerData;		/* its state to the context, or NULL. */
} VerbsContext;

typedef struct VerbsChannel {
    VerbsObj obj;
    struct ibv_comp_channel *channel;
} VerbsChannel;

typedef struct VerbsPd {
    VerbsObj obj;
    struct ibv_pd *pd;
    int imported;		/* Closing only unimports. */
    struct VerbsPd *protPd;	/* A parent domain: the protection domain
				 * it was made from (referenced); else
				 * NULL. */
    VerbsObj *td;		/* A parent domain's thread domain
				 * (referenced), or NULL. */
    Tcl_Obj *alloc, *free;	/* Its allocator command prefixes, or
				 * NULL. */
    Tcl_Obj *pdContext;		/* Its -pd_context value, or NULL. */
} VerbsPd;

/*
 * Device memory (verbsDm.c): on the device, reached with ibv_memcpy_*_dm
 * and registered as MRs.
 */

typedef struct VerbsDm {
    VerbsObj obj;
    struct ibv_dm *dm;
    size_t length;		/* 0 when imported: not known. */
    int imported;		/* Closing only unimports. */
} VerbsDm;

/*
 * A buffer from the provider's allocator (verbsBuf.c), which MRs on it
 * hold.
 */

typedef struct VerbsBuf {
    VerbsObj obj;
    void *buf;			/* struct ibv_buf *, where it exists. */
    unsigned char *addr;
    size_t size;
} VerbsBuf;

/*
 * A DMA handle (verbsDmah.c).  attrs holds the attributes given, as a
 * dict.
 */

typedef struct VerbsDmah {
    VerbsObj obj;
    void *dmah;			/* struct ibv_dmah *, where it exists. */
    Tcl_Obj *attrs;
} VerbsDmah;

/*
 * A completion counter (verbsCompCntr.c).  attrs holds the attributes it
 * was made with, as a dict.
 */

typedef struct VerbsCompCntr {
    VerbsObj obj;
    void *cntr;			/* struct ibv_comp_cntr *, where it
				 * exists. */
    Tcl_Obj *attrs;
} VerbsCompCntr;

typedef struct VerbsMr {
    VerbsObj obj;
    struct ibv_mr *mr;
    unsigned char *buf;		/* Page-aligned buffer owned by the MR (or
				 * within bufObj's), or NULL: a null,
				 * imported or DM MR. */
    VerbsBuf *bufObj;		/* A buffer MR: the buffer (referenced). */
    VerbsDmah *dmah;		/* The DMA handle it was registered with
				 * (referenced), or NULL. */
    VerbsDm *dm;		/* A DM MR: its device memory (referenced),
				 * dmOffset where the MR starts in it. */
    uint64_t dmOffset;
    int imported;		/* Closing only unimports. */
    int hasIova;		/* Registered with -iova: work requests
				 * address it from iova, not its buffer. */
    uint64_t iova;
    size_t length;
    int access;
    int unusable;		/* A rereg failed in the kernel: the MR may
				 * only be closed. */
    int cmReg;			/* Registered by an rdma_cm id's reg_msgs,
				 * reg_read or reg_write: deregistered by
				 * rdma_dereg_mr. */
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
    VerbsPd *parentDomain;	/* Referenced, or NULL. */
    void (*idleProc)(Tcl_Interp *interp, struct VerbsCq *cq);
				/* Called by $cq wait every 10 ms without
				 * completions while idleUsers > 0: the
				 * QPs of rdma_cm ids on this CQ set it
				 * (VerbsCmPump), so that the CQ never
				 * calls into verbsCm.c itself. */
    int idleUsers;		/* The QPs that set idleProc. */
    Tcl_HashTable *cmQps;	/* The QPs of rdma_cm ids on this CQ (keys;
				 * VerbsCmPump reads their channels), or
				 * NULL. */
    Tcl_Obj *lastDict;		/* The dict of the last completion polled
				 * as one, or NULL: the next identical
				 * completion shares it (verbsCq.c WcDict). */
    struct ibv_wc lastWc;	/* That completion. */
    Tcl_Obj *wcKeys[14];	/* The keys of completion dicts, in the
				 * table's order, and at the end a shared 0,
				 * or NULL until the first dict. */
} VerbsCq;

/*
 * An XRC domain (verbsSrq.c): XRC SRQs and xrc_recv QPs live in one.
 */

typedef struct VerbsXrcd {
    VerbsObj obj;
    struct ibv_xrcd *xrcd;
    int fd;			/* The file that names it, or -1. */
    int oflags;			/* O_CREAT, O_EXCL as opened. */
} VerbsXrcd;

typedef struct VerbsSrq {
    VerbsObj obj;
    struct ibv_srq *srq;
    enum ibv_srq_type srqType;
    VerbsXrcd *xrcd;		/* An XRC SRQ's domain (referenced), or
				 * NULL. */
    VerbsCq *cq;		/* The CQ of an XRC or tag matching SRQ
				 * (referenced), or NULL. */
    uint32_t maxNumTags;	/* Tag matching: the size of its list. */
} VerbsSrq;

/*
 * Work queues and their indirection tables (verbsWq.c): the receive side
 * of RSS QPs.
 */

typedef struct VerbsWq {
    VerbsObj obj;
    struct ibv_wq *wq;
    VerbsCq *cq;		/* Referenced. */
} VerbsWq;

typedef struct VerbsRwqIndTable {
    VerbsObj obj;
    struct ibv_rwq_ind_table *table;
    int nwqs;
    VerbsWq **wqs;		/* Its entries, each referenced. */
} VerbsRwqIndTable;

/*
 * rdma_cm (verbsCm.c): an event channel owns its ids; an id made by a
 * connect request is a child of the channel too.  An id made by
 * [verbs::cm create_ep] (or migrated off every channel) is synchronous
 * and has no parent.
 */

typedef struct VerbsCmChannel {
    VerbsObj obj;
    struct rdma_event_channel *channel;
    Tcl_Obj *pending;		/* Events read ahead while a $cq wait
				 * watched for disconnects (a list of
				 * dicts, delivered first), or NULL. */
    Tcl_Size pendingNext;	/* The next of them to deliver. */
    unsigned long pumped;	/* The VerbsCmPump call that read it last
				 * (VerbsState's pumps). */
} VerbsCmChannel;

typedef struct VerbsCmJoin VerbsCmJoin;	/* A multicast group joined. */
typedef struct VerbsQp VerbsQp;

typedef struct VerbsCmId {
    VerbsObj obj;
    struct rdma_cm_id *id;
    VerbsCmJoin *joins;		/* The groups joined (the context
				 * pointers their events carry). */
    VerbsPd *epPd;		/* A passive endpoint made with queue pair
				 * attributes: the objects each new
				 * connection's QP uses (referenced), */
    VerbsCq *epSendCq, *epRecvCq;	/* (both NULL: librdmacm makes
				 * each QP's CQs), */
    VerbsSrq *epSrq;		/* (or NULL), */
    enum ibv_qp_type epQpType;	/* and its type. */
    int connectLen;		/* The bytes of the connect data of its
				 * addrinfo (create_ep) that librdmacm puts
				 * before the first connect's private data
				 * in a 256-byte field. */
    int state;			/* Where the id is in its life, as the
				 * calls and events it saw tell
				 * (VERBS_CM_* in verbsCm.c); its methods
				 * check it before calling librdmacm. */
} VerbsCmId;

struct VerbsQp {
    VerbsObj obj;
    struct ibv_qp *qp;
    VerbsCq *sendCq;		/* Referenced, not owned; NULL for a QP
				 * without a send queue (xrc_recv, RSS) and
				 * for one whose CQs librdmacm made (an
				 * rdma_cm id's, without -send_cq). */
    VerbsCq *recvCq;		/* NULL for a QP without a receive queue of
				 * its own (xrc_send, xrc_recv, RSS), or
				 * with librdmacm's CQs. */
    VerbsSrq *srq;		/* Referenced, or NULL. */
    VerbsXrcd *xrcd;		/* An xrc_recv QP's domain (referenced), or
				 * NULL. */
    VerbsRwqIndTable *indTable;	/* An RSS QP's table (referenced), or
				 * NULL. */
    int opened;			/* Made by ibv_open_qp: destroying it
				 * only closes this process's handle. */
    VerbsCmId *cm;		/* The rdma_cm id it was made on (referenced),
				 * or NULL. */
    struct ibv_qp_ex *qpx;	/* With -send_ops: the extended QP of the
				 * ibv_wr_* post API, else NULL. */
    uint64_t sendOps;		/* The IBV_QP_EX_WITH_* it was made with. */
    enum ibv_qp_type qpType;
    uint8_t portNum;		/* Port given to to_init (for defaults). */
    uint32_t qkey;		/* The UD Q_Key to_init and sends default
				 * to: VERBS_DEFAULT_QKEY, or the one
				 * librdmacm gave a QP made on an id. */
    struct VerbsQpMcast *mcasts;/* The groups of attach_mcast: detached
				 * before destruction, which they would
				 * make fail (EBUSY). */
    void *providerData;		/* What a provider's maker keeps with the
				 * QP it made (VerbsQpMaker.made), or NULL; */
    void (*providerFree)(void *data);	/* its free proc, called after
				 * the QP's destruction. */
    struct VerbsQpCntr *cntrs;	/* The completion counters attached
				 * (verbsCompCntr.c), each referenced. */
};

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
MODULE_SCOPE int	VerbsObjAdopt(Tcl_Interp *interp, VerbsObj *objPtr,
			    VerbsObj *parent, Tcl_Obj *nameObj);
MODULE_SCOPE void	VerbsObjReparent(VerbsObj *objPtr, VerbsObj *parent);
MODULE_SCOPE void	VerbsObjRetain(VerbsObj *objPtr);
MODULE_SCOPE void	VerbsObjRelease(VerbsObj *objPtr);

/*
 * A reference held by a C frame that runs a script (a notify callback):
 * if the script exits the process or the thread, the frame never
 * returns, and the exit handler drops the reference in its stead.
 */

typedef struct VerbsFrame {
    VerbsObj *objPtr;
    struct VerbsFrame *next;
    int dropped;		/* The exit handler released it. */
} VerbsFrame;

MODULE_SCOPE void	VerbsFramePush(VerbsFrame *framePtr,
			    VerbsObj *objPtr);
MODULE_SCOPE void	VerbsFramePop(VerbsFrame *framePtr);
MODULE_SCOPE VerbsObj *	VerbsObjGet(Tcl_Interp *interp, Tcl_Obj *nameObj,
			    const VerbsType *typePtr);
MODULE_SCOPE VerbsObj *	VerbsObjFind(Tcl_Interp *interp, Tcl_Obj *nameObj);
MODULE_SCOPE Tcl_Obj *	VerbsObjName(VerbsObj *objPtr);
MODULE_SCOPE Tcl_Obj *	VerbsObjNameShared(VerbsObj *objPtr);

/*
 * Parsed forms cached in Tcl values (verbsCache.c).
 */

MODULE_SCOPE void	VerbsEpochBump(void);
MODULE_SCOPE VerbsObj *	VerbsHandleCached(Tcl_Interp *interp,
			    Tcl_Obj *nameObj);
MODULE_SCOPE void	VerbsHandleCache(Tcl_Obj *nameObj, VerbsObj *objPtr);
MODULE_SCOPE const struct ibv_send_wr *VerbsSendWrCached(Tcl_Interp *interp,
			    VerbsQp *q, Tcl_Obj *wrObj);
MODULE_SCOPE const struct ibv_recv_wr *VerbsRecvWrCached(Tcl_Interp *interp,
			    Tcl_Obj *wrObj);
MODULE_SCOPE void	VerbsSendWrCache(Tcl_Interp *interp, VerbsQp *q,
			    Tcl_Obj *wrObj, const struct ibv_send_wr *wr);
MODULE_SCOPE void	VerbsRecvWrCache(Tcl_Interp *interp, Tcl_Obj *wrObj,
			    const struct ibv_recv_wr *wr);
struct VerbsStruct;
typedef void (VerbsStructFixProc)(Tcl_Obj *dictObj, void *value,
	unsigned char *given);
MODULE_SCOPE int	VerbsDictToStructKept(Tcl_Interp *interp,
			    const struct VerbsStruct *structPtr,
			    const char *what, Tcl_Obj *dictObj, void *target,
			    size_t size, VerbsStructFixProc *fixProc);

/*
 * Command options through the VerbsField rows (verbsAttr.c).
 */

MODULE_SCOPE int	VerbsParseOptions(Tcl_Interp *interp, int objc,
			    Tcl_Obj *const objv[], int first,
			    const VerbsField *options, void *record);
MODULE_SCOPE Tcl_Obj *	VerbsUsage(const char *fixed,
			    const VerbsField *options);
MODULE_SCOPE int	VerbsOlderOption(Tcl_Interp *interp, Tcl_Obj *wordObj,
			    const VerbsField *options, int *indexPtr);
MODULE_SCOPE int	VerbsUsageError(Tcl_Interp *interp, int skip,
			    Tcl_Obj *const objv[], const char *fixed,
			    const VerbsField *options);

/*
 * Object registry, continued (verbsObj.c): constructors' arguments,
 * objects held across a call, the interp's state, the common methods.
 */

MODULE_SCOPE int	VerbsCreateArgs(Tcl_Interp *interp, int objc,
			    Tcl_Obj *const objv[], const char *fixed,
			    const VerbsField *options, void *record,
			    const VerbsType *parentClass);
MODULE_SCOPE int	VerbsCheckOwner(Tcl_Interp *interp, const char *option,
			    VerbsObj *objPtr, VerbsObj *owner,
			    const char *where);
MODULE_SCOPE VerbsObj *	VerbsObjWrap(Tcl_Interp *interp,
			    const VerbsType *typePtr, size_t offset,
			    void *resource, VerbsObj *parent,
			    Tcl_Obj *nameObj);
MODULE_SCOPE void	VerbsObjHold(VerbsObj *const objs[], int n);
MODULE_SCOPE int	VerbsObjCheckHeld(Tcl_Interp *interp,
			    VerbsObj *const objs[], int n, const char *call);
MODULE_SCOPE void	VerbsObjUnhold(VerbsObj *const objs[], int n);
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
 * Attribute dicts: the row types of the engine (verbsAttr.c).
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
    VF_STRUCT,			/* Nested struct, as a nested dict (parsed
				 * by setProc when there is one). */
    VF_BOOL,			/* int, as a Tcl boolean. */
    VF_OBJ,			/* VerbsObj * of the type in table, by
				 * name; "" when NULL. */
    VF_TCLOBJ,			/* Tcl_Obj *, taken as it is, not reference
				 * counted: valid while the command's words
				 * (or the dict it came from) are, so it is
				 * read before the command returns and no
				 * conversion in between may change that
				 * dict. */
    VF_TIMEOUT,			/* int milliseconds, -1 for no limit. */
    VF_CSTR,			/* char *, read-only. */
    VF_BE16,			/* __be16 shown in host order. */
    VF_MAC,			/* uint8_t[6], as aa:bb:cc:dd:ee:ff. */
    VF_IPV4,			/* 4 bytes in network order, as a.b.c.d. */
    VF_IPV6,			/* 16 bytes, in IPv6 notation. */
    VF_BYTES,			/* A byte array of at most the member's size
				 * (zero-padded), as a byte string. */
    VF_PARENT,			/* The object's parent (cget only). */
    VF_TYPE,			/* The object's type name (cget only). */
    VF_PROC,			/* Computed by getProc (cget only). */
    VF_PARSE			/* Input only: parsed by setProc into the
				 * member (an SGE, a list of WC field
				 * names). */
};

#define VF_READONLY 1		/* Query only: refused as input. */
#define VF_REQUIRED 2		/* An option that must be given. */
#define VF_DEREF    4		/* The field is in a struct the object
				 * points to (see ptrOffset). */
#define VF_SWITCH   8		/* An option without a value ("-devx"):
				 * given, it sets its int member to 1. */
#define VF_EXACT    16		/* cget: taken only when written in full
				 * (-parent, -type), so that a prefix
				 * always means one of the type's own. */

typedef int (VerbsGetProc)(Tcl_Interp *interp, VerbsObj *objPtr,
	Tcl_Obj **valuePtr);
typedef int (VerbsSetProc)(Tcl_Interp *interp, const char *key,
	Tcl_Obj *valueObj, void *memberPtr);

/*
 * One row of a table that maps names to the members of a struct.  The same
 * rows serve three uses, so that each name, kind and limit is written once:
 *  - the fields of a C struct as a dict (query results, attribute input);
 *  - the options of a command ("-cqe 16"), parsed into a record struct of
 *    the command's own; the usage string is derived from the rows;
 *  - the cget options of an object type, read from its struct, or with
 *    VF_DEREF from the C struct it points to (q->qp->qp_num).
 */

struct VerbsField {
    const char *name;		/* First member: Tcl_GetIndexFromObjStruct. */
    int kind;
    unsigned short offset;
    unsigned short size;
    const void *table;		/* VerbsEnum[], VerbsStruct or VerbsType. */
    uint64_t mask;		/* attr_mask bit the key sets. */
    int flags;
    unsigned short ptrOffset;	/* VF_DEREF: offset of the pointer in the
				 * object's struct. */
    uint64_t max;		/* VF_UINT, VF_BE16, VF_BE32 input: the
				 * largest value (0: what the field
				 * holds). */
    const char *arg;		/* Options: the value's name in the usage
				 * ("entries"); with VF_REQUIRED, then the
				 * reason after a colon ("bytes:the size of
				 * the region in bytes"). */
    VerbsGetProc *getProc;	/* VF_PROC. */
    VerbsSetProc *setProc;	/* VF_PARSE, and VF_STRUCT input. */
};

typedef struct VerbsStruct {
    const char *name;		/* For messages: "qp attribute". */
    const VerbsField *fields;	/* NULL-name terminated. */
} VerbsStruct;

/*
 * Dict fields of a C struct.
 */

#define VERBS_FIELD(st, f, kind, table, mask, flags) \
    {#f, kind, offsetof(st, f), sizeof(((st *)0)->f), table, mask, flags, \
     0, 0, NULL, NULL, NULL}

/*
 * A nested struct whose dict a VerbsSetProc parses (keeping the parsed
 * form, say) and whose output is the table's dict.
 */

#define VERBS_FIELD_STRUCT(st, f, table, mask, proc) \
    {#f, VF_STRUCT, offsetof(st, f), sizeof(((st *)0)->f), table, mask, 0, \
     0, 0, NULL, NULL, proc}

/*
 * A dict field whose value a VerbsSetProc parses into the member (an SGE
 * {MR OFFSET LENGTH} by VerbsParseSge into a VerbsSgeArg).
 */

#define VERBS_FIELD_PARSE(st, f, proc) \
    {#f, VF_PARSE, offsetof(st, f), sizeof(((st *)0)->f), NULL, 0, 0, 0, \
     0, NULL, NULL, proc}

/*
 * A dict field of an integer kind whose values stop below what the member
 * holds (a 20-bit flow label in a uint32_t).
 */

#define VERBS_FIELD_MAX(st, f, kind, mask, max) \
    {#f, kind, offsetof(st, f), sizeof(((st *)0)->f), NULL, mask, 0, 0, \
     max, NULL, NULL, NULL}

/*
 * Options of a command, into the record struct rec: "-f" sets rec.f.
 * VERBS_OPTION_MAX gives an integer's limit, VERBS_OPTION_REQUIRED makes
 * it mandatory (arg "word:reason").
 */

#define VERBS_OPTION(rec, f, kind, table, arg) \
    {"-" #f, kind, offsetof(rec, f), sizeof(((rec *)0)->f), table, 0, 0, \
     0, 0, arg, NULL, NULL}
#define VERBS_OPTION_MAX(rec, f, max, arg) \
    {"-" #f, VF_UINT, offsetof(rec, f), sizeof(((rec *)0)->f), NULL, 0, 0, \
     0, max, arg, NULL, NULL}
#define VERBS_OPTION_REQUIRED(rec, f, kind, table, max, arg) \
    {"-" #f, kind, offsetof(rec, f), sizeof(((rec *)0)->f), table, 0, \
     VF_REQUIRED, 0, max, arg, NULL, NULL}

/*
 * An option whose name is not its member's (a C keyword: -inline into
 * inline_), a switch (an option without a value, into an int), an option
 * parsed by a function of its own (proc: a VerbsSetProc; flags 0 or
 * VF_REQUIRED), and the -timeout of a record that is one int.
 */

#define VERBS_OPTION_NAMED(name, rec, f, kind, table, arg) \
    {name, kind, offsetof(rec, f), sizeof(((rec *)0)->f), table, 0, 0, \
     0, 0, arg, NULL, NULL}
#define VERBS_OPTION_SWITCH(name, rec, f) \
    {name, VF_INT, offsetof(rec, f), sizeof(int), NULL, 0, VF_SWITCH, 0, 0, \
     NULL, NULL, NULL}
#define VERBS_OPTION_PARSE(rec, f, proc, flags, arg) \
    {"-" #f, VF_PARSE, offsetof(rec, f), sizeof(((rec *)0)->f), NULL, 0, \
     flags, 0, 0, arg, NULL, proc}
#define VERBS_NOT_GIVEN (~(uint64_t) 0)	/* A uint64_t option's default
					 * when "not given" must be told
					 * from every value. */
#define VERBS_OPTION_TIMEOUT \
    {"-timeout", VF_TIMEOUT, 0, sizeof(int), NULL, 0, 0, 0, 0, "ms", NULL, \
     NULL}

/*
 * Every create command's record starts with a VerbsCreateHead: the parent
 * object it resolved and the name of the object command, -as NAME.
 * VERBS_OPTION_COMMAND is the -as row of its option table; -command, the
 * option's older name, is taken for it when given in full
 * (VerbsOlderOption).
 */

typedef struct VerbsCreateHead {
    VerbsObj *parent;
    Tcl_Obj *command;
} VerbsCreateHead;

#define VERBS_OPTION_COMMAND \
    VERBS_OPTION_NAMED("-as", VerbsCreateHead, command, VF_TCLOBJ, NULL, \
	    "name")

MODULE_SCOPE int	VerbsImportArgs(Tcl_Interp *interp, int objc,
			    Tcl_Obj *const objv[], const char *fixed,
			    const VerbsType *parentClass,
			    VerbsCreateHead *args, uint32_t *handlePtr);

/*
 * cget rows: a member of the object's struct (ost), a member f of the C
 * struct cst that the object's member ptr points to, a computed value, and
 * the two every type has (-parent, -type).
 */

#define VERBS_CGET(name, ost, f, kind, table) \
    {name, kind, offsetof(ost, f), sizeof(((ost *)0)->f), table, 0, \
     VF_READONLY, 0, 0, NULL, NULL, NULL}
#define VERBS_CGET_PTR(name, ost, ptr, cst, f, kind, table) \
    {name, kind, offsetof(cst, f), sizeof(((cst *)0)->f), table, 0, \
     VF_READONLY | VF_DEREF, offsetof(ost, ptr), 0, NULL, NULL, NULL}
#define VERBS_CGET_PROC(name, proc) \
    {name, VF_PROC, 0, 0, NULL, 0, VF_READONLY, 0, 0, NULL, proc, NULL}
#define VERBS_CGET_PARENT(name) \
    {name, VF_PARENT, 0, 0, NULL, 0, VF_READONLY, 0, 0, NULL, NULL, NULL}
#define VERBS_CGET_COMMON \
    {"-parent", VF_PARENT, 0, 0, NULL, 0, VF_READONLY | VF_EXACT, 0, 0, \
     NULL, NULL, NULL}, \
    {"-type", VF_TYPE, 0, 0, NULL, 0, VF_READONLY | VF_EXACT, 0, 0, NULL, \
     NULL, NULL}
#define VERBS_FIELD_END {NULL, 0, 0, 0, NULL, 0, 0, 0, 0, NULL, NULL, NULL}

/*
 * The flush work request (ibv_wr_flush, rdma-core 45 and later; the
 * kernel's rxe has it from 6.2): its opcode, send op and placement
 * types and selectivity levels, by value, so that the names are the same
 * against every rdma-core.  Built against one without ibv_wr_flush
 * (HAVE_IBV_WR_FLUSH undefined), posting a flush is an error.
 */

#define VERBS_WR_FLUSH		14	/* IBV_WR_FLUSH */
#define VERBS_QP_EX_WITH_FLUSH	(1 << 11) /* IBV_QP_EX_WITH_FLUSH */
#define VERBS_FLUSH_GLOBAL	1	/* IBV_FLUSH_GLOBAL */
#define VERBS_FLUSH_PERSISTENT	2	/* IBV_FLUSH_PERSISTENT */
#define VERBS_FLUSH_RANGE	0	/* IBV_FLUSH_RANGE */
#define VERBS_FLUSH_MR		1	/* IBV_FLUSH_MR */

/*
 * The enum, flag and struct tables live with the type they describe:
 * verbsQpState[] in verbsQp.c, verbsWcStruct in verbsCq.c, and so on; each
 * is declared in its file's section at the end of this header.
 */

MODULE_SCOPE Tcl_Obj *	VerbsEnumObj(const VerbsEnum *table, uint64_t value);
MODULE_SCOPE Tcl_Obj *	VerbsEnumShared(const VerbsEnum *table,
			    uint64_t value);
MODULE_SCOPE Tcl_Obj *	VerbsFlagsObj(const VerbsEnum *table, uint64_t value);
MODULE_SCOPE int	VerbsGetEnum(Tcl_Interp *interp, const VerbsEnum *table,
			    const char *key, Tcl_Obj *valueObj,
			    uint64_t *valuePtr);
MODULE_SCOPE int	VerbsGetFlags(Tcl_Interp *interp,
			    const VerbsEnum *table, const char *key,
			    Tcl_Obj *valueObj, uint64_t *valuePtr);
MODULE_SCOPE int	VerbsGetTimeout(Tcl_Interp *interp, Tcl_Obj *valueObj,
			    int *msPtr);
MODULE_SCOPE int	VerbsCheckLength(Tcl_Interp *interp, const char *key,
			    uint64_t value);
MODULE_SCOPE int	VerbsCheckRange(Tcl_Interp *interp, VerbsObj *objPtr,
			    uint64_t size, uint64_t off, uint64_t len,
			    int lengthAtFault);
MODULE_SCOPE int	VerbsGetRange(Tcl_Interp *interp, VerbsObj *objPtr,
			    uint64_t size, Tcl_Obj *offsetObj,
			    Tcl_Obj *lengthObj, uint64_t *offPtr,
			    uint64_t *lenPtr);
MODULE_SCOPE const unsigned char *VerbsGetWrite(Tcl_Interp *interp,
			    VerbsObj *objPtr, uint64_t size,
			    Tcl_Obj *offsetObj, Tcl_Obj *bytesObj,
			    uint64_t *offPtr, Tcl_Size *lenPtr);
MODULE_SCOPE int	VerbsGetBoolean(Tcl_Interp *interp, const char *key,
			    Tcl_Obj *valueObj, int *valuePtr);
MODULE_SCOPE int	VerbsGetUInt(Tcl_Interp *interp, const char *key,
			    Tcl_Obj *valueObj, uint64_t max,
			    uint64_t *valuePtr);
MODULE_SCOPE int	VerbsCheckMax(Tcl_Interp *interp, const char *key,
			    uint64_t value, uint64_t max);
MODULE_SCOPE const unsigned char *VerbsGetBytes(Tcl_Interp *interp,
			    const char *key, Tcl_Obj *valueObj,
			    Tcl_Size *lenPtr);
MODULE_SCOPE Tcl_Obj *	VerbsU64Obj(uint64_t v);
MODULE_SCOPE Tcl_Obj *	VerbsGuidObj(uint64_t beGuid);
MODULE_SCOPE Tcl_Obj *	VerbsKeyObj(const char *name);
MODULE_SCOPE Tcl_Obj *	VerbsGidObj(const union ibv_gid *gid);
MODULE_SCOPE int	VerbsGetGid(Tcl_Interp *interp, const char *key,
			    Tcl_Obj *valueObj, union ibv_gid *gid);
MODULE_SCOPE int	VerbsFieldGet(Tcl_Interp *interp, const VerbsField *f,
			    const void *base, VerbsObj *objPtr,
			    Tcl_Obj **valuePtr);
MODULE_SCOPE Tcl_Obj *	VerbsStructToDict(const VerbsStruct *st,
			    const void *base);
MODULE_SCOPE int	VerbsDictToStruct(Tcl_Interp *interp,
			    const VerbsStruct *st, const char *key,
			    Tcl_Obj *dictObj,
			    void *base, uint64_t *maskPtr);
MODULE_SCOPE void	VerbsFieldFill(const VerbsField *f, void *base);

/*
 * Errors (verbsAttr.c).
 */

MODULE_SCOPE int	VerbsArgError(Tcl_Interp *interp, const char *key,
			    Tcl_Obj *valueObj, const char *format, ...)
			    __attribute__((format(printf, 4, 5)));
MODULE_SCOPE int	VerbsStateError(Tcl_Interp *interp, VerbsObj *objPtr,
			    const char *state, const char *method,
			    const char *needs);
MODULE_SCOPE void	VerbsTimeoutCode(Tcl_Interp *interp, Tcl_WideInt got);
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
typedef int (VerbsTryProc)(Tcl_Interp *interp, void *clientData,
	int *donePtr);
MODULE_SCOPE int	VerbsWaitFd(Tcl_Interp *interp, VerbsObj *objPtr,
			    int fd, int timeout, const char *what,
			    VerbsTryProc *tryProc, void *clientData);
MODULE_SCOPE int	VerbsSetNonBlocking(Tcl_Interp *interp, int fd);

/*
 * The object types, one row each: VERBS_TYPES(X) applies X to every type's
 * name T, whose descriptor verbsTClass lives in the type's own file.  The
 * ensembles, [verbs::objects TYPE] and the type lists in messages are
 * derived from this list (verbsInit.c).  A plain new type is its file
 * (struct, tables, constructor), a row here, and its part of the manual.
 */

#define VERBS_TYPES(X) \
    X(Ah) X(Buf) X(Channel) X(CmChannel) X(CmdComp) X(CmId) X(CompCntr) \
    X(Context) X(Counters) X(Cq) X(CryptoLogin) X(Dek) X(Devx) X(Dm) X(Dmah) \
    X(DmOp) X(DrAction) X(DrDomain) X(DrMatcher) X(DrRule) X(DrTable) \
    X(Eq) X(EventChannel) X(EventFd) X(Flow) X(FlowAction) X(Matcher) \
    X(Mflow) X(Mkey) X(Mr) X(Msi) X(Mw) X(Pd) X(Pool) X(Pp) X(Qp) X(Rqpn) \
    X(RwqIndTable) X(SchedLeaf) X(SchedNode) X(Srq) X(Td) X(Uar) X(Umem) \
    X(Var) X(Wq) X(Xrcd)

#define VERBS_DECLARE_TYPE(T) MODULE_SCOPE const VerbsType verbs##T##Class;
VERBS_TYPES(VERBS_DECLARE_TYPE)
MODULE_SCOPE const VerbsType *const verbsTypes[];

MODULE_SCOPE Tcl_ObjCmdProc VerbsDevicesCmd, VerbsForkInitCmd,
	VerbsForkStatusCmd;

/*
 * Providers (mlx5 today, in mlx5*.c): plug-ins that the core calls and
 * never names.  Each fills a VerbsProvider, constant, and has a row in
 * VERBS_PROVIDERS: X(Name) stands for its verbs<Name>Provider.  The
 * package's load calls each init proc (the provider's commands, in its
 * own namespace); [$ctx NAME subcommand ...] calls its method; a context
 * to which the provider attached its state (VerbsProviderAttach) calls
 * its free proc before the device closes.  A row is X(Name, "name"),
 * the name being the provider's VerbsProvider.name.
 */

typedef struct VerbsProvider {
    const char *name;		/* "mlx5": the context method's name. */
    int (*init)(Tcl_Interp *interp);
    VerbsMethodProc *method;	/* [$ctx NAME ...]; objv[1] is NAME. */
    void (*free)(VerbsContext *c);	/* Frees c->providerData. */
    const VerbsEnum *resourceTypes;	/* The buffers its parent domain
				 * allocator asks for (verbs::pd create
				 * -alloc), or NULL. */
} VerbsProvider;

#define VERBS_PROVIDERS(X) X(Mlx5, "mlx5")
#define VERBS_DECLARE_PROVIDER(N, name) \
    MODULE_SCOPE const VerbsProvider verbs##N##Provider;
VERBS_PROVIDERS(VERBS_DECLARE_PROVIDER)
MODULE_SCOPE const VerbsProvider *const verbsProviders[];

MODULE_SCOPE void	*VerbsProviderAttach(VerbsContext *c,
			    const VerbsProvider *provider, size_t size);
MODULE_SCOPE void	*VerbsProviderState(VerbsContext *c,
			    const VerbsProvider *provider);
MODULE_SCOPE VerbsMethodProc VerbsProviderMethod;

/*
 * How a provider's constructors ([mlx5::qp create], [mlx5::cq create])
 * reuse the verbs ones: VerbsQpCreate (VerbsCqCreate) given a maker makes
 * its extended QP (CQ) with the maker's create proc instead of
 * ibv_create_qp_ex (ibv_create_cq_ex); call names it in errors.
 */

typedef struct VerbsQpMaker {
    const char *call;
    struct ibv_qp *(*create)(struct ibv_context *ctx,
	    struct ibv_qp_init_attr_ex *init, void *clientData);
    void *clientData;
    void *(*made)(struct ibv_qp *qp, void *clientData);
				/* Or NULL: what the provider keeps with the
				 * new QP (VerbsQp.providerData), */
    void (*free)(void *data);	/* and how it is freed. */
} VerbsQpMaker;

/*
 * A provider's work requests in the ibv_wr_* post API (VerbsQpWrPost): for
 * each work request dict, parse takes out the keys and opcodes that are
 * the provider's.  It leaves in *restPtr the dict for the verbs parser
 * (wrObj itself when nothing in it is the provider's), or NULL when the
 * work request is the provider's alone.  For a verbs work request,
 * address runs after its ibv_wr_* builder and before its data setter; a
 * provider's own work request is built by build alone.  Work request i
 * is the i-th of the post.
 */

typedef struct VerbsWrExt {
    int (*parse)(Tcl_Interp *interp, VerbsQp *q, int i, Tcl_Obj *wrObj,
	    Tcl_Obj **restPtr, void *clientData);
    void (*address)(VerbsQp *q, int i, void *clientData);
    void (*build)(VerbsQp *q, int i, void *clientData);
    void *clientData;
} VerbsWrExt;

typedef struct VerbsCqMaker {
    const char *call;
    struct ibv_cq_ex *(*create)(struct ibv_context *ctx,
	    struct ibv_cq_init_attr_ex *init, void *clientData);
    void *clientData;
} VerbsCqMaker;

/*
 * Bursts in C (verbsBurst.c).
 */

MODULE_SCOPE VerbsMethodProc VerbsQpSendBurst;
MODULE_SCOPE Tcl_ObjCmdProc VerbsSendBurstCmd;

/*
 * Latency in C (verbsLat.c).
 */

MODULE_SCOPE VerbsMethodProc VerbsQpLatency;

/*
 * Queue pairs and work requests (verbsQp.c).
 */

#define VERBS_DEFAULT_QKEY 0x11111111	/* UD Q_Key of to_init and sends. */
MODULE_SCOPE int	VerbsQpCheckQueue(Tcl_Interp *interp, VerbsQp *q,
			    int send);
MODULE_SCOPE int	VerbsQpCmCqs(Tcl_Interp *interp, int recvCq, int srq);
MODULE_SCOPE int	VerbsQpCheckCqs(Tcl_Interp *interp, VerbsQp *q,
			    const char *option, const char *command);
MODULE_SCOPE int	VerbsCheckSendWr(Tcl_Interp *interp, VerbsQp *q,
			    enum ibv_wr_opcode opcode, VerbsAh *ah,
			    int udKeys);
MODULE_SCOPE VerbsMethodProc VerbsQpBindMw;
MODULE_SCOPE int	VerbsQpCreate(Tcl_Interp *interp, int objc,
			    Tcl_Obj *const objv[], VerbsCmId *cm,
			    const VerbsQpMaker *maker);
MODULE_SCOPE int	VerbsQpWrPost(Tcl_Interp *interp, VerbsQp *q,
			    Tcl_Obj *qpName, int n, Tcl_Obj *const wrObjs[],
			    const VerbsWrExt *ext);
MODULE_SCOPE void	VerbsQpAdopt(Tcl_Interp *interp, VerbsQp *q,
			    struct ibv_qp *qp, VerbsPd *p, VerbsCq *sendCq,
			    VerbsCq *recvCq, VerbsSrq *srq, VerbsCmId *cm);
typedef int (VerbsRecvPostProc)(void *target, struct ibv_recv_wr *wrs,
	struct ibv_recv_wr **bad);
MODULE_SCOPE int	VerbsParseSgList(Tcl_Interp *interp,
			    Tcl_Obj *listObj, struct ibv_sge **sgePtr,
			    int *numPtr, int *nonHostPtr);
MODULE_SCOPE int	VerbsNotHostError(Tcl_Interp *interp, const char *key,
			    int index, const struct ibv_sge *sge);
MODULE_SCOPE int	VerbsPostRecv(Tcl_Interp *interp, VerbsObj *objPtr,
			    int n, Tcl_Obj *const wrObjs[],
			    VerbsRecvPostProc *post, void *target,
			    const char *call);
MODULE_SCOPE const VerbsEnum verbsQpTypes[], verbsSendFlags[],
	verbsWrOpcode[], verbsMigState[], verbsQpState[], verbsRate[],
	verbsMtu[], verbsSendOps[];
MODULE_SCOPE const VerbsStruct verbsQpAttrStruct, verbsQpCapStruct,
	verbsEceStruct;

/*
 * Completion queues and completions (verbsCq.c).
 */

MODULE_SCOPE int	VerbsErrorCompletions(Tcl_Interp *interp,
			    Tcl_Obj *list);
MODULE_SCOPE int	VerbsWcError(Tcl_Interp *interp, VerbsObj *objPtr,
			    const struct ibv_wc *wc, uint64_t wrId);
MODULE_SCOPE int	VerbsCqCreate(Tcl_Interp *interp, int objc,
			    Tcl_Obj *const objv[], const VerbsCqMaker *maker);
MODULE_SCOPE const VerbsEnum verbsWcStatus[], verbsWcOpcode[],
	verbsWcFlags[], verbsCqWcFlags[];
MODULE_SCOPE const VerbsStruct verbsWcStruct, verbsWcInputStruct;

/*
 * Memory regions and windows (verbsMr.c).
 */

MODULE_SCOPE int	VerbsParseBindInfo(Tcl_Interp *interp,
			    Tcl_Obj *dictObj, struct ibv_mw_bind_info *info,
			    VerbsMr **mrPtr);
MODULE_SCOPE void	VerbsMwBound(VerbsMw *w, VerbsMr *m);
MODULE_SCOPE int	VerbsCheckBind(Tcl_Interp *interp, VerbsMw *w,
			    VerbsMr *m);
MODULE_SCOPE int	VerbsMrNew(Tcl_Interp *interp, VerbsPd *p,
			    VerbsObj *parent, size_t length, int access,
			    Tcl_Obj *nameObj, VerbsMr **mrPtr,
			    uint64_t iova);
#define NO_IOVA (~(uint64_t) 0)	/* VerbsMrNew: register at the buffer. */
typedef enum VerbsCmReg {
    VERBS_CM_REG_MSGS, VERBS_CM_REG_READ, VERBS_CM_REG_WRITE
} VerbsCmReg;			/* The rdma_reg_* helper of VerbsMrCmNew. */
MODULE_SCOPE int	VerbsMrCmNew(Tcl_Interp *interp, VerbsPd *p,
			    struct rdma_cm_id *id, VerbsCmReg kind,
			    size_t length, Tcl_Obj *nameObj);
MODULE_SCOPE VerbsGetProc VerbsMrPd;
MODULE_SCOPE VerbsPd *	VerbsMrPdOf(VerbsMr *m);
MODULE_SCOPE uint64_t	VerbsMrBase(VerbsMr *m);
MODULE_SCOPE int	VerbsMrSge(Tcl_Interp *interp, Tcl_Obj *const parts[3],
			    struct ibv_sge *sge, VerbsMr **mrPtr, int keys);
MODULE_SCOPE int	VerbsMrHost(const VerbsMr *m);

/*
 * An option whose value is one SGE, {MR OFFSET LENGTH}: the VF_PARSE rows
 * of VerbsParseSge fill one.
 */

typedef struct VerbsSgeArg {
    struct ibv_sge sge;
    VerbsMr *mr;		/* NULL: the option was not given. */
    Tcl_Obj *valueObj;		/* As given, for later messages. */
} VerbsSgeArg;

MODULE_SCOPE VerbsSetProc VerbsParseSge;
MODULE_SCOPE int	VerbsMrAdopt(Tcl_Interp *interp, VerbsPd *p,
			    struct ibv_mr *mr, int access, Tcl_Obj *nameObj);
MODULE_SCOPE int	VerbsFlowActionAdopt(Tcl_Interp *interp,
			    VerbsObj *contextObj,
			    struct ibv_flow_action *action, Tcl_Obj *nameObj);
MODULE_SCOPE struct ibv_flow_action *VerbsFlowActionHandle(VerbsObj *objPtr);
MODULE_SCOPE int	VerbsMrRange(Tcl_Interp *interp, VerbsMr *m,
			    Tcl_Obj *offsetObj, Tcl_Obj *lengthObj,
			    size_t *offsetPtr, size_t *lengthPtr);
MODULE_SCOPE const VerbsEnum verbsAccessFlags[];

/*
 * rdma_cm (verbsCm.c).
 */

MODULE_SCOPE void	VerbsCmPump(Tcl_Interp *interp, VerbsCq *cq);
MODULE_SCOPE void	VerbsCmDetachQp(VerbsCmId *cm, struct ibv_qp *qp);
MODULE_SCOPE void	VerbsCmForgetContext(VerbsObj *contextObj);
MODULE_SCOPE int	VerbsCmContext(Tcl_Interp *interp, VerbsObj *objPtr,
			    Tcl_Obj **valuePtr);

/*
 * Event loop plumbing (verbsEvent.c), continued.
 */

MODULE_SCOPE void	VerbsNotifyLater(VerbsObj *objPtr);
MODULE_SCOPE const VerbsEnum verbsEventType[];

/*
 * Device memory (verbsDm.c).
 */

MODULE_SCOPE int	VerbsDmRead(Tcl_Interp *interp, VerbsDm *d,
			    uint64_t off, size_t len);
MODULE_SCOPE int	VerbsDmWrite(Tcl_Interp *interp, VerbsDm *d,
			    uint64_t off, const unsigned char *bytes,
			    size_t len);

/*
 * Buffers (verbsBuf.c): a dma-buf fd an export returned, as a channel.
 */

MODULE_SCOPE int	VerbsDmabufChannel(Tcl_Interp *interp,
			    const char *call, VerbsObj *objPtr, int fd);

/*
 * Devices and contexts (verbsDevice.c).
 */

typedef int (VerbsOpenProc)(Tcl_Interp *interp, struct ibv_device *dev,
	void *clientData, struct ibv_context **ctxPtr);
MODULE_SCOPE Tcl_Namespace *VerbsObjNamespace(Tcl_Interp *interp);
MODULE_SCOPE int	VerbsOpenDevice(Tcl_Interp *interp, const char *name,
			    VerbsOpenProc *openProc, void *clientData,
			    struct ibv_context **ctxPtr);
MODULE_SCOPE VerbsContext *VerbsContextNew(struct ibv_context *ctx,
			    int borrowed);
MODULE_SCOPE const VerbsEnum verbsDeviceCapFlags[],
	verbsDeviceCapFlagsEx[], verbsAtomicCap[], verbsPortState[],
	verbsPortCapFlags[], verbsPortCapFlags2[], verbsNodeType[],
	verbsTransportType[], verbsGidType[], verbsLinkLayer[];
MODULE_SCOPE const VerbsStruct verbsDeviceAttrStruct,
	verbsDeviceAttrExStruct, verbsPortAttrStruct, verbsGidEntryStruct;

/*
 * Address handles (verbsAh.c).
 */

MODULE_SCOPE int	VerbsParseAhAttr(Tcl_Interp *interp, Tcl_Obj *dictObj,
			    struct ibv_ah_attr *attr);
MODULE_SCOPE VerbsSetProc	VerbsSetAhAttr;
MODULE_SCOPE const VerbsStruct verbsAhAttrStruct;

/*
 * Shared receive queues, XRC domains and tag matching (verbsSrq.c).
 */

MODULE_SCOPE const VerbsEnum verbsSrqTypes[], verbsXrcdOflags[],
	verbsOpsOpcode[], verbsOpsFlags[];
MODULE_SCOPE const VerbsStruct verbsSrqAttrStruct, verbsTmCapStruct;

/*
 * Work queues and RSS (verbsWq.c).
 */

MODULE_SCOPE const VerbsEnum verbsWqState[], verbsWqType[], verbsWqFlags[],
	verbsRxHashFunction[], verbsRxHashFields[];
MODULE_SCOPE const VerbsStruct verbsWqAttrStruct;

/*
 * Completion counters (verbsCompCntr.c): attached to queue pairs, queried
 * on a context.
 */

MODULE_SCOPE VerbsMethodProc VerbsQpAttachCompCntr;
MODULE_SCOPE VerbsGetProc VerbsQpCompCntrs;
MODULE_SCOPE void	VerbsQpCompCntrsRelease(VerbsQp *q);
MODULE_SCOPE int	VerbsCompCntrCaps(Tcl_Interp *interp,
			    VerbsObj *objPtr);
MODULE_SCOPE const VerbsEnum verbsCompCntrOps[];

#endif /* VERBS_H_INCLUDED */
