# Shared by the shell scripts: load .env, then .env.example, without overriding the real
# environment (what is already exported wins, then .env, then the documented defaults).
# shellcheck shell=bash

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

load_env_file() {
  local file=$1 line key value
  [ -f "$file" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    [[ $line =~ ^[[:space:]]*([A-Z][A-Z0-9_]*)=(.*)$ ]] || continue
    key=${BASH_REMATCH[1]}
    value=${BASH_REMATCH[2]}
    value=${value%\"}; value=${value#\"}
    [ -n "${!key+x}" ] || export "$key=$value"
  done <"$file"
}

load_env() {
  load_env_file "$ROOT/.env"
  load_env_file "$ROOT/.env.example"
}

# url_host URL / url_port URL DEFAULT: the host and port of a postgresql:// or redis:// URL.
url_host() { local rest=${1#*://}; rest=${rest#*@}; rest=${rest%%/*}; echo "${rest%%:*}"; }
url_port() {
  local rest=${1#*://}; rest=${rest#*@}; rest=${rest%%/*}
  if [[ $rest == *:* ]]; then echo "${rest##*:}"; else echo "$2"; fi
}
url_path() { local rest=${1#*://}; rest=${rest#*/}; echo "${rest%%\?*}"; }
