/// One way to sign in: it gets a session from the identity backend, or says why it could not.
///
/// Every provider, email and password or single sign-on, has this one shape, so the rest of the
/// app never knows how a person signed in: ``LoginService`` runs any provider, stores the session
/// on success and maps the result to a flow event. Adding a provider adds a type; nothing else
/// changes.
///
/// A provider validates what it was given before calling the backend, and returns
/// ``LoginError/invalidInput(_:)`` without calling it when something is wrong. If the task is
/// already cancelled it returns ``LoginError/userCancelled``, again without calling the backend.
public protocol LoginProvider: Sendable {
    /// Which provider this is.
    var kind: ProviderKind { get }

    /// Which backend call this provider's success ends with: ``LoginOperation/signIn`` for the
    /// ways to sign in, ``LoginOperation/verifyMFA`` for a code that finishes one, and
    /// ``LoginOperation/refreshSession`` for renewing a stored session.
    var operation: LoginOperation { get }

    /// Signs in.
    /// - Parameter backend: the identity service to call.
    /// - Returns: the session, or why there is none. Providers never throw: every failure is a
    ///   ``LoginError``, so each one maps to a flow event.
    func logIn(with backend: any IdentityBackend) async -> LoginResult
}

extension LoginProvider {
    /// ``LoginOperation/signIn``: a provider signs in unless it says otherwise.
    public var operation: LoginOperation { .signIn }
}

/// Runs `body` unless there are validation failures or the task is cancelled; the common preamble
/// and error plumbing of every provider and backend call.
func attempt<Value>(
    validation: ValidationResult,
    _ body: () async throws(LoginError) -> Value
) async -> Result<Value, LoginError> {
    guard validation.isValid else { return .failure(.invalidInput(validation.failures)) }
    guard !Task.isCancelled else { return .failure(.userCancelled) }
    do throws(LoginError) {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
