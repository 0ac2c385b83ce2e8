# Sourced by the scripts that start test servers or run the tests: where this checkout's test
# servers keep their state. One folder per checkout, under the temporary folder and named after the
# checkout's own path, so two clones on one machine never share one.
#
#   LOUPE_TEST_STATE_DIR  default ${TMPDIR:-/tmp}/loupe-test-<first 12 hex of sha256(checkout path)>
#   LOUPE_TEST_RGW_DIR    default $LOUPE_TEST_STATE_DIR/rgw (Ceph RGW: see start-rgw.sh)
#
# The folder records the checkout it belongs to (file `checkout`), so ensure-servers.sh can stop
# and remove the servers of a checkout that no longer exists. A copy of the checkout that `npm test`
# runs the suite in inherits these variables and so uses its origin's servers.
_loupe_checkout="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
if [[ -z "${LOUPE_TEST_STATE_DIR:-}" ]]; then
  LOUPE_TEST_STATE_DIR="${TMPDIR:-/tmp}/loupe-test-$(printf '%s' "$_loupe_checkout" | sha256sum | cut -c1-12)"
fi
LOUPE_TEST_RGW_DIR="${LOUPE_TEST_RGW_DIR:-$LOUPE_TEST_STATE_DIR/rgw}"
export LOUPE_TEST_STATE_DIR LOUPE_TEST_RGW_DIR
mkdir -p "$LOUPE_TEST_STATE_DIR"
if [[ ! -f "$LOUPE_TEST_STATE_DIR/checkout" ]]; then
  printf '%s\n' "$_loupe_checkout" >"$LOUPE_TEST_STATE_DIR/checkout"
fi
unset _loupe_checkout
