#!/bin/sh
# host.sh LABDIR STACK --
#
# The command a lab VM runs (tests/lab/lab.sh boots it with run.sh): it
# makes the VM a host of the lab the way a real one is, an sshd that
# the controller reaches through the port qemu forwards, and waits in
# it.  It runs as root in the guest, whose root file system is the
# host's, read-only, under a throwaway overlay: the changes below
# (/etc/passwd: root's home, the sshd user; /usr/local/bin) vanish with
# the VM.
#
#   LABDIR  the lab's directory on the host: authorized_keys (the
#           controller's public key) and sshd/ (OpenSSH's server,
#           unpacked by lab.sh from Debian's package)
#   STACK   stock, next or custom: with next, the sessions get rdma-core
#           65's tools and libraries first on PATH and LD_LIBRARY_PATH,
#           and tclsh is the next lane's Tcl 9.1 (VERBS_LAB_NEXT_PREFIX
#           and VERBS_LAB_NEXT_TCLSH); with custom, the user's rdma-core
#           (VERBS_LAB_CUSTOM_PREFIX, if any) the same way, and a
#           TCLLIBPATH of the extension's build against it
#           (VERBS_LAB_CUSTOM_EXT), package or not
#
# The sessions also get VERBS_LAB_HOST, VERBS_LAB_STACK, VERBS_LAB_SRC
# (the source tree, where the examples are) and with VERBS_LAB_BUILD set
# a TCLLIBPATH of the build tree of the host's stack.
#
# A fresh host key is made at every boot; its public half is printed as
# "lab-hostkey: KEY" (lab.sh writes the lab's known_hosts from it), then
# "lab-ready: NAME" once sshd listens.  sshd runs in the foreground: when
# the controller stops it (lab.sh kills the pid in /run/lab/sshd.pid),
# this script ends and the VM powers off.
set -eu

labdir=$1 stack=$2
name=${VERBS_LAB_HOST:-$(hostname)}
root=$labdir/sshd/root
mkdir -p /run/lab /run/sshd /root
chmod 700 /root

# root gets a home of its own: /root is this machine's, and its shell
# startup files (pyenv, cargo here) would run in every session, seconds
# each on the emulated CPU.
mkdir -p /run/lab/root
sed -i 's|^root:\([^:]*:[^:]*:[^:]*:[^:]*\):[^:]*:|root:\1:/run/lab/root:|' /etc/passwd

# sshd's privilege separation user.
grep -q '^sshd:' /etc/passwd ||
    echo 'sshd:x:105:65534::/run/sshd:/usr/sbin/nologin' >>/etc/passwd

path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
ldpath=
if [ "$stack" = next ]; then
    path=$VERBS_LAB_NEXT_PREFIX/bin:$path
    ldpath=$VERBS_LAB_NEXT_PREFIX/lib
    mkdir -p /usr/local/bin
    ln -sf "$VERBS_LAB_NEXT_TCLSH" /usr/local/bin/tclsh
fi

if [ "$stack" = custom ] && [ -n "${VERBS_LAB_CUSTOM_PREFIX:-}" ]; then
    path=$VERBS_LAB_CUSTOM_PREFIX/bin:$path
    ldpath=$VERBS_LAB_CUSTOM_PREFIX/lib
fi

# Without the package installed (lab.sh -b, or a stack of the user's),
# verbs comes from the build tree of the host's stack.
tcllibpath=
if [ "$stack" = custom ]; then
    tcllibpath=$VERBS_LAB_CUSTOM_EXT
elif [ -n "${VERBS_LAB_BUILD:-}" ]; then
    tcllibpath=$VERBS_LAB_SRC
    [ "$stack" = next ] && tcllibpath=$VERBS_LAB_SRC/build/next-ext
fi

ssh-keygen -q -t ed25519 -N '' -C "$name" -f /run/lab/host_ed25519
cat >/run/lab/sshd_config <<EOF
Port 22
ListenAddress 0.0.0.0
HostKey /run/lab/host_ed25519
PidFile /run/lab/sshd.pid
AuthorizedKeysFile $labdir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
PrintMotd no
LogLevel ERROR
MaxSessions 64
SetEnv PATH=$path${ldpath:+ LD_LIBRARY_PATH=$ldpath} VERBS_LAB_HOST=$name VERBS_LAB_STACK=$stack${VERBS_LAB_SRC:+ VERBS_LAB_SRC=$VERBS_LAB_SRC}${tcllibpath:+ TCLLIBPATH=$tcllibpath}
EOF
echo "lab-hostkey: $(cat /run/lab/host_ed25519.pub)"

# (libwrap comes from the unpacked packages too.)
LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu \
    "$root/usr/sbin/sshd" -D -e -f /run/lab/sshd_config &
sshd=$!
n=0
until [ -s /run/lab/sshd.pid ]; do
    n=$((n + 1))
    if [ $n -gt 300 ] || ! kill -0 "$sshd" 2>/dev/null; then
	echo "lab-failed: $name: sshd did not start" >&2
	exit 1
    fi
    sleep 0.1
done
echo "lab-ready: $name"
wait "$sshd" || true
