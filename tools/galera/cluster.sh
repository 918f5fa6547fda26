#!/usr/bin/env bash
# A 3-node MariaDB Galera cluster on this machine, on loopback only, for tests and benchmarks (SPEC §15).
#
#   tools/galera/cluster.sh start    # nodes on 127.0.0.1:3311, 3312, 3313 (root, no password), data in tmp/galera
#   tools/galera/cluster.sh status   # each node's wsrep state
#   tools/galera/cluster.sh stop     # stops the nodes (the data stays; `start` brings the cluster back)
#   tools/galera/cluster.sh kill N   # kills node N (1-3) at once, as a crash would
#   tools/galera/cluster.sh up N     # starts node N again and waits until it is Synced
#   tools/galera/cluster.sh clean    # stops the nodes and removes their data
#
# Needs Debian's mariadb-server (galera-4 and rsync come with it). Group communication, incremental and full state
# transfers all listen on 127.0.0.1; full state transfers use rsync, run as the user the nodes run as.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DIR="${GALERA_DIR:-$ROOT/tmp/galera}"
PROVIDER="${GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}"
NODES=(1 2 3)
port() { echo $((3310 + $1)); }
gcomm() { echo $((4566 + $1)); }
ist() { echo $((4576 + $1)); }
sst() { echo $((4443 + $1)); }
cluster_address() { echo "gcomm://127.0.0.1:$(gcomm 1),127.0.0.1:$(gcomm 2),127.0.0.1:$(gcomm 3)"; }
# The nodes run as `mysql` when this runs as root: rsync's state transfer then writes the joiner's datadir as its
# owner (as root, rsync's daemon would switch to `nobody` and fail to write it).
if [ "$(id -u)" = 0 ] && id mysql >/dev/null 2>&1; then RUN_AS=mysql; else RUN_AS="$(id -un)"; fi
client() { mariadb --protocol=tcp -h127.0.0.1 -P"$(port "$1")" -uroot -N -B "${@:2}"; }

# The process started for a node (its pid file appears only once the server is up).
running() { [ -f "$DIR/node$1/process.pid" ] && kill -0 "$(cat "$DIR/node$1/process.pid")" 2>/dev/null; }

state() { client "$1" -e "SHOW STATUS LIKE 'wsrep_local_state_comment'" 2>/dev/null | awk '{print $2}'; }

wait_synced() {
  for _ in $(seq 1 120); do
    [ "$(state "$1")" = "Synced" ] && return 0
    running "$1" || { echo "node $1 stopped; see $DIR/node$1/error.log" >&2; tail -20 "$DIR/node$1/error.log" >&2; return 1; }
    sleep 1
  done
  echo "node $1 is not Synced after 120 s; see $DIR/node$1/error.log" >&2
  return 1
}

init_node() {
  local data="$DIR/node$1/data"
  [ -d "$data/mysql" ] && return 0
  mkdir -p "$data"
  chown -R "$RUN_AS" "$DIR/node$1"
  mariadb-install-db --no-defaults --user="$RUN_AS" --datadir="$data" --auth-root-authentication-method=normal --skip-test-db >"$DIR/node$1/install.log" 2>&1 ||
    { echo "could not create node $1's data; see $DIR/node$1/install.log" >&2; tail -5 "$DIR/node$1/install.log" >&2; return 1; }
}

start_node() {
  local n=$1 extra=${2:-}
  running "$n" && return 0
  init_node "$n"
  local data="$DIR/node$n/data"
  # After a crash the node learns its last committed position from InnoDB before it joins (`--wsrep-recover`).
  if [ -f "$DIR/node$n/crashed" ]; then
    mariadbd --no-defaults --datadir="$data" --user="$RUN_AS" --wsrep-recover --wsrep_on=ON --wsrep_provider="$PROVIDER" \
      --log-error="$DIR/node$n/recover.log" >/dev/null 2>&1 || true
    rm -f "$DIR/node$n/crashed"
  fi
  mariadbd --no-defaults --datadir="$data" --user="$RUN_AS" \
    --port="$(port "$n")" --bind-address=127.0.0.1 --socket="$DIR/node$n/mariadbd.sock" \
    --pid-file="$DIR/node$n/mariadbd.pid" --log-error="$DIR/node$n/error.log" \
    --binlog_format=ROW --default_storage_engine=InnoDB --innodb_autoinc_lock_mode=2 \
    --innodb_buffer_pool_size=128M --innodb_flush_log_at_trx_commit=2 --max_connections=300 \
    --wsrep_on=ON --wsrep_provider="$PROVIDER" --wsrep_cluster_name=calendar \
    --wsrep_cluster_address="$(cluster_address)" --wsrep_node_name="node$n" --wsrep_node_address="127.0.0.1:$(gcomm "$n")" \
    --wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:$(gcomm "$n");ist.recv_addr=127.0.0.1:$(ist "$n")" \
    --wsrep_sst_method=rsync --wsrep_sst_receive_address="127.0.0.1:$(sst "$n")" \
    $extra >/dev/null 2>&1 &
  echo $! >"$DIR/node$n/process.pid"
  wait_synced "$n"
}

command=${1:-status}
case "$command" in
  start)
    mkdir -p "$DIR"
    # The nodes' user must reach their folders.
    chmod a+rx "$DIR"
    if ! running 1 && ! running 2 && ! running 3; then
      # The first node founds the cluster; the others join it.
      if [ -f "$DIR/node1/data/grastate.dat" ]; then sed -i 's/^safe_to_bootstrap: 0/safe_to_bootstrap: 1/' "$DIR/node1/data/grastate.dat"; fi
      start_node 1 --wsrep-new-cluster
    fi
    for n in "${NODES[@]}"; do start_node "$n"; done
    "$0" status
    ;;
  status)
    for n in "${NODES[@]}"; do
      if running "$n"; then echo "node $n 127.0.0.1:$(port "$n") $(state "$n")"; else echo "node $n stopped"; fi
    done
    ;;
  stop)
    for n in 3 2 1; do
      if running "$n"; then kill "$(cat "$DIR/node$n/process.pid")"; fi
    done
    for n in "${NODES[@]}"; do for _ in $(seq 1 60); do running "$n" || break; sleep 1; done; done
    ;;
  kill)
    n=${2:?node number}
    if running "$n"; then kill -9 "$(cat "$DIR/node$n/process.pid")"; touch "$DIR/node$n/crashed"; rm -f "$DIR/node$n/mariadbd.pid" "$DIR/node$n/process.pid"; fi
    ;;
  up)
    start_node "${2:?node number}"
    ;;
  clean)
    "$0" stop
    rm -rf "$DIR"
    ;;
  *)
    echo "usage: $0 start|status|stop|kill N|up N|clean" >&2
    exit 2
    ;;
esac
