import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Testing

/// The `authflow/2` walk's per-configuration table and its frame comparison: emptying the table
/// changes nothing the walk finds, and the built-in runtime's data compared in place agrees with
/// the comparison through the driver's values.
@Suite struct WalkTableTests {
    static func model() throws -> FlowModel { try Version2Tests.load(Version2Tests.fixture()) }

    /// Walks `driver` with a table of `capacity` configurations (`nil`: the default); the result and how often the table was emptied.
    func walk<Driver: FlowDriver>(_ model: FlowModel, _ driver: Driver, depth: Int, capacity: Int?) -> (RuntimeExploration, Int) {
        var walk = Walk(model: model, driver: driver, traits: .runtime, depth: depth, deadline: nil, timeout: nil,
                             tableCapacity: capacity, start: { driver.start(variant: $0) })
        walk.runAll()
        return (walk.result(), walk.table.emptied)
    }

    func summary(_ exploration: RuntimeExploration) -> [String] {
        exploration.violations.map { "\($0.property.id) \($0.state ?? "-") \($0.event ?? "-") \($0.path.map(\.event))" }
    }

    @Test(arguments: [1, 5, 8])
    func emptyingTheTableChangesNothingTheWalkFinds(depth: Int) throws {
        let model = try Self.model()
        let drivers: [() -> any FlowDriver] = [
            { SessionDriver(model: model) },
            { Version2WalkTests.AlwaysDone(model: model) },
            { Version2WalkTests.KeepsEmail(model: model) },
            { Version2WalkTests.SignOutKeepsHistory(model: model) },
        ]
        for (index, make) in drivers.enumerated() {
            let (whole, wholeEmptied) = walk(model, make(), depth: depth, capacity: nil)
            let (small, smallEmptied) = walk(model, make(), depth: depth, capacity: 1)
            #expect(wholeEmptied == 0, "driver \(index)")
            #expect(smallEmptied > 0, "driver \(index)")
            #expect(small.stacks == whole.stacks, "driver \(index)")
            #expect(summary(small) == summary(whole), "driver \(index)")
            #expect(small.violations.map(\.message) == whole.violations.map(\.message), "driver \(index)")
        }
        // The real runtime walks every stack of the configuration graph.
        #expect(walk(model, SessionDriver(model: model), depth: depth, capacity: 1).0.stacks
                == RuntimeExplorer(model: model).countStacks(depth: depth))
    }

    /// Every frame a comparison could expect after each step of a path, for both ways of comparing.
    @Test func theSessionsDataComparedInPlaceAgreesWithItsValues() throws {
        let model = try Self.model()
        let session = SessionDriver(model: model)
        let forwarded = ForwardingDriver(model: model)   // not a SessionDriver: compared through value(of:)
        let expectedA = UnsafeMutablePointer<Int>.allocate(capacity: model.keys.count)
        let expectedB = UnsafeMutablePointer<Int>.allocate(capacity: model.keys.count)
        defer { expectedA.deallocate(); expectedB.deallocate() }
        let table = FrameValueTable(layout: model.layout, keyCount: model.keys.count)
        let inPlace = FrameMatcher(table: table, driver: session, readsInternals: true, expected: expectedA)
        let throughValues = FrameMatcher(table: table, driver: forwarded, readsInternals: true, expected: expectedB)
        #expect(inPlace.session != nil && throughValues.session == nil)

        let layout = model.layout
        let email = try #require(model.key(named: "email")).index
        let nextStep = try #require(model.key(named: "nextStep")).index
        let attempts = try #require(model.key(named: "attempts")).index
        let token = 7 << 32
        let path: [(event: String, value: FlowValue?)] = [
            ("begin", .int(token)), ("wrongPassword", nil), ("wrongPassword", nil), ("submitted", .string("confirmTotp")),
        ]
        func compareEveryCandidate() -> (matched: Int, refused: Int) {
            var matched = 0, refused = 0
            for bits in 0..<UInt64(8) {
                let data = (bits & 1 != 0 ? UInt64(1) << UInt64(email) : 0) | (bits & 2 != 0 ? UInt64(1) << UInt64(nextStep) : 0)
                    | (bits & 4 != 0 ? UInt64(1) << UInt64(attempts) : 0)
                for step in 0..<3 {
                    for count in 0...3 {
                        for emailToken in [-1, token, token + 1] {
                            expectedA[email] = emailToken
                            expectedB[email] = emailToken
                            let values = layout.setting(attempts, to: count, in: layout.setting(nextStep, to: step, in: 0))
                            let a = inPlace.matchesData(values: values, bits: data)
                            let b = throughValues.matchesData(values: values, bits: data)
                            #expect(a == b, "bits \(data) nextStep \(step) attempts \(count) email \(emailToken)")
                            if a { matched += 1 } else { refused += 1 }
                        }
                    }
                }
            }
            return (matched, refused)
        }
        // Some candidates are the frame, most are not (the count is compared apart): both comparisons say which, alike.
        var counts = [compareEveryCandidate()]
        for (event, value) in path {
            let id = try #require(model.event(named: event))
            let sent = (session.send(id) { _ in value ?? .int(0) }, forwarded.send(id) { _ in value ?? .int(0) })
            #expect(sent == (true, true), "\(event)")
            counts.append(compareEveryCandidate())
        }
        #expect(counts.allSatisfy { $0.matched > 0 && $0.refused > $0.matched }, "\(counts)")
    }
}
