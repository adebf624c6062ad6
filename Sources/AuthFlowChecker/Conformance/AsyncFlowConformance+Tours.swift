import AuthFlow

extension AsyncFlowConformance {
    /// As ``FlowConformance/problem(tour:chosen:variant:)``, every call of the app awaited: drives a fresh app through `tour`; what went wrong, or nil.
    ///
    /// What the `async` tests `authcheck paths --format swift --adapter TYPE --async` writes await, one per tour:
    ///
    /// ```swift
    /// #expect(await conformance.problem(tour: ["begin", "submitEmail", "accountFound"]) == nil)
    /// ```
    /// - Complexity: O(tour length) awaited actions of the app, plus one analysis of the flow per call.
    public func problem(tour: [String], chosen: [Int: [String: String]] = [:], variant: Int = 0) async -> String? {
        let checks = AppConformance(model: model, drivers: drivers)
        return await AsyncBridge.run { checks.fuzzer().tourProblem(tour, chosen: chosen, variant: variant) }
    }

    /// As ``FlowConformance/problem(trail:variant:site:)``, every call of the app awaited: drives a fresh app through `trail`; what went wrong, or nil.
    ///
    /// What the `async` tests `authcheck replay --format swift --adapter TYPE --async` writes await, one per trail:
    ///
    /// ```swift
    /// #expect(await conformance.problem(trail: [.event("begin"), .event("submitEmail"), .back], site: "divergence@email") == nil)
    /// ```
    /// - Complexity: O(trail length) awaited actions of the app, plus one analysis of the flow per call.
    public func problem(trail: [TrailStep], variant: Int = 0, site: String? = nil) async -> String? {
        let checks = AppConformance(model: model, drivers: drivers)
        return await AsyncBridge.run { checks.fuzzer().trailProblem(trail, variant: variant, site: site) }
    }
}
