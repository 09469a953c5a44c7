import AccountDatabase
import BackendHTTP
import BackendEmulator
import Dispatch
import FakeUserBackend
import FirebaseUserBackend
import Foundation
import UserBackends
import UserBackendKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `emulator`: serves the Firebase Auth and NCMB wire protocols on one loopback port.
enum EmulatorCommand {
  static let all: [Command] = [emulator]

  static let emulator = Command(
    name: "emulator",
    synopsis:
      "[--host 127.0.0.1] [--port 9099] [--data FILE] [--project-id ID] [--sign-tokens] "
      + "[--recent-login-seconds N] [--password-hash-cost N]",
    help: """
      Serves the Firebase Auth REST API (v1, the legacy v3 names, the token endpoint and
      the emulator-only endpoints), the Firestore REST subset for the users' documents
      (users/{uid}, owner-only) and the NCMB REST API on one HTTP/1.1 port, with a web
      page at / to look at it all. When ready it prints the base URLs, the project ID and
      the NCMB demo keys; it stops cleanly on SIGINT (Ctrl-C) or SIGTERM. All share one
      account table.

      emulator-only endpoints (Firebase Auth Emulator style; loopback Host only, as the
      web page). ID must be the --project-id: one emulator serves one project, and a
      path naming another (here, in Firestore or admin calls) is a 404:
        GET    /emulator/v1/projects/ID/verificationCodes   pending SMS codes
        GET    /emulator/v1/projects/ID/oobCodes            out-of-band codes and links
        DELETE /emulator/v1/projects/ID/oobCodes            clear them
        DELETE /emulator/v1/projects/ID/accounts            delete every account
        GET    /emulator/v1/projects/ID/requests            the last 200 requests

      options:
        --host H         IPv4 or IPv6 address to listen on (default 127.0.0.1; ::1
                         or [::1] for IPv6 loopback, printed as http://[::1]:PORT;
                         anything but loopback gets a warning: the emulator accepts
                         any API key)
        --port P         port (default 9099; 0 picks a free port, printed when ready)
        --data FILE      keep users in this SQLite file, created when missing (its
                         directory must exist; default: in memory). It holds password
                         hashes and codes: the file, its -wal and -shm must be yours
                         and owner-only (chmod 600), its directory one others cannot
                         write in
        --project-id ID  the Firebase project ID (default demo-project), the only
                         one its paths answer
        --sign-tokens    sign ID tokens RS256 under a key generated at start (default:
                         unsigned, as the Firebase Auth Emulator's) and serve its
                         certificate at GET /robot/v1/metadata/x509/
                         securetoken@system.gserviceaccount.com, Google's path shape, so
                         `baas token verify` runs the full signature check offline
        --recent-login-seconds N
                         how old a sign-in may be for a password or email change or
                         an account deletion before CREDENTIAL_TOO_OLD_LOGIN_AGAIN
                         (default 300, as production Firebase; 0 turns the rule off)
        --password-hash-cost N
                         PBKDF2-HMAC-SHA256 iterations for passwords set from now on,
                         1…10000000 (default 10000); a low value speeds up suites that
                         sign in thousands of times, for throwaway test data only
      """,
    spec: OptionSpec(
      valued: [
        "host", "port", "data", "project-id", "recent-login-seconds", "password-hash-cost",
      ],
      flags: ["sign-tokens"]),
    run: { options, context in
      // IPv4 or IPv6: the adapters accept IPv6 literal settings ([::1]:9099) and the
      // default transport reaches them, so the printed exports work either way.
      let hostText = options.value("host") ?? "127.0.0.1"
      guard let address = EmulatorListenAddress(hostText) else {
        throw UsageError(EmulatorListenAddress.refusal(hostText), command: "emulator")
      }
      let host = address.bindHost
      let portText = options.value("port") ?? "9099"
      // 0 picks a free port; any other port is read as every setting reads one.
      guard let port = portText == "0" ? 0 : URLLoaderSupport.portNumber(portText) else {
        throw UsageError(
          "--port must be 0 (a free port) or a number from 1 to 65535 written without leading "
            + "zeros", command: "emulator")
      }
      let projectID = options.value("project-id") ?? "demo-project"
      // The same rule as FIREBASE_PROJECT_ID, so the printed exports are accepted.
      if let problem = FirebaseProjectID.problem(with: projectID) {
        throw UsageError("--project-id \(problem)", command: "emulator")
      }
      let recentLogin = options.value("recent-login-seconds") ?? "300"
      guard let window = DecimalText.wholeNumber(recentLogin), (0...31_536_000).contains(window)
      else {
        throw UsageError(
          "--recent-login-seconds must be a whole number of seconds in 0…31536000 (0 turns "
            + "the rule off)", command: "emulator")
      }
      let costText = options.value("password-hash-cost") ?? "10000"
      guard let hashCost = DecimalText.wholeNumber(costText),
        (1...UserStore.maximumStoredIterations).contains(hashCost)
      else {
        throw UsageError(
          "--password-hash-cost must be a whole number of PBKDF2 iterations in 1…"
            + "\(UserStore.maximumStoredIterations)", command: "emulator")
      }
      let dataPath = options.value("data") ?? ":memory:"
      try PathOption.check(dataPath, option: "--data", command: "emulator")
      do {
        try StatePermissions.checkDataFile(dataPath, setting: "--data")
      } catch {
        Console.error("baas emulator: \(error)")
        return .usage
      }
      let store: UserStore
      do {
        store = try await UserBackends.openUserStore(
          atPath: dataPath, passwordHashIterations: hashCost)
      } catch {
        var problem = "\(error)"
        if case UserStoreError.database(let message) = error { problem = message }
        if let error = error as? UserStoreFileError { problem = error.reason }
        Console.error("baas emulator: cannot open the data file \(dataPath): \(problem)")
        return .usage
      }
      // A read that finds damaged data answers 500; the operator learns here where it is.
      store.reportDamage { line in Console.error("baas emulator: \(line)") }
      if !address.isLoopback {
        Console.error(
          "baas emulator: warning: listening on \(host), not loopback: the emulator accepts "
            + "any API key and the public NCMB demo keys, so anyone who can reach this port "
            + "can create and read accounts; keep it on 127.0.0.1 unless you need otherwise")
      }
      var signing: FirebaseTokenSigning?
      if options.has("sign-tokens") {
        do {
          signing = try FirebaseTokenSigning.generate()
        } catch {
          Console.error("baas emulator: cannot generate the token-signing key: \(error)")
          return .failure
        }
      }
      do {
        let emulator = BackendEmulator(
          store: store, projectID: projectID, logger: context.merging(options).httpLogger,
          tokenSigning: signing,
          recentLoginWindow: window == 0 ? nil : TimeInterval(window))
        let notices = EmulatorCommand.notices(verbose: context.merging(options).verbose)
        let server = EmulatorServer(
          emulator: emulator, host: host, port: port, notices: notices)
        let signals = SignalWatch([SIGINT, SIGTERM])
        let bound = try server.start()
        let base = "http://\(address.clientURLHost):\(bound)"
        let everywhere =
          address.isWildcard
          ? "\n  listening on every address (\(address.urlHost)); from another machine or "
            + "container, use this machine's address or name instead of \(address.clientURLHost)"
          : ""
        let signedTokens =
          signing == nil
          ? ""
          : "\n  ID tokens signed RS256; certificates: \(base)"
            + "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
        Console.out(
          """
          baas emulator ready on \(base)
            Firebase Auth:   \(base)/identitytoolkit.googleapis.com/v1
            Secure Token:    \(base)/securetoken.googleapis.com/v1/token
            Firestore:       \(base)/v1/projects/\(projectID)/databases/(default)/documents
            project ID:      \(projectID)
            NCMB base URL:   \(base) (the API under /2013-09-01)
            NCMB application key: \(NCMBDemoKeys.applicationKey)
            NCMB client key:      \(NCMBDemoKeys.clientKey)\(signedTokens)\(everywhere)
          use it with:
            export FIREBASE_AUTH_EMULATOR_HOST=\(address.clientURLHost):\(bound) \
          FIREBASE_PROJECT_ID=\(projectID) FIREBASE_API_KEY=any-value
            export NCMB_BASE_URL=\(base) NCMB_APPLICATION_KEY=\(NCMBDemoKeys.applicationKey) \
          NCMB_CLIENT_KEY=\(NCMBDemoKeys.clientKey)
          web page: \(base)/
          press Ctrl-C to stop
          """)
        let received = await signals.wait()
        await server.shutDown()
        Console.error("baas emulator: stopped (signal \(received))")
        return .success
      } catch {
        Console.error("baas emulator: cannot start on \(address.urlHost):\(port): \(error)")
        return .failure
      }
    })
}

extension EmulatorCommand {
  /// With `--verbose`, next to the request lines on standard error: one line per
  /// connection closed without an answer (a client talking https to the plain-HTTP port).
  static func notices(verbose: Bool) -> EmulatorServer.NoticeHandler? {
    guard verbose else { return nil }
    return { line in Console.error("baas emulator: \(line)") }
  }
}

/// Catches signals through `DispatchSource` signal sources from the moment it is created
/// (the default actions are turned off, so the process does not die mid-write); ``wait()``
/// returns the first signal received, even one that arrived before the call.
final class SignalWatch {
  private var sources: [any DispatchSourceSignal] = []
  private let state = SignalState()

  init(_ signals: [Int32]) {
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [state] in state.deliver(number) }
      source.resume()
      sources.append(source)
    }
  }

  /// The first signal received.
  func wait() async -> Int32 {
    await withCheckedContinuation { state.wait($0) }
  }

  deinit {
    for source in sources { source.cancel() }
  }
}

/// The first signal number and the task waiting for it.
private final class SignalState: Sendable {
  private let state = LockedValue<(received: Int32?, waiter: CheckedContinuation<Int32, Never>?)>(
    (nil, nil))

  func wait(_ continuation: CheckedContinuation<Int32, Never>) {
    let ready = state.withLock { state -> Int32? in
      if let received = state.received { return received }
      state.waiter = continuation
      return nil
    }
    if let ready { continuation.resume(returning: ready) }
  }

  func deliver(_ number: Int32) {
    let waiter = state.withLock { state -> CheckedContinuation<Int32, Never>? in
      guard state.received == nil else { return nil }
      state.received = number
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: number)
  }
}
