#!/bin/sh
# A logical backup of the shop's database: pg_dump's custom format (compressed; pg_restore can
# restore it whole or table by table), checked readable, then kept beside the newest BACKUP_KEEP.
#
#   pg-backup.sh             one backup, then exit (scripts/backup, the restore test)
#   pg-backup.sh every N     one every N seconds, for ever (the compose `backup` service)
#
# Connection: libpq's PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE. BACKUP_DIR (required): where
# the dumps go, a directory off the database's volume that the host ships elsewhere.
# BACKUP_METRICS_DIR (optional): a node-exporter textfile directory, where the time and size of
# the last good backup go (the OrderbotBackupTooOld alert reads them). Logs name files, never a
# password.
set -eu

# Dumps hold customers' addresses and phone numbers: readable by their owner only.
umask 077
: "${BACKUP_DIR:?set BACKUP_DIR: where the dumps go}"
keep=${BACKUP_KEEP:-48}

backup_once() {
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  file="$BACKUP_DIR/orderbot-$stamp.dump"
  # Written under another name and renamed when complete: a copy that runs meanwhile never ships
  # half a dump, and a failed dump leaves nothing that looks like a backup.
  pg_dump --format=custom --no-password --file="$file.part"
  pg_restore --list "$file.part" >/dev/null
  mv "$file.part" "$file"
  echo "pg-backup: wrote $file ($(wc -c <"$file") bytes)"
  prune
  [ -z "${BACKUP_METRICS_DIR:-}" ] || write_metrics "$file"
}

# The newest $keep dumps stay; older ones go (the names sort by time).
prune() {
  ls -1 "$BACKUP_DIR"/orderbot-*.dump 2>/dev/null | sort -r | tail -n +"$((keep + 1))" |
    while read -r old; do rm -f "$old"; done
}

write_metrics() {
  tmp="$BACKUP_METRICS_DIR/orderbot_backup.prom.$$"
  {
    echo "# HELP orderbot_backup_last_success_timestamp_seconds When the last readable backup was written."
    echo "# TYPE orderbot_backup_last_success_timestamp_seconds gauge"
    echo "orderbot_backup_last_success_timestamp_seconds $(date -u +%s)"
    echo "# HELP orderbot_backup_last_size_bytes Size of the last backup."
    echo "# TYPE orderbot_backup_last_size_bytes gauge"
    echo "orderbot_backup_last_size_bytes $(wc -c <"$1")"
  } >"$tmp"
  chmod 644 "$tmp" # node-exporter reads it as another user
  mv "$tmp" "$BACKUP_METRICS_DIR/orderbot_backup.prom"
}

case "${1:-once}" in
  once) backup_once ;;
  every)
    interval=${2:?usage: pg-backup.sh every SECONDS}
    while :; do
      # A failed backup is logged and retried next round; the age alert fires if it keeps failing.
      backup_once || echo "pg-backup: backup failed; next try in $interval s" >&2
      sleep "$interval"
    done
    ;;
  *) echo "usage: pg-backup.sh [once | every SECONDS]" >&2; exit 2 ;;
esac
