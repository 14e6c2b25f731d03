/*
 * verbsInit.c --
 *
 *	Package initialisation: the ::verbs namespace, its ensembles and
 *	plain commands.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"

typedef struct EnsembleCmd {
    const char *name;
    Tcl_ObjCmdProc *proc;
} EnsembleCmd;

typedef struct Ensemble {
    const char *name;		/* ::verbs::NAME */
    const EnsembleCmd *cmds;
} Ensemble;

static const EnsembleCmd contextCmds[] = {
    {"open", VerbsContextOpenCmd}, {NULL, NULL}
};
static const EnsembleCmd pdCmds[] = {
    {"create", VerbsPdCreateCmd}, {NULL, NULL}
};
static const EnsembleCmd mrCmds[] = {
    {"create", VerbsMrCreateCmd}, {NULL, NULL}
};
static const EnsembleCmd mwCmds[] = {
    {"create", VerbsMwCreateCmd}, {NULL, NULL}
};
static const EnsembleCmd cqCmds[] = {
    {"create", VerbsCqCreateCmd}, {NULL, NULL}
};
static const EnsembleCmd qpCmds[] = {
    {"create", VerbsQpCreateCmd}, {NULL, NULL}
};
static const EnsembleCmd ahCmds[] = {
    {"create", VerbsAhCreateCmd}, {NULL, NULL}
};
static const EnsembleCmd srqCmds[] = {
    {"create", VerbsSrqCreateCmd}, {NULL, NULL}
};
static const EnsembleCmd cmCmds[] = {
    {"channel", VerbsCmChannelCmd}, {"id", VerbsCmIdCmd}, {NULL, NULL}
};
static const EnsembleCmd channelCmds[] = {
    {"create", VerbsChannelCreateCmd}, {NULL, NULL}
};

static const Ensemble ensembles[] = {
    {"context", contextCmds},
    {"pd", pdCmds},
    {"mr", mrCmds},
    {"mw", mwCmds},
    {"cq", cqCmds},
    {"qp", qpCmds},
    {"ah", ahCmds},
    {"channel", channelCmds},
    {"srq", srqCmds},
    {"cm", cmCmds},
    {NULL, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * CreateEnsemble --
 *
 *	Make ::verbs::NAME an ensemble over the commands in the namespace
 *	of the same name.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Creates a namespace, its commands and the ensemble command.
 *
 *----------------------------------------------------------------------
 */

static int
CreateEnsemble(
    Tcl_Interp *interp,
    const Ensemble *ens)
{
    Tcl_Namespace *nsPtr;
    Tcl_Obj *nsName = Tcl_ObjPrintf("::verbs::%s", ens->name);
    const EnsembleCmd *c;
    int result = TCL_ERROR;

    Tcl_IncrRefCount(nsName);
    nsPtr = Tcl_CreateNamespace(interp, Tcl_GetString(nsName), NULL, NULL);
    if (nsPtr == NULL) {
	goto done;
    }
    for (c = ens->cmds; c->name; c++) {
	Tcl_Obj *cmdName = Tcl_ObjPrintf("%s::%s", Tcl_GetString(nsName),
		c->name);

	Tcl_IncrRefCount(cmdName);
	Tcl_CreateObjCommand(interp, Tcl_GetString(cmdName), c->proc, NULL,
		NULL);
	Tcl_DecrRefCount(cmdName);
    }
    /* Unique prefixes work, as they do for object subcommands. */
    if (Tcl_Export(interp, nsPtr, "*", 0) != TCL_OK
	    || Tcl_CreateEnsemble(interp, Tcl_GetString(nsName), nsPtr,
	    TCL_ENSEMBLE_PREFIX) == NULL) {
	goto done;
    }
    result = TCL_OK;
  done:
    Tcl_DecrRefCount(nsName);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * Verbs_Init --
 *
 *	Package entry point.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Creates the ::verbs commands and provides the package.
 *
 *----------------------------------------------------------------------
 */

VERBS_EXPORT int
Verbs_Init(
    Tcl_Interp *interp)
{
    const Ensemble *ens;

    if (Tcl_InitStubs(interp, "8.6-10", 0) == NULL) {
	return TCL_ERROR;
    }
    VerbsStateInit(interp);
    for (ens = ensembles; ens->name; ens++) {
	if (CreateEnsemble(interp, ens) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    Tcl_CreateObjCommand(interp, "::verbs::devices", VerbsDevicesCmd, NULL,
	    NULL);
    Tcl_CreateObjCommand(interp, "::verbs::objects", VerbsObjectsCmd, NULL,
	    NULL);
    return Tcl_PkgProvide(interp, PACKAGE_NAME, PACKAGE_VERSION);
}

/*
 *----------------------------------------------------------------------
 *
 * Verbs_SafeInit --
 *
 *	RDMA hands out raw memory access to other hosts: no safe
 *	interpreter gets it.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the result.
 *
 *----------------------------------------------------------------------
 */

VERBS_EXPORT int
Verbs_SafeInit(
    Tcl_Interp *interp)
{
    Tcl_SetObjResult(interp, Tcl_NewStringObj(
	    "the verbs package cannot be loaded into a safe interpreter", -1));
    Tcl_SetErrorCode(interp, "VERBS", "SAFE", NULL);
    return TCL_ERROR;
}
