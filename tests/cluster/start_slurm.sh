#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for tests/cluster (needs root, and Debian's
# slurm-wlm and munge: apt-get install slurm-wlm munge). Idempotent: run it again and it only
# starts what is not running. The node is this machine (its CPUs and memory, from `slurmd -C`),
# in one partition, `debug` (the default), with cons_tres and no accounting database (sacct
# does not work; `scontrol show job <id>` does, for MinJobAge seconds after a job ends).
# Used with Debian 12's slurm-wlm 22.05.8 (`sinfo -V` needs the cluster's slurm.conf).
#
#   sudo tests/cluster/start_slurm.sh          # start munged, slurmctld, slurmd; wait for the node
#   sudo tests/cluster/start_slurm.sh stop     # stop the daemons this script starts
#
# It writes /etc/slurm/slurm.conf only when there is none, or when it is one this script wrote
# (first line below); a slurm.conf of a real cluster is never touched.
set -euo pipefail

MARKER="# written by forestrepro tests/cluster/start_slurm.sh"
CONF=/etc/slurm/slurm.conf
PARTITION="${SLURM_TEST_PARTITION:-debug}"

pid_alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

if [ "${1:-start}" = stop ]; then
  for pidfile in /run/slurmd.pid /run/slurmctld.pid /run/munge/munged.pid; do
    if pid_alive "$pidfile"; then kill "$(cat "$pidfile")"; echo "stopped $(basename "$pidfile" .pid)"; fi
  done
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then echo "start_slurm.sh: run it as root" >&2; exit 1; fi
for exe in /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd; do
  [ -x "$exe" ] || { echo "start_slurm.sh: $exe missing: apt-get install slurm-wlm munge" >&2; exit 1; }
done

# munge: the key (made once) and the daemon, as the munge user
install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
install -d -o munge -g munge -m 0755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  echo "made /etc/munge/munge.key"
fi
if ! pid_alive /run/munge/munged.pid; then
  runuser -u munge -- /usr/sbin/munged
  echo "started munged"
fi
munge -n | unmunge >/dev/null

# slurm.conf: this machine as the one node
HOST="$(hostname -s)"
NODE_LINE="$(slurmd -C | head -n 1)"  # NodeName=<host> CPUs=... RealMemory=...
if [ ! -e "$CONF" ] || head -n 1 "$CONF" | grep -qxF "$MARKER"; then
  mkdir -p /etc/slurm
  cat > "$CONF.new" <<EOF
$MARKER
ClusterName=forestrepro
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
# no cgroups (containers, VMs): track processes by their parent, bind no CPUs
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
# keep finished jobs in slurmctld for an hour, so scontrol show job (and the executor's
# squeue status checks) still see them
MinJobAge=3600
ReturnToService=2
$NODE_LINE State=UNKNOWN
PartitionName=$PARTITION Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
  if ! cmp -s "$CONF.new" "$CONF"; then
    mv "$CONF.new" "$CONF"
    echo "wrote $CONF"
    CHANGED=1
  else
    rm -f "$CONF.new"
  fi
else
  echo "start_slurm.sh: $CONF was not written by this script; using it as it is" >&2
fi
install -d -m 0755 /var/spool/slurmctld /var/spool/slurmd /var/log/slurm

if [ "${CHANGED:-0}" = 1 ]; then  # a new configuration: restart what runs
  for pidfile in /run/slurmd.pid /run/slurmctld.pid; do
    if pid_alive "$pidfile"; then kill "$(cat "$pidfile")"; sleep 1; fi
  done
fi
if ! pid_alive /run/slurmctld.pid; then /usr/sbin/slurmctld; echo "started slurmctld"; fi
if ! pid_alive /run/slurmd.pid; then /usr/sbin/slurmd; echo "started slurmd"; fi

# wait for the node to take jobs (a node left down or drained by a previous run is resumed)
for _ in $(seq 60); do
  state="$(sinfo -h -n "$HOST" -o %T 2>/dev/null | head -n 1 || true)"
  case "$state" in
    idle*|mixed*|allocated*|completing*) sinfo; exit 0 ;;
    down*|drain*|drained*) scontrol update NodeName="$HOST" State=RESUME || true ;;
  esac
  sleep 1
done
echo "start_slurm.sh: node $HOST did not come up (state: ${state:-none}); see /var/log/slurm/" >&2
exit 1
