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

    /// Signs in.
    /// - Parameter backend: the identity service to call.
    /// - Returns: the session, or why there is none. Providers never throw: every failure is a
    ///   ``LoginError``, so each one maps to a flow event.
    func logIn(with backend: any IdentityBackend) async -> LoginResult
}

extension LoginProvider {
    /// Runs `body` unless there are validation failures or the task is cancelled; the common
    /// preamble and error plumbing of every provider.
    func attempt(
        validation: ValidationResult,
        _ body: () async throws(LoginError) -> AuthSession
    ) async -> LoginResult {
        guard validation.isValid else { return .failure(.invalidInput(validation.failures)) }
        guard !Task.isCancelled else { return .failure(.userCancelled) }
        do throws(LoginError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
