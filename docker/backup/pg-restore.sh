#!/bin/sh
# Restores a dump of pg-backup.sh into a NEW database, never over one that exists: the damaged
# database stays as it was until the operator swaps names (docs/operations.md, "Restore").
#
#   pg-restore.sh DUMP_FILE TARGET_DATABASE
#
# Connection: libpq's PGHOST, PGPORT, PGUSER, PGPASSWORD, as a role that may create databases
# (the bootstrap superuser). The roles the dump names (orderbot_owner, orderbot_app) must exist, as
# they do on the server that made it; each table comes back with its owner and grants.
# RESTORE_DB_OWNER (optional): the new database's owner, as init-roles.sh makes it.
set -eu

dump=${1:?usage: pg-restore.sh DUMP_FILE TARGET_DATABASE}
target=${2:?usage: pg-restore.sh DUMP_FILE TARGET_DATABASE}
[ -r "$dump" ] || { echo "pg-restore: cannot read $dump" >&2; exit 1; }
case "$target" in
  *[!a-z0-9_]* | "") echo "pg-restore: the target database must be named with a-z 0-9 _ only" >&2; exit 1 ;;
esac

# Refuses to start on an unreadable dump, before anything is created.
pg_restore --list "$dump" >/dev/null
exists=$(psql --no-psqlrc --no-password -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$target'")
[ -z "$exists" ] || { echo "pg-restore: database $target exists; restore into a new name" >&2; exit 1; }

createdb --no-password --maintenance-db=postgres ${RESTORE_DB_OWNER:+--owner="$RESTORE_DB_OWNER"} "$target"
# One transaction: the new database holds the whole dump or, after any error, nothing.
if ! pg_restore --no-password --exit-on-error --single-transaction --dbname="$target" "$dump"; then
  dropdb --no-password --maintenance-db=postgres "$target"
  echo "pg-restore: restore failed; $target dropped, nothing else changed" >&2
  exit 1
fi
echo "pg-restore: $dump restored into $target"
