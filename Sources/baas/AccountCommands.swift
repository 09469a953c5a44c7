import Foundation
import UserBackendKit
import UserBackends

/// `signup`, `signin`, `whoami`, `token`, `signout`, `reset-password`, `delete-account`.
enum AccountCommands {
  static let all: [Command] = [
    signUp, signIn, whoami, token, signOut, resetPassword, deleteAccount,
  ]

  static let signUp = Command(
    name: "signup", synopsis: "(--email E | --username U) [--password-stdin] [--json]",
    help: """
      Creates an account and signs it in; the session is kept in BAAS_HOME.
      The password comes from --password-stdin (one line), BAAS_PASSWORD, or a prompt
      without echo on a terminal; it is never an argument.

      options:
        --email E           sign up with an email address
        --username U        sign up with a user name
        --password-stdin    read the password from the first line of standard input
        --json              print {"user":{...}} or {"error":{...}} on standard output
      """,
    spec: OptionSpec(valued: ["email", "username"], flags: ["password-stdin", "json"]),
    run: { options, context in
      try await passwordOperation(options, context, command: "signup") { backend, credential in
        try await backend.signUp(credential).user
      }
    })

  static let signIn = Command(
    name: "signin",
    synopsis: "(--email E | --username U | --anonymous) [--password-stdin] [--json]",
    help: """
      Signs in with a password (or as a new anonymous user) and keeps the session in
      BAAS_HOME, replacing any previous one. The password comes from --password-stdin,
      BAAS_PASSWORD, or a prompt without echo on a terminal.

      options:
        --email E           sign in with an email address
        --username U        sign in with a user name
        --anonymous         sign in as a new anonymous user (no password)
        --password-stdin    read the password from the first line of standard input
        --json              print {"user":{...}} or {"error":{...}} on standard output
      """,
    spec: OptionSpec(
      valued: ["email", "username"], flags: ["password-stdin", "json", "anonymous"]),
    run: { options, context in
      if options.has("anonymous") {
        guard options.value("email") == nil, options.value("username") == nil,
          !options.has("password-stdin")
        else {
          throw UsageError(
            "--anonymous takes no --email, --username or --password-stdin", command: "signin")
        }
        let context = context.merging(options)
        let json = options.has("json")
        return await report(
          json: json, context: context,
          { try await context.makeBackendForSignIn().signInAnonymously().user },
          success: { user in ["Signed in as \(user.map(HumanOutput.describe) ?? "?")."] })
      }
      return try await passwordOperation(options, context, command: "signin") {
        backend, credential in
        try await backend.signIn(credential).user
      }
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
            user = try await UserBackends.make(
              from: configuration, transport: context.transport
            ).currentUser()
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
        let backend = try UserBackends.make(from: configuration, transport: context.transport)
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
    name: "signout", synopsis: "[--json]",
    help: """
      Signs out: the stored session is removed even when the server cannot be reached.
      Signing out when nobody is signed in is not an error.

      options:
        --json   print {"user":null} or {"error":{...}}
      """,
    spec: OptionSpec(flags: ["json"]),
    run: { options, context in
      let context = context.merging(options)
      return await report(
        json: options.has("json"), context: context,
        {
          try await context.makeBackend().signOut()
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
        success: { _ in ["Password reset requested for \(email)."] })
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

  /// `signup`/`signin` with a password: checks the identifier options, reads the password
  /// and runs `operation`.
  private static func passwordOperation(
    _ options: ParsedOptions, _ context: Context, command: String,
    _ operation: @escaping @Sendable (any UserBackend, PasswordCredential) async throws -> User
  ) async throws -> ExitStatus {
    let identifier: PasswordCredential.Identifier
    switch (options.value("email"), options.value("username")) {
    case (let email?, nil): identifier = .email(email)
    case (nil, let username?): identifier = .username(username)
    case (.some, .some):
      throw UsageError("give either --email or --username, not both", command: command)
    case (nil, nil):
      throw UsageError("--email E or --username U is required", command: command)
    }
    let context = context.merging(options)
    let verb = command == "signup" ? "Signed up and signed in" : "Signed in"
    let success: @Sendable (User?) -> [String] = { user in
      ["\(verb) as \(user.map(HumanOutput.describe) ?? "?")."]
    }
    // The configuration is checked before the password is asked for, so a missing key
    // is reported at once instead of after a prompt.
    let backend: any UserBackend
    do {
      backend = try context.makeBackendForSignIn()
    } catch {
      return await report(
        json: options.has("json"), context: context, { throw error }, success: success)
    }
    let password = try PasswordInput.read(
      fromStandardInput: options.has("password-stdin"), environment: context.environment,
      command: command)
    return await report(
      json: options.has("json"), context: context,
      { try await operation(backend, PasswordCredential(identifier, password: password)) },
      success: success)
  }
}

extension Context {
  /// The backend the configuration selects.
  /// - Throws: `BackendConfigurationError` or the backend's initialisation error.
  func makeBackend() throws -> any UserBackend {
    try UserBackends.make(from: configuration(), transport: transport)
  }

  /// The backend, for a command that stores a new session: the state directory is checked
  /// first, so an unusable `BAAS_HOME` fails before the server creates anything.
  /// - Throws: `BackendConfigurationError` or the backend's initialisation error.
  func makeBackendForSignIn() throws -> any UserBackend {
    try UserBackends.checkStateDirectoryWritable(for: configuration())
    return try makeBackend()
  }

  /// The selected backend's name for hints (`"fake"` when the configuration is unusable).
  var backendName: String {
    (try? configuration().backend.rawValue) ?? backendOption ?? environment["BAAS_BACKEND"]
      ?? "fake"
  }
}
