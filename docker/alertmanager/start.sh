#!/bin/sh
# Writes Alertmanager's configuration from alertmanager.yml.in and the two settings, then starts it
# (compose's entrypoint). `start.sh render` only writes the file (tests/ops/alerts.test.ts checks
# it with amtool). The file goes to ALERTMANAGER_CONFIG (default /tmp/alertmanager.yml, a tmpfs):
# the token never lands on a disk.
set -eu
here=$(dirname "$0")
out=${ALERTMANAGER_CONFIG:-/tmp/alertmanager.yml}
token=${ALERT_TELEGRAM_BOT_TOKEN:?set ALERT_TELEGRAM_BOT_TOKEN in docker/.env}
chat=${ALERT_TELEGRAM_CHAT_ID:?set ALERT_TELEGRAM_CHAT_ID in docker/.env}

# Checked here, so that a bad value is named instead of breaking the YAML or the sed below.
case $token in
  *[!A-Za-z0-9:_-]* | "") echo "start.sh: ALERT_TELEGRAM_BOT_TOKEN must look like 123456:ABC-DEF" >&2; exit 1 ;;
esac
case ${chat#-} in
  *[!0-9]* | "") echo "start.sh: ALERT_TELEGRAM_CHAT_ID must be a numeric chat id" >&2; exit 1 ;;
esac

umask 077
sed -e "s|@ALERT_TELEGRAM_BOT_TOKEN@|$token|" -e "s|@ALERT_TELEGRAM_CHAT_ID@|$chat|" \
  "$here/alertmanager.yml.in" >"$out"
[ "${1:-}" = render ] && exit 0
exec /bin/alertmanager --config.file="$out" --storage.path=/alertmanager
