/// The sign-in screens.
public enum SignInState: String, Hashable, Sendable, CaseIterable {
    case start, email, password, forgotPassword, checkInbox, mfaCode, mfaHelp, sso, signup, joinAccount, createPassword
    case authenticated, cancelled
}

/// What a screen reports: the user's action or the backend's answer.
public enum SignInEvent: String, Hashable, Sendable, CaseIterable {
    case startAuth, knownEmail, newEmail, ssoEmail, invitedEmail, cancel
    case passwordAccepted, mfaChallenged, wrongPassword, forgotPassword, resetEmailSent, passwordReset
    case codeAccepted, resend, needHelp, backToCode, ssoAccepted, ssoFailed
    case detailsEntered, inviteAccepted, declineInvite, accountCreated
}

/// What the flow collects on the way.
public enum SignInKey: String, Hashable, Sendable, CaseIterable {
    case email, account, ssoProvider, invitation, session, mfaChallenge, userDetails
}

/// One screen as the coordinator presents it: whether the user may go back from it, whether the flow ends there.
public struct Step: Hashable, Sendable {
    public var state: SignInState
    public var allowsBack: Bool
    public var isTerminal: Bool
}

/// Makes the step for each state, and holds the table the coordinator's machine runs.
public enum StepFactory {
    /// The step shown in `state`.
    public static func step(for state: SignInState) -> Step {
        switch state {
        case .start: return Step(state: state, allowsBack: false, isTerminal: false)
        case .authenticated, .cancelled: return Step(state: state, allowsBack: false, isTerminal: true)
        default: return Step(state: state, allowsBack: true, isTerminal: false)
        }
    }

    /// Every transition of the flow.
    public static func rows(mutant: Mutant?) -> [(from: SignInState, event: SignInEvent, to: SignInState)] {
        [
            (.start, .startAuth, .email),
            (.email, .knownEmail, .password), (.email, .newEmail, .signup), (.email, .ssoEmail, .sso),
            (.email, .invitedEmail, .joinAccount), (.email, .cancel, .cancelled),
            (.password, .passwordAccepted, .authenticated), (.password, .mfaChallenged, .mfaCode),
            (.password, .wrongPassword, .password), (.password, .forgotPassword, .forgotPassword), (.password, .cancel, .cancelled),
            (.forgotPassword, .resetEmailSent, .checkInbox), (.forgotPassword, .cancel, .cancelled),
            (.checkInbox, .passwordReset, mutant == .wrongTarget ? .email : .password), (.checkInbox, .cancel, .cancelled),
            (.mfaCode, .codeAccepted, .authenticated), (.mfaCode, .resend, .mfaCode), (.mfaCode, .needHelp, .mfaHelp),
            (.mfaCode, .cancel, .cancelled),
            (.mfaHelp, .backToCode, .mfaCode), (.mfaHelp, .cancel, .cancelled),
            (.sso, .ssoAccepted, .authenticated), (.sso, .ssoFailed, .email), (.sso, .cancel, .cancelled),
            (.signup, .detailsEntered, .createPassword), (.signup, .cancel, .cancelled),
            (.joinAccount, .inviteAccepted, .createPassword), (.joinAccount, .declineInvite, .cancelled),
            (.createPassword, .accountCreated, .authenticated), (.createPassword, .cancel, .cancelled),
        ]
    }
}
