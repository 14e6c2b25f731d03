#!/usr/bin/python3
"""The control path in pyverbs, the twin of bench/ctl.c and bench/ctl.tcl.

usage: /usr/bin/python3 bench/ctl_pyverbs.py -n N -d DEV -x GIDIDX
           -D PEERDEV -X PEERGIDIDX [-o OP,OP...] [-mem]

-o names the operations (default all), or with -mem the kinds of objects.

Times N creations (or modifications, destructions) of each kind of object,
all N alive at once, each loop in a function of its own, and prints one line
an operation:

    pyverbs ctl_OP n N usec_per_op X

With -mem, the resident memory one more object costs instead (the growth of
Rss over N objects divided by N), for OBJ qp, mr, cq and cmid:

    pyverbs mem_OBJ n N bytes_per_obj B

bench/README.md defines each operation.  A failed operation's line is left
out, its error goes to stderr and the exit status is 1.  Without pyverbs
(only the system interpreter /usr/bin/python3 has python3-pyverbs) it
prints a note on stderr and exits 0.
"""
import sys
import time

try:
    import pyverbs.enums as e
    from pyverbs.addr import AH, AHAttr, GlobalRoute
    from pyverbs.cmid import CMID, CMEventChannel
    from pyverbs.cq import CQ
    from pyverbs.device import Context
    from pyverbs.mr import MR
    from pyverbs.pd import PD
    from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
except ImportError as err:
    print('ctl_pyverbs.py: no pyverbs (%s): skipped' % err, file=sys.stderr)
    sys.exit(0)

PORT = 1
CQE = 256
MR_ACCESS = (e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_READ |
             e.IBV_ACCESS_REMOTE_WRITE)
OPS = ('ctx_open', 'pd', 'cq', 'qp_create', 'qp_to_rts', 'qp_destroy',
       'mr_reg_4k', 'mr_dereg', 'mr_reg_1m', 'ah', 'tree_close')


class Bench:
    """The command line, the device's context and the lines printed."""

    def __init__(self, argv):
        self.n = 0
        self.dev = self.peer = None
        self.gid_index = self.peer_gid_index = -1
        self.ops = None
        self.mem = False
        self.failed = False
        args = list(argv)
        while args:
            opt = args.pop(0)
            if opt == '-mem':
                self.mem = True
            elif opt in ('-n', '-d', '-x', '-D', '-X', '-o') and args:
                val = args.pop(0)
                if opt == '-n':
                    self.n = int(val)
                elif opt == '-d':
                    self.dev = val
                elif opt == '-x':
                    self.gid_index = int(val)
                elif opt == '-D':
                    self.peer = val
                elif opt == '-X':
                    self.peer_gid_index = int(val)
                else:
                    self.ops = val.replace(',', ' ').split()
            else:
                self.usage()
        if (self.n <= 0 or not self.dev or not self.peer or
                self.gid_index < 0 or self.peer_gid_index < 0):
            self.usage()

    @staticmethod
    def usage():
        print('usage: ctl_pyverbs.py -n N -d DEV -x GIDIDX -D PEERDEV '
              '-X PEERGIDIDX [-o OP,OP...] [-mem]', file=sys.stderr)
        sys.exit(2)

    def wanted(self, op):
        return self.ops is None or op in self.ops

    def report(self, op, seconds):
        if self.wanted(op):
            print('pyverbs ctl_%s n %d usec_per_op %.2f' %
                  (op, self.n, seconds * 1e6 / self.n), flush=True)

    def fail(self, op, err):
        print('pyverbs ctl_%s n %d: %s' % (op, self.n, err), file=sys.stderr)
        self.failed = True

    def timed(self, op, func, *args):
        """Run one timed loop, func(*args); report it.  True if it ran."""
        t0 = time.perf_counter()
        try:
            func(*args)
        except Exception as err:  # pylint: disable=broad-except
            self.fail(op, err)
            return False
        self.report(op, time.perf_counter() - t0)
        return True


# The timed loops: each appends what it makes to the list it is given, so
# that a loop that fails half way leaves its objects to be closed.

def open_contexts(dev, n, ctxs):
    for _ in range(n):
        ctxs.append(Context(name=dev))


def create_pds(ctx, n, pds):
    for _ in range(n):
        pds.append(PD(ctx))


def create_cqs(ctx, n, cqs):
    for _ in range(n):
        cqs.append(CQ(ctx, CQE))


def qp_init_attr(cq):
    cap = QPCap(max_send_wr=16, max_recv_wr=16, max_send_sge=1,
                max_recv_sge=1)
    return QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap)


def create_qps(pd, init, n, qps):
    for _ in range(n):
        qps.append(QP(pd, init))


def connect_qps(qps, gid, gid_index):
    """Each QP connected to itself with rc_pingpong's attributes."""
    for qp in qps:
        attr = QPAttr(port_num=PORT)
        attr.pkey_index = 0
        attr.qp_access_flags = 0
        qp.to_init(attr)
        attr.path_mtu = e.IBV_MTU_1024
        attr.dest_qp_num = qp.qp_num
        attr.rq_psn = 0
        attr.max_dest_rd_atomic = 1
        attr.min_rnr_timer = 12
        grh = GlobalRoute(dgid=gid, sgid_index=gid_index, hop_limit=1)
        attr.ah_attr = AHAttr(gr=grh, is_global=1, port_num=PORT)
        qp.to_rtr(attr)
        attr.sq_psn = 0
        attr.timeout = 14
        attr.retry_cnt = 7
        attr.rnr_retry = 7
        attr.max_rd_atomic = 1
        qp.to_rts(attr)


def close_each(objs):
    """The timed loop of qp_destroy and mr_dereg, and the clean-up."""
    for obj in objs:
        obj.close()


def register_mrs(pd, size, n, mrs):
    for _ in range(n):
        mrs.append(MR(pd, size, MR_ACCESS))


def create_ahs(pd, attr, n, ahs):
    for _ in range(n):
        ahs.append(AH(pd, attr=attr))


def create_ids(channel, n, ids):
    for _ in range(n):
        ids.append(CMID(creator=channel))


def rss():
    """The resident set in KiB, Rss of /proc/self/smaps_rollup, counted
    from the page tables (VmRSS lags before Linux 6.2: see Rss in ctl.c)."""
    for path, key in (('/proc/self/smaps_rollup', 'Rss:'),
                      ('/proc/self/status', 'VmRSS:')):
        try:
            with open(path) as f:
                for line in f:
                    if line.startswith(key):
                        return int(line.split()[1])
        except OSError:
            pass
    return -1


def mem(b, ctx):
    """-mem: of each kind -o names (all without), one first, then N; all
    alive until the end (bench/ctl.sh asks for one kind a process)."""
    pd = PD(ctx)
    cq = CQ(ctx, CQE)
    init = qp_init_attr(cq)
    channel = CMEventChannel()
    first = []
    objs = []
    for obj, func, args in (('qp', create_qps, (pd, init)),
                            ('mr', register_mrs, (pd, 4096)),
                            ('cq', create_cqs, (ctx,)),
                            ('cmid', create_ids, (channel,))):
        if not b.wanted(obj):
            continue
        func(*args, 1, first)
        rss0 = rss()
        try:
            func(*args, b.n, objs)
        except Exception as err:  # pylint: disable=broad-except
            b.fail('mem_' + obj, err)
            break
        print('pyverbs mem_%s n %d bytes_per_obj %.0f' %
              (obj, b.n, (rss() - rss0) * 1024.0 / b.n), flush=True)
    for obj in reversed(objs + first):
        obj.close()
    channel.close()


def main():
    b = Bench(sys.argv[1:])
    ctx = Context(name=b.dev)
    gid = ctx.query_gid(PORT, b.gid_index)
    with Context(name=b.peer) as peer:
        peer_gid = peer.query_gid(PORT, b.peer_gid_index)
    n = b.n
    if b.mem:
        mem(b, ctx)
        ctx.close()
        return 1 if b.failed else 0

    if b.wanted('ctx_open'):
        ctxs = []
        b.timed('ctx_open', open_contexts, b.dev, n, ctxs)
        close_each(ctxs)
    if b.wanted('pd'):
        pds = []
        b.timed('pd', create_pds, ctx, n, pds)
        close_each(pds)
    if b.wanted('cq'):
        cqs = []
        b.timed('cq', create_cqs, ctx, n, cqs)
        close_each(cqs)
    if b.wanted('qp_create') or b.wanted('qp_to_rts') or \
            b.wanted('qp_destroy'):
        pd = PD(ctx)
        cq = CQ(ctx, CQE)
        qps = []
        if b.timed('qp_create', create_qps, pd, qp_init_attr(cq), n, qps):
            b.timed('qp_to_rts', connect_qps, qps, gid, b.gid_index)
            if b.timed('qp_destroy', close_each, qps):
                qps = []
        close_each(qps)
        cq.close()
        pd.close()
    if b.wanted('mr_reg_4k') or b.wanted('mr_dereg') or \
            b.wanted('mr_reg_1m'):
        pd = PD(ctx)
        if b.wanted('mr_reg_4k') or b.wanted('mr_dereg'):
            mrs = []
            if b.timed('mr_reg_4k', register_mrs, pd, 4096, n, mrs):
                if b.timed('mr_dereg', close_each, mrs):
                    mrs = []
            close_each(mrs)
        if b.wanted('mr_reg_1m'):
            mrs = []
            b.timed('mr_reg_1m', register_mrs, pd, 1 << 20, n, mrs)
            close_each(mrs)
            del mrs
        pd.close()
    if b.wanted('ah'):
        pd = PD(ctx)
        ahs = []
        grh = GlobalRoute(dgid=peer_gid, sgid_index=b.gid_index, hop_limit=1)
        attr = AHAttr(gr=grh, is_global=1, port_num=PORT)
        # One first, untimed: the first AH to an address waits for the
        # kernel's neighbour resolution.
        try:
            AH(pd, attr=attr).close()
        except Exception:  # pylint: disable=broad-except
            pass
        b.timed('ah', create_ahs, pd, attr, n, ahs)
        close_each(ahs)
        pd.close()
    if b.wanted('tree_close'):
        tree = Context(name=b.dev)
        mrs = []
        try:
            register_mrs(PD(tree), 4096, n, mrs)
        except Exception as err:  # pylint: disable=broad-except
            b.fail('tree_close', err)
            tree.close()
        else:
            b.timed('tree_close', tree.close)
    ctx.close()
    return 1 if b.failed else 0


if __name__ == '__main__':
    sys.exit(main())
