/// `[scribble]` in config.toml: handwriting in text fields with the pen (issue 40). Here so
/// that LodestoneConfig and the compositor share it without depending on each other.
public struct ScribbleSettings: Hashable, Sendable {
    /// The languages written, first first: `en` (Latin script, Tesseract), `ja` and `zh`
    /// (Zinnia with the Tegaki models). The first one's recogniser reads the ink; the next
    /// ones are asked only when it finds nothing.
    public var languages = ["en"]
    /// How long the pen rests before what it wrote is recognised, in seconds.
    public var pause = 0.6
    /// Off: the pen's strokes reach apps as tablet events everywhere, as before Scribble.
    public var enabled = true

    /// The languages a recogniser is shipped for.
    public static let knownLanguages = ["en", "ja", "zh"]
    /// The pause's range: shorter cuts words in two, longer feels stuck.
    public static let pauseRange = 0.2...3.0

    public init() {}
}
