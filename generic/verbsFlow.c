/*
 * verbsFlow.c --
 *
 *	Flow steering: [verbs::flow create QP ATTRIBUTES] (ibv_create_flow),
 *	whose attribute dict holds a list of specs laid out one after the
 *	other behind struct ibv_flow_attr, [verbs::flow pack] which returns
 *	those bytes, counters (ibv_create_counters, attached to flows and
 *	read back) and ESP flow actions (ibv_create_flow_action_esp).
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <string.h>

typedef struct VerbsCounters {
    VerbsObj obj;
    struct ibv_counters *counters;
    uint32_t ncounters;		/* One more than the highest index attached
				 * so far: what read returns by default. */
} VerbsCounters;

typedef struct VerbsFlowAction {
    VerbsObj obj;
    struct ibv_flow_action *action;
} VerbsFlowAction;

typedef struct VerbsFlow {
    VerbsObj obj;
    struct ibv_flow *flow;
    VerbsObj **refs;		/* The counters and flow actions it uses,
				 * referenced; ckalloc'ed, or NULL. */
    int nrefs;
    Tcl_Obj *attr;		/* The attribute dict it was made from. */
} VerbsFlow;

/*
 * ------------------------------------------------------------------------
 * The flow attribute dict and its specs.
 * ------------------------------------------------------------------------
 */

static const VerbsEnum flowAttrType[] = {
    {"normal", IBV_FLOW_ATTR_NORMAL},
    {"all_default", IBV_FLOW_ATTR_ALL_DEFAULT},
    {"mc_default", IBV_FLOW_ATTR_MC_DEFAULT},
    {"sniffer", IBV_FLOW_ATTR_SNIFFER},
    {NULL, 0}
};
static const VerbsEnum flowAttrFlags[] = {
    {"dont_trap", IBV_FLOW_ATTR_FLAGS_DONT_TRAP},
    {"egress", IBV_FLOW_ATTR_FLAGS_EGRESS},
    {NULL, 0}
};

/*
 * The keys of the attribute dict: the members of struct ibv_flow_attr a
 * caller sets (size and num_of_specs follow from the specs).
 */

typedef struct FlowAttrArgs {
    uint32_t type;
    uint16_t priority;
    uint8_t port;
    uint32_t flags;
    Tcl_Obj *specs;
} FlowAttrArgs;

static const VerbsField flowAttrFields[] = {
    VERBS_FIELD(FlowAttrArgs, type, VF_ENUM, flowAttrType, 0, 0),
    VERBS_FIELD(FlowAttrArgs, priority, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(FlowAttrArgs, port, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(FlowAttrArgs, flags, VF_FLAGS, flowAttrFlags, 0, 0),
    VERBS_FIELD(FlowAttrArgs, specs, VF_TCLOBJ, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct flowAttrStruct = {"flow attribute", flowAttrFields};

/*
 * One table per filter struct, used for both its val and its mask.  Each
 * row's mask member is a bit of its own, so that VerbsDictToStruct reports
 * which fields a dict gave: a field in val without one in mask gets the
 * full mask.  Addresses, ports and the other header fields are in network
 * order in the structs and in host order in the dicts.
 */

#define FILTER(st, f, kind, bit) VERBS_FIELD(st, f, kind, NULL, 1u << (bit), 0)

static const VerbsField ethFields[] = {
    FILTER(struct ibv_flow_eth_filter, dst_mac, VF_MAC, 0),
    FILTER(struct ibv_flow_eth_filter, src_mac, VF_MAC, 1),
    FILTER(struct ibv_flow_eth_filter, ether_type, VF_BE16, 2),
    FILTER(struct ibv_flow_eth_filter, vlan_tag, VF_BE16, 3),
    VERBS_FIELD_END
};
static const VerbsField ipv4Fields[] = {
    FILTER(struct ibv_flow_ipv4_filter, src_ip, VF_IPV4, 0),
    FILTER(struct ibv_flow_ipv4_filter, dst_ip, VF_IPV4, 1),
    VERBS_FIELD_END
};
static const VerbsField ipv4ExtFields[] = {
    FILTER(struct ibv_flow_ipv4_ext_filter, src_ip, VF_IPV4, 0),
    FILTER(struct ibv_flow_ipv4_ext_filter, dst_ip, VF_IPV4, 1),
    FILTER(struct ibv_flow_ipv4_ext_filter, proto, VF_UINT, 2),
    FILTER(struct ibv_flow_ipv4_ext_filter, tos, VF_UINT, 3),
    FILTER(struct ibv_flow_ipv4_ext_filter, ttl, VF_UINT, 4),
    FILTER(struct ibv_flow_ipv4_ext_filter, flags, VF_UINT, 5),
    VERBS_FIELD_END
};
static const VerbsField ipv6Fields[] = {
    FILTER(struct ibv_flow_ipv6_filter, src_ip, VF_IPV6, 0),
    FILTER(struct ibv_flow_ipv6_filter, dst_ip, VF_IPV6, 1),
    VERBS_FIELD_MAX(struct ibv_flow_ipv6_filter, flow_label, VF_BE32, 1u << 2,
	    0xfffff),
    FILTER(struct ibv_flow_ipv6_filter, next_hdr, VF_UINT, 3),
    FILTER(struct ibv_flow_ipv6_filter, traffic_class, VF_UINT, 4),
    FILTER(struct ibv_flow_ipv6_filter, hop_limit, VF_UINT, 5),
    VERBS_FIELD_END
};
static const VerbsField espFields[] = {
    FILTER(struct ibv_flow_esp_filter, spi, VF_BE32, 0),
    FILTER(struct ibv_flow_esp_filter, seq, VF_BE32, 1),
    VERBS_FIELD_END
};
static const VerbsField tcpUdpFields[] = {
    FILTER(struct ibv_flow_tcp_udp_filter, dst_port, VF_BE16, 0),
    FILTER(struct ibv_flow_tcp_udp_filter, src_port, VF_BE16, 1),
    VERBS_FIELD_END
};
static const VerbsField greFields[] = {
    FILTER(struct ibv_flow_gre_filter, c_ks_res0_ver, VF_BE16, 0),
    FILTER(struct ibv_flow_gre_filter, protocol, VF_BE16, 1),
    FILTER(struct ibv_flow_gre_filter, key, VF_BE32, 2),
    VERBS_FIELD_END
};
static const VerbsField mplsFields[] = {
    FILTER(struct ibv_flow_mpls_filter, label, VF_BE32, 0),
    VERBS_FIELD_END
};
static const VerbsField tunnelFields[] = {
    VERBS_FIELD_MAX(struct ibv_flow_tunnel_filter, tunnel_id, VF_BE32, 1u,
	    0xffffff),
    VERBS_FIELD_END
};

static const VerbsStruct ethFilter = {"eth filter field", ethFields};
static const VerbsStruct ipv4Filter = {"ipv4 filter field", ipv4Fields};
static const VerbsStruct ipv4ExtFilter = {
    "ipv4_ext filter field", ipv4ExtFields
};
static const VerbsStruct ipv6Filter = {"ipv6 filter field", ipv6Fields};
static const VerbsStruct espFilter = {"esp filter field", espFields};
static const VerbsStruct tcpUdpFilter = {"tcp/udp filter field", tcpUdpFields};
static const VerbsStruct greFilter = {"gre filter field", greFields};
static const VerbsStruct mplsFilter = {"mpls filter field", mplsFields};
static const VerbsStruct tunnelFilter = {"vxlan filter field", tunnelFields};

/*
 * The keys of a spec dict, read into a SpecArgs: a filter spec has val,
 * mask and inner; an action spec the member of its struct.
 */

typedef struct SpecArgs {
    Tcl_Obj *type;		/* Read before, from the dict itself. */
    int inner;
    Tcl_Obj *val, *mask;
    uint32_t tag_id;
    VerbsObj *action;
    VerbsObj *counters;
} SpecArgs;

#define SPEC_KEY(f, kind, table) VERBS_FIELD(SpecArgs, f, kind, table, 0, 0)

static const VerbsField filterKeyFields[] = {
    SPEC_KEY(type, VF_TCLOBJ, NULL),
    SPEC_KEY(inner, VF_BOOL, NULL),
    SPEC_KEY(val, VF_TCLOBJ, NULL),
    SPEC_KEY(mask, VF_TCLOBJ, NULL),
    VERBS_FIELD_END
};
static const VerbsField tagKeyFields[] = {
    SPEC_KEY(type, VF_TCLOBJ, NULL),
    SPEC_KEY(tag_id, VF_UINT, NULL),
    VERBS_FIELD_END
};
static const VerbsField dropKeyFields[] = {
    SPEC_KEY(type, VF_TCLOBJ, NULL),
    VERBS_FIELD_END
};
static const VerbsField handleKeyFields[] = {
    SPEC_KEY(type, VF_TCLOBJ, NULL),
    SPEC_KEY(action, VF_OBJ, &verbsFlowActionClass),
    VERBS_FIELD_END
};
static const VerbsField countKeyFields[] = {
    SPEC_KEY(type, VF_TCLOBJ, NULL),
    SPEC_KEY(counters, VF_OBJ, &verbsCountersClass),
    VERBS_FIELD_END
};
static const VerbsStruct filterKeys = {"filter spec key", filterKeyFields};
static const VerbsStruct tagKeys = {"action_tag spec key", tagKeyFields};
static const VerbsStruct dropKeys = {"action_drop spec key", dropKeyFields};
static const VerbsStruct handleKeys = {
    "action_handle spec key", handleKeyFields
};
static const VerbsStruct countKeys = {"action_count spec key", countKeyFields};

/*
 * The spec types.  A filter spec's struct is {type, size, val, mask}; its
 * size member is the size of the whole struct, which is also where the
 * next spec starts.  Later rows with the same type are other names for it.
 */

typedef struct FlowSpecType {
    const char *name;		/* First member: Tcl_GetIndexFromObjStruct. */
    uint32_t type;		/* IBV_FLOW_SPEC_*. */
    uint16_t size;		/* sizeof(struct ibv_flow_spec_*). */
    const VerbsStruct *keys;	/* The keys of its dict. */
    const VerbsStruct *filter;	/* Filter specs: the val/mask struct. */
    uint16_t val, mask;		/* Their offsets in the spec. */
    int inner;			/* May the spec match an inner header? */
} FlowSpecType;

#define FILTER_SPEC(name, type, st, filter, inner) \
    {name, type, sizeof(st), &filterKeys, filter, offsetof(st, val), \
     offsetof(st, mask), inner}
#define ACTION_SPEC(name, type, st, keys) \
    {name, type, sizeof(st), keys, NULL, 0, 0, 0}

static const FlowSpecType specTypes[] = {
    FILTER_SPEC("eth", IBV_FLOW_SPEC_ETH, struct ibv_flow_spec_eth,
	    &ethFilter, 1),
    FILTER_SPEC("ipv4", IBV_FLOW_SPEC_IPV4, struct ibv_flow_spec_ipv4,
	    &ipv4Filter, 1),
    FILTER_SPEC("ipv4_ext", IBV_FLOW_SPEC_IPV4_EXT,
	    struct ibv_flow_spec_ipv4_ext, &ipv4ExtFilter, 1),
    FILTER_SPEC("ipv6", IBV_FLOW_SPEC_IPV6, struct ibv_flow_spec_ipv6,
	    &ipv6Filter, 1),
    FILTER_SPEC("esp", IBV_FLOW_SPEC_ESP, struct ibv_flow_spec_esp,
	    &espFilter, 1),
    FILTER_SPEC("tcp", IBV_FLOW_SPEC_TCP, struct ibv_flow_spec_tcp_udp,
	    &tcpUdpFilter, 1),
    FILTER_SPEC("udp", IBV_FLOW_SPEC_UDP, struct ibv_flow_spec_tcp_udp,
	    &tcpUdpFilter, 1),
    FILTER_SPEC("vxlan_tunnel", IBV_FLOW_SPEC_VXLAN_TUNNEL,
	    struct ibv_flow_spec_tunnel, &tunnelFilter, 0),
    FILTER_SPEC("gre", IBV_FLOW_SPEC_GRE, struct ibv_flow_spec_gre,
	    &greFilter, 0),
    FILTER_SPEC("mpls", IBV_FLOW_SPEC_MPLS, struct ibv_flow_spec_mpls,
	    &mplsFilter, 1),
    ACTION_SPEC("action_tag", IBV_FLOW_SPEC_ACTION_TAG,
	    struct ibv_flow_spec_action_tag, &tagKeys),
    ACTION_SPEC("action_drop", IBV_FLOW_SPEC_ACTION_DROP,
	    struct ibv_flow_spec_action_drop, &dropKeys),
    ACTION_SPEC("action_handle", IBV_FLOW_SPEC_ACTION_HANDLE,
	    struct ibv_flow_spec_action_handle, &handleKeys),
    ACTION_SPEC("action_count", IBV_FLOW_SPEC_ACTION_COUNT,
	    struct ibv_flow_spec_counter_action, &countKeys),
    FILTER_SPEC("vxlan", IBV_FLOW_SPEC_VXLAN_TUNNEL,
	    struct ibv_flow_spec_tunnel, &tunnelFilter, 0),
    ACTION_SPEC("tag", IBV_FLOW_SPEC_ACTION_TAG,
	    struct ibv_flow_spec_action_tag, &tagKeys),
    ACTION_SPEC("drop", IBV_FLOW_SPEC_ACTION_DROP,
	    struct ibv_flow_spec_action_drop, &dropKeys),
    ACTION_SPEC("handle", IBV_FLOW_SPEC_ACTION_HANDLE,
	    struct ibv_flow_spec_action_handle, &handleKeys),
    ACTION_SPEC("count", IBV_FLOW_SPEC_ACTION_COUNT,
	    struct ibv_flow_spec_counter_action, &countKeys),
    {NULL, 0, 0, NULL, NULL, 0, 0, 0}
};

/*
 * What parsing an attribute dict (or an ESP action's encapsulation list)
 * produces.
 */

typedef struct FlowBuild {
    unsigned char *buf;		/* struct ibv_flow_attr and the specs behind
				 * it; ckalloc'ed. */
    size_t len;
    VerbsObj **refs;		/* Objects the specs name (ckalloc'ed). */
    int nrefs;
} FlowBuild;

static VerbsMethodProc CountersAttach, CountersRead, FlowActionModify;

/*
 * ------------------------------------------------------------------------
 * The types.
 * ------------------------------------------------------------------------
 */

static const VerbsMethod flowMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};

static VerbsGetProc FlowRefs;

static const VerbsField flowCget[] = {
    VERBS_CGET_PTR("-handle", VerbsFlow, flow, struct ibv_flow, handle,
	    VF_UINT, NULL),
    VERBS_CGET("-attributes", VerbsFlow, attr, VF_TCLOBJ, NULL),
    VERBS_CGET_PROC("-uses", FlowRefs),
    VERBS_CGET_PARENT("-qp"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc FlowCreateCmd, FlowPackCmd, CountersCreateCmd,
	FlowActionEspCmd;

static const VerbsCommand flowCommands[] = {
    {"create", FlowCreateCmd}, {"pack", FlowPackCmd}, {NULL, NULL}
};

static void
FlowFree(
    VerbsObj *objPtr)
{
    VerbsFlow *f = (VerbsFlow *) objPtr;
    int i;

    ibv_destroy_flow(f->flow);
    for (i = 0; i < f->nrefs; i++) {
	VerbsObjRelease(f->refs[i]);
    }
    if (f->refs) {
	ckfree(f->refs);
    }
    if (f->attr) {
	Tcl_DecrRefCount(f->attr);
    }
}

const VerbsType verbsFlowClass = {
    .name = "flow",
    .size = sizeof(VerbsFlow),
    .methods = flowMethods,
    .cget = flowCget,
    .freeProc = FlowFree,
    .commands = flowCommands,
};

static const VerbsMethod countersMethods[] = {
    {"attach", CountersAttach, 1, 3, "attributes ?-flow flow?"},
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"read", CountersRead, 0, 4, "?-flags flags? ?-ncounters n?"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField countersCget[] = {
    VERBS_CGET("-ncounters", VerbsCounters, ncounters, VF_UINT, NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static const VerbsCommand countersCommands[] = {
    {"create", CountersCreateCmd}, {NULL, NULL}
};

static void
CountersFree(
    VerbsObj *objPtr)
{
    ibv_destroy_counters(((VerbsCounters *) objPtr)->counters);
}

const VerbsType verbsCountersClass = {
    .name = "counters",
    .size = sizeof(VerbsCounters),
    .methods = countersMethods,
    .cget = countersCget,
    .freeProc = CountersFree,
    .commands = countersCommands,
};

static const VerbsMethod flowActionMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {"modify", FlowActionModify, 1, 1, "attributes"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField flowActionCget[] = {
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static const VerbsCommand flowActionCommands[] = {
    {"esp", FlowActionEspCmd}, {NULL, NULL}
};

static void
FlowActionFree(
    VerbsObj *objPtr)
{
    ibv_destroy_flow_action(((VerbsFlowAction *) objPtr)->action);
}

const VerbsType verbsFlowActionClass = {
    .name = "flowaction",
    .size = sizeof(VerbsFlowAction),
    .methods = flowActionMethods,
    .cget = flowActionCget,
    .freeProc = FlowActionFree,
    .commands = flowActionCommands,
};


/*
 *----------------------------------------------------------------------
 *
 * VerbsFlowActionAdopt, VerbsFlowActionHandle --
 *
 *	A flow action a provider made (mlx5dv_create_flow_action_*) as a
 *	flowaction object of its context; the libibverbs action of a
 *	flowaction object.
 *
 * Results:
 *	A standard Tcl result; on an error the action is destroyed.
 *
 * Side effects:
 *	Creates the object command.
 *
 *----------------------------------------------------------------------
 */

struct ibv_flow_action *
VerbsFlowActionHandle(
    VerbsObj *objPtr)		/* A flowaction object. */
{
    return ((VerbsFlowAction *) objPtr)->action;
}

int
VerbsFlowActionAdopt(
    Tcl_Interp *interp,
    VerbsObj *contextObj,
    struct ibv_flow_action *action,
    Tcl_Obj *nameObj)
{
    return VerbsObjWrap(interp, &verbsFlowActionClass,
	    offsetof(VerbsFlowAction, action), action, contextObj, nameObj)
	    ? TCL_OK : TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * ParseSpec --
 *
 *	Fill one spec struct from its dict {type T ?inner B? val {...}
 *	mask {...}} (filters) or {type T KEY VALUE} (actions).  Filter
 *	fields left out are zero in val and mask; a field given in val and
 *	not in mask gets the full mask, all of its bits.  An action names a
 *	counters or flow action object, which is added to refs.
 *
 * Results:
 *	A standard Tcl result; the spec's type row in *typePtr.
 *
 * Side effects:
 *	Writes the spec (which the caller zeroed); may grow refs.
 *
 *----------------------------------------------------------------------
 */

static int
ParseSpec(
    Tcl_Interp *interp,
    Tcl_Obj *specObj,
    int encap,			/* An ESP encapsulation header: a filter
				 * with a val and nothing else. */
    struct ibv_flow_spec *spec,
    const FlowSpecType **typePtr,
    FlowBuild *b)
{
    const FlowSpecType *t;
    Tcl_Obj *typeObj;
    SpecArgs args;
    uint64_t valGiven = 0, maskGiven = 0;
    VerbsObj *ref;
    int index;

    if (Tcl_DictObjGet(NULL, specObj, VerbsKeyObj("type"), &typeObj)
	    != TCL_OK || typeObj == NULL) {
	return VerbsArgError(interp, "spec", specObj,
		"bad spec \"%s\": must be a dict with a type",
		Tcl_GetString(specObj));
    }
    if (Tcl_GetIndexFromObjStruct(interp, typeObj, specTypes,
	    sizeof(FlowSpecType), "spec type", TCL_EXACT, &index) != TCL_OK) {
	Tcl_SetErrorCode(interp, "VERBS", "ARG", "type",
		Tcl_GetString(typeObj), NULL);
	return TCL_ERROR;
    }
    t = &specTypes[index];
    memset(&args, 0, sizeof(args));
    if (VerbsDictToStruct(interp, t->keys, "spec", specObj, &args, NULL)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (encap && t->filter == NULL) {
	return VerbsArgError(interp, "type", typeObj,
		"esp_encap takes headers, not the %s action", t->name);
    }
    if (encap && (args.mask || args.inner)) {
	return VerbsArgError(interp, "spec", specObj,
		"an esp_encap header has a type and a val only");
    }
    if (args.inner && !t->inner) {
	return VerbsArgError(interp, "type", typeObj,
		"spec type %s has no inner variant", t->name);
    }
    spec->hdr.type = (enum ibv_flow_spec_type)
	    (t->type | (args.inner ? IBV_FLOW_SPEC_INNER : 0));
    spec->hdr.size = t->size;
    *typePtr = t;

    if (t->filter) {
	char *val = (char *) spec + t->val, *mask = (char *) spec + t->mask;
	const VerbsField *f;

	if ((args.val && VerbsDictToStruct(interp, t->filter, "val",
		args.val, val, &valGiven) != TCL_OK)
		|| (args.mask && VerbsDictToStruct(interp, t->filter, "mask",
		args.mask, mask, &maskGiven) != TCL_OK)) {
	    return TCL_ERROR;
	}
	for (f = t->filter->fields; f->name; f++) {
	    if ((valGiven & ~maskGiven) & f->mask) {
		VerbsFieldFill(f, mask);
	    }
	}
	return TCL_OK;
    }

    switch (t->type) {
    case IBV_FLOW_SPEC_ACTION_TAG:
	spec->flow_tag.tag_id = args.tag_id;
	return TCL_OK;
    case IBV_FLOW_SPEC_ACTION_HANDLE:
	ref = args.action;
	if (ref) {
	    spec->handle.action = ((VerbsFlowAction *) ref)->action;
	}
	break;
    case IBV_FLOW_SPEC_ACTION_COUNT:
	ref = args.counters;
	if (ref) {
	    spec->flow_count.counters = ((VerbsCounters *) ref)->counters;
	}
	break;
    default:
	return TCL_OK;
    }
    if (ref == NULL) {
	return VerbsArgError(interp, "spec", specObj,
		"spec type %s needs its %s", t->name, t->keys->fields[1].name);
    }
    b->refs = (VerbsObj **) ckrealloc(b->refs,
	    (b->nrefs + 1) * sizeof(VerbsObj *));
    b->refs[b->nrefs++] = ref;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * BuildFlowAttr --
 *
 *	Lay out struct ibv_flow_attr and its specs as ibv_create_flow reads
 *	them: the specs one after the other from sizeof(struct
 *	ibv_flow_attr) on, each its own struct's size long (the size in its
 *	header), num_of_specs their number and size the length of it all.
 *
 * Results:
 *	A standard Tcl result.  On success the caller owns b->buf and
 *	b->refs (FreeBuild).
 *
 * Side effects:
 *	Allocates memory.
 *
 *----------------------------------------------------------------------
 */

static void
FreeBuild(
    FlowBuild *b)
{
    if (b->buf) {
	ckfree(b->buf);
    }
    if (b->refs) {
	ckfree(b->refs);
    }
    b->buf = NULL;
    b->refs = NULL;
}

static int
BuildFlowAttr(
    Tcl_Interp *interp,
    Tcl_Obj *attrObj,
    uint8_t port,		/* The default port. */
    FlowBuild *b)
{
    FlowAttrArgs args;
    struct ibv_flow_attr attr;
    Tcl_Obj **specs;
    Tcl_Size nspecs, i;
    size_t off;

    memset(b, 0, sizeof(*b));
    memset(&args, 0, sizeof(args));
    args.type = IBV_FLOW_ATTR_NORMAL;
    args.port = port;
    if (VerbsDictToStruct(interp, &flowAttrStruct, "attributes", attrObj,
	    &args, NULL) != TCL_OK) {
	return TCL_ERROR;
    }
    if (args.specs == NULL) {
	nspecs = 0;
    } else if (Tcl_ListObjGetElements(NULL, args.specs, &nspecs, &specs)
	    != TCL_OK) {
	return VerbsArgError(interp, "specs", args.specs,
		"bad specs \"%s\": must be a list of spec dicts",
		Tcl_GetString(args.specs));
    }
    if (nspecs > UINT8_MAX) {
	return VerbsArgError(interp, "specs", NULL,
		"%" TCL_SIZE_MODIFIER "d specs: at most %d fit in a flow",
		nspecs, UINT8_MAX);
    }

    /*
     * Each spec is built in an aligned union and copied to its place:
     * specs of different sizes need not leave the next one aligned.
     */

    b->buf = (unsigned char *) ckalloc(sizeof(struct ibv_flow_attr)
	    + (nspecs ? nspecs : 1) * sizeof(struct ibv_flow_spec));
    off = sizeof(struct ibv_flow_attr);
    for (i = 0; i < nspecs; i++) {
	struct ibv_flow_spec spec;
	const FlowSpecType *t;

	memset(&spec, 0, sizeof(spec));
	if (ParseSpec(interp, specs[i], 0, &spec, &t, b) != TCL_OK) {
	    FreeBuild(b);
	    return TCL_ERROR;
	}
	memcpy(b->buf + off, &spec, t->size);
	off += t->size;
    }
    memset(&attr, 0, sizeof(attr));
    attr.type = (enum ibv_flow_attr_type) args.type;
    attr.size = (uint16_t) off;
    attr.priority = args.priority;
    attr.num_of_specs = (uint8_t) nspecs;
    attr.port = args.port;
    attr.flags = args.flags;
    memcpy(b->buf, &attr, sizeof(attr));
    b->len = off;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * FlowPackCmd --
 *
 *	verbs::flow pack ATTRIBUTES: the bytes ibv_create_flow would get
 *	for these attributes (port 1 unless given), for tests and for a
 *	look at the layout.
 *
 * Results:
 *	A byte array.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
FlowPackCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    FlowBuild b;

    if (objc != 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "attributes");
	return TCL_ERROR;
    }
    if (BuildFlowAttr(interp, objv[1], 1, &b) != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, Tcl_NewByteArrayObj(b.buf, (Tcl_Size) b.len));
    FreeBuild(&b);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * FlowCreateCmd --
 *
 *	verbs::flow create QP ATTRIBUTES ?-as NAME?
 *
 * Results:
 *	The flow object's name.
 *
 * Side effects:
 *	ibv_create_flow; the flow holds references on the counters and
 *	flow actions its specs name.
 *
 *----------------------------------------------------------------------
 */

static int
FlowCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_FIELD_END
    };
    VerbsCreateHead args = {NULL, NULL};
    VerbsQp *q;
    VerbsObj *context;
    VerbsFlow *f;
    FlowBuild b;
    struct ibv_flow *flow;
    int i;

    if (VerbsCreateArgs(interp, objc, objv, "qp attributes", options, &args,
	    &verbsQpClass) != TCL_OK) {
	return TCL_ERROR;
    }
    q = (VerbsQp *) args.parent;
    context = q->obj.parent->parent;
    if (BuildFlowAttr(interp, objv[2], q->portNum, &b) != TCL_OK) {
	return TCL_ERROR;
    }
    for (i = 0; i < b.nrefs; i++) {
	if (VerbsCheckOwner(interp, b.refs[i]->typePtr == &verbsCountersClass
		? "counters" : "action", b.refs[i], context, "device context")
		!= TCL_OK) {
	    FreeBuild(&b);
	    return TCL_ERROR;
	}
    }
    flow = ibv_create_flow(q->qp, (struct ibv_flow_attr *) b.buf);
    if (flow == NULL) {
	FreeBuild(&b);
	return VerbsSysError(interp, "ibv_create_flow", &q->obj, NULL, errno);
    }
    f = (VerbsFlow *) VerbsObjWrap(interp, &verbsFlowClass,
	    offsetof(VerbsFlow, flow), flow, &q->obj, args.command);
    if (f == NULL) {
	FreeBuild(&b);
	return TCL_ERROR;
    }
    f->attr = objv[2];
    Tcl_IncrRefCount(f->attr);
    f->refs = b.refs;
    f->nrefs = b.nrefs;
    b.refs = NULL;
    for (i = 0; i < f->nrefs; i++) {
	VerbsObjRetain(f->refs[i]);
    }
    FreeBuild(&b);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * FlowRefs --
 *
 *	The -uses cget option: the live counters and flow actions the flow
 *	uses (named by its specs or attached to it).
 *
 * Results:
 *	TCL_OK, a list in *valuePtr.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
FlowRefs(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    VerbsFlow *f = (VerbsFlow *) objPtr;
    Tcl_Obj *list = Tcl_NewObj();
    int i;

    for (i = 0; i < f->nrefs; i++) {
	if (f->refs[i]->token) {
	    Tcl_ListObjAppendElement(NULL, list, VerbsObjName(f->refs[i]));
	}
    }
    *valuePtr = list;
    return TCL_OK;
}

/*
 * ------------------------------------------------------------------------
 * Counters.
 * ------------------------------------------------------------------------
 */

/*
 *----------------------------------------------------------------------
 *
 * CountersCreateCmd --
 *
 *	verbs::counters create CONTEXT ?-as NAME?
 *
 * Results:
 *	The counters object's name.
 *
 * Side effects:
 *	ibv_create_counters.
 *
 *----------------------------------------------------------------------
 */

static int
CountersCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_FIELD_END
    };
    VerbsCreateHead args = {NULL, NULL};
    struct ibv_counters_init_attr init;
    struct ibv_counters *counters;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    memset(&init, 0, sizeof(init));
    counters = ibv_create_counters(((VerbsContext *) args.parent)->ctx,
	    &init);
    if (counters == NULL) {
	return VerbsSysError(interp, "ibv_create_counters", args.parent, NULL,
		errno);
    }
    return VerbsObjWrap(interp, &verbsCountersClass,
	    offsetof(VerbsCounters, counters), counters, args.parent,
	    args.command) ? TCL_OK : TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * CountersAttach --
 *
 *	$counters attach {counter_desc packets|bytes index N} ?-flow FLOW?
 *	(ibv_attach_counters_point_flow).  Without -flow the point is
 *	attached statically: the counters count once a flow made with an
 *	action_count spec naming them exists.  With -flow, on that flow,
 *	which then keeps the counters alive.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Attaches the counter; remembers the highest index.
 *
 *----------------------------------------------------------------------
 */

static const VerbsEnum counterDesc[] = {
    {"packets", IBV_COUNTER_PACKETS},
    {"bytes", IBV_COUNTER_BYTES},
    {NULL, 0}
};

static int
CountersAttach(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField attachFields[] = {
	VERBS_FIELD(struct ibv_counter_attach_attr, counter_desc, VF_ENUM,
		counterDesc, 0, 0),
	VERBS_FIELD(struct ibv_counter_attach_attr, index, VF_UINT, NULL, 0,
		0),
	VERBS_FIELD_END
    };
    static const VerbsStruct attachStruct = {
	"counter attach attribute", attachFields
    };
    typedef struct {
	VerbsObj *flow;
    } AttachArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(AttachArgs, flow, VF_OBJ, &verbsFlowClass, "flow"),
	VERBS_FIELD_END
    };
    VerbsCounters *c = (VerbsCounters *) objPtr;
    struct ibv_counter_attach_attr attr;
    AttachArgs args = {NULL};
    VerbsFlow *f;
    int err;

    memset(&attr, 0, sizeof(attr));
    if (VerbsDictToStruct(interp, &attachStruct, "attributes", objv[2],
	    &attr, NULL) != TCL_OK
	    || VerbsParseOptions(interp, objc, objv, 3, options, &args)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    f = (VerbsFlow *) args.flow;
    if (f && f->obj.parent->parent->parent != objPtr->parent) {
	/* The flow's QP's PD's context. */
	return VerbsArgError(interp, "-flow", objv[4],
		"-flow \"%s\" is on another device context",
		Tcl_GetString(objv[4]));
    }
    err = ibv_attach_counters_point_flow(c->counters, &attr,
	    f ? f->flow : NULL);
    if (err) {
	return VerbsSysError(interp, "ibv_attach_counters_point_flow", objPtr,
		NULL, err);
    }
    if (attr.index >= c->ncounters) {
	c->ncounters = attr.index + 1;
    }
    if (f) {
	f->refs = (VerbsObj **) ckrealloc(f->refs,
		(f->nrefs + 1) * sizeof(VerbsObj *));
	f->refs[f->nrefs++] = objPtr;
	VerbsObjRetain(objPtr);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * CountersRead --
 *
 *	$counters read ?-flags {prefer_cached}? ?-ncounters N?
 *	(ibv_read_counters): the values at indexes 0 to N-1, N by default
 *	one more than the highest index attached.
 *
 * Results:
 *	A list of integers.
 *
 * Side effects:
 *	May read the device.
 *
 *----------------------------------------------------------------------
 */

static int
CountersRead(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsEnum readFlags[] = {
	{"prefer_cached", IBV_READ_COUNTERS_ATTR_PREFER_CACHED},
	{NULL, 0}
    };
    typedef struct {
	uint64_t flags, ncounters;
    } ReadArgs;
    static const VerbsField options[] = {
	VERBS_OPTION(ReadArgs, flags, VF_FLAGS, readFlags, "flags"),
	VERBS_OPTION_MAX(ReadArgs, ncounters, 65536, "n"),
	VERBS_FIELD_END
    };
    VerbsCounters *c = (VerbsCounters *) objPtr;
    ReadArgs args = {0, c->ncounters};
    uint64_t *values;
    Tcl_Obj *list;
    uint32_t i;
    int err;

    if (VerbsParseOptions(interp, objc, objv, 2, options, &args) != TCL_OK) {
	return TCL_ERROR;
    }
    values = (uint64_t *) ckalloc(
	    (args.ncounters ? args.ncounters : 1) * sizeof(uint64_t));
    memset(values, 0, (args.ncounters ? args.ncounters : 1)
	    * sizeof(uint64_t));
    err = ibv_read_counters(c->counters, values, (uint32_t) args.ncounters,
	    (uint32_t) args.flags);
    if (err) {
	ckfree(values);
	return VerbsSysError(interp, "ibv_read_counters", objPtr, NULL, err);
    }
    list = Tcl_NewObj();
    for (i = 0; i < args.ncounters; i++) {
	Tcl_ListObjAppendElement(NULL, list, VerbsU64Obj(values[i]));
    }
    ckfree(values);
    Tcl_SetObjResult(interp, list);
    return TCL_OK;
}

/*
 * ------------------------------------------------------------------------
 * ESP flow actions.
 * ------------------------------------------------------------------------
 */

static const VerbsEnum espFlags[] = {
    {"full_offload", IBV_FLOW_ACTION_ESP_FLAGS_FULL_OFFLOAD},
    {"transport", IBV_FLOW_ACTION_ESP_FLAGS_TRANSPORT},
    {"encrypt", IBV_FLOW_ACTION_ESP_FLAGS_ENCRYPT},
    {"esn_new_window", IBV_FLOW_ACTION_ESP_FLAGS_ESN_NEW_WINDOW},
    {"inline_crypto", IBV_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO},
    {"tunnel", IBV_FLOW_ACTION_ESP_FLAGS_TUNNEL},
    {"decrypt", IBV_FLOW_ACTION_ESP_FLAGS_DECRYPT},
    {NULL, 0}
};
static const VerbsEnum espKeymatProto[] = {
    {"aes_gcm", IBV_FLOW_ACTION_ESP_KEYMAT_AES_GCM},
    {NULL, 0}
};
static const VerbsEnum espIvAlgo[] = {
    {"seq", IBV_FLOW_ACTION_IV_ALGO_SEQ},
    {NULL, 0}
};
static const VerbsEnum espReplayProto[] = {
    {"none", IBV_FLOW_ACTION_ESP_REPLAY_NONE},
    {"bmp", IBV_FLOW_ACTION_ESP_REPLAY_BMP},
    {NULL, 0}
};

#define ESA(f, kind, table) \
    VERBS_FIELD(struct ibv_flow_action_esp, f, kind, table, 0, 0)
static const VerbsField espAttrFields[] = {
    ESA(spi, VF_UINT, NULL),
    ESA(seq, VF_UINT, NULL),
    ESA(tfc_pad, VF_UINT, NULL),
    ESA(flags, VF_FLAGS, espFlags),
    ESA(hard_limit_pkts, VF_UINT, NULL),
    VERBS_FIELD_END
};
static const VerbsStruct espAttrStruct = {"esp_attr field", espAttrFields};

#define KM(f, kind, table, mask) VERBS_FIELD( \
    struct ibv_flow_action_esp_keymat_aes_gcm, f, kind, table, mask, 0)
static const VerbsField keymatFields[] = {
    KM(iv, VF_UINT, NULL, 0),
    KM(iv_algo, VF_ENUM, espIvAlgo, 0),
    KM(salt, VF_UINT, NULL, 0),
    KM(icv_len, VF_UINT, NULL, 0),
    KM(key_len, VF_UINT, NULL, 1),
    KM(aes_key, VF_BYTES, NULL, 0),
    VERBS_FIELD_END
};
static const VerbsStruct keymatStruct = {"aes_gcm keymat field",
    keymatFields};

static const VerbsField replayFields[] = {
    VERBS_FIELD(struct ibv_flow_action_esp_replay_bmp, size, VF_UINT, NULL,
	    0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct replayStruct = {"bmp replay field", replayFields};

/*
 * The ESP attribute dict: struct ibv_flow_action_esp_attr, with its
 * pointer and length pairs as nested dicts and the encapsulation headers
 * as a list of {type T val {...}}.  Each key's mask bit says it was given.
 */

enum {
    ESP_GIVEN_ATTR = 1, ESP_GIVEN_KEYMAT = 2, ESP_GIVEN_REPLAY = 4,
    ESP_GIVEN_ENCAP = 8, ESP_GIVEN_ESN = 16
};

typedef struct EspArgs {
    struct ibv_flow_action_esp esp_attr;
    uint32_t keymat_proto;
    Tcl_Obj *keymat;
    uint32_t replay_proto;
    struct ibv_flow_action_esp_replay_bmp replay;
    Tcl_Obj *esp_encap;
    uint32_t esn;
} EspArgs;

#define EA(f, kind, table, given) \
    VERBS_FIELD(EspArgs, f, kind, table, given, 0)
static const VerbsField espArgsFields[] = {
    EA(esp_attr, VF_STRUCT, &espAttrStruct, ESP_GIVEN_ATTR),
    EA(keymat_proto, VF_ENUM, espKeymatProto, 0),
    EA(keymat, VF_TCLOBJ, NULL, ESP_GIVEN_KEYMAT),
    EA(replay_proto, VF_ENUM, espReplayProto, 0),
    EA(replay, VF_STRUCT, &replayStruct, ESP_GIVEN_REPLAY),
    EA(esp_encap, VF_TCLOBJ, NULL, ESP_GIVEN_ENCAP),
    EA(esn, VF_UINT, NULL, ESP_GIVEN_ESN),
    VERBS_FIELD_END
};
static const VerbsStruct espArgsStruct = {"esp attribute", espArgsFields};

/*
 * An ESP attribute dict turned into the C struct and what it points to.
 */

typedef struct EspBuild {
    EspArgs args;
    struct ibv_flow_action_esp_keymat_aes_gcm keymat;
    struct ibv_flow_action_esp_attr attr;
    struct ibv_flow_action_esp_encap *encap;	/* ckalloc'ed, or NULL. */
    struct ibv_flow_spec *headers;		/* Their filters. */
} EspBuild;

static void
FreeEsp(
    EspBuild *e)
{
    if (e->encap) {
	ckfree(e->encap);
	ckfree(e->headers);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * BuildEsp --
 *
 *	Fill struct ibv_flow_action_esp_attr from a dict.  A keymat without
 *	key_len gets the length of its aes_key; esn given sets the ESN bit
 *	of comp_mask; the members not given stay NULL or zero.
 *
 * Results:
 *	A standard Tcl result; FreeEsp releases what it allocated.
 *
 * Side effects:
 *	Allocates the encapsulation list.
 *
 *----------------------------------------------------------------------
 */

static int
BuildEsp(
    Tcl_Interp *interp,
    Tcl_Obj *dictObj,
    EspBuild *e)
{
    uint64_t given = 0, keymatGiven = 0;
    Tcl_Obj **items;
    Tcl_Size n, i;

    memset(e, 0, sizeof(*e));
    if (VerbsDictToStruct(interp, &espArgsStruct, "attributes", dictObj,
	    &e->args, &given) != TCL_OK) {
	return TCL_ERROR;
    }
    if (given & ESP_GIVEN_ATTR) {
	e->attr.esp_attr = &e->args.esp_attr;
    }
    e->attr.keymat_proto = (enum ibv_flow_action_esp_keymat)
	    e->args.keymat_proto;
    if (given & ESP_GIVEN_KEYMAT) {
	Tcl_Obj *keyObj = NULL;
	Tcl_Size len;

	if (VerbsDictToStruct(interp, &keymatStruct, "keymat",
		e->args.keymat, &e->keymat, &keymatGiven) != TCL_OK) {
	    return TCL_ERROR;
	}
	Tcl_DictObjGet(NULL, e->args.keymat, VerbsKeyObj("aes_key"), &keyObj);
	if (!keymatGiven && keyObj
		&& VerbsGetBytes(NULL, "aes_key", keyObj, &len)) {
	    e->keymat.key_len = (uint32_t) len;
	}
	e->attr.keymat_ptr = &e->keymat;
	e->attr.keymat_len = sizeof(e->keymat);
    }
    e->attr.replay_proto = (enum ibv_flow_action_esp_replay)
	    e->args.replay_proto;
    if (given & ESP_GIVEN_REPLAY) {
	e->attr.replay_ptr = &e->args.replay;
	e->attr.replay_len = sizeof(e->args.replay);
    }
    if (given & ESP_GIVEN_ESN) {
	e->attr.comp_mask |= IBV_FLOW_ACTION_ESP_MASK_ESN;
	e->attr.esn = e->args.esn;
    }
    if (!(given & ESP_GIVEN_ENCAP)) {
	return TCL_OK;
    }
    if (Tcl_ListObjGetElements(NULL, e->args.esp_encap, &n, &items)
	    != TCL_OK) {
	return VerbsArgError(interp, "esp_encap", e->args.esp_encap,
		"bad esp_encap \"%s\": must be a list of header dicts",
		Tcl_GetString(e->args.esp_encap));
    }
    if (n == 0) {
	return TCL_OK;
    }
    e->encap = (struct ibv_flow_action_esp_encap *)
	    ckalloc(n * sizeof(*e->encap));
    e->headers = (struct ibv_flow_spec *) ckalloc(n * sizeof(*e->headers));
    memset(e->encap, 0, n * sizeof(*e->encap));
    memset(e->headers, 0, n * sizeof(*e->headers));
    for (i = 0; i < n; i++) {
	const FlowSpecType *t;

	if (ParseSpec(interp, items[i], 1, &e->headers[i], &t, NULL)
		!= TCL_OK) {
	    return TCL_ERROR;
	}
	e->encap[i].val_ptr = (char *) &e->headers[i] + t->val;
	e->encap[i].len = (uint16_t) (t->mask - t->val);
	e->encap[i].type = (uint16_t) t->type;
	e->encap[i].next_ptr = i + 1 < n ? &e->encap[i + 1] : NULL;
    }
    e->attr.esp_encap = e->encap;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * FlowActionEspCmd --
 *
 *	verbs::flowaction esp CONTEXT ATTRIBUTES ?-as NAME?
 *
 * Results:
 *	The flowaction object's name.
 *
 * Side effects:
 *	ibv_create_flow_action_esp.
 *
 *----------------------------------------------------------------------
 */

static int
FlowActionEspCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_FIELD_END
    };
    VerbsCreateHead args = {NULL, NULL};
    struct ibv_flow_action *action;
    EspBuild e;
    int err;

    if (VerbsCreateArgs(interp, objc, objv, "context attributes", options,
	    &args, &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    if (BuildEsp(interp, objv[2], &e) != TCL_OK) {
	FreeEsp(&e);
	return TCL_ERROR;
    }
    action = ibv_create_flow_action_esp(((VerbsContext *) args.parent)->ctx,
	    &e.attr);
    err = errno;
    FreeEsp(&e);
    if (action == NULL) {
	return VerbsSysError(interp, "ibv_create_flow_action_esp",
		args.parent, NULL, err);
    }
    return VerbsObjWrap(interp, &verbsFlowActionClass,
	    offsetof(VerbsFlowAction, action), action, args.parent,
	    args.command) ? TCL_OK : TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * FlowActionModify --
 *
 *	$action modify ATTRIBUTES (ibv_modify_flow_action_esp): the keys
 *	given replace those of the action.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Changes the action of every flow that uses it.
 *
 *----------------------------------------------------------------------
 */

static int
FlowActionModify(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    EspBuild e;
    int err;

    if (BuildEsp(interp, objv[2], &e) != TCL_OK) {
	FreeEsp(&e);
	return TCL_ERROR;
    }
    err = ibv_modify_flow_action_esp(((VerbsFlowAction *) objPtr)->action,
	    &e.attr);
    FreeEsp(&e);
    if (err) {
	return VerbsSysError(interp, "ibv_modify_flow_action_esp", objPtr,
		NULL, err);
    }
    return TCL_OK;
}
