/// The sample app's sign-in screens, as its flow spec (`Specs/sign-in.json`) names them.
public enum SignInScreen: String, CaseIterable, Sendable {
    case start, email, password, authenticated, cancelled
}
