import AuthFlow
import Testing

@Suite struct StateMachineTests {
    typealias Machine = StateMachine<String, String>
    typealias T = Transition<String, String>

    func makeMachine() throws -> Machine {
        try Machine(initial: "email", transitions: [
            T(from: "email", on: "knownEmail", to: "password"),
            T(from: "password", on: "wrongPassword", to: "password"),
            T(from: "password", on: "accepted", to: "done"),
        ])
    }

    @Test func sendReturnsTheWholeTransitionAndPushesTheTarget() throws {
        let machine = try makeMachine()
        let taken = try machine.send("knownEmail")
        #expect(taken == T(from: "email", on: "knownEmail", to: "password"))
        #expect(machine.history == ["email", "password"])
    }

    @Test func conflictingTransitionIsRefusedNotOverwritten() throws {
        let machine = try makeMachine()
        #expect(throws: TransitionError.conflictingTransition(
            existing: T(from: "email", on: "knownEmail", to: "password"),
            proposed: T(from: "email", on: "knownEmail", to: "signup"))) {
            try machine.add(T(from: "email", on: "knownEmail", to: "signup"))
        }
        #expect(machine.target(from: "email", on: "knownEmail") == "password")
        #expect(machine.transitions.count == 3)
        // An identical duplicate is accepted once.
        try machine.add(T(from: "email", on: "knownEmail", to: "password"))
        #expect(machine.transitions.count == 3)
    }

    @Test func conflictInTheInitialTableIsRefused() {
        #expect(throws: TransitionError<String, String>.self) {
            try Machine(initial: "a", transitions: [T(from: "a", on: "x", to: "b"), T(from: "a", on: "x", to: "c")])
        }
    }

    @Test func rejectedEventChangesNothingAndIsAValue() throws {
        let machine = try makeMachine()
        var seen: [MachineEvent<String, String>] = []
        machine.observe { seen.append($0) }
        #expect(throws: TransitionError.noTransition(from: "email", on: "accepted")) { try machine.send("accepted") }
        #expect(machine.history == ["email"])
        #expect(seen == [.rejected(.noTransition(from: "email", on: "accepted"))])
    }

    @Test func undoAtTheRootFailsWithoutTrapping() throws {
        let machine = try makeMachine()
        #expect(throws: TransitionError<String, String>.nothingToUndo(at: "email")) { try machine.undo() }
        #expect(machine.state == "email")
        #expect(!machine.canUndo)
    }

    @Test func selfLoopPushesAFrameAndUndoReturnsToExactlyThePreviousState() throws {
        let machine = try makeMachine()
        try machine.send("knownEmail")
        try machine.send("wrongPassword")
        #expect(machine.history == ["email", "password", "password"])
        #expect(try machine.undo() == "password")
        #expect(try machine.undo() == "email")
        #expect(machine.history == ["email"])
    }

    @Test func queriesAnswerWithoutMoving() throws {
        let machine = try makeMachine()
        #expect(machine.canSend("knownEmail"))
        #expect(!machine.canSend("accepted"))
        #expect(machine.enabledEvents == ["knownEmail"])
        #expect(machine.history == ["email"])
    }

    @Test func observersSeeEveryTransitionRejectionUndoAndReset() throws {
        let machine = try makeMachine()
        var seen: [MachineEvent<String, String>] = []
        machine.observe { seen.append($0) }
        try machine.send("knownEmail")
        _ = try? machine.send("nope")
        try machine.undo()
        machine.reset()
        #expect(seen == [
            .transitioned(T(from: "email", on: "knownEmail", to: "password")),
            .rejected(.noTransition(from: "password", on: "nope")),
            .undone(from: "password", to: "email"),
            .reset(to: "email"),
        ])
    }

    @Test func reentrantSendFromAnObserverIsRejectedNotInterleaved() throws {
        let machine = try makeMachine()
        var inner: Result<T, TransitionError<String, String>>?
        machine.observe { event in
            if case .transitioned = event, inner == nil {
                inner = Result { () throws(TransitionError<String, String>) -> T in try machine.send("wrongPassword") }
            }
        }
        try machine.send("knownEmail")
        #expect(machine.history == ["email", "password"])
        guard case .failure(.reentrantCall) = inner else {
            Issue.record("expected a re-entrant call error, got \(String(describing: inner))")
            return
        }
    }
}

@Suite struct DataStackTests {
    @Test func popRestoresExactlyThePreviousValuesAndAbsences() throws {
        var data = DataStack<String, FlowValue>()
        data.push([("email", "a@b.c")])
        data.push([("email", "x@y.z"), ("account", 7)])
        #expect(data.current == ["email": "x@y.z", "account": 7])
        try data.pop()
        #expect(data.current == ["email": "a@b.c"])
        try data.pop()
        #expect(data.current.isEmpty)
        #expect(throws: DataStackError.nothingToPop) { try data.pop() }
    }

    @Test func frameReportsWhatEachPushSet() {
        var data = DataStack<String, FlowValue>()
        data.push([("email", "a@b.c")])
        data.push([("email", "x@y.z")])
        #expect(data.frame(at: 0).map(\.value) == ["a@b.c"])
        #expect(data.frame(at: 1).map(\.value) == ["x@y.z"])
        #expect(data.frame(at: 5).isEmpty)
    }

    /// A pop leaves its log slots for the next push to reuse: nothing popped may show through, by name or by dense id.
    @Test func aPoppedFrameLeavesNothingBehind() throws {
        func check<Key: Hashable>(_ k: Key, _ j: Key) throws {
            var data = DataStack<Key, FlowValue>()
            data.push([(k, FlowValue.string("1"))])
            data.push([(k, FlowValue.string("2")), (j, FlowValue.string("3"))])
            try data.pop()
            #expect(data.frame(at: 0).map(\.value) == [FlowValue.string("1")])
            #expect(data.current == [k: FlowValue.string("1")] && data.count == 1)
            data.push([(j, FlowValue.string("4"))])
            #expect(data.frame(at: 1).map(\.value) == [FlowValue.string("4")])
            #expect(data.current == [k: FlowValue.string("1"), j: FlowValue.string("4")] && data.count == 2)
            try data.pop()
            try data.pop()
            #expect(data.current.isEmpty && data.count == 0 && data[k] == nil)
            data.push([(k, FlowValue.string("5")), (k, FlowValue.string("6"))])
            try data.pop()
            #expect(data.current.isEmpty && data.count == 0)
            // A frame written key by key into reused log slots: its writes, a removal, and the pops that undo them.
            data.push([(j, FlowValue.string("7"))])
            data.beginFrame()
            data.write(k, FlowValue.string("8"))
            data.write(j, nil)
            data.write(k, FlowValue.string("9"))
            #expect(data.current == [k: FlowValue.string("9")] && data.count == 1)
            #expect(data.frame(at: 0).map(\.value) == [FlowValue.string("7")])
            try data.pop()
            #expect(data.current == [j: FlowValue.string("7")] && data.count == 1)
            try data.pop()
            #expect(data.current.isEmpty && data.count == 0)
        }
        try check("k", "j")
        try check(KeyID(2), KeyID(0))
    }

    /// A copy of a stack is a value: changing one (a push, a write into the top frame, a pop, a reset) leaves the
    /// other as it was, by name or by dense id (the two share their memory until one of them changes).
    @Test func aCopyIsNotChangedByTheOriginal() throws {
        func check<Key: Hashable>(_ k: Key, _ j: Key) throws {
            var data = DataStack<Key, FlowValue>()
            data.push([(k, FlowValue.string("1"))])
            let copy = data
            data.push([(j, FlowValue.string("2"))])
            data.beginFrame()
            data.write(k, FlowValue.string("3"))
            #expect(copy.current == [k: FlowValue.string("1")] && copy.count == 1 && copy.depth == 1)
            var second = data
            try second.pop()
            try second.pop()
            #expect(data.current == [k: FlowValue.string("3"), j: FlowValue.string("2")] && data.depth == 3)
            #expect(second.current == [k: FlowValue.string("1")] && second.depth == 1)
            let third = data
            data.reset()
            #expect(third[k] == FlowValue.string("3") && third.frame(at: 1).map(\.value) == [FlowValue.string("2")])
            #expect(data.current.isEmpty && copy[k] == FlowValue.string("1"))
        }
        try check("k", "j")
        try check(KeyID(2), KeyID(0))
    }

    /// Removing a key that is absent changes nothing (the runtime clears every key a move may touch): what the
    /// stack answers, and what a pop restores, are those of a frame that never named it.
    @Test func removingAnAbsentKeyChangesNothing() throws {
        func check<Key: Hashable>(_ k: Key, _ j: Key, _ far: Key) throws {
            var data = DataStack<Key, FlowValue>()
            data.push([(k, FlowValue.string("1"))])
            data.beginFrame()
            data.write(j, nil)
            data.write(far, nil)
            data.write(k, nil)
            data.write(k, nil)
            data.write(j, FlowValue.string("2"))
            #expect(data.current == [j: FlowValue.string("2")] && data.count == 1 && data[k] == nil)
            #expect(data.frame(at: 1).map(\.key) == [j] && data.frame(at: 0).map(\.value) == [FlowValue.string("1")])
            data.beginFrame()
            data.write(k, nil)
            data.write(k, FlowValue.string("3"))
            #expect(data.frame(at: 2).map(\.value) == [FlowValue.string("3")])
            try data.pop()
            #expect(data.current == [j: FlowValue.string("2")] && data.count == 1)
            try data.pop()
            #expect(data.current == [k: FlowValue.string("1")] && data.count == 1)
            #expect(data.frame(at: 0).map(\.value) == [FlowValue.string("1")])
            try data.pop()
            #expect(data.current.isEmpty && data.count == 0 && data.depth == 0)
        }
        try check("k", "j", "far")
        try check(KeyID(2), KeyID(0), KeyID(40))
    }
}

@Suite struct StateMachineReentrancyTests {
    @Test func resetFromAnObserverWaitsForTheNotificationToEnd() throws {
        let machine = try StateMachine<String, String>(initial: "a", transitions: [Transition(from: "a", on: "go", to: "b")])
        var seen: [MachineEvent<String, String>] = []
        var historiesSeen: [[String]] = []
        machine.observe { event in
            seen.append(event)
            historiesSeen.append(machine.history)
            if case .transitioned = event { machine.reset() }
        }
        machine.observe { _ in historiesSeen.append(machine.history) }
        try machine.send("go")
        // Both observers saw the transition with the history it made; then the reset happened once.
        #expect(seen == [.transitioned(Transition(from: "a", on: "go", to: "b")), .reset(to: "a")])
        #expect(historiesSeen == [["a", "b"], ["a", "b"], ["a"], ["a"]])
        #expect(machine.history == ["a"])
    }
}
