/*
 * mlx5Prm.h --
 *
 *	The mlx5 PRM (programmer's reference manual) layer: the command and
 *	context layouts of the kernel's mlx5_ifc.h as a table, so DevX
 *	command mailboxes are built from and read into Tcl dicts by field
 *	name, and the object references a command input holds are found
 *	without a device.  Shared by mlx5Prm.c (the Tcl commands mlx5::prm)
 *	and the DevX code.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#ifndef MLX5PRM_H_INCLUDED
#define MLX5PRM_H_INCLUDED

#include "verbs.h"

/* Size in bytes of mlx5_ifc_TYPE_bits ("create_cq_in"), or -1 if TYPE is unknown. */
MODULE_SCOPE int	Mlx5PrmSize(const char *type);

/* Pack DICT (nested dicts for nested structs) into TYPE's big-endian bytes, every field
 * not named zero. TCL_ERROR with a message naming the field and value, and errorCode
 * {VERBS ARG field-path value}, for unknown fields and values too wide. */
MODULE_SCOPE int	Mlx5PrmPack(Tcl_Interp *interp, const char *type,
			    Tcl_Obj *dictObj, Tcl_Obj **bytesPtr);

/* Bytes back to a nested dict (every named field). */
MODULE_SCOPE int	Mlx5PrmUnpack(Tcl_Interp *interp, const char *type,
			    const unsigned char *buf, Tcl_Size len,
			    Tcl_Obj **dictPtr);

/* Read one field by dotted path ("cq_context.uar_page"); 0 on success, -1 if the type or
 * path is unknown, the field is wider than 64 bits or BUF is too short. */
MODULE_SCOPE int	Mlx5PrmGet(const char *type, const char *path,
			    const unsigned char *buf, Tcl_Size len,
			    uint64_t *valuePtr);

/* Command name of an opcode ("create_cq"), or NULL; and the reverse (-1 if unknown). */
MODULE_SCOPE const char *Mlx5PrmOpcodeName(unsigned opcode);
MODULE_SCOPE int	Mlx5PrmOpcodeValue(const char *name);

/* The ifc type of a command input, from its opcode (and obj_type for general objects):
 * "create_cq_in", or NULL if unknown. */
MODULE_SCOPE const char *Mlx5PrmInputType(const unsigned char *in, Tcl_Size len);

/* The references a command input holds: a Tcl list of {path kind value} triples, kind one
 * of pd cq qp srq rq sq rqt tir tis uar umem eq flow_table flow_group transport_domain
 * counter mkey xrcd dct obj; value the number found (0 = none, not listed). */
MODULE_SCOPE int	Mlx5PrmRefs(Tcl_Interp *interp, const unsigned char *in,
			    Tcl_Size len, Tcl_Obj **listPtr);

/* The object a create command made: its kind (as above) and number, read from the output
 * (create_cq_out.cqn, create_qp_out.qpn, alloc_pd_out.pd, a general object's obj_id...).
 * 0 on success, -1 if the command creates nothing known. */
MODULE_SCOPE int	Mlx5PrmCreated(const unsigned char *in, Tcl_Size inLen,
			    const unsigned char *out, Tcl_Size outLen,
			    const char **kindPtr, uint32_t *idPtr);

/* A command output's status and syndrome (every mlx5 output starts with them), and the
 * status's name ("bad_param", ...; NULL if unknown). */
MODULE_SCOPE void	Mlx5PrmStatus(const unsigned char *out, Tcl_Size len,
			    unsigned *statusPtr, uint32_t *syndromePtr);
MODULE_SCOPE const char *Mlx5PrmStatusName(unsigned status);

/* Creates the mlx5::prm ensemble (called from Verbs_Init). */
MODULE_SCOPE int	Mlx5PrmInit(Tcl_Interp *interp);

#endif /* MLX5PRM_H_INCLUDED */
