@testable import AuthFlow
import Testing

/// The tables a machine and a session keep several ways agree after every kind of change.
@Suite struct StorageInvariantTests {
    /// Enough transitions to grow the dense table several times, for dense ids and for strings.
    static let chain = 100

    @Test func aMachineOfDenseIdsKeepsItsTablesInAgreement() throws {
        let machine = try StateMachine<StateID, EventID>(initial: StateID(0), transitions: [])
        machine._checkInvariants()
        for state in 0..<Self.chain {
            try machine.add(Transition(from: StateID(state), on: EventID(state % 7), to: StateID(state + 1)))
            try machine.add(Transition(from: StateID(state), on: EventID(state % 7), to: StateID(state + 1)))   // identical: ignored
            machine._checkInvariants()
        }
        try machine.send(EventID(0))
        try machine.send(EventID(1))
        try machine.undo()
        machine._checkInvariants()
        machine.reset()
        machine._checkInvariants()
        #expect(machine.transitions.count == Self.chain)
    }

    @Test func aMachineOfStringsKeepsItsTablesInAgreement() throws {
        let machine = try StateMachine<String, String>(initial: "s0", transitions: (0..<Self.chain).map {
            Transition(from: "s\($0)", on: "e\($0 % 7)", to: "s\($0 + 1)")
        })
        machine._checkInvariants()
        #expect(throws: TransitionError<String, String>.self) {
            try machine.add(Transition(from: "s0", on: "e0", to: "s2"))
        }
        machine._checkInvariants()
        try machine.send("e0")
        machine._checkInvariants()
    }

    @Test func sessionsOverEverySpecKeepTheirTablesInAgreement() throws {
        #expect(!SpecLoaderTests.specs.isEmpty)
        for path in SpecLoaderTests.specs {
            let model = try SpecLoader.load(file: path)
            let session = model.makeSession()
            session._checkInvariants()
            for move in model.moves[model.initial.index] where move.target != nil {
                try session.send(move.event) { _ in .string("x") }
                session._checkInvariants()
                try session.undo()
            }
            model.makeNamedSession()._checkInvariants()
        }
    }
}
