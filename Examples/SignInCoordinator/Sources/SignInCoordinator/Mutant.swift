/// One realistic bug the coordinator can be built with, kept as a test fixture: the checks must catch every one.
public enum Mutant: String, CaseIterable, Sendable {
    /// Back moves the machine back but leaves the data as it was.
    case backForgetsData
    /// The machine's back pops the last state, then goes to the one before it: two screens back.
    case undoPopsLastState
    /// The event's data is stored before the table is asked whether the event is legal, and stays when it is not.
    case dataBeforeLegalCheck
    /// The table is keyed by event alone, so rows for the same event overwrite each other and any state takes any event.
    case tableKeyedByEvent
    /// A transition to the same state is refused as a no-op (wrong password, resend).
    case selfLoopRefused
    /// A transition to the same state updates the data in place, pushing nothing to go back to.
    case selfLoopReplacesFrame
    /// New values do not replace a key's earlier value (a resent MFA challenge keeps the old one).
    case mergeKeepsOldValue
    /// Cancelling wipes the collected data.
    case cancelClearsData
    /// A typo in the table: a reset password leads back to the email screen.
    case wrongTarget
    /// Back is allowed from the end of the flow (signed in, cancelled).
    case backFromTerminal
    /// Back skips every frame of the same screen (after two wrong passwords, back leaves the password screen).
    case backSkipsSameScreen
}
