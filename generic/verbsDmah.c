/*
 * verbsDmah.c --
 *
 *	DMA handles (ibv_alloc_dmah, rdma-core 59 and later): the CPU and
 *	the PCIe TLP processing hints that a memory registration can name
 *	for the device's DMA to that memory.  verbs::dmah create makes one
 *	on a context; built against an older libibverbs, the constructor
 *	checks its arguments and refuses with EOPNOTSUPP.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <errno.h>
#include <string.h>

static Tcl_ObjCmdProc DmahCreateCmd;

static const VerbsMethod dmahMethods[] = {
    VERBS_METHOD_CGET,
    VERBS_METHOD_CHILDREN,
    VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField dmahCget[] = {
    VERBS_CGET("-attributes", VerbsDmah, attrs, VF_TCLOBJ, NULL),
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static const VerbsCommand dmahCommands[] = {
    {"create", DmahCreateCmd}, {NULL, NULL}
};

/*
 * enum ibv_tph_mem_type, by value (the enum is as new as the call).
 */

static const VerbsEnum tphMemTypes[] = {
    {"vm", 0}, {"pm", 1}, {NULL, 0}
};

/*
 *----------------------------------------------------------------------
 *
 * DmahFree --
 *
 *	Deallocate the handle (ibv_dealloc_dmah).
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Frees the handle and the attributes.
 *
 *----------------------------------------------------------------------
 */

static void
DmahFree(
    VerbsObj *objPtr)
{
    VerbsDmah *d = (VerbsDmah *) objPtr;

#ifdef HAVE_IBV_ALLOC_DMAH
    ibv_dealloc_dmah((struct ibv_dmah *) d->dmah);
#endif
    if (d->attrs) {		/* NULL when registering failed. */
	Tcl_DecrRefCount(d->attrs);
    }
}

const VerbsType verbsDmahClass = {
    .name = "dmah",
    .size = sizeof(VerbsDmah),
    .methods = dmahMethods,
    .cget = dmahCget,
    .freeProc = DmahFree,
    .commands = dmahCommands,
};

/*
 *----------------------------------------------------------------------
 *
 * AllocDmah --
 *
 *	ibv_alloc_dmah with the attributes given (each sets its bit of the
 *	comp_mask; none asks for a handle without hints).  Built against a
 *	libibverbs older than rdma-core 59, a refusal.
 *
 * Results:
 *	A standard Tcl result; the handle in *dmahPtr.
 *
 * Side effects:
 *	Allocates the handle.
 *
 *----------------------------------------------------------------------
 */

typedef struct {
    VerbsCreateHead head;
    uint64_t cpu_id, ph, tph_mem_type;
} DmahArgs;

static int
AllocDmah(
    Tcl_Interp *interp,
    const DmahArgs *a,
    void **dmahPtr)
{
#ifdef HAVE_IBV_ALLOC_DMAH
    struct ibv_dmah_init_attr init;

    memset(&init, 0, sizeof(init));
    if (a->cpu_id != VERBS_NOT_GIVEN) {
	init.comp_mask |= IBV_DMAH_INIT_ATTR_MASK_CPU_ID;
	init.cpu_id = (uint32_t) a->cpu_id;
    }
    if (a->ph != VERBS_NOT_GIVEN) {
	init.comp_mask |= IBV_DMAH_INIT_ATTR_MASK_PH;
	init.ph = (uint8_t) a->ph;
    }
    if (a->tph_mem_type != VERBS_NOT_GIVEN) {
	init.comp_mask |= IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE;
	init.tph_mem_type = (uint8_t) a->tph_mem_type;
    }
    *dmahPtr = ibv_alloc_dmah(((VerbsContext *) a->head.parent)->ctx,
	    &init);
    if (*dmahPtr == NULL) {
	return VerbsSysError(interp, "ibv_alloc_dmah", a->head.parent, NULL,
		errno);
    }
    return TCL_OK;
#else
    (void) dmahPtr;
    return VerbsSysError(interp, "ibv_alloc_dmah", a->head.parent,
	    "needs rdma-core 59 or later", EOPNOTSUPP);
#endif
}

/*
 *----------------------------------------------------------------------
 *
 * DmahCreateCmd --
 *
 *	verbs::dmah create CONTEXT ?-cpu_id N? ?-ph N? ?-tph_mem_type
 *		vm|pm? ?-as NAME?
 *
 * Results:
 *	The dmah object command's name.
 *
 * Side effects:
 *	ibv_alloc_dmah.
 *
 *----------------------------------------------------------------------
 */

static int
DmahCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_MAX(DmahArgs, cpu_id, UINT32_MAX, "n"),
	VERBS_OPTION_MAX(DmahArgs, ph, UINT8_MAX, "n"),
	VERBS_OPTION(DmahArgs, tph_mem_type, VF_ENUM, tphMemTypes, "vm|pm"),
	VERBS_FIELD_END
    };
    DmahArgs args = {
	{NULL, NULL}, VERBS_NOT_GIVEN, VERBS_NOT_GIVEN, VERBS_NOT_GIVEN
    };
    Tcl_Obj *attrs;
    VerbsDmah *d;
    void *dmah = NULL;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &args,
	    &verbsContextClass) != TCL_OK
	    || AllocDmah(interp, &args, &dmah) != TCL_OK) {
	return TCL_ERROR;
    }
    d = (VerbsDmah *) VerbsObjWrap(interp, &verbsDmahClass,
	    offsetof(VerbsDmah, dmah), dmah, args.head.parent,
	    args.head.command);
    if (d == NULL) {
	return TCL_ERROR;
    }
    attrs = Tcl_NewDictObj();
    if (args.cpu_id != VERBS_NOT_GIVEN) {
	Tcl_DictObjPut(NULL, attrs, Tcl_NewStringObj("cpu_id", -1),
		Tcl_NewWideIntObj((Tcl_WideInt) args.cpu_id));
    }
    if (args.ph != VERBS_NOT_GIVEN) {
	Tcl_DictObjPut(NULL, attrs, Tcl_NewStringObj("ph", -1),
		Tcl_NewWideIntObj((Tcl_WideInt) args.ph));
    }
    if (args.tph_mem_type != VERBS_NOT_GIVEN) {
	Tcl_DictObjPut(NULL, attrs, Tcl_NewStringObj("tph_mem_type", -1),
		VerbsEnumObj(tphMemTypes, args.tph_mem_type));
    }
    Tcl_IncrRefCount(attrs);
    d->attrs = attrs;
    return TCL_OK;
}
