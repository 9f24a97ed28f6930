#!/usr/bin/env bash
# Runs a command beside a PostgreSQL 15 cluster of its own: installs Debian's server when missing,
# starts a cluster under a temporary directory on a free loopback port, exports DESK_TEST_POSTGRES_URL
# (the server's `postgres` database, from which tests create one database per desk), runs the
# command, and stops the cluster whatever the command did. The SQLite suite uses the server only
# for tests that need both engines (desk migrate-to); scripts/test-postgres.ts runs the suite on it.
#   bash .ci/postgres.sh bun scripts/test-postgres.ts
set -euo pipefail
bin=/usr/lib/postgresql/15/bin
if [ ! -x "$bin/postgres" ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null
fi
dir=$(mktemp -d /tmp/desk-pg.XXXXXX)
run_as=()
if [ "$(id -u)" = 0 ]; then
  # The server refuses to run as root.
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown postgres "$dir"
  run_as=(runuser -u postgres --)
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"${run_as[@]}" "$bin/initdb" -D "$dir/data" -U desk --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
# Durability settings off: a test cluster is thrown away, and fsync would only slow the suite.
"${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >/dev/null
stop() {
  "${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
export DESK_TEST_POSTGRES_URL="postgres://desk@127.0.0.1:$port/postgres"
"$@"
