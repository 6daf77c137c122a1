# bash completion for retry(1) and show-backoff-delays(1)
# shellcheck shell=bash

_retry_options='--max --max-attempts --times --tries --budget --deadline --timeout
--signal --kill-after --max-actual-duration --exp --factor --fixed --constant
--preserve-status --foreground --hedge
--linear --fib --delays --delay --decorrelated --decorrelated-v2 --immediate
--max-delay --min-delay --algorithm --delay-on-success --initial-delay --exponent-base
--initial-delay1 --initial-delay2 --delay-increment-on-failure
--delay-increment-on-success --delay-multiple-on-failure
--delay-multiple-on-success --jitter-factor --consider-actual-delay --jitter
--seed --success-on --retry-on --stop-on --until --while --output --until-output
--exit-on-match --fail-if-output --retry-if-output --stop-if-output --match
--fixed-strings --ignore-case --stdin --hold --hold-stdout --only-last
--delay-from-output
--delay-from-output-replaces --forever --successes --reset-after --log-format --ci
--log-file --syslog --on --on-retry --on-giveup --on-success --result-file --quiet
--verbose --label --message --dry-run --share --share-budget
--share-window --share-breaker --share-open --share-store --share-store-file
--share-timeout --share-connect-timeout --share-required --count --help
--version'

_retry_show_options='--max --max-attempts --times --tries --budget
--max-actual-duration --exp --factor --fixed --constant --linear --fib --delays --delay
--decorrelated --decorrelated-v2 --immediate --max-delay --min-delay
--algorithm --delay-on-success --initial-delay --exponent-base --initial-delay1
--initial-delay2 --delay-increment-on-failure --delay-increment-on-success
--delay-multiple-on-failure --delay-multiple-on-success --jitter-factor
--consider-actual-delay --jitter --seed --count --format --unit --chart
--successes
--ascii --samples --help --version'

_retry_simulate_options='--max --max-attempts --times --tries --max-actual-duration --exp
--factor --fixed --constant --linear --fib --delays --delay --decorrelated
--decorrelated-v2 --immediate --max-delay --min-delay --algorithm --delay-on-success
--initial-delay --exponent-base --initial-delay1 --initial-delay2
--delay-increment-on-failure --delay-increment-on-success
--delay-multiple-on-failure --delay-multiple-on-success --jitter-factor
--consider-actual-delay --jitter --seed --clients --failure-rate --runs
--latency --latency-after --hedge
--share-budget --share-window --share-breaker --format --chart --ascii
--help --version'

_retry_share_options='--share-store --share-store-file --share-timeout
--share-connect-timeout --share-budget --share-window --log-format --help --version'

# Options that take a value in the next word.
_retry_takes_value() {
	case $1 in
	-[nbtTkxdMajuwm] | --max | --max-attempts | --times | --tries | \
	--budget | --deadline | --timeout | --signal | --kill-after | --hedge | \
	--max-actual-duration | --exp | --factor | --fixed | --constant | \
	--linear | --fib | --delays | --delay | --decorrelated | \
	--decorrelated-v2 | \
	--max-delay | --min-delay | --algorithm | --delay-on-success | \
	--initial-delay | --exponent-base | --initial-delay1 | \
	--initial-delay2 | --delay-increment-on-failure | \
	--delay-increment-on-success | --delay-multiple-on-failure | \
	--delay-multiple-on-success | --jitter-factor | --jitter | --seed | \
	--success-on | --retry-on | --stop-on | --until | --while | \
	--label | --message | --count | \
	--successes | \
	--output | --until-output | --fail-if-output | --retry-if-output | \
	--stop-if-output | --match | --stdin | --hold | --delay-from-output | \
	--reset-after | --log-format | --ci | --log-file | --on | --on-retry | --on-giveup | \
	--on-success | --result-file | \
	--share | --share-budget | --share-window | --share-breaker | \
	--share-open | --share-store | --share-store-file | --share-timeout | \
	--share-connect-timeout | \
	--format | \
	--unit | --samples | --clients | --failure-rate | --runs | \
	--latency | --latency-after)
		return 0 ;;
	esac
	return 1
}

# The signal names retry takes: bash's, without its traps (EXIT, DEBUG,
# ERR, RETURN), the real-time ones and SIGJUNK(N); SIGIO by glibc's name,
# POLL. With SIG when $1 is SIG.
_retry_signals() {
	compgen -A signal | sed -n 's/^SIGIO$/SIGPOLL/; s/^SIG\([A-Z0-9]*\)$/\1/p' |
	    grep -v '^RTM' | sed "s/^/${1-}/"
}

# COMPREPLY from compgen's words, one per line.
_retry_reply() {
	mapfile -t COMPREPLY < <(compgen "$@")
}

# The index in COMP_WORDS of words[$1]: words joins again what bash split
# at = and :, as in --max=3 or --share-store file:DIR.
_retry_comp_index() {
	local k j=0 w
	for ((k = 0; k < $1; k++)); do
		w=${COMP_WORDS[j]-}
		while [[ $w != "${words[k]}" && $j -lt ${#COMP_WORDS[@]} ]]; do
			((j++))
			w+=${COMP_WORDS[j]-}
		done
		((j++))
	done
	echo "$j"
}

# The directory of the store that the line names: the last --share-store
# before the cursor, else $RETRY_SHARE_STORE, else the default. None for a
# Redis store (redis://, unix://), nor for --share-store-file: its file is
# not read.
_retry_store_dir() {
	local store=${RETRY_SHARE_STORE-} j
	for ((j = 1; j < cword; j++)); do
		case ${words[j]} in
		--share-store)
			store=${words[j + 1]-} ;;
		--share-store=*)
			store=${words[j]#*=} ;;
		--share-store-file | --share-store-file=*)
			return ;;
		esac
	done
	if [[ -n $store ]]; then
		[[ $store == file:?* ]] && echo "${store#file:}"
	elif [[ ${XDG_RUNTIME_DIR-} == /* ]]; then
		echo "$XDG_RUNTIME_DIR/retry"
	else
		echo "/tmp/retry-$UID"
	fi
}

# COMPREPLY: unix:// and the paths that start with $1, directories with a /.
# The path is absolute: none yet is /.
_retry_socket_paths() {
	local f path=${1:-/}
	COMPREPLY=()
	[[ $path == /* ]] || return
	while IFS= read -r f; do
		[[ -d $f ]] && f+=/
		COMPREPLY+=("unix://$f")
	done < <(compgen -f -- "$path")
}

# COMPREPLY: the names of the shared states in the store, its files.
_retry_share_names() {
	local dir f
	COMPREPLY=()
	dir=$(_retry_store_dir)
	[[ -n $dir ]] || return
	while IFS= read -r f; do
		f=${f##*/}
		[[ $f =~ ^[A-Za-z0-9._-]+$ && -f $dir/$f && ! -L $dir/$f ]] &&
		    COMPREPLY+=("$f")
	done < <(compgen -f -- "$dir/$cur")
}

_retry() {
	local cur prev words cword show=
	local simulate='' share=''
	_init_completion -n =: || return

	local i=1
	if [[ ${1##*/} == show-backoff-delays ]]; then
		show=1
	elif [[ ${words[1]-} == show-backoff-delays && $cword -gt 1 ]]; then
		show=1
		i=2
	elif [[ ${words[1]-} == simulate && $cword -gt 1 ]]; then
		# Like show: no command follows, only options.
		show=1
		simulate=1
		i=2
	elif [[ ${words[1]-} == share && $cword -gt 1 ]]; then
		# status or reset, then names and options.
		show=1
		share=1
		i=2
	fi
	# Find where the wrapped command starts.
	while [[ $i -lt $cword ]]; do
		case ${words[i]} in
		--)
			((i++))
			break ;;
		--*=*) ;;
		-*)
			_retry_takes_value "${words[i]}" && ((i++)) ;;
		*)
			[[ -z $show ]] && break ;;
		esac
		((i++))
	done
	if [[ -z $show && $i -lt $cword ]] ||
	    [[ -z $show && $i -eq $cword && $cur != -* && $i -gt 0 &&
	    ${words[i - 1]} == -- ]]; then
		_command_offset "$(_retry_comp_index "$i")"
		return
	fi

	case $prev in
	-a | --algorithm)
		_retry_reply -W 'Constant Exponential Fibonacci LILD
		    LIMD MILD MIMD' -- "$cur"
		return ;;
	-j | --jitter)
		_retry_reply -W 'none full equal half scattered
		    scattered: down down: add:' -- "$cur"
		[[ ${COMPREPLY-} == *: ]] && compopt -o nospace
		__ltrim_colon_completions "$cur"
		return ;;
	--signal)
		_retry_reply -W "$(_retry_signals)" -- "${cur#SIG}"
		return ;;
	--success-on | --retry-on | --stop-on)
		_retry_reply -W "0 1 2 124 $(_retry_signals SIG)" -- "$cur"
		return ;;
	-u | --until | -w | --while)
		# A comma list: complete its last item.
		_retry_reply -P "${cur%"${cur##*,}"}" \
		    -W 'success true fail false' -- "${cur##*,}"
		return ;;
	--match)
		_retry_reply -W 'stdout stderr both' -- "$cur"
		return ;;
	--stdin)
		_retry_reply -W 'inherit replay null' -- "$cur"
		return ;;
	--on)
		# The event, then the command: nothing to offer after the colon.
		[[ $cur == *:* ]] ||
			_retry_reply -S : -W 'retry giveup success' -- "$cur"
		return ;;
	--output)
		# The rule, then the pattern: nothing to offer after the colon.
		[[ $cur == *:* ]] ||
			_retry_reply -S : -W 'until fail retry stop delay' -- "$cur"
		return ;;
	--hold)
		_retry_reply -W 'stdout last' -- "$cur"
		return ;;
	--log-format)
		_retry_reply -W 'text json' -- "$cur"
		return ;;
	--ci)
		_retry_reply -W 'auto github gitlab none' -- "$cur"
		return ;;
	--log-file | --result-file | --share-store-file)
		_filedir
		return ;;
	--format)
		_retry_reply -W 'plain table csv json' -- "$cur"
		return ;;
	--unit)
		_retry_reply -W 's ms' -- "$cur"
		return ;;
	--share)
		_retry_share_names
		return ;;
	-h | --help)
		_retry_reply -W 'all' -- "$cur"
		return ;;
	--share-open)
		_retry_reply -W 'wait giveup' -- "$cur"
		return ;;
	--share-store)
		# file:, redis://, rediss:// or unix://; the directories after
		# file:, the paths after unix:// (a socket), nothing after
		# redis:// and rediss://.
		if [[ $cur == file:* ]]; then
			_retry_reply -P file: -S / -d -- "${cur#file:}"
		elif [[ $cur == unix://* ]]; then
			_retry_socket_paths "${cur#unix://}"
		else
			_retry_reply -W 'file: redis:// rediss:// unix://' -- "$cur"
		fi
		compopt -o nospace
		__ltrim_colon_completions "$cur"
		return ;;
	esac
	if _retry_takes_value "$prev"; then
		return
	fi

	if [[ $cur == -* ]]; then
		if [[ -n $share ]]; then
			_retry_reply -W "$_retry_share_options" -- "$cur"
		elif [[ -n $simulate ]]; then
			_retry_reply -W "$_retry_simulate_options" -- "$cur"
		elif [[ -n $show ]]; then
			_retry_reply -W "$_retry_show_options" -- "$cur"
		else
			_retry_reply -W "$_retry_options" -- "$cur"
		fi
		return
	fi
	if [[ -n $share ]]; then
		# The first word that is not an option: status or reset; then
		# names.
		for ((i = 2; i < cword; i++)); do
			case ${words[i]} in
			--*=*) ;;
			-*)
				_retry_takes_value "${words[i]}" && ((i++)) ;;
			*)
				_retry_share_names
				return ;;
			esac
		done
		_retry_reply -W 'status reset' -- "$cur"
		return
	elif [[ -n $simulate ]]; then
		return
	elif [[ -n $show ]]; then
		_retry_reply -W '0 1' -- "$cur"
		return
	fi
	# The first word that is not an option: a subcommand or a command.
	if [[ $i -eq 1 ]]; then
		_retry_reply -W 'show-backoff-delays simulate share' -- "$cur"
	fi
	local commands
	mapfile -t commands < <(compgen -c -- "$cur")
	COMPREPLY+=("${commands[@]}")
}
complete -F _retry retry show-backoff-delays
