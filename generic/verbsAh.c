/*
 * verbsAh.c --
 *
 *	Address handles: [verbs::ah create PD ATTR].
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <string.h>

/*
 * ------------------------------------------------------------------------
 * The names and struct tables of address handles: the rows with which the
 * attribute dict engine (verbsAttr.c) reads and writes these C structs.
 * ------------------------------------------------------------------------
 */

#define GR(f, kind) VERBS_FIELD(struct ibv_global_route, f, kind, NULL, 0, 0)
static const VerbsField grhFields[] = {
    GR(dgid, VF_GID),
    GR(flow_label, VF_UINT),
    GR(sgid_index, VF_UINT),
    GR(hop_limit, VF_UINT),
    GR(traffic_class, VF_UINT),
    VERBS_FIELD_END
};
static const VerbsStruct grhStruct = {"grh", grhFields};

#define AH(f, kind, table) \
    VERBS_FIELD(struct ibv_ah_attr, f, kind, table, 0, 0)
static const VerbsField ahAttrFields[] = {
    AH(grh, VF_STRUCT, &grhStruct),
    AH(dlid, VF_UINT, NULL),
    AH(sl, VF_UINT, NULL),
    AH(src_path_bits, VF_UINT, NULL),
    AH(static_rate, VF_ENUM, verbsRate),
    AH(is_global, VF_UINT, NULL),
    AH(port_num, VF_UINT, NULL),
    VERBS_FIELD_END
};
const VerbsStruct verbsAhAttrStruct = {"ah attribute", ahAttrFields};


static const VerbsMethod ahMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField ahCget[] = {
    VERBS_CGET_PTR("-handle", VerbsAh, ah, struct ibv_ah, handle, VF_UINT,
	    NULL),
    VERBS_CGET_PARENT("-pd"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static Tcl_ObjCmdProc AhCreateCmd, AhFromWcCmd, AhAttrFromWcCmd;
static int	NewAh(Tcl_Interp *interp, VerbsPd *p, struct ibv_ah *ah,
		    Tcl_Obj *nameObj);

static const VerbsCommand ahCommands[] = {
    {"attr_from_wc", AhAttrFromWcCmd}, {"create", AhCreateCmd},
    {"from_wc", AhFromWcCmd}, {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * AhFree --
 *
 *	Destruction of the AH.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	ibv_destroy_ah.
 *
 *----------------------------------------------------------------------
 */

static void
AhFree(
    VerbsObj *objPtr)
{
    ibv_destroy_ah(((VerbsAh *) objPtr)->ah);
}

const VerbsType verbsAhClass = {
    .name = "ah",
    .size = sizeof(VerbsAh),
    .methods = ahMethods,
    .cget = ahCget,
    .freeProc = AhFree,
    .commands = ahCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * VerbsParseAhAttr, VerbsSetAhAttr, ImplyGlobal --
 *
 *	An ah_attr dict (dlid sl src_path_bits static_rate is_global
 *	port_num grh {dgid flow_label sgid_index hop_limit traffic_class})
 *	into a struct.  A grh without is_global implies is_global
 *	(ImplyGlobal, which also marks is_global given when it sets it).
 *	VerbsParseAhAttr fills the whole struct, port_num 1 unless given;
 *	VerbsSetAhAttr, the setProc of a struct's ah_attr fields, writes
 *	the fields the dict gives over what *memberPtr holds (the QP's port
 *	as port_num, say), as a nested dict does.  The dict names no
 *	object, so a value given again keeps its struct
 *	(VerbsDictToStructKept): a QP's to_rtr, or an AH made again from
 *	the same value, parses nothing.
 *
 * Results:
 *	A standard Tcl result; what (VerbsSetAhAttr: the key) names the
 *	dict in messages.
 *
 * Side effects:
 *	Fills the struct; may replace the value's internal representation.
 *
 *----------------------------------------------------------------------
 */

static void
ImplyGlobal(
    Tcl_Obj *dictObj,		/* A dict (VerbsDictToStruct took it). */
    void *value,
    unsigned char *given)	/* Or NULL. */
{
    Tcl_Obj *grh = NULL, *global = NULL;

    Tcl_DictObjGet(NULL, dictObj, VerbsKeyObj("grh"), &grh);
    Tcl_DictObjGet(NULL, dictObj, VerbsKeyObj("is_global"), &global);
    if (grh && !global) {
	((struct ibv_ah_attr *) value)->is_global = 1;
	if (given) {
	    memset(given + offsetof(struct ibv_ah_attr, is_global), 1,
		    sizeof(((struct ibv_ah_attr *) NULL)->is_global));
	}
    }
}

int
VerbsParseAhAttr(
    Tcl_Interp *interp,
    Tcl_Obj *dictObj,
    struct ibv_ah_attr *attr)
{
    memset(attr, 0, sizeof(*attr));
    attr->port_num = 1;
    return VerbsSetAhAttr(interp, "attributes", dictObj, attr);
}

int
VerbsSetAhAttr(
    Tcl_Interp *interp,
    const char *what,
    Tcl_Obj *dictObj,
    void *memberPtr)
{
    return VerbsDictToStructKept(interp, &verbsAhAttrStruct, what, dictObj,
	    memberPtr, sizeof(struct ibv_ah_attr), ImplyGlobal);
}

/*
 *----------------------------------------------------------------------
 *
 * AhCreateCmd --
 *
 *	verbs::ah create PD ATTR ?-as NAME?
 *
 * Results:
 *	The ah object command's name.
 *
 * Side effects:
 *	ibv_create_ah.
 *
 *----------------------------------------------------------------------
 */

static int
AhCreateCmd(
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
    struct ibv_ah_attr attr;
    struct ibv_ah *ah;
    VerbsPd *p;

    if (VerbsCreateArgs(interp, objc, objv, "pd attributes", options, &args,
	    &verbsPdClass) != TCL_OK
	    || VerbsParseAhAttr(interp, objv[2], &attr) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.parent;
    ah = ibv_create_ah(p->pd, &attr);
    if (ah == NULL) {
	return VerbsSysError(interp, "ibv_create_ah", &p->obj, NULL, errno);
    }
    return NewAh(interp, p, ah, args.command);
}

/*
 *----------------------------------------------------------------------
 *
 * NewAh --
 *
 *	Give a new address handle its object under the pd.
 *
 * Results:
 *	A standard Tcl result, the object's name.
 *
 * Side effects:
 *	Creates a command; destroys the AH when that fails.
 *
 *----------------------------------------------------------------------
 */

static int
NewAh(
    Tcl_Interp *interp,
    VerbsPd *p,
    struct ibv_ah *ah,
    Tcl_Obj *nameObj)
{
    return VerbsObjWrap(interp, &verbsAhClass, offsetof(VerbsAh, ah), ah,
	    &p->obj, nameObj) ? TCL_OK : TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * ParseWcArgs --
 *
 *	The words of from_wc and attr_from_wc after the parent: a work
 *	completion dict (as $cq poll returns it: src_qp, slid, sl,
 *	wc_flags, pkey_index, dlid_path_bits ...) and, when its wc_flags
 *	say grh or the port is an Ethernet one, -grh with the 40 bytes a
 *	UD receive puts first in its buffer.  -port defaults to 1.
 *
 * Results:
 *	A standard Tcl result; fills *wc, *grh, *portPtr.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

typedef struct {
    VerbsCreateHead head;
    Tcl_Obj *grh;
    uint8_t port;
} WcArgs;

static const VerbsField wcOptions[] = {
    VERBS_OPTION_COMMAND,
    VERBS_OPTION(WcArgs, grh, VF_TCLOBJ, NULL, "bytes"),
    VERBS_OPTION(WcArgs, port, VF_UINT, NULL, "port"),
    VERBS_FIELD_END
};

static int
ParseWcArgs(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    const char *fixed,
    const VerbsField *options,
    const VerbsType *parentClass,
    WcArgs *args,
    struct ibv_wc *wc,
    struct ibv_grh *grh)
{
    const unsigned char *bytes;
    Tcl_Size n;

    memset(args, 0, sizeof(*args));
    args->port = 1;
    memset(wc, 0, sizeof(*wc));
    memset(grh, 0, sizeof(*grh));
    if (VerbsCreateArgs(interp, objc, objv, fixed, options, args,
	    parentClass) != TCL_OK
	    || VerbsDictToStruct(interp, &verbsWcInputStruct, "wc", objv[2], wc,
	    NULL) != TCL_OK) {
	return TCL_ERROR;
    }
    if (args->grh == NULL) {
	struct ibv_context *ctx = (parentClass == &verbsPdClass)
		? ((VerbsPd *) args->head.parent)->pd->context
		: ((VerbsContext *) args->head.parent)->ctx;
	struct ibv_port_attr pattr;
	int err;

	if (wc->wc_flags & IBV_WC_GRH) {
	    return VerbsArgError(interp, "-grh", NULL, "the completion has "
		    "a grh: give its 40 bytes with -grh");
	}

	/*
	 * On an Ethernet port libibverbs takes the address from the GRH
	 * whatever the flags say (and reads a NULL one).
	 */

	memset(&pattr, 0, sizeof(pattr));
	err = ibv_query_port(ctx, args->port, &pattr);
	if (err) {
	    char what[32];

	    snprintf(what, sizeof(what), "port %u", (unsigned) args->port);
	    return VerbsSysError(interp, "ibv_query_port", args->head.parent,
		    what, err);
	}
	if (pattr.link_layer == IBV_LINK_LAYER_ETHERNET) {
	    return VerbsArgError(interp, "-grh", NULL, "port %u is an "
		    "ethernet port, whose addresses come from the grh: give "
		    "its 40 bytes with -grh", (unsigned) args->port);
	}
	return TCL_OK;
    }
    bytes = VerbsGetBytes(interp, "-grh", args->grh, &n);
    if (bytes == NULL) {
	return TCL_ERROR;
    }
    if (n < (Tcl_Size) sizeof(*grh)) {
	return VerbsArgError(interp, "-grh", NULL, "-grh is %"
		TCL_SIZE_MODIFIER "d bytes: a grh is %d", n, (int) sizeof(*grh));
    }
    memcpy(grh, bytes, sizeof(*grh));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * AhFromWcCmd, AhAttrFromWcCmd --
 *
 *	verbs::ah from_wc PD WC ?-grh BYTES? ?-port N? ?-as NAME?:
 *	an address handle back to whoever sent the completion's message
 *	(ibv_create_ah_from_wc), so that a UD server answers its clients.
 *	verbs::ah attr_from_wc CONTEXT WC ?-grh BYTES? ?-port N?: the
 *	ah_attr dict of the same (ibv_init_ah_from_wc).
 *
 * Results:
 *	The ah object's name; the ah_attr dict.
 *
 * Side effects:
 *	from_wc creates an AH.
 *
 *----------------------------------------------------------------------
 */

static int
AhFromWcCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    WcArgs args;
    struct ibv_wc wc;
    struct ibv_grh grh;
    struct ibv_ah *ah;
    VerbsPd *p;

    if (ParseWcArgs(interp, objc, objv, "pd wc", wcOptions, &verbsPdClass,
	    &args, &wc, &grh) != TCL_OK) {
	return TCL_ERROR;
    }
    p = (VerbsPd *) args.head.parent;
    ah = ibv_create_ah_from_wc(p->pd, &wc, args.grh ? &grh : NULL,
	    args.port);
    if (ah == NULL) {
	return VerbsSysError(interp, "ibv_create_ah_from_wc", &p->obj, NULL,
		errno);
    }
    return NewAh(interp, p, ah, args.head.command);
}

static int
AhAttrFromWcCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    WcArgs args;
    struct ibv_wc wc;
    struct ibv_grh grh;
    struct ibv_ah_attr attr;
    VerbsContext *c;
    int err;

    /* The same options but -as: no object is made. */
    if (ParseWcArgs(interp, objc, objv, "context wc", wcOptions + 1,
	    &verbsContextClass, &args, &wc, &grh) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) args.head.parent;
    memset(&attr, 0, sizeof(attr));
    err = ibv_init_ah_from_wc(c->ctx, args.port, &wc,
	    args.grh ? &grh : NULL, &attr);
    if (err) {
	/* Some paths return -1 with errno, others the errno itself. */
	return VerbsSysError(interp, "ibv_init_ah_from_wc", &c->obj, NULL,
		err > 0 ? err : errno ? errno : EINVAL);
    }
    Tcl_SetObjResult(interp, VerbsStructToDict(&verbsAhAttrStruct, &attr));
    return TCL_OK;
}
