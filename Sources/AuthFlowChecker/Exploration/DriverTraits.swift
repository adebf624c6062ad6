/// What the searches may ask of the implementation under test, and what they call it.
///
/// The built-in runtime answers questions about its own bookkeeping (its history height, which
/// events it would accept, whether back is possible), so the searches compare those too. An app's
/// own coordinator answers none of them: the searches then judge it only by what it does (its
/// state and data after every action, what it accepts and refuses) and, since its table is its
/// own, also send it every event a step does not emit, which it must refuse without change. The
/// walk probes either (those events, and back where the spec forbids it) once per configuration,
/// at the shallowest stack that reaches it; an app's stack is then replayed on a fresh instance: a
/// refused probe may change what the app keeps hidden, and every path the walk prints must replay.
///
/// ```swift
/// let explorer = RuntimeExplorer(model: model, traits: .app)   // frames and behaviour only
/// ```
struct DriverTraits: Hashable, Sendable {
    /// Whether the driver's history height, enabled events and back answer are compared with the model.
    var readsInternals: Bool
    /// Whether every event the model knows is sent where the spec has no row for it, not only
    /// the events a step emits without a transition.
    var probesEveryEvent: Bool
    /// How findings name the implementation: `the runtime`, `the implementation`.
    var subject: String

    /// The built-in runtime: every question asked, only the emitted events probed.
    static let runtime = DriverTraits(readsInternals: true, probesEveryEvent: false, subject: "the runtime")
    /// An app's own implementation: judged by its frames and behaviour, every event probed.
    static let app = DriverTraits(readsInternals: false, probesEveryEvent: true, subject: "the implementation")
}
