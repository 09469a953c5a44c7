import AccountDatabase
import FakeUserBackend
import UserBackendKit
import UserBackends

/// `phone start` and `phone verify`: SMS verification-code sign-in.
enum PhoneCommands {
  static let all: [Command] = [start, verify]

  static let start = Command(
    name: "phone start", synopsis: "--phone-number N [--app-verification KIND:VALUE] [--json]",
    help: """
      Sends a verification code by SMS to an E.164 number (+819012345678). The
      verification ID is kept in BAAS_HOME so `baas phone verify` can finish the sign-in
      from another process. The fake sends no SMS: it prints the code on standard error.

      Production Firebase sends an SMS only with an app-verification proof that the app
      obtained; the emulators, the fake and NCMB need none. Give it as KIND:VALUE:
        ios:RECEIPT:SECRET             iOS receipt and silent-push secret
        recaptcha:TOKEN                reCAPTCHA v2 token
        recaptcha-enterprise:TOKEN     reCAPTCHA Enterprise token (web client)
        play-integrity:TOKEN           Android Play Integrity token
      Prefer the environment variable BAAS_APP_VERIFICATION: an option is visible to
      other users in the process list.

      options:
        --phone-number N             the E.164 phone number
        --app-verification KIND:VALUE  the proof (default: $BAAS_APP_VERIFICATION)
        --json                       print {"verification":{"id":...,"phoneNumber":...}} or {"error":{...}}
      """,
    spec: OptionSpec(valued: ["phone-number", "app-verification"], flags: ["json"]),
    run: { options, context in
      guard let phoneNumber = options.value("phone-number") else {
        throw UsageError("--phone-number is required", command: "phone start")
      }
      let context = context.merging(options)
      let json = options.has("json")
      let proof = try appVerification(options, context: context)
      do {
        let configuration = try context.configuration()
        let backend = try await context.make(configuration)
        let verificationID = try await backend.startPhoneVerification(
          phoneNumber: phoneNumber, appVerification: proof)
        // The number the backend used (trimmed E.164), not the argument as typed.
        let number = (try? IdentifierCanonicalization.phoneNumber(phoneNumber)) ?? phoneNumber
        if configuration.backend == .fake,
          let store = try? await UserBackends.fakeStore(for: configuration),
          let pending = try? await store.waitingOffPool({ try store.pendingPhoneVerifications() })
            .first(where: { $0.verificationID == verificationID })
        {
          Console.error("note: the fake backend sends no SMS; the code is \(pending.code)")
        }
        if json {
          Console.json(
            JSONOutput.encode([
              "verification": ["id": verificationID, "phoneNumber": number]
            ]))
        } else {
          Console.out(TerminalText.safe("Verification code sent to \(number)."))
          Console.out(TerminalText.safe("verification ID: \(verificationID)"))
          Console.out("Next: baas phone verify --code CODE")
        }
        return .success
      } catch {
        return context.fail(error, json: json)
      }
    })

  /// `BAAS_APP_VERIFICATION`: the app-verification proof for `phone start`.
  static let appVerificationVariable = "BAAS_APP_VERIFICATION"

  /// The proof from `--app-verification`, else `BAAS_APP_VERIFICATION`, else `nil`.
  /// - Throws: ``UsageError`` naming the option or the variable (never the value).
  static func appVerification(_ options: ParsedOptions, context: Context) throws
    -> AppVerificationProof?
  {
    let source: String
    let text: String
    if let value = options.value("app-verification") {
      (source, text) = ("--app-verification", value)
    } else if let value = try RawInput.variable(
      appVerificationVariable, in: context.environment, command: "phone start")
    {
      (source, text) = (appVerificationVariable, value)
    } else {
      return nil
    }
    do {
      return try AppVerificationProof(parsing: text)
    } catch {
      guard case .invalidInput(_, let reason) = error.code else { throw error }
      throw UsageError("\(source): \(reason)", command: "phone start")
    }
  }

  static let verify = Command(
    name: "phone verify", synopsis: "--code C [--verification-id ID] [--force] [--json]",
    help: """
      Finishes phone sign-in with the SMS code and keeps the session in BAAS_HOME,
      replacing any previous one. The verification ID defaults to the one
      `baas phone start` stored in BAAS_HOME.

      A stored guest (anonymous) session is not replaced without --force: nothing can
      sign in to that account again, so replacing it discards it and its document for
      good. Keep it with `baas account link --email E` (or --username U) first.

      options:
        --code C              the 6-digit code
        --verification-id ID  the verification ID (default: the pending one)
        --force               replace a guest's session (a warning names what is discarded)
        --json                print {"user":{...}} or {"error":{...}}
      """,
    spec: OptionSpec(valued: ["code", "verification-id"], flags: ["force", "json"]),
    run: { options, context in
      guard let code = options.value("code") else {
        throw UsageError("--code is required", command: "phone verify")
      }
      let context = context.merging(options)
      return await report(
        json: options.has("json"), context: context,
        {
          let configuration = try context.configuration()
          try UserBackends.checkStateDirectoryWritable(for: configuration)
          let backend = try await context.make(configuration)
          try await GuestSession.check(
            context, command: "phone verify", force: options.has("force"))
          // A phone sign-in can create the account: check the emulator's project first.
          try await context.checkEmulatorProject(configuration)
          var verificationID = options.value("verification-id")
          if verificationID == nil {
            verificationID = try await UserBackends.sessionStore(for: configuration).load()
              .pendingPhoneVerification?.verificationID
          }
          guard let verificationID else {
            throw UserBackendError(
              .invalidInput(
                field: "verificationID",
                reason: "no pending verification; run baas phone start first"))
          }
          return try await backend.signIn(verificationID: verificationID, code: code).user
        },
        success: { user in ["Signed in as \(user.map(HumanOutput.describe) ?? "?")."] })
    })
}
