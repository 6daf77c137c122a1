#!/usr/bin/env bats
bats_require_minimum_version 1.5.0
load test_helper/common

@test "a command that succeeds runs once" {
	run -0 retry -- flaky 0
	assert_output "run 1"
}
