/*
 * mlx5Prm.c --
 *
 *	The mlx5 PRM layer: DevX command mailboxes built from Tcl dicts by
 *	ifc field name and read back into dicts, through the table that
 *	tools/mlx5prm/genprm.tcl generates from the kernel's mlx5_ifc.h
 *	(mlx5PrmTable.c); the object references a command input holds (the
 *	reference table below); the mlx5::prm ensemble.  Works without a
 *	device.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5Prm.h"
#include "mlx5PrmInt.h"
#include <string.h>
#include <inttypes.h>

#define NAME(off)	(mlx5PrmNames + (off))
#define TYPE_NAME(t)	NAME(mlx5PrmTypes[t].name)

/*
 * A buffer being packed: flexible arrays at the end of the top type
 * extend it.
 */

typedef struct PackBuf {
    unsigned char *buf;
    size_t len;			/* Bytes in use (at least the type size). */
    size_t cap;
    size_t topBits;		/* The size of the top type in bits. */
    const char *topName;
} PackBuf;

/*
 *----------------------------------------------------------------------
 *
 * FindType --
 *
 *	Binary search of the type table (sorted by name).
 *
 * Results:
 *	The type's index, or -1.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
FindType(
    const char *name)
{
    int lo = 0, hi = mlx5PrmNumTypes - 1;

    while (lo <= hi) {
	int mid = (lo + hi) / 2;
	int cmp = strcmp(name, TYPE_NAME(mid));

	if (cmp == 0) {
	    return mid;
	}
	if (cmp < 0) {
	    hi = mid - 1;
	} else {
	    lo = mid + 1;
	}
    }
    return -1;
}

/*
 *----------------------------------------------------------------------
 *
 * FindField --
 *
 *	A named field of a type, the first NAMELEN bytes of NAME (or all
 *	of it when NAMELEN is negative).
 *
 * Results:
 *	The field, or NULL.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static const Mlx5PrmField *
FindField(
    int type,
    const char *name,
    int nameLen)
{
    const Mlx5PrmType *t = &mlx5PrmTypes[type];
    int i;

    if (nameLen < 0) {
	nameLen = (int) strlen(name);
    }
    for (i = 0; i < t->nfields; i++) {
	const Mlx5PrmField *f = &mlx5PrmFields[t->first + i];
	const char *fname = NAME(f->name);

	if (strncmp(fname, name, (size_t) nameLen) == 0
		&& fname[nameLen] == '\0') {
	    return f;
	}
    }
    return NULL;
}

/*
 *----------------------------------------------------------------------
 *
 * GetBits, SetBits --
 *
 *	Read or write WIDTH bits at bit offset OFF of a big-endian buffer
 *	(bit 0 is the most significant bit of byte 0, as in the PRM).
 *	GetBits reads at most 64 bits; SetBits writes the value VAL, a
 *	big-endian number of VALLEN bytes (right-aligned).
 *
 * Results:
 *	GetBits: the value.
 *
 * Side effects:
 *	SetBits changes the buffer.
 *
 *----------------------------------------------------------------------
 */

static uint64_t
GetBits(
    const unsigned char *buf,
    size_t off,
    unsigned width)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < width; i++) {
	size_t pos = off + i;

	v = (v << 1) | ((buf[pos / 8] >> (7 - pos % 8)) & 1);
    }
    return v;
}

static void
SetBits(
    unsigned char *buf,
    size_t off,
    unsigned width,
    const unsigned char *val,
    size_t valLen)
{
    unsigned i;

    for (i = 0; i < width; i++) {
	size_t pos = off + i;
	size_t k = width - 1 - i;	/* The value's bit, from its LSB. */
	int bit = k / 8 < valLen ? (val[valLen - 1 - k / 8] >> (k % 8)) & 1
		: 0;
	unsigned char mask = (unsigned char) (0x80 >> (pos % 8));

	if (bit) {
	    buf[pos / 8] |= mask;
	} else {
	    buf[pos / 8] &= (unsigned char) ~mask;
	}
    }
}

/*
 *----------------------------------------------------------------------
 *
 * ParseNumber --
 *
 *	Parse a non-negative number written in decimal or 0x hex (of any
 *	length) into a big-endian buffer of NBYTES bytes, and check that
 *	it fits WIDTH bits.
 *
 * Results:
 *	0 when it fits, 1 when the text is not such a number, 2 when it
 *	is too wide.
 *
 * Side effects:
 *	Fills OUT.
 *
 *----------------------------------------------------------------------
 */

static int
ParseNumber(
    const char *s,
    unsigned char *out,
    size_t nbytes,
    unsigned width)
{
    size_t len, i;
    int tooWide = 0;

    while (*s == ' ' || *s == '\t' || *s == '\n') {
	s++;
    }
    len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'
	    || s[len - 1] == '\n')) {
	len--;
    }
    if (len > 0 && s[0] == '+') {
	s++;
	len--;
    }
    memset(out, 0, nbytes);
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
	size_t nib = 0;

	for (i = len; i > 2; i--, nib++) {
	    int c = (unsigned char) s[i - 1], d;

	    if (c >= '0' && c <= '9') {
		d = c - '0';
	    } else if (c >= 'a' && c <= 'f') {
		d = c - 'a' + 10;
	    } else if (c >= 'A' && c <= 'F') {
		d = c - 'A' + 10;
	    } else {
		return 1;
	    }
	    if (d == 0) {
		continue;
	    }
	    if (nib / 2 >= nbytes) {
		tooWide = 1;
		continue;
	    }
	    out[nbytes - 1 - nib / 2] |= (unsigned char) (d << (4 * (nib % 2)));
	}
    } else {
	if (len == 0) {
	    return 1;
	}
	for (i = 0; i < len; i++) {
	    unsigned carry;
	    size_t j;

	    if (s[i] < '0' || s[i] > '9') {
		return 1;
	    }
	    carry = (unsigned) (s[i] - '0');
	    for (j = nbytes; j > 0; j--) {
		unsigned v = out[j - 1] * 10u + carry;

		out[j - 1] = (unsigned char) (v & 0xff);
		carry = v >> 8;
	    }
	    if (carry) {
		tooWide = 1;
	    }
	}
    }
    if (tooWide) {
	return 2;
    }
    if (width < nbytes * 8) {
	size_t excess = nbytes * 8 - width;	/* Bits above the width. */

	for (i = 0; i < excess; i++) {
	    if ((out[i / 8] >> (7 - i % 8)) & 1) {
		return 2;
	    }
	}
    }
    return 0;
}

/*
 *----------------------------------------------------------------------
 *
 * PathOf --
 *
 *	The dotted path of a field under PREFIX ("" at the top).
 *
 * Results:
 *	A new Tcl_Obj (refcount 0).
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static Tcl_Obj *
PathOf(
    const char *prefix,
    const char *name)
{
    return *prefix ? Tcl_ObjPrintf("%s.%s", prefix, name)
	    : Tcl_NewStringObj(name, -1);
}

/*
 *----------------------------------------------------------------------
 *
 * PackEnsure --
 *
 *	Grow a pack buffer (zero-filled) to hold BITS bits.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	May reallocate the buffer.
 *
 *----------------------------------------------------------------------
 */

static void
PackEnsure(
    PackBuf *pb,
    size_t bits)
{
    size_t need = (bits + 7) / 8;

    if (need <= pb->len) {
	return;
    }
    if (need > pb->cap) {
	size_t cap = pb->cap ? pb->cap : 64;

	while (cap < need) {
	    cap *= 2;
	}
	pb->buf = (unsigned char *) ckrealloc(pb->buf, cap);
	pb->cap = cap;
    }
    memset(pb->buf + pb->len, 0, need - pb->len);
    pb->len = need;
}

static int PackType(Tcl_Interp *interp, PackBuf *pb, int type, size_t base,
	Tcl_Obj *dictObj, const char *path);

/*
 *----------------------------------------------------------------------
 *
 * PackScalar --
 *
 *	Pack one element of a field: a nested dict for a struct or union,
 *	a number otherwise (command opcodes and general object types also
 *	by name).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Writes the buffer; an error message and errorCode.
 *
 *----------------------------------------------------------------------
 */

static int
PackScalar(
    Tcl_Interp *interp,
    PackBuf *pb,
    const Mlx5PrmField *f,
    size_t off,
    Tcl_Obj *valueObj,
    const char *path)
{
    unsigned char small[8], *val;
    size_t nbytes = (f->width + 7) / 8;
    const char *s;
    int r;

    if (f->type >= 0) {
	return PackType(interp, pb, f->type, off, valueObj, path);
    }
    s = Tcl_GetString(valueObj);
    val = nbytes <= sizeof(small) ? small : (unsigned char *) ckalloc(nbytes);
    r = ParseNumber(s, val, nbytes, f->width);
    if (r == 1) {
	int named = -1;
	const char *fname = NAME(f->name);

	if (strcmp(fname, "opcode") == 0) {
	    named = Mlx5PrmOpcodeValue(s);
	} else if (strcmp(fname, "obj_type") == 0) {
	    int i;

	    for (i = 0; i < mlx5PrmNumObjTypes; i++) {
		if (strcmp(s, NAME(mlx5PrmObjTypes[i].name)) == 0) {
		    named = (int) mlx5PrmObjTypes[i].value;
		}
	    }
	}
	if (named >= 0) {
	    char text[16];

	    snprintf(text, sizeof(text), "%d", named);
	    r = ParseNumber(text, val, nbytes, f->width);
	}
    }
    if (r == 1) {
	VerbsArgError(interp, path, valueObj, "expected a number (decimal or"
		" 0x hex) for %s of %s but got \"%s\"", path, pb->topName, s);
    } else if (r == 2) {
	VerbsArgError(interp, path, valueObj, "value %s is too wide for %s"
		" (%u bits) of %s", s, path, (unsigned) f->width, pb->topName);
    } else {
	SetBits(pb->buf, off, f->width, val, nbytes);
    }
    if (val != small) {
	ckfree(val);
    }
    return r ? TCL_ERROR : TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PackType --
 *
 *	Pack a dict of fields of TYPE at bit offset BASE.  An array takes a
 *	list (of numbers or dicts); a flexible array at the end of the top
 *	type takes any number of elements and extends the buffer.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Writes the buffer; an error message and errorCode.
 *
 *----------------------------------------------------------------------
 */

static int
PackType(
    Tcl_Interp *interp,
    PackBuf *pb,
    int type,
    size_t base,
    Tcl_Obj *dictObj,
    const char *path)
{
    Tcl_DictSearch search;
    Tcl_Obj *keyObj, *valueObj;
    int done, result = TCL_OK;

    if (Tcl_DictObjFirst(NULL, dictObj, &search, &keyObj, &valueObj, &done)
	    != TCL_OK) {
	return VerbsArgError(interp, *path ? path : TYPE_NAME(type), dictObj,
		"expected a dict of %s fields for %s but got \"%s\"",
		TYPE_NAME(type), *path ? path : pb->topName,
		Tcl_GetString(dictObj));
    }
    for (; !done && result == TCL_OK;
	    Tcl_DictObjNext(&search, &keyObj, &valueObj, &done)) {
	const char *key = Tcl_GetString(keyObj);
	const Mlx5PrmField *f = FindField(type, key, -1);
	Tcl_Obj *sub = PathOf(path, key);
	size_t off;

	Tcl_IncrRefCount(sub);
	if (f == NULL) {
	    result = VerbsArgError(interp, Tcl_GetString(sub), valueObj,
		    "%s has no field \"%s\" (value \"%s\")", pb->topName,
		    Tcl_GetString(sub), Tcl_GetString(valueObj));
	    goto next;
	}
	off = base + f->offset;
	if (f->count == 1) {
	    result = PackScalar(interp, pb, f, off, valueObj,
		    Tcl_GetString(sub));
	} else {
	    Tcl_Size n, i;
	    Tcl_Obj **elems;

	    if (Tcl_ListObjGetElements(NULL, valueObj, &n, &elems) != TCL_OK) {
		result = VerbsArgError(interp, Tcl_GetString(sub), valueObj,
			"expected a list for the array %s of %s but got"
			" \"%s\"", Tcl_GetString(sub), pb->topName,
			Tcl_GetString(valueObj));
		goto next;
	    }
	    if (f->count > 1 && n > f->count) {
		result = VerbsArgError(interp, Tcl_GetString(sub), valueObj,
			"%" TCL_SIZE_MODIFIER "d elements are too many for %s"
			" of %s (at most %u)", n, Tcl_GetString(sub),
			pb->topName, (unsigned) f->count);
		goto next;
	    }
	    if (f->count == 0) {
		if (off != pb->topBits) {
		    result = VerbsArgError(interp, Tcl_GetString(sub),
			    valueObj, "the flexible array %s is not at the"
			    " end of %s", Tcl_GetString(sub), pb->topName);
		    goto next;
		}
		PackEnsure(pb, off + (size_t) n * f->width);
	    }
	    for (i = 0; i < n && result == TCL_OK; i++) {
		Tcl_Obj *ePath = Tcl_ObjPrintf("%s.%" TCL_SIZE_MODIFIER "d",
			Tcl_GetString(sub), i);

		Tcl_IncrRefCount(ePath);
		result = PackScalar(interp, pb, f, off + (size_t) i * f->width,
			elems[i], Tcl_GetString(ePath));
		Tcl_DecrRefCount(ePath);
	    }
	}
      next:
	Tcl_DecrRefCount(sub);
    }
    Tcl_DictObjDone(&search);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5PrmSize --
 *
 *	The size of a PRM type in bytes.
 *
 * Results:
 *	Bytes, or -1 if TYPE is unknown.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5PrmSize(
    const char *type)
{
    int t = FindType(type);

    return t < 0 ? -1 : (int) (mlx5PrmTypes[t].bits / 8);
}

/*
 *----------------------------------------------------------------------
 *
 * UnknownType --
 *
 *	The error for a type name that is not in the table.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Error message and errorCode {VERBS ARG type NAME}.
 *
 *----------------------------------------------------------------------
 */

static int
UnknownType(
    Tcl_Interp *interp,
    const char *type)
{
    Tcl_Obj *nameObj = Tcl_NewStringObj(type, -1);
    int r;

    Tcl_IncrRefCount(nameObj);
    r = VerbsArgError(interp, "type", nameObj, "unknown PRM type \"%s\":"
	    " see mlx5::prm types", type);
    Tcl_DecrRefCount(nameObj);
    return r;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5PrmPack --
 *
 *	Pack a (nested) dict of fields into TYPE's bytes.
 *
 * Results:
 *	A standard Tcl result; *bytesPtr a new byte array (refcount 0).
 *
 * Side effects:
 *	Error message and errorCode {VERBS ARG path value} on bad input.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5PrmPack(
    Tcl_Interp *interp,
    const char *type,
    Tcl_Obj *dictObj,
    Tcl_Obj **bytesPtr)
{
    int t = FindType(type);
    PackBuf pb;
    int result;

    if (t < 0) {
	return UnknownType(interp, type);
    }
    memset(&pb, 0, sizeof(pb));
    pb.topBits = mlx5PrmTypes[t].bits;
    pb.topName = TYPE_NAME(t);
    PackEnsure(&pb, pb.topBits);
    result = PackType(interp, &pb, t, 0, dictObj, "");
    if (result == TCL_OK) {
	*bytesPtr = Tcl_NewByteArrayObj(pb.buf, (Tcl_Size) pb.len);
    }
    if (pb.buf) {
	ckfree(pb.buf);
    }
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * NumberObj --
 *
 *	A field's value: an integer up to 64 bits, 0x hex of the full
 *	width beyond.
 *
 * Results:
 *	A new Tcl_Obj.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static Tcl_Obj *
NumberObj(
    const unsigned char *buf,
    size_t off,
    unsigned width)
{
    Tcl_Obj *obj;
    unsigned ndig, i;
    char *s;

    if (width <= 64) {
	return VerbsU64Obj(GetBits(buf, off, width));
    }
    ndig = (width + 3) / 4;
    s = ckalloc(ndig + 2);
    s[0] = '0';
    s[1] = 'x';
    for (i = 0; i < ndig; i++) {
	/* Digit i covers the nibble ending ndig-1-i nibbles before the end. */
	size_t low = (size_t) (ndig - 1 - i) * 4;	/* From the LSB. */
	unsigned nb = width - low < 4 ? width - low : 4;
	unsigned d = (unsigned) GetBits(buf, off + width - low - nb, nb);

	s[2 + i] = "0123456789abcdef"[d];
    }
    obj = Tcl_NewStringObj(s, (Tcl_Size) ndig + 2);
    ckfree(s);
    return obj;
}

/*
 *----------------------------------------------------------------------
 *
 * UnpackType --
 *
 *	Every named field of TYPE at bit offset BASE as a dict (nested for
 *	structs, every member for unions, lists for arrays).
 *
 * Results:
 *	A new dict.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static Tcl_Obj *
UnpackType(
    int type,
    const unsigned char *buf,
    size_t lenBits,
    size_t base,
    size_t topBits)
{
    const Mlx5PrmType *t = &mlx5PrmTypes[type];
    Tcl_Obj *dict = Tcl_NewDictObj();
    int i;

    for (i = 0; i < t->nfields; i++) {
	const Mlx5PrmField *f = &mlx5PrmFields[t->first + i];
	size_t off = base + f->offset;
	Tcl_Obj *valueObj;

	if (f->count == 1) {
	    valueObj = f->type >= 0
		    ? UnpackType(f->type, buf, lenBits, off, topBits)
		    : NumberObj(buf, off, f->width);
	} else {
	    size_t n = f->count, k;

	    if (n == 0) {
		n = (off == topBits && lenBits > off && f->width > 0)
			? (lenBits - off) / f->width : 0;
	    }
	    valueObj = Tcl_NewListObj(0, NULL);
	    for (k = 0; k < n; k++) {
		size_t eoff = off + k * f->width;

		Tcl_ListObjAppendElement(NULL, valueObj, f->type >= 0
			? UnpackType(f->type, buf, lenBits, eoff, topBits)
			: NumberObj(buf, eoff, f->width));
	    }
	}
	Tcl_DictObjPut(NULL, dict, Tcl_NewStringObj(NAME(f->name), -1),
		valueObj);
    }
    return dict;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5PrmUnpack --
 *
 *	Bytes of TYPE to a nested dict.  BUF must hold at least the type's
 *	size; bytes beyond are the elements of a flexible array at its end
 *	(ignored when it has none).
 *
 * Results:
 *	A standard Tcl result; *dictPtr a new dict.
 *
 * Side effects:
 *	Error message and errorCode when TYPE is unknown or BUF short.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5PrmUnpack(
    Tcl_Interp *interp,
    const char *type,
    const unsigned char *buf,
    Tcl_Size len,
    Tcl_Obj **dictPtr)
{
    int t = FindType(type);

    if (t < 0) {
	return UnknownType(interp, type);
    }
    if ((size_t) len * 8 < mlx5PrmTypes[t].bits) {
	Tcl_Obj *lenObj = Tcl_ObjPrintf("%" TCL_SIZE_MODIFIER "d", len);
	int r;

	Tcl_IncrRefCount(lenObj);
	r = VerbsArgError(interp, "bytes", lenObj, "%" TCL_SIZE_MODIFIER "d"
		" bytes are too few for %s (%u bytes)", len, type,
		(unsigned) (mlx5PrmTypes[t].bits / 8));
	Tcl_DecrRefCount(lenObj);
	return r;
    }
    *dictPtr = UnpackType(t, buf, (size_t) len * 8, 0, mlx5PrmTypes[t].bits);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * ResolvePath --
 *
 *	The field at a dotted path of TYPE (through nested structs and
 *	unions, no arrays) and its bit offset.
 *
 * Results:
 *	The field, or NULL.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static const Mlx5PrmField *
ResolvePath(
    int type,
    const char *path,
    size_t *offPtr)
{
    size_t off = 0;

    while (1) {
	const char *dot = strchr(path, '.');
	const Mlx5PrmField *f = FindField(type, path,
		dot ? (int) (dot - path) : -1);

	if (f == NULL) {
	    return NULL;
	}
	off += f->offset;
	if (dot == NULL) {
	    *offPtr = off;
	    return f;
	}
	if (f->type < 0 || f->count != 1) {
	    return NULL;
	}
	type = f->type;
	path = dot + 1;
    }
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5PrmGet --
 *
 *	Read one field of TYPE's bytes by dotted path.
 *
 * Results:
 *	0 on success; -1 if the type or path is unknown, the field is an
 *	array, a struct or wider than 64 bits, or BUF too short.
 *
 * Side effects:
 *	Sets *valuePtr.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5PrmGet(
    const char *type,
    const char *path,
    const unsigned char *buf,
    Tcl_Size len,
    uint64_t *valuePtr)
{
    int t = FindType(type);
    const Mlx5PrmField *f;
    size_t off;

    if (t < 0 || (f = ResolvePath(t, path, &off)) == NULL || f->type >= 0
	    || f->count != 1 || f->width > 64
	    || off + f->width > (size_t) len * 8) {
	return -1;
    }
    *valuePtr = GetBits(buf, off, f->width);
    return 0;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5PrmOpcodeName, Mlx5PrmOpcodeValue, Mlx5PrmStatusName --
 *
 *	Names of command opcodes ("create_cq") and statuses ("bad_param")
 *	and back.
 *
 * Results:
 *	The name or NULL; the opcode or -1.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static const char *
NameOf(
    const Mlx5PrmName *table,
    int n,
    unsigned value)
{
    int i;

    for (i = 0; i < n; i++) {
	if (table[i].value == value) {
	    return NAME(table[i].name);
	}
    }
    return NULL;
}

const char *
Mlx5PrmOpcodeName(
    unsigned opcode)
{
    return NameOf(mlx5PrmOpcodes, mlx5PrmNumOpcodes, opcode);
}

int
Mlx5PrmOpcodeValue(
    const char *name)
{
    int i;

    for (i = 0; i < mlx5PrmNumOpcodes; i++) {
	if (strcmp(name, NAME(mlx5PrmOpcodes[i].name)) == 0) {
	    return (int) mlx5PrmOpcodes[i].value;
	}
    }
    return -1;
}

const char *
Mlx5PrmStatusName(
    unsigned status)
{
    return NameOf(mlx5PrmStatuses, mlx5PrmNumStatuses, status);
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5PrmStatus --
 *
 *	The status (bits 0..7) and syndrome (bits 32..63) every command
 *	output starts with; zeros when LEN is too short.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Sets *statusPtr and *syndromePtr.
 *
 *----------------------------------------------------------------------
 */

void
Mlx5PrmStatus(
    const unsigned char *out,
    Tcl_Size len,
    unsigned *statusPtr,
    uint32_t *syndromePtr)
{
    *statusPtr = len >= 1 ? out[0] : 0;
    *syndromePtr = len >= 8 ? (uint32_t) GetBits(out, 32, 32) : 0;
}

/*
 * ------------------------------------------------------------------------
 * Command inputs: their types, the objects they create and the objects
 * they refer to.
 * ------------------------------------------------------------------------
 */

/*
 * Commands whose input type is not OPCODE_in.
 */

static const struct {
    const char *opcode;
    const char *input;
} inputTypes[] = {
    {"set_flow_table_entry", "set_fte_in"},
    {"query_flow_table_entry", "query_fte_in"},
    {"delete_flow_table_entry", "delete_fte_in"},
    {"2err_qp", "qp_2err_in"},
    {"2rst_qp", "qp_2rst_in"},
    {"sqd_rts_qp", "sqd2rts_qp_in"},
    {"access_reg", "access_register_in"},
    {NULL, NULL}
};

/*
 * Obj types named differently from their create inputs (the general
 * object inputs of mlx5_ifc.h): MLX5_GENERAL_OBJECT_TYPES_* values.
 */

static const struct {
    unsigned objType;
    const char *createIn;
} generalByValue[] = {
    {0x08, "create_sw_icm_in"},		/* SW_ICM */
    {0x0b, "create_geneve_tlv_option_in"},	/* GENEVE_TLV_OPT */
    {0x0c, "create_encryption_key_in"},	/* ENCRYPTION_KEY */
    {0x18, "create_match_definer_in"},	/* MATCH_DEFINER */
    {0x13, "create_ipsec_obj_in"},		/* IPSEC */
    {0x20, "create_sampler_obj_in"},		/* SAMPLER */
    {0x24, "create_flow_meter_aso_obj_in"},	/* FLOW_METER_ASO */
    {0x27, "create_macsec_obj_in"},		/* MACSEC */
    {0x46, "create_page_track_obj_in"},	/* PAGE_TRACK */
    {0, NULL}
};

/*
 *----------------------------------------------------------------------
 *
 * Mlx5PrmInputType --
 *
 *	The ifc type of a command input, from its opcode (bits 0..15) and,
 *	for general objects, obj_type (bits 48..63).
 *
 * Results:
 *	A type name, or NULL.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

const char *
Mlx5PrmInputType(
    const unsigned char *in,
    Tcl_Size len)
{
    char buf[80];
    const char *name;
    unsigned opcode;
    int i, t;

    if (len < 8) {
	return NULL;
    }
    opcode = (unsigned) GetBits(in, 0, 16);
    name = Mlx5PrmOpcodeName(opcode);
    if (name == NULL) {
	return NULL;
    }
    if (strcmp(name, "create_general_object") == 0) {
	unsigned objType;

	objType = (unsigned) GetBits(in, 48, 16);
	for (i = 0; generalByValue[i].createIn; i++) {
	    if (generalByValue[i].objType == objType) {
		return generalByValue[i].createIn;
	    }
	}
	return "general_obj_in_cmd_hdr";
    }
    if (strstr(name, "_general_object")) {
	return "general_obj_in_cmd_hdr";
    }
    for (i = 0; inputTypes[i].opcode; i++) {
	if (strcmp(name, inputTypes[i].opcode) == 0) {
	    return inputTypes[i].input;
	}
    }
    if (strlen(name) + 4 > sizeof(buf)) {
	return NULL;
    }
    snprintf(buf, sizeof(buf), "%s_in", name);
    t = FindType(buf);
    return t < 0 ? NULL : TYPE_NAME(t);
}

/*
 * The reference table: for each command input type, the fields that
 * hold the number of another object, its kind, and the field (if any)
 * that must be non-zero for the reference to count (the *_umem_valid
 * bits).  Contexts shared by several commands are listed once as
 * context rows and included by prefix.  Peer fields that make two
 * objects point at each other (qpc.remote_qpn, the hairpin_peer_* of
 * RQs and SQs) are left out on purpose: references must not form
 * cycles.
 */

typedef struct RefRow {
    const char *path;
    const char *kind;
    const char *cond;
} RefRow;

static const RefRow qpcRefs[] = {
    {"pd", "pd", NULL},
    {"cqn_snd", "cq", NULL},
    {"cqn_rcv", "cq", NULL},
    {"uar_page", "uar", NULL},
    {"srqn_rmpn_xrqn", "srq", NULL},
    {"xrcd", "xrcd", NULL},
    {"counter_set_id", "q_counter", NULL},
    {"dbr_umem_id", "umem", "dbr_umem_valid"},
    {NULL, NULL, NULL}
};
static const RefRow cqcRefs[] = {
    {"uar_page", "uar", NULL},
    {"c_eqn_or_apu_element", "eq", NULL},
    {"dbr_umem_id", "umem", "dbr_umem_valid"},
    {NULL, NULL, NULL}
};
static const RefRow wqRefs[] = {
    {"pd", "pd", NULL},
    {"uar_page", "uar", NULL},
    {"dbr_umem_id", "umem", "dbr_umem_valid"},
    {"wq_umem_id", "umem", "wq_umem_valid"},
    {NULL, NULL, NULL}
};
static const RefRow rqcRefs[] = {
    {"cqn", "cq", NULL},
    {"rmpn", "srq", NULL},
    {"counter_set_id", "q_counter", NULL},
    {NULL, NULL, NULL}
};
static const RefRow sqcRefs[] = {
    {"cqn", "cq", NULL},
    {"tis_num_0", "tis", NULL},
    {"ts_cqe_to_dest_cqn", "cq", NULL},
    {"packet_pacing_rate_limit_index", "pp", NULL},
    {NULL, NULL, NULL}
};
static const RefRow tircRefs[] = {
    {"inline_rqn", "rq", NULL},
    {"indirect_table", "rqt", NULL},
    {"transport_domain", "transport_domain", NULL},
    {NULL, NULL, NULL}
};
static const RefRow tiscRefs[] = {
    {"pd", "pd", NULL},
    {"transport_domain", "transport_domain", NULL},
    {"underlay_qpn", "qp", NULL},
    {NULL, NULL, NULL}
};
static const RefRow srqcRefs[] = {	/* srqc, xrc_srqc. */
    {"pd", "pd", NULL},
    {"cqn", "cq", NULL},
    {"xrcd", "xrcd", NULL},
    {NULL, NULL, NULL}
};
static const RefRow xrqcRefs[] = {	/* xrqc (and its wq). */
    {"cqn", "cq", NULL},
    {NULL, NULL, NULL}
};
static const RefRow dctcRefs[] = {
    {"pd", "pd", NULL},
    {"cqn", "cq", NULL},
    {"srqn_xrqn", "srq", NULL},
    {"counter_set_id", "q_counter", NULL},
    {NULL, NULL, NULL}
};
static const RefRow mkcRefs[] = {
    {"pd", "pd", NULL},
    {NULL, NULL, NULL}
};
static const RefRow eqcRefs[] = {
    {"uar_page", "uar", NULL},
    {NULL, NULL, NULL}
};
static const RefRow ftcRefs[] = {	/* flow_table_context. */
    {"table_miss_id", "flow_table", NULL},
    {"lag_master_next_table_id", "flow_table", NULL},
    {NULL, NULL, NULL}
};
static const RefRow flowCtxRefs[] = {	/* flow_context (destinations apart). */
    {"group_id", "flow_group", NULL},
    {"modify_header_id", "modify_header", NULL},
    {"packet_reformat_id", "packet_reformat", NULL},
    {"encrypt_decrypt_obj_id", "obj", NULL},
    {NULL, NULL, NULL}
};
static const RefRow cqInRefs[] = {	/* create_cq_in's own fields. */
    {"cq_umem_id", "umem", "cq_umem_valid"},
    {NULL, NULL, NULL}
};
static const RefRow qpInRefs[] = {
    {"wq_umem_id", "umem", "wq_umem_valid"},
    {NULL, NULL, NULL}
};
static const RefRow mkeyInRefs[] = {
    {"mkey_umem_id", "umem", "mkey_umem_valid"},
    {NULL, NULL, NULL}
};
static const RefRow psvRefs[] = {
    {"pd", "pd", NULL},
    {NULL, NULL, NULL}
};
static const RefRow tableRefs[] = {	/* set_fte. */
    {"table_id", "flow_table", NULL},
    {NULL, NULL, NULL}
};
static const RefRow groupRefs[] = {	/* create_flow_group. */
    {"table_id", "flow_table", NULL},
    {"match_definer_id", "obj", NULL},
    {NULL, NULL, NULL}
};
static const RefRow rootRefs[] = {
    {"table_id", "flow_table", NULL},
    {"underlay_qpn", "qp", NULL},
    {NULL, NULL, NULL}
};
static const RefRow encKeyRefs[] = {
    {"pd", "pd", NULL},
    {NULL, NULL, NULL}
};
static const RefRow samplerRefs[] = {
    {"sample_table_id", "flow_table", NULL},
    {"default_table_id", "flow_table", NULL},
    {NULL, NULL, NULL}
};
static const RefRow meterRefs[] = {
    {"meter_aso_access_pd", "pd", NULL},
    {NULL, NULL, NULL}
};
static const RefRow ipsecRefs[] = {
    {"dekn", "obj", NULL},
    {NULL, NULL, NULL}
};
static const RefRow macsecRefs[] = {
    {"dekn", "obj", NULL},
    {"macsec_aso_access_pd", "pd", NULL},
    {NULL, NULL, NULL}
};
static const RefRow pageTrackRefs[] = {
    {"reporting_qpn", "qp", NULL},
    {NULL, NULL, NULL}
};

/*
 * Which row lists apply to which input, under which prefix.  Special
 * handling (not rows): the RQ list of an RQT (rq_num, rqt_actual_size
 * long) and the destinations and flow counters of a flow table entry.
 */

enum { SPECIAL_NONE, SPECIAL_RQT, SPECIAL_FTE };

static const struct {
    const char *type;
    const char *prefix;
    const RefRow *rows;
    int special;
} refTable[] = {
    {"create_cq_in", "cq_context", cqcRefs, 0},
    {"create_cq_in", "", cqInRefs, 0},
    {"modify_cq_in", "cq_context", cqcRefs, 0},
    {"create_qp_in", "qpc", qpcRefs, 0},
    {"create_qp_in", "", qpInRefs, 0},
    {"rst2init_qp_in", "qpc", qpcRefs, 0},
    {"init2init_qp_in", "qpc", qpcRefs, 0},
    {"init2rtr_qp_in", "qpc", qpcRefs, 0},
    {"rtr2rts_qp_in", "qpc", qpcRefs, 0},
    {"rts2rts_qp_in", "qpc", qpcRefs, 0},
    {"sqerr2rts_qp_in", "qpc", qpcRefs, 0},
    {"sqd2rts_qp_in", "qpc", qpcRefs, 0},
    {"create_rq_in", "ctx", rqcRefs, 0},
    {"create_rq_in", "ctx.wq", wqRefs, 0},
    {"modify_rq_in", "ctx", rqcRefs, 0},
    {"modify_rq_in", "ctx.wq", wqRefs, 0},
    {"create_sq_in", "ctx", sqcRefs, 0},
    {"create_sq_in", "ctx.wq", wqRefs, 0},
    {"modify_sq_in", "ctx", sqcRefs, 0},
    {"modify_sq_in", "ctx.wq", wqRefs, 0},
    {"create_rmp_in", "ctx.wq", wqRefs, 0},
    {"modify_rmp_in", "ctx.wq", wqRefs, 0},
    {"create_xrq_in", "xrq_context", xrqcRefs, 0},
    {"create_xrq_in", "xrq_context.wq", wqRefs, 0},
    {"create_srq_in", "srq_context_entry", srqcRefs, 0},
    {"create_xrc_srq_in", "xrc_srq_context_entry", srqcRefs, 0},
    {"create_dct_in", "dct_context_entry", dctcRefs, 0},
    {"create_tir_in", "ctx", tircRefs, 0},
    {"modify_tir_in", "ctx", tircRefs, 0},
    {"create_tis_in", "ctx", tiscRefs, 0},
    {"modify_tis_in", "ctx", tiscRefs, 0},
    {"create_rqt_in", "rqt_context", NULL, SPECIAL_RQT},
    {"modify_rqt_in", "ctx", NULL, SPECIAL_RQT},
    {"create_mkey_in", "memory_key_mkey_entry", mkcRefs, 0},
    {"create_mkey_in", "", mkeyInRefs, 0},
    {"create_psv_in", "", psvRefs, 0},
    {"create_eq_in", "eq_context_entry", eqcRefs, 0},
    {"create_flow_table_in", "flow_table_context", ftcRefs, 0},
    {"modify_flow_table_in", "flow_table_context", ftcRefs, 0},
    {"create_flow_group_in", "", groupRefs, 0},
    {"set_fte_in", "", tableRefs, 0},
    {"set_fte_in", "flow_context", flowCtxRefs, SPECIAL_FTE},
    {"set_flow_table_root_in", "", rootRefs, 0},
    {"create_encryption_key_in", "encryption_key_object", encKeyRefs, 0},
    {"create_sampler_obj_in", "sampler_object", samplerRefs, 0},
    {"create_flow_meter_aso_obj_in", "flow_meter_aso_obj", meterRefs, 0},
    {"create_ipsec_obj_in", "ipsec_object", ipsecRefs, 0},
    {"create_macsec_obj_in", "macsec_object", macsecRefs, 0},
    {"create_page_track_obj_in", "obj_context", pageTrackRefs, 0},
    {NULL, NULL, NULL, 0}
};

/*
 *----------------------------------------------------------------------
 *
 * AddRef --
 *
 *	Append {path kind value} to a list when value is not zero.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Appends to listObj.
 *
 *----------------------------------------------------------------------
 */

static void
AddRef(
    Tcl_Obj *listObj,
    Tcl_Obj *pathObj,
    const char *kind,
    uint64_t value)
{
    Tcl_Obj *triple[3];

    if (value == 0) {
	Tcl_DecrRefCount(pathObj);
	return;
    }
    triple[0] = pathObj;
    triple[1] = Tcl_NewStringObj(kind, -1);
    triple[2] = VerbsU64Obj(value);
    Tcl_ListObjAppendElement(NULL, listObj, Tcl_NewListObj(3, triple));
}

/*
 *----------------------------------------------------------------------
 *
 * GetAt --
 *
 *	Read a scalar field at a path of TYPE under PREFIX.
 *
 * Results:
 *	0 and *valuePtr, or -1 (unknown path, out of the buffer).
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
GetAt(
    const char *type,
    const char *prefix,
    const char *path,
    const unsigned char *in,
    Tcl_Size len,
    uint64_t *valuePtr)
{
    char full[160];

    snprintf(full, sizeof(full), "%s%s%s", prefix, *prefix ? "." : "",
	    path);
    return Mlx5PrmGet(type, full, in, len, valuePtr);
}

/*
 *----------------------------------------------------------------------
 *
 * RqtRefs, FteRefs, AsoRefs --
 *
 *	The references that lists hold, for Mlx5PrmRefs: an RQT's
 *	rqt_actual_size entries of rq_num, each an RQ (RqtRefs); a flow
 *	entry's destination_list_size destinations (by destination_type),
 *	then flow_counter_list_size counters, 8-byte entries unless
 *	extended_destination (FteRefs), and the ASO objects it executes
 *	(execute_aso, when valid: AsoRefs).  t is the command's type index,
 *	prefix the path of the context that holds the list.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Appends {path kind value} triples to listObj.
 *
 *----------------------------------------------------------------------
 */

static void
RqtRefs(
    Tcl_Obj *listObj,
    const char *type,
    int t,
    const char *prefix,
    const unsigned char *in,
    Tcl_Size len)
{
    const Mlx5PrmField *f;
    size_t off, k;
    uint64_t n;

    if (GetAt(type, prefix, "rqt_actual_size", in, len, &n) != 0
	    || (f = ResolvePath(t, prefix, &off)) == NULL || f->type < 0) {
	return;
    }
    f = FindField(f->type, "rq_num", -1);
    off += f->offset;
    for (k = 0; k < n && off + (k + 1) * f->width <= (size_t) len * 8;
	    k++) {
	AddRef(listObj, Tcl_ObjPrintf("%s.rq_num.%d.rq_num", prefix,
		(int) k), "rq", GetBits(in, off + k * f->width + 8, 24));
    }
}

static void
AsoRefs(
    Tcl_Obj *listObj,
    int t,
    const char *prefix,
    const unsigned char *in,
    Tcl_Size len)
{
    const Mlx5PrmField *a, *v, *id;
    size_t aoff;
    int n;

    if ((a = ResolvePath(t, prefix, &aoff)) == NULL || a->type < 0
	    || (a = FindField(a->type, "execute_aso", -1)) == NULL
	    || a->type < 0) {
	return;
    }
    v = FindField(a->type, "valid", -1);
    id = FindField(a->type, "aso_object_id", -1);
    aoff += a->offset;
    for (n = 0; v && id && n < a->count; n++) {
	size_t e = aoff + (size_t) n * a->width;

	if (e + a->width <= (size_t) len * 8
		&& GetBits(in, e + v->offset, 1)) {
	    AddRef(listObj, Tcl_ObjPrintf("%s.execute_aso.%d.aso_object_id",
		    prefix, n), "obj", GetBits(in, e + id->offset, id->width));
	}
    }
}

static void
FteRefs(
    Tcl_Obj *listObj,
    const char *type,
    int t,
    const char *prefix,
    const unsigned char *in,
    Tcl_Size len)
{
    const Mlx5PrmField *f;
    size_t off, k, stride;
    uint64_t nDest, nCount, ext;

    if (GetAt(type, prefix, "destination_list_size", in, len, &nDest)
	    || GetAt(type, prefix, "flow_counter_list_size", in, len,
	    &nCount)
	    || GetAt(type, prefix, "extended_destination", in, len, &ext)
	    || (f = ResolvePath(t, prefix, &off)) == NULL || f->type < 0
	    || (f = FindField(f->type, "destination", -1)) == NULL) {
	return;
    }
    off += f->offset;
    stride = ext ? f->width : 64;
    AsoRefs(listObj, t, prefix, in, len);
    for (k = 0; k < nDest + nCount
	    && off + (k + 1) * stride <= (size_t) len * 8; k++) {
	size_t e = off + k * stride;

	if (k < nDest) {
	    unsigned dtype = (unsigned) GetBits(in, e, 8);
	    const char *kind = dtype == 1 ? "flow_table"
		    : dtype == 2 ? "tir" : dtype == 6 ? "obj" : NULL;

	    if (kind) {
		AddRef(listObj, Tcl_ObjPrintf("%s.destination.%d."
			"extended_dest_format.destination_entry."
			"destination_id", prefix, (int) k), kind,
			GetBits(in, e + 8, 24));
	    }
	    if (ext) {
		AddRef(listObj, Tcl_ObjPrintf("%s.destination.%d."
			"extended_dest_format.packet_reformat_id",
			prefix, (int) k), "packet_reformat",
			GetBits(in, e + 64, 32));
	    }
	} else {
	    AddRef(listObj, Tcl_ObjPrintf("%s.destination.%d."
		    "flow_counter_list.flow_counter_id", prefix, (int) k),
		    "counter", GetBits(in, e, 32));
	}
    }
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5PrmRefs --
 *
 *	The references a command input holds (see the reference table
 *	above and the manual's PRM section).
 *
 * Results:
 *	TCL_OK and *listPtr a new list of {path kind value} (empty for a
 *	command with no reference fields); TCL_ERROR if the opcode is
 *	unknown.
 *
 * Side effects:
 *	Error message and errorCode.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5PrmRefs(
    Tcl_Interp *interp,
    const unsigned char *in,
    Tcl_Size len,
    Tcl_Obj **listPtr)
{
    const char *type = Mlx5PrmInputType(in, len);
    Tcl_Obj *listObj;
    int i, j, t;

    if (type == NULL || (t = FindType(type)) < 0) {
	Tcl_Obj *opObj = Tcl_ObjPrintf("0x%x",
		len >= 2 ? (unsigned) GetBits(in, 0, 16) : 0);
	int r;

	Tcl_IncrRefCount(opObj);
	r = VerbsArgError(interp, "opcode", opObj, "unknown command opcode"
		" %s in the input", Tcl_GetString(opObj));
	Tcl_DecrRefCount(opObj);
	return r;
    }
    listObj = Tcl_NewListObj(0, NULL);
    for (i = 0; refTable[i].type; i++) {
	const char *prefix = refTable[i].prefix;
	const RefRow *rows = refTable[i].rows;

	if (strcmp(refTable[i].type, type) != 0) {
	    continue;
	}
	for (j = 0; rows && rows[j].path; j++) {
	    uint64_t v, c;

	    if (GetAt(type, prefix, rows[j].path, in, len, &v) != 0) {
		continue;
	    }
	    if (rows[j].cond && (GetAt(type, prefix, rows[j].cond, in, len,
		    &c) != 0 || c == 0)) {
		continue;
	    }
	    AddRef(listObj, *prefix ? Tcl_ObjPrintf("%s.%s", prefix,
		    rows[j].path) : Tcl_NewStringObj(rows[j].path, -1),
		    rows[j].kind, v);
	}
	if (refTable[i].special == SPECIAL_RQT) {
	    RqtRefs(listObj, type, t, prefix, in, len);
	} else if (refTable[i].special == SPECIAL_FTE) {
	    FteRefs(listObj, type, t, prefix, in, len);
	}
    }
    *listPtr = listObj;
    return TCL_OK;
}

/*
 * What a command creates: the kind and the output field (or, for
 * set_fte, the input field) with its number.
 */

static const struct {
    const char *opcode;
    const char *kind;
    const char *type;
    const char *path;
    int fromInput;
} createdTable[] = {
    {"alloc_flow_counter", "counter", "alloc_flow_counter_out",
	"flow_counter_id", 0},
    {"alloc_modify_header_context", "modify_header",
	"alloc_modify_header_context_out", "modify_header_id", 0},
    {"alloc_packet_reformat_context", "packet_reformat",
	"alloc_packet_reformat_context_out", "packet_reformat_id", 0},
    {"alloc_pd", "pd", "alloc_pd_out", "pd", 0},
    {"alloc_q_counter", "q_counter", "alloc_q_counter_out",
	"counter_set_id", 0},
    {"alloc_transport_domain", "transport_domain",
	"alloc_transport_domain_out", "transport_domain", 0},
    {"alloc_xrcd", "xrcd", "alloc_xrcd_out", "xrcd", 0},
    {"create_cq", "cq", "create_cq_out", "cqn", 0},
    {"create_dct", "dct", "create_dct_out", "dctn", 0},
    {"create_eq", "eq", "create_eq_out", "eq_number", 0},
    {"create_flow_group", "flow_group", "create_flow_group_out",
	"group_id", 0},
    {"create_flow_table", "flow_table", "create_flow_table_out",
	"table_id", 0},
    {"create_general_object", "obj", "general_obj_out_cmd_hdr", "obj_id",
	0},
    {"create_mkey", "mkey", "create_mkey_out", "mkey_index", 0},
    {"create_psv", "psv", "create_psv_out", "psv0_index", 0},
    {"create_qp", "qp", "create_qp_out", "qpn", 0},
    {"create_rmp", "srq", "create_rmp_out", "rmpn", 0},
    {"create_rq", "rq", "create_rq_out", "rqn", 0},
    {"create_rqt", "rqt", "create_rqt_out", "rqtn", 0},
    {"create_sq", "sq", "create_sq_out", "sqn", 0},
    {"create_srq", "srq", "create_srq_out", "srqn", 0},
    {"create_tir", "tir", "create_tir_out", "tirn", 0},
    {"create_tis", "tis", "create_tis_out", "tisn", 0},
    {"create_xrc_srq", "srq", "create_xrc_srq_out", "xrc_srqn", 0},
    {"create_xrq", "srq", "create_xrq_out", "xrqn", 0},
    {"set_flow_table_entry", "fte", "set_fte_in", "flow_index", 1},
    {NULL, NULL, NULL, NULL, 0}
};

/*
 *----------------------------------------------------------------------
 *
 * Mlx5PrmCreated --
 *
 *	The object a create command made, from its output.
 *
 * Results:
 *	0 and the kind and number; -1 if the command creates nothing
 *	known or a buffer is too short.
 *
 * Side effects:
 *	Sets *kindPtr and *idPtr.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5PrmCreated(
    const unsigned char *in,
    Tcl_Size inLen,
    const unsigned char *out,
    Tcl_Size outLen,
    const char **kindPtr,
    uint32_t *idPtr)
{
    const char *name;
    int i;

    if (inLen < 2 || (name = Mlx5PrmOpcodeName(
	    (unsigned) GetBits(in, 0, 16))) == NULL) {
	return -1;
    }
    for (i = 0; createdTable[i].opcode; i++) {
	uint64_t v;

	if (strcmp(createdTable[i].opcode, name) != 0) {
	    continue;
	}
	if (createdTable[i].fromInput
		? Mlx5PrmGet(createdTable[i].type, createdTable[i].path, in,
		    inLen, &v)
		: Mlx5PrmGet(createdTable[i].type, createdTable[i].path, out,
		    outLen, &v)) {
	    return -1;
	}
	*kindPtr = createdTable[i].kind;
	*idPtr = (uint32_t) v;
	return 0;
    }
    return -1;
}

/*
 * ------------------------------------------------------------------------
 * The mlx5::prm commands.
 * ------------------------------------------------------------------------
 */

/*
 *----------------------------------------------------------------------
 *
 * PrmPackCmd, PrmUnpackCmd, PrmSizeCmd --
 *
 *	mlx5::prm pack TYPE DICT, unpack TYPE BYTES, size TYPE.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Sets the interpreter's result.
 *
 *----------------------------------------------------------------------
 */

static int
PrmPackCmd(
    VERBS_UNUSED void *clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    Tcl_Obj *bytes;

    if (objc != 3) {
	Tcl_WrongNumArgs(interp, 1, objv, "type dict");
	return TCL_ERROR;
    }
    if (Mlx5PrmPack(interp, Tcl_GetString(objv[1]), objv[2], &bytes)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, bytes);
    return TCL_OK;
}

static int
PrmUnpackCmd(
    VERBS_UNUSED void *clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    const unsigned char *buf;
    Tcl_Size len;
    Tcl_Obj *dict;

    if (objc != 3) {
	Tcl_WrongNumArgs(interp, 1, objv, "type bytes");
	return TCL_ERROR;
    }
    buf = VerbsGetBytes(interp, "bytes", objv[2], &len);
    if (buf == NULL || Mlx5PrmUnpack(interp, Tcl_GetString(objv[1]), buf,
	    len, &dict) != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, dict);
    return TCL_OK;
}

static int
PrmSizeCmd(
    VERBS_UNUSED void *clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    int size;

    if (objc != 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "type");
	return TCL_ERROR;
    }
    size = Mlx5PrmSize(Tcl_GetString(objv[1]));
    if (size < 0) {
	return UnknownType(interp, Tcl_GetString(objv[1]));
    }
    Tcl_SetObjResult(interp, Tcl_NewIntObj(size));
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * ListFields --
 *
 *	Append {path offset width count} of every named field of TYPE at
 *	BASE, the fields of nested structs and unions by dotted path.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Appends to listObj.
 *
 *----------------------------------------------------------------------
 */

static void
ListFields(
    Tcl_Obj *listObj,
    int type,
    size_t base,
    const char *prefix)
{
    const Mlx5PrmType *t = &mlx5PrmTypes[type];
    int i;

    for (i = 0; i < t->nfields; i++) {
	const Mlx5PrmField *f = &mlx5PrmFields[t->first + i];
	Tcl_Obj *path = PathOf(prefix, NAME(f->name));

	if (f->type >= 0 && f->count == 1) {
	    Tcl_IncrRefCount(path);
	    ListFields(listObj, f->type, base + f->offset,
		    Tcl_GetString(path));
	    Tcl_DecrRefCount(path);
	} else {
	    Tcl_Obj *row[4];

	    row[0] = path;
	    row[1] = Tcl_NewWideIntObj((Tcl_WideInt) (base + f->offset));
	    row[2] = Tcl_NewIntObj((int) f->width);
	    row[3] = Tcl_NewIntObj(f->count);
	    Tcl_ListObjAppendElement(NULL, listObj, Tcl_NewListObj(4, row));
	}
    }
}

/*
 *----------------------------------------------------------------------
 *
 * PrmFieldsCmd, PrmTypesCmd, PrmOpcodesCmd, PrmStatusesCmd, NamesCmd --
 *
 *	mlx5::prm fields TYPE, types ?PATTERN?, opcodes, statuses (the
 *	last two through NamesCmd: a table of names as a dict).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Sets the interpreter's result.
 *
 *----------------------------------------------------------------------
 */

static int
PrmFieldsCmd(
    VERBS_UNUSED void *clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    Tcl_Obj *listObj;
    int t;

    if (objc != 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "type");
	return TCL_ERROR;
    }
    t = FindType(Tcl_GetString(objv[1]));
    if (t < 0) {
	return UnknownType(interp, Tcl_GetString(objv[1]));
    }
    listObj = Tcl_NewListObj(0, NULL);
    ListFields(listObj, t, 0, "");
    Tcl_SetObjResult(interp, listObj);
    return TCL_OK;
}

static int
PrmTypesCmd(
    VERBS_UNUSED void *clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    Tcl_Obj *listObj;
    int i;

    if (objc > 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "?pattern?");
	return TCL_ERROR;
    }
    listObj = Tcl_NewListObj(0, NULL);
    for (i = 0; i < mlx5PrmNumTypes; i++) {
	if (objc == 2 && !Tcl_StringMatch(TYPE_NAME(i),
		Tcl_GetString(objv[1]))) {
	    continue;
	}
	Tcl_ListObjAppendElement(NULL, listObj,
		Tcl_NewStringObj(TYPE_NAME(i), -1));
    }
    Tcl_SetObjResult(interp, listObj);
    return TCL_OK;
}

static int
NamesCmd(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    const Mlx5PrmName *table,
    int n)
{
    Tcl_Obj *dict;
    int i;

    if (objc != 1) {
	Tcl_WrongNumArgs(interp, 1, objv, NULL);
	return TCL_ERROR;
    }
    dict = Tcl_NewDictObj();
    for (i = 0; i < n; i++) {
	Tcl_DictObjPut(NULL, dict, Tcl_NewStringObj(NAME(table[i].name), -1),
		Tcl_NewWideIntObj(table[i].value));
    }
    Tcl_SetObjResult(interp, dict);
    return TCL_OK;
}

static int
PrmOpcodesCmd(
    VERBS_UNUSED void *clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    return NamesCmd(interp, objc, objv, mlx5PrmOpcodes, mlx5PrmNumOpcodes);
}

static int
PrmStatusesCmd(
    VERBS_UNUSED void *clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    return NamesCmd(interp, objc, objv, mlx5PrmStatuses,
	    mlx5PrmNumStatuses);
}

/*
 *----------------------------------------------------------------------
 *
 * PrmRefsCmd --
 *
 *	mlx5::prm refs ?TYPE? BYTES: the references of a command input.
 *	With TYPE, it must be the input's type (as derived from the
 *	opcode).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Sets the interpreter's result.
 *
 *----------------------------------------------------------------------
 */

static int
PrmRefsCmd(
    VERBS_UNUSED void *clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    const unsigned char *buf;
    Tcl_Size len;
    Tcl_Obj *listObj;

    if (objc != 2 && objc != 3) {
	Tcl_WrongNumArgs(interp, 1, objv, "?type? bytes");
	return TCL_ERROR;
    }
    buf = VerbsGetBytes(interp, "bytes", objv[objc - 1], &len);
    if (buf == NULL) {
	return TCL_ERROR;
    }
    if (objc == 3) {
	const char *want = Tcl_GetString(objv[1]);
	const char *type = Mlx5PrmInputType(buf, len);
	int size = Mlx5PrmSize(want);

	if (size < 0) {
	    return UnknownType(interp, want);
	}
	if (type == NULL || strcmp(type, want) != 0) {
	    return VerbsArgError(interp, "type", objv[1], "the input is %s,"
		    " not %s", type ? type : "no known command", want);
	}
	if (len < size) {
	    Tcl_Obj *dict;

	    return Mlx5PrmUnpack(interp, want, buf, len, &dict);
	}
    }
    if (Mlx5PrmRefs(interp, buf, len, &listObj) != TCL_OK) {
	return TCL_ERROR;
    }
    Tcl_SetObjResult(interp, listObj);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PrmReffieldsCmd --
 *
 *	mlx5::prm reffields ?TYPE?: the reference table, as a list of
 *	{type path kind condition} (condition: the field that must be
 *	non-zero, or empty); the RQ list of an RQT and the destinations of
 *	a flow table entry, which are read by their counts, are rows with
 *	the path of the array and the kind "rq" or "destination".
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Sets the interpreter's result.
 *
 *----------------------------------------------------------------------
 */

static int
PrmReffieldsCmd(
    VERBS_UNUSED void *clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    Tcl_Obj *listObj;
    int i, j;

    if (objc > 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "?type?");
	return TCL_ERROR;
    }
    if (objc == 2 && FindType(Tcl_GetString(objv[1])) < 0) {
	return UnknownType(interp, Tcl_GetString(objv[1]));
    }
    listObj = Tcl_NewListObj(0, NULL);
    for (i = 0; refTable[i].type; i++) {
	const char *prefix = refTable[i].prefix;
	const RefRow *rows = refTable[i].rows;
	Tcl_Obj *row[4];

	if (objc == 2 && strcmp(Tcl_GetString(objv[1]), refTable[i].type)) {
	    continue;
	}
	for (j = 0; rows && rows[j].path; j++) {
	    row[0] = Tcl_NewStringObj(refTable[i].type, -1);
	    row[1] = PathOf(prefix, rows[j].path);
	    row[2] = Tcl_NewStringObj(rows[j].kind, -1);
	    row[3] = rows[j].cond ? PathOf(prefix, rows[j].cond)
		    : Tcl_NewObj();
	    Tcl_ListObjAppendElement(NULL, listObj, Tcl_NewListObj(4, row));
	}
	if (refTable[i].special) {
	    int rqt = refTable[i].special == SPECIAL_RQT;

	    row[0] = Tcl_NewStringObj(refTable[i].type, -1);
	    row[1] = PathOf(prefix, rqt ? "rq_num" : "destination");
	    row[2] = Tcl_NewStringObj(rqt ? "rq" : "destination", -1);
	    row[3] = PathOf(prefix, rqt ? "rqt_actual_size"
		    : "destination_list_size");
	    Tcl_ListObjAppendElement(NULL, listObj, Tcl_NewListObj(4, row));
	}
    }
    Tcl_SetObjResult(interp, listObj);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PrmCreatedCmd --
 *
 *	mlx5::prm created IN OUT: the kind and number of the object a
 *	command made ({} if it makes none known).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Sets the interpreter's result.
 *
 *----------------------------------------------------------------------
 */

static int
PrmCreatedCmd(
    VERBS_UNUSED void *clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    const unsigned char *in, *out;
    Tcl_Size inLen, outLen;
    const char *kind;
    uint32_t id;

    if (objc != 3) {
	Tcl_WrongNumArgs(interp, 1, objv, "in out");
	return TCL_ERROR;
    }
    in = VerbsGetBytes(interp, "in", objv[1], &inLen);
    if (in == NULL) {
	return TCL_ERROR;
    }
    out = VerbsGetBytes(interp, "out", objv[2], &outLen);
    if (out == NULL) {
	return TCL_ERROR;
    }
    if (Mlx5PrmCreated(in, inLen, out, outLen, &kind, &id) == 0) {
	Tcl_Obj *pair[2];

	pair[0] = Tcl_NewStringObj(kind, -1);
	pair[1] = Tcl_NewWideIntObj(id);
	Tcl_SetObjResult(interp, Tcl_NewListObj(2, pair));
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * PrmStatusCmd --
 *
 *	mlx5::prm status OUT: the status a command output starts with, its
 *	name and the syndrome, as a dict.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Sets the interpreter's result.
 *
 *----------------------------------------------------------------------
 */

static int
PrmStatusCmd(
    VERBS_UNUSED void *clientData,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    const unsigned char *out;
    Tcl_Size len;
    unsigned status;
    uint32_t syndrome;
    const char *name;
    Tcl_Obj *dict;

    if (objc != 2) {
	Tcl_WrongNumArgs(interp, 1, objv, "out");
	return TCL_ERROR;
    }
    out = VerbsGetBytes(interp, "out", objv[1], &len);
    if (out == NULL) {
	return TCL_ERROR;
    }
    if (len < 8) {
	Tcl_Obj *lenObj = Tcl_ObjPrintf("%" TCL_SIZE_MODIFIER "d", len);
	int r;

	Tcl_IncrRefCount(lenObj);
	r = VerbsArgError(interp, "out", lenObj, "%" TCL_SIZE_MODIFIER "d"
		" bytes are too few for a command output (8 bytes)", len);
	Tcl_DecrRefCount(lenObj);
	return r;
    }
    Mlx5PrmStatus(out, len, &status, &syndrome);
    name = Mlx5PrmStatusName(status);
    dict = Tcl_NewDictObj();
    Tcl_DictObjPut(NULL, dict, Tcl_NewStringObj("status", -1),
	    Tcl_NewIntObj((int) status));
    Tcl_DictObjPut(NULL, dict, Tcl_NewStringObj("name", -1),
	    Tcl_NewStringObj(name ? name : "", -1));
    Tcl_DictObjPut(NULL, dict, Tcl_NewStringObj("syndrome", -1),
	    Tcl_ObjPrintf("0x%08x", (unsigned) syndrome));
    Tcl_SetObjResult(interp, dict);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5PrmInit --
 *
 *	Create the mlx5::prm ensemble.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Creates ::mlx5::prm and its commands.
 *
 *----------------------------------------------------------------------
 */

int
Mlx5PrmInit(
    Tcl_Interp *interp)
{
    static const struct {
	const char *name;
	Tcl_ObjCmdProc *proc;
    } cmds[] = {
	{"created", PrmCreatedCmd}, {"fields", PrmFieldsCmd},
	{"opcodes", PrmOpcodesCmd},
	{"pack", PrmPackCmd}, {"reffields", PrmReffieldsCmd},
	{"refs", PrmRefsCmd}, {"size", PrmSizeCmd},
	{"status", PrmStatusCmd}, {"statuses", PrmStatusesCmd},
	{"types", PrmTypesCmd},
	{"unpack", PrmUnpackCmd}, {NULL, NULL}
    };
    Tcl_Namespace *nsPtr;
    int i;

    if (Tcl_FindNamespace(interp, "::mlx5", NULL, 0) == NULL
	    && Tcl_CreateNamespace(interp, "::mlx5", NULL, NULL) == NULL) {
	return TCL_ERROR;
    }
    nsPtr = Tcl_CreateNamespace(interp, "::mlx5::prm", NULL, NULL);
    if (nsPtr == NULL) {
	return TCL_ERROR;
    }
    for (i = 0; cmds[i].name; i++) {
	Tcl_Obj *name = Tcl_ObjPrintf("::mlx5::prm::%s", cmds[i].name);

	Tcl_IncrRefCount(name);
	Tcl_CreateObjCommand(interp, Tcl_GetString(name), cmds[i].proc, NULL,
		NULL);
	Tcl_DecrRefCount(name);
    }
    if (Tcl_Export(interp, nsPtr, "*", 0) != TCL_OK
	    || Tcl_CreateEnsemble(interp, "::mlx5::prm", nsPtr,
	    TCL_ENSEMBLE_PREFIX) == NULL) {
	return TCL_ERROR;
    }
    return Tcl_Export(interp, Tcl_FindNamespace(interp, "::mlx5", NULL, 0),
	    "prm", 0);
}
