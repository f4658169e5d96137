@testable import LodestoneCompositor
import XCTest

/// A Latin word written after a word gets a space, as iPadOS puts one; nothing else does.
final class ScribbleTextTests: XCTestCase {
    func testASpaceAfterALetterDigitOrPunctuation() {
        XCTAssertEqual(ScribbleText.separated("hello", after: ("abc", 3, 3)), " hello")
        XCTAssertEqual(ScribbleText.separated("hello", after: ("end.", 4, 4)), " hello")
        XCTAssertEqual(ScribbleText.separated("42", after: ("page", 4, 4)), " 42")
    }

    func testNoSpaceWhereNoneBelongs() {
        XCTAssertEqual(ScribbleText.separated("hello", after: nil), "hello", "no surrounding text reported")
        XCTAssertEqual(ScribbleText.separated("hello", after: ("", 0, 0)), "hello", "an empty field")
        XCTAssertEqual(ScribbleText.separated("hello", after: ("abc ", 4, 4)), "hello", "after a space")
        XCTAssertEqual(ScribbleText.separated("hello", after: ("abc", 0, 0)), "hello", "the caret at the start")
        XCTAssertEqual(ScribbleText.separated("本", after: ("abc", 3, 3)), "本", "Japanese takes no spaces")
        XCTAssertEqual(ScribbleText.separated("hello", after: ("日本", 6, 6)), "hello", "after Japanese")
        XCTAssertEqual(ScribbleText.separated(".", after: ("abc", 3, 3)), ".", "punctuation written after a word")
    }
}
