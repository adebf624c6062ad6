/// What a finished walk found, whichever walk it was: how many stacks it drove, why it stopped, and its sites.
///
/// ``ParallelExplorer`` merges the walks of its workers through this, the static ``Walk`` and the
/// ``FrameWalk`` over frames alike, so both keep each site's first occurrence by one rule.
protocol WalkFindings {
    /// The stacks driven.
    var stacks: Int { get }
    /// The limit that stopped the walk, if one did.
    var stoppedBy: StopReason? { get }
    /// Each site's first occurrence, in the walk's own order.
    var sites: [Site: FoundViolation] { get }
}

extension Walk: WalkFindings {}
extension FrameWalk: WalkFindings {}
