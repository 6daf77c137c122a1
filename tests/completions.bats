#!/usr/bin/env bats
# The completions, each driven in its real shell.
bats_require_minimum_version 1.5.0
load test_helper/common

complete_in() {
	local shell=$1 line=$2
	case $shell in
	bash) timeout 20 bash "$ROOT/tests/test_helper/complete.bash" "$line" ;;
	zsh) RETRY_ZCOMPDUMP=$BATS_RUN_TMPDIR/zcompdump \
		timeout 20 zsh "$ROOT/tests/test_helper/complete.zsh" "$line" ;;
	fish) timeout 20 fish -c "source '$ROOT/completions/retry.fish'
		complete -C '$line'" | cut -f1 | sort -u ;;
	esac
}

check_each_shell() {
	local line=$1 shell
	shift
	for shell in bash zsh fish; do
		run -0 complete_in "$shell" "$line"
		for want in "$@"; do
			assert_line "$want" || {
				echo "$shell did not offer '$want' for '$line'"
				return 1
			}
		done
	done
}

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

@test "--format offers its values" {
	check_each_shell 'show-backoff-delays --format ' plain table csv json
}

@test "--signal offers signal names" {
	check_each_shell 'retry --signal KI' KILL
}

# Fails when the last run's output has the line.
refute_offered() {
	[[ $'\n'$output$'\n' != *$'\n'"$1"$'\n'* ]] || {
		echo "'$1' was offered"
		return 1
	}
}

@test "an option's value is not taken for the command" {
	for shell in bash zsh fish; do
		run -0 complete_in "$shell" 'retry --max 3 --label ech'
		refute_offered echo
	done
}

@test "options of retry alone are not offered after the subcommand" {
	for shell in bash zsh fish; do
		run -0 complete_in "$shell" 'retry show-backoff-delays --time'
		refute_offered --timeout
	done
}

@test "after the command, retry's options are not offered" {
	for shell in bash zsh fish; do
		run -0 complete_in "$shell" 'retry -n 3 -- ls --jit'
		refute_offered --jitter
	done
}

@test "completions: simulate, its options, not retry's" {
	local shell
	for shell in bash zsh fish; do
		run -0 complete_in "$shell" 'retry sim'
		assert_line simulate
		run -0 complete_in "$shell" 'retry simulate --cl'
		assert_line --clients
		run -0 complete_in "$shell" 'retry simulate --format '
		assert_line csv
		assert_line json
		run -0 complete_in "$shell" 'retry simulate --ti'
		refute_offered --timeout
		run -0 complete_in "$shell" 'retry --cli'
		refute_offered --clients
	done
}

@test "completions: share, status and reset, then the names in the store" {
	local shell store=$BATS_TEST_TMPDIR/store url=$BATS_TEST_TMPDIR/url
	echo "file:$store" >"$url"
	retry --share-store "file:$store" --share alpha true
	retry --share-store "file:$store" --share beta true
	for shell in bash zsh fish; do
		run -0 complete_in "$shell" 'retry share '
		assert_line status
		assert_line reset
		refute_offered echo
		run -0 complete_in "$shell" 'retry share status --'
		assert_line --share-store
		assert_line --log-format
		refute_offered --max
		run -0 complete_in "$shell" "retry share reset --share-store file:$store a"
		assert_line alpha
		refute_offered beta
		run -0 complete_in "$shell" "retry --share-store file:$store --share "
		assert_line alpha
		assert_line beta
		run -0 complete_in "$shell" 'retry share --share-timeout 1s '
		assert_line status
		# A Redis store, or one in a file, has no names to offer.
		RETRY_SHARE_STORE=file:$store run -0 complete_in "$shell" \
		    'retry share status --share-store redis://192.0.2.1 '
		refute_offered alpha
		RETRY_SHARE_STORE=file:$store run -0 complete_in "$shell" \
		    "retry share status --share-store-file $url "
		refute_offered alpha
	done
}

@test "completions: the store's options, and file:, redis:// and unix://" {
	local shell dir=$BATS_TEST_TMPDIR/run
	mkdir "$dir"
	touch "$dir/redis.sock"
	for shell in bash zsh fish; do
		run -0 complete_in "$shell" 'retry --share-'
		assert_line --share-required
		assert_line --share-store-file
		assert_line --share-timeout
		run -0 complete_in "$shell" 'retry share status --share-'
		assert_line --share-store-file
		assert_line --share-timeout
		refute_offered --share-required
		run -0 complete_in "$shell" 'retry --share-store '
		assert_line file:
		assert_line redis://
		assert_line unix://
		# Each shell shows the path after unix:// its own way.
		run -0 complete_in "$shell" "retry --share-store unix://$dir/re"
		assert_line --partial redis.sock
	done
}
