# The devices of qemu-system-aarch64 for csdump's tests
# (qemu/scripts/build.sh: configure --without-default-devices
# --with-devices-aarch64=csdump, this file installed as
# configs/devices/aarch64-softmmu/csdump.mak).  Nothing else is built:
# about 900 of the 1,450 objects of every Arm board.
#
# The virt machine; it selects the CoreSight models of qemu/patches and
# everything else it wires (GIC, PL011, virtio-mmio, ...).
CONFIG_ARM_VIRT=y
# The capture kernel writes the vmcore to a virtio-blk-device
# (tests/e2e/run-qemu.sh).
CONFIG_VIRTIO_BLK=y
# QEMU 7.2's Arm TCG front end calls the v7-M NVIC and semihosting whatever
# the board (hw/arm/Kconfig: "currently v7M must be included in a TCG
# build"); a default that --without-default-devices leaves off.
CONFIG_ARM_V7M=y
