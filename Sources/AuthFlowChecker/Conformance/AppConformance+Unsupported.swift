import AuthFlow

extension AppConformance {
    /// The first construct of `model` that checking an app's own coordinator does not take yet, as an issue at its place.
    ///
    /// Section 5's history keys change what the user's back does (server-side data stays, in-place updates go with the
    /// screen they updated); the walk backtracks an app by its own back and compares it with the frame below, so it
    /// would report an app that does exactly what the spec says. Until the walk models them, the gate says so.
    static func unsupported(_ model: FlowModel) -> SpecIssue? {
        let advice = "; check the spec itself with FlowGate.assertHolds (which decides these keys completely), and the app "
            + "against a version of the spec without them"
        for declaration in model.spec.data where declaration.server {
            let path = "$.data.\(declaration.key).server"
            return SpecIssue(path: path, location: model.locations[path], message: "checking an app's own coordinator against a "
                             + "server-side key ('\(declaration.key)': back keeps it) is not supported yet" + advice)
        }
        for (i, row) in model.spec.transitions.enumerated() where row.replace {
            let path = "$.transitions[\(i)].history"
            return SpecIssue(path: path, location: model.locations[path], message: "checking an app's own coordinator against a row "
                             + "that updates the screen in place (\"history\": \"replace\") is not supported yet" + advice)
        }
        for (i, entry) in model.spec.anywhere.enumerated() where entry.replace {
            let path = "$.anywhere[\(i)].history"
            return SpecIssue(path: path, location: model.locations[path], message: "checking an app's own coordinator against an "
                             + "anywhere entry that updates the screen in place (\"history\": \"replace\") is not supported yet" + advice)
        }
        return nil
    }
}
