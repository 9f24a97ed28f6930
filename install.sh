#!/usr/bin/env bash
# Installs Desk as a systemd service on a Linux host. Safe to run again (upgrades the binary,
# keeps the data and the generated secrets).
#
#   sudo ./install.sh [path/to/desk] [--dry-run]
#
# Without a path it uses `desk` or `dist/desk` next to this script. --dry-run prints every action
# and changes nothing (no root needed).
set -euo pipefail

BIN_PATH=/usr/local/bin/desk
DATA_DIR=/var/lib/desk
CONF_DIR=/etc/desk
ENV_FILE=$CONF_DIR/desk.env
UNIT_FILE=/etc/systemd/system/desk.service
SERVICE_USER=desk

DRY_RUN=0
BINARY=""
for arg in "$@"; do
  case "$arg" in
    --dry-run) DRY_RUN=1 ;;
    -h | --help)
      sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    -*)
      echo "install.sh: unknown option $arg" >&2
      exit 2
      ;;
    *) BINARY=$arg ;;
  esac
done

say() { printf '%s\n' "$*"; }
# Runs a command, or in a dry run only prints it.
run() {
  if [ "$DRY_RUN" = 1 ]; then
    say "+ $*"
  else
    "$@"
  fi
}
# Writes stdin to a file with a mode and owner, or in a dry run prints what would be written.
write_file() {
  local path=$1 mode=$2 owner=$3 content
  content=$(cat)
  if [ "$DRY_RUN" = 1 ]; then
    say "+ write $path (mode $mode, owner $owner)"
    printf '%s\n' "$content" | sed 's/^/    | /'
  else
    local tmp
    tmp=$(mktemp "$path.XXXXXX")
    printf '%s\n' "$content" >"$tmp"
    chmod "$mode" "$tmp"
    chown "$owner" "$tmp"
    mv -f "$tmp" "$path"
  fi
}
random_secret() { head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n'; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -z "$BINARY" ]; then
  for candidate in "$here/desk" "$here/dist/desk"; do
    if [ -f "$candidate" ]; then BINARY=$candidate; break; fi
  done
fi
if [ -z "$BINARY" ] || [ ! -f "$BINARY" ]; then
  echo "install.sh: no Desk binary found; build it with 'bun run build' or pass its path" >&2
  exit 1
fi
if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run as root (or with --dry-run to see the plan)" >&2
  exit 1
fi
[ "$DRY_RUN" = 1 ] && say "Dry run: nothing will be changed."

say "== binary"
run install -m 0755 "$BINARY" "$BIN_PATH"

say "== system user"
if id -u "$SERVICE_USER" >/dev/null 2>&1; then
  say "user $SERVICE_USER exists"
else
  run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi

say "== data directory"
run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA_DIR"
# install -d leaves an existing directory's mode alone: set it explicitly.
run chmod 0750 "$DATA_DIR"

say "== configuration"
run install -d -m 0755 "$CONF_DIR"
existing=""
if [ -f "$ENV_FILE" ]; then existing=$(cat "$ENV_FILE"); fi
env_lines=""
if [ -n "$existing" ]; then
  say "keeping $ENV_FILE"
  env_lines=$existing
else
  env_lines="# Desk configuration (see README.md for every DESK_* variable).
DESK_HOST=127.0.0.1
DESK_PORT=8080
DESK_DATA_DIR=$DATA_DIR
DESK_BASE_URL=http://localhost:8080"
fi
changed=0
for name in DESK_SECRET DESK_INBOUND_SECRET; do
  if printf '%s\n' "$env_lines" | grep -q "^$name="; then
    say "$name kept"
  else
    if [ "$DRY_RUN" = 1 ]; then value="<generated>"; else value=$(random_secret); fi
    env_lines="$env_lines
$name=$value"
    say "$name generated"
    changed=1
  fi
done
if [ -z "$existing" ] || [ "$changed" = 1 ]; then
  printf '%s\n' "$env_lines" | write_file "$ENV_FILE" 0640 "root:$SERVICE_USER"
fi

say "== systemd unit"
write_file "$UNIT_FILE" 0644 root:root <<UNIT
[Unit]
Description=Desk help desk
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=$SERVICE_USER
Group=$SERVICE_USER
EnvironmentFile=$ENV_FILE
WorkingDirectory=$DATA_DIR
ExecStart=$BIN_PATH serve
Restart=on-failure
RestartSec=2
UMask=0027
LimitNOFILE=65536
# Hardening. MemoryDenyWriteExecute stays off: the JavaScript engine's JIT needs W+X pages.
NoNewPrivileges=true
ProtectSystem=strict
ReadWritePaths=$DATA_DIR
ProtectHome=true
PrivateTmp=true
PrivateDevices=true
ProtectKernelTunables=true
ProtectKernelModules=true
ProtectControlGroups=true
RestrictSUIDSGID=true
RestrictNamespaces=true
LockPersonality=true

[Install]
WantedBy=multi-user.target
UNIT

say "== service"
run systemctl daemon-reload
run systemctl enable desk.service
run systemctl restart desk.service
say "Desk installed: $BIN_PATH, data in $DATA_DIR, settings in $ENV_FILE."
