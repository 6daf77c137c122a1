#!/usr/bin/env zsh
# complete.zsh LINE: prints, one per line, the matches that zsh's completion
# offers for LINE with the cursor at its end, using completions/_retry
# (and the compinit dump $RETRY_ZCOMPDUMP, when set).
# An interactive zsh runs in a pseudo-terminal; its compadd is wrapped to
# write every match to a file before adding it.
zmodload zsh/zpty || exit 1
root=${0:A:h:h:h}
out=$(mktemp) || exit 1

zpty z zsh -f -i
zpty -w z "PS1=''; fpath=($root/completions \$fpath); PATH=$root:\$PATH"
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
zpty -w z "done-widget() { print -r -- --done-- >> $out; exit }"
zpty -w z 'zle -N done-widget; bindkey "^X" done-widget'
zpty -w -n z "$1"$'\t'$'\x18'
# Wait for the widget to say it is done, at most five seconds.
for i in {1..100}; do
  grep -q -- '^--done--$' $out 2>/dev/null && break
  sleep 0.05
done
zpty -d z
grep -v -- '^--done--$' $out | sort -u
rm -f $out
