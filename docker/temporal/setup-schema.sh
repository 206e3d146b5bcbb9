#!/bin/sh
# One-shot job (service temporal-schema, image temporalio/admin-tools): creates Temporal's two
# PostgreSQL databases and brings their schemas to the version this admin-tools image ships. The
# cluster script (npm run cluster -- up) runs it too, with a temporal-sql-tool built from the
# server module, which carries the schemas itself.
# Safe to rerun: an existing database is kept, and the schema steps skip what is already applied.
set -eu

: "${POSTGRES_SEEDS:?set POSTGRES_SEEDS to the PostgreSQL host}"
: "${POSTGRES_USER:?set POSTGRES_USER}"
: "${SQL_PASSWORD:?set SQL_PASSWORD to the PostgreSQL password}"
port="${DB_PORT:-5432}"
schemas=/etc/temporal/schema/postgresql/v12

sql_tool() {
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$port" -u "$POSTGRES_USER" "$@"
}

# The cluster script starts PostgreSQL and waits for it itself, on machines without nc.
if command -v nc >/dev/null 2>&1; then
  until nc -z -w 5 "$POSTGRES_SEEDS" "$port"; do
    echo "waiting for PostgreSQL at $POSTGRES_SEEDS:$port"
    sleep 2
  done
fi

# database name, then the folder of its versioned schema
for entry in temporal:temporal temporal_visibility:visibility; do
  database="${entry%%:*}"
  folder="${entry#*:}"
  if output=$(sql_tool --db "$database" create 2>&1); then
    echo "database $database created"
  elif echo "$output" | grep -q 'already exists'; then
    echo "database $database exists"
  else
    echo "$output" >&2
    exit 1
  fi
  sql_tool --db "$database" setup-schema -v 0.0
  if [ -d "$schemas/$folder/versioned" ]; then
    sql_tool --db "$database" update-schema -d "$schemas/$folder/versioned"
  else
    sql_tool --db "$database" update-schema --schema-name "postgresql/v12/$folder"
  fi
  echo "database $database is at the current schema"
done
