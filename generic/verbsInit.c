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

#define VERBS_TYPE_ROW(T) &verbs##T##Class,

const VerbsType *const verbsTypes[] = {
    VERBS_TYPES(VERBS_TYPE_ROW)
    NULL
};

#define VERBS_PROVIDER_ROW(N, name) &verbs##N##Provider,

const VerbsProvider *const verbsProviders[] = {
    VERBS_PROVIDERS(VERBS_PROVIDER_ROW)
    NULL
};

/*
 *----------------------------------------------------------------------
 *
 * AddCommands --
 *
 *	Put a type's commands into the namespace of its ensemble,
 *	::verbs::ENSEMBLE ("create" of verbs::pd, "id" of verbs::cm).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Creates the namespace (when new) and the commands.
 *
 *----------------------------------------------------------------------
 */

static int
AddCommands(
    Tcl_Interp *interp,
    const VerbsType *typePtr)
{
    const char *ens = typePtr->ensemble ? typePtr->ensemble : typePtr->name;
    Tcl_Obj *nsName = Tcl_ObjPrintf("::verbs::%s", ens);
    const VerbsCommand *c;
    int result = TCL_ERROR;

    Tcl_IncrRefCount(nsName);
    if (Tcl_FindNamespace(interp, Tcl_GetString(nsName), NULL, 0) == NULL
	    && Tcl_CreateNamespace(interp, Tcl_GetString(nsName), NULL, NULL)
	    == NULL) {
	goto done;
    }
    for (c = typePtr->commands; c->name; c++) {
	Tcl_Obj *cmdName = Tcl_ObjPrintf("%s::%s", Tcl_GetString(nsName),
		c->name);

	Tcl_IncrRefCount(cmdName);
	Tcl_CreateObjCommand(interp, Tcl_GetString(cmdName), c->proc, NULL,
		NULL);
	Tcl_DecrRefCount(cmdName);
    }
    result = TCL_OK;
  done:
    Tcl_DecrRefCount(nsName);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * MakeEnsemble --
 *
 *	Make the namespace NS an ensemble command of the same name over
 *	all its commands (unique prefixes work, as they do for object
 *	subcommands), and export it from its parent when asked.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Creates the ensemble command.
 *
 *----------------------------------------------------------------------
 */

static int
MakeEnsemble(
    Tcl_Interp *interp,
    const char *ns,
    Tcl_Namespace *exportFrom)
{
    Tcl_Namespace *nsPtr = Tcl_FindNamespace(interp, ns, NULL, 0);

    if (nsPtr == NULL || Tcl_Export(interp, nsPtr, "*", 0) != TCL_OK
	    || Tcl_CreateEnsemble(interp, ns, nsPtr, TCL_ENSEMBLE_PREFIX)
	    == NULL) {
	return TCL_ERROR;
    }
    if (exportFrom) {
	return Tcl_Export(interp, exportFrom, nsPtr->name, 0);
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Verbs_Init --
 *
 *	Package entry point.  Every type with commands gets its
 *	ensemble (verbs::pd, verbs::cm, ...); they and the plain commands
 *	are exported from ::verbs, which is itself an ensemble, so
 *	[verbs pd create ...] and [verbs::pd create ...] are the same.
 *	Objects live in ::verbs::obj, which exports nothing.  Then each
 *	provider (VERBS_PROVIDERS) adds its own commands.
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
    static const VerbsCommand plain[] = {
	{"devices", VerbsDevicesCmd}, {"fork_init", VerbsForkInitCmd},
	{"fork_status", VerbsForkStatusCmd}, {"objects", VerbsObjectsCmd},
	{"send_burst", VerbsSendBurstCmd}, {NULL, NULL}
    };
    const VerbsType *const *t;
    const VerbsProvider *const *p;
    const VerbsCommand *c;
    Tcl_Namespace *verbsNs;

    if (Tcl_InitStubs(interp, "8.6-10", 0) == NULL) {
	return TCL_ERROR;
    }
    VerbsStateInit(interp);
    verbsNs = Tcl_CreateNamespace(interp, "::verbs", NULL, NULL);
    if (verbsNs == NULL || VerbsObjNamespace(interp) == NULL) {
	return TCL_ERROR;
    }
    for (t = verbsTypes; *t; t++) {
	if ((*t)->commands && AddCommands(interp, *t) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    for (t = verbsTypes; *t; t++) {
	const char *ens = (*t)->ensemble ? (*t)->ensemble : (*t)->name;
	Tcl_Obj *nsName;
	int result;

	if ((*t)->commands == NULL) {
	    continue;
	}
	nsName = Tcl_ObjPrintf("::verbs::%s", ens);
	Tcl_IncrRefCount(nsName);
	result = Tcl_FindCommand(interp, Tcl_GetString(nsName), NULL, 0)
		? TCL_OK : MakeEnsemble(interp, Tcl_GetString(nsName),
		verbsNs);
	Tcl_DecrRefCount(nsName);
	if (result != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    for (c = plain; c->name; c++) {
	Tcl_Obj *cmdName = Tcl_ObjPrintf("::verbs::%s", c->name);

	Tcl_IncrRefCount(cmdName);
	Tcl_CreateObjCommand(interp, Tcl_GetString(cmdName), c->proc, NULL,
		NULL);
	Tcl_DecrRefCount(cmdName);
	if (Tcl_Export(interp, verbsNs, c->name, 0) != TCL_OK) {
	    return TCL_ERROR;
	}
    }

    /*
     * The ensemble over ::verbs follows its export list, which the Tcl
     * part of the package (library/verbs.tcl) extends with its helpers.
     */

    if (Tcl_CreateEnsemble(interp, "::verbs", verbsNs, TCL_ENSEMBLE_PREFIX)
	    == NULL) {
	return TCL_ERROR;
    }
    for (p = verbsProviders; *p; p++) {
	if ((*p)->init(interp) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    return Tcl_PkgProvide(interp, PACKAGE_NAME, PACKAGE_VERSION);
}

/*
 *----------------------------------------------------------------------
 *
 * Verbs_SafeInit --
 *
 *	RDMA hands out raw memory access to other hosts: no safe
 *	interpreter gets it.  This may be the first call of the library
 *	in the process (a safe interpreter loading it before any trusted
 *	one did), so it sets up the stubs table before it calls Tcl.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the result and the errorCode {VERBS SAFE}.
 *
 *----------------------------------------------------------------------
 */

VERBS_EXPORT int
Verbs_SafeInit(
    Tcl_Interp *interp)
{
    if (Tcl_InitStubs(interp, "8.6-10", 0) == NULL) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, Tcl_NewStringObj(
	    "the verbs package cannot be loaded into a safe interpreter", -1));
    Tcl_SetErrorCode(interp, "VERBS", "SAFE", NULL);
    return TCL_ERROR;
}
