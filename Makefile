# Lodestone: everything a fresh Debian 12 machine with Swift 6.3 needs.
#   make demo   install what is missing, build, run the demo (make deps: what it needs)
#   make test   install what is missing, build, run every test (make test-deps: make deps and
#               the apps, browsers, parent compositors and QEMU the tests use)
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# make deps: what building Lodestone and `make demo` need.
# Build: libwayland, protocols, xkbcommon, pixman, libinput + udev, libdrm, libseat, libpng, cairo, libXcursor,
# libxcb (the X11 window manager), libsystemd (sd-bus, the accessibility bus), valgrind's headers
# (callgrind's client requests, CValgrind).
# The demo and the tour: cursor themes the compositor recognises (and draws where a cursor has no
# adaptive form), fonts, and the apps README.md runs inside a nested Lodestone: weston's demo
# clients, foot, the GTK 3 and 4 examples, Xwayland for X11 apps.
DEMO_APT_PACKAGES := pkg-config libwayland-dev wayland-protocols libxkbcommon-dev xkb-data \
	libpixman-1-dev libinput-dev libpng-dev libcairo2-dev libxcursor-dev libseat-dev libdrm-dev libudev-dev \
	libxcb1-dev libxcb-composite0-dev libxcb-render0-dev libxcb-xfixes0-dev libsystemd-dev valgrind \
	adwaita-icon-theme dmz-cursor-theme fonts-dejavu-core \
	weston foot gtk-4-examples gtk-3-examples xwayland
# Scribble (issue 40): Zinnia's headers to build its recogniser helper, the Tegaki models it reads
# Japanese and Chinese with, Tesseract and its English model for Latin script (docs/scribble.md).
DEMO_APT_PACKAGES += libzinnia-dev tegaki-zinnia-japanese tegaki-zinnia-simplified-chinese tesseract-ocr tesseract-ocr-eng

# make test-deps: the rest of what `make test` needs, on top of make deps.
# make fuzz: clang's libFuzzer runtime. The wlcs conformance suite.
# Tests: real clients (wl-clipboard, Qt 6 Linguist, GNOME's Calculator and Text Editor, SDL 2's
# test programs, mpv, zenity: a GTK 3 entry for drag and drop, xterm and x11-apps on Xwayland),
# pywayland for the Python clients, python-xlib and xclip for the X11 ones, meson + ninja for
# the C client built from meson-wrap/, wlroots 0.15 + grim for Examples/wlroots-tinywl-adaptive,
# dbus-daemon, dbus-bin (dbus-send) and at-spi2-core (the AT-SPI bus and registry), strace.
# mutter and sway: parents for the nested backend's title bar tests (mutter draws none, sway its own).
# Xvfb and xdotool: weston and sway on X (their X11 backends), so they have a seat whose keyboard
# and pointer the nested clipboard and drag tests drive (NestedInWestonAndSwayTests).
TEST_APT_PACKAGES := wl-clipboard wayland-utils wlcs coreutils python3 python3-pip \
	meson ninja-build linguist-qt6 libwlroots-dev grim qt6-wayland desktop-file-utils \
	xterm x11-apps libclang-rt-14-dev \
	dbus-daemon dbus-bin at-spi2-core python3-gi gir1.2-glib-2.0 python3-xlib xclip mutter sway gnome-calculator gnome-text-editor libsdl2-tests mpv zenity strace \
	xvfb xdotool
PIP_PACKAGES := pywayland

# The accuracy benchmark's AT-SPI reader (Tests/clients/atspi_elements.py: libatspi's GObject
# bindings) and its apps beyond those above (make accuracy, AccuracyTests).
TEST_APT_PACKAGES += gir1.2-atspi-2.0 nautilus gnome-characters

# hosts/wayfire, the Wayfire 0.7.4 plugin (make wayfire-plugin; Tests/vm/wayfire-test in make
# test-tty): Wayfire itself and its headers, which include glm's and GLES 2's; gtk3-demo (make
# deps), dbus-daemon and at-spi2-core (above) for the GTK scenario.
TEST_APT_PACKAGES += wayfire wayfire-dev libglm-dev libgles-dev
# hosts/weston, the weston 10 module (make weston-module; WestonModuleTests, Scripts/bench-weston):
# libweston 10's headers; weston itself, Xvfb, xdotool, meson and ninja are listed above.
TEST_APT_PACKAGES += libweston-10-dev
# weston's GL renderer on Xvfb (llvmpipe), for WestonModuleTests.testUnderTheGLRenderer...
TEST_APT_PACKAGES += libgl1-mesa-dri

# Output management (OutputManagementTests): wlr-randr lists, moves and scales heads, kanshi
# applies a profile; wayland-info (wayland-utils, above) reads wl_output and xdg_output.
TEST_APT_PACKAGES += wlr-randr kanshi
# swayidle: ext_idle_notify_v1 on the real clock (IdleNotifyTests). The task bar test
# (ForeignToplevelTests) uses foot, gtk-4-examples and xterm, listed above.
TEST_APT_PACKAGES += swayidle

# The toml-test suite's valid and invalid TOML files (the config tests and the config fuzzer's
# seeds): Debian ships them inside BurntSushi's Go TOML library.
TEST_APT_PACKAGES += golang-github-burntsushi-toml-dev

# hosts/kwin, the KWin 5.27 effect (KWinEffectTests, make install): KWin itself and its effect
# API (kwin-dev brings Qt 5's and KF5's headers and moc), a C++ compiler for meson.
TEST_APT_PACKAGES += kwin-wayland kwin-dev g++

# The layer shell and the default session (LayerShellTests, SessionStartupTests): waybar, fuzzel
# and mako with notify-send (foot, for Super+Return, is in the deps above) (issue 38).
TEST_APT_PACKAGES += waybar fuzzel mako-notifier libnotify-bin

# Browsers and Qt 6 Designer whose accessible trees the accessibility tests and `make bench` read
# (BrowserAccessibilityTests, AccessibleAppTests, AccessibilityBench).
TEST_APT_PACKAGES += firefox-esr chromium designer-qt6

# Input methods (issue 39, InputMethodTests): wtype types through zwp_virtual_keyboard_v1; foot,
# gtk4-widget-factory (gtk-4-examples) and gnome-text-editor are listed above; fcitx5 with its
# GTK 4 frontend is the real input method tried (docs/input-methods.md). NestedInputMethodTests
# (the parent's input method inside a nested Lodestone) and Fcitx5XimTests (fcitx5's XIM into
# xterm, listed above) need nothing more.
TEST_APT_PACKAGES += wtype fcitx5 fcitx5-frontend-gtk4
# The session lock (SessionLockTests, Tests/vm's `lock` scenario): swaylock, and openssl for the
# password hash its PAM check reads (unshare is util-linux's, in every Debian).
TEST_APT_PACKAGES += swaylock openssl

# make test-tty (Tests/vm/): QEMU for the guest, seatd in it, busybox-static for its initramfs
# (the guest's kernel is fetched by Tests/vm/build-guest with apt-get download, never installed).
# Optional: where they cannot be installed, make test says so and skips the TTY scenarios.
VM_APT_PACKAGES := qemu-system-x86 seatd busybox-static

PREFIX ?= /usr/local
# make install CONFIG=debug installs the debug build (the install test uses it).
CONFIG ?= release

.PHONY: deps test-deps build build-checked release test weston-module check-wrappers wayfire-plugin test-tty test-tty-build test-tty-if-possible fuzz-build asan-build demo golden bench bench-check bench-peer bench-nested bench-abuse accuracy accuracy-short soak fuzz fuzz-config fuzz-xcursor fuzz-nested fuzz-x11 asan wlcs install man clean

# Installs those of the packages in $(1) that are missing.
define apt_install
@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps:
	$(call apt_install,$(DEMO_APT_PACKAGES))

test-deps: deps
	$(call apt_install,$(TEST_APT_PACKAGES))
	@missing=$$(for p in $(VM_APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing (make test-tty):" $$missing; \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null \
			|| echo "could not install $$missing: make test will skip make test-tty"; \
	fi
	@python3 -c 'import pywayland' 2>/dev/null || python3 -m pip install -q $(PIP_PACKAGES) \
		|| python3 -m pip install -q --break-system-packages $(PIP_PACKAGES)

build: deps
	$(SWIFT) build --build-tests

# The same build, failing on a compiler warning from the project's own files
# (Scripts/check-build-warnings): what make test builds. Incremental builds print the
# warnings of the files they recompile only; CI's fresh clone prints them all.
build-checked: test-deps
	Scripts/check-build-warnings --run -- $(SWIFT) build --build-tests

# No public raw C pointer on a wrapper type (a grep: first, and cheap).
check-wrappers:
	Scripts/check-closed-wrappers

# The debug build (no warnings), then Scripts/run-tests: the wlcs allowlist (it reuses the
# debug build), every Swift test in XCTEST_SHARDS processes side by side (Scripts/test-shards),
# while the fuzzers' and test-tty's builds go on beside them at a lower priority; then 30 s of
# the config loader's fuzzer and 20 s of the Xcursor theme reader's, side by side, and make
# test-tty (or why it is skipped).
test: check-wrappers build-checked weston-module
	Scripts/run-tests

# hosts/weston's lodestone-pointer.so against the debug liblodestone-pointer, with meson and the
# wrap in c-api/, failing on a compiler warning (WestonModuleTests builds its own copy the same way).
weston-module: build-checked
	@[ -f .build-weston/build.ninja ] || meson setup --wrap-mode=nodownload \
		-Dlodestone-pointer:swiftpm_libdir=$(CURDIR)/.build/debug .build-weston hosts/weston
	@ninja -C .build-weston lodestone-pointer.so > .build-weston/ninja.log 2>&1; status=$$?; cat .build-weston/ninja.log; \
		[ $$status = 0 ] && ! grep -q "warning:" .build-weston/ninja.log

# The TTY session for real (Tests/vm/README.md): a QEMU guest (Debian's kernel, virtio GPU and
# input, the host's root over 9p) runs seatd and the release build of `lodestone --backend drm`
# with the demo app; Tests/vm/tty-test drives it over QMP and checks screendumps and the cursor
# plane in debugfs, one PASS/FAIL line per scenario (TTY_SCENARIOS="start vt" runs some).
# Then Tests/vm/wayfire-test: Wayfire 0.7.4 with the plugin in a second guest (the demo's
# highlight and lift, a GTK button's highlight from AT-SPI; WAYFIRE_SCENARIOS="demo" runs some).
test-tty: test-tty-build
	@status=0; Tests/vm/tty-test $(TTY_SCENARIOS) || status=1; \
		Tests/vm/wayfire-test $(WAYFIRE_SCENARIOS) || status=1; exit $$status

test-tty-build: test-deps
	Scripts/check-build-warnings --run -- $(SWIFT) build -c release --product lodestone
	Scripts/check-build-warnings --run -- $(SWIFT) build -c release --product lodestone-demo
	Scripts/check-build-warnings --run -- $(SWIFT) build -c release --product lodestone-pointer
	$(MAKE) --no-print-directory wayfire-plugin

# hosts/wayfire's liblodestone.so in .build/wayfire against the release liblodestone-pointer
# (what the guest runs), with meson and the wrap in c-api/, failing on a compiler warning.
wayfire-plugin:
	@[ -f .build/wayfire/build.ninja ] || meson setup --wrap-mode=nodownload \
		-Dlodestone-pointer:swiftpm_libdir=$(CURDIR)/.build/release .build/wayfire hosts/wayfire >/dev/null
	@ninja -C .build/wayfire > .build/wayfire/ninja.log 2>&1; status=$$?; cat .build/wayfire/ninja.log; \
		[ $$status = 0 ] && ! grep -q "warning:" .build/wayfire/ninja.log

test-tty-if-possible:
	@if command -v qemu-system-x86_64 >/dev/null && [ -x /bin/busybox ] && command -v seatd >/dev/null; then \
		$(MAKE) --no-print-directory test-tty; \
	else \
		echo "make test-tty skipped: $(VM_APT_PACKAGES) could not be installed (qemu-system-x86_64, seatd or /bin/busybox missing)"; \
	fi

# Rewrites the golden pictures (Tests/golden/) from a headless Lodestone; review them, then commit.
golden: build
	LODESTONE_UPDATE_GOLDEN=1 $(SWIFT) test --disable-swift-testing --skip-build --filter GoldenPictureTests

# The wlcs conformance allowlist; `Scripts/run-wlcs --all` runs whole groups.
wlcs: test-deps
	Scripts/run-wlcs

# The programs people run are optimized (a debug build costs 1.2-1.3x weston's CPU per frame,
# release 0.7-0.9x); the Swift runtime is linked in, so an installed binary runs anywhere.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product lodestone
	$(SWIFT) build -c release --static-swift-stdlib --product lodestone-demo
	$(SWIFT) build -c release --static-swift-stdlib --product lodestone-tour
	$(SWIFT) build -c release --static-swift-stdlib --product lodestone-scribble-recognizer
	$(SWIFT) build -c release --product lodestone-pointer

demo: release
	@LODESTONE_BIN=.build/release Scripts/demo

# lodestone and lodestone-demo, the man page, a desktop entry, the protocol XML and its .pc file,
# liblodestone-pointer (Swift runtime linked in, only the C API exported), its header and .pc file;
# with kwin-dev installed, the KWin effect in $(PREFIX)/lib/x86_64-linux-gnu/qt5/plugins/kwin/effects/plugins
# (PREFIX=/usr: Qt's own plugin folder, where KWin looks; docs/kwin.md); and the Wayfire plugin where
# wayfire-dev is installed (Scripts/install-wayfire-plugin: PREFIX's equivalent of Wayfire's plugin
# folder, /usr/lib/x86_64-linux-gnu/wayfire for PREFIX=/usr; docs/wayfire.md);
# and the weston module: into weston's module folder when PREFIX is libweston's (/usr), else
# PREFIX/lib/weston, or WESTON_MODULEDIR (Scripts/install; docs/weston.md).
install: $(if $(filter debug,$(CONFIG)),build,release)
	WESTON_MODULEDIR="$(WESTON_MODULEDIR)" Scripts/install "$(PREFIX)" .build/$(CONFIG)

# Regenerates docs/lodestone.1 from the command line's own help (swift-argument-parser).
man: build
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --output-directory docs \
		--section 1 --date 2026-11-23 --authors "The Lodestone authors"

bench: test-deps
	$(SWIFT) build -c release --product lodestone-bench
	$(SWIFT) build -c release --product lodestone
	$(SWIFT) build -c release --product PointerEngineBenchmark
	$(SWIFT) build -c release --product PointerBoundaryBenchmark
	$(SWIFT) build -c release --product lodestone-pointer
	$(SWIFT) build -c release --product allocation-counter-check
	$(SWIFT) build -c release --product lodestone-scribble-recognizer
	LD_PRELOAD=$(CURDIR)/.build/release/libMallocInterposerSwift.so .build/release/allocation-counter-check
	.build/release/lodestone-bench
	.build/release/lodestone-bench --scribble .build/release/lodestone-scribble-recognizer
	.build/release/PointerEngineBenchmark
	.build/release/PointerBoundaryBenchmark .build/release/liblodestone-pointer.so
	Scripts/bench-pointer-library .build/release
	Scripts/bench-instructions
	Scripts/bench-weston .build/release

# Lodestone (the release build `make demo` runs) and weston 10 side by side, same output and
# clients (Sources/lodestone-bench/PeerBench.swift); PEER_SECONDS per client (default 5).
# `make fuzz SECONDS=N` and `make bench-peer SECONDS=N` (the old name) still work from the command
# line; never from the environment, where SECONDS is bash's clock.
ifeq ($(origin SECONDS),command line)
FUZZ_SECONDS ?= $(SECONDS)
PEER_SECONDS ?= $(SECONDS)
endif
PEER_SECONDS ?= 5
bench-peer: release
	$(SWIFT) build -c release --product lodestone-bench
	.build/release/lodestone-bench --peer .build/release/lodestone $(PEER_SECONDS)
	Scripts/bench-syscalls .build/release/lodestone

# The nested path (issue 37): Lodestone with its parent planes and without, weston 10 and
# sway 1.7, each nested in a headless Lodestone parent, with the same clients
# (Sources/lodestone-bench/NestedClientsBench.swift); bench-peer prints the same rows last.
bench-nested: release
	$(SWIFT) build -c release --product lodestone-bench
	.build/release/lodestone-bench --nested .build/release/lodestone $(PEER_SECONDS)

# Fails when an instruction count grew more than 5% over bench/instructions.baseline
# (Scripts/bench-instructions --record writes a new one), or when Lodestone's syscalls or page
# faults per client frame go above the bounds in Scripts/bench-syscalls.
bench-check: test-deps
	$(SWIFT) build -c release --product lodestone-bench
	$(SWIFT) build -c release --static-swift-stdlib --product lodestone
	Scripts/bench-instructions --check
	Scripts/bench-syscalls --check .build/release/lodestone

# The accuracy benchmark (docs/accuracy.md): every element of real apps hovered in a headless
# Lodestone on the real clock, the pointer's form checked against what the element should give;
# a table per app and a picture of each miss in .build/accuracy. accuracy-short is CI's run (3
# apps, 30 elements each; AccuracyTests runs it in make test); both fail below 90% right.
accuracy: test-deps build
	.build/debug/lodestone-bench --accuracy --pictures .build/accuracy

accuracy-short: test-deps build
	.build/debug/lodestone-bench --accuracy --short --pictures .build/accuracy

# A well-behaved client's round-trip p50/p99 while one client abuses Lodestone (release build).
bench-abuse: test-deps
	$(SWIFT) build -c release --product lodestone
	LODESTONE_BIN=.build/release Scripts/bench-abuse

# 1,000 clients come and go (every fifth killed mid-frame); RSS and fds every 100.
SOAK_CLIENTS ?= 1000
soak: test-deps build
	Scripts/soak --clients $(SOAK_CLIENTS)

# Coverage-guided libFuzzer over Wayland wire messages into an in-process compositor
# (Sources/lodestone-fuzz) for FUZZ_SECONDS. New inputs go to .build-fuzz/corpus; the committed
# seeds are Tests/fuzz/corpus; a crash lands in Tests/fuzz/crashes/, where `make test`
# replays it (AbuseTests) once it is committed. Run from a scratch directory: the test
# protocol's capture_png writes files where it is told.
FUZZ_SECONDS ?= 60
fuzz: test-deps
	$(SWIFT) build --sanitize=fuzzer --product lodestone-fuzz -Xswiftc -DLODESTONE_LIBFUZZER --scratch-path .build-fuzz
	mkdir -p .build-fuzz/corpus .build-fuzz/work Tests/fuzz/crashes
	cd .build-fuzz/work && ../debug/lodestone-fuzz ../corpus ../../Tests/fuzz/corpus -max_total_time=$(FUZZ_SECONDS) \
		-max_len=4096 -len_control=0 -timeout=20 -print_final_stats=1 -artifact_prefix=../../Tests/fuzz/crashes/

# The config loader's fuzzer (Sources/lodestone-config-fuzz): byte strings into
# ConfigurationFile.parse(bytes:), TOMLKit in its forked child, for CONFIG_FUZZ_SECONDS
# (10 minutes in `make fuzz`, 30 s in `make test`); Scripts/fuzz-config says where seeds,
# new inputs and (minimized) crashes go.
CONFIG_FUZZ_SECONDS ?= 600
fuzz: fuzz-config
fuzz-config: test-deps
	Scripts/check-build-warnings --run -- $(SWIFT) build --sanitize=fuzzer --product lodestone-config-fuzz -Xswiftc -DLODESTONE_LIBFUZZER --scratch-path .build-fuzz
	Scripts/fuzz-config $(CONFIG_FUZZ_SECONDS)

# The Xcursor theme reader's fuzzer (Sources/lodestone-xcursor-fuzz): byte strings as a cursor
# file in a theme on disk, read by CursorThemes (libXcursor underneath), for XCURSOR_FUZZ_SECONDS
# (10 minutes in `make fuzz`, 20 s in `make test`); Scripts/fuzz-xcursor says where seeds, new
# inputs and (minimized) crashes go.
XCURSOR_FUZZ_SECONDS ?= 600
fuzz: fuzz-xcursor
fuzz-xcursor: test-deps
	Scripts/check-build-warnings --run -- $(SWIFT) build --sanitize=fuzzer --product lodestone-xcursor-fuzz -Xswiftc -DLODESTONE_LIBFUZZER --scratch-path .build-fuzz
	Scripts/fuzz-xcursor $(XCURSOR_FUZZ_SECONDS)

# Both fuzzers' builds (make test builds them beside the Swift tests).
fuzz-build: test-deps
	Scripts/check-build-warnings --run -- $(SWIFT) build --sanitize=fuzzer --product lodestone-config-fuzz -Xswiftc -DLODESTONE_LIBFUZZER --scratch-path .build-fuzz
	Scripts/check-build-warnings --run -- $(SWIFT) build --sanitize=fuzzer --product lodestone-xcursor-fuzz -Xswiftc -DLODESTONE_LIBFUZZER --scratch-path .build-fuzz

# A random parent for nested Lodestone (Sources/lodestone-odd-parent --random): configures,
# scales, fractional scales and input at the ends of their ranges every 100 ms, 20 s for each
# of 30 seeds in `make fuzz` (3 s for 5 in `make test`, NestedOddParentTests).
fuzz: fuzz-nested
fuzz-nested: test-deps build
	LODESTONE_ODD_PARENT_SECONDS=20 LODESTONE_ODD_PARENT_SEEDS=30 $(SWIFT) test --disable-swift-testing --skip-build \
		--filter NestedOddParentTests.testRandomParentLeavesLodestoneRunning

# The X11 client fuzzer (Tests/clients/x11_fuzz.py) against the window manager through a real
# Xwayland for X11_FUZZ_SECONDS (10 minutes in `make fuzz`, 20 s in `make test`), from a
# random seed it prints (LODESTONE_X11_FUZZ_SEED=N replays one); what a seed finds becomes a
# deterministic case (x11_fuzz.py --case) with its test in XwaylandFuzzTests.
X11_FUZZ_SECONDS ?= 600
fuzz: fuzz-x11
fuzz-x11: test-deps build
	LODESTONE_X11_FUZZ_SECONDS=$(X11_FUZZ_SECONDS) $(SWIFT) test --disable-swift-testing --skip-build \
		--filter XwaylandFuzzTests.testRandomX11ClientsLeaveTheSessionWorking

# AddressSanitizer (and UndefinedBehaviorSanitizer for the C and C++ targets) over the test
# suite, the random request-stream fuzzer slice and the libFuzzer corpus included, less the
# classes Tests/asan-skip.txt names (each with why: they only time or drive real apps whose
# paths through Lodestone other classes take), in ASAN_SHARDS processes side by side. Every
# sanitized process (the test runner, each Lodestone it starts, lodestone-fuzz) writes what it
# finds to .build-asan/sanitizer-reports/ (log_path); Scripts/sanitizer-reports prints them
# and fails the run when there is one, so a leak at a compositor's exit gates as an error in
# the test process does (UBSan halts on the first finding not in Tests/ubsan-suppressions.txt).
# Its own scratch path: a full rebuild that leaves .build alone.
ASAN_FLAGS := --sanitize=address -Xcc -fsanitize=undefined --scratch-path .build-asan
ASAN_REPORTS := $(CURDIR)/.build-asan/sanitizer-reports
ASAN_LOG := log_path=$(ASAN_REPORTS)/report:log_exe_name=1
ASAN_SHARDS ?= 3
asan: asan-build
	rm -rf $(ASAN_REPORTS) && mkdir -p $(ASAN_REPORTS)
	LODESTONE_SANITIZED=1 ASAN_OPTIONS=malloc_context_size=8:$(ASAN_LOG) \
		LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt:print_suppressions=0:$(ASAN_LOG) \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:suppressions=$(CURDIR)/Tests/ubsan-suppressions.txt:$(ASAN_LOG) \
		XCTEST_LOG_DIR=.build-asan/xctest-shards Scripts/test-shards --shards $(ASAN_SHARDS) --skip Tests/asan-skip.txt --timings Tests/xctest-timings-asan.txt -- $(ASAN_FLAGS); \
	status=$$?; Scripts/sanitizer-reports $(ASAN_REPORTS) || status=1; exit $$status

asan-build: test-deps
	Scripts/check-build-warnings --run -- $(SWIFT) build --build-tests $(ASAN_FLAGS)

clean:
	rm -rf .build .build-*
