/// The switches that turn accessibility on in a command Lodestone starts itself
/// (`lodestone -- COMMAND`), for the toolkits that `org.a11y.Status` does not reach
/// (docs/accessibility.md, "Switching accessibility on").
///
/// Chromium publishes its window frames on the AT-SPI bus but neither its toolbar nor the web
/// page's tree unless it is told that assistive technology is there; on Debian 12 with
/// Chromium 156 neither `IsEnabled`, nor `ScreenReaderEnabled` (set before it starts or
/// while it runs), nor `ACCESSIBILITY_ENABLED=1` does it. Its own switch,
/// `--force-renderer-accessibility`, does: it is added to a command whose program is a
/// Chromium-based browser. (Firefox reads `IsEnabled`; GTK always publishes; Qt reads
/// `IsEnabled`: nothing to add for them.)
public enum AccessibilitySwitches {
    /// Programs that take Chromium's switches: Chromium, Chrome, and Debian's wrapper script.
    static let chromiumPrograms: Set<String> = ["chromium", "chromium-browser", "chrome", "google-chrome", "google-chrome-stable"]
    static let chromiumSwitch = "--force-renderer-accessibility"

    /// `command` with the switch its toolkit needs; unchanged for any other program.
    public static func command(_ command: [String]) -> [String] {
        guard let program = command.first?.split(separator: "/").last.map(String.init),
              chromiumPrograms.contains(program), !command.contains(where: { $0.hasPrefix(chromiumSwitch) }) else { return command }
        // Right after the program: Debian's wrapper stops reading options at a URL.
        return [command[0], chromiumSwitch] + command.dropFirst()
    }
}
