import AuthFlow
import Testing

/// Runtime errors name an app's own states, events and keys as its specs do, not by their Swift type.
@Suite struct ErrorDescriptionTests {
    /// A raw value that differs from the case name: the spec's name, `mfa-code`, is what prints.
    enum Screen: String, FlowName { case password, mfaCode = "mfa-code" }
    enum Event: String, FlowName { case mfaChallenged, cancel }
    enum Key: String, FlowName { case session, mfaChallenge }
    /// A key type that is not a ``FlowName``: printed as `String(describing:)` gives it.
    struct PlainKey: Hashable, CustomStringConvertible {
        var text: String
        var description: String { "plain:\(text)" }
    }

    @Test func flowErrorsUseFlowNames() {
        typealias Error = FlowError<Screen, Event, Key>
        #expect(Error.missingInput(state: .password, missing: [.session]).description
                == "password requires {session}, which the data lacks")
        #expect(Error.outputMismatch(state: .password, event: .mfaChallenged, expected: [.mfaChallenge], got: [.session]).description
                == "password sent mfaChallenged with data {session}, but its contract declares {mfaChallenge}")
        #expect(Error.eventNotInContract(state: .mfaCode, event: .cancel).description
                == "mfa-code cannot send cancel: its output contract does not list it")
        #expect(Error.cannotGoBack(state: .mfaCode, reason: .atRoot).description == "cannot go back from mfa-code: at the root")
        #expect(Error.transition(.noTransition(from: .mfaCode, on: .cancel)).description == "no transition from mfa-code on cancel")
    }

    @Test func transitionErrorsUseFlowNames() {
        let existing = Transition(from: Screen.password, on: Event.mfaChallenged, to: Screen.mfaCode)
        let proposed = Transition(from: Screen.password, on: Event.mfaChallenged, to: Screen.password)
        #expect(TransitionError.conflictingTransition(existing: existing, proposed: proposed).description
                == "conflicting transition: password --mfaChallenged--> password clashes with password --mfaChallenged--> mfa-code")
        #expect(TransitionError<Screen, Event>.nothingToUndo(at: .password).description == "nothing to undo: password is the root of the history")
    }

    @Test func otherTypesPrintAsTheyDescribeThemselves() {
        let error = FlowError<String, String, PlainKey>.missingInput(state: "password", missing: [PlainKey(text: "session")])
        #expect(error.description == "password requires {plain:session}, which the data lacks")
    }
}
