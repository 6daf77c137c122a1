# bash completion for retry(1) and show-backoff-delays(1)
# shellcheck shell=bash

_retry_options='--max --max-attempts --times --tries --budget --timeout
--signal --kill-after --max-actual-duration --exp --factor --fixed --constant
--linear --fib --delays --delay --decorrelated --immediate --max-delay
--min-delay --algorithm --delay-on-success --initial-delay --exponent-base
--initial-delay1 --initial-delay2 --delay-increment-on-failure
--delay-increment-on-success --delay-multiple-on-failure
--delay-multiple-on-success --jitter-factor --consider-actual-delay --jitter
--seed --success-on --retry-on --stop-on --until --while --until-output
--fail-if-output --retry-if-output --stop-if-output --match --fixed-strings
--ignore-case --stdin --hold-stdout --delay-from-output --forever
--reset-after --log-format --log-file --syslog --on-retry --on-giveup
--quiet --verbose --label --message --dry-run --count --help --version'

_retry_show_options='--max --max-attempts --budget --max-actual-duration
--exp --factor --fixed --constant --linear --fib --delays --delay
--decorrelated --immediate --max-delay --min-delay --algorithm
--delay-on-success --initial-delay --exponent-base --initial-delay1
--initial-delay2 --delay-increment-on-failure --delay-increment-on-success
--delay-multiple-on-failure --delay-multiple-on-success --jitter-factor
--consider-actual-delay --jitter --seed --count --format --unit --chart
--ascii --samples --help --version'

_retry_simulate_options='--max --max-attempts --max-actual-duration --exp
--factor --fixed --constant --linear --fib --delays --delay --decorrelated
--immediate --max-delay --min-delay --algorithm --delay-on-success
--initial-delay --exponent-base --initial-delay1 --initial-delay2
--delay-increment-on-failure --delay-increment-on-success
--delay-multiple-on-failure --delay-multiple-on-success --jitter-factor
--consider-actual-delay --jitter --seed --clients --runs --format --chart
--ascii --help --version'

# Options that take a value in the next word.
_retry_takes_value() {
	case $1 in
	-[nbtTkxdMajuwm] | --max | --max-attempts | --times | --tries | \
	--budget | --timeout | --signal | --kill-after | \
	--max-actual-duration | --exp | --factor | --fixed | --constant | \
	--linear | --fib | --delays | --delay | --decorrelated | \
	--max-delay | --min-delay | --algorithm | --delay-on-success | \
	--initial-delay | --exponent-base | --initial-delay1 | \
	--initial-delay2 | --delay-increment-on-failure | \
	--delay-increment-on-success | --delay-multiple-on-failure | \
	--delay-multiple-on-success | --jitter-factor | --jitter | --seed | \
	--success-on | --retry-on | --stop-on | --until | --while | \
	--label | --message | --count | \
	--until-output | --fail-if-output | --retry-if-output | \
	--stop-if-output | --match | --stdin | --delay-from-output | \
	--reset-after | --log-format | --log-file | --on-retry | --on-giveup | \
	--format | --unit | --samples | --clients | --runs)
		return 0 ;;
	esac
	return 1
}

# COMPREPLY from compgen's words, one per line.
_retry_reply() {
	mapfile -t COMPREPLY < <(compgen "$@")
}

_retry() {
	local cur prev words cword show=
	local simulate=''
	_init_completion -n = || return

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
		_command_offset "$i"
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
		return ;;
	--signal)
		_retry_reply -W "$(compgen -A signal | sed 's/^SIG//')" \
		    -- "${cur#SIG}"
		return ;;
	--success-on | --retry-on | --stop-on)
		_retry_reply -W "0 1 2 124 $(compgen -A signal)" \
		    -- "$cur"
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
	--log-format)
		_retry_reply -W 'text json' -- "$cur"
		return ;;
	--log-file)
		_filedir
		return ;;
	--format)
		_retry_reply -W 'plain table csv json' -- "$cur"
		return ;;
	--unit)
		_retry_reply -W 's ms' -- "$cur"
		return ;;
	esac
	if _retry_takes_value "$prev"; then
		return
	fi

	if [[ $cur == -* ]]; then
		if [[ -n $simulate ]]; then
			_retry_reply -W "$_retry_simulate_options" -- "$cur"
		elif [[ -n $show ]]; then
			_retry_reply -W "$_retry_show_options" -- "$cur"
		else
			_retry_reply -W "$_retry_options" -- "$cur"
		fi
		return
	fi
	if [[ -n $simulate ]]; then
		return
	elif [[ -n $show ]]; then
		_retry_reply -W '0 1' -- "$cur"
		return
	fi
	# The first word that is not an option: a subcommand or a command.
	if [[ $i -eq 1 ]]; then
		_retry_reply -W 'show-backoff-delays simulate' -- "$cur"
	fi
	local commands
	mapfile -t commands < <(compgen -c -- "$cur")
	COMPREPLY+=("${commands[@]}")
}
complete -F _retry retry show-backoff-delays
