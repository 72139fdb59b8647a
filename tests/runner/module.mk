# tests/runner/: the test runner's own judgement of skips and exit statuses.
TEST_SUITES += tests/runner/runner-check.sh
