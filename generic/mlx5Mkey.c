/*
 * mlx5Mkey.c --
 *
 *	Memory keys and crypto: [mlx5::mkey create] (an mkey object of its
 *	pd: an indirect key that a UMR work request lays over MRs, with
 *	signature or crypto offload), the work requests that configure one
 *	(opcodes mkey_configure, mr_list and mr_interleaved of [mlx5::qp
 *	wr_post], built here), [mlx5::dek create] (a data encryption key of
 *	a pd), [mlx5::cryptologin create] (a crypto login of a context) and
 *	the context's older crypto login calls.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include "mlx5.h"
#include <errno.h>
#include <string.h>

typedef struct Mlx5Mkey {
    VerbsObj obj;
    struct mlx5dv_mkey *mkey;
    uint64_t createFlags;
    uint16_t maxEntries;
} Mlx5Mkey;

typedef struct Mlx5Dek {
    VerbsObj obj;
    struct mlx5dv_dek *dek;
    VerbsObj *login;		/* Its crypto login (referenced), or NULL. */
} Mlx5Dek;

typedef struct Mlx5Login {
    VerbsObj obj;
    struct mlx5dv_crypto_login_obj *login;
} Mlx5Login;

static const VerbsEnum mkeyFlags[] = {
    {"indirect", MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT},
    {"block_signature", MLX5DV_MKEY_INIT_ATTR_FLAGS_BLOCK_SIGNATURE},
    {"crypto", MLX5DV_MKEY_INIT_ATTR_FLAGS_CRYPTO},
    {"update_tag", MLX5DV_MKEY_INIT_ATTR_FLAGS_UPDATE_TAG},
    {"remote_invalidate", MLX5DV_MKEY_INIT_ATTR_FLAGS_REMOTE_INVALIDATE},
    {NULL, 0}
};
static const VerbsEnum mkeyErrTypes[] = {
    {"none", MLX5DV_MKEY_NO_ERR},
    {"bad_guard", MLX5DV_MKEY_SIG_BLOCK_BAD_GUARD},
    {"bad_reftag", MLX5DV_MKEY_SIG_BLOCK_BAD_REFTAG},
    {"bad_apptag", MLX5DV_MKEY_SIG_BLOCK_BAD_APPTAG},
    {NULL, 0}
};
static const VerbsEnum loginStates[] = {
    {"valid", MLX5DV_CRYPTO_LOGIN_STATE_VALID},
    {"no_login", MLX5DV_CRYPTO_LOGIN_STATE_NO_LOGIN},
    {"invalid", MLX5DV_CRYPTO_LOGIN_STATE_INVALID},
    {NULL, 0}
};
static const VerbsEnum keySizes[] = {
    {"128", MLX5DV_CRYPTO_KEY_SIZE_128}, {"256", MLX5DV_CRYPTO_KEY_SIZE_256},
    {NULL, 0}
};
static const VerbsEnum keyPurposes[] = {
    {"aes_xts", MLX5DV_CRYPTO_KEY_PURPOSE_AES_XTS}, {NULL, 0}
};
static const VerbsEnum dekStates[] = {
    {"ready", MLX5DV_DEK_STATE_READY}, {"error", MLX5DV_DEK_STATE_ERROR},
    {NULL, 0}
};
static const VerbsEnum blockSizes[] = {
    {"512", MLX5DV_BLOCK_SIZE_512}, {"520", MLX5DV_BLOCK_SIZE_520},
    {"4048", MLX5DV_BLOCK_SIZE_4048}, {"4096", MLX5DV_BLOCK_SIZE_4096},
    {"4160", MLX5DV_BLOCK_SIZE_4160}, {NULL, 0}
};
static const VerbsEnum sigTypes[] = {
    {"t10dif", MLX5DV_SIG_TYPE_T10DIF}, {"crc", MLX5DV_SIG_TYPE_CRC},
    {NULL, 0}
};
static const VerbsEnum bgTypes[] = {
    {"crc", MLX5DV_SIG_T10DIF_CRC}, {"csum", MLX5DV_SIG_T10DIF_CSUM},
    {NULL, 0}
};
static const VerbsEnum crcTypes[] = {
    {"crc32", MLX5DV_SIG_CRC_TYPE_CRC32},
    {"crc32c", MLX5DV_SIG_CRC_TYPE_CRC32C},
    {"crc64_xp10", MLX5DV_SIG_CRC_TYPE_CRC64_XP10},
    {NULL, 0}
};
static const VerbsEnum difFlags[] = {
    {"ref_remap", MLX5DV_SIG_T10DIF_FLAG_REF_REMAP},
    {"app_escape", MLX5DV_SIG_T10DIF_FLAG_APP_ESCAPE},
    {"app_ref_escape", MLX5DV_SIG_T10DIF_FLAG_APP_REF_ESCAPE},
    {NULL, 0}
};
static const VerbsEnum sigAttrFlags[] = {
    {"copy_mask", MLX5DV_SIG_BLOCK_ATTR_FLAG_COPY_MASK}, {NULL, 0}
};
static const VerbsEnum cryptoStandards[] = {
    {"aes_xts", MLX5DV_CRYPTO_STANDARD_AES_XTS}, {NULL, 0}
};
static const VerbsEnum cryptoOrders[] = {
    {"signature_after_crypto_on_tx",
	    MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_AFTER_CRYPTO_ON_TX},
    {"signature_before_crypto_on_tx",
	    MLX5DV_SIGNATURE_CRYPTO_ORDER_SIGNATURE_BEFORE_CRYPTO_ON_TX},
    {NULL, 0}
};
static const VerbsEnum confFlags[] = {
    {"reset_sig_attr", MLX5DV_MKEY_CONF_FLAG_RESET_SIG_ATTR}, {NULL, 0}
};

/*
 * ------------------------------------------------------------------------
 * The types.
 * ------------------------------------------------------------------------
 */

static VerbsMethodProc MkeyCheck, DekQuery, LoginQuery;

static const VerbsMethod mkeyMethods[] = {
    {"check", MkeyCheck, 0, 0, NULL},
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE,
    {NULL, NULL, 0, 0, NULL}
};
static const VerbsMethod dekMethods[] = {
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE,
    {"query", DekQuery, 0, 0, NULL},
    {NULL, NULL, 0, 0, NULL}
};
static const VerbsMethod loginMethods[] = {
    VERBS_METHOD_CGET, VERBS_METHOD_CHILDREN, VERBS_METHOD_CLOSE,
    {"query", LoginQuery, 0, 0, NULL},
    {NULL, NULL, 0, 0, NULL}
};

static const VerbsField mkeyCget[] = {
    VERBS_CGET_PTR("-lkey", Mlx5Mkey, mkey, struct mlx5dv_mkey, lkey,
	    VF_UINT, NULL),
    VERBS_CGET_PTR("-rkey", Mlx5Mkey, mkey, struct mlx5dv_mkey, rkey,
	    VF_UINT, NULL),
    VERBS_CGET("-create_flags", Mlx5Mkey, createFlags, VF_FLAGS, mkeyFlags),
    VERBS_CGET("-max_entries", Mlx5Mkey, maxEntries, VF_UINT, NULL),
    VERBS_CGET_PARENT("-pd"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};
static const VerbsField dekCget[] = {
    VERBS_CGET("-crypto_login", Mlx5Dek, login, VF_OBJ, NULL),
    VERBS_CGET_PARENT("-pd"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};
static const VerbsField loginCget[] = {
    VERBS_CGET_PARENT("-context"),
    VERBS_CGET_COMMON,
    VERBS_FIELD_END
};

static void
MkeyFree(
    VerbsObj *objPtr)
{
    mlx5dv_destroy_mkey(((Mlx5Mkey *) objPtr)->mkey);
}

/*
 *----------------------------------------------------------------------
 *
 * MkeySge --
 *
 *	An mkey in an SGE of a work request, {MKEY OFFSET LENGTH}: its lkey
 *	and an address in its zero-based space.  The range is not checked
 *	here: the device checks it against the layout the mkey was last
 *	given (a signature mkey's space is not its MRs' bytes, and a range
 *	outside is what test_mkey_list_bad_flow asks the device to refuse:
 *	a local protection error completion).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Fills *sge.
 *
 *----------------------------------------------------------------------
 */

static int
MkeySge(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    Tcl_Obj *const words[2],
    struct ibv_sge *sge)
{
    uint64_t off, len;

    if (VerbsGetUInt(interp, "offset", words[0], UINT64_MAX, &off) != TCL_OK
	    || VerbsGetUInt(interp, "length", words[1], UINT32_MAX, &len)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    sge->addr = off;
    sge->length = (uint32_t) len;
    sge->lkey = ((Mlx5Mkey *) objPtr)->mkey->lkey;
    return TCL_OK;
}

static void
DekFree(
    VerbsObj *objPtr)
{
    Mlx5Dek *d = (Mlx5Dek *) objPtr;

    mlx5dv_dek_destroy(d->dek);
    if (d->login) {
	VerbsObjRelease(d->login);
    }
}

static void
LoginFree(
    VerbsObj *objPtr)
{
    mlx5dv_crypto_login_destroy(((Mlx5Login *) objPtr)->login);
}

const VerbsType verbsMkeyClass = {
    .name = "mkey",
    .size = sizeof(Mlx5Mkey),
    .methods = mkeyMethods,
    .cget = mkeyCget,
    .freeProc = MkeyFree,
    .sgeProc = MkeySge,
};
const VerbsType verbsDekClass = {
    .name = "dek",
    .size = sizeof(Mlx5Dek),
    .methods = dekMethods,
    .cget = dekCget,
    .freeProc = DekFree,
};
const VerbsType verbsCryptoLoginClass = {
    .name = "cryptologin",
    .size = sizeof(Mlx5Login),
    .methods = loginMethods,
    .cget = loginCget,
    .freeProc = LoginFree,
};

/*
 *----------------------------------------------------------------------
 *
 * MkeyCreateCmd, MkeyCheck --
 *
 *	mlx5::mkey create PD ?-create_flags FLAGS? ?-max_entries N?
 *		?-as NAME?: an mkey (mlx5dv_create_mkey), by default an
 *		indirect one of 1 entry.
 *	$mkey check: {err_type none|bad_guard|bad_reftag|bad_apptag}, and
 *	for a signature error actual_value expected_value offset
 *	(mlx5dv_mkey_check).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	mlx5dv_create_mkey; mlx5dv_mkey_check clears the error it reports.
 *
 *----------------------------------------------------------------------
 */

static int
MkeyCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	uint64_t create_flags;
	uint16_t max_entries;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(Args, create_flags, VF_FLAGS, mkeyFlags, "flags"),
	VERBS_OPTION(Args, max_entries, VF_UINT, NULL, "n"),
	VERBS_FIELD_END
    };
    Args a = {{NULL, NULL}, MLX5DV_MKEY_INIT_ATTR_FLAGS_INDIRECT, 1};
    struct mlx5dv_mkey_init_attr attr;
    struct mlx5dv_mkey *mkey;
    VerbsContext *c;
    Mlx5Mkey *m;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &a,
	    &verbsPdClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = Mlx5ContextOf(a.head.parent);
    if (c && !mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_create_mkey", c);
    }
    memset(&attr, 0, sizeof(attr));
    attr.pd = ((VerbsPd *) a.head.parent)->pd;
    attr.create_flags = (uint32_t) a.create_flags;
    attr.max_entries = a.max_entries;
    mkey = mlx5dv_create_mkey(&attr);
    if (mkey == NULL) {
	return VerbsSysError(interp, "mlx5dv_create_mkey", a.head.parent,
		NULL, errno ? errno : EINVAL);
    }
    m = (Mlx5Mkey *) VerbsObjWrap(interp, &verbsMkeyClass,
	    offsetof(Mlx5Mkey, mkey), mkey, a.head.parent, a.head.command);
    if (m == NULL) {
	return TCL_ERROR;
    }
    m->createFlags = a.create_flags;
    m->maxEntries = a.max_entries;
    return TCL_OK;
}

static int
MkeyCheck(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    struct mlx5dv_mkey_err e;
    Tcl_Obj *d;
    int err;

    memset(&e, 0, sizeof(e));
    err = mlx5dv_mkey_check(((Mlx5Mkey *) objPtr)->mkey, &e);
    if (err) {
	return VerbsSysError(interp, "mlx5dv_mkey_check", objPtr, NULL, err);
    }
    d = Tcl_NewListObj(2, (Tcl_Obj *[]) {Tcl_NewStringObj("err_type", -1),
	    VerbsEnumObj(mkeyErrTypes, e.err_type)});
    if (e.err_type != MLX5DV_MKEY_NO_ERR) {
	Tcl_ListObjAppendElement(NULL, d, Tcl_NewStringObj("actual_value",
		-1));
	Tcl_ListObjAppendElement(NULL, d, VerbsU64Obj(e.err.sig.actual_value));
	Tcl_ListObjAppendElement(NULL, d, Tcl_NewStringObj("expected_value",
		-1));
	Tcl_ListObjAppendElement(NULL, d,
		VerbsU64Obj(e.err.sig.expected_value));
	Tcl_ListObjAppendElement(NULL, d, Tcl_NewStringObj("offset", -1));
	Tcl_ListObjAppendElement(NULL, d, VerbsU64Obj(e.err.sig.offset));
    }
    Tcl_SetObjResult(interp, d);
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * LoginCreateCmd, LoginQuery, Mlx5CryptoLoginMethod --
 *
 *	mlx5::cryptologin create CONTEXT -credential BYTES
 *		?-credential_id N? ?-import_kek_id N? ?-as NAME?: a crypto
 *		login object (mlx5dv_crypto_login_create), for the DEKs made
 *		with it.
 *	$login query: valid, no_login or invalid
 *	(mlx5dv_crypto_login_query).
 *	$ctx mlx5 crypto_login {credential_id N import_kek_id N
 *	credential BYTES}, $ctx mlx5 crypto_login_state, $ctx mlx5
 *	crypto_logout: the context's one login of the older calls
 *	(mlx5dv_crypto_login, _query_state, mlx5dv_crypto_logout).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	Logs in or out.
 *
 *----------------------------------------------------------------------
 */

static int
LoginCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	Tcl_Obj *credential;
	uint32_t credential_id;
	uint32_t import_kek_id;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION_REQUIRED(Args, credential, VF_TCLOBJ, NULL, 0,
		"bytes:the wrapped credential"),
	VERBS_OPTION(Args, credential_id, VF_UINT, NULL, "n"),
	VERBS_OPTION(Args, import_kek_id, VF_UINT, NULL, "n"),
	VERBS_FIELD_END
    };
    Args a = {{NULL, NULL}, NULL, 0, 0};
    struct mlx5dv_crypto_login_attr_ex attr;
    struct mlx5dv_crypto_login_obj *login;
    VerbsContext *c;
    Tcl_Size len;

    if (VerbsCreateArgs(interp, objc, objv, "context", options, &a,
	    &verbsContextClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = (VerbsContext *) a.head.parent;
    memset(&attr, 0, sizeof(attr));
    attr.credential = VerbsGetBytes(interp, "-credential", a.credential,
	    &len);
    if (attr.credential == NULL) {
	return TCL_ERROR;
    }
    if (!mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_crypto_login_create", c);
    }
    attr.credential_len = (size_t) len;
    attr.credential_id = a.credential_id;
    attr.import_kek_id = a.import_kek_id;
    login = mlx5dv_crypto_login_create(c->ctx, &attr);
    if (login == NULL) {
	return VerbsSysError(interp, "mlx5dv_crypto_login_create", &c->obj,
		NULL, errno ? errno : EINVAL);
    }
    return VerbsObjWrap(interp, &verbsCryptoLoginClass,
	    offsetof(Mlx5Login, login), login, &c->obj, a.head.command)
	    ? TCL_OK : TCL_ERROR;
}

static int
LoginQuery(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    struct mlx5dv_crypto_login_query_attr q;
    int err;

    memset(&q, 0, sizeof(q));
    err = mlx5dv_crypto_login_query(((Mlx5Login *) objPtr)->login, &q);
    if (err) {
	return VerbsSysError(interp, "mlx5dv_crypto_login_query", objPtr,
		NULL, err);
    }
    Tcl_SetObjResult(interp, VerbsEnumObj(loginStates, q.state));
    return TCL_OK;
}

static const VerbsField loginFields[] = {
    VERBS_FIELD(struct mlx5dv_crypto_login_attr, credential, VF_BYTES, NULL,
	    0, 0),
    VERBS_FIELD(struct mlx5dv_crypto_login_attr, credential_id, VF_UINT,
	    NULL, 0, 0),
    VERBS_FIELD(struct mlx5dv_crypto_login_attr, import_kek_id, VF_UINT,
	    NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct loginStruct = {"crypto login key", loginFields};

int
Mlx5CryptoLoginMethod(
    Tcl_Interp *interp,
    VerbsContext *c,
    int which,			/* 0 login, 1 query state, 2 logout. */
    Tcl_Obj *attrObj)		/* The login's dict. */
{
    struct mlx5dv_crypto_login_attr attr;
    enum mlx5dv_crypto_login_state state;
    int err;

    switch (which) {
    case 0:
	memset(&attr, 0, sizeof(attr));
	if (VerbsDictToStruct(interp, &loginStruct, "login", attrObj, &attr,
		NULL) != TCL_OK) {
	    return TCL_ERROR;
	}
	err = mlx5dv_crypto_login(c->ctx, &attr);
	return err ? VerbsSysError(interp, "mlx5dv_crypto_login", &c->obj,
		NULL, err) : TCL_OK;
    case 1:
	err = mlx5dv_crypto_login_query_state(c->ctx, &state);
	if (err) {
	    return VerbsSysError(interp, "mlx5dv_crypto_login_query_state",
		    &c->obj, NULL, err);
	}
	Tcl_SetObjResult(interp, VerbsEnumObj(loginStates, state));
	return TCL_OK;
    default:
	err = mlx5dv_crypto_logout(c->ctx);
	return err ? VerbsSysError(interp, "mlx5dv_crypto_logout", &c->obj,
		NULL, err) : TCL_OK;
    }
}

/*
 *----------------------------------------------------------------------
 *
 * DekCreateCmd, DekQuery --
 *
 *	mlx5::dek create PD -key BYTES ?-key_size 128|256?
 *		?-has_keytag BOOL? ?-key_purpose aes_xts? ?-opaque BYTES?
 *		?-crypto_login LOGIN | -plaintext? ?-as NAME?: a data
 *		encryption key (mlx5dv_dek_create), the key wrapped as the
 *		device's crypto login expects it or, with -plaintext (on a
 *		device in plaintext mode), in the clear: the comp_mask of a
 *		login object with none given, as libmlx5 asks.
 *	$dek query: {state ready|error opaque BYTES} (mlx5dv_dek_query).
 *
 * Results:
 *	A standard Tcl result.
 *
 * Side effects:
 *	mlx5dv_dek_create.
 *
 *----------------------------------------------------------------------
 */

static int
DekCreateCmd(
    ClientData clientData VERBS_UNUSED,
    Tcl_Interp *interp,
    int objc,
    Tcl_Obj *const objv[])
{
    typedef struct {
	VerbsCreateHead head;
	VerbsObj *crypto_login;
	int has_keytag;
	Tcl_Obj *key;
	uint64_t key_purpose;
	uint64_t key_size;
	Tcl_Obj *opaque;
	int plaintext;
    } Args;
    static const VerbsField options[] = {
	VERBS_OPTION_COMMAND,
	VERBS_OPTION(Args, crypto_login, VF_OBJ, &verbsCryptoLoginClass,
		"login"),
	VERBS_OPTION(Args, has_keytag, VF_BOOL, NULL, "boolean"),
	VERBS_OPTION_REQUIRED(Args, key, VF_TCLOBJ, NULL, 0,
		"bytes:the wrapped key"),
	VERBS_OPTION(Args, key_purpose, VF_ENUM, keyPurposes, "aes_xts"),
	VERBS_OPTION(Args, key_size, VF_ENUM, keySizes, "128|256"),
	VERBS_OPTION(Args, opaque, VF_TCLOBJ, NULL, "bytes"),
	VERBS_OPTION_SWITCH("-plaintext", Args, plaintext),
	VERBS_FIELD_END
    };
    Args a = {{NULL, NULL}, NULL, 0, NULL, MLX5DV_CRYPTO_KEY_PURPOSE_AES_XTS,
	MLX5DV_CRYPTO_KEY_SIZE_256, NULL, 0};
    struct mlx5dv_dek_init_attr attr;
    struct mlx5dv_dek *dek;
    VerbsContext *c;
    Mlx5Dek *d;
    const unsigned char *b;
    Tcl_Size len;

    if (VerbsCreateArgs(interp, objc, objv, "pd", options, &a,
	    &verbsPdClass) != TCL_OK) {
	return TCL_ERROR;
    }
    c = Mlx5ContextOf(a.head.parent);
    memset(&attr, 0, sizeof(attr));
    b = VerbsGetBytes(interp, "-key", a.key, &len);
    if (b == NULL) {
	return TCL_ERROR;
    }
    if (len > (Tcl_Size) sizeof(attr.key)) {
	return VerbsArgError(interp, "-key", NULL, "-key is %"
		TCL_SIZE_MODIFIER "d bytes: at most %d fit", len,
		(int) sizeof(attr.key));
    }
    memcpy(attr.key, b, (size_t) len);
    if (a.opaque) {
	b = VerbsGetBytes(interp, "-opaque", a.opaque, &len);
	if (b == NULL) {
	    return TCL_ERROR;
	}
	if (len > (Tcl_Size) sizeof(attr.opaque)) {
	    return VerbsArgError(interp, "-opaque", NULL, "-opaque is %"
		    TCL_SIZE_MODIFIER "d bytes: at most %d fit", len,
		    (int) sizeof(attr.opaque));
	}
	memcpy(attr.opaque, b, (size_t) len);
    }
    if (a.crypto_login && Mlx5ContextOf(a.crypto_login) != c) {
	return VerbsArgError(interp, "-crypto_login", NULL, "-crypto_login "
		"is on another device context");
    }
    if (a.crypto_login && a.plaintext) {
	return VerbsArgError(interp, "-plaintext", NULL, "-plaintext and "
		"-crypto_login exclude each other: a plaintext key has no "
		"login");
    }
    if (c && !mlx5dv_is_supported(c->ctx->device)) {
	return Mlx5NotSupported(interp, "mlx5dv_dek_create", c);
    }
    attr.key_size = (enum mlx5dv_crypto_key_size) a.key_size;
    attr.has_keytag = a.has_keytag != 0;
    attr.key_purpose = (enum mlx5dv_crypto_key_purpose) a.key_purpose;
    attr.pd = ((VerbsPd *) a.head.parent)->pd;
    if (a.crypto_login || a.plaintext) {
	attr.comp_mask = MLX5DV_DEK_INIT_ATTR_CRYPTO_LOGIN;
	attr.crypto_login = a.crypto_login
		? ((Mlx5Login *) a.crypto_login)->login : NULL;
    }
    dek = mlx5dv_dek_create(c->ctx, &attr);
    if (dek == NULL) {
	return VerbsSysError(interp, "mlx5dv_dek_create", a.head.parent, NULL,
		errno ? errno : EINVAL);
    }
    d = (Mlx5Dek *) VerbsObjNew(&verbsDekClass);
    d->dek = dek;
    if (a.crypto_login) {
	d->login = a.crypto_login;
	VerbsObjRetain(d->login);
    }
    return VerbsObjAdopt(interp, &d->obj, a.head.parent, a.head.command);
}

static int
DekQuery(
    Tcl_Interp *interp,
    VerbsObj *objPtr,
    int objc VERBS_UNUSED,
    Tcl_Obj *const objv[] VERBS_UNUSED)
{
    struct mlx5dv_dek_attr q;
    int err;

    memset(&q, 0, sizeof(q));
    err = mlx5dv_dek_query(((Mlx5Dek *) objPtr)->dek, &q);
    if (err) {
	return VerbsSysError(interp, "mlx5dv_dek_query", objPtr, NULL, err);
    }
    Tcl_SetObjResult(interp, Tcl_NewListObj(4, (Tcl_Obj *[]) {
	    Tcl_NewStringObj("state", -1), VerbsEnumObj(dekStates, q.state),
	    Tcl_NewStringObj("opaque", -1),
	    Tcl_NewByteArrayObj((unsigned char *) q.opaque,
	    sizeof(q.opaque))}));
    return TCL_OK;
}

/*
 * ------------------------------------------------------------------------
 * The work requests that lay an mkey out: opcodes mr_list, mr_interleaved
 * and mkey_configure of [mlx5::qp wr_post].
 * ------------------------------------------------------------------------
 */

struct Mlx5MkeyWr {
    int op;			/* MLX5_MKEY_WR_*. */
    struct mlx5dv_mkey *mkey;
    uint32_t access;
    int hasAccess;
    struct mlx5dv_mkey_conf_attr conf;
    struct ibv_sge *sges;	/* sg_list: ckalloc'ed, or NULL. */
    int nSges;
    struct mlx5dv_mr_interleaved *ilv;	/* interleaved, or NULL. */
    int nIlv;
    uint32_t repeat;
    int hasSig;
    struct mlx5dv_sig_block_attr sig;
    struct mlx5dv_sig_block_domain dom[2];	/* mem, wire. */
    struct mlx5dv_sig_t10dif dif[2];
    struct mlx5dv_sig_crc crc[2];
    int hasCrypto;
    struct mlx5dv_crypto_attr crypto;
};

typedef struct MkeyWrArgs {
    uint64_t access_flags;
    uint64_t conf_flags;
    Tcl_Obj *crypto;
    Tcl_Obj *interleaved;
    VerbsObj *mkey;
    uint64_t opcode;
    uint32_t repeat_count;
    uint64_t send_flags;
    Tcl_Obj *sg_list;
    Tcl_Obj *sig_block;
    uint64_t wr_id;
} MkeyWrArgs;

#define MK_ACCESS 1		/* The given bit of access_flags. */

static int
Interleaved(
    Tcl_Interp *interp,
    Tcl_Obj *listObj,
    Mlx5MkeyWr *w)
{
    Tcl_Obj **items, **parts;
    Tcl_Size n, i, np;

    if (Tcl_ListObjGetElements(NULL, listObj, &n, &items) != TCL_OK
	    || n == 0 || n > UINT16_MAX) {
	return VerbsArgError(interp, "interleaved", listObj, "bad interleaved "
		"\"%s\": must be a list of {mr offset bytes_count bytes_skip}",
		Tcl_GetString(listObj));
    }
    w->ilv = (struct mlx5dv_mr_interleaved *) ckalloc(n * sizeof(*w->ilv));
    w->nIlv = (int) n;
    for (i = 0; i < n; i++) {
	VerbsMr *m;
	size_t off, len;
	uint64_t skip;

	if (Tcl_ListObjGetElements(NULL, items[i], &np, &parts) != TCL_OK
		|| np != 4) {
	    return VerbsArgError(interp, "interleaved", items[i], "bad "
		    "interleaved entry \"%s\": must be {mr offset bytes_count "
		    "bytes_skip}", Tcl_GetString(items[i]));
	}
	m = (VerbsMr *) VerbsObjGet(interp, parts[0], &verbsMrClass);
	if (m == NULL || VerbsMrRange(interp, m, parts[1], parts[2], &off,
		&len) != TCL_OK || VerbsGetUInt(interp, "bytes_skip", parts[3],
		UINT32_MAX, &skip) != TCL_OK) {
	    return TCL_ERROR;
	}
	w->ilv[i].addr = VerbsMrBase(m) + off;
	w->ilv[i].bytes_count = (uint32_t) len;
	w->ilv[i].bytes_skip = (uint32_t) skip;
	w->ilv[i].lkey = m->mr->lkey;
    }
    return TCL_OK;
}

/*
 * A signature domain: {sig_type t10dif bg_type crc|csum bg N app_tag N
 * ref_tag N flags FLAGS block_size SIZE} or {sig_type crc type
 * crc32|crc32c|crc64_xp10 seed N block_size SIZE}.
 */

typedef struct DomainArgs {
    uint16_t app_tag;
    uint16_t bg;
    uint64_t bg_type;
    uint64_t block_size;
    uint64_t flags;
    uint32_t ref_tag;
    uint64_t seed;
    uint64_t sig_type;
    uint64_t type;
} DomainArgs;

static const VerbsField domainFields[] = {
    VERBS_FIELD(DomainArgs, app_tag, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(DomainArgs, bg, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(DomainArgs, bg_type, VF_ENUM, bgTypes, 0, 0),
    VERBS_FIELD(DomainArgs, block_size, VF_ENUM, blockSizes, 0, 0),
    VERBS_FIELD(DomainArgs, flags, VF_FLAGS, difFlags, 0, 0),
    VERBS_FIELD(DomainArgs, ref_tag, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(DomainArgs, seed, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(DomainArgs, sig_type, VF_ENUM, sigTypes, 0, 0),
    VERBS_FIELD(DomainArgs, type, VF_ENUM, crcTypes, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct domainStruct = {"signature domain key",
    domainFields};

typedef struct SigArgs {
    uint8_t check_mask;
    uint8_t copy_mask;
    uint64_t flags;
    Tcl_Obj *mem;
    Tcl_Obj *wire;
} SigArgs;

static const VerbsField sigFields[] = {
    VERBS_FIELD(SigArgs, check_mask, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(SigArgs, copy_mask, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(SigArgs, flags, VF_FLAGS, sigAttrFlags, 0, 0),
    VERBS_FIELD(SigArgs, mem, VF_TCLOBJ, NULL, 0, 0),
    VERBS_FIELD(SigArgs, wire, VF_TCLOBJ, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct sigStruct = {"sig_block key", sigFields};

static int
SigDomain(
    Tcl_Interp *interp,
    Tcl_Obj *dictObj,		/* Or NULL: no such domain. */
    Mlx5MkeyWr *w,
    int k)			/* 0 mem, 1 wire. */
{
    DomainArgs a;

    if (dictObj == NULL) {
	return TCL_OK;
    }
    memset(&a, 0, sizeof(a));
    if (VerbsDictToStruct(interp, &domainStruct, k ? "wire" : "mem", dictObj,
	    &a, NULL) != TCL_OK) {
	return TCL_ERROR;
    }
    w->dom[k].sig_type = (enum mlx5dv_sig_type) a.sig_type;
    w->dom[k].block_size = (enum mlx5dv_block_size) a.block_size;
    if (a.sig_type == MLX5DV_SIG_TYPE_T10DIF) {
	w->dif[k].bg_type = (enum mlx5dv_sig_t10dif_bg_type) a.bg_type;
	w->dif[k].bg = a.bg;
	w->dif[k].app_tag = a.app_tag;
	w->dif[k].ref_tag = a.ref_tag;
	w->dif[k].flags = (uint16_t) a.flags;
	w->dom[k].sig.dif = &w->dif[k];
    } else {
	w->crc[k].type = (enum mlx5dv_sig_crc_type) a.type;
	w->crc[k].seed = a.seed;
	w->dom[k].sig.crc = &w->crc[k];
    }
    if (k) {
	w->sig.wire = &w->dom[k];
    } else {
	w->sig.mem = &w->dom[k];
    }
    return TCL_OK;
}

typedef struct CryptoArgs {
    uint64_t crypto_standard;
    uint64_t data_unit_size;
    VerbsObj *dek;
    int encrypt_on_tx;
    char initial_tweak[16];
    char keytag[8];
    uint64_t signature_crypto_order;
} CryptoArgs;

static const VerbsField cryptoFields[] = {
    VERBS_FIELD(CryptoArgs, crypto_standard, VF_ENUM, cryptoStandards, 0, 0),
    VERBS_FIELD(CryptoArgs, data_unit_size, VF_ENUM, blockSizes, 0, 0),
    VERBS_FIELD(CryptoArgs, dek, VF_OBJ, &verbsDekClass, 0, 0),
    VERBS_FIELD(CryptoArgs, encrypt_on_tx, VF_BOOL, NULL, 0, 0),
    VERBS_FIELD(CryptoArgs, initial_tweak, VF_BYTES, NULL, 0, 0),
    VERBS_FIELD(CryptoArgs, keytag, VF_BYTES, NULL, 0, 0),
    VERBS_FIELD(CryptoArgs, signature_crypto_order, VF_ENUM, cryptoOrders, 0,
	    0),
    VERBS_FIELD_END
};
static const VerbsStruct cryptoStruct = {"crypto key", cryptoFields};

static int
MkeyWrConfigure(
    Tcl_Interp *interp,
    const MkeyWrArgs *a,
    Mlx5MkeyWr *w)
{
    if (a->sg_list && a->interleaved) {
	return VerbsArgError(interp, "sg_list", NULL, "an mkey has one "
		"layout: sg_list or interleaved, not both");
    }
    if (a->sig_block) {
	SigArgs s;

	memset(&s, 0, sizeof(s));
	if (VerbsDictToStruct(interp, &sigStruct, "sig_block", a->sig_block,
		&s, NULL) != TCL_OK || SigDomain(interp, s.mem, w, 0) != TCL_OK
		|| SigDomain(interp, s.wire, w, 1) != TCL_OK) {
	    return TCL_ERROR;
	}
	w->sig.check_mask = s.check_mask;
	w->sig.copy_mask = s.copy_mask;
	w->sig.flags = (uint32_t) s.flags;
	w->hasSig = 1;
    }
    if (a->crypto) {
	CryptoArgs c;

	memset(&c, 0, sizeof(c));
	if (VerbsDictToStruct(interp, &cryptoStruct, "crypto", a->crypto, &c,
		NULL) != TCL_OK) {
	    return TCL_ERROR;
	}
	if (c.dek == NULL) {
	    return VerbsArgError(interp, "crypto", a->crypto, "crypto needs "
		    "dek, the data encryption key");
	}
	w->crypto.crypto_standard =
		(enum mlx5dv_crypto_standard) c.crypto_standard;
	w->crypto.encrypt_on_tx = c.encrypt_on_tx != 0;
	w->crypto.signature_crypto_order =
		(enum mlx5dv_signature_crypto_order) c.signature_crypto_order;
	w->crypto.data_unit_size = (enum mlx5dv_block_size) c.data_unit_size;
	memcpy(w->crypto.initial_tweak, c.initial_tweak, 16);
	memcpy(w->crypto.keytag, c.keytag, 8);
	w->crypto.dek = ((Mlx5Dek *) c.dek)->dek;
	w->hasCrypto = 1;
    }
    w->conf.conf_flags = (uint32_t) a->conf_flags;
    return TCL_OK;
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5MkeyWrParse, Mlx5MkeyWrBuild, Mlx5MkeyWrFree --
 *
 *	A work request of opcode mr_list {mkey MKEY access_flags FLAGS
 *	sg_list {{MR OFFSET LENGTH} ...}}, mr_interleaved {mkey MKEY
 *	access_flags FLAGS repeat_count N interleaved {{MR OFFSET
 *	BYTES_COUNT BYTES_SKIP} ...}} or mkey_configure {mkey MKEY
 *	?conf_flags reset_sig_attr? ?access_flags FLAGS? ?sg_list LIST |
 *	interleaved LIST repeat_count N? ?sig_block DICT? ?crypto DICT?},
 *	each with wr_id and send_flags; built with mlx5dv_wr_mr_list,
 *	mlx5dv_wr_mr_interleaved, or mlx5dv_wr_mkey_configure and the
 *	setters of what is given (mlx5dv_wr_set_mkey_access_flags,
 *	_layout_list, _layout_interleaved, _sig_block, _crypto).
 *
 * Results:
 *	Mlx5MkeyWrParse: a standard Tcl result, *wPtr (free it with
 *	Mlx5MkeyWrFree, also after an error); *wrIdPtr and *flagsPtr.
 *
 * Side effects:
 *	Mlx5MkeyWrBuild adds the work request to the QP's open batch.
 *
 *----------------------------------------------------------------------
 */

static const VerbsField mkeyWrFields[] = {
    VERBS_FIELD(MkeyWrArgs, access_flags, VF_FLAGS, verbsAccessFlags,
	    MK_ACCESS, 0),
    VERBS_FIELD(MkeyWrArgs, conf_flags, VF_FLAGS, confFlags, 0, 0),
    VERBS_FIELD(MkeyWrArgs, crypto, VF_TCLOBJ, NULL, 0, 0),
    VERBS_FIELD(MkeyWrArgs, interleaved, VF_TCLOBJ, NULL, 0, 0),
    VERBS_FIELD(MkeyWrArgs, mkey, VF_OBJ, &verbsMkeyClass, 0, 0),
    VERBS_FIELD(MkeyWrArgs, opcode, VF_ENUM, mlx5MkeyOpcodes, 0, 0),
    VERBS_FIELD(MkeyWrArgs, repeat_count, VF_UINT, NULL, 0, 0),
    VERBS_FIELD(MkeyWrArgs, send_flags, VF_FLAGS, verbsSendFlags, 0, 0),
    VERBS_FIELD(MkeyWrArgs, sg_list, VF_TCLOBJ, NULL, 0, 0),
    VERBS_FIELD(MkeyWrArgs, sig_block, VF_TCLOBJ, NULL, 0, 0),
    VERBS_FIELD(MkeyWrArgs, wr_id, VF_UINT, NULL, 0, 0),
    VERBS_FIELD_END
};
static const VerbsStruct mkeyWrStruct = {"mkey wr key", mkeyWrFields};

const VerbsEnum mlx5MkeyOpcodes[] = {
    {"mkey_configure", MLX5_MKEY_WR_CONFIGURE},
    {"mr_interleaved", MLX5_MKEY_WR_INTERLEAVED},
    {"mr_list", MLX5_MKEY_WR_LIST},
    {NULL, 0}
};

int
Mlx5MkeyWrParse(
    Tcl_Interp *interp,
    Tcl_Obj *wrObj,
    Mlx5MkeyWr **wPtr,
    uint64_t *wrIdPtr,
    unsigned *flagsPtr)
{
    MkeyWrArgs a;
    uint64_t given = 0;
    Mlx5MkeyWr *w = (Mlx5MkeyWr *) ckalloc(sizeof(Mlx5MkeyWr));

    memset(w, 0, sizeof(*w));
    *wPtr = w;
    memset(&a, 0, sizeof(a));
    if (VerbsDictToStruct(interp, &mkeyWrStruct, "wr", wrObj, &a, &given)
	    != TCL_OK) {
	return TCL_ERROR;
    }
    if (a.mkey == NULL) {
	return VerbsArgError(interp, "mkey", NULL, "an %s work request needs "
		"mkey, the mkey it lays out", a.opcode == MLX5_MKEY_WR_CONFIGURE
		? "mkey_configure" : a.opcode == MLX5_MKEY_WR_LIST ? "mr_list"
		: "mr_interleaved");
    }
    w->op = (int) a.opcode;
    w->mkey = ((Mlx5Mkey *) a.mkey)->mkey;
    w->access = (uint32_t) a.access_flags;
    w->hasAccess = (given & MK_ACCESS) != 0;
    w->repeat = a.repeat_count;
    *wrIdPtr = a.wr_id;
    *flagsPtr = (unsigned) a.send_flags;
    if (a.sg_list && VerbsParseSgList(interp, a.sg_list, &w->sges,
	    &w->nSges, NULL) != TCL_OK) {
	return TCL_ERROR;
    }
    if (w->nSges > UINT16_MAX) {
	return VerbsArgError(interp, "sg_list", NULL, "an mkey's layout has "
		"at most %d entries", UINT16_MAX);
    }
    if (a.interleaved && Interleaved(interp, a.interleaved, w) != TCL_OK) {
	return TCL_ERROR;
    }
    switch (w->op) {
    case MLX5_MKEY_WR_LIST:
	if (w->sges == NULL) {
	    return VerbsArgError(interp, "sg_list", NULL, "an mr_list work "
		    "request needs sg_list, the MRs it lays end to end");
	}
	break;
    case MLX5_MKEY_WR_INTERLEAVED:
	if (w->ilv == NULL) {
	    return VerbsArgError(interp, "interleaved", NULL, "an "
		    "mr_interleaved work request needs interleaved");
	}
	break;
    default:
	return MkeyWrConfigure(interp, &a, w);
    }
    if (a.sig_block || a.crypto || a.conf_flags) {
	return VerbsArgError(interp, a.crypto ? "crypto" : a.sig_block
		? "sig_block" : "conf_flags", NULL, "%s is for mkey_configure",
		a.crypto ? "crypto" : a.sig_block ? "sig_block" : "conf_flags");
    }
    return TCL_OK;
}

void
Mlx5MkeyWrBuild(
    struct mlx5dv_qp_ex *mqp,
    Mlx5MkeyWr *w)
{
    switch (w->op) {
    case MLX5_MKEY_WR_LIST:
	mlx5dv_wr_mr_list(mqp, w->mkey, w->access, (uint16_t) w->nSges,
		w->sges);
	return;
    case MLX5_MKEY_WR_INTERLEAVED:
	mlx5dv_wr_mr_interleaved(mqp, w->mkey, w->access, w->repeat,
		(uint16_t) w->nIlv, w->ilv);
	return;
    }
    mlx5dv_wr_mkey_configure(mqp, w->mkey, (uint8_t) (w->hasAccess
	    + (w->sges || w->ilv) + w->hasSig + w->hasCrypto), &w->conf);
    if (w->hasAccess) {
	mlx5dv_wr_set_mkey_access_flags(mqp, w->access);
    }
    if (w->sges) {
	mlx5dv_wr_set_mkey_layout_list(mqp, (uint16_t) w->nSges, w->sges);
    } else if (w->ilv) {
	mlx5dv_wr_set_mkey_layout_interleaved(mqp, w->repeat,
		(uint16_t) w->nIlv, w->ilv);
    }
    if (w->hasSig) {
	mlx5dv_wr_set_mkey_sig_block(mqp, &w->sig);
    }
    if (w->hasCrypto) {
	mlx5dv_wr_set_mkey_crypto(mqp, &w->crypto);
    }
}

void
Mlx5MkeyWrFree(
    Mlx5MkeyWr *w)
{
    if (w == NULL) {
	return;
    }
    if (w->sges) {
	ckfree(w->sges);
    }
    if (w->ilv) {
	ckfree(w->ilv);
    }
    ckfree(w);
}

/*
 *----------------------------------------------------------------------
 *
 * Mlx5MkeyInit --
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
Mlx5MkeyInit(
    Tcl_Interp *interp)
{
    Mlx5AddCommand(interp, "mkey::create", MkeyCreateCmd);
    Mlx5AddCommand(interp, "dek::create", DekCreateCmd);
    Mlx5AddCommand(interp, "cryptologin::create", LoginCreateCmd);
    return TCL_OK;
}
