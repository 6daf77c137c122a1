#!/usr/bin/env zsh
# complete.zsh LINE...: for each LINE, prints, one per line, the matches
# that zsh's completion offers with the cursor at its end, using
# completions/_retry (and the compinit dump $RETRY_ZCOMPDUMP, when set),
# then a line --end--.
# An interactive zsh runs in a pseudo-terminal; its compadd is wrapped to
# write every match to a file before adding it.  One zsh for every LINE:
# a widget bound to ^X marks the end of one and clears the line for the
# next.
zmodload zsh/zpty zsh/zselect || exit 1
root=${0:A:h:h:h}
out=$(mktemp) || exit 1

zpty z zsh -f -i
zpty -w z "PS1=''; KEYTIMEOUT=1; fpath=($root/completions \$fpath); PATH=$root:\$PATH"
# A dump that the calls of one test run share spares each the scan of
# fpath; the functions themselves are still read afresh.
if [[ -n $RETRY_ZCOMPDUMP ]]; then
  zpty -w z "autoload -Uz compinit && compinit -u -d ${(q)RETRY_ZCOMPDUMP}"
else
  zpty -w z 'autoload -Uz compinit && compinit -u -D'
fi
zpty -w z "zstyle ':completion:*' insert-tab false"
zpty -w z "compadd() {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then
    builtin compadd \"\$@\"; return
  fi
  local -a __m
  builtin compadd -O __m \"\$@\"
  (( \$#__m )) && print -rl -- \$__m >> $out
  builtin compadd \"\$@\"
}"
# A ^X on an empty line marks nothing: only a line typed ends a line.
zpty -w z "done-widget() { [[ -n \$BUFFER ]] || return 0; print -r -- --end-- >> $out; BUFFER=''; CURSOR=0 }"
zpty -w z 'zle -N done-widget; bindkey "^X" done-widget'
n=0
for line in "$@"; do
  n=$((n + 1))
  zpty -w -n z "$line"$'\t'$'\x18'
  # Wait for the widget to say it is done, at most five seconds, with
  # neither a grep nor a sleep to start each time round.
  for i in {1..500}; do
    got=(${(f)"$(<$out)"})
    ends=(${(M)got:#--end--})
    (( $#ends >= n )) && break
    zselect -t 1
  done
done
zpty -d z
# Each line's matches, sorted, then its --end--.
awk '/^--end--$/ { close("sort -u"); print; fflush(); next }
  { print | "sort -u" }' $out
rm -f $out
