#!/usr/bin/env bash
# Writes precompile-studio(1), gzipped, from the command's own --help: help2man makes the page
# from `precompile-studio --help` and --version, and a SUBCOMMANDS section holds every
# subcommand's --help (found by walking the "Subcommands:" lists), so the page cannot drift from
# the CLI.   man-page.sh BINARY OUT.1.gz
set -euo pipefail
# The binary runs by its name (its folder first on PATH) so the usage lines say
# "precompile-studio", not the build folder's path.
export PATH="$(cd "$(dirname "$1")" && pwd):$PATH"
bin=$(basename "$1")
out=$(realpath -m "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Roff-safe preformatted text: backslashes doubled, a leading . or ' escaped.
roff() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }

# The subcommands a --help text lists (CLI11: a "Subcommands:" heading, then "  name  text").
subcommands() {
    awk '/^Subcommands:/ {on = 1; next} on && /^[^ ]/ {on = 0} on && /^  [a-z]/ {print $1}'
}
# A subcommand's help without the footer every one repeats (the exit codes, in DESCRIPTION).
without_footer() { awk '/^Exit codes of run/ {exit} {print}'; }

walk() {
    local path=("$@")
    local help
    help=$("$bin" "${path[@]}" --help)
    if [ ${#path[@]} -gt 0 ]; then
        printf '.SS "precompile-studio %s"\n.nf\n' "${path[*]}"
        printf '%s\n' "$help" | without_footer | roff
        printf '.fi\n'
    fi
    local sub
    for sub in $(printf '%s\n' "$help" | subcommands); do
        walk "${path[@]}" "$sub"
    done
}

{
    printf '[SUBCOMMANDS]\n'
    printf 'Each subcommand'"'"'s own \\fB\\-\\-help\\fR, as the installed binary prints it.\n'
    walk
    # (an include line that starts with / is a help2man placement pattern: paths start with \fB)
    printf '[FILES]\n'
    printf '.TP\n\\fB/usr/lib/precompile\\-studio/\\fR\nthe worker and the precompile_studio Python package\n'
    printf '.TP\n\\fB/usr/share/precompile\\-studio/\\fR\nexamples, lessons and requirements.txt, the packages \\fBsetup\\fR installs\n'
    printf '.TP\n\\fB${XDG_CACHE_HOME:\\-$HOME/.cache}/precompile\\-studio/env\\-KEY\\fR\n'
    printf 'the per-user Python environment with torch, made by \\fBprecompile\\-studio setup\\fR\n'
    printf '[ENVIRONMENT]\n'
    printf '.TP\nPS_PYTHON_ENV\nthe studio'"'"'s Python environment, instead of the per-user one\n'
    printf '.TP\nPS_RESOURCES_DIR\nthe folder that holds examples/ and lessons/\n'
} > "$work/include.h2m"

help2man --no-info --section 1 --name "workbench for torch.compiler.precompile" \
    --include "$work/include.h2m" --output "$work/page.1" "$bin"
gzip -9n < "$work/page.1" > "$out.tmp"
mv "$out.tmp" "$out"
