#!/bin/sh
# The bootstrap superuser logs in through the container's own socket only (`docker compose exec
# postgres`: scripts/restore), never over the network: pg_hba.conf takes its first matching line,
# and this one comes before the image's `host all all all scram-sha-256`. Run once by the postgres
# image on an empty data directory, after it wrote pg_hba.conf.
set -eu
hba="$PGDATA/pg_hba.conf"
{ printf 'host all %s all reject\n' "$POSTGRES_USER"; cat "$hba"; } >"$hba.new"
mv "$hba.new" "$hba"
