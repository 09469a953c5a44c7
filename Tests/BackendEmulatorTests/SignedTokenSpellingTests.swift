import AccountDatabase
import BackendHTTP
import Foundation
import Testing
import UserBackendKit

@testable import BackendEmulator

/// With `--sign-tokens` a signed ID token has one spelling: the same token with its
/// signature segment padded, in the standard base64 alphabet, or with non-zero unused bits
/// in its last character (lenient decoders read all of these as the same signature) is
/// `INVALID_ID_TOKEN`, as is a padded header.
@Suite("Emulator: --sign-tokens takes only canonical base64url", .timeLimit(.minutes(1)))
struct SignedTokenSpellingTests {
  static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// The lenient respellings of the base64url text `segment`.
  static func respellings(_ segment: String) -> [(String, String)] {
    var result: [(String, String)] = []
    if segment.count % 4 != 0 {
      result.append(("padded", segment + String(repeating: "=", count: 4 - segment.count % 4)))
    }
    if segment.contains(where: { $0 == "-" || $0 == "_" }) {
      result.append(
        ("standard alphabet", String(segment.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })))
    }
    var bytes = Array(segment.utf8)
    let unused: UInt8 = bytes.count % 4 == 2 ? 0x0F : bytes.count % 4 == 3 ? 0x03 : 0
    if unused != 0, let last = bytes.last, let value = alphabet.firstIndex(of: last) {
      bytes[bytes.count - 1] = alphabet[Int(UInt8(value) | unused)]
      result.append(("non-zero trailing bits", String(decoding: bytes, as: UTF8.self)))
    }
    return result
  }

  @Test func respelledSignedTokensAreRefused() async throws {
    let emulator = BackendEmulator(
      store: try makeStore(clock: ManualClock()), projectID: "demo-test",
      tokenSigning: try FirebaseTokenSigning.generate())
    let signUp = await emulator.handle(
      FirebaseRequests().accounts("signUp", ["email": "s@example.com", "password": "secret1"]))
    let token = try #require(signUp.json["idToken"] as? String)
    let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    #expect(
      await emulator.handle(FirebaseRequests().accounts("lookup", ["idToken": token])).status
        == 200)
    // An RSA-2048 signature is 256 bytes: 342 characters, 4 unused bits.
    var variants = Self.respellings(parts[2]).map {
      ("signature " + $0.0, parts[0] + "." + parts[1] + "." + $0.1)
    }
    variants += Self.respellings(parts[0]).map {
      ("header " + $0.0, $0.1 + "." + parts[1] + "." + parts[2])
    }
    #expect(variants.count >= 3)
    for (name, variant) in variants {
      let lookup = await emulator.handle(
        FirebaseRequests().accounts("lookup", ["idToken": variant]))
      #expect(lookup.status == 400, "\(name)")
      #expect(lookup.firebaseMessage == "INVALID_ID_TOKEN", "\(name)")
    }
  }
}
