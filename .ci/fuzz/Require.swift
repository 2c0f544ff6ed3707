// Shared by every fuzz harness (compiled into each by .ci/fuzz/run).

/// Traps with `message` when `condition` fails: unlike `precondition`, in optimised builds too
/// the message reaches the crash log.
func require(_ condition: Bool, _ message: @autoclosure () -> String = "") {
    if !condition { fatalError(message()) }
}
