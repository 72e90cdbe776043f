# The official image's first-start contract: a cluster owned by POSTGRES_USER with its password,
# a database POSTGRES_DB, password logins from the network.
set -eu
PGDATA=/var/lib/postgresql/data
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  password_file="$(mktemp)"
  printf '%s' "$POSTGRES_PASSWORD" > "$password_file"
  initdb --pgdata="$PGDATA" --username="$POSTGRES_USER" --pwfile="$password_file" \
    --auth-local=trust --auth-host=scram-sha-256
  rm -f "$password_file"
  echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
  pg_ctl --pgdata="$PGDATA" --wait --options="-c listen_addresses=''" start
  createdb --username="$POSTGRES_USER" "$POSTGRES_DB"
  pg_ctl --pgdata="$PGDATA" --wait --mode=fast stop
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
