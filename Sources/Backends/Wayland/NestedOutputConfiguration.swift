import LodestoneCompositor
import LodestoneSystem

/// Nested, the window is the head: its mode is the window's size, its scale the parent
/// output's, and there is nothing beside it. So an arrangement that changes nothing but the
/// place succeeds (the one head is at the origin whatever it is told), and any other is
/// refused (`failed`) with the reason: resize the window instead, or move it to another
/// output of the parent.
final class NestedOutputConfiguration: OutputConfigurator {
    func refusal(of configuration: [HeadConfiguration]) -> String? {
        for c in configuration {
            if !c.isEnabled { return "nested, the window is the head: it cannot be switched off" }
            if !c.mode.matches(c.head.mode) { return "nested, the head's mode is the window's size: resize the window instead" }
            if c.scale != c.head.scale { return "nested, the head's scale is the parent output's: move the window to an output of another scale" }
            if c.transform != c.head.transform { return "nested, the window cannot be turned" }
        }
        return nil
    }

    func apply(_ configuration: [HeadConfiguration]) throws(SystemError) {}
    func arranged() {}
}
