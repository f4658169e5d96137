import Foundation
import LodestoneTesting
import XCTest

/// `wp_presentation` with the pywayland client (Tests/clients/surface_client.py) on the
/// manual clock: a superseded update is discarded, a shown one is presented at the
/// frame clock's time with its refresh and a growing sequence.
final class PresentationTests: XCTestCase {
    private func read(_ path: String) -> [String] {
        textOfFile(path).split(separator: "\n").map(String.init)
    }

    func testFeedbackCarriesTheFrameClocksTime() throws {
        let session = try Session(manualClock: true)
        let log = session.runtimeDirectory + "/presentation.txt"
        try session.launch(["python3", repositoryRoot + "/Tests/clients/surface_client.py", "presentation"], output: log)
        // Mapping takes frames: the clock moves until the client has committed its updates.
        XCTAssertTrue(try session.wait(timeout: 20) {
            if self.read(log).contains("committed") { return true }
            try session.control.advanceClock(milliseconds: 16)
            return false
        }, "\(read(log))")
        XCTAssertTrue(read(log).contains("clock_id 1"), "CLOCK_MONOTONIC: \(read(log))")
        try session.control.advanceClock(milliseconds: 1000)
        let (first, _) = try session.control.advanceClock(milliseconds: 16)
        XCTAssertTrue(try session.wait { self.read(log).contains { $0.hasPrefix("feedback 2 ") } }, "\(read(log))")
        XCTAssertTrue(read(log).contains("feedback 1 discarded"), "the first update was superseded before any frame: \(read(log))")
        let two = try XCTUnwrap(read(log).first { $0.hasPrefix("feedback 2 ") }).split(separator: " ").map(String.init)
        // presented SEC NSEC REFRESH SEQ FLAGS OUTPUTS; the first frame after the commits ran
        // at the end of the 1000 ms advance.
        XCTAssertEqual(two[2], "presented")
        let atMilliseconds = Int(two[3])! * 1000 + Int(two[4])! / 1_000_000
        XCTAssertEqual(Int(two[4])! % 1_000_000, 0, "whole manual milliseconds")
        XCTAssertTrue(atMilliseconds > Int(first) - 1016 && atMilliseconds <= Int(first) - 16, "presented at \(atMilliseconds) ms, clock \(first)")
        XCTAssertEqual(two[5], "16000000", "60 Hz on the timer: a 16 ms refresh")
        XCTAssertEqual(two[7], "0", "no vsync headless")
        XCTAssertEqual(two[8], "1", "one sync_output: the client's wl_output")

        // A third update: presented by the next frame, exactly at the clock's time.
        XCTAssertTrue(try session.wait { self.read(log).filter { $0 == "committed" }.count == 2 }, "\(read(log))")
        let (now, _) = try session.control.advanceClock(milliseconds: 16)
        XCTAssertTrue(try session.wait { self.read(log).contains { $0.hasPrefix("feedback 3 ") } }, "\(read(log))")
        let three = try XCTUnwrap(read(log).first { $0.hasPrefix("feedback 3 ") }).split(separator: " ").map(String.init)
        XCTAssertEqual(three[2], "presented")
        // The client commits its third update when the second's frame is done: that commit
        // may reach Lodestone before the frame at `first` or after it, so the update is
        // shown by one of the two frames, at exactly that frame's time.
        let atThree = Int(three[3])! * 1000 + Int(three[4])! / 1_000_000
        XCTAssertEqual(Int(three[4])! % 1_000_000, 0, "whole manual milliseconds")
        XCTAssertTrue(atThree == Int(now) || atThree == Int(first), "presented at \(atThree) ms; frames ran at \(first) and \(now) ms")
        XCTAssertGreaterThan(Int(three[6])!, Int(two[6])!, "the sequence grows")
    }
}
