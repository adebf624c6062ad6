import AuthFlow

/// What replaying a path found: the first violation, at which step, with the path up to it.
public struct FuzzOutcome: Sendable {
    /// The violation, with the path of frames and values up to the breaking step.
    public var violation: Violation
    /// The violated site.
    public var site: Site
    /// The actions up to and including the breaking one.
    public var actions: [FuzzAction]
    /// The `authflow/2` variant the actions ran in (an index of ``FlowModel/variantNames``; 0 without config).
    public var variant: Int = 0
}
