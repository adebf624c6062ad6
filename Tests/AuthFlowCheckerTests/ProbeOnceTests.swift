import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Testing

/// The walk probes every implementation once per configuration, at the shallowest stack that reaches it: what the
/// runtime accepts, what it refuses, and back where the spec forbids it. Its frame is still compared at every stack.
@Suite struct ProbeOnceTests {
    /// The real runtime, counting the probes the walk makes: a back where the spec forbids it is only ever a probe
    /// (the walk backtracks by undo), and so is a question about one event.
    final class Counted: ForwardingDriver {
        var backs = 0
        var questions = 0
        override func back() -> Bool {
            backs += 1
            return real.back()
        }
        override func canHandle(_ event: EventID) -> Bool {
            questions += 1
            return real.canHandle(event)
        }
    }

    @Test(arguments: Fixture.realSpecs)
    func theRuntimeIsProbedAtFewStacksNotAtEach(_ path: String) throws {
        let model = try SpecLoader.load(file: Fixture.url(path).path)
        let depth = 10
        let driver = Counted(model: model)
        let walked = RuntimeExplorer(model: model).explore(driver, depth: depth)
        #expect(walked.violations.isEmpty)
        let configurations = ConfigurationGraph(model: model, edges: false).configurations.count
        let events = model.events.count
        // Each configuration is probed at its first stack and again only where a shorter stack reaches it: at most once
        // per height. Probing every stack asked back and every event millions of times on these flows.
        #expect(driver.backs <= configurations * (depth + 1), "\(driver.backs) backs for \(configurations) configurations")
        #expect(driver.questions <= configurations * (depth + 1) * events)
        if walked.stacks > 10_000 { #expect(driver.backs < walked.stacks / 4, "\(driver.backs) backs over \(walked.stacks) stacks") }
    }
}
