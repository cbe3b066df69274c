#!/bin/sh
# Least privilege in PostgreSQL: run once by the postgres image on an empty data directory
# (/docker-entrypoint-initdb.d), as the bootstrap superuser. Creates
#   - the owner role (POSTGRES_OWNER_PASSWORD): owns the database and the public schema; the
#     migrate job connects as it, so every table and sequence it creates belongs to it;
#   - the app role (POSTGRES_APP_PASSWORD): the bot and the worker connect as it. It may connect,
#     and read and write rows (SELECT, INSERT, UPDATE, DELETE; sequences; functions), nothing more:
#     no DDL, no TRUNCATE, no superuser power such as COPY ... PROGRAM;
#   - the backup role (POSTGRES_BACKUP_PASSWORD): the backup service's pg_dump. It reads every
#     table (pg_read_all_data) and writes none.
# Neither is a superuser, nor may create databases or roles. The superuser (POSTGRES_USER) is used
# by nothing but this script. On a data directory made before this script existed, run it by hand
# (docs/operations.md, "Least privilege"). tests/ops/database-roles.test.ts runs it for real.
set -eu

owner="${ORDERBOT_OWNER_ROLE:-orderbot_owner}"
app="${ORDERBOT_APP_ROLE:-orderbot_app}"
backup="${ORDERBOT_BACKUP_ROLE:-orderbot_backup}"

psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v owner="$owner" -v app="$app" -v backup="$backup" -v db="$POSTGRES_DB" \
  -v owner_password="${POSTGRES_OWNER_PASSWORD:?set POSTGRES_OWNER_PASSWORD}" \
  -v app_password="${POSTGRES_APP_PASSWORD:?set POSTGRES_APP_PASSWORD}" \
  -v backup_password="${POSTGRES_BACKUP_PASSWORD:?set POSTGRES_BACKUP_PASSWORD}" <<'SQL'
CREATE ROLE :"owner" LOGIN PASSWORD :'owner_password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION;
CREATE ROLE :"app" LOGIN PASSWORD :'app_password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION;
CREATE ROLE :"backup" LOGIN PASSWORD :'backup_password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION;
GRANT pg_read_all_data TO :"backup";

ALTER DATABASE :"db" OWNER TO :"owner";
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT ON DATABASE :"db" TO :"app", :"backup";

ALTER SCHEMA public OWNER TO :"owner";
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"app";

-- Whatever the owner creates later (every migration) is open to the app for rows only.
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
  GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
  GRANT EXECUTE ON FUNCTIONS TO :"app";
SQL
