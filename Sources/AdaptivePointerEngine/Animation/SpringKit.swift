/// Every spring the engine uses, with its transition for the current frame's `dt`. Transitions
/// are recomputed only when `dt` or the settings change, so a steady frame costs a few
/// multiplications per animated value.
struct SpringKit: Sendable {
    struct Transitions: Sendable {
        var shape = SpringTransition.identity
        var customMorph = SpringTransition.identity
        var accessory = SpringTransition.identity
        var text = SpringTransition.identity
        var mouseRecenter = SpringTransition.identity
        var trackpadRecenter = SpringTransition.identity
        var press = SpringTransition.identity
        var visibility = SpringTransition.identity
        var quickFade = SpringTransition.identity
        var shake = SpringTransition.identity

        func recenter(_ device: DeviceKind) -> SpringTransition {
            device == .mouse ? mouseRecenter : trackpadRecenter
        }
    }

    private var tuning: PointerTuning
    private var reduceMotion: Bool
    private var dt = -1.0
    private(set) var now = Transitions()

    init(settings: PointerSettings) {
        tuning = settings.tuning
        reduceMotion = settings.reduceMotion
    }

    mutating func update(settings: PointerSettings) {
        tuning = settings.tuning
        reduceMotion = settings.reduceMotion
        dt = -1
    }

    mutating func prepare(dt newDt: Double) {
        // Frame intervals worked out from instants in floating point differ in their last
        // bits from one frame to the next: within a nanosecond it is the same step, and the
        // ten transitions (an exp and a cos or cosh each) are not worked out again.
        guard abs(newDt - dt) > 1e-9 else { return }
        dt = newDt
        func m(_ s: Spring) -> SpringTransition {
            (reduceMotion ? s.withoutOvershoot : s).transition(over: newDt)
        }
        now = Transitions(shape: m(tuning.shapeSpring), customMorph: m(tuning.customMorphSpring),
                          accessory: m(tuning.accessorySpring), text: m(tuning.textSpring),
                          mouseRecenter: m(tuning.mouseRecenterSpring),
                          trackpadRecenter: m(tuning.trackpadRecenterSpring),
                          press: m(tuning.pressSpring), visibility: m(tuning.visibilitySpring),
                          quickFade: m(tuning.quickFadeSpring), shake: m(tuning.shakeSpring))
    }
}
