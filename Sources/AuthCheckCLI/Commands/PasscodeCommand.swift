import AuthFlow
import AuthFlowChecker

/// `authcheck passcode INPUT...`: prints each input normalised by a passcode policy, one per line,
/// or with `--format json` one object per line with the input, the code and its length result.
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
        if let problem = PasscodePolicy.alphabetProblem(text) { throw .invalidValue(option: name, value: text, reason: problem) }
        return text
    }
    static let spec = Option<String?>("--spec", value: "FILE",
                                      help: "take the policy from this spec's passcode object; --max-length and --alphabet override it",
                                      default: nil) { text, _ throws(UsageError) in text }
    static let format = CommonOptions.format(PasscodeFormat.self, help:
        "output format (default text); json prints one object per input and line: input, code, length, and missing or extra")
    static let reportLength = Option(flag: "--report-length", help:
        "with text output, say on stderr which inputs were short or overlong (see LENGTH)")
    /// `--timeout`: how long loading `--spec` may take (a FIFO with no writer, a huge file); the inputs stream as they come.
    static let timeout = Option<Double?>("--timeout", value: "SECONDS", help:
        "give up loading --spec FILE after this many seconds (default \(Int(CommonOptions.defaultTimeout)); exit 3)",
        default: CommonOptions.defaultTimeout) { text, name throws(UsageError) in
        try ValueParsers.seconds(text, option: name)
    }
    static let options = [maxLength.spec, alphabet.spec, spec.spec, timeout.spec, format.spec, reportLength.spec]
    static let discussion = [
        (title: "NORMALISING", body: """
            Compatibility forms are folded (full-width digits become ASCII), letters are
            uppercased, decimal digits of every script (Arabic-Indic, Persian,
            Devanagari, ...) become ASCII digits, whitespace, dashes and invisible
            formatting characters are removed, characters outside the alphabet are
            dropped, and the result is cut to the maximum length. An input with nothing
            left prints as an empty line.
            """),
        (title: "LENGTH", body: """
            An input is complete when it holds exactly the maximum length of alphabet
            characters once normalised, short when it holds fewer, and overlong when it
            holds more: the code is then cut, and the user likely pasted the wrong thing.
            Text output prints the code alone; --report-length adds a line on stderr per
            short or overlong input. JSON output prints, per input,
            {"input": ..., "code": ..., "length": "complete" | "short" | "overlong"},
            with "missing": N when short and "extra": N when overlong.
            """),
        (title: "EXIT STATUS", body: """
            0  every input was normalised
            2  wrong usage, an invalid --spec, or stdin that cannot be read or
               holds a line over 1 MiB
            3  --timeout passed before --spec was loaded
            """),
    ]

    struct Settings: CommandSettings {
        var maxLength: Int?
        var alphabet: String?
        var spec: String?
        /// `text` or `json`.
        var format: PasscodeFormat
        /// Whether text output says on stderr which inputs were short or overlong.
        var reportLength: Bool
        var timeout: Double?
        /// The inputs on the command line; none means stdin's lines.
        var inputs: [String]

        init(_ parsed: ParsedArguments) throws(UsageError) {
            maxLength = try parsed.value(of: PasscodeCommand.maxLength)
            alphabet = try parsed.value(of: PasscodeCommand.alphabet)
            spec = try parsed.value(of: PasscodeCommand.spec)
            format = try parsed.value(of: PasscodeCommand.format)
            reportLength = try parsed.value(of: PasscodeCommand.reportLength)
            timeout = try parsed.value(of: PasscodeCommand.timeout)
            inputs = parsed.positionals
        }
    }

    /// The longest line of stdin read as one input, in bytes: a clipboard of text, not a file.
    static let maxLineBytes = 1 << 20

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        var policy = PasscodePolicy.default
        if settings.inputs.isEmpty, context.console.stdinIsTerminal { throw .missingArgument("INPUT (or lines on stdin)") }
        if let path = settings.spec {
            do {
                policy = try SpecLoader.load(file: path, deadline: .after(settings.timeout ?? CommonOptions.defaultTimeout)).passcode
            } catch {
                if let timeout = error.timedOut {
                    context.console.err("\(path): incomplete — \(StopReason.timeout(seconds: timeout)) before the spec was loaded")
                    return 3
                }
                for issue in error.issues { context.console.err("error: \(path): \(issue)") }
                return 2
            }
        }
        policy = PasscodePolicy(maxLength: settings.maxLength ?? policy.maxLength, alphabet: settings.alphabet ?? policy.alphabetText)
        let normaliser = PasscodeNormaliser(policy: policy)
        func print(_ input: String, index: Int) {
            let result = normaliser.read(input)
            if settings.format == .json {
                context.console.out(json(input: input, result).rendered(pretty: false))
                return
            }
            context.console.out(result.code)
            if settings.reportLength, let note = lengthNote(result.length, maxLength: policy.maxLength) {
                context.console.err("authcheck passcode: input \(index + 1): \(note)")
            }
        }
        guard settings.inputs.isEmpty else {
            for (index, input) in settings.inputs.enumerated() { print(input, index: index) }
            return 0
        }
        // Stdin streams, a line at a time (LF or CRLF): five million lines take the memory of one.
        let stdin = context.console.standardInput()
        var overlong: (line: Int, bytes: Int)?
        do {
            try stdin.forEachLine(maxLineBytes: maxLineBytes, chunkBytes: 1 << 16, skipsOverlongLines: false) { line in
                if let bytes = line.overlong {
                    overlong = (line.number, bytes)
                    return false
                }
                print(String(decoding: line.bytes, as: UTF8.self), index: line.number - 1)
                return true
            }
        } catch {
            context.console.err("error: \(error)")
            return 2
        }
        if let overlong {
            context.console.err("error: \(stdin.name): line \(overlong.line) is over \(maxLineBytes) bytes (\(overlong.bytes) read), the limit for one input; "
                                + "is stdin a file rather than codes, one per line?")
            return 2
        }
        return 0
    }

    /// `{"input": …, "code": …, "length": "overlong", "extra": 1}`: one input's line of JSON output.
    static func json(input: String, _ result: PasscodeNormaliser.Result) -> JSON {
        var members: [(String, JSON)] = [("input", .string(input)), ("code", .string(result.code)), ("length", .string(result.length.name))]
        switch result.length {
        case .complete: break
        case .short(let missing): members.append(("missing", .int(missing)))
        case .overlong(let extra): members.append(("extra", .int(extra)))
        }
        return .object(JSONObject(members))
    }

    /// What `--report-length` says about a short or overlong input; nil for a complete one.
    static func lengthNote(_ length: PasscodeNormaliser.Length, maxLength: Int) -> String? {
        switch length {
        case .complete: nil
        case .short(let missing): "short: \(missing) of \(maxLength) characters missing"
        case .overlong(let extra): "overlong: \(extra) more than \(maxLength) characters, cut (a wrong paste?)"
        }
    }
}
