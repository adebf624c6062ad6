/// One realistic bug the view model can be built with, kept as a test fixture: the checks must catch every one.
public enum Mutant: String, CaseIterable, Sendable {
    /// Sign-out goes back to the start but keeps the session token.
    case signOutKeepsToken
    /// Cancel starts again but keeps the account the lookup found, so a new sign-in starts with the old account.
    case cancelKeepsAccount
    /// Wrong passwords are counted with each screen on the device, so back gives an attempt back (a brute force).
    case attemptsCountedOnDevice
    /// Back forgets the request in flight instead of cancelling it: its answer, when it comes, is handled on whatever screen is shown.
    case lateAnswerHandled
    /// The account id is stored as a number (`Int(id) ?? 0`): a leading zero, or an id that is not a number, is lost.
    case accountIdAsInt
    /// An authenticator-app challenge is taken as signed in: the second factor is skipped for one of the backend's answers.
    case totpSkipsMFA
    /// The lock comes one wrong password late (`> 3`, not `>= 3`).
    case locksOneLate
    /// Back from the code check leaves the code that was typed on the code screen.
    case backKeepsCode
    /// Resending a code leaves the old (wrong) code in the field.
    case resendKeepsCode
    /// A second tap on sign-in while the first is in flight is taken: a second request, with the new password.
    case doubleSubmit
    /// Sign-out forgets the email too.
    case signOutForgetsEmail
    /// A wrong password is left in the form.
    case wrongPasswordKept
    /// Dismissing the lock that three wrong passwords set resets the count: the app forgets that the server counted them.
    case dismissForgetsLock
    /// The locked screen lets the user go back to the password screen.
    case backFromLocked
}
