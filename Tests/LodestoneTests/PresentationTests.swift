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
        // The clock moves until the window is mapped ('clock_id' is printed then), and no
        // further: once it is, the client commits its updates, and a frame run by the loop
        // presents them early (a loaded CI run advanced on until it read 'committed', and the
        // updates were presented at 64 and 80 ms). One advance can still race the client's
        // print, so the loop's last frame is kept.
        var lastLoopFrame: Int?
        XCTAssertTrue(try session.wait(timeout: 20) {
            if self.read(log).contains(where: { $0.hasPrefix("clock_id") }) { return true }
            lastLoopFrame = Int(try session.control.advanceClock(milliseconds: 16).0)
            return false
        }, "\(read(log))")
        XCTAssertTrue(try session.wait { self.read(log).contains("committed") }, "\(read(log))")
        XCTAssertTrue(read(log).contains("clock_id 1"), "CLOCK_MONOTONIC: \(read(log))")
        try session.control.advanceClock(milliseconds: 1000)
        let (first, _) = try session.control.advanceClock(milliseconds: 16)
        XCTAssertTrue(try session.wait { self.read(log).contains { $0.hasPrefix("feedback 2 ") } }, "\(read(log))")
        XCTAssertTrue(read(log).contains("feedback 1 discarded"), "the first update was superseded before any frame: \(read(log))")
        let two = try XCTUnwrap(read(log).first { $0.hasPrefix("feedback 2 ") }).split(separator: " ").map(String.init)
        // presented SEC NSEC REFRESH SEQ FLAGS OUTPUTS; the first frame after the commits ran
        // at the end of the 1000 ms advance, or was the loop's last one.
        XCTAssertEqual(two[2], "presented")
        let atMilliseconds = Int(two[3])! * 1000 + Int(two[4])! / 1_000_000
        XCTAssertEqual(Int(two[4])! % 1_000_000, 0, "whole manual milliseconds")
        XCTAssertTrue(atMilliseconds == lastLoopFrame || (atMilliseconds > Int(first) - 1016 && atMilliseconds <= Int(first) - 16),
                      "presented at \(atMilliseconds) ms, clock \(first), the loop's last frame at \(lastLoopFrame.map(String.init) ?? "none")")
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
        // When the loop's last frame showed the second, the third may be the 1000 ms advance's.
        let raced = atMilliseconds == lastLoopFrame && atThree == Int(first) - 16
        XCTAssertTrue(atThree == Int(now) || atThree == Int(first) || raced, "presented at \(atThree) ms; frames ran at \(first) and \(now) ms")
        XCTAssertGreaterThan(Int(three[6])!, Int(two[6])!, "the sequence grows")
    }
}
