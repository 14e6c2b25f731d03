#!/usr/bin/python3
"""Ping-style latency/rate benchmark written the way a pyverbs user would.

usage: /usr/bin/python3 bench/pyverbs_write.py [--count N] [--size S]
           [--opcode write|send] [--lat | --window | --list]
           DEV1 GIDX1 DEV2 GIDX2

With --lat, a ping-pong between the two QPs instead (see latency()); with
--window, up to 64 messages outstanding, every 16th signalled, one post each
(see window()); with --list, the same in chained posts of 16.

Opens DEV1 (sender) and DEV2 (receiver; may be the same device), connects an
RC QP on each to the other within this process (RoCE: global routing with
the given GID indexes, port 1), then times N signaled messages of S bytes,
one at a time: post, then busy-poll until the completion(s) arrive.  Prints

    pyverbs <opcode> size S count N seconds T msg_rate R mib_per_sec M

Needs python3-pyverbs, which only the system interpreter /usr/bin/python3 has.
"""
import argparse
import sys
import time

import pyverbs.enums as e
from pyverbs.addr import AHAttr, GlobalRoute
from pyverbs.cq import CQ, cqe_status_to_str
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import SGE, RecvWR, SendWR

PORT = 1
ACCESS = (e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE |
          e.IBV_ACCESS_REMOTE_READ)


class Side:
    """One device's resources: context, PD, CQ, RC QP and MR."""

    def __init__(self, dev, gid_index, mr_len):
        self.ctx = Context(name=dev)
        self.gid_index = gid_index
        self.gid = self.ctx.query_gid(PORT, gid_index)
        self.pd = PD(self.ctx)
        self.cq = CQ(self.ctx, 256)
        cap = QPCap(max_send_wr=64, max_recv_wr=64, max_send_sge=1,
                    max_recv_sge=1)
        # sq_sig_all defaults to 1 in pyverbs; signal per WR instead.
        init = QPInitAttr(qp_type=e.IBV_QPT_RC, scq=self.cq, rcq=self.cq,
                          cap=cap, sq_sig_all=0)
        self.qp = QP(self.pd, init)
        self.mr = MR(self.pd, mr_len, ACCESS)

    def connect(self, peer):
        """Move our QP RESET -> INIT -> RTR -> RTS, aimed at peer's QP."""
        attr = QPAttr(port_num=PORT, path_mtu=e.IBV_MTU_1024)
        attr.pkey_index = 0
        attr.qp_access_flags = (e.IBV_ACCESS_REMOTE_WRITE |
                                e.IBV_ACCESS_REMOTE_READ)
        self.qp.to_init(attr)
        attr.dest_qp_num = peer.qp.qp_num
        attr.rq_psn = 0
        attr.max_dest_rd_atomic = 1
        attr.min_rnr_timer = 12
        grh = GlobalRoute(dgid=peer.gid, sgid_index=self.gid_index,
                          hop_limit=64)
        attr.ah_attr = AHAttr(gr=grh, is_global=1, port_num=PORT)
        self.qp.to_rtr(attr)
        attr.sq_psn = 0
        attr.timeout = 14
        attr.retry_cnt = 7
        attr.rnr_retry = 7
        attr.max_rd_atomic = 1
        self.qp.to_rts(attr)


def wait_completion(cq, what):
    """Busy-poll cq for one completion; raise unless it succeeded."""
    while True:
        n, wcs = cq.poll()
        if n:
            break
    wc = wcs[0]
    if wc.status != e.IBV_WC_SUCCESS:
        raise RuntimeError('%s completion failed: %s (status %d)' %
                           (what, cqe_status_to_str(wc.status), wc.status))


def wait_completions(cq, n, what):
    """Busy-poll cq until n completions came; raise unless all succeeded."""
    while n:
        got, wcs = cq.poll(n)
        for wc in wcs[:got]:
            if wc.status != e.IBV_WC_SUCCESS:
                raise RuntimeError('%s completion failed: %s (status %d)' %
                                   (what, cqe_status_to_str(wc.status),
                                    wc.status))
        n -= got


def window(args, tx, rx, sge, rwr, chain=False):
    """The loops of bench/verbs_bench.tcl -mode window and list: one
    post_send per message (chain: one per SIGNAL messages, chained WRs), at
    most DEPTH outstanding, every SIGNAL-th signalled; for SEND the receiver
    posts one receive per message (chain: SIGNAL chained), SIGNAL at a
    time, and their completions are taken when their group's send
    completion is."""
    depth, signal = 64, 16
    kw = dict(num_sge=1, sg=[sge])
    if args.opcode == 'write':
        kw['opcode'] = e.IBV_WR_RDMA_WRITE
    else:
        kw['opcode'] = e.IBV_WR_SEND
    plain = SendWR(send_flags=0, **kw)
    last = SendWR(send_flags=e.IBV_SEND_SIGNALED, **kw)
    if args.opcode == 'write':
        plain.set_wr_rdma(rx.mr.rkey, rx.mr.buf)
        last.set_wr_rdma(rx.mr.rkey, rx.mr.buf)
    send = args.opcode == 'send'
    if chain:
        # SIGNAL WRs linked: SIGNAL - 1 plain ones, then the signalled one.
        wrs = [SendWR(send_flags=0, **kw) for _ in range(signal - 1)]
        wrs.append(last)
        rwrs = [RecvWR(num_sge=1, sg=[SGE(rx.mr.buf, args.size, rx.mr.lkey)])
                for _ in range(signal)] if send else []
        for w in wrs:
            if args.opcode == 'write':
                w.set_wr_rdma(rx.mr.rkey, rx.mr.buf)
        for lst in (wrs, rwrs):
            for w, nxt in zip(lst, lst[1:]):
                w.next_wr = nxt
    inflight = 0
    start = time.perf_counter()
    for _ in range(args.count // signal):
        if inflight == depth // signal:
            wait_completion(tx.cq, 'SEND')
            if send:
                wait_completions(rx.cq, signal, 'RECV')
            inflight -= 1
        if chain:
            if send:
                rx.qp.post_recv(rwrs[0])
            tx.qp.post_send(wrs[0])
        else:
            if send:
                for _ in range(signal):
                    rx.qp.post_recv(rwr)
            for _ in range(signal - 1):
                tx.qp.post_send(plain)
            tx.qp.post_send(last)
        inflight += 1
    wait_completions(tx.cq, inflight, 'SEND')
    if send:
        wait_completions(rx.cq, inflight * signal, 'RECV')
    return time.perf_counter() - start


def run(args):
    mr_len = max(args.size, 4096)
    tx = Side(args.dev1, args.gidx1, mr_len)
    rx = Side(args.dev2, args.gidx2, mr_len)
    tx.connect(rx)
    rx.connect(tx)

    payload = bytes(i & 0xff for i in range(1, args.size + 1))
    tx.mr.write(payload, args.size)
    sge = SGE(tx.mr.buf, args.size, tx.mr.lkey)
    rwr = None
    if args.opcode == 'write':
        swr = SendWR(opcode=e.IBV_WR_RDMA_WRITE, num_sge=1, sg=[sge],
                     send_flags=e.IBV_SEND_SIGNALED)
        swr.set_wr_rdma(rx.mr.rkey, rx.mr.buf)
    else:
        swr = SendWR(opcode=e.IBV_WR_SEND, num_sge=1, sg=[sge],
                     send_flags=e.IBV_SEND_SIGNALED)
        rwr = RecvWR(num_sge=1,
                     sg=[SGE(rx.mr.buf, args.size, rx.mr.lkey)])

    if args.lat:
        return latency(args, tx, rx)
    if args.window or args.list:
        secs = window(args, tx, rx, sge, rwr, chain=args.list)
        impl = 'pyverbs-list' if args.list else 'pyverbs-window'
    else:
        secs, impl = loop(args, tx, rx, swr, rwr), 'pyverbs'
    if rx.mr.read(args.size, 0) != payload:
        raise RuntimeError('payload did not arrive in the receiver MR')

    print('%s %s size %d count %d seconds %.6g msg_rate %.6g '
          'mib_per_sec %.6g' % (impl, args.opcode, args.size, args.count,
                                secs, args.count / secs,
                                args.count * args.size / secs / 2**20))


def loop(args, tx, rx, swr, rwr):
    """One signalled message at a time: post, then wait for it."""
    start = time.perf_counter()
    for _ in range(args.count):
        if args.opcode == 'write':
            tx.qp.post_send(swr)
            wait_completion(tx.cq, 'RDMA WRITE')
        else:
            rx.qp.post_recv(rwr)
            tx.qp.post_send(swr)
            wait_completion(tx.cq, 'SEND')
            wait_completion(rx.cq, 'RECV')
    return time.perf_counter() - start


def latency(args, a, b):
    """Ping-pong: a sends, b answers, each waiting for the other's message
    (SEND: the receive completion; WRITE: the last byte of its buffer,
    read from the MR) and its own send completion.  Prints the half round
    trips in the same words as bench/verbs_lat.tcl."""
    size, last = args.size, args.size - 1
    wrs = {}
    for me, peer in ((a, b), (b, a)):
        sge = SGE(me.mr.buf, size, me.mr.lkey)
        if args.opcode == 'write':
            wr = SendWR(opcode=e.IBV_WR_RDMA_WRITE, num_sge=1, sg=[sge],
                        send_flags=e.IBV_SEND_SIGNALED)
            wr.set_wr_rdma(peer.mr.rkey, peer.mr.buf)
        else:
            wr = SendWR(opcode=e.IBV_WR_SEND, num_sge=1, sg=[sge],
                        send_flags=e.IBV_SEND_SIGNALED)
            me.rwr = RecvWR(num_sge=1, sg=[SGE(me.mr.buf, size, me.mr.lkey)])
            me.qp.post_recv(me.rwr)
        wrs[id(me)] = wr
    samples = []
    for i in range(args.count):
        ping = bytes([(i % 127) * 2 + 2])
        pong = bytes([(i % 127) * 2 + 3])
        t0 = time.perf_counter()
        a.mr.write(ping, 1, last)
        a.qp.post_send(wrs[id(a)])
        if args.opcode == 'write':
            while b.mr.read(1, last) != ping:
                pass
        else:
            wait_completion(b.cq, 'RECV')
            b.qp.post_recv(b.rwr)
        b.mr.write(pong, 1, last)
        b.qp.post_send(wrs[id(b)])
        wait_completion(b.cq, 'SEND')
        if args.opcode == 'write':
            while a.mr.read(1, last) != pong:
                pass
            wait_completion(a.cq, 'WRITE')
        else:
            wait_completion(a.cq, 'SEND or RECV')
            wait_completion(a.cq, 'SEND or RECV')
            a.qp.post_recv(a.rwr)
        samples.append((time.perf_counter() - t0) * 1e6 / 2)
    samples.sort()
    n = len(samples)
    print('pyverbs-lat lat_%s size %d iters %d usec_typ %.2f usec_avg %.2f '
          'usec_min %.2f usec_max %.2f usec_p99 %.2f' %
          (args.opcode, size, n, samples[n // 2], sum(samples) / n,
           samples[0], samples[-1], samples[int(0.99 * (n - 1) + 0.5)]))


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--count', type=int, default=2000)
    p.add_argument('--size', type=int, default=64)
    p.add_argument('--opcode', choices=('write', 'send'), default='write')
    p.add_argument('--lat', action='store_true',
                   help='ping-pong latency instead of the one-way rate')
    p.add_argument('--window', action='store_true',
                   help='64 outstanding, every 16th signalled')
    p.add_argument('--list', action='store_true',
                   help='as --window, in chained posts of 16')
    p.add_argument('dev1')
    p.add_argument('gidx1', type=int)
    p.add_argument('dev2')
    p.add_argument('gidx2', type=int)
    args = p.parse_args()
    if args.count < 1 or args.size < 1:
        p.error('--count and --size must be positive')
    if (args.window or args.list) and args.count % 16:
        p.error('--window and --list need a --count that is a multiple '
                'of 16')
    try:
        run(args)
    except Exception as ex:  # pyverbs errors, failed completions, ...
        print('pyverbs_write.py: %s: %s' % (type(ex).__name__, ex),
              file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
