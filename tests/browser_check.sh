#!/usr/bin/env bash
# The report in a real browser: the H200 report written from the
# committed records (and, with a second folder, against it), rendered by
# headless Chromium.  Fails on a render error (a script error, an XML parse
# error of a plot, an SVG file that does not load as an image), on an empty
# plot (an <svg> whose data elements draw nothing, or that says "no
# plottable data"), on a broken internal link (href="#x" with no id x) and
# on any fetch the page makes (the HTML must be one self-contained file).
# Skipped (77) where Chromium is absent.
#   browser_check.sh GPUPROBE RECORDS_DIR [AGAINST_DIR]
set -u
bin=$1 records=$2 against=${3:-}
chrome=""
for c in chromium chromium-browser google-chrome; do
    command -v "$c" >/dev/null 2>&1 && { chrome=$c; break; }
done
[ -n "$chrome" ] || { echo "browser_check: no chromium on PATH: skipped"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "browser_check: FAIL: $*"; fail=1; }

# The report from copies of the records (the committed folder is not written).
copy() { mkdir -p "$2" && cp "$1"/*.json "$1"/*.csv "$2"/ && { cp "$1"/table.txt "$2"/ 2>/dev/null || true; }; }
copy "$records" "$tmp/a" || exit 1
args=(report "$tmp/a")
if [ -n "$against" ]; then
    copy "$against" "$tmp/b" || exit 1
    args+=(--against "$tmp/b" --out "$tmp/out")
    out=$tmp/out
else
    out=$tmp/a
fi
"$bin" "${args[@]}" >"$tmp/report.log" 2>&1 || { cat "$tmp/report.log"; echo "browser_check: report failed"; exit 1; }

# A copy of the page with a checking script appended (the report itself
# carries no script), and the Markdown report's SVG files as images: each
# must load (an XML error leaves it without a size).  One browser run (it
# takes seconds on a loaded machine); the script writes what it found into a
# <pre id="gp-check"> that --dump-dom prints.
{
    cat "$out/report.html"
    echo '<div id="gp-svg-files">'
    for f in "$out"/*.svg; do printf '<img data-check="1" alt="%s" src="%s">\n' "$(basename "$f")" "$(basename "$f")"; done
    echo '</div>'
    cat <<'EOF'
<script>
window.addEventListener('error', function (e) {
  var pre = document.createElement('pre');
  pre.textContent = 'ERROR script error: ' + e.message;
  document.body.appendChild(pre);
});
window.addEventListener('load', function () {
  var errors = [];
  var svgs = document.querySelectorAll('svg');
  var out = ['plots ' + svgs.length];
  svgs.forEach(function (s, i) {
    var t = (s.querySelector('title') || {}).textContent || ('svg #' + i);
    var box = s.getBBox();
    if (!(box.width > 0 && box.height > 0)) errors.push('plot draws nothing: ' + t);
    var drawn = 0;
    s.querySelectorAll('polyline, .pt, .bar').forEach(function (e) {
      var b = e.getBBox();
      if (b.width > 0 || b.height > 0) drawn++;
    });
    if (drawn === 0) errors.push('empty plot (no data element with a size): ' + t);
    if (s.textContent.indexOf('no plottable data') >= 0) errors.push('plot says no plottable data: ' + t);
  });
  document.querySelectorAll('a[href^="#"]').forEach(function (a) {
    var id = decodeURIComponent(a.getAttribute('href').slice(1));
    if (!document.getElementById(id)) errors.push('broken internal link: #' + id + ' (' + a.textContent + ')');
  });
  document.querySelectorAll('parsererror').forEach(function (p) { errors.push('parse error: ' + p.textContent); });
  var files = document.querySelectorAll('img[data-check]');
  out.push('svg files ' + files.length);
  files.forEach(function (i) { if (!(i.naturalWidth > 0)) errors.push('SVG file does not render: ' + i.alt); });
  var checked = {};
  files.forEach(function (i) { checked[i.src] = 1; });
  performance.getEntriesByType('resource').forEach(function (r) {
    if (!checked[r.name]) errors.push('fetch: ' + r.name);
  });
  document.querySelectorAll('[src]:not([data-check]), link[href]').forEach(function (e) {
    errors.push('external resource: ' + (e.getAttribute('src') || e.getAttribute('href')));
  });
  var pre = document.createElement('pre');
  pre.id = 'gp-check';
  pre.textContent = out.concat(errors.length ? errors.map(function (e) { return 'ERROR ' + e; }) : ['OK']).join('\n');
  document.body.appendChild(pre);
});
</script>
EOF
} >"$out/gp-check.html"

# No network: any host resolves to nothing, background services off.
timeout 90 "$chrome" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --disable-background-networking --disable-component-update --disable-default-apps --disable-extensions \
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$tmp/profile" \
    --dump-dom "file://$out/gp-check.html" >"$tmp/dom.html" 2>"$tmp/chrome.err"
rc=$?
[ "$rc" -eq 0 ] || { tail -20 "$tmp/chrome.err"; bad "chromium exited $rc"; }
sed -n '/<pre id="gp-check">/,/<\/pre>/p' "$tmp/dom.html" | sed 's/<[^>]*>//g' >"$tmp/result.txt"
grep '<pre>ERROR script error' "$tmp/dom.html" | sed 's/<[^>]*>//g' >>"$tmp/result.txt"
cat "$tmp/result.txt"
grep -q '^plots [1-9]' "$tmp/result.txt" || bad "the checking script did not run or found no plot"
grep -q '^svg files [1-9]' "$tmp/result.txt" || bad "no SVG file was checked"
grep -q '^ERROR' "$tmp/result.txt" && bad "$(grep -c '^ERROR' "$tmp/result.txt") problem(s) above"
grep -q '^OK$' "$tmp/result.txt" || bad "no OK from the checking script"

[ "$fail" -eq 0 ] && echo "browser_check: ok"
exit "$fail"
