import Foundation
import UserBackendKit
import UserBackends

/// `signup`, `signin`, `whoami`, `token`, `signout`, `reset-password`, `delete-account`.
enum AccountCommands {
  static let all: [Command] = [
    signUp, signIn, whoami, token, signOut, resetPassword, deleteAccount,
  ]

  static let signUp = Command(
    name: "signup",
    synopsis: "(--email E | --username U) [--password-stdin] [--force] [--json]",
    help: """
      Creates an account and signs it in; the session is kept in BAAS_HOME, replacing any
      previous one. The password comes from --password-stdin (one line), BAAS_PASSWORD,
      or a prompt without echo on a terminal; it is never an argument.

      A stored guest (anonymous) session is not replaced without --force: nothing can
      sign in to that account again, so replacing it discards it and its document for
      good. To make the guest this account, use `baas account link` instead.

      options:
        --email E           sign up with an email address
        --username U        sign up with a user name
        --password-stdin    read the password from the first line of standard input
        --force             replace a guest's session (a warning names what is discarded)
        --json              print {"user":{...}} or {"error":{...}} on standard output
      """,
    spec: OptionSpec(valued: ["email", "username"], flags: ["password-stdin", "force", "json"]),
    run: { options, context in
      try await passwordOperation(
        options, context, command: "signup", storesNewSession: true,
        { backend, credential in try await backend.signUp(credential).user },
        jsonText: JSONOutput.user, lines: { ["Signed up and signed in as \(describe($0))."] })
    })

  static let signIn = Command(
    name: "signin",
    synopsis:
      "(--email E | --username U | --anonymous) [--password-stdin] [--ensure-doc] [--force] "
      + "[--json]",
    help: """
      Signs in with a password (or as a new anonymous user) and keeps the session in
      BAAS_HOME, replacing any previous one. The password comes from --password-stdin,
      BAAS_PASSWORD, or a prompt without echo on a terminal.

      A stored guest (anonymous) session is not replaced without --force: nothing can
      sign in to that account again, so replacing it discards it and its document for
      good. Keep it with `baas account link --email E` (or --username U) first.

      With --ensure-doc it then makes sure the user's document exists, as an app does on
      sign-in: when absent it is created with uid, email, display_name ("anonymous") and
      create_date (the server's time); when present it is left unchanged. It prints which
      (see baas doc get --help for how a document prints). The backend must offer
      userDocuments; that is checked before signing in.

      options:
        --email E           sign in with an email address
        --username U        sign in with a user name
        --anonymous         sign in as a new anonymous user (no password)
        --password-stdin    read the password from the first line of standard input
        --ensure-doc        create the user's document when it does not exist
        --force             replace a guest's session (a warning names what is discarded)
        --json              print {"user":{...}} or {"error":{...}} on standard output;
                            with --ensure-doc {"created":BOOL,"document":{...},"user":{...}}
      """,
    spec: OptionSpec(
      valued: ["email", "username"],
      flags: ["password-stdin", "json", "anonymous", "ensure-doc", "force"]),
    run: { options, context in
      let ensure = options.has("ensure-doc")
      let required: [Capability] = ensure ? [.userDocuments] : []
      if options.has("anonymous") {
        guard options.value("email") == nil, options.value("username") == nil,
          !options.has("password-stdin")
        else {
          throw UsageError(
            "--anonymous takes no --email, --username or --password-stdin", command: "signin")
        }
        let context = context.merging(options)
        return await reportResult(
          json: options.has("json"), context: context,
          {
            try await GuestSession.check(context, command: "signin", force: options.has("force"))
            let backend = try await context.makeCheckedBackendForSignIn(offering: required)
            let user = try await backend.signInAnonymously().user
            return try await SignInOutcome.make(user, backend: backend, ensureDocument: ensure)
          }, jsonText: \.json, lines: \.lines)
      }
      return try await passwordOperation(
        options, context, command: "signin", storesNewSession: true, requiring: required,
        { backend, credential in
          let user = try await backend.signIn(credential).user
          return try await SignInOutcome.make(user, backend: backend, ensureDocument: ensure)
        }, jsonText: \.json, lines: \.lines)
    })

  static let whoami = Command(
    name: "whoami", synopsis: "[--json]",
    help: """
      Shows the signed-in user from the stored session (no network call).
      Exit status 0 when someone is signed in, 1 with error notSignedIn otherwise.

      options:
        --json   print {"user":{...}} or {"error":{"code":"notSignedIn",...}}
      """,
    spec: OptionSpec(flags: ["json"]),
    run: { options, context in
      let context = context.merging(options)
      return await report(
        json: options.has("json"), context: context,
        {
          let configuration = try context.configuration()
          let user: User?
          if configuration.backend == .fake {
            // The fake's current user is the stored session's: its database is not
            // opened, so a read-only BAAS_HOME works.
            user = try await UserBackends.storedSession(for: configuration)?.user
          } else {
            user = try await context.make(configuration).currentUser()
          }
          guard let user else { throw UserBackendError(.notSignedIn) }
          return user
        },
        success: { user in
          ["Signed in as \(user.map(HumanOutput.describe) ?? "?") on \(context.backendName)."]
        })
    })

  static let token = Command(
    name: "token", synopsis: "[--refresh]",
    help: """
      Prints the bearer token only (Firebase ID token, NCMB session token, the fake's ID
      token), refreshed first when it has expired or with --refresh. Treat the output as a
      secret: it authenticates as the signed-in user.

      options:
        --refresh   refresh the token even when it has not expired; exit 1 with
                    unsupported (tokenRefresh) on a backend without token refresh (ncmb)
      """,
    spec: OptionSpec(flags: ["refresh"]),
    run: { options, context in
      let context = context.merging(options)
      do {
        let configuration = try context.configuration()
        let refresh = options.has("refresh")
        // The fake's unexpired token is the stored one: its database is not opened, so a
        // read-only BAAS_HOME works (a refresh needs the database).
        if configuration.backend == .fake, !refresh,
          let session = try await UserBackends.storedSession(for: configuration),
          !session.isExpired(at: Date())
        {
          Console.out(session.bearerToken)
          return .success
        }
        let backend = try await context.make(configuration)
        // A backend without token refresh (NCMB) would hand back the same token.
        if refresh && !backend.capabilities.contains(.tokenRefresh) {
          throw UserBackendError(.unsupported(capability: .tokenRefresh))
        }
        Console.out(try await backend.idToken(forceRefresh: refresh))
        return .success
      } catch {
        return context.fail(error, json: false)
      }
    })

  static let signOut = Command(
    name: "signout", synopsis: "[--force] [--json]",
    help: """
      Signs out: the stored session is removed even when the server cannot be reached.
      Signing out when nobody is signed in is not an error.

      A guest (anonymous) user is refused without --force: nothing can sign in to that
      account again, so signing out discards it and its document for good. Keep it with
      `baas account link --email E` (or --username U) first. This holds also when the
      session file is one baas does not use because others may read or write it: make it
      private again (chmod 600 FILE) to keep the guest, or sign out with --force.

      options:
        --force  sign a guest out anyway (a warning names what is discarded)
        --json   print {"user":null} or {"error":{...}}
      """,
    spec: OptionSpec(flags: ["json", "force"]),
    run: { options, context in
      let context = context.merging(options)
      return await report(
        json: options.has("json"), context: context,
        {
          let backend = try await context.makeBackend()
          // Read locally (no network), also from a session file baas does not use for its
          // permissions; another session file that cannot be read is signed out as before.
          try await GuestSession.check(context, command: "signout", force: options.has("force"))
          try await backend.signOut()
          return nil
        },
        success: { _ in ["Signed out."] })
    })

  static let resetPassword = Command(
    name: "reset-password", synopsis: "--email E [--json]",
    help: """
      Asks the backend to send a password-reset message to the address.

      options:
        --email E   the account's email address
        --json      print {"user":null} or {"error":{...}}
      """,
    spec: OptionSpec(valued: ["email"], flags: ["json"]),
    run: { options, context in
      guard let email = options.value("email") else {
        throw UsageError("--email is required", command: "reset-password")
      }
      let context = context.merging(options)
      return await report(
        json: options.has("json"), context: context,
        {
          try await context.makeBackend().sendPasswordReset(email: email)
          return nil
        },
        success: { _ in
          // The address as the backend uses it (trimmed, NFC, IDNA), not as typed.
          let canonical = (try? CredentialValidation.validateEmail(email)) ?? email
          return ["Password reset requested for \(canonical)."]
        })
    })

  static let deleteAccount = Command(
    name: "delete-account", synopsis: "[--json]",
    help: """
      Deletes the signed-in account on the backend and removes the stored session.

      options:
        --json   print {"user":null} or {"error":{...}}
      """,
    spec: OptionSpec(flags: ["json"]),
    run: { options, context in
      let context = context.merging(options)
      return await report(
        json: options.has("json"), context: context,
        {
          try await context.makeBackend().deleteAccount()
          return nil
        },
        success: { _ in ["Account deleted."] })
    })

  /// `baas signup`'s and `baas signin`'s description of a user.
  static func describe(_ user: User) -> String { HumanOutput.describe(user) }

  /// The `--email E` or `--username U` of a command that takes a password credential.
  /// - Throws: ``UsageError`` when neither or both are given.
  static func identifier(_ options: ParsedOptions, command: String) throws
    -> PasswordCredential.Identifier
  {
    switch (options.value("email"), options.value("username")) {
    case (let email?, nil): return .email(email)
    case (nil, let username?): return .username(username)
    case (.some, .some):
      throw UsageError("give either --email or --username, not both", command: command)
    case (nil, nil):
      throw UsageError("--email E or --username U is required", command: command)
    }
  }

  /// A command with a password credential (`signup`, `signin`, `account link`,
  /// `account reauth`): checks the identifier options, makes the backend (checking the
  /// state directory and that it offers `capabilities`), applies the guest rule
  /// (``GuestSession``) when `storesNewSession`, reads the password, runs `operation` and
  /// reports its result with `jsonText` or `lines`.
  ///
  /// - Parameter storesNewSession: `true` for a command that stores a new user's session
  ///   over the stored one (`signup`, `signin`): a guest's is then refused without
  ///   `--force`. `account link` and `account reauth` keep the signed-in user.
  static func passwordOperation<Result>(
    _ options: ParsedOptions, _ context: Context, command: String, storesNewSession: Bool,
    requiring capabilities: [Capability] = [],
    _ operation: @escaping @Sendable (any UserBackend, PasswordCredential) async throws -> Result,
    jsonText: (Result) -> String, lines: (Result) -> [String]
  ) async throws -> ExitStatus {
    let identifier = try identifier(options, command: command)
    let context = context.merging(options)
    let json = options.has("json")
    // The configuration, the capabilities, the emulator's project and the guest rule are
    // checked before the password is asked for, so a missing key, an unsupported
    // operation, an emulator serving another project or a guest that would be discarded
    // is reported at once instead of after a prompt.
    let backend: any UserBackend
    do {
      // The guest rule first: it reads only the local session file.
      if storesNewSession {
        try await GuestSession.check(context, command: command, force: options.has("force"))
      }
      backend = try await context.makeCheckedBackendForSignIn(offering: capabilities)
    } catch {
      return context.fail(error, json: json)
    }
    let password = try PasswordInput.read(
      fromStandardInput: options.has("password-stdin"), environment: context.environment,
      command: command)
    return await reportResult(
      json: json, context: context,
      { try await operation(backend, PasswordCredential(identifier, password: password)) },
      jsonText: jsonText, lines: lines)
  }
}

extension Context {
  /// The backend the configuration selects.
  /// - Throws: `BackendConfigurationError` or the backend's initialisation error.
  func makeBackend() async throws -> any UserBackend {
    try await make(configuration())
  }

  /// The backend, for a command that stores a new session: the state directory is checked
  /// first, so an unusable `BAAS_HOME` fails before the server creates anything.
  /// - Throws: `BackendConfigurationError` or the backend's initialisation error.
  func makeBackendForSignIn() async throws -> any UserBackend {
    try UserBackends.checkStateDirectoryWritable(for: configuration())
    return try await makeBackend()
  }

  /// ``makeBackend()``, then checks that the backend offers each of `capabilities`, so an
  /// operation it lacks fails before any request (or password prompt).
  /// - Throws: as ``makeBackend()``, and ``UserBackendKit/UserBackendError`` with
  ///   `.unsupported(capability:)` naming the first capability missing.
  func makeBackend(offering capabilities: [Capability]) async throws -> any UserBackend {
    try Self.checking(capabilities, of: await makeBackend())
  }

  /// ``makeBackendForSignIn()`` with the check of ``makeBackend(offering:)``.
  func makeBackendForSignIn(offering capabilities: [Capability]) async throws
    -> any UserBackend
  {
    try Self.checking(capabilities, of: await makeBackendForSignIn())
  }

  /// `backend`, after checking it offers each of `capabilities`.
  /// - Throws: `.unsupported(capability:)` naming the first one missing.
  static func checking(_ capabilities: [Capability], of backend: any UserBackend) throws
    -> any UserBackend
  {
    if let missing = capabilities.first(where: { !backend.capabilities.contains($0) }) {
      throw UserBackendError(.unsupported(capability: missing))
    }
    return backend
  }

  /// The selected backend's name for hints (`"fake"` when the configuration is unusable).
  var backendName: String {
    (try? configuration().backend.rawValue) ?? backendOption
      ?? environment["BAAS_BACKEND"].flatMap { $0 == RawInput.undecodable ? nil : $0 }
      ?? "fake"
  }
}
