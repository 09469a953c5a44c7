import Foundation
import UserBackendKit

/// `account update`, `account password`, `account reload`, `account send-verification`,
/// `account verify-email`, `account reset-password`, `account link`, `account reauth`:
/// managing the signed-in account (and finishing the email flows with their codes).
///
/// Each checks its arguments, then that the backend offers the capability (`unsupported`
/// otherwise), before any request or password prompt.
enum AccountManagementCommands {
  static let all: [Command] = [
    update, password, reload, sendVerification, verifyEmail, resetPassword, link, reauth,
  ]

  /// The `--json` line of every command: the user as `whoami --json` prints it.
  private static let jsonOption =
    "--json                print {\"user\":{...}} or {\"error\":{...}} on standard output"

  static let update = Command(
    name: "account update", synopsis: "[--display-name N] [--photo-url U] [--email E] [--json]",
    help: """
      Changes the signed-in user's profile; give at least one option. An empty value
      removes the display name or the photo (--display-name ''); the email address cannot
      be removed. A new email address is a sensitive change: the backend may ask for a
      recent sign-in (requiresRecentLogin; run baas account reauth, then retry). The email
      is changed first, then the profile. Prints the updated user.

      options:
        --display-name N      the new display name ('' removes it)
        --photo-url U         the new photo URL, absolute http or https ('' removes it)
        --email E             the new email address
        \(jsonOption)
      """,
    spec: OptionSpec(valued: ["display-name", "photo-url", "email"], flags: ["json"]),
    run: { options, context in
      let command = "account update"
      let displayName = options.value("display-name")
      let photoURL = options.value("photo-url")
      let email = options.value("email")
      guard displayName != nil || photoURL != nil || email != nil else {
        throw UsageError(
          "give at least one of --display-name, --photo-url, --email", command: command)
      }
      if let photoURL { try checkPhotoURL(photoURL, command: command) }
      if email?.isEmpty == true {
        throw UsageError(
          "--email is empty: an account's email address cannot be removed", command: command)
      }
      var required: [Capability] = []
      if email != nil { required.append(.emailUpdate) }
      if displayName != nil || photoURL != nil { required.append(.profileUpdate) }
      let context = context.merging(options)
      return await reportResult(
        json: options.has("json"), context: context,
        {
          let backend = try await context.makeBackend(offering: required)
          var user: User?
          if let email { user = try await backend.updateEmail(email) }
          if displayName != nil || photoURL != nil {
            user = try await backend.updateProfile(displayName: displayName, photoURL: photoURL)
          }
          return user
        }, jsonText: JSONOutput.user, lines: { ["Updated."] + profileLines($0) })
    })

  static let password = Command(
    name: "account password", synopsis: "[--password-stdin] [--json]",
    help: """
      Changes the signed-in user's password. The new password comes from
      --password-stdin (one line), BAAS_PASSWORD, or a prompt without echo on a terminal;
      it is never an argument. A sensitive change: the backend may ask for a recent
      sign-in (requiresRecentLogin; run baas account reauth, then retry).

      options:
        --password-stdin      read the new password from the first line of standard input
        \(jsonOption)
      """,
    spec: OptionSpec(flags: ["password-stdin", "json"]),
    run: { options, context in
      try await withNewPassword(options, context, command: "account password", .passwordUpdate) {
        backend, newPassword in
        try await backend.updatePassword(newPassword)
        return try await backend.currentUser()
      } lines: { user in
        ["Password changed for \(user.map(HumanOutput.describe) ?? "the signed-in user")."]
      }
    })

  static let reload = Command(
    name: "account reload", synopsis: "[--json]",
    help: """
      Fetches the signed-in user fresh from the server (an email verified or changed
      elsewhere shows here), keeps it in the session and prints it.

      options:
        \(jsonOption)
      """,
    spec: OptionSpec(flags: ["json"]),
    run: { options, context in
      let context = context.merging(options)
      return await reportResult(
        json: options.has("json"), context: context,
        { try await context.makeBackend(offering: [.userReload]).reload() },
        jsonText: JSONOutput.user, lines: profileLines)
    })

  static let sendVerification = Command(
    name: "account send-verification", synopsis: "[--json]",
    help: """
      Asks the backend to send a verification message to the signed-in user's email
      address. Finish with baas account verify-email --code C (against baas emulator the
      code is listed at /emulator/v1/projects/PROJECT/oobCodes).

      options:
        \(jsonOption)
      """,
    spec: OptionSpec(flags: ["json"]),
    run: { options, context in
      let context = context.merging(options)
      return await reportResult(
        json: options.has("json"), context: context,
        {
          let backend = try await context.makeBackend(offering: [.emailVerification])
          try await backend.sendEmailVerification()
          return try await backend.currentUser()
        }, jsonText: JSONOutput.user,
        lines: { user in
          ["Verification message sent to \(user?.email ?? "the user's email address")."]
        })
    })

  static let verifyEmail = Command(
    name: "account verify-email", synopsis: "--code C [--json]",
    help: """
      Completes email verification with the code the verification message carried (the
      oobCode of its link). Needs no signed-in user; run baas account reload afterwards to
      see emailVerified in the session.

      options:
        --code C              the out-of-band code from the message
        --json                print {"user":null} or {"error":{...}} on standard output
      """,
    spec: OptionSpec(valued: ["code"], flags: ["json"]),
    run: { options, context in
      let code = try requiredCode(options, command: "account verify-email")
      let context = context.merging(options)
      return await report(
        json: options.has("json"), context: context,
        {
          try await context.makeBackend(offering: [.emailVerification])
            .applyEmailVerification(code: code)
          return nil
        }, success: { _ in ["Email address verified."] })
    })

  static let resetPassword = Command(
    name: "account reset-password", synopsis: "--code C [--password-stdin] [--json]",
    help: """
      Completes a password reset (requested with baas reset-password --email E) with the
      code the reset message carried (the oobCode of its link) and a new password from
      --password-stdin, BAAS_PASSWORD or a prompt without echo. Needs no signed-in user.

      options:
        --code C              the out-of-band code from the message
        --password-stdin      read the new password from the first line of standard input
        --json                print {"user":null} or {"error":{...}} on standard output
      """,
    spec: OptionSpec(valued: ["code"], flags: ["password-stdin", "json"]),
    run: { options, context in
      let command = "account reset-password"
      let code = try requiredCode(options, command: command)
      return try await withNewPassword(options, context, command: command, .passwordResetCompletion)
      { backend, newPassword in
        try await backend.confirmPasswordReset(code: code, newPassword: newPassword)
        return nil
      } lines: { _ in
        ["Password reset; sign in with the new password."]
      }
    })

  static let link = Command(
    name: "account link", synopsis: "(--email E | --username U) [--password-stdin] [--json]",
    help: """
      Turns the signed-in anonymous (guest) user into a password account: same user ID,
      no longer anonymous, and it can sign in with the identifier and the password
      afterwards. The password comes from --password-stdin, BAAS_PASSWORD or a prompt
      without echo.

      options:
        --email E             the email address to link
        --username U          the user name to link
        --password-stdin      read the password from the first line of standard input
        \(jsonOption)
      """,
    spec: OptionSpec(valued: ["email", "username"], flags: ["password-stdin", "json"]),
    run: { options, context in
      try await AccountCommands.passwordOperation(
        options, context, command: "account link", storesNewSession: false,
        requiring: [.anonymousUpgrade],
        { backend, credential in try await backend.linkPassword(credential).user },
        jsonText: JSONOutput.user,
        lines: { ["Linked: \(HumanOutput.describe($0)) is no longer anonymous."] })
    })

  static let reauth = Command(
    name: "account reauth", synopsis: "(--email E | --username U) [--password-stdin] [--json]",
    help: """
      Signs the signed-in user in again with their password, which makes the session
      recent for sensitive changes (account password, account update --email,
      delete-account). Another account's credential fails with userMismatch and leaves
      the signed-in user as it was. The password comes from --password-stdin,
      BAAS_PASSWORD or a prompt without echo.

      options:
        --email E             the signed-in user's email address
        --username U          the signed-in user's user name
        --password-stdin      read the password from the first line of standard input
        \(jsonOption)
      """,
    spec: OptionSpec(valued: ["email", "username"], flags: ["password-stdin", "json"]),
    run: { options, context in
      try await AccountCommands.passwordOperation(
        options, context, command: "account reauth", storesNewSession: false,
        requiring: [.reauthentication],
        { backend, credential in try await backend.reauthenticate(credential).user },
        jsonText: JSONOutput.user,
        lines: { ["Reauthenticated as \(HumanOutput.describe($0))."] })
    })

  /// A command taking a new password: makes the backend (checking `capability`), reads
  /// the password as `signup` does, runs `operation` and prints the user it returns.
  private static func withNewPassword(
    _ options: ParsedOptions, _ context: Context, command: String,
    _ capability: Capability,
    _ operation: @escaping @Sendable (any UserBackend, String) async throws -> User?,
    lines: (User?) -> [String]
  ) async throws -> ExitStatus {
    let context = context.merging(options)
    let json = options.has("json")
    let backend: any UserBackend
    do {
      backend = try await context.makeBackend(offering: [capability])
    } catch {
      return context.fail(error, json: json)
    }
    let newPassword = try PasswordInput.read(
      fromStandardInput: options.has("password-stdin"), environment: context.environment,
      command: command, prompt: "New password: ")
    return await report(
      json: json, context: context, { try await operation(backend, newPassword) },
      success: lines)
  }

  /// `--code C`, required and not empty. The code is a secret: it is never printed.
  private static func requiredCode(_ options: ParsedOptions, command: String) throws -> String {
    guard let code = options.value("code") else {
      throw UsageError("--code is required", command: command)
    }
    guard !code.isEmpty else { throw UsageError("--code is empty", command: command) }
    return code
  }

  /// Checks `--photo-url` with the library's rule
  /// (``UserBackendKit/CredentialValidation/validatePhotoURL(_:)``): empty removes the
  /// photo. The value is not echoed.
  /// - Throws: ``UsageError`` naming `--photo-url`.
  static func checkPhotoURL(_ text: String, command: String) throws {
    do {
      _ = try CredentialValidation.validatePhotoURL(text)
    } catch {
      // The library's one rule, reported as a usage error: the same exit status whichever
      // part of the rule refuses.
      guard case .invalidInput(_, let reason) = error.code else { throw error }
      throw UsageError(
        "--photo-url \(reason), or '' to remove the photo", command: command)
    }
  }

  /// The user's description, then one line for each profile field the backend knows:
  /// display name, photo URL, email verified, created, last sign-in.
  static func profileLines(_ user: User?) -> [String] {
    guard let user else { return [] }
    var lines = [HumanOutput.describe(user)]
    if let name = user.displayName { lines.append("  display name: \(name)") }
    if let photo = user.photoURL { lines.append("  photo URL: \(photo.absoluteString)") }
    if let verified = user.emailVerified {
      lines.append("  email verified: \(verified ? "yes" : "no")")
    }
    if let created = user.createdAt { lines.append("  created: \(Timestamp.string(created))") }
    if let last = user.lastSignInAt {
      lines.append("  last sign-in: \(Timestamp.string(last))")
    }
    return lines
  }
}
