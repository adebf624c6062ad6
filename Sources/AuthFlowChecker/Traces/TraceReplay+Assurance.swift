import AuthFlow

/// Section 6 on recorded sessions: a screen that asks for an assurance level, entered with factor keys below it.
///
/// The keys are the ones the session's records say the app held (each transition's `added` and `cleared`),
/// as the requirement check reads them, so the finding is about what production did, not what the spec
/// would have done; a session whose records carry no data is not judged. The level is decided by
/// ``AssuranceCheck``, in the words the checker, the walk and the random tester use.
extension TraceReplay {
    /// Flags `frame`, just entered, when its recorded factor keys do not meet the level its step asks for.
    mutating func checkAssurance(_ slot: Int, _ frame: TraceFrame, line: Int) {
        let state = Int(frame.state)
        guard AssuranceCheck.breaks(model, state: state, keys: frame.recorded) else { return }
        let message = listing ? AssuranceCheck.message(model, state: state, keys: frame.recorded, subject: "the session") : nil
        finding(slot, .assurance, line: line, state: frame.state, message)
    }
}
