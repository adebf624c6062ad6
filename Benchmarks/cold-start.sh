#!/usr/bin/env bash
# Cold start: the time from a fresh clone to a first verdict, as a newcomer runs it, once with the
# release build (`swift run -c release authcheck check Specs/*.json`) and once with the debug build
# (`swift run authcheck check Specs/*.json`), one after the other in the same conditions. For each:
# the whole run's wall and CPU seconds (/usr/bin/time -v), the check alone run again on the built
# binary, and the build as the difference; then each spec's check alone on the release binary.
# Prints the "## Cold start" section of Benchmarks/results.md; with --write puts it in place there.
# Usage: Benchmarks/cold-start.sh [--write] [REVISION]   (default: HEAD of this clone)
set -euo pipefail
cd "$(dirname "$0")/.."
write=0
if [ "${1:-}" = "--write" ]; then write=1; shift; fi
revision="$(git rev-parse "${1:-HEAD}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# seconds USER+SYS and wall from a /usr/bin/time -v file
cpu() { awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.1f", s }' "$1"; }
wall() { awk -F': ' '/Elapsed/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.1f", s }' "$1"; }

rows=""
for configuration in release debug; do
  clone="$work/clone-$configuration"
  git clone -q "$PWD" "$clone"
  git -C "$clone" checkout -q "$revision"
  flag=""; [ "$configuration" = release ] && flag="-c release"
  load="$(cut -d' ' -f1-3 /proc/loadavg)"
  # shellcheck disable=SC2086
  (cd "$clone" && /usr/bin/time -v -o "$work/$configuration.run" swift run $flag authcheck check Specs/*.json >"$work/$configuration.out" 2>&1) || true
  (cd "$clone" && /usr/bin/time -v -o "$work/$configuration.check" ".build/$configuration/authcheck" check Specs/*.json >/dev/null 2>&1) || true
  verdict="$(tail -n 1 "$work/$configuration.out")"
  run_wall="$(wall "$work/$configuration.run")"; run_cpu="$(cpu "$work/$configuration.run")"
  check_wall="$(wall "$work/$configuration.check")"; check_cpu="$(cpu "$work/$configuration.check")"
  build_wall="$(awk -v a="$run_wall" -v b="$check_wall" 'BEGIN { printf "%.1f", a - b }')"
  build_cpu="$(awk -v a="$run_cpu" -v b="$check_cpu" 'BEGIN { printf "%.1f", a - b }')"
  rows+="| \`swift run $flag${flag:+ }authcheck check Specs/*.json\` | $configuration | $build_wall | $build_cpu | $check_wall | $check_cpu | $run_wall | $run_cpu | $load | $verdict |"$'\n'
  if [ "$configuration" = release ]; then
    specs=""
    for spec in "$clone"/Specs/*.json; do
      /usr/bin/time -v -o "$work/spec" "$clone/.build/release/authcheck" check "$spec" >/dev/null 2>&1 || true
      specs+="$(basename "$spec") $(wall "$work/spec") s; "
    done
  fi
done

section="$(cat <<EOF
## Cold start

From a fresh clone of $(git rev-parse --short "$revision") to the first verdict (\`Benchmarks/cold-start.sh\`), release then debug, one after the other on the same shared 2-core machine; \`/usr/bin/time -v\`; CPU is user + system seconds (steadier than wall under load); build = the whole run − the check run again alone. Each command builds only the tool's five modules (AuthFlow, PropertyTesting, AuthFlowChecker, AuthCheckCLI, authcheck): no test support, generators, benchmark or example app.

| command | build | build wall s | build CPU s | check wall s | check CPU s | total wall s | total CPU s | load at start | verdict |
|---|---|--:|--:|--:|--:|--:|--:|---|---|
${rows%$'\n'}

Each spec's check alone on the release binary: ${specs%; }.
EOF
)"
echo "$section"
if [ "$write" = 1 ]; then
  python3 - "$section" <<'PY'
import re, sys
section = sys.argv[1].rstrip("\n") + "\n"
text = open("Benchmarks/results.md").read()
match = re.search(r"^## Cold start\n.*?(?=^## |\Z)", text, flags=re.S | re.M)
if match:
    text = text[:match.start()] + section + ("\n" if match.end() < len(text) else "") + text[match.end():]
else:
    text = text.rstrip("\n") + "\n\n" + section
open("Benchmarks/results.md", "w").write(text)
PY
  echo "wrote the cold start section of Benchmarks/results.md" >&2
fi
