/*
 * mlx5PrmInt.h --
 *
 *	The shape of the generated PRM table (mlx5PrmTable.c, made by
 *	tools/mlx5prm/genprm.tcl) read by mlx5Prm.c.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#ifndef MLX5PRMINT_H_INCLUDED
#define MLX5PRMINT_H_INCLUDED

#include <stdint.h>

/*
 * A named field of a PRM struct.  Offsets and widths are in bits, big
 * endian as the device reads them; name is an offset into mlx5PrmNames.
 * count is 1 for a scalar, N for an array of N elements of width bits,
 * 0 for a flexible array at the end of its struct; type is the index in
 * mlx5PrmTypes of a nested struct or union, -1 for a number.
 */

typedef struct Mlx5PrmField {
    uint32_t name;
    uint32_t offset;
    uint32_t width;
    uint16_t count;
    int16_t type;
} Mlx5PrmField;

/*
 * A struct or union (mlx5_ifc_NAME_bits), sorted by name; its fields are
 * mlx5PrmFields[first .. first+nfields-1] in offset order.
 */

typedef struct Mlx5PrmType {
    uint32_t name;
    uint32_t bits;
    uint16_t first;
    uint16_t nfields;
    uint8_t isUnion;
} Mlx5PrmType;

/* A named number: an opcode, a general object type, a status. */

typedef struct Mlx5PrmName {
    uint32_t name;
    uint32_t value;
} Mlx5PrmName;

extern const char mlx5PrmNames[];
extern const Mlx5PrmType mlx5PrmTypes[];
extern const int mlx5PrmNumTypes;
extern const Mlx5PrmField mlx5PrmFields[];
extern const Mlx5PrmName mlx5PrmOpcodes[];
extern const int mlx5PrmNumOpcodes;
extern const Mlx5PrmName mlx5PrmObjTypes[];
extern const int mlx5PrmNumObjTypes;
extern const Mlx5PrmName mlx5PrmStatuses[];
extern const int mlx5PrmNumStatuses;

#endif /* MLX5PRMINT_H_INCLUDED */
