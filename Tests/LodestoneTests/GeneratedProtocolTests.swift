import XCTest

/// The committed wayland-scanner output must match a fresh regeneration.
final class GeneratedProtocolTests: XCTestCase {
    func testCommittedProtocolCodeMatchesRegeneration() throws {
        let (status, output) = try run(["bash", repositoryRoot + "/Scripts/generate-protocols", "--check"], directory: repositoryRoot)
        XCTAssertEqual(status, 0, "regenerate with Scripts/generate-protocols:\n\(output)")
    }
}
