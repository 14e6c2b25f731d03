/*
 * verbsAttr.c --
 *
 *	The attribute dict engine: the VerbsField rows of a C struct drive
 *	both directions (struct -> dict for queries, dict -> struct plus
 *	attr_mask for modify), command options and cget; enum and flag
 *	names, GIDs, and the error helpers.  The tables themselves live
 *	with the type they describe (verbsQp.c, verbsCq.c, ...).
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "verbs.h"
#include <arpa/inet.h>
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/*
 *----------------------------------------------------------------------
 *
 * VerbsTimeoutCode --
 *
 *	The errorCode of a wait that timed out: {VERBS TIMEOUT GOT}, GOT
 *	being how much of what was waited for had arrived.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Sets the errorCode.
 *
 *----------------------------------------------------------------------
 */

void
VerbsTimeoutCode(
    Tcl_Interp *interp,
    Tcl_WideInt got)
{
    Tcl_SetObjErrorCode(interp, Tcl_NewListObj(3, (Tcl_Obj *[]) {
	    Tcl_NewStringObj("VERBS", -1), Tcl_NewStringObj("TIMEOUT", -1),
	    Tcl_NewWideIntObj(got)}));
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsArgError, VerbsSysError --
 *
 *	Leave an error in the interpreter.  VerbsArgError is for bad input:
 *	the message is formatted, the errorCode is {VERBS ARG key value};
 *	with a NULL interp (a parser asked only whether a value is good, as
 *	VerbsGetUInt(NULL, ...)) it leaves nothing.
 *	VerbsSysError is for a failing library call: "CALL on OBJ (WHAT):
 *	strerror" with errorCode {VERBS SYS CALL ERRNAME {message}}.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the result and errorCode.
 *
 *----------------------------------------------------------------------
 */

int
VerbsArgError(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    const char *format,
    ...)
{
    va_list ap, again;
    char *buf;
    int len;

    if (interp == NULL) {
	return TCL_ERROR;
    }

    /*
     * Measure first: a message quoting a long value is never cut.
     */

    va_start(ap, format);
    va_copy(again, ap);
    len = vsnprintf(NULL, 0, format, ap);
    va_end(ap);
    buf = ckalloc(len + 1);
    vsnprintf(buf, (size_t) len + 1, format, again);
    va_end(again);
    Tcl_SetObjResult(interp, Tcl_NewStringObj(buf, len));
    ckfree(buf);
    Tcl_SetErrorCode(interp, "VERBS", "ARG", key,
	    valueObj ? Tcl_GetString(valueObj) : "", NULL);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsStateError --
 *
 *	The error of a method called on an object in a state where the C
 *	library would refuse it or, worse, dereference something not yet
 *	set up: "::verbs::cmid1 is idle: resolve_route needs ...", with the
 *	errorCode {VERBS STATE type state method}.
 *
 * Results:
 *	TCL_ERROR.
 *
 * Side effects:
 *	Sets the interpreter's result and errorCode.
 *
 *----------------------------------------------------------------------
 */

int
VerbsStateError(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    const char *state,
    const char *method,
    const char *needs)
{
    Tcl_Obj *name = VerbsObjName(objPtr);

    Tcl_SetObjResult(interp, Tcl_ObjPrintf("%s is %s: %s needs %s",
	    Tcl_GetString(name), state, method, needs));
    Tcl_DecrRefCount(name);
    Tcl_SetErrorCode(interp, "VERBS", "STATE", objPtr->typePtr->name, state,
	    method, NULL);
    return TCL_ERROR;
}

int
VerbsSysError(
    Tcl_Interp *interp,
    const char *call,
    VerbsObj *objPtr,
    const char *what,
    int errnum)
{
    Tcl_Obj *msg = Tcl_NewStringObj(call, -1);
    const char *text;

    if (errnum <= 0) {
	errnum = EIO;
    }
    Tcl_SetErrno(errnum);
    text = Tcl_ErrnoMsg(errnum);
    if (objPtr) {
	Tcl_Obj *name = VerbsObjName(objPtr);

	Tcl_AppendPrintfToObj(msg, " on %s", Tcl_GetString(name));
	Tcl_DecrRefCount(name);
    }
    if (what) {
	Tcl_AppendPrintfToObj(msg, " (%s)", what);
    }
    Tcl_AppendPrintfToObj(msg, ": %s", text);
    Tcl_SetObjResult(interp, msg);
    Tcl_SetErrorCode(interp, "VERBS", "SYS", call, Tcl_ErrnoId(), text, NULL);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * EnumName, VerbsEnumObj, VerbsFlagsObj --
 *
 *	Name an enum value (EnumName: NULL when it has none), or a flag
 *	mask as a list of names.  Values with
 *	no name come out as integers (the unnamed bits of a mask as one
 *	integer at the end of the list).
 *
 * Results:
 *	A new Tcl_Obj.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static const char *
EnumName(
    const VerbsEnum *table,
    uint64_t value)
{
    for (; table->name; table++) {
	if (table->value == value) {
	    return table->name;
	}
    }
    return NULL;
}

Tcl_Obj *
VerbsEnumObj(
    const VerbsEnum *table,
    uint64_t value)
{
    const char *name = EnumName(table, value);

    return name ? Tcl_NewStringObj(name, -1)
	    : Tcl_NewWideIntObj((Tcl_WideInt) value);
}

/*
 * VerbsEnumShared: the same name as the thread's shared value (the key
 * object of the name, VerbsKeyObj), for a value that goes straight into a
 * list or dict made often (completions, events): no new string each time.
 * Its caller must not free it without having taken a reference.
 */

Tcl_Obj *
VerbsEnumShared(
    const VerbsEnum *table,
    uint64_t value)
{
    const char *name = EnumName(table, value);

    return name ? VerbsKeyObj(name) : Tcl_NewWideIntObj((Tcl_WideInt) value);
}

Tcl_Obj *
VerbsFlagsObj(
    const VerbsEnum *table,
    uint64_t value)
{
    Tcl_Obj *list = Tcl_NewObj();

    for (; table->name && value; table++) {
	if (table->value != 0 && (value & table->value) == table->value) {
	    Tcl_ListObjAppendElement(NULL, list,
		    Tcl_NewStringObj(table->name, -1));
	    value &= ~table->value;
	}
    }
    if (value) {
	Tcl_ListObjAppendElement(NULL, list,
		Tcl_NewWideIntObj((Tcl_WideInt) value));
    }
    return list;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsGetTimeout --
 *
 *	A -timeout value: milliseconds, or -1 for no limit.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Sets *msPtr.
 *
 *----------------------------------------------------------------------
 */

int
VerbsGetTimeout(
    Tcl_Interp *interp,
    Tcl_Obj *valueObj,
    int *msPtr)
{
    Tcl_WideInt w;
    const char *s;
    int ok = (Tcl_GetWideIntFromObj(NULL, valueObj, &w) == TCL_OK
	    && w >= -1 && w <= INT32_MAX);

    /*
     * Tcl 8.6 reads 2^64-1 as the wide integer -1 (it wraps values up to
     * 2^64): a negative value must have been written with a minus sign,
     * or a huge limit would become no limit at all.
     */

    if (ok && w < 0) {
	for (s = Tcl_GetString(valueObj); *s == ' ' || *s == '\t'; s++) {
	    /* Leading white space. */
	}
	ok = (*s == '-');
    }
    if (!ok) {
	return VerbsArgError(interp, "-timeout", valueObj,
		"bad -timeout \"%s\": must be milliseconds, or -1 for no limit",
		Tcl_GetString(valueObj));
    }
    *msPtr = (int) w;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsCheckLength --
 *
 *	A size option (-length, -count, -size) must be at least 1.
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
VerbsCheckLength(
    Tcl_Interp *interp,
    const char *key,
    uint64_t value)
{
    Tcl_Obj *v;

    if (value > 0) {
	return TCL_OK;
    }
    v = Tcl_NewWideIntObj((Tcl_WideInt) value);
    Tcl_IncrRefCount(v);
    VerbsArgError(interp, key, v, "bad %s \"%s\": must be at least 1",
	    key, Tcl_GetString(v));
    Tcl_DecrRefCount(v);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsCheckRange --
 *
 *	The range check, and its error, for any object of SIZE bytes (an
 *	MR, device memory, a DevX UMEM): "range OFF+LEN is outside NAME
 *	(length SIZE)", errorCode {VERBS ARG offset|length VALUE}.
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
VerbsCheckRange(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    uint64_t size,
    uint64_t off,
    uint64_t len,
    int lengthAtFault)		/* The error names the length, else the
				 * offset. */
{
    Tcl_Obj *name, *value;

    if (off <= size && len <= size - off) {
	return TCL_OK;
    }
    name = VerbsObjName(objPtr);
    value = Tcl_NewWideIntObj((Tcl_WideInt) (lengthAtFault ? len : off));
    Tcl_IncrRefCount(value);
    VerbsArgError(interp, lengthAtFault ? "length" : "offset", value,
	    "range %llu+%llu is outside %s (length %llu)",
	    (unsigned long long) off, (unsigned long long) len,
	    Tcl_GetString(name), (unsigned long long) size);
    Tcl_DecrRefCount(value);
    Tcl_DecrRefCount(name);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsGetRange, VerbsGetWrite --
 *
 *	The arguments of the read and write methods of memory objects of
 *	SIZE bytes (MR, device memory, DevX UMEM), parsed and checked
 *	(VerbsCheckRange) in one way: $obj read OFFSET LENGTH (lengthObj
 *	NULL: the length already in *lenPtr), $obj write OFFSET BYTES.
 *	An out of range error names the length, unless the offset itself
 *	lies past the end (for a read).
 *
 * Results:
 *	A standard Tcl result; the offset, and the length or the bytes.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

int
VerbsGetRange(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    uint64_t size,
    Tcl_Obj *offsetObj,
    Tcl_Obj *lengthObj,
    uint64_t *offPtr,
    uint64_t *lenPtr)
{
    if (VerbsGetUInt(interp, "offset", offsetObj, INT64_MAX, offPtr)
	    != TCL_OK || (lengthObj && VerbsGetUInt(interp, "length",
	    lengthObj, INT64_MAX, lenPtr) != TCL_OK)) {
	return TCL_ERROR;
    }
    return VerbsCheckRange(interp, objPtr, size, *offPtr, *lenPtr,
	    *offPtr <= size && lengthObj);
}

const unsigned char *
VerbsGetWrite(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    uint64_t size,
    Tcl_Obj *offsetObj,
    Tcl_Obj *bytesObj,
    uint64_t *offPtr,
    Tcl_Size *lenPtr)
{
    const unsigned char *bytes;

    /*
     * The offset first: its integer parse could free the byte array rep
     * if both words are one object.
     */

    if (VerbsGetUInt(interp, "offset", offsetObj, INT64_MAX, offPtr)
	    != TCL_OK) {
	return NULL;
    }
    bytes = VerbsGetBytes(interp, "bytes", bytesObj, lenPtr);
    if (bytes == NULL || VerbsCheckRange(interp, objPtr, size, *offPtr,
	    (uint64_t) *lenPtr, 1) != TCL_OK) {
	return NULL;
    }
    return bytes;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsGetEnum, VerbsGetFlags, VerbsGetBoolean, VerbsGetUInt,
 * VerbsCheckMax --
 *
 *	Parse an enum (a name, or the number of one), a flag list (names or
 *	numbers of known flags, or'ed together), a boolean, or an unsigned
 *	integer no larger than max.  VerbsCheckMax: an integer already
 *	parsed (an option whose limit is known only later) is no larger
 *	than max, with VerbsGetUInt's error.
 *
 * Results:
 *	TCL_OK with *valuePtr set, or TCL_ERROR with a message naming the
 *	key and what is allowed (errorCode {VERBS ARG key value}).
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

static int
LookupName(
    const VerbsEnum *table,
    const char *name,
    uint64_t *valuePtr)
{
    for (; table->name; table++) {
	if (strcmp(table->name, name) == 0) {
	    *valuePtr = table->value;
	    return 1;
	}
    }
    return 0;
}

static int
BadName(
    Tcl_Interp *interp,
    const VerbsEnum *table,
    const char *key,
    Tcl_Obj *valueObj)
{
    Tcl_Obj *msg;

    if (interp == NULL) {
	return TCL_ERROR;		/* As VerbsArgError. */
    }
    msg = Tcl_ObjPrintf("bad %s \"%s\": must be ", key,
	    Tcl_GetString(valueObj));
    for (; table->name; table++) {
	Tcl_AppendPrintfToObj(msg, "%s, ", table->name);
    }
    Tcl_AppendToObj(msg, "or the number of one of them", -1);
    Tcl_SetObjResult(interp, msg);
    Tcl_SetErrorCode(interp, "VERBS", "ARG", key, Tcl_GetString(valueObj),
	    NULL);
    return TCL_ERROR;
}

int
VerbsGetEnum(
    Tcl_Interp *interp,
    const VerbsEnum *table,
    const char *key,
    Tcl_Obj *valueObj,
    uint64_t *valuePtr)
{
    Tcl_WideInt w;

    if (LookupName(table, Tcl_GetString(valueObj), valuePtr)) {
	return TCL_OK;
    }

    /*
     * A number must be one of the enum's values: the library and the
     * kernel do not all check (rxe oopses on an unknown WR opcode).
     */

    if (Tcl_GetWideIntFromObj(NULL, valueObj, &w) == TCL_OK && w >= 0
	    && EnumName(table, (uint64_t) w) != NULL) {
	*valuePtr = (uint64_t) w;
	return TCL_OK;
    }
    return BadName(interp, table, key, valueObj);
}

int
VerbsGetFlags(
    Tcl_Interp *interp,
    const VerbsEnum *table,
    const char *key,
    Tcl_Obj *valueObj,
    uint64_t *valuePtr)
{
    Tcl_Obj **elems;
    const VerbsEnum *e;
    Tcl_Size n, i;
    uint64_t v, known = 0, result = 0;
    Tcl_WideInt w;

    if (Tcl_ListObjGetElements(NULL, valueObj, &n, &elems) != TCL_OK) {
	return VerbsArgError(interp, key, valueObj,
		"bad %s \"%s\": must be a list of flags", key,
		Tcl_GetString(valueObj));
    }
    for (e = table; e->name; e++) {
	known |= e->value;
    }
    for (i = 0; i < n; i++) {
	if (LookupName(table, Tcl_GetString(elems[i]), &v)) {
	    result |= v;
	} else if (Tcl_GetWideIntFromObj(NULL, elems[i], &w) == TCL_OK
		&& w >= 0 && ((uint64_t) w & ~known) == 0) {
	    /* A number may combine flags, but only known ones. */
	    result |= (uint64_t) w;
	} else {
	    return BadName(interp, table, key, elems[i]);
	}
    }
    *valuePtr = result;
    return TCL_OK;
}

int
VerbsGetBoolean(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    int *valuePtr)
{
    if (Tcl_GetBooleanFromObj(NULL, valueObj, valuePtr) != TCL_OK) {
	return VerbsArgError(interp, key, valueObj,
		"bad %s \"%s\": must be a boolean", key,
		Tcl_GetString(valueObj));
    }
    return TCL_OK;
}

int
VerbsGetUInt(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    uint64_t max,
    uint64_t *valuePtr)
{
    Tcl_WideInt w;
    const char *digits = Tcl_GetString(valueObj);

    while (*digits == ' ' || *digits == '\t') {
	digits++;
    }

    /*
     * Tcl 8.6 wraps bignums below 2**64 in magnitude into wide ints, so a
     * minus sign is checked on the string.
     */

    if (*digits != '-' && Tcl_GetWideIntFromObj(NULL, valueObj, &w) == TCL_OK
	    && w >= 0 && (uint64_t) w <= max) {
	*valuePtr = (uint64_t) w;
	return TCL_OK;
    }
    if (max > (uint64_t) INT64_MAX) {
	/*
	 * Above 2**63-1 Tcl has a bignum (or a wrapped wide integer): read
	 * the digits (decimal, or hex with 0x) as an unsigned number.
	 */

	const char *s = Tcl_GetString(valueObj);
	char *end;
	unsigned long long u;

	while (*s == ' ' || *s == '\t') {
	    s++;
	}
	errno = 0;
	u = strtoull(s, &end, 0);
	if (*s != '-' && *s != '+' && end != s && *end == '\0' && errno == 0) {
	    *valuePtr = u;
	    return TCL_OK;
	}
    }
    return VerbsArgError(interp, key, valueObj,
	    "bad %s \"%s\": must be an integer from 0 to %llu", key,
	    Tcl_GetString(valueObj), (unsigned long long) max);
}

int
VerbsCheckMax(
    Tcl_Interp *interp,
    const char *key,
    uint64_t value,
    uint64_t max)
{
    char digits[24];
    Tcl_Obj *valueObj;
    uint64_t v;
    int result;

    if (value <= max) {
	return TCL_OK;
    }
    snprintf(digits, sizeof(digits), "%llu", (unsigned long long) value);
    valueObj = Tcl_NewStringObj(digits, -1);
    Tcl_IncrRefCount(valueObj);
    result = VerbsGetUInt(interp, key, valueObj, max, &v);
    Tcl_DecrRefCount(valueObj);
    return result;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsGetBytes --
 *
 *	The bytes of a value that must be a byte string: every character
 *	from \x00 to \xFF.  Tcl 9 refuses to convert other strings, Tcl 8.6
 *	would drop the high bits of each character; both are an error
 *	here, the same on both.
 *
 * Results:
 *	The bytes (valid while valueObj is unchanged) and their number in
 *	*lenPtr, or NULL with an error naming key (none when interp is
 *	NULL).
 *
 * Side effects:
 *	May give valueObj a byte array representation.
 *
 *----------------------------------------------------------------------
 */

const unsigned char *
VerbsGetBytes(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    Tcl_Size *lenPtr)
{
    static const Tcl_ObjType *byteArrayType = NULL;	/* Any thread's. */
    const Tcl_ObjType *bat = __atomic_load_n(&byteArrayType,
	    __ATOMIC_ACQUIRE);
    const unsigned char *bytes;

    if (bat == NULL) {
	bat = Tcl_GetObjType("bytearray");
	__atomic_store_n(&byteArrayType, bat, __ATOMIC_RELEASE);
    }
    if (valueObj->typePtr != bat || bat == NULL) {
	/*
	 * In Tcl's UTF-8 a character above \xFF starts with a byte of 0xC4
	 * or more (\x80 to \xFF start with 0xC2 or 0xC3, and Tcl writes
	 * \x00 as 0xC0 0x80).
	 */

	Tcl_Size len;
	const unsigned char *s = (const unsigned char *)
		Tcl_GetStringFromObj(valueObj, &len);
	Tcl_Size i;

	for (i = 0; i < len; i++) {
	    if (s[i] >= 0xC4) {
		goto notBytes;
	    }
	}
    }
    bytes = Tcl_GetByteArrayFromObj(valueObj, lenPtr);
    if (bytes != NULL) {
	return bytes;
    }
  notBytes:
    if (interp == NULL) {
	return NULL;
    }
    VerbsArgError(interp, key, valueObj, "expected byte string but got "
	    "\"%s\": a character above \\xFF is not a byte",
	    Tcl_GetString(valueObj));
    return NULL;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsU64Obj --
 *
 *	An unsigned 64-bit value as a Tcl_Obj that reads back the same
 *	(above 2**63-1 as its decimal digits, which Tcl takes as a bignum).
 *
 * Results:
 *	A new Tcl_Obj.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

Tcl_Obj *
VerbsU64Obj(
    uint64_t v)
{
    char buf[24];

    if (v <= (uint64_t) INT64_MAX) {
	return Tcl_NewWideIntObj((Tcl_WideInt) v);
    }
    snprintf(buf, sizeof(buf), "%llu", (unsigned long long) v);
    return Tcl_NewStringObj(buf, -1);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsGuidObj, VerbsGidObj, VerbsGetGid --
 *
 *	GUIDs print as four groups of four hex digits, GIDs as eight
 *	groups; GID input is any IPv6 notation, 32 hex digits (the GID of
 *	the ibv_*_pingpong exchange), or an IPv4 address (mapped to
 *	::ffff:a.b.c.d as RoCE v2 does).
 *
 * Results:
 *	VerbsGidObj: a new Tcl_Obj.  VerbsGetGid: a standard Tcl result.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

Tcl_Obj *
VerbsGuidObj(
    uint64_t beGuid)		/* In network byte order. */
{
    uint64_t g = be64toh(beGuid);

    return Tcl_ObjPrintf("%04x:%04x:%04x:%04x", (unsigned)(g >> 48),
	    (unsigned)(g >> 32) & 0xffff, (unsigned)(g >> 16) & 0xffff,
	    (unsigned) g & 0xffff);
}

Tcl_Obj *
VerbsGidObj(
    const union ibv_gid *gid)
{
    const uint8_t *r = gid->raw;

    return Tcl_ObjPrintf("%02x%02x:%02x%02x:%02x%02x:%02x%02x:"
	    "%02x%02x:%02x%02x:%02x%02x:%02x%02x", r[0], r[1], r[2], r[3],
	    r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13],
	    r[14], r[15]);
}

int
VerbsGetGid(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    union ibv_gid *gid)
{
    const char *s = Tcl_GetString(valueObj);
    struct in_addr v4;

    if (inet_pton(AF_INET6, s, gid->raw) == 1) {
	return TCL_OK;
    }
    if (strlen(s) == 32 && strspn(s, "0123456789abcdefABCDEF") == 32) {
	/*
	 * The 32 hex digits of the ibv_*_pingpong wire format.
	 */

	int i;

	for (i = 0; i < 16; i++) {
	    sscanf(s + 2 * i, "%2hhx", &gid->raw[i]);
	}
	return TCL_OK;
    }
    if (inet_pton(AF_INET, s, &v4) == 1) {
	memset(gid->raw, 0, 10);
	gid->raw[10] = gid->raw[11] = 0xff;
	memcpy(gid->raw + 12, &v4, 4);
	return TCL_OK;
    }
    return VerbsArgError(interp, key, valueObj,
	    "bad %s \"%s\": must be a GID in IPv6 notation, 32 hex digits "
	    "or an IPv4 address",
	    key, s);
}

/*
 *----------------------------------------------------------------------
 *
 * LoadUInt, StoreUInt --
 *
 *	Read and write an unsigned member of 1, 2, 4 or 8 bytes.
 *
 * Results:
 *	LoadUInt: the value.
 *
 * Side effects:
 *	StoreUInt: writes the member.
 *
 *----------------------------------------------------------------------
 */

static uint64_t
LoadUInt(
    const void *p,
    int size)
{
    switch (size) {
    case 1: return *(const uint8_t *) p;
    case 2: return *(const uint16_t *) p;
    case 4: return *(const uint32_t *) p;
    default: return *(const uint64_t *) p;
    }
}

static void
StoreUInt(
    void *p,
    int size,
    uint64_t v)
{
    switch (size) {
    case 1: *(uint8_t *) p = (uint8_t) v; break;
    case 2: *(uint16_t *) p = (uint16_t) v; break;
    case 4: *(uint32_t *) p = (uint32_t) v; break;
    default: *(uint64_t *) p = v; break;
    }
}

/*
 * Dict keys are shared Tcl_Objs, one per field name and thread, so that a
 * poll returning many completions does not make the same strings again.
 */

typedef struct ThreadKeys {
    int initialized;
    Tcl_HashTable keys;		/* const char *name -> Tcl_Obj. */
} ThreadKeys;

static Tcl_ThreadDataKey keysKey;	/* Per thread: ThreadKeys. */

static void
FreeKeys(
    ClientData clientData)
{
    ThreadKeys *tk = (ThreadKeys *) clientData;
    Tcl_HashSearch search;
    Tcl_HashEntry *hPtr;

    for (hPtr = Tcl_FirstHashEntry(&tk->keys, &search); hPtr;
	    hPtr = Tcl_NextHashEntry(&search)) {
	Tcl_DecrRefCount((Tcl_Obj *) Tcl_GetHashValue(hPtr));
    }
    Tcl_DeleteHashTable(&tk->keys);
    tk->initialized = 0;
}

Tcl_Obj *
VerbsKeyObj(
    const char *name)		/* A string of static storage (a field name
				 * of a table, a literal): its address is the
				 * key. */
{
    ThreadKeys *tk = (ThreadKeys *) Tcl_GetThreadData(&keysKey,
	    sizeof(ThreadKeys));
    Tcl_HashEntry *hPtr;
    Tcl_Obj *key;
    int isNew;

    if (!tk->initialized) {
	Tcl_InitHashTable(&tk->keys, TCL_ONE_WORD_KEYS);
	tk->initialized = 1;
	Tcl_CreateThreadExitHandler(FreeKeys, tk);
    }
    hPtr = Tcl_CreateHashEntry(&tk->keys, name, &isNew);
    if (isNew) {
	key = Tcl_NewStringObj(name, -1);
	Tcl_IncrRefCount(key);
	Tcl_SetHashValue(hPtr, key);
    }
    return (Tcl_Obj *) Tcl_GetHashValue(hPtr);
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsFieldGet --
 *
 *	The value of one row: the member of the struct at base, or for
 *	cget rows (objPtr not NULL) of the object, the struct it points to
 *	(VF_DEREF), or what the row computes.
 *
 * Results:
 *	A standard Tcl result, the value in *valuePtr: a new object, or for
 *	VF_TCLOBJ the one stored.
 *
 * Side effects:
 *	A VF_PROC row may ask the device.
 *
 *----------------------------------------------------------------------
 */

int
VerbsFieldGet(
    Tcl_Interp *interp,
    const VerbsField *f,
    const void *base,
    VerbsObj *objPtr,
    Tcl_Obj **valuePtr)
{
    const char *p;
    Tcl_Obj *v;

    if (f->flags & VF_DEREF) {
	base = *(void *const *) ((const char *) base + f->ptrOffset);
    }
    p = (const char *) base + f->offset;
    switch (f->kind) {
    case VF_INT:
	v = Tcl_NewIntObj(*(const int *) p);
	break;
    case VF_BOOL:
	v = Tcl_NewBooleanObj(*(const int *) p);
	break;
    case VF_ENUM:
	v = VerbsEnumObj((const VerbsEnum *) f->table, LoadUInt(p, f->size));
	break;
    case VF_FLAGS:
	v = VerbsFlagsObj((const VerbsEnum *) f->table, LoadUInt(p, f->size));
	break;
    case VF_GID:
	v = VerbsGidObj((const union ibv_gid *) p);
	break;
    case VF_GUID:
	v = VerbsGuidObj(*(const uint64_t *) p);
	break;
    case VF_STRING:
	v = Tcl_NewStringObj(p, (int) strnlen(p, f->size));
	break;
    case VF_CSTR:
	v = Tcl_NewStringObj(*(char *const *) p ? *(char *const *) p : "",
		-1);
	break;
    case VF_BE32:
	v = Tcl_NewWideIntObj(ntohl(*(const uint32_t *) p));
	break;
    case VF_BE16:
	v = Tcl_NewIntObj(ntohs(*(const uint16_t *) p));
	break;
    case VF_MAC: {
	const uint8_t *m = (const uint8_t *) p;

	v = Tcl_ObjPrintf("%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
		m[3], m[4], m[5]);
	break;
    }
    case VF_IPV4:
    case VF_IPV6: {
	char buf[INET6_ADDRSTRLEN];

	inet_ntop(f->kind == VF_IPV4 ? AF_INET : AF_INET6, p, buf,
		sizeof(buf));
	v = Tcl_NewStringObj(buf, -1);
	break;
    }
    case VF_BYTES:
	v = Tcl_NewByteArrayObj((const unsigned char *) p, f->size);
	break;
    case VF_STRUCT:
	v = VerbsStructToDict((const VerbsStruct *) f->table, p);
	break;
    case VF_OBJ:
	v = *(VerbsObj *const *) p
		? VerbsObjNameShared(*(VerbsObj *const *) p) : Tcl_NewObj();
	break;
    case VF_PARENT:
	v = objPtr->parent ? VerbsObjNameShared(objPtr->parent)
		: Tcl_NewObj();
	break;
    case VF_TYPE:
	v = Tcl_NewStringObj(objPtr->typePtr->name, -1);
	break;
    case VF_PROC:
	return f->getProc(interp, objPtr, valuePtr);
    case VF_TCLOBJ:
	v = *(Tcl_Obj *const *) p ? *(Tcl_Obj *const *) p : Tcl_NewObj();
	break;
    default:
	v = VerbsU64Obj(LoadUInt(p, f->size));
	break;
    }
    *valuePtr = v;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsStructToDict --
 *
 *	Turn a C struct into a dict with every field of its table.
 *
 * Results:
 *	A new dict Tcl_Obj.
 *
 * Side effects:
 *	None.
 *
 *----------------------------------------------------------------------
 */

Tcl_Obj *
VerbsStructToDict(
    const VerbsStruct *st,
    const void *base)
{
    Tcl_Obj *dict = Tcl_NewDictObj(), *v;
    const VerbsField *f;

    for (f = st->fields; f->name; f++) {
	/* Struct rows are plain members: this cannot fail. */
	VerbsFieldGet(NULL, f, base, NULL, &v);
	Tcl_DictObjPut(NULL, dict, VerbsKeyObj(f->name), v);
    }
    return dict;
}

/*
 *----------------------------------------------------------------------
 *
 * GetMac --
 *
 *	Parse a MAC address: six groups of one or two hex digits separated
 *	by colons.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Writes the six bytes at mac.
 *
 *----------------------------------------------------------------------
 */

static int
GetMac(
    Tcl_Interp *interp,
    const char *key,
    Tcl_Obj *valueObj,
    uint8_t *mac)
{
    const char *s = Tcl_GetString(valueObj);
    uint8_t bytes[6];
    int i, n;

    for (i = 0; i < 6; i++) {
	unsigned int b = 0;

	for (n = 0; n < 2 && isxdigit((unsigned char) *s); n++, s++) {
	    b = b * 16 + (unsigned int) (isdigit((unsigned char) *s)
		    ? *s - '0' : tolower((unsigned char) *s) - 'a' + 10);
	}
	if (n == 0 || *s != (i < 5 ? ':' : '\0')) {
	    return VerbsArgError(interp, key, valueObj,
		    "bad %s \"%s\": must be a MAC address such as "
		    "02:00:5e:00:53:01", key, Tcl_GetString(valueObj));
	}
	bytes[i] = (uint8_t) b;
	s++;
    }
    memcpy(mac, bytes, 6);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsFieldFill --
 *
 *	Set a member to its widest value, all of its bits (or of the
 *	row's max): the full mask of a field.
 *
 * Results:
 *	None.
 *
 * Side effects:
 *	Writes the member.
 *
 *----------------------------------------------------------------------
 */

void
VerbsFieldFill(
    const VerbsField *f,
    void *base)
{
    char *p = (char *) base + f->offset;

    switch (f->kind) {
    case VF_BE16:
	*(uint16_t *) p = htons((uint16_t) (f->max ? f->max : UINT16_MAX));
	break;
    case VF_BE32:
	*(uint32_t *) p = htonl((uint32_t) (f->max ? f->max : UINT32_MAX));
	break;
    case VF_UINT:
	if (f->max) {
	    StoreUInt(p, f->size, f->max);
	    break;
	}
	/* FALLTHRU */
    default:
	memset(p, 0xff, f->size);
	break;
    }
}

/*
 *----------------------------------------------------------------------
 *
 * SetBytes --
 *
 *	SetField for the kinds stored as raw bytes: a MAC, an IPv4 or IPv6
 *	address (network order), a byte string of at most the member's
 *	size.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills the member at p.
 *
 *----------------------------------------------------------------------
 */

static int
SetBytes(
    Tcl_Interp *interp,
    const VerbsField *f,
    Tcl_Obj *valueObj,
    char *p)
{
    switch (f->kind) {
    case VF_MAC:
	return GetMac(interp, f->name, valueObj, (uint8_t *) p);
    case VF_IPV4:
	if (inet_pton(AF_INET, Tcl_GetString(valueObj), p) != 1) {
	    return VerbsArgError(interp, f->name, valueObj,
		    "bad %s \"%s\": must be an IPv4 address", f->name,
		    Tcl_GetString(valueObj));
	}
	return TCL_OK;
    case VF_IPV6:
	if (inet_pton(AF_INET6, Tcl_GetString(valueObj), p) != 1) {
	    return VerbsArgError(interp, f->name, valueObj,
		    "bad %s \"%s\": must be an IPv6 address", f->name,
		    Tcl_GetString(valueObj));
	}
	return TCL_OK;
    case VF_BYTES: {
	Tcl_Size len;
	const unsigned char *bytes = VerbsGetBytes(interp, f->name, valueObj,
		&len);

	if (bytes == NULL) {
	    return TCL_ERROR;
	}
	if (len > (Tcl_Size) f->size) {
	    return VerbsArgError(interp, f->name, valueObj,
		    "%s is %" TCL_SIZE_MODIFIER "d bytes: at most %d fit",
		    f->name, len, (int) f->size);
	}
	memset(p, 0, f->size);
	memcpy(p, bytes, (size_t) len);
	return TCL_OK;
    }
    }
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * SetField --
 *
 *	Store one value into the member of the struct at base that the
 *	row describes; the row's name names the value in messages.
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Writes the member.
 *
 *----------------------------------------------------------------------
 */

static int
SetField(
    Tcl_Interp *interp,
    const VerbsStruct *st,	/* For messages. */
    const VerbsField *f,
    Tcl_Obj *valueObj,
    void *base)
{
    char *p = (char *) base + f->offset;
    uint64_t v;

    if (f->flags & VF_READONLY) {
	return VerbsArgError(interp, f->name, valueObj,
		"%s \"%s\" is read-only", st->name, f->name);
    }
    switch (f->kind) {
    case VF_INT: {
	int i;

	if (Tcl_GetIntFromObj(NULL, valueObj, &i) != TCL_OK) {
	    return VerbsArgError(interp, f->name, valueObj,
		    "bad %s \"%s\": must be an integer", f->name,
		    Tcl_GetString(valueObj));
	}
	*(int *) p = i;
	return TCL_OK;
    }
    case VF_BOOL:
	return VerbsGetBoolean(interp, f->name, valueObj, (int *) p);
    case VF_TIMEOUT:
	return VerbsGetTimeout(interp, valueObj, (int *) p);
    case VF_ENUM:
	if (VerbsGetEnum(interp, (const VerbsEnum *) f->table, f->name,
		valueObj, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	StoreUInt(p, f->size, v);
	return TCL_OK;
    case VF_FLAGS:
	if (VerbsGetFlags(interp, (const VerbsEnum *) f->table, f->name,
		valueObj, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	StoreUInt(p, f->size, v);
	return TCL_OK;
    case VF_GID:
	return VerbsGetGid(interp, f->name, valueObj, (union ibv_gid *) p);
    case VF_BE32:
	if (VerbsGetUInt(interp, f->name, valueObj,
		f->max ? f->max : UINT32_MAX, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	*(uint32_t *) p = htonl((uint32_t) v);
	return TCL_OK;
    case VF_BE16:
	if (VerbsGetUInt(interp, f->name, valueObj,
		f->max ? f->max : UINT16_MAX, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	*(uint16_t *) p = htons((uint16_t) v);
	return TCL_OK;
    case VF_MAC:
    case VF_IPV4:
    case VF_IPV6:
    case VF_BYTES:
	return SetBytes(interp, f, valueObj, p);
    case VF_STRUCT:
	if (f->setProc) {
	    return f->setProc(interp, f->name, valueObj, p);
	}
	return VerbsDictToStruct(interp, (const VerbsStruct *) f->table,
		f->name, valueObj, p, NULL);
    case VF_OBJ: {
	VerbsObj *o = VerbsObjGet(interp, valueObj,
		(const VerbsType *) f->table);

	if (o == NULL) {
	    return TCL_ERROR;
	}
	*(VerbsObj **) p = o;
	return TCL_OK;
    }
    case VF_TCLOBJ:
	*(Tcl_Obj **) p = valueObj;
	return TCL_OK;
    case VF_PARSE:
	return f->setProc(interp, f->name, valueObj, p);
    case VF_UINT: {
	uint64_t max = f->max ? f->max : f->size >= 8 ? UINT64_MAX
		: (((uint64_t) 1) << (8 * f->size)) - 1;

	if (VerbsGetUInt(interp, f->name, valueObj, max, &v) != TCL_OK) {
	    return TCL_ERROR;
	}
	StoreUInt(p, f->size, v);
	return TCL_OK;
    }
    default:
	return VerbsArgError(interp, f->name, valueObj,
		"%s \"%s\" cannot be set", st->name, f->name);
    }
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsDictToStruct --
 *
 *	Fill a C struct from a dict; key names the dict in messages (an
 *	option or field name).  Keys not in the dict leave their
 *	field alone.  Every key given adds its attr_mask bit to *maskPtr
 *	(which may be NULL).
 *
 * Results:
 *	A standard Tcl result; unknown keys, read-only keys and bad values
 *	are errors naming the key.
 *
 * Side effects:
 *	Writes the struct.
 *
 *----------------------------------------------------------------------
 */

int
VerbsDictToStruct(
    Tcl_Interp *interp,
    const VerbsStruct *st,
    const char *key,		/* What the dict is, for messages. */
    Tcl_Obj *dictObj,
    void *base,
    uint64_t *maskPtr)
{
    Tcl_DictSearch search;
    Tcl_Obj *keyObj, *valueObj;
    int done, index;
    uint64_t mask = 0;

    if (Tcl_DictObjFirst(NULL, dictObj, &search, &keyObj, &valueObj,
	    &done) != TCL_OK) {
	return VerbsArgError(interp, key, dictObj,
		"bad %s \"%s\": must be a dict of %ss", key,
		Tcl_GetString(dictObj), st->name);
    }
    for (; !done; Tcl_DictObjNext(&search, &keyObj, &valueObj, &done)) {
	if (Tcl_GetIndexFromObjStruct(interp, keyObj, st->fields,
		sizeof(VerbsField), st->name, TCL_EXACT, &index) != TCL_OK) {
	    Tcl_SetErrorCode(interp, "VERBS", "ARG", Tcl_GetString(keyObj),
		    Tcl_GetString(valueObj), NULL);
	    goto error;
	}
	if (SetField(interp, st, &st->fields[index], valueObj, base)
		!= TCL_OK) {
	    goto error;
	}
	mask |= st->fields[index].mask;
    }
    Tcl_DictObjDone(&search);
    if (maskPtr) {
	*maskPtr |= mask;
    }
    return TCL_OK;

  error:
    Tcl_DictObjDone(&search);
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsOlderOption --
 *
 *	After Tcl_GetIndexFromObjStruct refused an option word: "-command"
 *	in full, the older name of -as, is taken for the -as row of a table
 *	that has one (the error is then cleared).  Called only on a refusal,
 *	so that the options of a hot loop cost one cached lookup each.
 *
 * Results:
 *	TCL_OK with the -as row's index in *indexPtr, or TCL_ERROR leaving
 *	Tcl's error (which lists the rows and never the older name).
 *
 * Side effects:
 *	May reset the interp's result.
 *
 *----------------------------------------------------------------------
 */

int
VerbsOlderOption(
    Tcl_Interp *interp,
    Tcl_Obj *wordObj,
    const VerbsField *options,
    int *indexPtr)
{
    const VerbsField *f;

    if (strcmp(Tcl_GetString(wordObj), "-command") != 0) {
	return TCL_ERROR;
    }
    for (f = options; f->name; f++) {
	if (strcmp(f->name, "-as") == 0) {
	    Tcl_ResetResult(interp);
	    *indexPtr = (int) (f - options);
	    return TCL_OK;
	}
    }
    return TCL_ERROR;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsParseOptions --
 *
 *	Parse "-option value" pairs (and switches, "-option" alone) from
 *	objv[first] on into the record struct the option rows describe
 *	(unique prefixes are accepted; an option given twice is applied
 *	twice: the last value wins, and the dicts of a VF_STRUCT option
 *	merge).  Members of options not given
 *	keep what the caller put there, its defaults.
 *
 * Results:
 *	A standard Tcl result: unknown options, options without a value,
 *	bad values and missing required options are errors.
 *
 * Side effects:
 *	Fills the record.
 *
 *----------------------------------------------------------------------
 */

int
VerbsParseOptions(
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[],
    int first,
    const VerbsField *options,
    void *record)
{
    static const VerbsStruct what = {"option", NULL};
    const VerbsField *f;
    uint64_t given = 0;
    int i, index;

    for (i = first; i < objc; i += 2) {
	if (Tcl_GetIndexFromObjStruct(interp, objv[i], options,
		sizeof(VerbsField), "option", 0, &index) != TCL_OK
		&& VerbsOlderOption(interp, objv[i], options, &index)
		!= TCL_OK) {
	    return TCL_ERROR;
	}
	f = &options[index];
	given |= ((uint64_t) 1) << index;
	if (f->flags & VF_SWITCH) {
	    *(int *) ((char *) record + f->offset) = 1;
	    i--;
	    continue;
	}
	if (i + 1 >= objc) {
	    Tcl_SetObjResult(interp, Tcl_ObjPrintf(
		    "missing value for option \"%s\"", f->name));
	    Tcl_SetErrorCode(interp, "VERBS", "ARG", f->name, "", NULL);
	    return TCL_ERROR;
	}
	if (SetField(interp, &what, f, objv[i + 1], record) != TCL_OK) {
	    return TCL_ERROR;
	}
    }
    for (f = options, index = 0; f->name; f++, index++) {
	if ((f->flags & VF_REQUIRED) && !(given & (((uint64_t) 1) << index))) {
	    const char *reason = f->arg ? strchr(f->arg, ':') : NULL;

	    return VerbsArgError(interp, f->name, NULL, "missing %s%s%s",
		    f->name, reason ? ": " : "", reason ? reason + 1 : "");
	}
    }
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * VerbsUsage, VerbsUsageError --
 *
 *	The usage of a command from its fixed words and its option rows:
 *	"pd -length bytes ?-access flags? ?-as name?".
 *	VerbsUsageError: the "wrong # args" error that shows it, after the
 *	first skip words of objv.
 *
 * Results:
 *	VerbsUsage: a new Tcl_Obj.  VerbsUsageError: TCL_ERROR.
 *
 * Side effects:
 *	VerbsUsageError sets the interp's result.
 *
 *----------------------------------------------------------------------
 */

Tcl_Obj *
VerbsUsage(
    const char *fixed,
    const VerbsField *options)
{
    Tcl_Obj *usage = Tcl_NewStringObj(fixed, -1);
    const VerbsField *f;
    int pass;

    /*
     * Required options first, then the others, each in table order, and
     * -as, which every create command has, last.
     */

    for (pass = 0; pass < 3; pass++) {
	for (f = options; f->name; f++) {
	    int required = (f->flags & VF_REQUIRED) != 0;
	    int command = strcmp(f->name, "-as") == 0;
	    const char *arg = f->arg ? f->arg : "value";
	    const char *colon = strchr(arg, ':');
	    int len = colon ? (int) (colon - arg) : -1;

	    if (pass != (required ? 0 : command ? 2 : 1)) {
		continue;
	    }
	    if (Tcl_GetCharLength(usage) > 0) {
		Tcl_AppendToObj(usage, " ", 1);
	    }
	    if (f->flags & VF_SWITCH) {
		Tcl_AppendPrintfToObj(usage, "?%s?", f->name);
		continue;
	    }
	    Tcl_AppendPrintfToObj(usage, required ? "%s %.*s" : "?%s %.*s?",
		    f->name, len < 0 ? (int) strlen(arg) : len, arg);
	}
    }
    return usage;
}

int
VerbsUsageError(
    Tcl_Interp *interp,
    int skip,
    Tcl_Obj *const objv[],
    const char *fixed,
    const VerbsField *options)
{
    Tcl_Obj *usage = VerbsUsage(fixed, options);

    Tcl_WrongNumArgs(interp, skip, objv, Tcl_GetString(usage));
    Tcl_DecrRefCount(usage);
    return TCL_ERROR;
}
