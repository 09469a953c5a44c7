import BackendHTTP
import Dispatch
import FirebaseTokenVerification
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `token verify`: checks a Firebase ID token as a server would (`FirebaseTokenVerifier`).
enum TokenVerifyCommand {
  static let all: [Command] = [verify]

  static let verify = Command(
    name: "token verify", synopsis: "[--project-id P] [--certificates-url URL] [--json]",
    help: """
      Reads one Firebase ID token from standard input (never an argument: arguments show
      up in `ps` and shell history) and checks it as a server must before trusting it:
      shape, alg RS256, kid, signature, iss, aud, sub, iat/auth_time/exp (5 minutes of
      clock skew allowed). Prints the claims; exit 0 for a valid token, 1 with the reason
      code for an invalid one (malformed, unsupportedAlgorithm, unknownKeyID, badSignature,
      wrongIssuer, wrongAudience, expired, issuedInFuture, inconsistentTimes,
      invalidSubject, certificatesUnavailable), 2 for usage.

      With FIREBASE_AUTH_EMULATOR_HOST set, unsigned (alg none) tokens are accepted, as the
      Firebase Admin SDKs do for the Auth Emulator, every claim still checked; signed
      tokens are checked against the emulator's certificates (`baas emulator
      --sign-tokens`) unless --certificates-url says otherwise.

      options:
        --project-id P          the expected aud (default FIREBASE_PROJECT_ID)
        --certificates-url URL  where the certificates are (default Google's securetoken
                                x509 endpoint, or the emulator's with
                                FIREBASE_AUTH_EMULATOR_HOST)
        --json                  print {"valid":true,"claims":{…}} or
                                {"valid":false,"reason":…,"detail":…}
      """,
    spec: OptionSpec(valued: ["project-id", "certificates-url"], flags: ["json"]),
    run: { options, context in
      let configuration = try configuration(options, environment: context.environment)
      let json = options.has("json")
      let input = await readStandardInput(limit: FirebaseTokenVerifier.maximumTokenBytes + 2)
      let token = String(decoding: input, as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      guard !token.isEmpty else {
        throw UsageError(
          "standard input is empty: pipe the token, e.g. `baas token | baas token verify`",
          command: "token verify")
      }
      let transport =
        context.merging(options).httpLogger?.wrapping(NetworkTransport.standard())
        ?? NetworkTransport.standard()
      let verifier = FirebaseTokenVerifier(configuration: configuration, transport: transport)
      do throws(TokenRejection) {
        let claims = try await verifier.verify(token)
        if json {
          Console.json(encode(["valid": true, "claims": claims.jsonObject]))
        } else {
          for line in describe(claims) { Console.out(TerminalText.safe(line)) }
        }
        return .success
      } catch {
        if json {
          Console.json(
            encode(["valid": false, "reason": error.reason.rawValue, "detail": error.detail]))
        } else {
          Console.error(
            "baas token verify: invalid token: \(TerminalText.safe(error.description))")
        }
        return .failure
      }
    })

  /// The verifier's configuration from the options and the environment, checked by
  /// `FirebaseTokenVerifier.Configuration.validate()` (the library's rules, written once).
  /// - Throws: ``UsageError`` naming the option or variable at fault: a missing or invalid
  ///   project ID, a certificates URL that is not http(s), has an unusable port, a user
  ///   name, a query or a fragment; a `FIREBASE_AUTH_EMULATOR_HOST` that is not
  ///   `host:port` or not a loopback or private-network host (a public host, a link-local
  ///   address, 0.0.0.0), with or without `--certificates-url`.
  static func configuration(_ options: ParsedOptions, environment: [String: String]) throws
    -> FirebaseTokenVerifier.Configuration
  {
    let projectOption = options.value("project-id")
    guard
      let projectID = try projectOption
        ?? RawInput.variable("FIREBASE_PROJECT_ID", in: environment, command: "token verify")
    else {
      throw UsageError(
        "no project ID: pass --project-id or set FIREBASE_PROJECT_ID", command: "token verify")
    }
    let emulatorHost = try RawInput.variable(
      "FIREBASE_AUTH_EMULATOR_HOST", in: environment, command: "token verify")
    var urlSource = "--certificates-url"
    var given: URL?
    if let text = options.value("certificates-url") {
      guard let url = URL(string: text) else {
        throw UsageError(
          "--certificates-url must be an http or https URL", command: "token verify")
      }
      given = url
    } else if emulatorHost != nil {
      urlSource = "FIREBASE_AUTH_EMULATOR_HOST"
    }
    do throws(TokenRejection) {
      // The emulator host is checked by the library's rule (host:port on a loopback or
      // private-network host) even when --certificates-url points elsewhere: it still
      // decides that unsigned tokens are trusted.
      var configuration = FirebaseTokenVerifier.Configuration(projectID: projectID)
      if let emulatorHost {
        configuration = try .authEmulator(projectID: projectID, emulatorHost: emulatorHost)
      }
      if let given { configuration.certificatesURL = given }
      try configuration.validate()
      return configuration
    } catch {
      let source =
        switch error.setting {
        case "projectID": projectOption == nil ? "FIREBASE_PROJECT_ID" : "--project-id"
        case "certificatesURL": urlSource
        case "emulatorHost": "FIREBASE_AUTH_EMULATOR_HOST"
        default: error.setting ?? "the configuration"
        }
      // The detail reads "<setting>: <problem>": the option's name replaces the property's.
      var problem = error.detail
      if let setting = error.setting, problem.hasPrefix(setting + ": ") {
        problem = String(problem.dropFirst(setting.count + 2))
      }
      throw UsageError("\(source): \(problem)", command: "token verify")
    }
  }

  /// Human lines: the user and each claim present.
  static func describe(_ claims: FirebaseTokenClaims) -> [String] {
    var lines = ["valid Firebase ID token", "  user ID:          \(claims.userID)"]
    if let email = claims.email {
      lines.append("  email:            \(email) (verified: \(claims.emailVerified))")
    }
    if let phone = claims.phoneNumber { lines.append("  phone number:     \(phone)") }
    if let name = claims.name { lines.append("  name:             \(name)") }
    if let provider = claims.signInProvider { lines.append("  sign-in provider: \(provider)") }
    for (provider, identifiers) in claims.identities.sorted(by: { $0.key < $1.key }) {
      lines.append("  identity:         \(provider) \(identifiers.joined(separator: ", "))")
    }
    let format = ISO8601DateFormatter()
    lines.append("  signed in at:     \(format.string(from: claims.authTime))")
    lines.append("  issued at:        \(format.string(from: claims.issuedAt))")
    lines.append("  expires at:       \(format.string(from: claims.expiresAt))")
    if !claims.customClaims.isEmpty {
      lines.append("  custom claims:    " + encode(claims.customClaims.mapValues(\.jsonObject)))
    }
    return lines
  }

  private static func encode(_ object: [String: Any]) -> String {
    let data = try? JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  /// Reads standard input to its end, at most `limit` bytes (the rest is left unread), on
  /// a Dispatch thread so the blocking reads never hold a cooperative-pool thread.
  static func readStandardInput(limit: Int) async -> [UInt8] {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
          let count = read(STDIN_FILENO, &buffer, min(buffer.count, limit - bytes.count))
          if count < 0, errno == EINTR { continue }
          if count <= 0 { break }
          bytes += buffer.prefix(count)
        }
        continuation.resume(returning: bytes)
      }
    }
  }
}
