// A synchronous coordinator of Specs/sign-in-next-step.json as an app team writes one: a screen enum, a form
// struct, a history of (screen, form) for back and undo, one `switch` over (screen, action). The benchmark
// walks it with `FlowConformance` (undo) against its own calls (``AppFloor``).
import AuthFlow
import AuthFlowChecker

/// The sign-in coordinator of an identity service whose answer names the next step (a code, a new password).
final class NextStepCoordinator {
    enum Screen: String, FlowName {
        case start, enterCredentials, signingIn, confirmCode, newPassword, resetPassword, locked, expired, signedIn, cancelled
    }
    enum Action: String, FlowName {
        case signInTapped, submit, forgotPassword, cancel, signedIn, challenged, wrongPassword, accountLocked
        case codeAccepted, wrongCode, resendCode, passwordSet, passwordReset, resetPassword, startOver, signOut, sessionExpired
    }
    enum Field: String, FlowName {
        case username, password, session, codeVerified, nextStep, failedPasswords, failedCodes, resends
    }

    /// What the screens collected and the service answered.
    struct Form {
        var username: String?, password: String?, session: String?, codeVerified: String?, nextStep: String?
        var failedPasswords = 0, failedCodes = 0, resends = 0
    }

    private(set) var screen = Screen.start
    private(set) var form = Form()
    /// The screen and form before each accepted action, for back (the user's) and undo (tests'), and whether the
    /// action updated the screen in place (a wrong or resent code): back goes past those.
    private var history: [(screen: Screen, form: Form, inPlace: Bool)] = []

    /// Handles `action` with the values it carries; false (and no change) where the flow has no such move.
    func handle(_ action: Action, _ values: [Field: String]) -> Bool {
        guard let (next, form) = move(action, values) else { return false }
        let inPlace = screen == .confirmCode && next == .confirmCode
        history.append((screen, self.form, inPlace))
        (screen, self.form) = (next, form)
        return true
    }

    /// Whether `action` would be handled now.
    func canHandle(_ action: Action) -> Bool { move(action, [:]) != nil }

    /// Where `action` leads from here and the form there; nil where the flow has no such move.
    private func move(_ action: Action, _ values: [Field: String]) -> (Screen, Form)? {
        var form = self.form
        let next: Screen
        switch (screen, action) {
        case (.start, .signInTapped): next = .enterCredentials
        case (.enterCredentials, .submit):
            (form.username, form.password) = (values[.username], values[.password])
            next = .signingIn
        case (.enterCredentials, .forgotPassword): next = .resetPassword
        case (.enterCredentials, .cancel), (.locked, .cancel): next = .cancelled
        case (.signingIn, .signedIn) where form.failedPasswords < 3:
            form.session = values[.session]
            next = .signedIn
        case (.signingIn, .challenged) where form.failedPasswords < 3:
            form.nextStep = values[.nextStep]
            next = form.nextStep == "confirmTotp" || form.nextStep == "confirmSms" ? .confirmCode : .newPassword
        case (.signingIn, .wrongPassword) where form.failedPasswords < 3:
            form.failedPasswords += 1
            form.password = nil
            next = .enterCredentials
        case (.signingIn, .accountLocked) where form.failedPasswords >= 3:
            form.password = nil
            next = .locked
        case (.confirmCode, .codeAccepted) where form.failedPasswords < 3:
            (form.session, form.codeVerified) = (values[.session], values[.codeVerified])
            (form.nextStep, form.failedCodes, form.resends) = (nil, 0, 0)
            next = .signedIn
        case (.confirmCode, .wrongCode):
            form.failedCodes = min(form.failedCodes + 1, 3)
            if form.failedCodes >= 3 {
                (form.password, form.nextStep, form.failedCodes, form.resends) = (nil, nil, 0, 0)
                next = .enterCredentials
            } else {
                next = .confirmCode
            }
        case (.confirmCode, .resendCode) where form.nextStep == "confirmSms" && form.resends < 2:
            form.resends += 1
            next = .confirmCode
        case (.confirmCode, .cancel):
            (form.password, form.nextStep, form.failedCodes, form.resends) = (nil, nil, 0, 0)
            next = .enterCredentials
        case (.newPassword, .passwordSet) where form.failedPasswords < 3:
            form.session = values[.session]
            form.nextStep = nil
            next = .signedIn
        case (.newPassword, .cancel):
            (form.password, form.nextStep) = (nil, nil)
            next = .enterCredentials
        case (.resetPassword, .passwordReset):
            (form.password, form.failedPasswords) = (nil, 0)
            next = .enterCredentials
        case (.locked, .resetPassword): next = .resetPassword
        // Starting again keeps what the service counts; sign-out keeps the username too.
        case (.expired, .startOver), (.signedIn, .signOut):
            form = Form(username: action == .signOut ? form.username : nil, failedPasswords: form.failedPasswords,
                        failedCodes: form.failedCodes, resends: form.resends)
            next = .start
        // The session expires on any screen of a sign-in under way (not before it starts, nor once it has ended).
        case (.enterCredentials, .sessionExpired), (.signingIn, .sessionExpired), (.confirmCode, .sessionExpired),
             (.newPassword, .sessionExpired), (.resetPassword, .sessionExpired), (.locked, .sessionExpired):
            next = .expired
        default: return nil
        }
        return (next, form)
    }

    /// The user's back: the previous screen with its form; refused on the first screen, while locked or expired, and at the end.
    func back() -> Bool {
        switch screen {
        case .start, .locked, .expired, .signedIn, .cancelled: return false
        default: break
        }
        // The screens updated in place go with the one they updated; the service's counts stay as they are now.
        var taken = 1
        while taken <= history.count && history[history.count - taken].inPlace { taken += 1 }
        guard taken <= history.count else { return false }
        let now = form
        history.removeLast(taken - 1)
        guard undo() else { return false }
        (form.failedPasswords, form.failedCodes, form.resends) = (now.failedPasswords, now.failedCodes, now.resends)
        return true
    }

    /// Undoes the last accepted action, wherever it led (tests and debug menus).
    func undo() -> Bool {
        guard let last = history.popLast() else { return false }
        (screen, form) = (last.screen, last.form)
        return true
    }

    /// The form as the spec names its data (a counter at 0 is left out).
    var values: [Field: String] {
        var values: [Field: String] = [:]
        values[.username] = form.username
        values[.password] = form.password
        values[.session] = form.session
        values[.codeVerified] = form.codeVerified
        values[.nextStep] = form.nextStep
        if form.failedPasswords > 0 { values[.failedPasswords] = String(form.failedPasswords) }
        if form.failedCodes > 0 { values[.failedCodes] = String(form.failedCodes) }
        if form.resends > 0 { values[.resends] = String(form.resends) }
        return values
    }
}

extension NextStepCoordinator: UndoableFlowUnderTest {
    var state: Screen { screen }
    var data: [Field: String] { values }
    func send(_ event: Action, data: [Field: String]) -> Bool { handle(event, data) }
}
