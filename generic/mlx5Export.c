/*
 * mlx5Export.c --
 *
 *	Sharing DevX objects, UMEMs and VARs between processes (rdma-core
 *	63): [$obj export] their attributes as bytes, and [mlx5::devx obj
 *	import], [mlx5::devx umem import], [mlx5::var import] them on a
 *	context that shares the kernel's objects (verbs::context import);
 *	an imported object is unimported, not destroyed, when closed.
 *	[mlx5::devx export_sizes] gives the sizes of those bytes, and
 *	[$uar export_dmabuf_fd] a UAR as a dma-buf (rdma-core 62).  Built
 *	against an older rdma-core each refuses with "needs rdma-core N or
 *	later".
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5.h"
#include <errno.h>
#include <string.h>

#ifdef HAVE_MLX5DV_DEVX_OBJ_EXPORT
#define NEEDS_63(call, obj) ((void) 0)
#else
#define NEEDS_63(call, obj) \
    return VerbsSysError(interp, call, obj, "needs rdma-core 63 or later", \
	    EOPNOTSUPP)
#endif

enum { EX_DEVX, EX_UMEM, EX_VAR };

/*
 *----------------------------------------------------------------------
 *
 * Mlx5Unimport --
 *
 *	Let go of an imported object's handle (mlx5dv_devx_obj_unimport,
 *	_umem_unimport, mlx5dv_var_unimport): the kernel's object stays,
 *	its exporter's.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Frees the handle.
 *
 *----------------------------------------------------------------------
 */

void
Mlx5Unimport(
    int kind,			/* EX_DEVX, EX_UMEM or EX_VAR. */
    void *handle)
{
#ifdef HAVE_MLX5DV_DEVX_OBJ_EXPORT
    switch (kind) {
    case EX_DEVX:
	mlx5dv_devx_obj_unimport((struct mlx5dv_devx_obj *) handle);
	break;
    case EX_UMEM:
	mlx5dv_devx_umem_unimport((struct mlx5dv_devx_umem *) handle);
	break;
    default:
	mlx5dv_var_unimport((struct mlx5dv_var *) handle);
	break;
    }
#else
    (void) kind;
    (void) handle;		/* Nothing is imported without it. */
#endif
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5Export --
 *
 *	$devx export, $umem export, $var export: the object's attributes
 *	as bytes for an importer (mlx5dv_devx_obj_export, _umem_export,
 *	mlx5dv_var_export).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5Export(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    int kind = objPtr->typePtr == &verbsDevxClass ? EX_DEVX
	    : objPtr->typePtr == &verbsUmemClass ? EX_UMEM : EX_VAR;
    const char *call = kind == EX_DEVX ? "mlx5dv_devx_obj_export"
	    : kind == EX_UMEM ? "mlx5dv_devx_umem_export" : "mlx5dv_var_export";

    NEEDS_63(call, objPtr);
#ifdef HAVE_MLX5DV_DEVX_OBJ_EXPORT
    if (Mlx5IsVfio(Mlx5ContextOf(objPtr))) {
	/*
	 * libmlx5 reads the kernel's handle of the object, which a VFIO
	 * context's (made without the kernel) does not have: it would
	 * export garbage.
	 */

	return VerbsSysError(interp, call, objPtr, "a VFIO context's objects "
		"are not the kernel's to share", EOPNOTSUPP);
    }
    {
	struct mlx5dv_export_sizes sizes;
	Tcl_Obj *result = Tcl_NewByteArrayObj(NULL, 0);
	unsigned char *data;
	uint32_t size;
	int err;

	memset(&sizes, 0, sizeof(sizes));
	mlx5dv_get_export_sizes(&sizes);
	size = kind == EX_DEVX ? sizes.devx_obj_attrs_size : kind == EX_UMEM
		? sizes.devx_umem_attrs_size : sizes.var_attrs_size;
	data = Tcl_SetByteArrayLength(result, (Tcl_Size) size);
	memset(data, 0, size);
	err = kind == EX_DEVX
		? mlx5dv_devx_obj_export(((Mlx5Devx *) objPtr)->devx, data)
		: kind == EX_UMEM
		? mlx5dv_devx_umem_export(((Mlx5Umem *) objPtr)->umem, data)
		: mlx5dv_var_export(((Mlx5Var *) objPtr)->var, data);
	if (err) {
	    Tcl_DecrRefCount(result);
	    return VerbsSysError(interp, call, objPtr, NULL, err);
	}
	Tcl_SetObjResult(interp, result);
	return TCL_OK;
    }
#endif
}

/*
 *----------------------------------------------------------------------
 *
 * ImportCmd --
 *
 *	mlx5::devx obj import CONTEXT BYTES ?-as NAME?
 *	mlx5::devx umem import CONTEXT BYTES ?-as NAME?
 *	mlx5::var import CONTEXT BYTES ?-as NAME?
 *	The object another context exported (mlx5dv_devx_obj_import,
 *	_umem_import, mlx5dv_var_import), a devx, umem or var object of
 *	the context that its close unimports.
 *
 * Results:
 *	The object command's name.
 *
 * Side effects:
 *	Imports.
 *
 *----------------------------------------------------------------------
 */

static int
ImportCmd(
    ClientData clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND, VERBS_FIELD_END
    };
    int kind = (int) (uintptr_t) clientData;
    const char *call = kind == EX_DEVX ? "mlx5dv_devx_obj_import"
	    : kind == EX_UMEM ? "mlx5dv_devx_umem_import" : "mlx5dv_var_import";
    VerbsCreateHead head = {NULL, NULL};
    VerbsContext *c;
    Tcl_Size len;
    const unsigned char *data;

    if (VerbsCreateArgs(interp, objc, objv, "context bytes", options, &head,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) head.parent;
    data = VerbsGetBytes(interp, "bytes", objv[2], &len);
    if (data == NULL) {
	return TCL_ERROR;
    }
    if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, call, c);
    }
    NEEDS_63(call, &c->obj);
#ifdef HAVE_MLX5DV_DEVX_OBJ_EXPORT
    {
	/* libmlx5 reads its own layout: a copy of at least that size. */
	struct mlx5dv_export_sizes sizes;
	unsigned char *copy;
	void *handle;
	VerbsObj *o;
	uint32_t need;

	memset(&sizes, 0, sizeof(sizes));
	mlx5dv_get_export_sizes(&sizes);
	need = kind == EX_DEVX ? sizes.devx_obj_attrs_size : kind == EX_UMEM
		? sizes.devx_umem_attrs_size : sizes.var_attrs_size;
	if ((Tcl_Size) need != len) {
	    return VerbsArgError(interp, "bytes", NULL, "exported attributes "
		    "are %u bytes here, not %" TCL_SIZE_MODIFIER "d", need,
		    len);
	}
	copy = (unsigned char *) ckalloc(need);
	memcpy(copy, data, need);
	if (kind == EX_DEVX) {
	    handle = mlx5dv_devx_obj_import(c->ctx, copy);
	} else if (kind == EX_UMEM) {
	    handle = mlx5dv_devx_umem_import(c->ctx, copy);
	} else {
	    handle = mlx5dv_var_import(c->ctx, copy);
	}
	ckfree(copy);
	if (handle == NULL) {
	    return VerbsSysError(interp, call, &c->obj, NULL,
		    errno ? errno : EINVAL);
	}
	o = VerbsObjNew(kind == EX_DEVX ? &verbsDevxClass : kind == EX_UMEM
		? &verbsUmemClass : &verbsVarClass);
	switch (kind) {
	case EX_DEVX:
	    ((Mlx5Devx *) o)->devx = handle;
	    ((Mlx5Devx *) o)->imported = 1;
	    break;
	case EX_UMEM:
	    ((Mlx5Umem *) o)->umem = handle;
	    ((Mlx5Umem *) o)->imported = 1;
	    break;
	default:
	    ((Mlx5Var *) o)->var = handle;
	    ((Mlx5Var *) o)->imported = 1;
	    break;
	}
	return VerbsObjAdopt(interp, o, &c->obj, head.command);
    }
#endif
}

/*
 *----------------------------------------------------------------------
 *
 * ExportSizesCmd, Mlx5UarExportDmabuf --
 *
 *	mlx5::devx export_sizes: {var_attrs_size N devx_umem_attrs_size N
 *	devx_obj_attrs_size N} (mlx5dv_get_export_sizes).
 *	$uar export_dmabuf_fd: a dma-buf fd of the UAR's page
 *	(mlx5dv_devx_uar_export_dmabuf_fd), the caller's to close.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	export_dmabuf_fd opens a file descriptor.
 *
 *----------------------------------------------------------------------
 */

static int
ExportSizesCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    if (objc != 1) {
	Tcl_WrongNumArgs(interp, 1, objv, NULL);
	return TCL_ERROR;
    }
    NEEDS_63("mlx5dv_get_export_sizes", NULL);
#ifdef HAVE_MLX5DV_DEVX_OBJ_EXPORT
    {
	struct mlx5dv_export_sizes s;

	memset(&s, 0, sizeof(s));
	mlx5dv_get_export_sizes(&s);
	Tcl_SetObjResult(interp, Tcl_ObjPrintf("var_attrs_size %u "
		"devx_umem_attrs_size %u devx_obj_attrs_size %u",
		s.var_attrs_size, s.devx_umem_attrs_size,
		s.devx_obj_attrs_size));
	return TCL_OK;
    }
#endif
}

int
Mlx5UarExportDmabuf(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
#ifdef HAVE_MLX5DV_DEVX_UAR_EXPORT_DMABUF_FD
    int fd = mlx5dv_devx_uar_export_dmabuf_fd(((Mlx5Uar *) objPtr)->uar);

    if (fd < 0) {
	return VerbsSysError(interp, "mlx5dv_devx_uar_export_dmabuf_fd",
		objPtr, NULL, errno ? errno : -fd);
    }
    Tcl_SetObjResult(interp, Tcl_NewIntObj(fd));
    return TCL_OK;
#else
    return VerbsSysError(interp, "mlx5dv_devx_uar_export_dmabuf_fd", objPtr,
	    "needs rdma-core 62 or later", EOPNOTSUPP);
#endif
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5ExportInit --
 *
 *	The commands of this file.
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
Mlx5ExportInit(
    Tcl_Interp *interp)
{
    Mlx5AddCommandData(interp, "devx::obj::import", ImportCmd,
	    (ClientData) (uintptr_t) EX_DEVX);
    Mlx5AddCommandData(interp, "devx::umem::import", ImportCmd,
	    (ClientData) (uintptr_t) EX_UMEM);
    Mlx5AddCommandData(interp, "var::import", ImportCmd,
	    (ClientData) (uintptr_t) EX_VAR);
    Mlx5AddCommand(interp, "devx::export_sizes", ExportSizesCmd);
    return TCL_OK;
}
