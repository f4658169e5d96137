# Lodestone: everything a fresh Debian 12 machine with Swift 6.3 needs.
#   make demo   install what is missing, build, run the demo
#   make test   install what is missing, build, run every test
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Build: libwayland, protocols, xkbcommon, pixman, libinput + udev, libdrm, libseat, libpng, cairo.
# Tests and demo: real clients (weston's demo clients, foot, GTK 3 and 4, Qt 6 Linguist, wl-clipboard),
# fonts, keymaps, pywayland for the Python clients, and meson + ninja for the
# C client built from meson-wrap/.
APT_PACKAGES := pkg-config libwayland-dev wayland-protocols libxkbcommon-dev xkb-data \
	libpixman-1-dev libinput-dev libpng-dev libcairo2-dev fonts-dejavu-core \
	weston foot gtk-4-examples gtk-3-examples wl-clipboard wlcs coreutils python3 python3-pip \
	meson ninja-build linguist-qt6 qt6-wayland libseat-dev libdrm-dev libudev-dev
PIP_PACKAGES := pywayland

.PHONY: deps build test demo bench wlcs clean

deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@python3 -c 'import pywayland' 2>/dev/null || python3 -m pip install -q $(PIP_PACKAGES) \
		|| python3 -m pip install -q --break-system-packages $(PIP_PACKAGES)

build: deps
	$(SWIFT) build --build-tests

# The wlcs allowlist first (it reuses the debug build), then every Swift test.
test: build
	WLCS_SCRATCH=.build Scripts/run-wlcs
	$(SWIFT) test --disable-swift-testing

# The wlcs conformance allowlist; `Scripts/run-wlcs --all` runs whole groups.
wlcs: deps
	Scripts/run-wlcs

demo: build
	@Scripts/demo

bench: deps
	$(SWIFT) build -c release --product lodestone-bench
	$(SWIFT) build -c release --product lodestone
	$(SWIFT) build -c release --product PointerEngineBenchmark
	.build/release/lodestone-bench
	.build/release/PointerEngineBenchmark

clean:
	rm -rf .build .build-*
