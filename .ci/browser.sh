# shellcheck shell=bash
# .ci/browser.sh — Debian's Chromium for `npm run test:browser` (test/browser: the calendar page,
# driven by playwright-core, which downloads no browser of its own).
#
#     source .ci/databases.sh && source .ci/browser.sh && ensure_chromium
#
# ensure_chromium installs the packages `chromium` and `fonts-liberation` (the screenshots' text)
# with apt-get when /usr/bin/chromium (or $CALENDAR_CHROMIUM) is missing, as ensure_database_servers
# installs the database servers: root or sudo, apt's output shown only when it fails. Returns
# non-zero when it could not. Uses _ci_log, _ci_err and _ci_as_root from .ci/databases.sh.

ensure_chromium() {
  local chromium=${CALENDAR_CHROMIUM:-/usr/bin/chromium} log rc=0 t0=$SECONDS
  if [ -x "$chromium" ]; then
    _ci_log "chromium already installed: $("$chromium" --version 2>/dev/null || echo "$chromium")"
    return 0
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    _ci_err "no $chromium and no apt-get here: install Chromium and set CALENDAR_CHROMIUM to its path"
    return 1
  fi
  _ci_log "installing chromium with apt-get"
  log=$(mktemp /tmp/calendar-ci-apt-chromium.XXXXXX.log) || return 1
  _ci_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >"$log" 2>&1 </dev/null || rc=$?
  if [ "$rc" -eq 0 ]; then
    _ci_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold chromium fonts-liberation \
      >>"$log" 2>&1 </dev/null || rc=$?
  fi
  if [ "$rc" -ne 0 ]; then
    _ci_err "apt-get failed (exit $rc); last lines of its output:"; tail -n 40 "$log" >&2; rm -f "$log"
    return "$rc"
  fi
  rm -f "$log"
  [ -x "$chromium" ] || { _ci_err "chromium installed but $chromium not found"; return 1; }
  _ci_log "installed chromium in $((SECONDS - t0))s: $("$chromium" --version 2>/dev/null)"
}
