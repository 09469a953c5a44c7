// libFuzzer target: the Firebase and NCMB adapters' success-answer decoders, driven
// through the adapters themselves over a transport that answers every request with the
// fuzzed body and status 200.
//
// Input: byte 0 picks the call (Firebase: sign-up, sign-in, anonymous sign-in, reload
// (accounts:lookup), forced token refresh; NCMB: sign-up, login, anonymous sign-in,
// reload (the user object)); the rest is the answer body.
// Invariants: no trap; a failure is a `UserBackendError` from the server's answer
// (`malformedResponse` or a code an embedded error maps to; never `network`,
// `invalidInput` or `misconfigured`); its description, message and code hold none of the
// input's token values nor the credentials the call sent; a failed call leaves the stored
// session as it was (`sessionExpired`, documented to sign out, may only clear it).
import BackendHTTP
import Dispatch
import FirebaseUserBackend
import Foundation
import NCMBUserBackend
import UserBackendKit

struct Answering: HTTPTransport {
  let body: Data
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    HTTPResponse(status: 200, headerFields: ["Content-Type": "application/json"], body: body)
  }
}

final class Outcome: @unchecked Sendable {
  var error: UserBackendError?
  var before: PersistedAuthState?
  var after: PersistedAuthState?
}

let apiKey = "AIzaSyFuzzApiKey0123456789abcdefghijklm"
let (applicationKey, clientKey) = ("fuzzApplicationKey0123456789", "fuzzClientKey0123456789abc")
let password = "fuzz-password-0123"
let storedBearer = "stored-bearer-token-0123456789"
let storedRefresh = "stored-refresh-token-0123456789"
let clock = ManualClock()

func signedIn(_ id: String) -> PersistedAuthState {
  PersistedAuthState(
    session: AuthSession(
      user: User(id: id, email: "ada@example.com", providers: ["password"]),
      bearerToken: storedBearer, refreshToken: storedRefresh,
      expiresAt: clock.now().addingTimeInterval(3600), isNewUser: false))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard size >= 1, let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let call = Int(bytes[0]) % 9
  let body = Data(bytes[1...])
  let transport = Answering(body: body)
  let credential = PasswordCredential.email("ada@example.com", password: password)
  let outcome = Outcome()
  let done = DispatchSemaphore(value: 0)
  // This fuzzer thread is not a cooperative-pool thread: waiting on it is fine.
  Task {
    let store = InMemorySessionStore(call == 3 || call == 4 || call == 8 ? signedIn("u1") : .empty)
    outcome.before = try? await store.load()
    do throws(UserBackendError) {
      if call < 5 {
        let backend = try FirebaseUserBackend(
          configuration: FirebaseConfiguration(apiKey: apiKey, projectID: "demo-fuzz"),
          transport: transport, sessionStore: store, clock: clock)
        switch call {
        case 0: _ = try await backend.signUp(credential)
        case 1: _ = try await backend.signIn(credential)
        case 2: _ = try await backend.signInAnonymously()
        case 3: _ = try await backend.reload()
        default: _ = try await backend.idToken(forceRefresh: true)
        }
      } else {
        let backend = try NCMBUserBackend(
          configuration: NCMBConfiguration(applicationKey: applicationKey, clientKey: clientKey),
          transport: transport, sessionStore: store, clock: clock)
        switch call {
        case 5: _ = try await backend.signUp(credential)
        case 6: _ = try await backend.signIn(credential)
        case 7: _ = try await backend.signInAnonymously()
        default: _ = try await backend.reload()
        }
      }
    } catch {
      outcome.error = error
    }
    outcome.after = try? await store.load()
    done.signal()
  }
  done.wait()
  guard let error = outcome.error else { return 0 }
  switch error.code {
  case .network, .invalidInput, .misconfigured:
    preconditionFailure("a 200 answer failed as \(error.code.name)")
  default: break
  }
  // `.sessionExpired` (an answer without the session's account, a disabled account) signs
  // out, as documented; every other failure keeps the stored state.
  let signedOut = error.code == .sessionExpired && outcome.after?.session == nil
  if outcome.after != outcome.before && !signedOut {
    // -O drops precondition messages: say what changed (fuzz values only).
    FileHandle.standardError.write(
      Data(
        "\(error.code.name): \(String(describing: outcome.before?.session)) -> \(String(describing: outcome.after?.session))\n"
          .utf8))
    preconditionFailure("a failed call changed the stored session")
  }
  let texts = [
    String(describing: error), error.message, "\(error.code)", String(reflecting: error),
  ]
  for secret in tokenValues(body) + [
    apiKey, applicationKey, clientKey, password, storedBearer, storedRefresh,
  ] {
    for text in texts {
      precondition(!text.contains(secret), "an error holds a secret: \(error.code.name)")
    }
  }
  return 0
}

/// The values of token-bearing fields anywhere in `body` (when it parses as JSON) that are
/// long enough to be told from message words: 12 characters or more, with a digit.
func tokenValues(_ body: Data) -> [String] {
  let names: Set<String> = [
    "idToken", "refreshToken", "id_token", "refresh_token", "access_token", "sessionToken",
    "password", "oobCode", "sessionInfo", "temporaryProof", "pendingToken",
  ]
  guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
  else { return [] }
  var found: [String] = []
  func walk(_ item: Any) {
    if let array = item as? [Any] {
      array.forEach(walk)
    } else if let object = item as? [String: Any] {
      for (key, value) in object {
        if names.contains(key), let text = value as? String, text.count >= 12,
          text.contains(where: \.isNumber)
        {
          found.append(text)
        }
        walk(value)
      }
    }
  }
  walk(object)
  return found
}
