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

static Tcl_ObjCmdProc AhCreateCmd;

static const VerbsCtor ahCtors[] = {
    {"create", AhCreateCmd}, {NULL, NULL}
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
    "ah", sizeof(VerbsAh), ahMethods, ahCget, AhFree, NULL, NULL, ahCtors
};

/*
 *----------------------------------------------------------------------
 *
 * VerbsParseAhAttr --
 *
 *	An ah_attr dict (dlid sl src_path_bits static_rate is_global
 *	port_num grh {dgid flow_label sgid_index hop_limit traffic_class})
 *	into a struct.  port_num defaults to 1; a grh implies is_global.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills *attr.
 *
 *----------------------------------------------------------------------
 */

int
VerbsParseAhAttr(
    Tcl_Interp *interp,
    Tcl_Obj *dictObj,
    struct ibv_ah_attr *attr)
{
    memset(attr, 0, sizeof(*attr));
    attr->port_num = 1;
    if (VerbsDictToStruct(interp, &verbsAhAttrStruct, "attributes",
	    dictObj, attr, NULL)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    VerbsAhImplyGlobal(dictObj, attr);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsAhImplyGlobal --
 *
 *	An ah_attr dict that gives a grh but says nothing of is_global
 *	means a global route: set is_global.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	May set attr->is_global.
 *
 *----------------------------------------------------------------------
 */

void
VerbsAhImplyGlobal(
    Tcl_Obj *dictObj,
    struct ibv_ah_attr *attr)
{
    Tcl_Obj *key = Tcl_NewStringObj("grh", -1), *grh = NULL, *global = NULL;

    Tcl_IncrRefCount(key);
    Tcl_DictObjGet(NULL, dictObj, key, &grh);
    Tcl_SetStringObj(key, "is_global", -1);
    Tcl_DictObjGet(NULL, dictObj, key, &global);
    Tcl_DecrRefCount(key);
    if (grh && !global) {
	attr->is_global = 1;
    }
}

/*
 *----------------------------------------------------------------------
 *
 * AhCreateCmd --
 *
 *	verbs::ah create PD ATTR ?-command NAME?
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
    VerbsAh *a;

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
    a = (VerbsAh *) VerbsObjNew(&verbsAhClass);
    a->ah = ah;
    if (VerbsObjRegister(interp, &a->obj, &p->obj, args.command)
	    != TCL_OK) {
	ibv_destroy_ah(ah);
	ckfree(a);
	return TCL_ERROR;
    }
    return TCL_OK;
}
