/*
 * mlx5Dr.c --
 *
 *	Software steering (mlx5dv_dr_*): [mlx5::dr domain create] (a
 *	drdomain, child of its context), [mlx5::dr table create] (a
 *	drtable, child of its domain), [mlx5::dr matcher create] (a
 *	drmatcher, child of its table), [mlx5::dr rule create] (a drrule,
 *	child of its matcher, holding its actions) and [mlx5::dr action
 *	KIND] (a draction, child of its domain, holding what it sends to:
 *	a QP, a table, a DevX TIR or counter, other actions).  Held objects
 *	stay until their last holder goes, so any close order is safe.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct DrDomain {
    VerbsObj obj;
    struct mlx5dv_dr_domain *dom;
    uint64_t type;
} DrDomain;

typedef struct DrTable {
    VerbsObj obj;
    struct mlx5dv_dr_table *tbl;
    uint64_t level;
} DrTable;

typedef struct DrMatcher {
    VerbsObj obj;
    struct mlx5dv_dr_matcher *matcher;
    uint64_t priority;
    uint64_t criteria;
    size_t matchSize;
} DrMatcher;

typedef struct DrRule {
    VerbsObj obj;
    struct mlx5dv_dr_rule *rule;
    Mlx5Refs refs;		/* Its actions. */
} DrRule;

typedef struct DrAction {
    VerbsObj obj;
    struct mlx5dv_dr_action *action;
    const char *kind;		/* "drop", "dest_qp", ... */
    Mlx5Refs refs;		/* What it sends to or is made of. */
} DrAction;

static const VerbsEnum domainTypes[] = {
    {"nic_rx", MLX5DV_DR_DOMAIN_TYPE_NIC_RX},
    {"nic_tx", MLX5DV_DR_DOMAIN_TYPE_NIC_TX},
    {"fdb", MLX5DV_DR_DOMAIN_TYPE_FDB},
    {NULL, 0}
};

static const VerbsEnum syncFlags[] = {
    {"sw", MLX5DV_DR_DOMAIN_SYNC_FLAGS_SW},
    {"hw", MLX5DV_DR_DOMAIN_SYNC_FLAGS_HW},
    {"mem", MLX5DV_DR_DOMAIN_SYNC_FLAGS_MEM},
    {NULL, 0}
};

static const VerbsEnum layoutFlags[] = {
    {"resizable", MLX5DV_DR_MATCHER_LAYOUT_RESIZABLE},
    {"num_rule", MLX5DV_DR_MATCHER_LAYOUT_NUM_RULE},
    {NULL, 0}
};

static const VerbsEnum actionFlags[] = {
    {"root_level", MLX5DV_DR_ACTION_FLAGS_ROOT_LEVEL}, {NULL, 0}
};

const VerbsEnum mlx5ReformatTypes[] = {
    {"l2_tunnel_to_l2",
	    MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2},
    {"l2_to_l2_tunnel",
	    MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL},
    {"l3_tunnel_to_l2",
	    MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2},
    {"l2_to_l3_tunnel",
	    MLX5DV_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL},
    {NULL, 0}
};

/*
 * ------------------------------------------------------------------------
 * The types: methods, cget rows, free procs.
 * ------------------------------------------------------------------------
 */

static VerbsMethodProc DomainSync, DomainAllowDup, DomainDump,
	MatcherSetLayout, ActionModifyMeter;
static VerbsGetProc RuleRefs, ActionRefs;

#define DR_COMMON \
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE

static const VerbsMethod domainMethods[] = {
    {"allow_duplicate_rules", DomainAllowDup, 1, 1, "boolean"},
    DR_COMMON,
    {"dump", DomainDump, 0, 0, NULL},
    {"sync", DomainSync, 0, 1, "?flags?"},
    {NULL, NULL, 0, 0, NULL}
};
static const VerbsMethod plainMethods[] = {
    DR_COMMON, {NULL, NULL, 0, 0, NULL}
};
static const VerbsMethod matcherMethods[] = {
    DR_COMMON,
    {"set_layout", MatcherSetLayout, 1, 1, "layout"},
    {NULL, NULL, 0, 0, NULL}
};
static const VerbsMethod actionMethods[] = {
    DR_COMMON,
    {"modify_flow_meter", ActionModifyMeter, 2, 2,
	    "attributes modify_field_select"},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField domainCget[] = {
    VERBS_CGET("-domain_type", DrDomain, type, VF_ENUM, domainTypes),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};
static const VerbsField tableCget[] = {
    VERBS_CGET("-level", DrTable, level, VF_UINT, NULL),
    VERBS_CGET_PARENT("-domain"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};
static const VerbsField matcherCget[] = {
    VERBS_CGET("-priority", DrMatcher, priority, VF_UINT, NULL),
    VERBS_CGET("-match_criteria_enable", DrMatcher, criteria, VF_UINT, NULL),
    VERBS_CGET("-match_size", DrMatcher, matchSize, VF_UINT, NULL),
    VERBS_CGET_PARENT("-table"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};
static const VerbsField ruleCget[] = {
    VERBS_CGET_PROC("-actions", RuleRefs),
    VERBS_CGET_PARENT("-matcher"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};
static const VerbsField actionCget[] = {
    VERBS_CGET("-kind", DrAction, kind, VF_CSTR, NULL),
    VERBS_CGET_PROC("-refs", ActionRefs),
    VERBS_CGET_PARENT("-domain"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

/*
 *----------------------------------------------------------------------
 *
 * DomainFree, TableFree, MatcherFree, RuleFree, ActionFree --
 *
 *	Destroy the libmlx5 object.  Its children went before it; what it
 *	holds is let go after it.  A refusal is not reported (nothing is
 *	left to report it to): the tree's order leaves none to refuse.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	mlx5dv_dr_*_destroy.
 *
 *----------------------------------------------------------------------
 */

static void
DomainFree(
    VerbsObj *objPtr)
{
    mlx5dv_dr_domain_destroy(((DrDomain *) objPtr)->dom);
}

static void
TableFree(
    VerbsObj *objPtr)
{
    mlx5dv_dr_table_destroy(((DrTable *) objPtr)->tbl);
}

static void
MatcherFree(
    VerbsObj *objPtr)
{
    mlx5dv_dr_matcher_destroy(((DrMatcher *) objPtr)->matcher);
}

static void
RuleFree(
    VerbsObj *objPtr)
{
    DrRule *r = (DrRule *) objPtr;

    mlx5dv_dr_rule_destroy(r->rule);
    Mlx5RefsFree(&r->refs);
}

static void
ActionFree(
    VerbsObj *objPtr)
{
    DrAction *a = (DrAction *) objPtr;

    mlx5dv_dr_action_destroy(a->action);
    Mlx5RefsFree(&a->refs);
}

const VerbsType verbsDrDomainClass = {
    .name = "drdomain",
    .size = sizeof(DrDomain),
    .methods = domainMethods,
    .cget = domainCget,
    .freeProc = DomainFree,
};
const VerbsType verbsDrTableClass = {
    .name = "drtable",
    .size = sizeof(DrTable),
    .methods = plainMethods,
    .cget = tableCget,
    .freeProc = TableFree,
};
const VerbsType verbsDrMatcherClass = {
    .name = "drmatcher",
    .size = sizeof(DrMatcher),
    .methods = matcherMethods,
    .cget = matcherCget,
    .freeProc = MatcherFree,
};
const VerbsType verbsDrRuleClass = {
    .name = "drrule",
    .size = sizeof(DrRule),
    .methods = plainMethods,
    .cget = ruleCget,
    .freeProc = RuleFree,
};
const VerbsType verbsDrActionClass = {
    .name = "draction",
    .size = sizeof(DrAction),
    .methods = actionMethods,
    .cget = actionCget,
    .freeProc = ActionFree,
};

static int
RuleRefs(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    const Mlx5Refs *r = &((DrRule *) objPtr)->refs;
    int i;

    *valuePtr = Tcl_NewObj();
    for (i = 0; i < r->n; i++) {
	Tcl_ListObjAppendElement(NULL, *valuePtr,
		VerbsObjName(r->refs[i].obj));
    }
    return TCL_OK;
}

static int
ActionRefs(
    Tcl_Interp *interp VERBS_UNUSED,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    *valuePtr = Mlx5RefsObj(&((DrAction *) objPtr)->refs);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * DomainSync, DomainAllowDup, DomainDump --
 *
 *	$domain sync ?FLAGS?: mlx5dv_dr_domain_sync (default {sw hw}).
 *	$domain allow_duplicate_rules BOOLEAN:
 *	mlx5dv_dr_domain_allow_duplicate_rules.
 *	$domain dump: what mlx5dv_dump_dr_domain writes, as a string.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	See above.
 *
 *----------------------------------------------------------------------
 */

static int
DomainSync(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc,
    Tcl_Obj *const objv[])
{
    uint64_t flags = MLX5DV_DR_DOMAIN_SYNC_FLAGS_SW
	    | MLX5DV_DR_DOMAIN_SYNC_FLAGS_HW;
    int err;

    if (objc == 3 && VerbsGetFlags(interp, syncFlags, "flags", objv[2],
	    &flags) != TCL_OK) {
	return TCL_ERROR;
    }
    err = mlx5dv_dr_domain_sync(((DrDomain *) objPtr)->dom, (uint32_t) flags);
    return err ? VerbsSysError(interp, "mlx5dv_dr_domain_sync", objPtr, NULL,
	    err) : TCL_OK;
}

static int
DomainAllowDup(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    int allow;

    if (VerbsGetBoolean(interp, "boolean", objv[2], &allow) != TCL_OK) {
	return TCL_ERROR;
    }
    mlx5dv_dr_domain_allow_duplicate_rules(((DrDomain *) objPtr)->dom,
	    allow != 0);
    return TCL_OK;
}

static int
DomainDump(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int err;

    if (f == NULL) {
	return VerbsSysError(interp, "open_memstream", objPtr, NULL, errno);
    }
    err = mlx5dv_dump_dr_domain(f, ((DrDomain *) objPtr)->dom);
    fclose(f);
    if (err) {
	free(text);
	return VerbsSysError(interp, "mlx5dv_dump_dr_domain", objPtr, NULL,
		err < 0 ? -err : err);
    }
    Tcl_SetObjResult(interp, Tcl_NewStringObj(text ? text : "",
	    (Tcl_Size) len));
    free(text);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * MatcherSetLayout --
 *
 *	$matcher set_layout {?flags {resizable num_rule}?
 *	?log_num_of_rules_hint N?}: mlx5dv_dr_matcher_set_layout.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Changes the matcher.
 *
 *----------------------------------------------------------------------
 */

static const VerbsField layoutFields[] = {
    VERBS_FIELD(struct mlx5dv_dr_matcher_layout, flags, VF_FLAGS, layoutFlags,
	    0, 0),
    VERBS_FIELD(struct mlx5dv_dr_matcher_layout, log_num_of_rules_hint,
	    VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct layoutStruct = {"layout key", layoutFields};

static int
MatcherSetLayout(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    struct mlx5dv_dr_matcher_layout layout;
    int err;

    memset(&layout, 0, sizeof(layout));
    if (VerbsDictToStruct(interp, &layoutStruct, "layout", objv[2], &layout,
	    NULL) != TCL_OK) {
	return TCL_ERROR;
    }
    err = mlx5dv_dr_matcher_set_layout(((DrMatcher *) objPtr)->matcher,
	    &layout);
    return err ? VerbsSysError(interp, "mlx5dv_dr_matcher_set_layout",
	    objPtr, NULL, err) : TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * DrMatchParams --
 *
 *	The match parameters of a matcher or rule (Mlx5MatchParams), cut to
 *	the 448 bytes software steering knows when the rest is zero: libmlx5
 *	refuses more than its own dr_match_param (outer, misc, inner and
 *	misc 2 to 5), and [mlx5::prm pack fte_match_param] gives the 512 of
 *	the PRM, whose last 64 are reserved.  Bytes set there are left for
 *	libmlx5 to refuse.
 *
 * Results:
 *	A ckalloc'ed struct, or NULL with an error.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

#define DR_MATCH_PARAM_SIZE 448

static struct mlx5dv_flow_match_parameters *
DrMatchParams(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *bytesObj)
{
    struct mlx5dv_flow_match_parameters *p =
	    Mlx5MatchParams(interp, key, bytesObj);
    const unsigned char *b;
    size_t i;

    if (p != NULL && p->match_sz > DR_MATCH_PARAM_SIZE) {
	b = (const unsigned char *) p->match_buf;
	for (i = DR_MATCH_PARAM_SIZE; i < p->match_sz; i++) {
	    if (b[i] != 0) {
		return p;
	    }
	}
	p->match_sz = DR_MATCH_PARAM_SIZE;
    }
    return p;
}

/*
 *----------------------------------------------------------------------
 *
 * DomainCreateCmd, TableCreateCmd, MatcherCreateCmd --
 *
 *	mlx5::dr domain create CONTEXT ?-type nic_rx|nic_tx|fdb? ?-as NAME?
 *	mlx5::dr table create DOMAIN ?-level N? ?-as NAME?
 *	mlx5::dr matcher create TABLE -mask BYTES ?-priority N?
 *		?-match_criteria_enable BITS? ?-as NAME?
 *
 * Results:
 *	The object command's name.
 *
 * Side effects:
 *	mlx5dv_dr_domain_create, mlx5dv_dr_table_create,
 *	mlx5dv_dr_matcher_create.
 *
 *----------------------------------------------------------------------
 */

static int
Made(
    Tcl_Interp *interp,
    const char *call,
    VerbsObj *parent,
    void *made,
    const VerbsType *type,
    size_t offset,
    Tcl_Obj *nameObj,
    VerbsObj **objPtrPtr)
{
    if (made == NULL) {
	return VerbsSysError(interp, call, parent, NULL,
		errno ? errno : EINVAL);
    }
    *objPtrPtr = VerbsObjWrap(interp, type, offset, made, parent, nameObj);
    return *objPtrPtr ? TCL_OK : TCL_ERROR;
}

static int
DomainCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t type;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(Args, type, VF_ENUM, domainTypes, "nic_rx|nic_tx|fdb"),
	VERBS_FIELD_END
    };
    Args a = {{NULL, NULL}, MLX5DV_DR_DOMAIN_TYPE_NIC_RX};
    VerbsContext *c;
    VerbsObj *o = NULL;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &a,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) a.head.parent;
    if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_dr_domain_create", c);
    }
    errno = 0;
    if (Made(interp, "mlx5dv_dr_domain_create", &c->obj,
	    mlx5dv_dr_domain_create(c->ctx,
	    (enum mlx5dv_dr_domain_type) a.type), &verbsDrDomainClass,
	    offsetof(DrDomain, dom), a.head.command, &o) != TCL_OK) {
	return TCL_ERROR;
    }
    ((DrDomain *) o)->type = a.type;
    return TCL_OK;
}

static int
TableCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint32_t level;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(Args, level, VF_UINT, NULL, "n"),
	VERBS_FIELD_END
    };
    Args a = {{NULL, NULL}, 0};
    VerbsObj *o = NULL;

    if (VerbsCreateArgs(interp, objc, objv, "domain", options, &a,
	    &verbsDrDomainClass) != TCL_OK) {
	return TCL_ERROR;
    }
    errno = 0;
    if (Made(interp, "mlx5dv_dr_table_create", a.head.parent,
	    mlx5dv_dr_table_create(((DrDomain *) a.head.parent)->dom,
	    a.level), &verbsDrTableClass, offsetof(DrTable, tbl),
	    a.head.command, &o) != TCL_OK) {
	return TCL_ERROR;
    }
    ((DrTable *) o)->level = a.level;
    return TCL_OK;
}

static int
MatcherCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint8_t match_criteria_enable;
	Tcl_Obj *mask;
	uint16_t priority;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(Args, match_criteria_enable, VF_UINT, NULL, "bits"),
	VERBS_OPTION_REQUIRED(Args, mask, VF_TCLOBJ, NULL, 0,
		"bytes:what it matches (mlx5::prm pack fte_match_param)"),
	VERBS_OPTION(Args, priority, VF_UINT, NULL, "n"),
	VERBS_FIELD_END
    };
    Args a = {{NULL, NULL}, 1, NULL, 0};
    struct mlx5dv_flow_match_parameters *mask;
    VerbsObj *o = NULL;
    int result;

    if (VerbsCreateArgs(interp, objc, objv, "table", options, &a,
	    &verbsDrTableClass) != TCL_OK) {
	return TCL_ERROR;
    }
    mask = DrMatchParams(interp, "-mask", a.mask);
    if (mask == NULL) {
	return TCL_ERROR;
    }
    errno = 0;
    result = Made(interp, "mlx5dv_dr_matcher_create", a.head.parent,
	    mlx5dv_dr_matcher_create(((DrTable *) a.head.parent)->tbl,
	    a.priority, a.match_criteria_enable, mask),
	    &verbsDrMatcherClass, offsetof(DrMatcher, matcher),
	    a.head.command, &o);
    if (result == TCL_OK) {
	((DrMatcher *) o)->priority = a.priority;
	((DrMatcher *) o)->criteria = a.match_criteria_enable;
	((DrMatcher *) o)->matchSize = mask->match_sz;
    }
    ckfree(mask);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * ActionList --
 *
 *	The draction objects a list names, all of the domain dom (or of
 *	any domain when dom is NULL).
 *
 * Results:
 *	A standard Tcl result; *actsPtr is ckalloc'ed (free with ckfree)
 *	when n > 0.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
ActionList(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *listObj,
    VerbsObj *dom,
    DrAction ***actsPtr,
    Tcl_Size *nPtr)
{
    Tcl_Obj **words;
    Tcl_Size n, i;
    DrAction **acts;

    *nPtr = 0;
    *actsPtr = NULL;
    if (listObj == NULL) {
	return TCL_OK;
    }
    if (Tcl_ListObjGetElements(NULL, listObj, &n, &words) != TCL_OK) {
	return VerbsArgError(interp, key, listObj, "bad %s \"%s\": must be "
		"a list of draction objects", key, Tcl_GetString(listObj));
    }
    if (n == 0) {
	return TCL_OK;
    }
    acts = (DrAction **) ckalloc(n * sizeof(DrAction *));
    for (i = 0; i < n; i++) {
	acts[i] = (DrAction *) VerbsObjGet(interp, words[i],
		&verbsDrActionClass);
	if (acts[i] == NULL || (dom && VerbsCheckOwner(interp, key,
		&acts[i]->obj, dom, "domain") != TCL_OK)) {
	    ckfree(acts);
	    return TCL_ERROR;
	}
    }
    *actsPtr = acts;
    *nPtr = n;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * RuleCreateCmd --
 *
 *	mlx5::dr rule create MATCHER VALUE ?-actions {ACTION ...}?
 *		?-as NAME?
 *	VALUE is fte_match_param bytes; the actions are draction objects
 *	of the matcher's domain, held by the rule.
 *
 * Results:
 *	The drrule object command's name.
 *
 * Side effects:
 *	mlx5dv_dr_rule_create.
 *
 *----------------------------------------------------------------------
 */

static int
RuleCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	Tcl_Obj *actions;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION(Args, actions, VF_TCLOBJ, NULL, "list"),
	VERBS_OPTION_COMMAND,
	VERBS_FIELD_END
    };
    Args a = {{NULL, NULL}, NULL};
    struct mlx5dv_flow_match_parameters *value;
    struct mlx5dv_dr_action **acts = NULL;
    struct mlx5dv_dr_rule *rule;
    DrMatcher *m;
    DrAction **objs;
    DrRule *r;
    Tcl_Size n, i;
    int err;

    if (VerbsCreateArgs(interp, objc, objv, "matcher value", options, &a,
	    &verbsDrMatcherClass) != TCL_OK) {
	return TCL_ERROR;
    }
    m = (DrMatcher *) a.head.parent;
    if (ActionList(interp, "-actions", a.actions, m->obj.parent->parent,
	    &objs, &n) != TCL_OK) {
	return TCL_ERROR;
    }
    value = DrMatchParams(interp, "value", objv[2]);
    if (value == NULL) {
	goto error;
    }
    if (n) {
	acts = (struct mlx5dv_dr_action **) ckalloc(n * sizeof(*acts));
	for (i = 0; i < n; i++) {
	    acts[i] = objs[i]->action;
	}
    }
    errno = 0;
    rule = mlx5dv_dr_rule_create(m->matcher, value, (size_t) n, acts);
    err = errno ? errno : EINVAL;
    ckfree(value);
    if (acts) {
	ckfree(acts);
    }
    if (rule == NULL) {
	VerbsSysError(interp, "mlx5dv_dr_rule_create", &m->obj, NULL, err);
	goto error;
    }
    r = (DrRule *) VerbsObjNew(&verbsDrRuleClass);
    r->rule = rule;
    for (i = 0; i < n; i++) {
	Mlx5RefsAdd(&r->refs, &objs[i]->obj, "-actions", "draction", 0);
    }
    if (objs) {
	ckfree(objs);
    }
    return VerbsObjAdopt(interp, &r->obj, &m->obj, a.head.command);

  error:
    if (objs) {
	ckfree(objs);
    }
    return TCL_ERROR;
}

/*
 * ------------------------------------------------------------------------
 * Actions: one command per kind, [mlx5::dr action KIND DOMAIN ...].
 * ------------------------------------------------------------------------
 */

typedef struct ActArgs {
    VerbsCreateHead head;
    Tcl_Obj *actions;		/* flow_sampler: its sample actions. */
    uint64_t action;		/* flow_sampler: the reg_c action word. */
    uint8_t active;		/* flow_meter. */
    Tcl_Obj *data;		/* packet_reformat. */
    VerbsObj *default_next_table;	/* flow_sampler. */
    uint64_t flags;		/* modify_header, packet_reformat. */
    VerbsObj *next_table;	/* flow_meter. */
    uint32_t offset;		/* counter. */
    Tcl_Obj *parameters;	/* flow_meter: flow_meter_parameters. */
    uint8_t reg_c_index;	/* flow_meter. */
    uint32_t sample_ratio;	/* flow_sampler. */
} ActArgs;

enum ActKind {
    K_DROP, K_DEFAULT_MISS, K_TAG, K_POP_VLAN, K_PUSH_VLAN, K_DEST_QP,
    K_DEST_TABLE, K_DEST_ROOT_TABLE, K_DEST_VPORT, K_DEST_IB_PORT,
    K_DEST_TIR, K_DEST_ARRAY, K_COUNTER, K_MODIFY_HEADER,
    K_PACKET_REFORMAT, K_FLOW_METER, K_FLOW_SAMPLER
};

static const VerbsField optAs[] = {
    VERBS_OPTION_COMMAND, VERBS_FIELD_END
};
static const VerbsField optFlags[] = {
    VERBS_OPTION_COMMAND,
    VERBS_OPTION(ActArgs, flags, VF_FLAGS, actionFlags, "flags"),
    VERBS_FIELD_END
};
static const VerbsField optReformat[] = {
    VERBS_OPTION_COMMAND,
    VERBS_OPTION(ActArgs, data, VF_TCLOBJ, NULL, "bytes"),
    VERBS_OPTION(ActArgs, flags, VF_FLAGS, actionFlags, "flags"),
    VERBS_FIELD_END
};
static const VerbsField optCounter[] = {
    VERBS_OPTION_COMMAND,
    VERBS_OPTION(ActArgs, offset, VF_UINT, NULL, "n"),
    VERBS_FIELD_END
};
static const VerbsField optMeter[] = {
    VERBS_OPTION(ActArgs, active, VF_UINT, NULL, "0|1"),
    VERBS_OPTION_COMMAND,
    VERBS_OPTION_REQUIRED(ActArgs, next_table, VF_OBJ, &verbsDrTableClass,
	    0, "table:where metered packets go"),
    VERBS_OPTION_REQUIRED(ActArgs, parameters, VF_TCLOBJ, NULL, 0,
	    "bytes:the meter (mlx5::prm pack flow_meter_parameters)"),
    VERBS_OPTION(ActArgs, reg_c_index, VF_UINT, NULL, "n"),
    VERBS_FIELD_END
};
static const VerbsField optSampler[] = {
    VERBS_OPTION(ActArgs, action, VF_UINT, NULL, "n"),
    VERBS_OPTION(ActArgs, actions, VF_TCLOBJ, NULL, "list"),
    VERBS_OPTION_COMMAND,
    VERBS_OPTION_REQUIRED(ActArgs, default_next_table, VF_OBJ,
	    &verbsDrTableClass, 0, "table:where every packet goes on"),
    VERBS_OPTION_REQUIRED(ActArgs, sample_ratio, VF_UINT, NULL, 0,
	    "n:one packet in n is sampled"),
    VERBS_FIELD_END
};

typedef struct ActKindDef {
    const char *name;
    enum ActKind kind;
    const char *fixed;		/* The words before the options. */
    const VerbsField *options;
    const char *call;
} ActKindDef;

static const ActKindDef actKinds[] = {
    {"counter", K_COUNTER, "domain devx", optCounter,
	"mlx5dv_dr_action_create_flow_counter"},
    {"default_miss", K_DEFAULT_MISS, "domain", optAs,
	"mlx5dv_dr_action_create_default_miss"},
    {"dest_array", K_DEST_ARRAY, "domain destinations", optAs,
	"mlx5dv_dr_action_create_dest_array"},
    {"dest_ib_port", K_DEST_IB_PORT, "domain port", optAs,
	"mlx5dv_dr_action_create_dest_ib_port"},
    {"dest_qp", K_DEST_QP, "domain qp", optAs,
	"mlx5dv_dr_action_create_dest_ibv_qp"},
    {"dest_root_table", K_DEST_ROOT_TABLE, "domain table priority", optAs,
	"mlx5dv_dr_action_create_dest_root_table"},
    {"dest_table", K_DEST_TABLE, "domain table", optAs,
	"mlx5dv_dr_action_create_dest_table"},
    {"dest_tir", K_DEST_TIR, "domain devx", optAs,
	"mlx5dv_dr_action_create_dest_devx_tir"},
    {"dest_vport", K_DEST_VPORT, "domain vport", optAs,
	"mlx5dv_dr_action_create_dest_vport"},
    {"drop", K_DROP, "domain", optAs, "mlx5dv_dr_action_create_drop"},
    {"flow_meter", K_FLOW_METER, "domain", optMeter,
	"mlx5dv_dr_action_create_flow_meter"},
    {"flow_sampler", K_FLOW_SAMPLER, "domain", optSampler,
	"mlx5dv_dr_action_create_flow_sampler"},
    {"modify_header", K_MODIFY_HEADER, "domain actions", optFlags,
	"mlx5dv_dr_action_create_modify_header"},
    {"packet_reformat", K_PACKET_REFORMAT, "domain type", optReformat,
	"mlx5dv_dr_action_create_packet_reformat"},
    {"pop_vlan", K_POP_VLAN, "domain", optAs,
	"mlx5dv_dr_action_create_pop_vlan"},
    {"push_vlan", K_PUSH_VLAN, "domain vlan_hdr", optAs,
	"mlx5dv_dr_action_create_push_vlan"},
    {"tag", K_TAG, "domain value", optAs, "mlx5dv_dr_action_create_tag"},
    {NULL, 0, NULL, NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * ActionMake, ActionCmd --
 *
 *	mlx5::dr action KIND DOMAIN ?WORDS? ?-option value ...? ?-as NAME?:
 *	a draction of its domain; an object it names (a QP, a table, a
 *	DevX object, other actions) is held by it.
 *	    counter DOMAIN DEVX ?-offset N?
 *	    default_miss DOMAIN, drop DOMAIN, pop_vlan DOMAIN
 *	    dest_array DOMAIN {{dest ACTION ?reformat ACTION?} ...}
 *	    dest_ib_port DOMAIN PORT, dest_vport DOMAIN VPORT
 *	    dest_qp DOMAIN QP, dest_tir DOMAIN DEVX
 *	    dest_table DOMAIN TABLE, dest_root_table DOMAIN TABLE PRIORITY
 *	    flow_meter DOMAIN -next_table TABLE -parameters BYTES
 *		?-active 0|1? ?-reg_c_index N?
 *	    flow_sampler DOMAIN -sample_ratio N -default_next_table TABLE
 *		?-actions {ACTION ...}? ?-action N?
 *	    modify_header DOMAIN ACTIONS ?-flags root_level?
 *	    packet_reformat DOMAIN TYPE ?-data BYTES? ?-flags root_level?
 *	    push_vlan DOMAIN VLAN_HDR, tag DOMAIN VALUE
 *
 * Results:
 *	The draction object command's name.
 *
 * Side effects:
 *	mlx5dv_dr_action_create_*.
 *
 *----------------------------------------------------------------------
 */

/*
 * What an action's making uses: its words resolved, what it will hold.
 */

typedef struct ActMake {
    const ActKindDef *def;
    DrDomain *dom;
    ActArgs a;
    Tcl_Obj *const *words;	/* The words after the domain. */
    Mlx5Refs refs;
} ActMake;

static VerbsObj *
Held(
    Tcl_Interp *interp,
    ActMake *m,
    Tcl_Obj *nameObj,
    const VerbsType *type,
    const char *role)
{
    VerbsObj *o = VerbsObjGet(interp, nameObj, type);

    if (o == NULL) {
	return NULL;
    }
    if (Mlx5ContextOf(o) != Mlx5ContextOf(&m->dom->obj)) {
	VerbsArgError(interp, role, nameObj, "%s \"%s\" is on another "
		"device context", role, Tcl_GetString(nameObj));
	return NULL;
    }
    Mlx5RefsAdd(&m->refs, o, role, type->name, 0);
    return o;
}

static int
Number(
    Tcl_Interp *interp,
    Tcl_Obj *obj,
    const char *key,
    uint64_t max,
    uint64_t *vPtr)
{
    return VerbsGetUInt(interp, key, obj, max, vPtr);
}

static int
DestArray(
    Tcl_Interp *interp,
    ActMake *m,
    struct mlx5dv_dr_action **actPtr)
{
    static const VerbsField destFields[] = {
	VERBS_FIELD(struct mlx5dv_dr_action_dest_reformat, dest, VF_OBJ,
		&verbsDrActionClass, 0, 0),
	VERBS_FIELD(struct mlx5dv_dr_action_dest_reformat, reformat, VF_OBJ,
		&verbsDrActionClass, 0, 0),
	VERBS_FIELD_END
    };
    static const VerbsStruct destStruct = {"destination key", destFields};
    Tcl_Obj **items;
    Tcl_Size n, i;
    struct mlx5dv_dr_action_dest_attr *attrs, **ptrs;
    struct mlx5dv_dr_action_dest_reformat *dr;

    if (Tcl_ListObjGetElements(NULL, m->words[0], &n, &items) != TCL_OK
	    || n == 0) {
	return VerbsArgError(interp, "destinations", m->words[0], "bad "
		"destinations \"%s\": must be a non-empty list of {dest "
		"ACTION ?reformat ACTION?}", Tcl_GetString(m->words[0]));
    }
    attrs = (struct mlx5dv_dr_action_dest_attr *) ckalloc(n * sizeof(*attrs));
    ptrs = (struct mlx5dv_dr_action_dest_attr **) ckalloc(n * sizeof(*ptrs));
    dr = (struct mlx5dv_dr_action_dest_reformat *) ckalloc(n * sizeof(*dr));
    for (i = 0; i < n; i++) {
	/* Parsed as objects, then swapped for their libmlx5 handles. */
	memset(&dr[i], 0, sizeof(dr[i]));
	if (VerbsDictToStruct(interp, &destStruct, "destination", items[i],
		&dr[i], NULL) != TCL_OK) {
	    goto error;
	}
	if (dr[i].dest == NULL) {
	    VerbsArgError(interp, "dest", items[i], "a destination needs "
		    "dest, the action it goes to");
	    goto error;
	}
	Mlx5RefsAdd(&m->refs, (VerbsObj *) dr[i].dest, "dest", "draction", 0);
	dr[i].dest = ((DrAction *) dr[i].dest)->action;
	ptrs[i] = &attrs[i];
	if (dr[i].reformat) {
	    Mlx5RefsAdd(&m->refs, (VerbsObj *) dr[i].reformat, "reformat",
		    "draction", 0);
	    dr[i].reformat = ((DrAction *) dr[i].reformat)->action;
	    attrs[i].type = MLX5DV_DR_ACTION_DEST_REFORMAT;
	    attrs[i].dest_reformat = &dr[i];
	} else {
	    attrs[i].type = MLX5DV_DR_ACTION_DEST;
	    attrs[i].dest = dr[i].dest;
	}
    }
    *actPtr = mlx5dv_dr_action_create_dest_array(m->dom->dom, (size_t) n,
	    ptrs);
    ckfree(attrs);
    ckfree(ptrs);
    ckfree(dr);
    return TCL_OK;

  error:
    ckfree(attrs);
    ckfree(ptrs);
    ckfree(dr);
    return TCL_ERROR;
}

static int
FlowMeter(
    Tcl_Interp *interp,
    ActMake *m,
    struct mlx5dv_dr_action **actPtr)
{
    struct mlx5dv_dr_flow_meter_attr attr;
    Tcl_Size len;
    const unsigned char *p = VerbsGetBytes(interp, "-parameters",
	    m->a.parameters, &len);

    if (p == NULL) {
	return TCL_ERROR;
    }
    memset(&attr, 0, sizeof(attr));
    attr.next_table = ((DrTable *) m->a.next_table)->tbl;
    Mlx5RefsAdd(&m->refs, m->a.next_table, "-next_table", "drtable", 0);
    attr.active = m->a.active;
    attr.reg_c_index = m->a.reg_c_index;
    attr.flow_meter_parameter = (void *) p;
    attr.flow_meter_parameter_sz = (size_t) len;
    *actPtr = mlx5dv_dr_action_create_flow_meter(&attr);
    return TCL_OK;
}

static int
FlowSampler(
    Tcl_Interp *interp,
    ActMake *m,
    struct mlx5dv_dr_action **actPtr)
{
    struct mlx5dv_dr_flow_sampler_attr attr;
    DrAction **objs;
    Tcl_Size n, i;

    if (ActionList(interp, "-actions", m->a.actions, &m->dom->obj, &objs,
	    &n) != TCL_OK) {
	return TCL_ERROR;
    }
    memset(&attr, 0, sizeof(attr));
    attr.sample_ratio = m->a.sample_ratio;
    attr.default_next_table = ((DrTable *) m->a.default_next_table)->tbl;
    Mlx5RefsAdd(&m->refs, m->a.default_next_table, "-default_next_table",
	    "drtable", 0);
    attr.num_sample_actions = (uint32_t) n;
    attr.sample_actions = n ? (struct mlx5dv_dr_action **)
	    ckalloc(n * sizeof(struct mlx5dv_dr_action *)) : NULL;
    for (i = 0; i < n; i++) {
	attr.sample_actions[i] = objs[i]->action;
	Mlx5RefsAdd(&m->refs, &objs[i]->obj, "-actions", "draction", 0);
    }
    attr.action = htobe64(m->a.action);
    *actPtr = mlx5dv_dr_action_create_flow_sampler(&attr);
    if (n) {
	ckfree(attr.sample_actions);
	ckfree(objs);
    }
    return TCL_OK;
}

/*
 * The actions on an object the action holds: a QP, a table, a DevX TIR or
 * flow counter.
 */

static int
ActionOnObject(
    Tcl_Interp *interp,
    ActMake *m,
    struct mlx5dv_dr_action **actPtr)
{
    Tcl_Obj *const *w = m->words;
    VerbsObj *o;
    uint64_t v = 0;

    switch (m->def->kind) {
    case K_DEST_QP:
	o = Held(interp, m, w[0], &verbsQpClass, "qp");
	if (o) {
	    *actPtr = mlx5dv_dr_action_create_dest_ibv_qp(((VerbsQp *) o)->qp);
	}
	return o ? TCL_OK : TCL_ERROR;
    case K_DEST_TABLE:
    case K_DEST_ROOT_TABLE:
	if (m->def->kind == K_DEST_ROOT_TABLE && Number(interp, w[1],
		"priority", UINT16_MAX, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	o = Held(interp, m, w[0], &verbsDrTableClass, "table");
	if (o) {
	    *actPtr = m->def->kind == K_DEST_TABLE
		    ? mlx5dv_dr_action_create_dest_table(((DrTable *) o)->tbl)
		    : mlx5dv_dr_action_create_dest_root_table(
		    ((DrTable *) o)->tbl, (uint16_t) v);
	}
	return o ? TCL_OK : TCL_ERROR;
    case K_DEST_TIR:
    case K_COUNTER:
	o = Held(interp, m, w[0], &verbsDevxClass, "devx");
	if (o) {
	    struct mlx5dv_devx_obj *d = ((Mlx5Devx *) o)->devx;

	    *actPtr = m->def->kind == K_DEST_TIR
		    ? mlx5dv_dr_action_create_dest_devx_tir(d)
		    : mlx5dv_dr_action_create_flow_counter(d, m->a.offset);
	}
	return o ? TCL_OK : TCL_ERROR;
    default:
	return TCL_ERROR;
    }
}

static int
ActionMake(
    Tcl_Interp *interp,
    ActMake *m,
    struct mlx5dv_dr_action **actPtr)
{
    struct mlx5dv_dr_domain *dom = m->dom->dom;
    Tcl_Obj *const *w = m->words;
    uint64_t v, v2;
    Tcl_Size len;
    const unsigned char *p;

    switch (m->def->kind) {
    case K_DROP:
	*actPtr = mlx5dv_dr_action_create_drop();
	return TCL_OK;
    case K_DEFAULT_MISS:
	*actPtr = mlx5dv_dr_action_create_default_miss();
	return TCL_OK;
    case K_POP_VLAN:
	*actPtr = mlx5dv_dr_action_create_pop_vlan();
	return TCL_OK;
    case K_TAG:
	if (Number(interp, w[0], "value", UINT32_MAX, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	*actPtr = mlx5dv_dr_action_create_tag((uint32_t) v);
	return TCL_OK;
    case K_PUSH_VLAN:
	if (Number(interp, w[0], "vlan_hdr", UINT32_MAX, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	*actPtr = mlx5dv_dr_action_create_push_vlan(dom, htobe32((uint32_t) v));
	return TCL_OK;
    case K_DEST_VPORT:
    case K_DEST_IB_PORT:
	if (Number(interp, w[0], m->def->kind == K_DEST_VPORT ? "vport"
		: "port", UINT32_MAX, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	*actPtr = m->def->kind == K_DEST_VPORT
		? mlx5dv_dr_action_create_dest_vport(dom, (uint32_t) v)
		: mlx5dv_dr_action_create_dest_ib_port(dom, (uint32_t) v);
	return TCL_OK;
    case K_DEST_QP:
    case K_DEST_TABLE:
    case K_DEST_ROOT_TABLE:
    case K_DEST_TIR:
    case K_COUNTER:
	return ActionOnObject(interp, m, actPtr);
    case K_DEST_ARRAY:
	return DestArray(interp, m, actPtr);
    case K_MODIFY_HEADER:
	p = VerbsGetBytes(interp, "actions", w[0], &len);
	if (p == NULL) {
	    return TCL_ERROR;
	}
	if (len == 0 || len % 8 != 0) {
	    return VerbsArgError(interp, "actions", NULL, "bad actions: %"
		    TCL_SIZE_MODIFIER "d bytes, must be a non-empty multiple "
		    "of 8 (mlx5::prm pack set_action_in, ...)", len);
	}
	*actPtr = mlx5dv_dr_action_create_modify_header(dom,
		(uint32_t) m->a.flags, (size_t) len, (__be64 *) p);
	return TCL_OK;
    case K_PACKET_REFORMAT:
	if (VerbsGetEnum(interp, mlx5ReformatTypes, "type", w[0], &v2)
		!= TCL_OK) {
	    return TCL_ERROR;
	}
	p = NULL;
	len = 0;
	if (m->a.data && (p = VerbsGetBytes(interp, "-data", m->a.data,
		&len)) == NULL) {
	    return TCL_ERROR;
	}
	*actPtr = mlx5dv_dr_action_create_packet_reformat(dom,
		(uint32_t) m->a.flags,
		(enum mlx5dv_flow_action_packet_reformat_type) v2, (size_t) len,
		(void *) p);
	return TCL_OK;
    case K_FLOW_METER:
	return FlowMeter(interp, m, actPtr);
    case K_FLOW_SAMPLER:
	return FlowSampler(interp, m, actPtr);
    }
    return TCL_ERROR;
}

static int
ActionCmd(
    ClientData clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    ActMake m;
    struct mlx5dv_dr_action *act = NULL;
    DrAction *a;
    int err;

    memset(&m, 0, sizeof(m));
    m.def = (const ActKindDef *) clientData;
    if (VerbsCreateArgs(interp, objc, objv, m.def->fixed, m.def->options,
	    &m.a, &verbsDrDomainClass) != TCL_OK) {
	return TCL_ERROR;
    }
    m.dom = (DrDomain *) m.a.head.parent;
    m.words = objv + 2;
    errno = 0;
    if (ActionMake(interp, &m, &act) != TCL_OK) {
	Mlx5RefsFree(&m.refs);
	return TCL_ERROR;
    }
    if (act == NULL) {
	err = errno ? errno : EINVAL;
	Mlx5RefsFree(&m.refs);
	return VerbsSysError(interp, m.def->call, &m.dom->obj, NULL, err);
    }
    a = (DrAction *) VerbsObjNew(&verbsDrActionClass);
    a->action = act;
    a->kind = m.def->name;
    a->refs = m.refs;
    return VerbsObjAdopt(interp, &a->obj, &m.dom->obj, m.a.head.command);
}

/*
 *----------------------------------------------------------------------
 *
 * ActionModifyMeter --
 *
 *	$action modify_flow_meter {?active 0|1? ?reg_c_index N?
 *	?flow_meter_parameter BYTES?} SELECT: mlx5dv_dr_action_modify_flow_meter
 *	of a flow_meter action, SELECT the modify_field_select bits.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Changes the meter.
 *
 *----------------------------------------------------------------------
 */

static int
ActionModifyMeter(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[])
{
    typedef struct {
	uint8_t active;
	Tcl_Obj *flow_meter_parameter;
	uint8_t reg_c_index;
    } MeterArgs;
    static const VerbsField meterFields[] = {
	VERBS_FIELD(MeterArgs, active, VF_UINT, NULL, 0, 0),
	VERBS_FIELD(MeterArgs, flow_meter_parameter, VF_TCLOBJ, NULL, 0, 0),
	VERBS_FIELD(MeterArgs, reg_c_index, VF_UINT, NULL, 0, 0),
	VERBS_FIELD_END
    };
    static const VerbsStruct meterStruct = {"flow meter key", meterFields};
    DrAction *a = (DrAction *) objPtr;
    struct mlx5dv_dr_flow_meter_attr attr;
    MeterArgs m = {0, NULL, 0};
    uint64_t select;
    Tcl_Size len = 0;
    const unsigned char *p = NULL;
    int err;

    if (strcmp(a->kind, "flow_meter") != 0) {
	return VerbsArgError(interp, "action", objv[0], "%s is a %s action, "
		"not a flow_meter", Tcl_GetString(objv[0]), a->kind);
    }
    if (VerbsDictToStruct(interp, &meterStruct, "attributes", objv[2], &m,
	    NULL) != TCL_OK || VerbsGetUInt(interp, "modify_field_select",
	    objv[3], UINT64_MAX, &select) != TCL_OK) {
	return TCL_ERROR;
    }
    if (m.flow_meter_parameter && (p = VerbsGetBytes(interp,
	    "flow_meter_parameter", m.flow_meter_parameter, &len)) == NULL) {
	return TCL_ERROR;
    }
    memset(&attr, 0, sizeof(attr));
    attr.active = m.active;
    attr.reg_c_index = m.reg_c_index;
    attr.flow_meter_parameter = (void *) p;
    attr.flow_meter_parameter_sz = (size_t) len;
    err = mlx5dv_dr_action_modify_flow_meter(a->action, &attr,
	    htobe64(select));
    return err ? VerbsSysError(interp, "mlx5dv_dr_action_modify_flow_meter",
	    objPtr, NULL, err) : TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5DrInit --
 *
 *	The commands of this file, in ::mlx5::dr.
 *
 * Results:
 *	TCL_OK.
 *
 * Side effects:
 *	Creates commands.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5DrInit(
    Tcl_Interp *interp)
{
    const ActKindDef *k;

    Mlx5AddCommand(interp, "dr::domain::create", DomainCreateCmd);
    Mlx5AddCommand(interp, "dr::table::create", TableCreateCmd);
    Mlx5AddCommand(interp, "dr::matcher::create", MatcherCreateCmd);
    Mlx5AddCommand(interp, "dr::rule::create", RuleCreateCmd);
    for (k = actKinds; k->name; k++) {
	Tcl_Obj *name = Tcl_ObjPrintf("dr::action::%s", k->name);

	Tcl_IncrRefCount(name);
	Mlx5AddCommandData(interp, Tcl_GetString(name), ActionCmd,
		(ClientData) k);
	Tcl_DecrRefCount(name);
    }
    return TCL_OK;
}
