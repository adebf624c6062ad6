import AuthFlow

/// A request for a second factor: the backend sent a one-time passcode and waits for it.
///
/// The challenge says where the code went, so the code-entry screen can tell the person where to
/// look, and which ``PasscodePolicy`` the code follows, so the screen can normalise what they type
/// with a ``PasscodeNormaliser``.
public struct MFAChallenge: Hashable, Sendable {
    /// Where a one-time passcode is delivered.
    public enum Channel: String, Hashable, Sendable, CaseIterable {
        /// An email with the code.
        case email
        /// A text message with the code.
        case sms
        /// A code shown by an authenticator app (TOTP).
        case authenticatorApp
        /// A push notification to a signed-in device.
        case push
    }

    /// The backend's identifier for this challenge, sent back with the code.
    public var id: String
    /// Where the code was sent.
    public var channel: Channel
    /// The destination with most of it hidden, such as `j•••@example.com`, if the backend gave one.
    public var maskedDestination: String?
    /// The length and alphabet of the code.
    public var passcodePolicy: PasscodePolicy

    /// Creates a challenge.
    /// - Parameters:
    ///   - id: the backend's identifier for the challenge.
    ///   - channel: where the code was sent.
    ///   - maskedDestination: the partly hidden destination, if known.
    ///   - passcodePolicy: the code's policy; six characters from `A`–`Z` and `0`–`9` by default.
    public init(id: String, channel: Channel, maskedDestination: String? = nil, passcodePolicy: PasscodePolicy = .default) {
        self.id = id
        self.channel = channel
        self.maskedDestination = maskedDestination
        self.passcodePolicy = passcodePolicy
    }
}
