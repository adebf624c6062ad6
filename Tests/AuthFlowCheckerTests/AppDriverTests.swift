import AuthFlow
@testable import AuthFlowChecker
import Foundation
import PropertyTesting
import Testing

/// The app driver's fast paths say what the slow ones say: a frame compared in one call, data sent from its cache, the typed-value and probe tables.
@Suite struct AppDriverTests {
    static let spec = """
    { "format": "authflow/1", "initial": "start", "success": ["done"], "abort": [],
      "steps": { "start": { "back": false, "emits": { "go": [] } },
                 "email": { "emits": { "submit": ["email"] } },
                 "code": { "requires": ["email"], "emits": { "verify": ["token"] } },
                 "done": { "requires": ["token"] } },
      "transitions": [ { "from": "start", "on": "go", "to": "email" }, { "from": "email", "on": "submit", "to": "code" },
                       { "from": "code", "on": "verify", "to": "done" } ] }
    """

    /// A spec whose first event adds `count` keys and whose second adds one more, for the comparison by lookups (more than 16 keys).
    static func wideSpec(keys count: Int) -> String {
        let keys = (0..<count).map { "\"k\($0)\"" }.joined(separator: ", ")
        return """
        { "format": "authflow/1", "initial": "start", "success": ["done"], "abort": [],
          "steps": { "start": { "back": false, "emits": { "go": [\(keys)] } },
                     "code": { "emits": { "submit": ["k\(count)"] } }, "done": {} },
          "transitions": [ { "from": "start", "on": "go", "to": "code" }, { "from": "code", "on": "submit", "to": "done" } ] }
        """
    }

    /// A coordinator the test can also put in any frame by hand; `received` is the data each accepted event carried.
    final class Puppet: FlowUnderTest {
        let model: FlowModel
        var state: String
        var data: [String: String] = [:]
        var history: [(String, [String: String])] = []
        var received: [[String: String]] = []
        init(model: FlowModel) {
            self.model = model
            self.state = model.states[model.initial.index]
        }
        func send(_ event: String, data: [String: String]) -> Bool {
            guard let from = model.state(named: state), let id = model.event(named: event),
                  let target = model.moves[from.index].first(where: { $0.event == id })?.target else { return false }
            history.append((state, self.data))
            received.append(data)
            state = model.states[target.index]
            self.data.merge(data) { _, new in new }
            return true
        }
        func back() -> Bool {
            guard let last = history.popLast() else { return false }
            (state, self.data) = last
            return true
        }
    }

    /// The walk's value for `key` sent at `height` by `event`.
    static func token(_ height: Int, _ event: EventID, _ key: KeyID) -> Int {
        RuntimeExplorer.token(height: height, event: event, key: key)
    }

    /// Whether `driver` is at `(state, keys)` with `values`, asked both ways; fails the test when the two ways disagree.
    /// As in the walk, a key outside the frame is asked for -1.
    static func isAt(_ driver: ErasedAppDriver, _ model: FlowModel, _ state: String, _ values: [KeyID: Int],
                     sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Bool {
        let id = model.state(named: state)!
        let keys = KeySet(values.keys)
        let tokens = (0..<model.keys.count).map { values[KeyID($0)] ?? -1 }
        let fast = tokens.withUnsafeBufferPointer { driver.isAt(id, keys: keys, values: $0.baseAddress!, packed: 0) }
        let slow = FrameComparator(model: model).compare(driver, state: id.rawValue, height: nil, keys: keys.bits,
                                                         expected: { .int(values[$0]!) }, display: { "\($0)" }) == nil
        #expect(fast == slow, "isAt says \(fast), the frame comparator \(slow)", sourceLocation: sourceLocation)
        return fast
    }

    /// Every way an app's frame can differ is caught by the one-call comparison, as by the comparator.
    @Test(arguments: [false, true])
    func aFrameComparedInOneCallCatchesEveryDifference(wide: Bool) throws {
        let model = try SpecLoader.load(json: wide ? Self.wideSpec(keys: 17) : Self.spec)
        let puppet = Puppet(model: model)
        let driver = FlowConformance(model: model) { puppet }.driver()
        // Sent with the walk's values: the frame the spec expects after each event.
        var expected: [KeyID: Int] = [:]
        let events = wide ? ["go"] : ["go", "submit"]   // to code, holding email or k0 … k16
        for (i, name) in events.enumerated() {
            let event = model.event(named: name)!
            #expect(driver.send(event) { .int(Self.token(i + 2, event, $0)) })
            for move in model.moves.joined() where move.event == event {
                for key in move.addedKeys { expected[key] = Self.token(i + 2, event, key) }
            }
        }
        let state = "code"
        let key = model.key(named: wide ? "k0" : "email")!, other = model.key(named: wide ? "k17" : "token")!
        #expect(Self.isAt(driver, model, state, expected))

        let (savedState, savedData) = (puppet.state, puppet.data)
        let (name, otherName) = (model.keys[key.index], model.keys[other.index])
        let mutations: [(String, (Puppet) -> Void)] = [
            ("another state", { $0.state = "start" }),
            ("a state the spec does not name", { $0.state = "nowhere" }),
            ("a key missing", { $0.data[name] = nil }),
            ("a key the frame does not hold", { $0.data[otherName] = "1" }),
            ("a key the frame does not hold instead of one it does", { ($0.data[name], $0.data[otherName]) = (nil, $0.data[name]) }),
            ("a key the frame does not hold instead of one it does, with the value asked for it",
             { ($0.data[name], $0.data[otherName]) = (nil, "-1") }),
            ("a key the spec does not name", { $0.data["stray"] = "x" }),
            ("another key's value", { $0.data[name] = "\(expected[key]! + 1)" }),
            ("a value never sent", { $0.data[name] = "typed by hand" }),
        ]
        for (what, mutate) in mutations {
            mutate(puppet)
            #expect(!Self.isAt(driver, model, state, expected), "\(what) went unnoticed")
            (puppet.state, puppet.data) = (savedState, savedData)
        }
        // The value another event would have sent from the same height is another value.
        var sentByAnother = expected
        sentByAnother[key] = Self.token(events.count + 1, EventID(Int32(model.events.count)), key)
        #expect(!Self.isAt(driver, model, state, sentByAnother))
        #expect(Self.isAt(driver, model, state, expected))
    }

    /// Two app states the spec calls by one name are both that state.
    @Test func appStatesSharingASpecNameAreOneState() throws {
        final class Aliased: FlowUnderTest {
            enum Screen: FlowName {
                case start, email, emailAgain, code, done
                var flowName: String { self == .emailAgain ? "email" : "\(self)" }
            }
            var state = Screen.start
            var data: [String: String] = [:]
            func send(_ event: String, data: [String: String]) -> Bool { false }
            func back() -> Bool { false }
        }
        let model = try SpecLoader.load(json: Self.spec)
        let app = Aliased()
        let driver = FlowConformance(model: model) { app }.driver()
        app.state = .email
        #expect(Self.isAt(driver, model, "email", [:]))
        app.state = .emailAgain
        #expect(Self.isAt(driver, model, "email", [:]))
        #expect(!Self.isAt(driver, model, "code", [:]))
    }

    /// Data sent again from the same height and step is the data of this send, whatever was sent there before.
    @Test func dataIsSentWithTheValuesOfEachSend() throws {
        let model = try SpecLoader.load(json: Self.spec)
        let puppet = Puppet(model: model)
        let driver = FlowConformance(model: model) { puppet }.driver()
        let (go, submit) = (model.event(named: "go")!, model.event(named: "submit")!)
        #expect(driver.send(go) { _ in .int(0) })
        let values: [FlowValue] = [.int(7), .int(7), .int(8), .string("typed"), .int(7)]
        // The email key gets email addresses, one per value the checker sends, and each is recognised coming back.
        var typed: [FlowValue: String] = [:]
        for value in values {
            #expect(driver.send(submit) { _ in value })
            let received = try #require(puppet.received.last?["email"])
            #expect(received == typed[value, default: received] && received.hasSuffix("@example.com"), "\(received)")
            typed[value] = received
            #expect(driver.value(of: model.key(named: "email")!) == value)
            #expect(driver.undo())
        }
        #expect(Set(typed.values).count == typed.count)
    }

    /// The typed-value table finds every value it was given, and nothing else.
    @Test func theTokenTableIsADictionary() {
        var table = TokenTable<String>()
        var reference: [Int: String] = [:]
        var generator = SplitMix64(seed: 11)
        for i in 0..<2_000 {
            // Tokens as the walk makes them, and arbitrary ones.
            let token = i.isMultiple(of: 2) ? RuntimeExplorer.token(height: i % 66, event: EventID(i % 40), key: KeyID(i % 64))
                : Int(truncatingIfNeeded: generator.next())
            table.insert("v\(i)", for: token)
            reference[token] = "v\(i)"
        }
        table.insert("never", for: .min)
        for (token, value) in reference { #expect(table.value(for: token) == value) }
        #expect(table.value(for: .min) == nil)
        #expect(table.value(for: 123_456_789) == reference[123_456_789])
    }

    /// The probe record finds every configuration's height, and nothing else.
    @Test func probeDepthsAreADictionary() {
        var depths = ProbeDepths()
        var reference: [Configuration: Int] = [:]
        var generator = SplitMix64(seed: 5)
        for i in 0..<5_000 {
            let configuration = Configuration(state: Int32(generator.next() % 40), keys: generator.next() & 0xFF,
                                              values: i.isMultiple(of: 3) ? generator.next() % 4 : 0)
            let height = Int(generator.next() % 30) + 1
            depths[configuration] = height
            reference[configuration] = height
        }
        for (configuration, height) in reference { #expect(depths[configuration] == height) }
        #expect(depths[Configuration(state: 41, keys: 0)] == nil)
    }
}
