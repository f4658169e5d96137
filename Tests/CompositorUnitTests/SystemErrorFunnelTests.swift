import Glibc
import LodestoneSystem
import XCTest

/// errno is read in one place (LodestoneSystem/SystemError.swift): a failing call's errno
/// becomes a SystemError with its text, and a non-blocking read or write says whether it
/// moved bytes, would have blocked, or failed.
final class SystemErrorFunnelTests: XCTestCase {
    func testLastErrorNamesWhatFailedAndWhy() {
        XCTAssertEqual(open("/nonexistent/lodestone", O_RDONLY), -1)
        let error = SystemError.lastError("cannot open the file", call: "open")
        XCTAssertEqual(error.errnoCode, ENOENT)
        XCTAssertEqual(error.description, "cannot open the file: No such file or directory")
    }

    func testNonBlockingReadSaysWouldBlockThenBytesThenEndOfFile() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        XCTAssertEqual(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0)
        defer { close(fds[0]) }
        var buffer = [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(NonBlocking.run { read(fds[0], &buffer, buffer.count) }, .wouldBlock, "an empty pipe")
        XCTAssertEqual(NonBlocking.run { write(fds[1], "hi", 2) }, .done(2))
        XCTAssertEqual(NonBlocking.run { read(fds[0], &buffer, buffer.count) }, .done(2))
        close(fds[1])
        XCTAssertEqual(NonBlocking.run { read(fds[0], &buffer, buffer.count) }, .done(0), "the writer closed: end of file")
        XCTAssertEqual(NonBlocking.run { read(-1, &buffer, buffer.count) }, .failed(EBADF))
    }
}
