#!/usr/bin/env bats
# The completions, each driven in its real shell.
bats_require_minimum_version 1.5.0
load test_helper/common
load test_helper/offers

@test "an option name completes: --jit offers --jitter" {
	check_each_shell 'retry --jit' --jitter --jitter-factor
}

@test "--jitter offers its modes" {
	check_each_shell 'retry --jitter ' none full equal half scattered down
}

@test "the command after -- completes: ech offers echo" {
	check_each_shell 'retry -n 3 -- ech' echo
}

@test "the command after the options completes without --" {
	check_each_shell 'retry -n 3 --fixed 1s ech' echo
	check_each_shell 'retry --share-timeout 1s --share-store-file f ech' echo
}

@test "the wrapped command's own options complete" {
	check_each_shell 'retry -n 3 -- ls --al' --all --almost-all
}

@test "-a offers the algorithms" {
	check_each_shell 'retry -a MI' MILD MIMD
}

@test "the subcommand completes, and its own options" {
	check_each_shell 'retry sho' show-backoff-delays
	check_each_shell 'retry show-backoff-delays --for' --format
	check_each_shell 'show-backoff-delays --ch' --chart
}

@test "--successes completes for retry and show-backoff-delays, not simulate" {
	check_each_shell 'retry --succ' --successes
	check_each_shell 'show-backoff-delays --succ' --successes
	local shell
	for shell in bash zsh fish; do
		complete_lines "$shell" 'retry simulate --succ' \
		    'retry --successes ech' 'retry --successes 3 ech'
		offers 1
		refute_offered --successes
		# Its value is no command; the word after it is.
		offers 2
		refute_offered echo
		offers 3
		assert_line echo
	done
}

@test "--format offers its values" {
	check_each_shell 'show-backoff-delays --format ' plain table csv json
}

@test "--signal offers signal names" {
	check_each_shell 'retry --signal KI' KILL
}

@test "bash: --signal and --stop-on offer only the signal names retry takes" {
	local name
	complete_lines bash 'retry --signal ' 'retry --stop-on SIG'
	offers 1
	assert_line TERM
	for name in "${lines[@]}"; do
		retry --signal "$name" --dry-run >/dev/null ||
			fail "offered --signal $name, which retry refuses"
	done
	for name in EXIT DEBUG ERR RETURN; do
		refute_offered "$name"
	done
	offers 2
	assert_line SIGTERM
	for name in "${lines[@]}"; do
		retry --stop-on "$name" --dry-run >/dev/null ||
			fail "offered --stop-on $name, which retry refuses"
	done
}

@test "an option's value is not taken for the command" {
	for shell in bash zsh fish; do
		complete_lines "$shell" 'retry --max 3 --label ech'
		offers 1
		refute_offered echo
	done
}

@test "options of retry alone are not offered after the subcommand" {
	for shell in bash zsh fish; do
		complete_lines "$shell" 'retry show-backoff-delays --time'
		offers 1
		refute_offered --timeout
	done
}

@test "after the command, retry's options are not offered" {
	for shell in bash zsh fish; do
		complete_lines "$shell" 'retry -n 3 -- ls --jit'
		offers 1
		refute_offered --jitter
	done
}

@test "completions: simulate, its options, not retry's" {
	local shell
	for shell in bash zsh fish; do
		complete_lines "$shell" 'retry sim' 'retry simulate --cl' \
		    'retry simulate --format ' 'retry simulate --ti' 'retry --cli'
		offers 1
		assert_line simulate
		offers 2
		assert_line --clients
		offers 3
		assert_line csv
		assert_line json
		offers 4
		refute_offered --timeout
		offers 5
		refute_offered --clients
	done
}

@test "completions: share, status and reset, then the names in the store" {
	local shell store=$BATS_TEST_TMPDIR/store url=$BATS_TEST_TMPDIR/url
	echo "file:$store" >"$url"
	retry --share-store "file:$store" --share alpha true
	retry --share-store "file:$store" --share beta true
	for shell in bash zsh fish; do
		complete_lines "$shell" 'retry share ' 'retry share status --' \
		    "retry share reset --share-store file:$store a" \
		    "retry --share-store file:$store --share " \
		    'retry share --share-timeout 1s '
		offers 1
		assert_line status
		assert_line reset
		refute_offered echo
		offers 2
		assert_line --share-store
		assert_line --log-format
		refute_offered --max
		offers 3
		assert_line alpha
		refute_offered beta
		offers 4
		assert_line alpha
		assert_line beta
		offers 5
		assert_line status
		# A Redis store, or one in a file, has no names to offer.
		RETRY_SHARE_STORE=file:$store complete_lines "$shell" \
		    'retry share status --share-store redis://192.0.2.1 ' \
		    "retry share status --share-store-file $url "
		offers 1
		refute_offered alpha
		offers 2
		refute_offered alpha
	done
}

@test "completions: the store's options, and file:, redis:// and unix://" {
	local shell dir=$BATS_TEST_TMPDIR/run
	mkdir "$dir"
	touch "$dir/redis.sock"
	for shell in bash zsh fish; do
		complete_lines "$shell" 'retry --share-' \
		    'retry share status --share-' 'retry --share-store ' \
		    "retry --share-store unix://$dir/re"
		offers 1
		assert_line --share-required
		assert_line --share-store-file
		assert_line --share-timeout
		offers 2
		assert_line --share-store-file
		assert_line --share-timeout
		refute_offered --share-required
		offers 3
		assert_line file:
		assert_line redis://
		assert_line unix://
		# Each shell shows the path after unix:// its own way.
		offers 4
		assert_line --partial redis.sock
	done
}

@test "fish: each value of --jitter and --stdin has its own description" {
	run -0 timeout 30 fish -c "source '$ROOT/completions/retry.fish'
	    complete -C 'retry --jitter '; echo --end--; complete -C 'retry --stdin '"
	local jitter stdin
	jitter=$(sed '/^--end--$/,$d' <<<"$output")
	stdin=$(sed '1,/^--end--$/d' <<<"$output")
	assert_equal "$(wc -l <<<"$jitter")" 9
	assert_equal "$(wc -l <<<"$stdin")" 3
	# Not the option's description, and no two values alike.
	refute_output --partial 'Randomise each delay'
	refute_output --partial 'What each attempt reads'
	assert_equal "$(cut -f2 <<<"$output" | sort -u | wc -l)" 13
	assert_line $'full\tUniform in [0, d]'
	assert_line $'null\tNothing: /dev/null'
}

@test "fish: every description begins with a capital letter" {
	run -0 timeout 30 fish -c "source '$ROOT/completions/retry.fish'
	    for line in 'retry --' 'retry --jitter ' 'retry --stdin ' \
	        'retry -a ' 'retry simulate --' 'retry share --'
	        complete -C \$line
	    end"
	local bad
	bad=$(cut -s -f2 <<<"$output" | grep -v '^[A-Z0-9*]' || true)
	assert_equal "$bad" ""
	assert_line $'null\tNothing: /dev/null'
}
