/// The screens of sign-in: the route the view shows.
public enum Screen: String, Hashable, Sendable {
    case start, email, lookingUp, password, signingIn, mfa, verifying, locked, requestingReset, signedIn

    /// Whether the screen waits on the backend: its request is in flight while it is shown.
    public var waits: Bool { [.lookingUp, .signingIn, .verifying, .requestingReset].contains(self) }
}

/// The sign-in view model: one screen at a time with its form, a navigation history to go back through, and the
/// request of a waiting screen in flight.
///
/// The views call ``perform(_:input:)`` for the user's actions and ``goBack()`` for the back button, and read
/// ``screen`` and ``form``. Each waiting screen runs its request in a task of its own; leaving the screen cancels it,
/// and coming back to a waiting screen asks again. Wrong passwords are the server's count (``failedAttempts``): back
/// restores the form below, never the count.
@MainActor
public final class SignInModel {
    /// What the screen shows: what the user typed and what the backend answered.
    public struct Form: Hashable, Sendable {
        public var email: String?
        public var accountId: String?
        public var password: String?
        public var code: String?
        public var token: String?
        public var mfaMethod: MFAMethod?
        public var passwordVerified = false
        public var codeVerified = false

        public init(email: String? = nil) {
            self.email = email
        }
    }

    /// The user's actions, as the views send them.
    public enum Action: String, Sendable {
        case begin, submitEmail, submitPassword, submitCode, resendCode, cancel, resetPassword, dismiss, signOut
    }

    /// Wrong passwords in a row that lock the account.
    public static let maxAttempts = 3

    public private(set) var screen = Screen.start
    public private(set) var form = Form()
    /// Wrong passwords in a row, as the server counts them: back does not give one back.
    public private(set) var failedAttempts = 0
    /// The waiting screen's request, while it is in flight.
    public private(set) var request: Task<Void, Never>?
    public let backend: any AuthBackend
    private var history: [(screen: Screen, form: Form, attempts: Int)] = []
    private let mutant: Mutant?

    public init(backend: any AuthBackend, mutant: Mutant? = nil) {
        self.backend = backend
        self.mutant = mutant
    }

    /// Performs the user's `action` (with what they typed, `input`) where the screen offers it; false when it does not.
    @discardableResult
    public func perform(_ action: Action, input: String? = nil) -> Bool {
        switch (screen, action) {
        case (.start, .begin): push(.email)
        case (.email, .submitEmail): push(.lookingUp) { $0.email = input }
        case (.password, .submitPassword) where failedAttempts >= Self.maxAttempts: push(.locked)   // the server would refuse it
        case (.password, .submitPassword): push(.signingIn) { $0.password = input }
        case (.signingIn, .submitPassword) where mutant == .doubleSubmit:
            form.password = input
            startRequest()
        case (.password, .cancel): startAgain(keepingToken: false)
        case (.mfa, .submitCode): push(.verifying) { $0.code = input }
        case (.mfa, .resendCode) where form.mfaMethod == .sms:
            push(.mfa) { if self.mutant != .resendKeepsCode { $0.code = nil } }
            let (backend, accountId) = (backend, form.accountId ?? "")
            Task { try? await backend.resendCode(accountId: accountId) }
        case (.locked, .resetPassword): push(.requestingReset)
        case (.locked, .dismiss):
            if mutant == .dismissForgetsLock && failedAttempts >= Self.maxAttempts { failedAttempts = 0 }
            startAgain(keepingToken: false)
        case (.signedIn, .signOut): startAgain(keepingToken: mutant == .signOutKeepsToken)
        default: return false
        }
        return true
    }

    /// The back button: the screen below with its form as it was; false at the start, once signed in, and on the lock.
    @discardableResult
    public func goBack() -> Bool {
        guard let below = history.last, screen != .signedIn, screen != .locked || mutant == .backFromLocked else { return false }
        if mutant != .lateAnswerHandled { request?.cancel() }
        request = nil
        history.removeLast()
        let code = form.code
        (screen, form) = (below.screen, below.form)
        if mutant == .backKeepsCode, screen == .mfa, code != nil { form.code = code }
        if mutant == .attemptsCountedOnDevice { failedAttempts = below.attempts }
        startRequest()
        return true
    }

    /// Shows `next` above the current screen, its form changed by `change`, and starts its request when it waits.
    private func push(_ next: Screen, _ change: (inout Form) -> Void = { _ in }) {
        history.append((screen, form, failedAttempts))
        change(&form)
        screen = next
        startRequest()
    }

    /// Back to the start: nothing but the email stays (and the server's count).
    private func startAgain(keepingToken: Bool) {
        request?.cancel()
        request = nil
        let old = form
        form = Form(email: mutant == .signOutForgetsEmail && screen == .signedIn ? nil : old.email)
        if keepingToken { form.token = old.token }
        if mutant == .cancelKeepsAccount, screen == .password { form.accountId = old.accountId }
        history = []
        screen = .start
    }

    /// Starts the current screen's request when it waits on the backend (cancelling one still in flight).
    private func startRequest() {
        request?.cancel()
        request = nil
        guard screen.waits else { return }
        let (screen, form, backend) = (self.screen, self.form, self.backend)
        request = Task {
            do {
                switch screen {
                case .lookingUp: handle(try await backend.lookUp(email: form.email ?? ""))
                case .signingIn: handle(try await backend.signIn(email: form.email ?? "", password: form.password ?? ""))
                case .verifying: handle(try await backend.verify(code: form.code ?? "", accountId: form.accountId ?? ""))
                default:
                    try await backend.requestPasswordReset(email: form.email ?? "")
                    guard !Task.isCancelled else { return }
                    failedAttempts = 0
                    startAgain(keepingToken: false)
                }
            } catch {
                // Cancelled, or no answer: the screen stays as it is.
            }
        }
    }

    private func handle(_ answer: LookupAnswer) {
        guard !Task.isCancelled else { return }
        switch answer {
        case let .found(accountId): push(.password) { $0.accountId = self.mutant == .accountIdAsInt ? String(Int(accountId) ?? 0) : accountId }
        case .notFound: push(.email) { $0.email = nil }
        }
    }

    private func handle(_ answer: SignInAnswer) {
        guard !Task.isCancelled else { return }
        switch answer {
        case let .signedIn(token):
            failedAttempts = 0
            push(.signedIn) { ($0.password, $0.token, $0.passwordVerified) = (nil, token, true) }
        case .mfaRequired(.totp) where mutant == .totpSkipsMFA:
            failedAttempts = 0
            push(.signedIn) { ($0.password, $0.token, $0.passwordVerified) = (nil, "totp-\($0.accountId ?? "")", true) }
        case let .mfaRequired(method):
            failedAttempts = 0
            push(.mfa) { ($0.password, $0.mfaMethod, $0.passwordVerified) = (nil, method, true) }
        case .wrongPassword:
            let count = failedAttempts + 1
            let locked = mutant == .locksOneLate ? count > Self.maxAttempts : count >= Self.maxAttempts
            // The count is the server's, kept with no screen; counted on the device, it goes with the screen it was shown on.
            if mutant != .attemptsCountedOnDevice { failedAttempts = count }
            push(locked ? .locked : .password) { if self.mutant != .wrongPasswordKept { $0.password = nil } }
            failedAttempts = count
        case .accountLocked:
            push(.locked) { $0.password = nil }
        }
    }

    private func handle(_ answer: CodeAnswer) {
        guard !Task.isCancelled else { return }
        switch answer {
        case let .accepted(token): push(.signedIn) { ($0.code, $0.token, $0.codeVerified) = (nil, token, true) }
        case .wrongCode: push(.mfa)
        }
    }
}
