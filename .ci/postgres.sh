# Sourced by .ci/run: start_test_postgres / stop_test_postgres. PostgreSQL refuses to run as root,
# so the cluster belongs to the `postgres` user the Debian package creates (or to $PG_USER).
PG_USER="${PG_USER:-postgres}"

start_test_postgres() {
  local bin port
  bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
  PG_DIR="$(mktemp -d /tmp/patchgate-pg.XXXXXX)"
  chown "$PG_USER" "$PG_DIR"
  # A port nobody listens on now (the package's own cluster, if it started, has 5432).
  port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
  runuser -u "$PG_USER" -- "$bin/initdb" -D "$PG_DIR/data" -A trust -U pg >/dev/null
  runuser -u "$PG_USER" -- "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-k $PG_DIR -p $port -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off" start >/dev/null
  PG_BIN="$bin"
  export PATCHGATE_TEST_DATABASE_URL="postgres://pg@127.0.0.1:$port/postgres"
  echo "test PostgreSQL at $PATCHGATE_TEST_DATABASE_URL ($PG_DIR)"
}

stop_test_postgres() {
  [ -n "${PG_DIR:-}" ] || return 0
  runuser -u "$PG_USER" -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null || true
  rm -rf "$PG_DIR"
}
