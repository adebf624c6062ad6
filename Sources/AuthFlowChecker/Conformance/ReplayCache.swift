import AuthFlow
import Foundation

/// What ``FlowConformance/replay(_:)`` reuses from one call to the next: the fuzzer (with the flow's analysis) and the app's driver.
///
/// Made on the first replay and kept: each later replay starts the same driver again on a
/// fresh app (``FlowDriver/start(variant:)``), so it costs the path's own steps, not a new
/// analysis of the flow and a new driver's tables (55 µs for a 4-step path before, most of it
/// the analysis). Copies of one ``FlowConformance`` share it; a replay that finds it in use (on
/// another thread, or from inside a replay) makes its own, as every replay did before.
final class ReplayCache: @unchecked Sendable {
    private let lock = NSLock()
    /// The fuzzer replays run on, with the capability setting its driver was made for.
    private var cached: (usesCapabilities: Bool, fuzzer: FlowFuzzer)?

    /// `body`'s result on the cached fuzzer of `checks` (made now if there is none for its capability setting).
    func withFuzzer<T>(_ checks: AppConformance, _ body: (FlowFuzzer) -> T) -> T {
        guard lock.try() else { return body(checks.fuzzer()) }
        defer { lock.unlock() }
        if let cached, cached.usesCapabilities == checks.usesCapabilities { return body(cached.fuzzer) }
        let driver = checks.driver()
        let fuzzer = FlowFuzzer(model: checks.model, traits: .app) { driver }
        cached = (checks.usesCapabilities, fuzzer)
        return body(fuzzer)
    }
}
