# faults.sh again with recoverydeckd linked against libgpiod v2 (Tests/stages/45-gpio-vm.sh builds it): the
# same refusals, in the same sentences, through the v2 API's calls.
# vm-timeout: 90
RECOVERYDECKD=$REPO/.build/gpiod-v2/recoverydeckd-sim
. "$REPO/Tests/stages/gpio/faults.sh"
