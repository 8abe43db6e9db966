# kernel-gpio.sh again with recoverydeckd linked against libgpiod v2 (the API Debian 13 ships), built by
# Tests/stages/45-gpio-vm.sh from libgpiod 2.1's sources (Tests/stages/gpiod/build-v2.sh, link-v2.py): the
# same two mornings on the same kernel lines, held to the same light table.
# vm-timeout: 280
RECOVERYDECKD=$REPO/.build/gpiod-v2/recoverydeckd-sim GPIOD_API=2
. "$REPO/Tests/stages/gpio/kernel-gpio.sh"
