import Foundation
import XCTest

/// `.ci/run`'s last line, `Scripts/summarize-test-log`, read against logs saved from real runs
/// (`Tests/ci-logs`, where each one's origin is told), and `.ci/run`'s exit status.
final class CISummaryTests: XCTestCase {
    private let logs = repositoryRoot + "/Tests/ci-logs/"

    private func summarize(_ log: String) throws -> (status: Int32, output: String) {
        try run([repositoryRoot + "/Scripts/summarize-test-log", logs + log])
    }

    /// The issue 23 line: the skipped form did not match the old pattern, which took the last
    /// suite that had none (2 tests) for the XCTest total: "448 passed".
    func testSkippedTestsAreCountedFromTheAllTestsLine() throws {
        let (status, output) = try summarize("skipped.log")
        XCTAssertEqual(output, "tests: 451 passed, 0 failed, 182 skipped (XCTest: 5 passed, 0 failed, 2 skipped; wlcs: 446 passed, 0 failed, 180 skipped)\n")
        XCTAssertEqual(status, 0)
    }

    /// XCTest's "2 failures" are two failed assertions in one test.
    func testATestThatFailsTwiceIsOneFailedTest() throws {
        let (status, output) = try summarize("failures.log")
        XCTAssertEqual(output, "tests: 452 passed, 1 failed, 180 skipped (XCTest: 6 passed, 1 failed, 0 skipped; wlcs: 446 passed, 0 failed, 180 skipped)\n")
        XCTAssertEqual(status, 1)
    }

    func testSkippedAndFailedXCTestsAddUpWithWlcsFailures() throws {
        let (status, output) = try summarize("skipped-and-failures.log")
        XCTAssertEqual(output, "tests: 19 passed, 3 failed, 6 skipped (XCTest: 4 passed, 1 failed, 2 skipped; wlcs: 15 passed, 2 failed, 4 skipped)\n")
        XCTAssertEqual(status, 1)
    }

    /// A test that takes the XCTest runner down leaves no total: the old line counted wlcs alone.
    func testACrashedRunHasNoXCTestTotalAndFails() throws {
        let (status, output) = try summarize("crashed.log")
        XCTAssertEqual(output, "tests: incomplete (XCTest: no total, swift test did not finish: the build failed, a test crashed the runner, "
            + "or make stopped before it; wlcs: 446 passed, 0 failed, 180 skipped)\n")
        XCTAssertEqual(status, 2)
    }

    func testAFailedBuildHasNeitherTotalAndFails() throws {
        let (status, output) = try summarize("build-failed.log")
        XCTAssertEqual(output, "tests: incomplete (XCTest: no total, swift test did not finish: the build failed, a test crashed the runner, "
            + "or make stopped before it; wlcs: no TOTAL line, Scripts/run-wlcs did not finish)\n")
        XCTAssertEqual(status, 2)
    }

    /// `make asan` runs no wlcs: its log is summed with `--xctest-only asan`.
    func testTheSanitizedRunIsSummedWithoutWlcs() throws {
        let (status, output) = try run([repositoryRoot + "/Scripts/summarize-test-log", "--xctest-only", "asan", logs + "skipped.log"])
        XCTAssertEqual(output, "asan: 5 passed, 0 failed, 2 skipped\n")
        XCTAssertEqual(status, 0)
        let crashed = try run([repositoryRoot + "/Scripts/summarize-test-log", "--xctest-only", "asan", logs + "crashed.log"])
        XCTAssertTrue(crashed.output.hasPrefix("asan: incomplete (no total"), crashed.output)
        XCTAssertEqual(crashed.status, 2)
    }

    /// Scripts/test-shards prints each shard's log whole, each with its own total: added up.
    func testShardsTotalsAreAddedUp() throws {
        let (status, output) = try summarize("sharded.log")
        XCTAssertEqual(output, "tests: 449 passed, 0 failed, 180 skipped (XCTest: 3 passed, 0 failed, 0 skipped; wlcs: 446 passed, 0 failed, 180 skipped)\n")
        XCTAssertEqual(status, 0)
    }

    /// A shard that a test crashed has no total: the other shard's is not taken for the run's.
    func testAShardWithoutItsTotalMakesTheRunIncomplete() throws {
        let (status, output) = try summarize("sharded-crashed.log")
        XCTAssertEqual(output, "tests: incomplete (XCTest: 1 of 2 shards' totals, a shard did not finish: a test crashed it, or it ran out of time; "
            + "wlcs: 446 passed, 0 failed, 180 skipped)\n")
        XCTAssertEqual(status, 2)
        let asan = try run([repositoryRoot + "/Scripts/summarize-test-log", "--xctest-only", "asan", logs + "sharded-crashed.log"])
        XCTAssertTrue(asan.output.hasPrefix("asan: incomplete (1 of 2 shards' totals"), asan.output)
        XCTAssertEqual(asan.status, 2)
    }

    // MARK: Scripts/check-build-warnings

    /// Its environment without LODESTONE_WARNINGS (=warn: a run that lists and does not fail).
    private func checkWarnings(_ arguments: [String]) throws -> (status: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "LODESTONE_WARNINGS")
        return try run([repositoryRoot + "/Scripts/check-build-warnings"] + arguments, environment: environment)
    }

    /// Each warning from the project's own files once, whatever else the build printed.
    func testBuildWarningsFromTheProjectsOwnFilesFailTheCheck() throws {
        let (status, output) = try checkWarnings(["--root", "/work/main", logs + "build-warnings.log"])
        XCTAssertEqual(output, """
            check-build-warnings: 5 compiler warnings in the project's own files:
              Sources/CWaylandClient/include/CWaylandClient.h:29:1: warning: umbrella header for module 'CWaylandClient' does not include header '/protocols/xdg-foreign-unstable-v2-client-protocol.h'
              Sources/LodestoneCompositor/Compositor.swift:24:5: warning: 'internal(set)' modifier is redundant for an internal property
              Sources/LodestoneCompositor/Compositor.swift:76:29: warning: 'internal(set)' modifier is redundant for an internal property
              Sources/LodestoneCompositor/Compositor.swift:82:29: warning: 'internal(set)' modifier is redundant for an internal property
              Sources/LodestoneSystem/ChildProcess.swift:2:8: warning: file 'ChildProcess.swift' is part of module 'LodestoneSystem'; ignoring import

            """)
        XCTAssertEqual(status, 1)
    }

    /// Built elsewhere (another checkout's paths), the same log has none of this checkout's;
    /// a log without warnings passes.
    func testBuildWarningsOfAnotherCheckoutAndACleanBuildPass() throws {
        XCTAssertEqual(try checkWarnings(["--root", "/elsewhere", logs + "build-warnings.log"]).status, 0)
        XCTAssertEqual(try checkWarnings([logs + "skipped.log"]).status, 0)
    }

    /// --run passes the command's output through and keeps its failing status.
    func testCheckedBuildKeepsTheCommandsStatus() throws {
        let failed = try checkWarnings(["--run", "--", "sh", "-c", "echo built; exit 3"])
        XCTAssertEqual(failed.status, 3)
        XCTAssertEqual(failed.output, "built\n")
        let warned = try checkWarnings(["--run", "--", "sh", "-c", "echo '\(repositoryRoot)/Tests/X.swift:1:2: warning: w'"])
        XCTAssertEqual(warned.status, 1, warned.output)
        XCTAssertTrue(warned.output.hasSuffix("  Tests/X.swift:1:2: warning: w\n"), warned.output)
    }

    // MARK: .ci/run

    /// Runs `.ci/run` with a `make` that prints `log` and exits with `makeStatus` (for `make
    /// test` and `make asan` alike).
    private func ciRun(printing log: String, makeStatus: Int32) throws -> (status: Int32, output: String) {
        let bin = NSTemporaryDirectory() + "lodestone-ci-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: bin) }
        try "#!/bin/sh\ncat '\(logs + log)'\nexit \(makeStatus)\n".write(toFile: bin + "/make", atomically: true, encoding: .utf8)
        chmod(bin + "/make", 0o755)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return try run([repositoryRoot + "/.ci/run"], environment: environment)
    }

    func testCIRunEndsWithTheSummaryAndPassesAGreenRun() throws {
        let (status, output) = try ciRun(printing: "skipped.log", makeStatus: 0)
        XCTAssertEqual(status, 0)
        XCTAssertTrue(output.hasSuffix("\nasan: 5 passed, 0 failed, 2 skipped"
                                       + "\ntests: 451 passed, 0 failed, 182 skipped (XCTest: 5 passed, 0 failed, 2 skipped; wlcs: 446 passed, 0 failed, 180 skipped)"
                                       + "\nall: 456 passed, 0 failed, 184 skipped\n"),
                      String(output.suffix(300)))
    }

    /// The pipe into tee does not hide make's status.
    func testCIRunFailsWithMakesStatusEvenWhenTheLogLooksGreen() throws {
        XCTAssertEqual(try ciRun(printing: "skipped.log", makeStatus: 2).status, 2)
    }

    func testCIRunFailsWhenATotalIsMissingEvenIfMakeSucceeded() throws {
        let (status, output) = try ciRun(printing: "crashed.log", makeStatus: 0)
        XCTAssertEqual(status, 2)
        XCTAssertTrue(output.contains("\ntests: incomplete (XCTest: no total"), String(output.suffix(300)))
    }

    /// Sharded: the totals of both runs are the shards' added up.
    func testCIRunAddsUpTheShards() throws {
        let (status, output) = try ciRun(printing: "sharded.log", makeStatus: 0)
        XCTAssertEqual(status, 0)
        XCTAssertTrue(output.hasSuffix("\nasan: 3 passed, 0 failed, 0 skipped"
                                       + "\ntests: 449 passed, 0 failed, 180 skipped (XCTest: 3 passed, 0 failed, 0 skipped; wlcs: 446 passed, 0 failed, 180 skipped)"
                                       + "\nall: 452 passed, 0 failed, 180 skipped\n"),
                      String(output.suffix(300)))
        XCTAssertEqual(try ciRun(printing: "sharded-crashed.log", makeStatus: 0).status, 2)
    }
}
