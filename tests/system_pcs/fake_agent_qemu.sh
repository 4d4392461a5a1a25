#!/usr/bin/env bash
# tests/system/fake_qemu.sh with QEMU's agents: writes the raw files the -M
# options armprof-pcs-out= and armprof-ss-out= name (FAKE_AGENT_PCS,
# FAKE_AGENT_SS: python3 expressions of the bytes; default: none), then
# plays the guest as fake_qemu.sh does.
prev=""
for a in "$@"; do
  if [ "$prev" = -M ]; then
    pcs=$(sed -n 's/.*armprof-pcs-out=\(\([^,]\|,,\)*\).*/\1/p' <<< "$a")
    ss=$(sed -n 's/.*armprof-ss-out=\(\([^,]\|,,\)*\).*/\1/p' <<< "$a")
    [ -z "$pcs" ] || [ -z "${FAKE_AGENT_PCS:-}" ] ||
      python3 -c "import struct,sys; open(sys.argv[1],'wb').write($FAKE_AGENT_PCS)" "${pcs//,,/,}"
    [ -z "$ss" ] || [ -z "${FAKE_AGENT_SS:-}" ] ||
      python3 -c "import struct,sys; open(sys.argv[1],'wb').write($FAKE_AGENT_SS)" "${ss//,,/,}"
  fi
  prev=$a
done
exec bash "$(dirname "$0")/../system/fake_qemu.sh" "$@"
