import AuthFlow
import AuthFlowChecker

/// `authcheck passcode INPUT...`: prints each input normalised by a passcode policy, one per line.
enum PasscodeCommand: Subcommand {
    static let name = "passcode"
    static let abstract = "print each input normalised, one per line"
    static let argumentsSynopsis = "INPUT..."
    static let argumentsHelp = [(name: "INPUT...", help: "codes as typed or pasted; with none, each line of stdin (when it is not a terminal). Put inputs that start with '-' after '--'")]
    static let maxLengthRange = 0...4096
    static let maxLength = Option<Int?>("--max-length", value: "N",
                                        help: "the longest code, in characters (0...4096; default \(PasscodePolicy.default.maxLength), or the spec's)",
                                        default: nil) { text, name throws(UsageError) in
        try ValueParsers.integer(text, option: name, in: maxLengthRange)
    }
    static let alphabet = Option<String?>("--alphabet", value: "CHARS", help: "the characters a code may hold (default A-Z and 0-9, or the spec's)",
                                          default: nil) { text, name throws(UsageError) in
        guard !text.isEmpty else { throw .invalidValue(option: name, value: text, reason: "the alphabet must not be empty") }
        return text
    }
    static let spec = Option<String?>("--spec", value: "FILE",
                                      help: "take the policy from this spec's passcode object; --max-length and --alphabet override it",
                                      default: nil) { text, _ throws(UsageError) in text }
    static let options = [maxLength.spec, alphabet.spec, spec.spec]
    static let discussion = [
        (title: "NORMALISING", body: """
            Compatibility forms are folded (full-width digits become ASCII), letters are
            uppercased, whitespace and invisible formatting characters are removed,
            characters outside the alphabet are dropped, and the result is cut to the
            maximum length. An input with nothing left prints as an empty line.
            """),
        (title: "EXIT STATUS", body: """
            0  every input was normalised
            2  wrong usage, or an invalid --spec
            """),
    ]

    struct Settings: CommandSettings {
        var maxLength: Int?
        var alphabet: String?
        var spec: String?
        /// The inputs on the command line; none means stdin's lines.
        var inputs: [String]

        init(_ parsed: ParsedArguments) throws(UsageError) {
            maxLength = try parsed.value(of: PasscodeCommand.maxLength)
            alphabet = try parsed.value(of: PasscodeCommand.alphabet)
            spec = try parsed.value(of: PasscodeCommand.spec)
            inputs = parsed.positionals
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        var policy = PasscodePolicy.default
        var inputs = settings.inputs
        if inputs.isEmpty {
            guard !context.console.stdinIsTerminal else { throw .missingArgument("INPUT (or lines on stdin)") }
            var lines = context.console.readAll().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            inputs = lines
        }
        if let path = settings.spec {
            do {
                policy = try SpecLoader.load(file: path).passcode
            } catch {
                for issue in error.issues { context.console.err("error: \(path): \(issue)") }
                return 2
            }
        }
        policy = PasscodePolicy(maxLength: settings.maxLength ?? policy.maxLength, alphabet: settings.alphabet ?? policy.alphabetText)
        let normaliser = PasscodeNormaliser(policy: policy)
        for input in inputs {
            context.console.out(normaliser.normalise(input))
        }
        return 0
    }
}
