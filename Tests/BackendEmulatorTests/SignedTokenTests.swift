import AccountDatabase
import BackendEmulator
import BackendHTTP
import FirebaseTokenVerification
import Foundation
import Testing
import UserBackendKit

@Suite("Emulator: --sign-tokens signs ID tokens a server verifier accepts", .timeLimit(.minutes(1)))
struct SignedTokenTests {
  static let certificatesURL = URL(
    string:
      "http://127.0.0.1:9099/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com")!

  @Test func signedTokensVerifyThroughTheServedCertificate() async throws {
    let clock = ManualClock()
    let store = try makeStore(clock: clock)
    let emulator = BackendEmulator(
      store: store, projectID: "demo-test", tokenSigning: try FirebaseTokenSigning.generate())
    let signUp = await emulator.handle(
      FirebaseRequests().accounts("signUp", ["email": "s@example.com", "password": "secret1"]))
    let token = try #require(signUp.json["idToken"] as? String)
    let verifier = FirebaseTokenVerifier(
      configuration: .init(projectID: "demo-test", certificatesURL: Self.certificatesURL),
      transport: EmulatorTransport(emulator), clock: clock)
    let claims = try await verifier.verify(token)
    #expect(claims.email == "s@example.com")
    #expect(claims.signInProvider == "password")
    // The emulator still takes its own signed token.
    let lookup = await emulator.handle(FirebaseRequests().accounts("lookup", ["idToken": token]))
    #expect(lookup.status == 200)
  }

  @Test func unsignedByDefaultAndNoCertificates() async throws {
    let clock = ManualClock()
    let emulator = BackendEmulator(store: try makeStore(clock: clock), projectID: "demo-test")
    let certificates = await emulator.handle(HTTPRequest(method: "GET", url: Self.certificatesURL))
    #expect(certificates.status == 404)
    let signUp = await emulator.handle(
      FirebaseRequests().accounts("signUp", ["email": "u@example.com", "password": "secret1"]))
    let token = try #require(signUp.json["idToken"] as? String)
    let strict = FirebaseTokenVerifier(
      configuration: .init(projectID: "demo-test", certificatesURL: Self.certificatesURL),
      transport: EmulatorTransport(emulator), clock: clock)
    let error = await #expect(throws: TokenRejection.self) { try await strict.verify(token) }
    #expect(error?.reason == .unsupportedAlgorithm)
    let forEmulator = FirebaseTokenVerifier(
      configuration: .init(
        projectID: "demo-test", certificatesURL: Self.certificatesURL, acceptsUnsignedTokens: true),
      transport: EmulatorTransport(emulator), clock: clock)
    #expect(try await forEmulator.verify(token).email == "u@example.com")
  }
}
