# fish completion for retry(1) and show-backoff-delays(1)

# Options that take a value in the next word, for finding the command.
# -n first: __fish_complete_subcommand reads a leading --word as its own.
set -l __retry_valued -n --max --max-attempts -t --times --tries \
    -b --budget --deadline -T --timeout --signal -k --kill-after --hedge \
    --max-actual-duration -x --exp --factor --fixed --constant --linear \
    --fib --delays -d --delay --decorrelated --decorrelated-v2 \
    -M --max-delay --min-delay \
    -a --algorithm --delay-on-success --initial-delay --exponent-base \
    --initial-delay1 --initial-delay2 \
    --delay-increment-on-failure --delay-increment-on-success \
    --delay-multiple-on-failure --delay-multiple-on-success \
    --jitter-factor -j --jitter --seed --success-on --retry-on --stop-on \
    -u --until -w --while --output --until-output --fail-if-output \
    --retry-if-output --stop-if-output \
    --match --stdin --hold --delay-from-output --reset-after --log-format --ci \
    --log-file --on --on-retry --on-giveup --on-success --result-file \
    --successes \
    -m --label --message --share --share-budget --share-window --share-breaker \
    --share-open --share-store --share-store-file --share-timeout \
    --share-connect-timeout --count \
    --format --unit --samples

# True while the words before the cursor are still retry's options.
function __fish_retry_options_only
    set -l valued $argv
    set -l words (commandline -opc)
    set -e words[1]
    while set -q words[1]
        switch $words[1]
            case --
                return 1
            case '--*=*'
            case '-*'
                if contains -- $words[1] $valued
                    set -e words[1]
                end
            case '*'
                return 1
        end
        set -e words[1]
    end
    return 0
end

function __fish_retry_show
    set -l words (commandline -opc)
    test "$words[1]" = show-backoff-delays; or test "$words[2]" = show-backoff-delays
end

# retry simulate: only options follow it.
function __fish_retry_simulate
    set -l words (commandline -opc)
    test "$words[2]" = simulate; and not string match -q -- '*show-backoff-delays' $words[1]
end

# retry share: status or reset, then names.
function __fish_retry_share
    set -l words (commandline -opc)
    test "$words[2]" = share; and not string match -q -- '*show-backoff-delays' $words[1]
end

# True once retry share has its status or reset.
function __fish_retry_share_action
    set -l words (commandline -opc)
    set -e words[1..2]
    while set -q words[1]
        switch $words[1]
            case '--*=*'
            case --share-store --share-store-file --share-timeout --share-connect-timeout --share-budget --share-window --log-format
                set -e words[1]
            case '-*'
            case '*'
                return 0
        end
        set -e words[1]
    end
    return 1
end

# --share-store's value: file:, redis://, rediss:// or unix://; then the
# directories after file:, the paths after unix:// (a socket), nothing
# after redis:// and rediss://.
function __fish_retry_store
    set -l token (commandline -ct | string replace -r -- '^--share-store=' '')
    if string match -q -- 'file:*' $token
        __fish_complete_directories (string sub -s 6 -- $token) | string replace -r -- '^' file:
    else if string match -q -- 'unix://*' $token
        # An absolute path: none yet is /.
        set -l path (string sub -s 8 -- $token)
        test -n "$path"; or set path /
        string match -q -- '/*' $path; or return
        __fish_complete_path $path | string replace -r -- '^' unix://
    else if not string match -q -r -- '^rediss?://' $token
        printf '%s\n' file: redis:// rediss:// unix://
    end
end

# The names of the shared states: the files in the directory of the last
# --share-store on the line, else of $RETRY_SHARE_STORE, else the default.
# None for a Redis store (redis://, unix://), nor for --share-store-file:
# its file is not read.
function __fish_retry_share_names
    set -l store "$RETRY_SHARE_STORE"
    set -l words (commandline -opc)
    for i in (seq (count $words))
        switch $words[$i]
            case --share-store
                set -l next (math $i + 1)
                set store "$words[$next]"
            case '--share-store=*'
                set store (string replace -- --share-store= '' $words[$i])
            case --share-store-file '--share-store-file=*'
                return
        end
    end
    set -l dir
    if test -n "$store"
        string match -q -- 'file:?*' $store; or return
        set dir (string sub -s 6 -- $store)
    else if string match -q -- '/*' "$XDG_RUNTIME_DIR"
        set dir $XDG_RUNTIME_DIR/retry
    else
        set dir /tmp/retry-(id -u)
    end
    for f in $dir/* $dir/.*
        test -f $f; and not test -L $f; or continue
        string replace -r -- '.*/' '' $f | string match -r -- '^[A-Za-z0-9._-]+$'
    end
end

# The words of --until and --while, after those of the list before them.
function __fish_retry_criteria
    set -l prefix (commandline -ct | string replace -r -- '[^,]*$' '')
    set -q prefix[1]; or set prefix ''
    printf '%s\n' $prefix{success,true,fail,false}
end

# Each value with what it does, as the manual says.
function __fish_retry_jitter_modes
    printf '%s\t%s\n' \
        none 'No jitter: the delay as the strategy gives it' \
        full 'Uniform in [0, d]' \
        equal 'Half of d, plus uniform in [0, d/2]' \
        half 'Half of d, plus uniform in [0, d/2] (as equal)' \
        scattered 'Uniform in [d(1-R), d(1+R)], R 0.5' \
        scattered: 'Uniform in [d(1-R), d(1+R)]: give R' \
        down 'Uniform in [d(1-R), d], R 0.2' \
        down: 'Uniform in [d(1-R), d]: give R' \
        add: 'The delay d, plus uniform in [0, DUR]: give DUR'
end

function __fish_retry_stdin_modes
    printf '%s\t%s\n' \
        inherit 'The input retry was given, as it is' \
        replay 'All of stdin, to every attempt from its first byte' \
        null 'Nothing: /dev/null'
end

set -l opts "not __fish_retry_show; and __fish_retry_options_only $__retry_valued"
set -l show "__fish_retry_show"
set -l both "__fish_retry_show; or __fish_retry_options_only $__retry_valued"
# The engine's options, which simulate takes too, and the output options.
set -l engine "__fish_retry_show; or __fish_retry_simulate; or __fish_retry_options_only $__retry_valued"
set -l output "__fish_retry_show; or __fish_retry_simulate"
set -l simulate "__fish_retry_simulate"

for c in retry show-backoff-delays
    complete -c $c -n $engine -s n -l max -x -d 'At most N attempts (0: no limit)'
    complete -c $c -n $engine -l max-attempts -x -d 'At most N attempts (0: no limit)'
    complete -c $c -n $engine -s t -l times -x -d 'At most N attempts (-1: no limit)'
    complete -c $c -n $engine -l tries -x -d 'At most N attempts (-1: no limit)'
    complete -c $c -n $both -s b -l budget -x -d 'Time window of the whole run'
    complete -c $c -n $engine -l max-actual-duration -x -d 'Give up on a failure this long after the start'
    complete -c $c -n $engine -s x -l exp -x -d 'Exponential delays: DUR x F^(n-1)'
    complete -c $c -n $engine -l factor -x -d 'Growth factor of --exp'
    complete -c $c -n $engine -l fixed -x -d 'The same delay every time'
    complete -c $c -n $engine -l constant -x -d 'The same delay every time'
    complete -c $c -n $engine -l linear -x -d 'Delays DUR x n'
    complete -c $c -n $engine -l fib -x -d 'Delays DUR x fib(n)'
    complete -c $c -n $engine -l delays -x -d 'A comma-separated list of delays'
    complete -c $c -n $engine -s d -l delay -x -d 'A list of delays, the last repeated; with -a Constant, its delay'
    complete -c $c -n $engine -l decorrelated -x -d "AWS decorrelated jitter from DUR; DUR:v2, Polly's smoother one"
    complete -c $c -n $engine -l decorrelated-v2 -x -d "Polly's smoother decorrelated jitter, the first delay's median DUR"
    complete -c $c -n $engine -l immediate -d 'No delay at all'
    complete -c $c -n $engine -s M -l max-delay -x -d 'Never wait longer than this'
    complete -c $c -n $engine -l min-delay -x -d 'Never wait less than this'
    complete -c $c -n $engine -s a -l algorithm -x -a 'Constant Exponential Fibonacci LILD LIMD MILD MIMD' -d 'An Algorithm::Backoff strategy'
    complete -c $c -n $engine -l delay-on-success -x -d 'Delay after a success'
    complete -c $c -n $engine -l initial-delay -x -d 'First delay'
    complete -c $c -n $engine -l exponent-base -x -d 'Exponential: base'
    complete -c $c -n $engine -l initial-delay1 -x -d 'Fibonacci: first delay'
    complete -c $c -n $engine -l initial-delay2 -x -d 'Fibonacci: second delay'
    complete -c $c -n $engine -l delay-increment-on-failure -x -d 'LI*: add on a failure'
    complete -c $c -n $engine -l delay-increment-on-success -x -d '*LD: add on a success'
    complete -c $c -n $engine -l delay-multiple-on-failure -x -d 'MI*: multiply on a failure'
    complete -c $c -n $engine -l delay-multiple-on-success -x -d '*MD: multiply on a success'
    complete -c $c -n $engine -l jitter-factor -x -d 'Random in d(1-F) to d(1+F)'
    complete -c $c -n $engine -l consider-actual-delay -d 'Count time already spent against the delay'
    complete -c $c -n $engine -s j -l jitter -x -a '(__fish_retry_jitter_modes)' -d 'Randomise each delay'
    complete -c $c -n $engine -l seed -x -d 'Make random choices reproducible'
    complete -c $c -n $both -l count -x -d 'At most N steps of an all-failing run'
    complete -c $c -n $both -l successes -x -d 'Done only after N successes in a row'
    complete -c $c -n $engine -s h -l help -x -a all -d 'Show the help and exit; all: every option'
    complete -c $c -n $engine -s v -s V -l version -d 'Show the version and exit'
    complete -c $c -n $output -l format -x -a 'plain table csv json' -d 'Output format'
    complete -c $c -n $show -l unit -x -a 's ms' -d 'Unit of the delays'
    complete -c $c -n $output -l chart -d 'Draw a bar for each delay'
    complete -c $c -n $output -l ascii -d 'Draw the chart in plain ASCII'
    complete -c $c -n $show -l samples -x -d 'Runs of a random strategy to summarise'
    complete -c $c -n $simulate -l clients -x -d 'Numbers of clients: 10,50,100 or 10-190:20'
    complete -c $c -n $simulate -l failure-rate -x -d 'The load model: calls fail with each probability'
    complete -c $c -n $simulate -l runs -x -d 'Runs to average over'
    complete -c $c -n $simulate -l latency -x -d 'The hedging model: latencies and their chances, as 20ms,2s@5%'
    complete -c $c -n $simulate -l latency-after -x -d 'With --hedge auto: the latencies from the middle run on'
    complete -c $c -n $simulate -l hedge -x -a 'auto' -d 'The hedging model: another attempt after DUR, up to N; auto: learned'
    complete -c $c -n $simulate -l share-budget -x -d 'The load model: the shared budget, N[:R]'
    complete -c $c -n $simulate -l share-window -x -d 'The load model: N tokens come back every DUR'
    complete -c $c -n $simulate -l share-breaker -x -d 'The load model: the shared breaker, N:DUR'
    complete -c $c -n $show -x -a '0 1' -d 'Status: 0 failure, 1 success'
end

complete -c retry -n $opts -s T -l timeout -x -d 'End an attempt that runs longer than this'
complete -c retry -n $opts -l deadline -x -d 'End the whole run this long after its start'
complete -c retry -n $opts -l signal -x -a '(__fish_make_completion_signals; string replace -r "^\d+ " "" -- $__kill_signals)' -d 'Signal sent on a timeout'
complete -c retry -n $opts -s k -l kill-after -x -d 'Then KILL after this much more'
complete -c retry -n $opts -l hedge -x -d 'Start the next attempt beside one still running after DUR[:N]'
complete -c retry -n $opts -l preserve-status -d "A timed-out attempt's status is the command's own, not 124"
complete -c retry -n $opts -l foreground -d "Keep the command in retry's process group and the terminal's foreground"
complete -c retry -n $opts -l success-on -x -d 'Statuses that count as success'
complete -c retry -n $opts -l retry-on -x -d 'Retry only these failures'
complete -c retry -n $opts -l stop-on -x -d 'Stop at once on these statuses'
complete -c retry -n $opts -s u -l until -x -a '(__fish_retry_criteria)' -d 'Retry until the exit status meets the criteria'
complete -c retry -n $opts -s w -l while -x -a '(__fish_retry_criteria)' -d 'Retry while the exit status meets the criteria'
complete -c retry -n $opts -l output -x -a 'until: fail: retry: stop: delay:' -d 'An output rule: until, fail, retry, stop or delay, a colon, a regex'
complete -c retry -n $opts -l until-output -x -d 'A failure unless a line of output matches'
complete -c retry -n $opts -l exit-on-match -d 'End the attempt as a success at the match of --until-output'
complete -c retry -n $opts -l fail-if-output -x -d 'A failure if a line of output matches'
complete -c retry -n $opts -l retry-if-output -x -d 'Retry only failures whose output matches'
complete -c retry -n $opts -l stop-if-output -x -d 'Stop at once if a line of output matches'
complete -c retry -n $opts -l match -x -a 'stdout stderr both' -d 'Which output the rules read'
complete -c retry -n $opts -s F -l fixed-strings -d 'Take each pattern as a plain string'
complete -c retry -n $opts -s i -l ignore-case -d 'Match without regard to case'
complete -c retry -n $opts -l stdin -x -a '(__fish_retry_stdin_modes)' -d 'What each attempt reads'
complete -c retry -n $opts -l hold -x -a 'stdout last' -d "Hold output back: a success's stdout only, or the last attempt's only"
complete -c retry -n $opts -l hold-stdout -d "Only a successful attempt's stdout reaches stdout"
complete -c retry -n $opts -l only-last -d "Hold each attempt's output; pass on only the last attempt's"
complete -c retry -n $opts -l delay-from-output -x -d 'Wait at least the delay that the output gives'
complete -c retry -n $opts -l delay-from-output-replaces -d "Wait the output's delay even when the strategy's is longer"
complete -c retry -n $opts -l forever -d 'Run again after a success too'
complete -c retry -n $opts -l reset-after -x -d 'An attempt this long starts the count over'
complete -c retry -n $opts -l log-format -x -a 'text json' -d 'Report as text or JSON Lines'
complete -c retry -n $opts -l ci -x -a 'auto github gitlab none' -d "The CI's groups and annotations"
complete -c retry -n $opts -l log-file -r -F -d 'Append every event to a file'
complete -c retry -n $opts -l syslog -d 'Send every event to syslog'
complete -c retry -n $opts -l on -x -a 'retry: giveup: success:' -d 'Run a shell command on an event: retry, giveup or success, a colon, the command'
complete -c retry -n $opts -l on-retry -x -d 'Run a shell command before each back-off sleep'
complete -c retry -n $opts -l on-giveup -x -d 'Run a shell command when the run ends in failure'
complete -c retry -n $opts -l on-success -x -d 'Run a shell command when the run ends in success'
complete -c retry -n $opts -l result-file -r -F -d "Append the run's figures to a file as it ends"
complete -c retry -n $opts -s q -l quiet -d "Report only retry's own errors"
complete -c retry -n $opts -l verbose -d 'Also report starts and successes'
complete -c retry -n $opts -s m -l label -x -d 'Prefix reports with retry[LABEL]'
complete -c retry -n $opts -l message -x -d 'Prefix reports with retry[LABEL]'
complete -c retry -n $opts -l dry-run -d 'Print the schedule of an all-failing run'
complete -c retry -n $opts -l share -x -a '(__fish_retry_share_names)' -d 'Join a shared state: its budget, breaker and delay'
complete -c retry -n $opts -l share-budget -x -d 'N tokens; a retry takes 1, a success gives R'
complete -c retry -n $opts -l share-window -x -d 'N tokens come back every DUR'
complete -c retry -n $opts -l share-breaker -x -d 'N failures in a row open it for DUR'
complete -c retry -n $opts -l share-open -x -a 'wait giveup' -d 'What a run does while the breaker is open'
complete -c retry -n $opts -l share-store -x -a '(__fish_retry_store)' -d 'Where the shared states live'
complete -c retry -n $opts -l share-store-file -r -F -d "The store from FILE's first line"
complete -c retry -n $opts -l share-timeout -x -d 'Give up on the store after DUR'
complete -c retry -n $opts -l share-connect-timeout -x -d 'Give up on a new connection to Redis after DUR'
complete -c retry -n $opts -l share-required -d 'End with 75 when the store does not answer'

# retry share: its options, status or reset, then names.
set -l sharecmd "__fish_retry_share"
complete -c retry -n $sharecmd -f
complete -c retry -n $sharecmd -l share-store -x -a '(__fish_retry_store)' -d 'Where the shared states live'
complete -c retry -n $sharecmd -l share-store-file -r -F -d "The store from FILE's first line"
complete -c retry -n $sharecmd -l share-timeout -x -d 'Give up on the store after DUR'
complete -c retry -n $sharecmd -l share-connect-timeout -x -d 'Give up on a new connection to Redis after DUR'
complete -c retry -n $sharecmd -l share-budget -x -d "The runs' N tokens: tokens shown as they see them"
complete -c retry -n $sharecmd -l share-window -x -d 'A state unused for DUR is none'
complete -c retry -n $sharecmd -l log-format -x -a 'text json' -d 'Report as text or JSON Lines'
complete -c retry -n $sharecmd -s h -l help -x -a all -d 'Show the help and exit; all: every option'
complete -c retry -n $sharecmd -s v -s V -l version -d 'Show the version and exit'
complete -c retry -n "$sharecmd; and not __fish_retry_share_action" -x -a status -d 'Show shared states'
complete -c retry -n "$sharecmd; and not __fish_retry_share_action" -x -a reset -d 'Start a shared state afresh'
complete -c retry -n "$sharecmd; and __fish_retry_share_action" -x -a '(__fish_retry_share_names)' -d 'Shared state'

# The first word that is not an option: the subcommand, or the command to
# run, whose own completion takes over from there.
complete -c retry -n "not __fish_retry_show; and __fish_retry_options_only $__retry_valued" -x -a show-backoff-delays -d 'Print the delays of a strategy'
complete -c retry -n "not __fish_retry_show; and __fish_retry_options_only $__retry_valued" -x -a simulate -d 'Simulate clients that contend, as the AWS blog did'
complete -c retry -n "not __fish_retry_show; and __fish_retry_options_only $__retry_valued" -x -a share -d 'Show or reset the state that --share runs share'
complete -c retry -n __fish_retry_simulate -f
complete -c retry -n "not __fish_retry_show; and not __fish_retry_simulate; and not __fish_retry_share" -x -a "(__fish_complete_subcommand $__retry_valued)"
