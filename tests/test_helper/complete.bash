#!/usr/bin/env bash
# complete.bash LINE...: for each LINE, prints, one per line, the
# completions that bash with bash-completion offers with the cursor at its
# end, then a line --end--.  One bash for them all: loading bash-completion
# is most of what a completion costs.
# shellcheck source=/dev/null
source /usr/share/bash-completion/bash_completion
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PATH=$root:$PATH
# shellcheck source=/dev/null
source "$root/completions/retry.bash"

for line in "$@"; do
	read -ra COMP_WORDS <<<"$line"
	[[ $line == *' ' ]] && COMP_WORDS+=('')
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE=$line
	COMP_POINT=${#line}
	COMPREPLY=()
	spec=$(complete -p "${COMP_WORDS[0]}" 2>/dev/null) || exit 1
	func=$(sed -n 's/.*-F \([^ ]*\).*/\1/p' <<<"$spec")
	"$func" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" \
	    "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
	[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort -u
	echo --end--
done
