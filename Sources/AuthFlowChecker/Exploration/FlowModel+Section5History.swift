import AuthFlow

extension FlowModel {
    /// Whether the flow has section 5's history keys: a server-side key, or a row that updates the screen in place.
    ///
    /// The user's back is then not the exact undo of the last move (server-side data stays, in-place updates go with the
    /// screen they updated), so the searches backtrack an app by its undo, snapshots or a replay, never by its back.
    /// - Complexity: O(rows).
    var usesSection5History: Bool {
        layout.hasServerKeys || emissions.joined().contains { $0.rows.contains(where: \.replace) }
    }
}
