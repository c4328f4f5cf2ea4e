# The README's commands. `make demo` runs the kiosk on its built-in defaults; `make test` runs the
# whole suite CI runs. Both install what they need first (scripts/setup).
SWIFT ?= swift
CONFIG ?= release
BUILD_FLAGS = -c $(CONFIG)
# The shared test images (never in the repository). `make test` (CI) needs them: without them the
# accuracy gates would be skipped, so it stops instead; a plain `swift test` skips those tests,
# each naming the reason.
FIXTURES ?= $(or $(BOOTH_FIXTURES),../shared/fixtures)
export BOOTH_FIXTURES := $(abspath $(FIXTURES))

.PHONY: all setup build demo run test check-fixtures test-swift test-arm test-vm test-vm-camera test-mallocs bench bench-arm clean

all: build

setup:
	scripts/setup

# booth, and libBoothCamera.so beside it: the libcamera shim booth loads only on a libcamera board.
build: setup
	$(SWIFT) build $(BUILD_FLAGS) --product booth
	$(SWIFT) build $(BUILD_FLAGS) --product BoothCamera

demo: build
	scripts/demo

run: demo

test: check-fixtures setup
	$(SWIFT) build $(BUILD_FLAGS) --build-tests
	$(SWIFT) test $(BUILD_FLAGS) --skip-build
	scripts/check-systemd .build/$(CONFIG)/booth
	CONFIG=$(CONFIG) scripts/vm/run
	CONFIG=$(CONFIG) scripts/vm/camera
	scripts/arm/test
	$(MAKE) test-mallocs

check-fixtures:
	@test -d "$(FIXTURES)/faces" && test -d "$(FIXTURES)/persons" || { \
	  echo "make test: the test fixtures are missing: $(FIXTURES) must hold faces/ and persons/" >&2; \
	  echo "  (set FIXTURES=DIR or BOOTH_FIXTURES=DIR; without them the accuracy tests cannot run, so CI fails)" >&2; \
	  exit 1; }

# The cores as Embedded Swift for aarch64 under qemu-aarch64-static: kernel conformance against
# the x86 golden checksums, and the NEON check of every SIMD kernel's loops.
test-arm: setup
	scripts/arm/test

# The DRM display code and the overlay screens on a real kernel driver (bochs-drm) in
# qemu-system-x86_64 (~17 s after the build).
test-vm: setup
	CONFIG=$(CONFIG) scripts/vm/run

# libcamera against a real kernel driver: a UVC gadget webcam (usbip-vudc + vhci_hcd + uvcvideo)
# in the same kind of VM; `booth cameras` lists it and LibcameraSource configures, starts and
# stops it (~30 s after the build). No frames: usbip-vudc fails isochronous transfers.
test-vm-camera: setup
	CONFIG=$(CONFIG) scripts/vm/camera

# Allocation budgets from the benchmark package: 0 mallocs per FrameRing cycle, per kiosk frame and per vision step
# (capture → faces → rules → mask → overlay, fake camera). Builds the Benchmarks package (minutes).
test-mallocs: setup
	cd Benchmarks && $(SWIFT) package benchmark thresholds check --target FrameRingBenchmarks --target KioskBenchmarks

bench: setup
	cd Benchmarks && $(SWIFT) package benchmark

# Executed aarch64 instructions per inference of the five models, Booth's float and integer paths
# against LiteRT (XNNPACK), under qemu as cortex-a72 (Pi 4) and cortex-a76 (Pi 5); minutes, not in CI.
bench-arm: setup
	scripts/arm/bench

clean:
	rm -rf .build out
