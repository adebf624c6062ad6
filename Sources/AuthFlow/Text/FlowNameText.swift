/// How runtime errors print a state, event or data key: by its ``FlowName/flowName`` when its type
/// has one (`session`, not `SignInApp.DataKey.session`), else as `String(describing:)` gives it.
///
/// ```swift
/// FlowNameText.name(SignInApp.DataKey.session)        // "session"
/// FlowNameText.keys([DataKey.email, DataKey.account])  // "{email, account}", as reports print data
/// ```
enum FlowNameText {
    /// The name of one state, event or key.
    static func name(_ value: Any) -> String {
        (value as? any FlowName)?.flowName ?? String(describing: value)
    }

    /// Data keys as reports print a set of them: `{email, account}`.
    static func keys<Key>(_ keys: [Key]) -> String {
        "{" + keys.map { name($0) }.joined(separator: ", ") + "}"
    }
}
