#!/usr/bin/env bash
# Installs Desk as a systemd service on a Linux host, or upgrades it in place: keeps the data and
# the generated secrets, takes a `desk backup` first, and puts the previous binary back if the new
# one does not answer its health check.
#
#   sudo ./install.sh [path/to/desk] [--dry-run]
#   sudo ./install.sh --uninstall [--purge]
#
# Without a path it uses `desk` or `dist/desk` next to this script. --dry-run prints every action
# and changes nothing (no root needed). --uninstall stops and removes the service and the binary
# and keeps the data and settings; with --purge it removes those and the service user too.
set -euo pipefail

# The locations can be moved (tests install into a temporary root with a stand-in for systemctl).
BIN_PATH=${DESK_INSTALL_BIN:-/usr/local/bin/desk}
DATA_DIR=${DESK_INSTALL_DATA:-/var/lib/desk}
CONF_DIR=${DESK_INSTALL_CONF:-/etc/desk}
ENV_FILE=$CONF_DIR/desk.env
UNIT_FILE=${DESK_INSTALL_UNIT:-/etc/systemd/system/desk.service}
SERVICE_USER=${DESK_INSTALL_USER:-desk}
SYSTEMCTL=${DESK_INSTALL_SYSTEMCTL:-systemctl}
HEALTH_TIMEOUT=${DESK_INSTALL_HEALTH_TIMEOUT:-30}

DRY_RUN=0
UNINSTALL=0
PURGE=0
BINARY=""
for arg in "$@"; do
  case "$arg" in
    --dry-run) DRY_RUN=1 ;;
    --uninstall) UNINSTALL=1 ;;
    --purge) PURGE=1 ;;
    -h | --help)
      sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
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

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run as root (or with --dry-run to see the plan)" >&2
  exit 1
fi
[ "$DRY_RUN" = 1 ] && say "Dry run: nothing will be changed."

if [ "$UNINSTALL" = 1 ]; then
  say "== uninstall"
  run "$SYSTEMCTL" disable --now desk.service || true
  run rm -f "$UNIT_FILE" "$BIN_PATH" "$BIN_PATH.previous"
  run "$SYSTEMCTL" daemon-reload || true
  if [ "$PURGE" = 1 ]; then
    run rm -rf "$DATA_DIR" "$CONF_DIR"
    if id -u "$SERVICE_USER" >/dev/null 2>&1 && [ "$SERVICE_USER" != root ]; then run userdel "$SERVICE_USER"; fi
    say "Desk removed, with its data, settings and user."
  else
    say "Desk removed. Kept: data in $DATA_DIR and settings in $ENV_FILE (--purge removes them)."
  fi
  exit 0
fi

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
# Reads a variable of the settings file (empty when unset).
setting() { [ -f "$ENV_FILE" ] && sed -n "s/^$1=//p" "$ENV_FILE" | tail -n 1 || true; }
# Waits for GET /healthz of the configured listener; fails after HEALTH_TIMEOUT seconds.
healthy() {
  local host port
  host=$(setting DESK_HOST)
  port=$(setting DESK_PORT)
  [ "${host:-127.0.0.1}" = 0.0.0.0 ] && host=127.0.0.1
  for _ in $(seq 1 "$HEALTH_TIMEOUT"); do
    if curl -fsS -o /dev/null --max-time 2 "http://${host:-127.0.0.1}:${port:-8080}/healthz" 2>/dev/null; then return 0; fi
    sleep 1
  done
  return 1
}

UPGRADE=0
if [ -f "$BIN_PATH" ]; then UPGRADE=1; fi

if [ "$UPGRADE" = 1 ] && [ -f "$ENV_FILE" ] && [ -d "$DATA_DIR" ]; then
  say "== backup before upgrading"
  backup="$DATA_DIR/backups/pre-upgrade-$(date -u +%Y%m%dT%H%M%SZ).tar.gz"
  # The running binary takes it (it knows today's data), with the service's own settings.
  if [ "$DRY_RUN" = 1 ]; then
    say "+ $BIN_PATH backup $backup (as $SERVICE_USER, with $ENV_FILE)"
  else
    install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA_DIR/backups"
    if ! (set -a && . "$ENV_FILE" && set +a && cd "$DATA_DIR" && "$BIN_PATH" backup "$backup"); then
      echo "install.sh: the backup before upgrading failed; nothing was changed" >&2
      exit 1
    fi
    chown "$SERVICE_USER:$SERVICE_USER" "$backup"
  fi
fi

say "== binary"
if [ "$UPGRADE" = 1 ]; then run cp -p "$BIN_PATH" "$BIN_PATH.previous"; fi
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
DESK_BASE_URL=http://localhost:8080
# Inbound mail. To take mail straight from the internet, listen on every address on port 25:
#   DESK_SMTP_HOST=0.0.0.0
#   DESK_SMTP_PORT=25
# (the unit grants CAP_NET_BIND_SERVICE for ports below 1024), open port 25 in the firewall and
# point the MX record at this host; 'desk doctor' checks both. Or keep 2525 and redirect:
#   iptables -t nat -A PREROUTING -p tcp --dport 25 -j REDIRECT --to-port 2525
DESK_SMTP_HOST=127.0.0.1
DESK_SMTP_PORT=2525"
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
# Only to listen on port 25 for inbound mail (DESK_SMTP_PORT=25); Desk runs unprivileged otherwise.
AmbientCapabilities=CAP_NET_BIND_SERVICE
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
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
run "$SYSTEMCTL" daemon-reload
run "$SYSTEMCTL" enable desk.service
run "$SYSTEMCTL" restart desk.service
if [ "$DRY_RUN" = 1 ]; then
  say "+ wait up to ${HEALTH_TIMEOUT} s for GET /healthz; on failure put $BIN_PATH.previous back and restart"
  if [ "$UPGRADE" = 1 ]; then what="upgrade Desk at $BIN_PATH"; else what="install Desk as $BIN_PATH"; fi
  say "Dry run complete: nothing was changed. A real run (as root) would $what, with data in $DATA_DIR and settings in $ENV_FILE."
  exit 0
elif ! healthy; then
  if [ "$UPGRADE" = 1 ]; then
    echo "install.sh: the new binary did not answer /healthz in ${HEALTH_TIMEOUT} s; putting the previous one back" >&2
    mv -f "$BIN_PATH.previous" "$BIN_PATH"
    "$SYSTEMCTL" restart desk.service
    if healthy; then
      echo "install.sh: rolled back; the previous Desk serves again (data as it was: a database the new binary migrated is refused by the old one, restore $DATA_DIR/snapshots/pre-migrate-*.db or the pre-upgrade backup then)" >&2
    else
      echo "install.sh: the previous binary does not answer either; see journalctl -u desk" >&2
    fi
  else
    echo "install.sh: Desk did not answer /healthz in ${HEALTH_TIMEOUT} s; see journalctl -u desk" >&2
  fi
  exit 1
fi
say "Desk installed: $BIN_PATH, data in $DATA_DIR, settings in $ENV_FILE."
say "Next: serve it over HTTPS behind a reverse proxy (README: Caddy or nginx) and set DESK_BASE_URL."
